"""Relations measured from the table, merged with the stated ones.

A position that places troopers (``at``) has its relations measured
(:mod:`checker.infinity.measure`): they become the same ``lof``, ``zoc``, ``contact``,
``distance`` and ``cover`` relations a player states, so the rule base reads them as it
reads stated ones; a template placed (``template``) fills its attack's brackets. A stated
relation between two placed troopers that the measure contradicts is a position error
naming both; a stated relation the table does not measure stays as written. The
verdict's Table section says which relations were measured and which stated.

Measured pairs: every placed trooper with each activated one (with the active side's
troopers when no Order is written), both ways; contact between every two placed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..engine.errors import PositionError
from . import table_areas, table_moves
from .game import Trooper
from .measure import Body, Solid, Table
from .position import Named, Position, Relation, Span
from .table import (
    CONTACT_TOLERANCE,
    DISTANCE_TOLERANCE,
    SILHOUETTE_SOURCE,
    TEMPLATE_SOURCE,
    TEMPLATES,
    TableDecl,
    silhouette_inches,
)

MEASURED_KINDS = ("lof", "zoc", "contact", "distance", "cover")


@dataclass(frozen=True)
class Measured:
    """What the table gave: the position with its relations and brackets filled, the
    verdict's Table lines, and the table values no stored source confirms, as (id,
    name, source, troopers)."""

    position: Position
    lines: tuple[str, ...]
    unverified: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    table: Table
    pairs: tuple[tuple[str, str], ...]  # the ordered pairs whose lof was measured
    lof: dict[tuple[str, str], bool | None]  # per measured pair: LoF, or None (no facing)
    ends: dict[str, Body] = field(default_factory=dict)  # each mover's body at the end of its path


def bodies_of(decl: TableDecl, troopers: dict[str, Trooper], error: Callable[[str, Named | None], PositionError]) -> Table:
    """The :class:`Table` of the placed troopers and the solid scenery."""
    bodies = []
    where = {p.trooper.text: p for p in decl.placements}
    for p in decl.placements:
        if p.trooper.text not in troopers:
            raise error(f"'at' places an unknown trooper id {p.trooper.text!r}; troopers here: "
                        f"{', '.join(sorted(troopers))}", p.trooper)
        t = troopers[p.trooper.text]
        s = dict(t.attributes).get("s")
        if s is None:
            raise error(f"{t.id!r} is placed but its Silhouette is unknown: write 'S N' in its block", p.trooper)
        r, h = silhouette_inches(s, "prone" in t.states)
        facing = p.facing
        if p.toward is not None:
            other = where.get(p.toward.text)
            if other is None:
                raise error(f"{t.id!r} faces {p.toward.text!r}, which no 'at' places", p.toward)
            if other is p:
                raise error(f"{t.id!r} cannot face itself", p.toward)
            facing = math.degrees(math.atan2(other.x - p.x, other.y - p.y)) % 360
        bodies.append(Body(t.id, t.side, p.x, p.y, r, p.elevation, h, facing))
    solids = [Solid(d.id.text, _polygon(d, error), d.height or 0.0) for d in decl.terrain if d.kind == "solid"]
    for d in decl.terrain:
        if d.kind != "solid":
            _polygon(d, error)
    return Table(bodies, solids)


def _polygon(d, error):
    from shapely.geometry import Polygon

    polygon = Polygon(d.points)
    if (not polygon.is_valid or polygon.area <= 0) and error is not None:
        raise error(f"terrain {d.id.text!r} is not a simple polygon: its sides cross or it has no area", d.id)
    return polygon


def apply(pos: Position, troopers: tuple[Trooper, ...], error: Callable[..., PositionError]) -> Measured | None:
    """The position with its table measured, or None when it places nothing."""
    decl = pos.table
    if decl is None or not decl.placements:
        if decl is not None and decl.templates:
            raise error("a template is placed but no trooper is: write 'at ID X Y' for its attacker and target",
                        decl.templates[0].attacker)
        if decl is not None and decl.zones:
            raise error("a Deployment Zone is placed but no trooper is: write 'at ID X Y' for the troopers it concerns",
                        decl.zones[0].side)
        return None
    by_id = {t.id: t for t in troopers}
    table = bodies_of(decl, by_id, error)
    spans = {p.trooper.text: p.trooper.span for p in decl.placements}
    _check_overlaps(table, spans, error, pos)
    edition = pos.edition.text if pos.edition else "n5"
    focus = [o.trooper.text for o in pos.orders if o.trooper.text in table.bodies]
    if not pos.orders:
        active = pos.active.text if pos.active else ""
        focus = [b.id for b in table.bodies.values() if b.side.casefold() == active.casefold()]
    measured: dict[tuple[str, str, str], str | None] = {}
    lof: dict[tuple[str, str], bool | None] = {}
    pairs: list[tuple[str, str]] = []
    for f in focus:
        for other in table.bodies:
            if other == f:
                continue
            for a, b in ((f, other), (other, f)):
                if (a, b) in lof:
                    continue
                pairs.append((a, b))
                _measure_pair(table, table.bodies[a], table.bodies[b], edition, measured, lof)
    for a_body, b_body in table.near_pairs():
        if Table.in_contact(a_body, b_body):
            measured[_key("contact", a_body.id, b_body.id)] = None
    contact_all = True
    path, path_lines, ends = table_moves.apply_moves(pos, table, edition, spans, measured, error)
    relations = _merge(pos, measured, lof, set(pairs), table, spans, error, contact_all) + tuple(path)
    relations += table_areas.zones(pos, decl, table, pairs, spans)
    orders, aros, template_lines = table_areas.templates(pos, decl, table, error, ends)
    lines = _lines(pos, focus, lof, table, template_lines + path_lines)
    unverified = _unverified(decl, edition, table)
    return Measured(replace(pos, relations=relations, orders=orders, aros=aros), lines, unverified, table,
                    tuple(pairs), lof, ends)


def _check_overlaps(table: Table, spans: dict[str, Span], error, pos: Position) -> None:
    for a, b in table.near_pairs():
        if Table.gap(a, b) < -CONTACT_TOLERANCE and Table.vertical_gap(a, b) <= 0:
            raise error(f"the bases of {a.id!r} and {b.id!r} overlap by {-Table.gap(a, b):.2f} inches: "
                        "no table can hold them", Named(b.id, spans[b.id]))
    for a in table.bodies.values():
        for solid in table.touching_solids(a):
            piece = next(s for s in table.solids if s.id == solid)
            if piece.polygon.contains(_point(a)) and a.z < piece.height:
                raise error(f"{a.id!r} stands inside solid terrain {solid!r} (below its height {piece.height:g}): "
                            "write its 'elevation' if it stands on top", Named(a.id, spans[a.id]))


def _point(a: Body):
    from shapely.geometry import Point

    return Point(a.x, a.y)


def _measure_pair(table: Table, a: Body, b: Body, edition: str, measured: dict, lof: dict) -> None:
    """The relations of the ordered pair (a, b): a's LoF to b, b inside a's ZoC, the
    distance, and b's Partial Cover from a."""
    if table.in_zoc(a, b, edition):
        measured[("zoc", a.id, b.id)] = None
    key = _key("distance", a.id, b.id)
    if key not in measured:
        measured[key] = f"{table.distance(a, b):.1f}"
    arc = Table.in_arc(a, b)
    seen, cutters = table.sight_between(a, b)
    measured[("sight", a.id, b.id)] = "clear" if seen else "blocked"
    if seen and cutters & table.touching_solids(b):
        measured[("cover", b.id, a.id)] = "partial"
    lof[(a.id, b.id)] = None if arc is None else (arc and seen)
    if lof[(a.id, b.id)]:
        measured[("lof", a.id, b.id)] = None


def _key(kind: str, a: str, b: str) -> tuple[str, str, str]:
    """The key of a relation with no direction (contact, distance)."""
    first, second = sorted((a, b))
    return kind, first, second


def _text(r: Relation) -> str:
    a, b = r.subject.text, r.object.text
    value = r.value.text if r.value else ""
    return {"lof": f"lof {a} -> {b}", "zoc": f"zoc {a} -> {b}", "contact": f"contact {a} {b}",
            "distance": f"distance {a} {b} {value}", "cover": f"cover {a} {value} from {b}"}.get(r.kind, r.kind)


def _merge(pos: Position, measured: dict, lof: dict, pairs: set, table: Table, spans: dict[str, Span], error,
           contact_all: bool) -> tuple[Relation, ...]:
    """The stated relations, each checked against the measure where it was taken,
    then the measured ones no statement already gives."""
    bodies = table.bodies
    stated: set[tuple[str, str, str]] = set()
    for r in pos.relations:
        a, b = r.subject.text, r.object.text
        if r.kind not in MEASURED_KINDS or a not in bodies or b not in bodies:
            continue
        key = (r.kind, a, b) if r.kind in ("lof", "zoc", "cover") else _key(r.kind, a, b)
        stated.add(key)
        reason = _contradiction(r, measured, lof, pairs, table)
        if reason:
            raise error(f"stated '{_text(r)}' (line {r.subject.span.line}) contradicts the table: {reason}",
                        r.subject, (("a relation the 'at' and 'terrain' lines agree with, or none: "
                                    "ruling measures it"),))
    added = []
    for key, value in measured.items():
        kind, a, b = key
        if kind == "sight" or key in stated:
            continue
        named_value = Named(value, spans[b]) if value is not None else None
        added.append(Relation(kind, Named(a, spans[a]), Named(b, spans[b]), 0, named_value))
    return tuple(pos.relations) + tuple(added)


def _contradiction(r: Relation, measured: dict, lof: dict, pairs: set, table: Table) -> str | None:
    a, b = r.subject.text, r.object.text
    A, B = table.bodies[a], table.bodies[b]
    later = r.step > 0
    if r.kind == "lof":
        got = lof.get((a, b))
        if got is None:
            return None
        if not got and not later:
            if not Table.in_arc(A, B):
                return f"measured, {b} stands outside {a}'s front 180-degree arc"
            return f"measured, solid terrain blocks every line from {a}'s Silhouette to {b}'s"
        if got and later:
            return f"measured 'lof {a} -> {b}' already at the activation, not only {_step(r.step)}"
        return None
    if r.kind == "zoc":
        if (a, b) not in pairs:
            return None
        got = ("zoc", a, b) in measured
        if not got and not later:
            return (f"measured, {b}'s base is {Table.gap(A, B):.2f} inches from {a}'s (vertical gap "
                    f"{Table.vertical_gap(A, B):.2f}), outside its 8-inch Zone of Control")
        if got and later:
            return f"measured 'zoc {a} -> {b}' already at the activation, not only {_step(r.step)}"
        return None
    if r.kind == "contact":
        got = _key("contact", a, b) in measured
        if not got and not later:
            return f"measured, their bases are {Table.gap(A, B):.2f} inches apart, not in contact"
        if got and later:
            return f"measured 'contact {a} {b}' already at the activation, not only {_step(r.step)}"
        return None
    if r.kind == "distance":
        if (a, b) not in pairs and (b, a) not in pairs or r.value is None:
            return None
        got = table.distance(A, B)
        if abs(float(r.value.text) - got) > DISTANCE_TOLERANCE:
            return f"measured 'distance {a} {b} {got:.2f}' (closest parts of the Silhouettes)"
        return None
    if r.kind == "cover" and (b, a) in pairs and r.value is not None:
        if r.value.text == "partial" and ("cover", a, b) not in measured:
            return (f"measured, {a} is not in contact with solid scenery that hides part of its Silhouette "
                    f"from {b}")
        if r.value.text == "total" and measured.get(("sight", b, a)) == "clear":
            return f"measured, a line from {b}'s Silhouette reaches {a}'s past all scenery"
    return None


def _step(step: int) -> str:
    return "from the first skill" if step == 1 else "from the second skill"


def _lines(pos: Position, focus: list[str], lof: dict, table: Table, template_lines: list[str]) -> tuple[str, ...]:
    placed = sorted(table.bodies)
    lines = [(f"Measured from 'at' and 'terrain': lof, zoc, distance and cover between {', '.join(focus) or 'nobody'} "
             f"and the other placed troopers ({len(placed) - len(set(focus))}), both ways; contact between every "
             "two placed troopers")]
    no_facing = sorted({a for (a, _b), v in lof.items() if v is None})
    if no_facing:
        lines.append(f"Not measured: the LoF of {', '.join(no_facing)} (no facing written): only stated LoF counts")
    stated = [r for r in pos.relations if r.kind in MEASURED_KINDS]
    if stated:
        lines.append("Stated (checked against the table where both troopers are placed): "
                     + "; ".join(f"{_text(r)} (line {r.subject.span.line})" for r in stated))
    unplaced = [t.id.text for t in pos.troopers if t.id.text not in table.bodies]
    if unplaced:
        lines.append(f"Not placed (their relations are only the stated ones): {', '.join(unplaced)}")
    lines.extend(template_lines)
    zones = [t.id.text for t in (pos.table.terrain if pos.table else ()) if t.kind == "zone"]
    if zones:
        lines.append(f"Visibility Zones measured ({', '.join(zones)}): a zone the line between two measured troopers' "
                     "base centres crosses, or a placed trooper's base touches (inside); stated 'visibility' lines are "
                     "taken as written, not checked")
    difficult = [t.id.text for t in (pos.table.terrain if pos.table else ()) if t.kind == "difficult"]
    if difficult:
        lines.append(f"Not read by any rule: difficult terrain {', '.join(difficult)} (drawn only)")
    return tuple(lines)


def _unverified(decl: TableDecl, edition: str, table: Table) -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    items = []
    for shape in sorted({t.shape for t in decl.templates}):
        users = tuple(sorted({t.attacker.text for t in decl.templates if t.shape == shape}))
        length, width = TEMPLATES[shape]
        name = f"{shape.title()} Template ({length:g} x {width:g} inches)"
        items.append((shape.replace(" ", "_"), name, TEMPLATE_SOURCE, users))
    if edition != "n5":
        items.append(("silhouettes", "Silhouette Templates (N5 sizes)",
                      (f"unverified: no stored {edition.upper()} source gives the Silhouette sizes; the N5 table "
                      f"is used ({SILHOUETTE_SOURCE})"), tuple(sorted(table.bodies))))
    return tuple(items)
