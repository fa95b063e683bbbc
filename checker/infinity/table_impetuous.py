"""An Impetuous Order's move measured along its path (``move A via ...``), for the rules
that say where the move must go (asp/infinity/n3/impetuous_move.lp,
asp/infinity/n5/skills/impetuous.lp).

For the mover, as relations the facts carry to the rule base:

- ``path_measured``: the path was measured (every placed trooper below is known);
- ``path_length``: how far the path runs, in tenths of an inch;
- ``gap_start`` and ``gap_end``: per other placed trooper, the distance between the two
  Silhouettes (N5 rulebook v5.1.1 p.22, :meth:`Table.distance`) where the mover stands at
  the activation and at the end of the path, in tenths of an inch;
- ``path_clear``: per other placed trooper, the straight route from where the mover
  stands to base contact with it, as wide as the mover's base, crosses no solid scenery
  and no other trooper's base, at one level (both Silhouettes standing as high): base
  contact is within reach of a Move along that route, the MOV allowing;
- ``path_difficult``: the path crosses difficult terrain (a Special Terrain area that may
  hinder the Movement, both editions' exception to moving the full MOV).

What is measured is the straight line: a route around the scenery, a Jump or a Climb
(which the rules may oblige, N3 seed 001 p.48) is not sought.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from shapely.geometry import LineString

from .measure import EPS, Body, Table
from .position import Named, Relation, Span
from .table import TableDecl


def tenths(inches: float) -> int:
    """Inches as whole tenths, rounded to the nearest."""
    return round(inches * 10)


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
    corridor = LineString([(mover.x, mover.y), end]).buffer(mover.r - EPS, quad_segs=16)
    if any(corridor.intersects(s.polygon) for s in table.solids):
        return False
    return not any(corridor.intersects(b.circle()) for b in table.bodies.values()
                   if b.id not in (mover.id, other.id) and b.top > mover.z and b.z < mover.top)


def impetuous_relations(table: Table, decl: TableDecl, mover: Body, end: Body,
                        points: tuple[tuple[float, float], ...], spans: dict[str, Span]) -> list[Relation]:
    """The relations above for ``mover``, whose path ends at ``end``."""
    me = Named(mover.id, spans[mover.id])
    relations = [Relation("path_measured", me, me)]
    route = [(mover.x, mover.y), *points]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(route))
    relations.append(Relation("path_length", me, me, 0, Named(str(tenths(length)), me.span)))
    swept = LineString(route).buffer(mover.r, quad_segs=16)
    if any(d.kind == "difficult" and swept.intersects(_area(d)) for d in decl.terrain):
        relations.append(Relation("path_difficult", me, me))
    for other in table.bodies.values():
        if other.id == mover.id:
            continue
        them = Named(other.id, spans[other.id])
        before, after = tenths(table.distance(mover, other)), tenths(table.distance(replace(end, z=mover.z), other))
        relations.append(Relation("gap_start", me, them, 0, Named(str(before), me.span)))
        relations.append(Relation("gap_end", me, them, 0, Named(str(after), me.span)))
        if clear_route(table, mover, other):
            relations.append(Relation("path_clear", me, them))
    return relations


def _area(d):
    from shapely.geometry import Polygon

    return Polygon(d.points)
