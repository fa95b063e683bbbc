"""An Impetuous Order's move measured along its paths (``move A via ...`` for the first
skill, ``move A second via ...`` for the second), for the rules that say where the move
must go (asp/infinity/n3/impetuous_move.lp, asp/infinity/n5/skills/impetuous.lp).

For the mover and the skill whose path it is (each relation's ``step``: 1 or 2), as
relations the facts carry to the rule base:

- ``path_measured``: the path was measured (every placed trooper below is known);
- ``path_length``: how far the path runs, in tenths of an inch;
- ``gap_start`` and ``gap_end``: per other placed trooper, the distance between the two
  Silhouettes (N5 rulebook v5.1.1 p.22, :meth:`Table.distance`) where the path starts
  and where it ends, in tenths of an inch;
- ``path_clear``: per other placed trooper, the straight route from where the path
  starts to base contact with it, as wide as the mover's base, crosses no solid scenery
  and no other trooper's base, at one level (both Silhouettes standing as high): base
  contact is within reach of a Move along that route, the MOV allowing;
- ``path_difficult``: the path crosses difficult terrain (a Special Terrain area that may
  hinder the Movement, both editions' exception to moving the full MOV).

With the enemy Deployment Zone placed (``zone SIDE deployment: ...``, a side other than
the mover's), for the same path:

- ``zone_gap_start`` and ``zone_gap_end``: the distance from the mover's base to the
  zone where the path starts and ends, in tenths of an inch (0: the base touches or
  overlaps it, "inside" as N5 rulebook v5.1.1 p.20 reads a zone: in contact with it);
- ``zone_clear``: the straight route from where the path starts to the zone's closest
  point, as wide as the mover's base, crosses no solid scenery and no other trooper's
  base: a Move along it ends as close to the zone as its MOV allows;
- ``zone_within``: every point of the path (every quarter inch) is inside the zone;
- ``path_doubles_back``: before it first reaches the zone, the path comes back toward
  where it started (a point of it nearer the starting point, by more than a tenth of an
  inch, than an earlier point): "without doubling back from the movement's starting
  position";
- ``zone_left``: the path reaches the zone and leaves it again (it moves as usual only as
  long as it stays inside).

And ``inside_zone`` (step 0) for each placed trooper inside its enemy Deployment Zone
where it stands at the activation.

What is measured is the straight line: a route around the scenery, a Jump or a Climb
(which the rules may oblige, N3 seed 001 p.48) is not sought.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from .measure import EPS, Body, Table, along
from .position import Named, Relation, Span
from .table import CONTACT_TOLERANCE, TableDecl

BACK_TOLERANCE = 0.1  # inches a path may come back toward its start (a tape measure's reading)


def tenths(inches: float) -> int:
    """Inches as whole tenths, rounded to the nearest."""
    return round(inches * 10)


def enemy_zone(decl: TableDecl, side: str) -> BaseGeometry | None:
    """The Deployment Zone (or zones) of the sides other than ``side``, or None when none
    is placed."""
    zones = [Polygon(z.points) for z in decl.zones if z.side.text.casefold() != side.casefold()]
    return unary_union(zones) if zones else None


def zone_gap(zone: BaseGeometry, x: float, y: float, r: float) -> float:
    """How far a base of radius ``r`` centred at (x, y) stands from the zone (0 when it
    touches or overlaps it)."""
    return max(0.0, zone.distance(Point(x, y)) - r)


def inside(zone: BaseGeometry, x: float, y: float, r: float) -> bool:
    """The base touches or overlaps the zone (within the contact tolerance)."""
    return zone_gap(zone, x, y, r) <= CONTACT_TOLERANCE


def doubles_back(route: list[tuple[float, float]]) -> bool:
    """Some point of ``route`` is nearer its first point, by more than BACK_TOLERANCE,
    than an earlier point was."""
    start = route[0]
    farthest = 0.0
    for p in route:
        d = math.dist(start, p)
        if d < farthest - BACK_TOLERANCE:
            return True
        farthest = max(farthest, d)
    return False


def _open(table: Table, mover: Body, start: tuple[float, float], end: tuple[float, float], *keep: str) -> bool:
    """The mover's base, swept from ``start`` to ``end``, meets no solid scenery and no
    other trooper's base at its level (but those of ``keep``)."""
    if math.dist(start, end) <= EPS:
        return True
    corridor = LineString([start, end]).buffer(mover.r - EPS, quad_segs=16)
    if any(corridor.intersects(s.polygon) for s in table.solids):
        return False
    return not any(corridor.intersects(b.circle()) for b in table.bodies.values()
                   if b.id not in (mover.id, *keep) and b.top > mover.z and b.z < mover.top)


def clear_route(table: Table, mover: Body, other: Body) -> bool:
    """The straight route from ``mover`` to base contact with ``other`` is open: at one
    level, and the mover's base, swept along it, meets no solid scenery and no third
    trooper's base."""
    if abs(mover.z - other.z) > EPS:
        return False
    gap = Table.gap(mover, other)
    if gap <= 0:
        return True
    apart = math.hypot(other.x - mover.x, other.y - mover.y)
    f = gap / apart
    end = (mover.x + (other.x - mover.x) * f, mover.y + (other.y - mover.y) * f)
    return _open(table, mover, (mover.x, mover.y), end, other.id)


def zone_route_clear(table: Table, mover: Body, zone: BaseGeometry) -> bool:
    """The straight route from ``mover`` to contact with the zone's closest point is open."""
    gap = zone_gap(zone, mover.x, mover.y, mover.r)
    if gap <= CONTACT_TOLERANCE:
        return True
    centre = Point(mover.x, mover.y)
    closest = nearest_points(zone, centre)[0]
    apart = centre.distance(closest)
    f = gap / apart
    end = (mover.x + (closest.x - mover.x) * f, mover.y + (closest.y - mover.y) * f)
    return _open(table, mover, (mover.x, mover.y), end)


def impetuous_relations(table: Table, decl: TableDecl, mover: Body, end: Body,
                        points: tuple[tuple[float, float], ...], spans: dict[str, Span],
                        step: int = 1) -> list[Relation]:
    """The relations above for the path of skill ``step``, from where ``mover`` stands to
    ``end``."""
    me = Named(mover.id, spans[mover.id])
    relations = [Relation("path_measured", me, me, step)]
    route = [(mover.x, mover.y), *points]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(route))
    relations.append(Relation("path_length", me, me, step, Named(str(tenths(length)), me.span)))
    swept = LineString(route).buffer(mover.r, quad_segs=16)
    if any(d.kind == "difficult" and swept.intersects(Polygon(d.points)) for d in decl.terrain):
        relations.append(Relation("path_difficult", me, me, step))
    for other in table.bodies.values():
        if other.id == mover.id:
            continue
        them = Named(other.id, spans[other.id])
        before, after = tenths(table.distance(mover, other)), tenths(table.distance(replace(end, z=mover.z), other))
        relations.append(Relation("gap_start", me, them, step, Named(str(before), me.span)))
        relations.append(Relation("gap_end", me, them, step, Named(str(after), me.span)))
        if clear_route(table, mover, other):
            relations.append(Relation("path_clear", me, them, step))
    zone = enemy_zone(decl, mover.side)
    if zone is not None:
        relations += _zone_relations(table, zone, mover, route, me, step)
    return relations


def _zone_relations(table: Table, zone: BaseGeometry, mover: Body, route: list[tuple[float, float]], me: Named,
                    step: int) -> list[Relation]:
    walk = [(x, y) for x, y, _ in along(route[0], tuple(route[1:]))]
    start, end = walk[0], walk[-1]
    found = [Relation("zone_gap_start", me, me, step, Named(str(tenths(zone_gap(zone, *start, mover.r))), me.span)),
             Relation("zone_gap_end", me, me, step, Named(str(tenths(zone_gap(zone, *end, mover.r))), me.span))]
    if zone_route_clear(table, mover, zone):
        found.append(Relation("zone_clear", me, me, step))
    within = [inside(zone, x, y, mover.r) for x, y in walk]
    if all(within):
        found.append(Relation("zone_within", me, me, step))
    outside = walk[:within.index(True) + 1] if any(within) else walk
    if doubles_back(outside):
        found.append(Relation("path_doubles_back", me, me, step))
    if any(within) and not all(within[within.index(True):]):
        found.append(Relation("zone_left", me, me, step))
    return found


def inside_relations(table: Table, decl: TableDecl, spans: dict[str, Span]) -> list[Relation]:
    """``inside_zone`` for each placed trooper inside its enemy Deployment Zone."""
    found = []
    for body in table.bodies.values():
        zone = enemy_zone(decl, body.side)
        if zone is not None and inside(zone, body.x, body.y, body.r):
            me = Named(body.id, spans[body.id])
            found.append(Relation("inside_zone", me, me))
    return found
