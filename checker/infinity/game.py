"""The resolved game: every name replaced by its catalogue id, profiles merged.

This is what :mod:`checker.infinity.facts` turns into clingo facts. Names keep their span
only where later stages may need to point at them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .params import Value


@dataclass(frozen=True)
class SkillHeld:
    """A special skill a trooper has: ``Sixth Sense L2`` -> ('sixth_sense', 2, None);
    ``Surprise Attack (CC-3)`` -> ('surprise_attack', None, Term('mod', ('cc', -3))).
    ``param`` is typed by checker/infinity/params.py (None for a value no rule reads)."""

    id: str
    level: int | str | None = None
    param: Value | None = None


@dataclass(frozen=True)
class Trooper:
    id: str
    side: str
    profile: str | None
    attributes: tuple[tuple[str, int], ...]  # ('bs', 12), ('mov1', 4), ('mov2', 4)
    troop_type: str | None
    training: str | None
    lieutenant: bool
    group: int | None
    skills: tuple[SkillHeld, ...]
    weapons: tuple[str, ...]
    equipment: tuple[str, ...]
    characteristics: tuple[str, ...]
    states: tuple[str, ...]
    wounds_before: int | None = None  # W / VITA / STR points lost before this Order, if written
    deployable: bool = False  # a placed Deployable weapon or piece of equipment, not a trooper
    points: int | None = None  # its Cost in the Army List, if written (the Retreat! count)
    controller: str | None = None  # a Peripheral's Controller (N5 Peripheral)
    species: str | None = None  # its own species, where written (`species human`; else its army's)


@dataclass(frozen=True)
class Relation:
    kind: str  # lof, zoc, hacking, contact, distance, cover, visibility, visibility_inside (subject = object),
    # trigger, smoke_at (subject = object: the thrower), smoke_across (the thrower, the attacker, value: its target)
    subject: str
    object: str
    step: int = 0
    value: str | None = None  # tenths of an inch for distance and smoke_at; partial/total for cover; the zone
    # for visibility; the target of the Attack whose LoF the Smoke crosses for smoke_across
    covered: tuple[str, ...] = ()  # trigger: the troopers the Mine's template also affects


@dataclass(frozen=True)
class TargetUse:
    trooper: str
    burst: int | None
    covered: tuple[str, ...]


@dataclass(frozen=True)
class SkillUse:
    """A declared skill: common skill id, weapon and ammunition ids when it uses one."""

    skill: str
    weapon: str | None
    ammunition: str | None
    targets: tuple[TargetUse, ...]


@dataclass(frozen=True)
class Aro:
    trooper: str
    use: SkillUse
    step: int
    line: int  # where the ARO is written: two AROs of one trooper are two lines


@dataclass(frozen=True)
class Delay:
    """A declared delay of a trooper's ARO to the second skill (``aro fus delays``)."""

    trooper: str
    target: str | None  # the activated marker it waits on, when written
    line: int


@dataclass(frozen=True)
class Activation:
    """One activated trooper and the skills it declares (one per ``order`` line)."""

    trooper: str
    skills: tuple[SkillUse, ...]
    impetuous: bool = False
    coordinated: bool = False
    spearhead: bool = False
    source: str | None = None  # regular, irregular, lieutenant, tactical, impetuous; None: not written
    pool: int | None = None  # a Regular Order's Combat Group
    fireteam: bool = False  # a member activated by a Fireteam Order
    leader: bool = False  # ...and its Fireteam Leader
    declares: tuple[str, ...] = ()  # catalogue ids of the Automatic Skills and Equipment it declares


@dataclass(frozen=True)
class Fireteam:
    """A Fireteam: its id, its type's catalogue id (duo, haris, core), its members and
    its Fireteam Level (N5), if written."""

    id: str
    type: str
    members: tuple[str, ...]
    level: int | None = None


@dataclass(frozen=True)
class ArmyFact:
    """A Player Turn statement resolved (checker/infinity/turn.py): its kind (tokens,
    pool, spent_regular, spent_tokens, spent_own, retreat), its side (or, for
    spent_own, its trooper's id), its Combat Group, its count and the own Order's kind."""

    kind: str
    subject: str
    group: int | None = None
    count: int | None = None
    own: str | None = None


@dataclass(frozen=True)
class Game:
    edition: str
    active_side: str
    troopers: tuple[Trooper, ...]
    relations: tuple[Relation, ...]
    orders: tuple[Activation, ...]  # several only in a Coordinated Order
    aros: tuple[Aro, ...]
    dice: tuple[tuple[str, str, tuple[int, ...]], ...]  # (trooper, roll | save | guts | reroll, dice)
    deployments: tuple[tuple[str, str], ...] = ()  # (trooper, own_zone | own_half | enemy_half | enemy_zone | off_table)
    deploy_entries: tuple[tuple[str, str], ...] = ()  # (trooper, jump | edge): an Airborne Deployment's entry
    deploy_places: tuple[tuple[str, str], ...] = ()  # (trooper, deployable): a Deployable it places as it deploys
    deploy_places_in: tuple[tuple[str, str, str], ...] = ()  # (trooper, deployable, zone): `places m1 own zone`
    elements: tuple[tuple[str, str], ...] = ()  # (id, objective | neutral): a game element that is no trooper
    element_contacts: tuple[tuple[str, str], ...] = ()  # (trooper, element): `contact T ID`
    dispersions: tuple[tuple[str, str, bool], ...] = ()  # (trooper, zone, blocked): where a Dispersion Roll put it
    delays: tuple[Delay, ...] = ()
    fireteams: tuple[Fireteam, ...] = ()
    discards: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (trooper, the roll dice it discards)
    army: tuple[ArmyFact, ...] = ()  # the Player Turn's statements (docs/turn.md)
    table: tuple[str, ...] = ()  # what was measured from the table and what stated (checker/infinity/table_check.py)
    table_unverified: tuple[tuple[str, str, str, tuple[str, ...]], ...] = ()  # (id, name, source, troopers)

    @property
    def activated(self) -> tuple[str, ...]:
        return tuple(o.trooper for o in self.orders)

    @property
    def spearhead(self) -> str | None:
        return next((o.trooper for o in self.orders if o.spearhead), None)

    @property
    def fireteam_leader(self) -> str | None:
        return next((o.trooper for o in self.orders if o.leader), None)

    def trooper(self, trooper_id: str) -> Trooper:
        return next(t for t in self.troopers if t.id == trooper_id)
