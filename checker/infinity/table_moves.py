"""Moves as paths: ``move alg via 12 14, 15 18`` (the activated trooper's first skill
moves it along these points from where it stands).

What the path gives, as relations that hold from the first skill on (``from first``, as
a player would state them): a reacting trooper whose ZoC the mover enters at some point
of the path (N5 rulebook v5.1.1 p.20: "checking a maximum of 8 inches from any point
along their path"), one that draws LoF to it at some point (its arc and the scenery
as at the activation; the mover blocks no LoF along its route, p.19), the mover's LoF to
each trooper it sees from some point (360 degrees along its route, p.19), and base
contact at the end of the path. The distances for the rest of the Order are measured
from the end of the path, where a second skill is declared. The verdict's Table section
says, for each trooper, at which point of the path it first sees the mover or has it
in its ZoC.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon

from ..engine import catalogue as cat
from .measure import Body, Table, along
from .position import Named, Relation, Span
from .table_impetuous import enemy_zone, impetuous_relations, inside_relations


def path_relations(table: Table, mover: Body, points: tuple[tuple[float, float], ...], edition: str,
                   spans: dict[str, Span], at_start: dict | set, step: int = 1) -> tuple[list[Relation], list[str], Body]:
    """The relations the path of skill ``step`` adds (from that skill), the Table lines
    naming where each arises, and the mover's body at the end of the path."""
    samples = along((mover.x, mover.y), points)
    relations: list[Relation] = []
    lines: list[str] = []
    end = replace(mover, x=samples[-1][0], y=samples[-1][1])
    named_mover = Named(mover.id, spans[mover.id])
    whose = "" if step == 1 else "second "
    for other in table.bodies.values():
        if other.id == mover.id:
            continue
        named_other = Named(other.id, spans[other.id])
        zoc_at = next((s for s in samples if table.in_zoc(other, replace(mover, x=s[0], y=s[1]), edition)), None)
        if zoc_at is not None and ("zoc", other.id, mover.id) not in at_start:
            relations.append(Relation("zoc", named_other, named_mover, step))
            lines.append(f"{mover.id}'s {whose}path enters {other.id}'s ZoC {zoc_at[2]:.1f} inches along, at "
                         f"({zoc_at[0]:.1f}, {zoc_at[1]:.1f})")
        # the mover's own Silhouette where it started blocks nothing: it shares the mover's id
        seen_at = mover_sees = None
        for s in samples:
            there = replace(mover, x=s[0], y=s[1])
            if not table.sight(other, there)[0]:
                continue
            mover_sees = mover_sees or s  # 360 degrees along its route
            if Table.in_arc(other, there):
                seen_at = s
                break
        if seen_at is not None and ("lof", other.id, mover.id) not in at_start:
            relations.append(Relation("lof", named_other, named_mover, step))
            lines.append(f"{other.id} draws LoF to {mover.id} {seen_at[2]:.1f} inches along its {whose}path, at "
                         f"({seen_at[0]:.1f}, {seen_at[1]:.1f})")
        if mover_sees is not None and ("lof", mover.id, other.id) not in at_start:
            relations.append(Relation("lof", named_mover, named_other, step))
        if Table.in_contact(end, other) and ("contact", *sorted((mover.id, other.id))) not in at_start:
            relations.append(Relation("contact", named_mover, named_other, step))
            lines.append(f"{mover.id}'s {whose}path ends in base contact with {other.id}")
    return relations, lines, end


def _check_toward(pos, found: list[Relation], error) -> None:
    """A stated ``toward A -> E`` for a path measured: the path must end nearer E than A
    stood, or the statement contradicts the table (a position error naming both)."""
    gaps = {(r.kind, r.step, r.subject.text, r.object.text): int(r.value.text) for r in found
            if "gap_" in r.kind and r.value}
    for r in pos.relations:
        step = max(1, r.step)
        if r.kind == "toward":
            start = gaps.get(("gap_start", step, r.subject.text, r.object.text))
            end = gaps.get(("gap_end", step, r.subject.text, r.object.text))
            stated, what = f"toward {r.subject.text} -> {r.object.text}", r.object.text
        elif r.kind == "toward_zone":
            start = gaps.get(("zone_gap_start", step, r.subject.text, r.subject.text))
            end = gaps.get(("zone_gap_end", step, r.subject.text, r.subject.text))
            stated, what = f"toward {r.subject.text} -> zone", "the enemy Deployment Zone"
        else:
            continue
        if start is not None and end is not None and end >= start and not (r.kind == "toward_zone" and end == 0):
            phase = " from second" if step == 2 else ""
            raise error(f"stated '{stated}{phase}' (line {r.subject.span.line}) contradicts the table: measured, the "
                        f"path ends {end / 10:.1f} inches from {what}, which stood {start / 10:.1f} inches away",
                        r.subject, ("a relation the 'move' path gives, or none: ruling measures it",))


def _first_moves(pos, edition: str, trooper: str) -> bool:
    """Whether the trooper's first skill may move it: a skill the catalogue gives the
    Movement Label, or one it does not know (a second skill's path then needs the first's)."""
    order = next((o for o in pos.orders if o.trooper.text == trooper), None)
    if order is None or not order.skills:
        return True
    entry = cat.load(edition).find("skills", order.skills[0].name.text)
    return entry is None or "movement" in (entry.get("labels") or ())


def _inside(pos, table: Table, spans: dict[str, Span], error) -> list[Relation]:
    """``inside_zone`` measured for each placed trooper in its enemy Deployment Zone
    placed; a stated ``inside A -> zone`` (at the activation) the table contradicts is a
    position error."""
    decl = pos.table
    if not decl or not decl.zones:
        return []
    sides = {t.side.text.casefold() for t in pos.troopers} | ({pos.active.text.casefold()} if pos.active else set())
    for z in decl.zones:
        if z.side.text.casefold() not in sides:
            raise error(f"'zone' places the Deployment Zone of {z.side.text!r}, a side no trooper belongs to "
                        f"(sides here: {', '.join(sorted(sides))}); write one of its troopers, a Dead one if none "
                        "is left on the table", z.side)
        if not Polygon(z.points).is_valid:
            raise error(f"the Deployment Zone of {z.side.text!r} is not a simple polygon: its sides cross", z.side)
    found = inside_relations(table, decl, spans)
    inside = {r.subject.text for r in found}
    for r in pos.relations:
        a = r.subject.text
        if r.kind == "inside_zone" and r.step == 0 and a in table.bodies and a not in inside \
                and enemy_zone(decl, table.bodies[a].side) is not None:
            raise error(f"stated 'inside {a} -> zone' (line {r.subject.span.line}) contradicts the table: measured, "
                        f"{a}'s base is outside its enemy Deployment Zone", r.subject,
                        ("a relation the 'at' and 'zone' lines agree with, or none: ruling measures it",))
    stated = {r.subject.text for r in pos.relations if r.kind == "inside_zone" and r.step == 0}
    return [r for r in found if r.subject.text not in stated]


def apply_moves(pos, table: Table, edition: str, spans: dict[str, Span], measured: dict, error
                ) -> tuple[list[Relation], list[str], dict[str, Body]]:
    """Every ``move`` of the position: the relations its path adds (those not stated),
    the Table lines, and each mover's body at the end of its path. The distances of
    ``measured`` that involve a mover are measured again from there. A stated ``from
    first`` relation of a mover that neither the activation nor the path gives is a
    position error naming both."""
    decl = pos.table
    relations: list[Relation] = []
    lines: list[str] = []
    ends: dict[str, Body] = {}
    activated = {o.trooper.text for o in pos.orders}
    impetuous = {o.trooper.text for o in pos.orders if o.impetuous}
    firsts = {m.trooper.text for m in decl.moves if m.skill == 1} if decl else set()
    measured_impetuous: list[Relation] = []
    for m in sorted(decl.moves, key=lambda m: m.skill) if decl else ():
        if m.trooper.text not in table.bodies:
            raise error(f"'move' for {m.trooper.text!r}, which no 'at' places", m.trooper)
        if m.trooper.text not in activated:
            raise error(f"'move' gives the path of the activated trooper's first skill, and {m.trooper.text!r} has "
                        "no 'order'", m.trooper)
        if m.skill == 2 and m.trooper.text not in firsts and _first_moves(pos, edition, m.trooper.text):
            raise error(f"'move {m.trooper.text} second' starts where the first skill's path ends: write that path, "
                        f"'move {m.trooper.text} via X Y, ...'", m.trooper)
        mover = ends.get(m.trooper.text, table.bodies[m.trooper.text]) if m.skill == 2 else table.bodies[m.trooper.text]
        given = set(measured) | {(r.kind, r.subject.text, r.object.text) for r in relations}
        given |= {("contact", *sorted((r.subject.text, r.object.text))) for r in relations if r.kind == "contact"}
        found, said, end = path_relations(table, mover, m.points, edition, spans, given, m.skill)
        relations += found
        if m.trooper.text in impetuous:
            found = impetuous_relations(table, decl, mover, end, m.points, spans, m.skill)
            measured_impetuous += found
            relations += found
            lines.append(f"{mover.id}'s Impetuous {'second ' if m.skill == 2 else ''}move measured: its length and, "
                         "for each placed trooper, the distance before and after it and whether a straight route "
                         "reaches base contact"
                         + ("; its distance to the enemy Deployment Zone before and after it, and whether it "
                            "doubles back" if enemy_zone(decl, mover.side) is not None else ""))
        lines += said
        if m.skill == 2:
            continue
        ends[mover.id] = end
        for key in list(measured):
            if key[0] == "distance" and mover.id in key[1:]:
                other = key[2] if key[1] == mover.id else key[1]
                measured[key] = f"{table.distance(end, table.bodies[other]):.1f}"
        lines.append(f"distances of {mover.id} measured from the end of its path")
    _check_toward(pos, measured_impetuous, error)
    relations += _inside(pos, table, spans, error)
    stated = {(r.kind, r.subject.text, r.object.text) for r in pos.relations}
    given = {(r.kind, r.subject.text, r.object.text) for r in relations}
    for r in pos.relations:
        if r.step != 1 or r.kind not in ("lof", "zoc", "contact") or r.subject.text not in ends and r.object.text not in ends:
            continue
        key = (r.kind, r.subject.text, r.object.text)
        if key not in given and (r.kind != "contact" or (r.kind, r.object.text, r.subject.text) not in given):
            raise error(f"stated '{r.kind} {r.subject.text} {'-> ' if r.kind != 'contact' else ''}{r.object.text} from first' "
                        f"(line {r.subject.span.line}) contradicts the table: measured along the path, it never arises",
                        r.subject, ("a relation the 'move' path gives, or none: ruling measures it",))
    return [r for r in relations if (r.kind, r.subject.text, r.object.text) not in stated
            and (r.kind != "contact" or (r.kind, r.object.text, r.subject.text) not in stated)], lines, ends
