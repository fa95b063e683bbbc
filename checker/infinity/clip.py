"""Which of many 3-D segments pass through an upright prism, in numpy: the Line of
Fire's inner loop (:mod:`checker.infinity.measure`), where a shapely intersection per
segment would cost a hundred times more.

A prism is a convex polygon (or a circle: a Silhouette's base) between two heights. A
segment's 2-D trace enters and leaves the shape at parameters t0 <= t1 (Cyrus-Beck
clipping for a polygon, a quadratic for a circle); its height is linear in t, so over
the shape it spans the heights at t0 and t1, and it passes through the prism when that
span reaches below the top and above the bottom. A concave polygon is cut into
triangles first (:func:`convex_parts`).
"""

from __future__ import annotations

import numpy as np
import shapely

EPS = 1e-9  # a segment grazing a border is not cut by it


def convex_parts(polygon) -> list[np.ndarray]:
    """The polygon as convex pieces, each its vertices counter-clockwise (n x 2)."""
    parts = [polygon] if abs(polygon.convex_hull.area - polygon.area) <= 1e-9 * max(polygon.area, 1) else \
        list(shapely.get_parts(shapely.constrained_delaunay_triangles(polygon)))
    pieces = []
    for part in parts:
        ring = np.asarray(shapely.orient_polygons(part).exterior.coords)[:-1]
        pieces.append(ring)
    return pieces


def _heights_cut(start: np.ndarray, end: np.ndarray, t0: np.ndarray, t1: np.ndarray, hit: np.ndarray,
                 bottom: float, top: float) -> np.ndarray:
    z0 = start[:, 2] + t0 * (end[:, 2] - start[:, 2])
    z1 = start[:, 2] + t1 * (end[:, 2] - start[:, 2])
    low, high = np.minimum(z0, z1), np.maximum(z0, z1)
    return hit & (low < top - EPS) & (high > bottom + EPS)


def through_convex(start: np.ndarray, end: np.ndarray, ring: np.ndarray, bottom: float, top: float) -> np.ndarray:
    """Which segments (rows of ``start``, ``end``: x, y, z) pass through the prism of the
    convex ``ring`` (counter-clockwise) between ``bottom`` and ``top``."""
    p0, d = start[:, :2], end[:, :2] - start[:, :2]
    edges = np.roll(ring, -1, axis=0) - ring
    inward = np.column_stack([-edges[:, 1], edges[:, 0]])  # left of each edge: inside a CCW ring
    a = np.einsum("nej,ej->ne", p0[:, None, :] - ring[None, :, :], inward)
    b = d @ inward.T
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -a / b
    entering = np.where(b > EPS, t, -np.inf).max(axis=1)
    leaving = np.where(b < -EPS, t, np.inf).min(axis=1)
    outside_parallel = ((np.abs(b) <= EPS) & (a < -EPS)).any(axis=1)
    t0, t1 = np.maximum(entering, 0.0), np.minimum(leaving, 1.0)
    hit = (t0 <= t1) & ~outside_parallel
    return _heights_cut(start, end, np.where(hit, t0, 0.0), np.where(hit, t1, 0.0), hit, bottom, top)


def through_circle(start: np.ndarray, end: np.ndarray, centre: tuple[float, float], radius: float,
                   bottom: float, top: float) -> np.ndarray:
    """Which segments pass through the upright cylinder on ``centre`` and ``radius``
    (:func:`through_circles` with one cylinder)."""
    return through_circles(start, end, np.array([[centre[0], centre[1], radius, bottom, top]], dtype=float))


def through_circles(start: np.ndarray, end: np.ndarray, circles: np.ndarray) -> np.ndarray:
    """Which segments pass through any of several upright cylinders, rows of
    ``circles`` being (x, y, radius, bottom, top)."""
    p0 = start[:, None, :2] - circles[None, :, :2]  # n x k x 2
    d = (end[:, :2] - start[:, :2])[:, None, :]
    qa = (d * d).sum(axis=2)
    qb = 2 * (d * p0).sum(axis=2)
    qc = (p0 * p0).sum(axis=2) - circles[None, :, 2] ** 2
    disc = qb * qb - 4 * qa * qc
    root = np.sqrt(np.maximum(disc, 0.0))
    safe = np.where(qa > 0, qa, 1.0)
    t0 = np.maximum((-qb - root) / (2 * safe), 0.0)
    t1 = np.minimum((-qb + root) / (2 * safe), 1.0)
    hit = (disc > EPS) & (qa > 0) & (t0 <= t1)
    dz = (end[:, 2] - start[:, 2])[:, None]
    z0 = start[:, 2][:, None] + t0 * dz
    z1 = start[:, 2][:, None] + t1 * dz
    low, high = np.minimum(z0, z1), np.maximum(z0, z1)
    return (hit & (low < circles[None, :, 4] - EPS) & (high > circles[None, :, 3] + EPS)).any(axis=1)
