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
from dataclasses import dataclass, replace

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from . import clip
from .table import CONTACT_TOLERANCE, MM, TEMPLATES, ZOC_INCHES

PATH_STEP = 0.25  # inches between the points of a path tried (LoF along it, a zone reached, doubling back)
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
    circle: tuple[float, float, float] | None = None  # a Silhouette's base: centre and radius
    parts: tuple = ()  # a polygon's convex pieces (clip.convex_parts), filled by Table

    def cuts(self, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """Which segments pass through this prism (:mod:`checker.infinity.clip`)."""
        if self.circle is not None:
            x, y, r = self.circle
            return clip.through_circle(start, end, (x, y), r, self.bottom, self.height)
        cut = np.zeros(len(start), dtype=bool)
        for ring in self.parts:
            cut |= clip.through_convex(start, end, ring, self.bottom, self.height)
        return cut


class Table:
    """The bodies and solids of one position, with a spatial index over the solids."""

    def __init__(self, bodies: list[Body], solids: list[Solid]):
        self.bodies = {b.id: b for b in bodies}
        self.solids = [replace(s, parts=tuple(clip.convex_parts(s.polygon))) for s in solids]
        self.tree = STRtree([s.polygon for s in self.solids]) if solids else None
        self.ids = list(self.bodies)
        self._sights: dict[tuple[str, str], tuple[bool, frozenset[str]]] = {}
        self._touching: dict[str, set[str]] = {}
        # every base as a row (x, y, radius, bottom, top): the obstacles between two troopers
        self.rows = np.array([(b.x, b.y, b.r, b.z, b.top) for b in bodies]).reshape(-1, 5)
        self.centres = STRtree(shapely.points(self.rows[:, :2])) if bodies else None

    def near_pairs(self) -> list[tuple[Body, Body]]:
        """Every two bodies whose bases are within the contact tolerance or overlap,
        found through a spatial index (no pair of the whole table is tried)."""
        if self.centres is None:
            return []
        reach = 2 * float(self.rows[:, 2].max()) + CONTACT_TOLERANCE
        left, right = self.centres.query(shapely.points(self.rows[:, :2]), predicate="dwithin", distance=reach)
        bodies = list(self.bodies.values())
        return [(bodies[i], bodies[j]) for i, j in zip(left.tolist(), right.tolist(), strict=True)
                if i < j and self.gap(bodies[i], bodies[j]) <= CONTACT_TOLERANCE]

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
        for solid in self._solids_between(a, b):
            cut = solid.cuts(start, end)
            if cut.any():
                cutters.add(solid.id)
                blocked |= cut
        if bodies_block and not blocked.all():
            circles = self._bodies_between(a, b)
            if len(circles):
                blocked |= clip.through_circles(start, end, circles)
        return bool((~blocked).any()), frozenset(cutters)

    def sight_between(self, a: Body, b: Body) -> tuple[bool, frozenset[str]]:
        """:meth:`sight`, once per two troopers: both ends are sampled alike, so it is
        the same both ways."""
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if key not in self._sights:
            self._sights[key] = self.sight(a, b)
        return self._sights[key]

    def _solids_between(self, a: Body, b: Body) -> list[Solid]:
        if self.tree is None:
            return []
        corridor = shapely.convex_hull(shapely.union(a.circle(), b.circle()))
        return [self.solids[i] for i in self.tree.query(corridor, predicate="intersects")]

    def _bodies_between(self, a: Body, b: Body) -> np.ndarray:
        """The rows of the other bases that reach the corridor between ``a`` and ``b``
        (their centres within their radius plus the wider of the two of the line between
        the two centres), in numpy over the whole table."""
        ax, ay, bx, by = a.x, a.y, b.x, b.y
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy or 1.0
        px, py = self.rows[:, 0] - ax, self.rows[:, 1] - ay
        t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0)
        far = np.hypot(px - t * dx, py - t * dy)
        near = far <= self.rows[:, 2] + max(a.r, b.r)
        near[[self.ids.index(a.id)] if a.id in self.bodies else []] = False
        near[[self.ids.index(b.id)] if b.id in self.bodies else []] = False
        return self.rows[near]

    def touching_solids(self, b: Body) -> set[str]:
        """The solids ``b``'s base is in contact with (or stands partly over)."""
        if self.tree is None:
            return set()
        if b.id not in self._touching:
            near = b.circle().buffer(CONTACT_TOLERANCE)
            self._touching[b.id] = {self.solids[i].id for i in self.tree.query(near, predicate="intersects")}
        return self._touching[b.id]

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


def along(start: tuple[float, float], points: tuple[tuple[float, float], ...]) -> list[tuple[float, float, float]]:
    """Points of the path from ``start`` through ``points`` every PATH_STEP inches (and
    each corner), with how far along each is."""
    out = [(start[0], start[1], 0.0)]
    walked = 0.0
    here = start
    for there in points:
        length = math.dist(here, there)
        count = max(1, math.ceil(length / PATH_STEP))
        for k in range(1, count + 1):
            f = k / count
            out.append((here[0] + (there[0] - here[0]) * f, here[1] + (there[1] - here[1]) * f, walked + length * f))
        walked += length
        here = there
    return out
