"""The Impetuous move measured (checker/infinity/table_impetuous.py): the straight route
to base contact, the distances before and after the path, its length and the difficult
terrain it crosses; the enemy Deployment Zone's distance, whether the path stays inside
it or doubles back; the second skill's path; and the relations a player states instead."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from checker.infinity import notation
from checker.infinity.measure import Body, Solid, Table, along
from checker.infinity.position import Named, Span
from checker.infinity.table import TableDecl, TerrainDecl, ZoneDecl, silhouette_inches
from checker.infinity.table_impetuous import (
    clear_route,
    doubles_back,
    enemy_zone,
    impetuous_relations,
    inside,
    tenths,
    zone_gap,
)

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


# ---- The enemy Deployment Zone (`zone SIDE deployment: ...`) and the second skill's path

ZONE = ((0.0, 60.0), (48.0, 60.0), (48.0, 72.0), (0.0, 72.0))


def _zone_decl(side: str = "b", *terrain: TerrainDecl) -> TableDecl:
    return TableDecl(terrain=terrain, zones=(ZoneDecl(Named(side, HERE), ZONE),))


def _zone_found(decl: TableDecl, table: Table, points, step: int = 1):
    mover = table.bodies["a"]
    end = replace(mover, x=points[-1][0], y=points[-1][1])
    spans = {i: HERE for i in table.bodies}
    found = impetuous_relations(table, decl, mover, end, points, spans, step)
    assert all(r.step == step for r in found)
    return {r.kind: r.value.text if r.value else None for r in found if r.subject.text == r.object.text}


def test_zone_gap_from_the_base_edge_and_zero_inside():
    zone = Polygon(ZONE)
    assert zone_gap(zone, 20, 20, R) == 40 - R
    assert zone_gap(zone, 20, 65, R) == 0.0
    assert inside(zone, 20, 60 - R, R) and not inside(zone, 20, 59.9 - R, R)  # a border touched is inside


def test_only_the_other_sides_zone_is_the_enemy_zone():
    decl = _zone_decl("a")
    assert enemy_zone(decl, "a") is None and enemy_zone(decl, "b") is not None


def test_zone_distances_before_and_after_a_straight_move():
    a = body("a", 20, 20)
    found = _zone_found(_zone_decl(), Table([a], []), ((20, 24),))
    assert (found["zone_gap_start"], found["zone_gap_end"]) == (str(tenths(40 - R)), str(tenths(36 - R)))
    assert "zone_clear" in found and "zone_within" not in found and "path_doubles_back" not in found


def test_wall_on_the_route_to_the_zone_closes_it():
    a = body("a", 20, 20)
    found = _zone_found(_zone_decl(), Table([a], [wall(10, 40, 30, 41)]), ((20, 24),))
    assert "zone_clear" not in found


def test_path_inside_the_zone_all_along():
    a = body("a", 20, 65)
    found = _zone_found(_zone_decl(), Table([a], []), ((16, 65),))
    assert "zone_within" in found and found["zone_gap_start"] == found["zone_gap_end"] == "0"


def test_doubling_back_is_coming_back_toward_the_start():
    assert doubles_back([(20, 20), (20, 22), (21, 21.5), (21, 24)])  # 2 inches out, then 1.8 from the start
    assert not doubles_back([(20, 20), (22, 20), (22, 24)])  # a turn, never nearer the start
    assert not doubles_back([(20, 20), (20, 22), (20.5, 21.95)])  # within a tenth of an inch


def test_doubling_back_inside_the_zone_is_not_counted():
    a = body("a", 20, 57.5)
    found = _zone_found(_zone_decl(), Table([a], []), ((20, 59.6), (20, 58.0)))
    assert "path_doubles_back" not in found  # it reached the zone before turning back


def test_a_path_is_walked_every_quarter_inch_with_the_corners():
    walk = [(x, y) for x, y, _ in along((0, 0), ((1, 0), (1, 0.5)))]
    assert walk[0] == (0, 0) and (1, 0) in walk and walk[-1] == (1, 0.5) and len(walk) == 7


def test_second_path_relations_carry_step_two():
    a, b = body("a", 20, 20), body("b", 20, 30, side="b")
    mover = replace(a, y=24)
    spans = {"a": HERE, "b": HERE}
    found = impetuous_relations(Table([a, b], []), TableDecl(), mover, replace(mover, y=26), ((20, 26),), spans, 2)
    gaps = {r.kind: r.value.text for r in found if r.kind.startswith("gap_") and r.value}
    assert all(r.step == 2 for r in found)
    assert gaps == {"gap_start": str(tenths(6 - 2 * R)), "gap_end": str(tenths(4 - 2 * R))}


def test_zone_statements_parse():
    text = """edition n5
active nomads
trooper ber nomads { S 2; skills: Impetuous }
trooper fus panoceania { S 2 }
at ber 20 20
at fus 40 40
zone panoceania deployment: 0 60, 48 60, 48 72
move ber via 20 24
move ber second via 20 28
toward ber -> zone from second
inside ber -> zone
order ber impetuous: Move + Move
"""
    pos = notation.parse(text)
    assert pos.table is not None
    assert [(z.side.text, z.points) for z in pos.table.zones] == [("panoceania", ((0, 60), (48, 60), (48, 72)))]
    assert [(m.skill, m.points) for m in pos.table.moves] == [(1, ((20, 24),)), (2, ((20, 28),))]
    assert [(r.kind, r.subject.text, r.step) for r in pos.relations] == [("toward_zone", "ber", 2),
                                                                        ("inside_zone", "ber", 0)]


def test_path_that_reaches_the_zone_and_leaves_it():
    a = body("a", 20, 57.5)
    found = _zone_found(_zone_decl(), Table([a], []), ((20, 59.6), (20, 58.0)))
    assert "zone_left" in found and "zone_within" not in found
