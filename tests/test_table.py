"""The table (docs/table.md): measured relations against their rules' borders, the
numpy clipping against shapely, and the pictures ``ruling draw`` makes, element by
element, for every case with coordinates."""

from __future__ import annotations

import math
import random
import tomllib
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import shapely
from click.testing import CliRunner
from shapely.geometry import Polygon

from checker.cli import EXIT_BAD_INPUT, EXIT_OK, main
from checker.infinity import clip, draw, notation, resolve, table_check
from checker.infinity.measure import Body, Solid, Table
from checker.infinity.plugin import GAME as INFINITY
from checker.infinity.table import CONTACT_TOLERANCE, silhouette_inches
from checker.urban_war.plugin import GAME as URBAN_WAR

from .conftest import ROOT

SVG = "{http://www.w3.org/2000/svg}"
R, H = silhouette_inches(2, False)
TABLE_CASES = sorted((ROOT / "cases" / "n5" / "table").glob("*.toml")) + sorted((ROOT / "cases" / "n3" / "table").glob("*.toml"))


def body(name: str, x: float, y: float, facing: float | None = 0.0, z: float = 0.0) -> Body:
    return Body(name, "a", x, y, R, z, H, facing)


def test_zoc_border_is_inside_and_just_past_it_outside():
    a = body("a", 10, 10)
    for gap, inside in ((8.0, True), (8.0 + 1e-6, False), (7.999, True)):
        b = body("b", 10 + 2 * R + gap, 10)
        assert Table([a, b], []).in_zoc(a, b, "n5") is inside, gap


def test_n5_zoc_reaches_8_inches_above_the_silhouette_only():
    a = body("a", 10, 10)
    for z, n5_inside in ((H + 8.0, True), (H + 8.01, False)):
        b = body("b", 12, 10, z=z)
        table = Table([a, b], [])
        assert table.in_zoc(a, b, "n5") is n5_inside
        assert table.in_zoc(a, b, "n3")  # N3's ZoC is written without a height


def test_contact_within_the_tolerance():
    a = body("a", 10, 10)
    assert Table.in_contact(a, body("b", 10 + 2 * R + CONTACT_TOLERANCE, 10))
    assert not Table.in_contact(a, body("b", 10 + 2 * R + CONTACT_TOLERANCE + 0.001, 10))


def test_arc_counts_a_base_partly_inside():
    a = body("a", 10, 10, facing=0)
    assert Table.in_arc(a, body("b", 10 + 5, 10 - R + 0.001))
    assert not Table.in_arc(a, body("b", 10 + 5, 10 - R - 0.001))
    assert Table.in_arc(body("c", 0, 0, facing=None), a) is None


def test_lof_is_measured_the_same_both_ways():
    rng = random.Random(5)
    walls = [Solid(f"w{i}", Polygon([(x, y), (x + 3, y), (x + 3, y + 0.3), (x, y + 0.3)]), rng.uniform(0.5, 3))
             for i, (x, y) in enumerate((rng.uniform(0, 20), rng.uniform(0, 20)) for _ in range(8))]
    bodies = [body(f"t{i}", rng.uniform(0, 24), rng.uniform(0, 24), z=rng.choice((0, 0, 2))) for i in range(12)]
    table = Table(bodies, walls)
    for a in bodies:
        for b in bodies:
            if a is not b:
                assert table.sight(a, b) == table.sight(b, a), (a.id, b.id)


def test_clipping_agrees_with_shapely():
    """clip.through_convex / through_circle against shapely's intersection of each
    segment's trace, with the heights at the ends of the clipped piece."""
    rng = random.Random(11)
    concave = Polygon([(2, 2), (8, 2), (8, 8), (6, 8), (6, 4), (4, 4), (4, 8), (2, 8)])
    circle = shapely.Point(5, 5).buffer(1.5, quad_segs=64)
    start = np.array([(rng.uniform(0, 10), rng.uniform(0, 10), rng.uniform(0, 3)) for _ in range(400)])
    end = np.array([(rng.uniform(0, 10), rng.uniform(0, 10), rng.uniform(0, 3)) for _ in range(400)])
    parts = clip.convex_parts(concave)
    got = np.zeros(len(start), dtype=bool)
    for ring in parts:
        got |= clip.through_convex(start, end, ring, 0.0, 1.5)
    assert got.tolist() == [_shapely_cut(s, e, concave, 0.0, 1.5) for s, e in zip(start, end, strict=True)]
    got_circle = clip.through_circle(start, end, (5, 5), 1.5, 0.5, 2.0).tolist()
    want = [_shapely_cut(s, e, circle, 0.5, 2.0) for s, e in zip(start, end, strict=True)]
    assert sum(a != b for a, b in zip(got_circle, want, strict=True)) <= 2  # the polygon only approximates the circle


def _shapely_cut(s, e, polygon, bottom: float, top: float) -> bool:
    piece = shapely.LineString([s[:2], e[:2]]).intersection(polygon)
    if piece.is_empty:
        return False
    along = e[:2] - s[:2]
    zs = [s[2] + float(np.dot(np.array(c) - s[:2], along) / np.dot(along, along)) * (e[2] - s[2])
          for c in shapely.get_coordinates(piece)]
    return min(zs) < top - 1e-9 and max(zs) > bottom + 1e-9


@pytest.mark.parametrize("path", TABLE_CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_picture_of_each_table_case(path):
    """Each case's picture has one base per placed trooper, one polygon per piece of
    scenery and template, and one LoF line per measured pair, coloured by its measure."""
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    if case["command"] == "error":
        return
    text = case["position"]
    picture = INFINITY.picture(text, str(path))
    assert picture is not None
    root = ET.fromstring(picture)
    position = notation.parse(text)
    game = resolve.resolve(position)
    measured = table_check.apply(position, game.troopers, _no_error)
    assert position.table is not None and measured is not None
    troopers = root.findall(f".//{SVG}g[@class='trooper']")
    assert sorted(t.get("data-id") for t in troopers) == sorted(p.trooper.text for p in position.table.placements)
    for t in troopers:
        assert len(t.findall(f"{SVG}circle[@class='base']")) == 1
        assert len(t.findall(f"{SVG}path[@class='arc']")) == 1  # every case writes a facing
    terrain = root.findall(f".//{SVG}polygon")
    assert sum("terrain" in (p.get("class") or "") for p in terrain) == len(position.table.terrain)
    assert sum(p.get("class") == "template" for p in terrain) == len(position.table.templates)
    lines = {(ln.get("data-from"), ln.get("data-to")): ln.get("class") for ln in root.findall(f".//{SVG}line")}
    want = {pair: "lof " + {True: "lof-yes", False: "lof-no", None: "lof-pending"}[seen] for pair, seen in measured.lof.items()}
    assert lines == want
    assert root.findall(f".//{SVG}circle[@class='zoc']") == []


def _no_error(message, named, expected=()):
    raise AssertionError(message)


def test_picture_with_zoc_circles_and_its_colours():
    text = (ROOT / "cases" / "n5" / "table" / "scenery_tall_wall_blocks.toml").read_text(encoding="utf-8")
    position = tomllib.loads(text)["position"]
    root = ET.fromstring(draw.picture(position, "wall.pos", zoc=True) or "")
    assert len(root.findall(f".//{SVG}circle[@class='zoc']")) == 2
    radius = float(root.findall(f".//{SVG}circle[@class='zoc']")[0].get("r") or 0)
    assert math.isclose(radius, (R + 8) * draw.SCALE, abs_tol=0.01)
    assert {ln.get("class") for ln in root.findall(f".//{SVG}line")} == {"lof lof-no"}


def test_picture_with_a_deployment_zone_and_a_second_path():
    text = (ROOT / "cases" / "n5" / "impetuous" / "second_move_into_contact.toml").read_text(encoding="utf-8")
    position = tomllib.loads(text)["position"]
    root = ET.fromstring(draw.picture(position, "zone.pos") or "")
    zones = root.findall(f".//{SVG}polygon[@class='deployment-zone']")
    assert [z.get("data-side") for z in zones] == ["panoceania"]
    moves = root.findall(f".//{SVG}polyline[@class='move']")
    first, second = (m.get("points", "").split() for m in moves)
    assert second[0] == first[-1]  # the second skill's path starts where the first ended


def test_no_picture_without_coordinates():
    assert INFINITY.picture((ROOT / "examples" / "hellcat.pos").read_text(encoding="utf-8"), "hellcat.pos") is None
    text = (ROOT / "examples" / "urban-war-overwatch.pos").read_text(encoding="utf-8")
    assert URBAN_WAR.picture(text, "urban-war-overwatch.pos") is None


def test_ruling_draw_writes_the_svg(tmp_path):
    case = tomllib.loads((ROOT / "cases" / "n3" / "table" / "seed_hellcat_all_three_shoot.toml").read_text(encoding="utf-8"))
    source = tmp_path / "hellcat.pos"
    source.write_text(case["position"], encoding="utf-8")
    out = tmp_path / "hellcat.svg"
    result = CliRunner().invoke(main, ["draw", str(source), "-o", str(out), "--zoc"], catch_exceptions=False)
    assert result.exit_code == EXIT_OK, result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert len(root.findall(f".//{SVG}polygon[@class='template']")) == 1
    missing = CliRunner().invoke(main, ["draw", str(ROOT / "examples" / "hellcat.pos"), "-o", str(out)])
    assert missing.exit_code == EXIT_BAD_INPUT and "places no trooper" in missing.output


def test_ruling_draw_png(tmp_path):
    pytest.importorskip("cairosvg")
    case = tomllib.loads((ROOT / "cases" / "n5" / "table" / "cover_wall_in_contact_gives_partial_cover.toml").read_text(encoding="utf-8"))
    source = tmp_path / "cover.pos"
    source.write_text(case["position"], encoding="utf-8")
    out = tmp_path / "cover.png"
    result = CliRunner().invoke(main, ["draw", str(source), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == EXIT_OK
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_grammar_table_example_parses():
    """The Table section's example in grammar/position.lark reads into the table's
    statements (placements, terrain of each kind, templates both ways, both skills' paths, a
    Deployment Zone)."""
    from checker.engine.resources import grammar_file

    lines = grammar_file().read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("// ---") and line.endswith("Table"))
    example = [line[5:] for line in lines[start:] if line.startswith("//   ") and not line.startswith("//    ")]
    header = "edition n5\nactive nomads\ntrooper fus1 panoceania { S 2 }\ntrooper hellcat nomads { S 2 }\n"
    table = notation.parse(header + "\n".join(example) + "\n").table
    assert table is not None
    assert [p.trooper.text for p in table.placements] == ["fus1", "hellcat"]
    assert table.placements[1].toward is not None and table.placements[1].elevation == 2
    assert [(t.kind, t.zone, t.height) for t in table.terrain] == [("solid", None, 1.5), ("zone", "poor", None),
                                                                   ("difficult", None, None)]
    assert [(t.shape, t.placement) for t in table.templates] == [("small teardrop", "direct"), ("circular", "impact")]
    assert [(m.skill, m.points) for m in table.moves] == [(1, ((12.0, 14.0), (15.0, 18.0))), (2, ((15.0, 22.0),))]
    assert [(z.side.text, len(z.points)) for z in table.zones] == [("nomads", 4)]
