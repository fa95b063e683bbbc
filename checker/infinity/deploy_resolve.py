"""The Deployment Phase's statements beside a ``deploy`` line (docs/deployment.md),
checked against the position: objectives and neutral elements and a trooper's contact
with one, where a Dispersion Roll put a trooper. Turned into the rule base's facts
element/2, contact_element/2, dispersion/2 and dispersion_blocked/1 by
checker/infinity/facts.py.

Defines: elements, touches_element, element_contact, dispersions, species_read, airborne_order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .position import Named, Relation

if TYPE_CHECKING:
    from .resolve import _Resolver

# The Long Skills an Airborne Deployment trooper spends its own Order on to enter the
# table (N5 Combat Jump, Parachutist: asp/infinity/n5/skills/), with the entry each makes.
AIRBORNE_SKILLS = {"n5": {"combat_jump": "jump", "parachutist": "edge"}}
# The editions whose rule base reads a Dispersion Roll (N3: asp/infinity/n3/dispersion.lp);
# in N5 a failed deployment roll places the trooper at its own table edge, with no Dispersion.
DISPERSION_READ = frozenset({"n3"})
# The editions whose rule base reads a species (`species SIDE NAME`, a trooper's `species
# NAME`): N3 Impersonation L1 against an alien army (asp/infinity/n3/skills/impersonation.lp).
SPECIES_READ = frozenset({"n3"})


def elements(resolver: _Resolver) -> tuple[tuple[str, str], ...]:
    """``objective o1``, ``neutral civ``: game elements that are no trooper, each with a
    name of its own (kept on the resolver for the relations naming them)."""
    kinds: dict[str, str] = {}
    for e in resolver.pos.elements:
        if e.id.text in resolver.ids or e.id.text in kinds:
            raise resolver.error(f"the name {e.id.text!r} is already used by a trooper or another element", e.id,
                                 ("a name of its own for the objective or neutral element",))
        kinds[e.id.text] = e.kind
    resolver.element_kinds = kinds
    return tuple(kinds.items())


def touches_element(resolver: _Resolver, rel: Relation) -> bool:
    """Whether the relation names an objective or a neutral element."""
    return rel.object.text in resolver.element_kinds or rel.subject.text in resolver.element_kinds


def element_contact(resolver: _Resolver, rel: Relation) -> tuple[str, str]:
    """``contact cj o1``: a trooper in contact with an objective or a neutral element, as
    it stands at the activation (or the deployment); no other relation names one."""
    kinds = resolver.element_kinds
    trooper, element = (rel.subject, rel.object) if rel.object.text in kinds else (rel.object, rel.subject)
    if rel.kind != "contact" or trooper.text in kinds:
        raise resolver.error(f"{element.text!r} is a {kinds[element.text]} element: only 'contact' relates it, to a "
                             "trooper", element if rel.kind != "contact" else trooper,
                             (f"'contact T {element.text}', T a trooper",))
    if rel.step:
        raise resolver.error(f"contact with {element.text!r} made during an Order is not read: write it as it "
                             "stands at the activation or the deployment", trooper,
                             (f"'contact {trooper.text} {element.text}'",))
    return resolver._id(trooper), element.text


def dispersions(resolver: _Resolver) -> tuple[tuple[str, str, bool], ...]:
    """``dispersion cj enemy half``: beside the deployment of the trooper it names, once,
    in an edition whose rule base reads a Dispersion Roll (N3)."""
    out: list[tuple[str, str, bool]] = []
    deployed = {d.trooper.text for d in resolver.pos.deployments}
    edition = resolver.cat.edition
    for d in resolver.pos.dispersions:
        if edition not in DISPERSION_READ:
            raise resolver.error(f"an {edition.upper()} deployment makes no Dispersion Roll: a failed roll places the "
                                 "trooper in its own Deployment Zone", d.trooper, ("no 'dispersion' line",))
        if d.trooper.text not in deployed:
            raise resolver.error(f"{d.trooper.text!r} makes no deployment here: a Dispersion Roll follows its failed "
                                 "deployment roll", d.trooper, (f"'deploy {d.trooper.text} ...' in the same position",))
        if any(t == d.trooper.text for t, _, _ in out):
            raise resolver.error(f"a second 'dispersion' for {d.trooper.text!r}: one Dispersion Roll a deployment",
                                 d.trooper)
        out.append((resolver._id(d.trooper), "_".join(d.zone.text.split()), d.blocked))
    return tuple(out)


def species_read(resolver: _Resolver, named: Named) -> None:
    """A species written for a side or a trooper (``named``: where it is written) is read
    only in an edition whose rule base reads one: elsewhere, bad input."""
    edition = resolver.cat.edition
    if edition not in SPECIES_READ:
        raise resolver.error(f"no {edition.upper()} rule reads a species: it is N3 Impersonation L1's (never "
                             "Impersonation-1 against an alien army)", named, ("no 'species' in this edition",))


def one_deployment(resolver: _Resolver) -> None:
    """A position states one deployment; several ``deploy`` lines only beside a
    Coordinated Order whose troopers land (airborne_order)."""
    pos = resolver.pos
    if len(pos.deployments) > 1 and not (pos.orders and all(o.coordinated for o in pos.orders)):
        first, second = pos.deployments[0].trooper, pos.deployments[1].trooper
        raise resolver.error(f"a second 'deploy' statement (the first is on line {first.span.line}); a position "
                             "has one, or one for each trooper of a Coordinated Order landing", second,
                             ("one 'deploy' line",))


def airborne_order(resolver: _Resolver) -> bool:
    """Whether the position's Order is an Airborne Deployment's: a trooper declaring its
    Combat Jump or Parachutist Long Skill, with one ``deploy`` line of that trooper saying
    where it enters (its AROs are the Reactive Player's, after the landing); in a
    Coordinated Order ("스킬 보유자는 코디네이트 오더로 강하가 가능합니다", seed 002), one line for
    each of its troopers. An Order declaring it without that line, or with another
    trooper's, is bad input."""
    pos = resolver.pos
    skills = AIRBORNE_SKILLS.get(resolver.cat.edition, {})
    declared = [(o, resolver._find("skills", s.name).id) for o in pos.orders for s in o.skills]
    airborne = [(o, k) for o, k in declared if k in skills]
    if not airborne:
        return False
    coordinated = len(pos.orders) > 1 and all(o.coordinated for o in pos.orders)
    landing = [airborne[0]] if not coordinated else airborne
    order, skill = landing[0]
    expected = (f"'deploy {order.trooper.text} {skills[skill]} ZONE' beside the Order",)
    if len(pos.orders) > 1 and not coordinated or len(pos.deployments) != len(landing):
        landing_by = "each of a Coordinated Order's troopers" if coordinated else "one trooper's"
        raise resolver.error(f"an Order declaring {resolver._find('skills', order.skills[0].name).name} is "
                             f"{landing_by}, entering the table where one 'deploy' line says", order.trooper, expected)
    by_trooper = {d.trooper.text: d for d in pos.deployments}
    for order, skill in landing:
        entry = skills[skill]
        deploy = pos.deployments[0] if not coordinated else by_trooper.get(order.trooper.text)
        if (deploy is None or deploy.trooper.text != order.trooper.text or deploy.entry is None
                or deploy.entry.text != entry):
            where = deploy.trooper if deploy is not None else order.trooper
            raise resolver.error(f"{order.trooper.text}'s entry is written 'deploy {order.trooper.text} {entry} ZONE'",
                                 where, (f"'deploy {order.trooper.text} {entry} ZONE' beside the Order",))
    return True
