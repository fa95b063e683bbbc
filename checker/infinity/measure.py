"""Measure the table with shapely: distances edge to edge, Zones of Control, base
contact, Line of Fire through scenery, Partial Cover and the troopers a template covers.

Only this module and :mod:`checker.infinity.draw` know shapely. Each trooper is a
:class:`Body`, the cylinder its Silhouette Template gives (checker/infinity/table.py);
each solid piece of scenery a prism: its polygon raised to its height.

Line of Fire (N5 rulebook v5.1.1 pp.18-19; seed 003 p.33): the target is totally or
partially inside the viewer's front 180-degree arc (the half plane ahead of the line
through its base centre square to its facing; a border touched counts as inside), and
a straight segment joins a point of one Silhouette to a point of the other without
passing through any solid scenery below its height. The points tried are a vertical
cross-section of each Silhouette, square to the line between them: five across its
width by three up its height (bottom, middle, top), each 1.5 mm inside its outline, so a
point seen is the centre of a 3 x 3 mm square of its volume (the minimum the rules ask;
whether the whole square is seen is not checked). Both ends are sampled alike, so LoF
is measured the same both ways, as the rules have it (N5 v5.1.1 p.19: the target can
draw LoF back, arc permitting).
Other troopers' Silhouettes are obstacles too (N5 v5.1.1 p.18: "the Silhouette of any
Model (friendly or enemy)"; seed 003 p.38's Hellcat example: the first Fusilier blocks
the others' LoF), cylinders from their bottom to their top; a template's Blast Focus
sees past them (seed 003 p.38: only scenery gives Total Cover from a template).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from .table import CONTACT_TOLERANCE, MM, TEMPLATES, ZOC_INCHES

EPS = 1e-9  # float noise: a border exactly touched counts as touched
ACROSS = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])  # the points across a Silhouette, as fractions of its radius
INSET = 1.5 * MM  # how far inside the target's outline its points stand (half of 3 mm)


@dataclass(frozen=True)
class Body:
    """A trooper on the table: base centre, radius, bottom and height (inches), facing
    (a bearing in degrees, or None when unwritten)."""

    id: str
    side: str
    x: float
    y: float
    r: float
    z: float
    h: float
    facing: float | None = None

    @property
    def top(self) -> float:
        return self.z + self.h

    def circle(self) -> BaseGeometry:
        """Its base (a point for a template's Blast Focus, which has no base)."""
        centre = Point(self.x, self.y)
        return centre.buffer(self.r, quad_segs=16) if self.r > 0 else centre


@dataclass(frozen=True)
class Solid:
    """A piece of scenery that blocks LoF up to its height (or a trooper's Silhouette,
    ``body``, from its bottom to its top)."""

    id: str
    polygon: BaseGeometry
    height: float
    bottom: float = 0.0
    body: bool = False


class Table:
    """The bodies and solids of one position, with a spatial index over the solids."""

    def __init__(self, bodies: list[Body], solids: list[Solid]):
        self.bodies = {b.id: b for b in bodies}
        self.solids = solids
        self.tree = STRtree([s.polygon for s in solids]) if solids else None
        self.obstacles = solids + [Solid(b.id, b.circle(), b.top, b.z, True) for b in bodies]
        self.obstacle_tree = STRtree([o.polygon for o in self.obstacles]) if self.obstacles else None

    # ---- distances -----------------------------------------------------------------

    @staticmethod
    def gap(a: Body, b: Body) -> float:
        """The horizontal gap between two bases, edge to edge (negative: they overlap)."""
        return math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r

    @staticmethod
    def vertical_gap(a: Body, b: Body) -> float:
        """The vertical gap between two Silhouettes (0 when their heights overlap)."""
        return max(0.0, max(a.z, b.z) - min(a.top, b.top))

    def distance(self, a: Body, b: Body) -> float:
        """Between the closest parts of the two Silhouettes (N5 v5.1.1 p.22)."""
        return math.hypot(max(self.gap(a, b), 0.0), self.vertical_gap(a, b))

    def in_zoc(self, a: Body, b: Body, edition: str) -> bool:
        """``b`` inside ``a``'s Zone of Control: within 8 inches of its Silhouette's edge, a
        border touched counts (N5 v5.1.1 p.20 "INSIDE": in contact with the zone); in N5
        also within 8 inches above its top or below its bottom (the ZoC's cylinder)."""
        if self.gap(a, b) > ZOC_INCHES + EPS:
            return False
        return edition != "n5" or self.vertical_gap(a, b) <= ZOC_INCHES + EPS

    @staticmethod
    def in_contact(a: Body, b: Body) -> bool:
        return abs(Table.gap(a, b)) <= CONTACT_TOLERANCE and Table.vertical_gap(a, b) <= CONTACT_TOLERANCE

    # ---- Line of Fire --------------------------------------------------------------

    @staticmethod
    def in_arc(a: Body, b: Body) -> bool | None:
        """``b`` totally or partially in ``a``'s front 180 degrees; None without a facing."""
        if a.facing is None:
            return None
        bearing = math.radians(a.facing)
        ahead = (b.x - a.x) * math.sin(bearing) + (b.y - a.y) * math.cos(bearing)
        return ahead >= -b.r - EPS

    def sight(self, a: Body, b: Body, bodies_block: bool = True) -> tuple[bool, frozenset[str]]:
        """Whether any segment from ``a``'s volume reaches ``b``'s, and the pieces of
        scenery that cut some of the segments tried (a target partly hidden by them)."""
        eyes = _cross_section(a, b, INSET)
        marks = _cross_section(b, a, INSET)
        start = np.repeat(eyes, len(marks), axis=0)
        end = np.tile(marks, (len(eyes), 1))
        blocked = np.zeros(len(start), dtype=bool)
        cutters: set[str] = set()
        for solid in self._solids_between(a, b, bodies_block):
            cut = _cuts(start, end, solid)
            if cut.any():
                if not solid.body:
                    cutters.add(solid.id)
                blocked |= cut
        return bool((~blocked).any()), frozenset(cutters)

    def _solids_between(self, a: Body, b: Body, bodies_block: bool) -> list[Solid]:
        tree, pieces = (self.obstacle_tree, self.obstacles) if bodies_block else (self.tree, self.solids)
        if tree is None:
            return []
        corridor = shapely.convex_hull(shapely.union(a.circle(), b.circle()))
        found = [pieces[i] for i in tree.query(corridor, predicate="intersects")]
        return [p for p in found if not (p.body and p.id in (a.id, b.id))]

    def touching_solids(self, b: Body) -> set[str]:
        """The solids ``b``'s base is in contact with (or stands partly over)."""
        if self.tree is None:
            return set()
        near = b.circle().buffer(CONTACT_TOLERANCE)
        return {self.solids[i].id for i in self.tree.query(near, predicate="intersects")}

    # ---- templates -----------------------------------------------------------------

    def template(self, shape: str, placement: str, attacker: Body, target: Body) -> tuple[BaseGeometry, tuple[float, float]]:
        """The template's area and its Blast Focus: a Circular one centred on the
        attacker (direct) or the target (impact); a Teardrop's narrow end touching the
        attacker's base toward the target (direct) or the target's base edge nearest
        the attacker, following the LoF (impact, N3)."""
        length, width = TEMPLATES[shape]
        if shape == "circular":
            centre = attacker if placement == "direct" else target
            return Point(centre.x, centre.y).buffer(length / 2, quad_segs=16), (centre.x, centre.y)
        dx, dy = target.x - attacker.x, target.y - attacker.y
        norm = math.hypot(dx, dy) or 1.0
        ux, uy = dx / norm, dy / norm
        if placement == "direct":
            fx, fy = attacker.x + ux * attacker.r, attacker.y + uy * attacker.r
        else:
            fx, fy = target.x - ux * target.r, target.y - uy * target.r
        far = Point(fx + ux * (length - width / 2), fy + uy * (length - width / 2)).buffer(width / 2, quad_segs=16)
        return shapely.convex_hull(shapely.union(far, Point(fx, fy))), (fx, fy)

    def covered(self, area: BaseGeometry, focus: tuple[float, float], height: float, z: float) -> list[str]:
        """The bodies the template's area touches (base in contact or partly inside,
        N5 v5.1.1 p.44, seed 003 p.38) that a LoF from its Blast Focus reaches (seed 003
        p.38, N5 v5.1.1 p.49: scenery gives Total Cover from a template)."""
        near = area.buffer(CONTACT_TOLERANCE)
        found = []
        for body in self.bodies.values():
            if not near.intersects(body.circle()):
                continue
            focus_body = Body("focus", "", focus[0], focus[1], 0.0, z, height)
            seen, _ = self.sight(focus_body, body, bodies_block=False)
            if seen:
                found.append(body.id)
        return found


def _cross_section(body: Body, other: Body, inset: float) -> np.ndarray:
    """Points (x, y, z) of ``body``'s Silhouette: a vertical cross-section square to the
    line toward ``other``, ``inset`` inside its outline."""
    dx, dy = other.x - body.x, other.y - body.y
    norm = math.hypot(dx, dy) or 1.0
    px, py = -dy / norm, dx / norm
    half = max(body.r - inset, 0.0)
    low, high = body.z + min(inset, body.h / 2), body.top - min(inset, body.h / 2)
    heights = np.array([low, (low + high) / 2, high])
    across = ACROSS * half
    xs = np.repeat(body.x + px * across, len(heights))
    ys = np.repeat(body.y + py * across, len(heights))
    zs = np.tile(heights, len(across))
    return np.column_stack([xs, ys, zs])


def _cuts(start: np.ndarray, end: np.ndarray, solid: Solid) -> np.ndarray:
    """Which segments pass through ``solid``'s prism: over its polygon somewhere between
    its bottom and its height. A segment's height is linear along it, so over the
    polygon it spans the heights between the ends of the pieces the polygon clips (one
    piece for a convex polygon; for a concave one, the span of its pieces together)."""
    lines = shapely.linestrings(np.stack([start[:, :2], end[:, :2]], axis=1))
    pieces = shapely.intersection(lines, solid.polygon)
    coords, index = shapely.get_coordinates(pieces, return_index=True)
    cut = np.zeros(len(start), dtype=bool)
    if len(index) == 0:
        return cut
    p0, p1 = start[index], end[index]
    along = p1[:, :2] - p0[:, :2]
    length2 = (along ** 2).sum(axis=1)
    t = np.where(length2 > 0, ((coords - p0[:, :2]) * along).sum(axis=1) / np.where(length2 > 0, length2, 1), 0.0)
    z = p0[:, 2] + t * (p1[:, 2] - p0[:, 2])
    low = np.full(len(start), np.inf)
    high = np.full(len(start), -np.inf)
    np.minimum.at(low, index, z)
    np.maximum.at(high, index, z)
    return (low < solid.height - EPS) & (high > solid.bottom + EPS)
