"""Areas placed on the table: the troopers a template covers, filled into its attack's
brackets, and the Visibility Zones a LoF crosses (checker/infinity/table_check.py uses
both)."""

from __future__ import annotations

from dataclasses import replace

from .measure import Body, Table
from .position import Named, Position, Relation, Span, Target
from .table import CONTACT_TOLERANCE, TEMPLATES, TableDecl


def templates(pos: Position, decl: TableDecl, table: Table, error, ends: dict[str, Body]):
    """The Order and AROs with the brackets each placed template gives; the Table lines
    naming what each covers."""
    orders, aros = list(pos.orders), list(pos.aros)
    lines = []
    for t in decl.templates:
        for named in (t.attacker, t.target):
            if named.text not in table.bodies:
                raise error(f"the template's {'attacker' if named is t.attacker else 'target'} {named.text!r} "
                            "is not placed: write 'at ID X Y'", named)
        attacker = ends.get(t.attacker.text, table.bodies[t.attacker.text])  # where its move ends
        target = table.bodies[t.target.text]
        area, focus = table.template(t.shape, t.placement, attacker, target)
        _length, width = TEMPLATES[t.shape]
        hit = table.covered(area, focus, width / 2, attacker.z if t.placement == "direct" else target.z)
        if target.id not in hit:
            raise error(f"the {t.shape} template of {t.attacker.text!r} does not reach its main target "
                        f"{t.target.text!r}: such an Attack automatically fails (N5 rulebook v5.1.1 p.42), which no "
                        "rule here models", t.target, ("a template placed over its main target",))
        covered = tuple(i for i in hit if i not in (attacker.id, target.id))
        lines.append(f"template {t.attacker.text} {t.shape} ({t.placement}) -> {t.target.text}: covers "
                     f"{', '.join(covered) or 'no other trooper'}")
        found = False
        for i, o in enumerate(orders):
            if o.trooper.text == t.attacker.text:
                skills, hit_here = fill(o.skills, t, covered, error)
                orders[i], found = replace(o, skills=skills), found or hit_here
        for i, ar in enumerate(aros):
            if ar.trooper.text == t.attacker.text:
                skills, hit_here = fill((ar.skill,), t, covered, error)
                aros[i], found = replace(ar, skill=skills[0]), found or hit_here
        if not found:
            raise error(f"no skill declared by {t.attacker.text!r} targets {t.target.text!r}: a template is "
                        "placed for an attack on its main target", t.target)
    return tuple(orders), tuple(aros), lines


def fill(skills, t, covered: tuple[str, ...], error):
    out, found = [], False
    for s in skills:
        targets = []
        for target in s.targets:
            if target.id.text == t.target.text:
                found = True
                written = {c.text for c in target.covered}
                if target.covered and written != set(covered):
                    raise error(
                        f"stated brackets [{' '.join(sorted(written))}] contradict the template placed on line "
                        f"{t.attacker.span.line}: measured, it covers [{' '.join(covered)}]",
                        target.covered[0], ("the troopers the template covers, or no brackets: ruling measures them",))
                target = Target(target.id, target.burst, tuple(Named(c, t.target.span) for c in covered))
            targets.append(target)
        out.append(replace(s, targets=tuple(targets)))
    return tuple(out), found


def zones(pos: Position, decl: TableDecl, table: Table, pairs: list[tuple[str, str]],
           spans: dict[str, Span]) -> tuple[Relation, ...]:
    """The Visibility Zones the table gives (core/visibility.lp reads them and keeps the
    most obscuring): ``visibility_inside`` for a trooper whose base touches a zone (N5
    v5.1.1 p.20, Inside), ``visibility`` for a measured pair whose base centres' line
    crosses one."""
    from shapely.geometry import LineString, Point, Polygon

    zones = [(d, Polygon(d.points)) for d in decl.terrain if d.kind == "zone" and d.zone]
    if not zones:
        return ()
    found: list[Relation] = []
    inside = set()
    for body in table.bodies.values():
        for d, polygon in zones:
            if polygon.distance(Point(body.x, body.y)) <= body.r + CONTACT_TOLERANCE:
                inside.add((body.id, d.zone))
                named = Named(body.id, spans[body.id])
                found.append(Relation("visibility_inside", named, named, 0, Named(str(d.zone), d.id.span)))
    done = set()
    for a, b in pairs:
        key = (a, b) if a < b else (b, a)
        if key in done:
            continue
        done.add(key)
        A, B = table.bodies[a], table.bodies[b]
        line = LineString([(A.x, A.y), (B.x, B.y)])
        for d, polygon in zones:
            if (a, d.zone) in inside or (b, d.zone) in inside or not line.intersects(polygon):
                continue
            found.append(Relation("visibility", Named(a, spans[a]), Named(b, spans[b]), 0, Named(str(d.zone), d.id.span)))
    return tuple(found)
