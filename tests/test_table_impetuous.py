"""The Impetuous move measured (checker/infinity/table_impetuous.py): the straight route
to base contact, the distances before and after the path, its length and the difficult
terrain it crosses; and the relations a player states instead."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from checker.infinity import notation
from checker.infinity.measure import Body, Solid, Table
from checker.infinity.position import Named, Span
from checker.infinity.table import TableDecl, TerrainDecl, silhouette_inches
from checker.infinity.table_impetuous import clear_route, impetuous_relations, tenths

R, H = silhouette_inches(2, False)
HERE = Span(1, 1)


def body(name: str, x: float, y: float, z: float = 0.0, side: str = "a") -> Body:
    return Body(name, side, x, y, R, z, H, 0.0)


def wall(x0: float, y0: float, x1: float, y1: float) -> Solid:
    return Solid("wall", Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), 3.0)


def test_tenths_round_to_the_nearest():
    assert (tenths(2.04), tenths(2.06), tenths(0.0)) == (20, 21, 0)


def test_open_route_reaches_contact():
    a, b = body("a", 20, 20), body("b", 20, 24, side="b")
    assert clear_route(Table([a, b], []), a, b)


def test_wall_across_the_route_closes_it():
    a, b = body("a", 20, 20), body("b", 20, 24, side="b")
    assert not clear_route(Table([a, b], [wall(17, 21.8, 23, 22.2)]), a, b)


def test_wall_beside_the_route_leaves_it_open():
    a, b = body("a", 20, 20), body("b", 20, 24, side="b")
    assert clear_route(Table([a, b], [wall(22, 21.8, 26, 22.2)]), a, b)


def test_third_trooper_on_the_route_closes_it():
    a, b, c = body("a", 20, 20), body("b", 20, 30, side="b"), body("c", 20.5, 25)
    assert not clear_route(Table([a, b, c], []), a, b)


def test_enemy_on_another_level_is_not_reached_straight():
    a, b = body("a", 20, 20), body("b", 20, 24, z=3.0, side="b")
    assert not clear_route(Table([a, b], []), a, b)


def test_enemy_already_in_contact_is_reached():
    a = body("a", 20, 20)
    b = body("b", 20, 20 + 2 * R, side="b")
    assert clear_route(Table([a, b], [wall(17, 21.8, 23, 22.2)]), a, b)


def _relations(decl: TableDecl, table: Table, points):
    mover = table.bodies["a"]
    end = replace(mover, x=points[-1][0], y=points[-1][1])
    spans = {i: HERE for i in table.bodies}
    return {(r.kind, r.object.text): r.value.text if r.value else None
            for r in impetuous_relations(table, decl, mover, end, points, spans)}


def test_distances_before_and_after_the_path_and_its_length():
    a, b = body("a", 20, 20), body("b", 20, 30, side="b")
    found = _relations(TableDecl(), Table([a, b], []), ((20, 22), (23, 26)))
    gap = 10 - 2 * R
    assert found[("path_length", "a")] == str(tenths(2 + 5))
    assert found[("gap_start", "b")] == str(tenths(gap))
    assert found[("gap_end", "b")] == str(tenths(((23 - 20) ** 2 + (26 - 30) ** 2) ** 0.5 - 2 * R))
    assert ("path_clear", "b") in found and ("path_measured", "a") in found
    assert ("path_difficult", "a") not in found


def test_path_across_difficult_terrain():
    a, b = body("a", 20, 20), body("b", 40, 40, side="b")
    rubble = TerrainDecl(Named("rubble", HERE), "difficult", ((19, 21), (21, 21), (21, 23), (19, 23)))
    found = _relations(TableDecl(terrain=(rubble,)), Table([a, b], []), ((20, 24),))
    assert ("path_difficult", "a") in found


def test_stated_impetuous_relations_parse():
    text = """edition n3
active nomads
trooper ber nomads { characteristics: Impetuous }
trooper fus panoceania
nearest ber -> fus
toward ber -> fus
reach ber -> fus
order ber impetuous: Move + Move
"""
    kinds = [(r.kind, r.subject.text, r.object.text) for r in notation.parse(text).relations]
    assert kinds == [("nearest", "ber", "fus"), ("toward", "ber", "fus"), ("reach", "ber", "fus")]
