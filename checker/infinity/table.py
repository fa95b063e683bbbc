"""The table as a position writes it: where each trooper stands (``at``), the scenery
(``terrain``) and the templates placed (``template``), and the sizes the rules give them.

Distances are inches; a point is (x, y) with x to the right and y away from the player
at the table's near edge; a facing is degrees, 0 along +y and 90 along +x (clockwise).
:mod:`checker.infinity.measure` measures the relations these give, and
:mod:`checker.infinity.table_check` merges them with the stated ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from .position import Named

MM = 1 / 25.4  # inches in a millimetre

# The Silhouette Templates (Infinity N5 rulebook v5.1.1 p.18, "Silhouette Templates"):
# S -> (base diameter, height) in millimetres. A trooper in Prone State is an SX: its own
# base, 3 mm high (the table's note: "While in Prone State, the width of the base
# corresponds with the Trooper's Silhouette Attribute").
SILHOUETTE_SOURCE = ("paolobellina-lab/infinity-n5-app REGOLE_N5_v5_1_1.txt.txt (Infinity N5 rulebook v5.1.1, "
                     "24 Apr 2025) p.18, Silhouette Templates")
SILHOUETTES_MM: dict[int, tuple[float, float]] = {
    0: (25, 3), 1: (25, 25), 2: (25, 40), 3: (40, 32), 4: (55, 32), 5: (40, 45), 6: (40, 55), 7: (55, 67), 8: (70, 70),
}
PRONE_HEIGHT_MM = 3.0  # SX: the base height

# The rulebooks name three templates (N5 v5.1.1 p.43, seed 003 p.38) without their sizes,
# and their height is their radius, or half their width (the same pages). No stored
# source gives the length and width: each is an Unverified value a verdict names.
TEMPLATE_SOURCE = ("unverified: the N5 rulebook v5.1.1 p.43 and seed 003 p.38 name the Circular, Small and Large "
                   "Teardrop Templates without their sizes; these are the templates' common printed sizes, "
                   "confirmed by no stored source")
TEMPLATES: dict[str, tuple[float, float]] = {  # shape -> (length, width) in inches
    "circular": (3.0, 3.0),  # a circle: length and width are its diameter
    "small teardrop": (5.5, 2.4),
    "large teardrop": (8.5, 3.5),
}

ZOC_INCHES = 8.0  # N5 v5.1.1 p.20; N3 http://wiki.infinitythegame.com/en/Zone_of_Control_(ZoC)
# Two bases whose edges are this close are in contact (half a millimetre: closer than a
# tape measure reads); closer than minus this, they overlap, which no table can hold.
CONTACT_TOLERANCE = 0.02
# A stated distance that differs from the measured one by more than this contradicts it.
DISTANCE_TOLERANCE = 0.1
BOUNDS = (0.0, 96.0)  # every coordinate, height and elevation, as position.RANGES["distance"]


@dataclass(frozen=True)
class Placement:
    """``at fus1 10 12 facing 90 elevation 2``: a trooper's base centre, its facing (a
    bearing, or toward another trooper) and how high it stands."""

    trooper: Named
    x: float
    y: float
    facing: float | None = None
    toward: Named | None = None
    elevation: float = 0.0


@dataclass(frozen=True)
class TerrainDecl:
    """``terrain wall solid height 1.5: x y, ...``: a scenery polygon, its kind (solid,
    difficult, zone) and, for a zone, which Visibility Zone."""

    id: Named
    kind: str
    points: tuple[tuple[float, float], ...]
    height: float | None = None
    zone: str | None = None


@dataclass(frozen=True)
class TemplateDecl:
    """``template hellcat small teardrop -> fus1`` (a Direct Template, placed from the
    attacker toward its main target) or ``... on fus1`` (an Impact Template: a Circular
    one over the main target's base centre; a Teardrop, N3, touching the edge of its base
    nearest the attacker, following the LoF)."""

    attacker: Named
    shape: str
    placement: str  # direct | impact
    target: Named


@dataclass(frozen=True)
class MoveDecl:
    """``move alg via 12 14, 15 18``: the path of the activated trooper's first skill,
    from where it stands through these points (checker/infinity/table_moves.py);
    ``move alg second via ...``, its second skill's, from where the first one ended."""

    trooper: Named
    points: tuple[tuple[float, float], ...]
    skill: int = 1  # 1: the first skill's path; 2: the second's


@dataclass(frozen=True)
class ZoneDecl:
    """``zone nomads deployment: x y, ...``: a side's Deployment Zone, a polygon on the
    table (read by the Impetuous move, checker/infinity/table_impetuous.py)."""

    side: Named
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class TableDecl:
    """Every table statement of a position."""

    placements: tuple[Placement, ...] = ()
    terrain: tuple[TerrainDecl, ...] = ()
    templates: tuple[TemplateDecl, ...] = ()
    moves: tuple[MoveDecl, ...] = ()
    zones: tuple[ZoneDecl, ...] = ()


def silhouette_inches(s: int, prone: bool) -> tuple[float, float]:
    """(radius, height) in inches of a Silhouette ``s``; a prone one is 3 mm high."""
    base, height = SILHOUETTES_MM[s]
    return base * MM / 2, (PRONE_HEIGHT_MM if prone else height) * MM
