"""The position as written: what the notation says, before any catalogue look-up.

Every name keeps the place it was written at, so later stages can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """Where a token stands in the position text (1-based)."""

    line: int
    column: int


@dataclass(frozen=True)
class Named:
    """A name as written (a trooper id, skill, weapon, state...) and where."""

    text: str
    span: Span
    param: str | None = None  # "(-3)" in "Surprise Attack (-3)", without parentheses


@dataclass(frozen=True)
class TrooperDecl:
    """One ``trooper`` statement and the details in its block: ``lieutenant``,
    ``group N``, attributes (``W 2``), ``type``, ``training``, ``wounds N`` (W / VITA /
    STR points lost before this Order) and the lists (``skills:``, ``state:``...)."""

    id: Named
    side: Named
    profile: Named | None
    lieutenant: bool = False
    group: int | None = None
    attributes: tuple[tuple[Named, str], ...] = ()  # (MOV, "4-4"), (BS, "13")
    troop_type: Named | None = None
    training: Named | None = None
    lists: tuple[tuple[str, tuple[Named, ...]], ...] = ()  # ("skills", (...)), ...
    wounds: Named | None = None  # "wounds 1": the number as written, and where


@dataclass(frozen=True)
class Relation:
    """A relation a player states: ``lof``, ``zoc``, ``hacking``, ``contact``, ``distance``, ``cover``.

    ``step`` is the declaration step from which it holds: 0 (from the activation,
    the default), 1 (``from first``: made by the first skill, e.g. a move into
    contact) or 2 (``from second``: only once the second skill is declared).
    """

    kind: str
    subject: Named
    object: Named
    step: int = 0
    value: str | None = None  # inches for distance, partial/total for cover


@dataclass(frozen=True)
class Target:
    """A target of a skill: ``fus1 x2 [fus2 fus3]``."""

    id: Named
    burst: int | None = None
    covered: tuple[Named, ...] = ()  # troopers a template placed on this target affects


@dataclass(frozen=True)
class SkillDecl:
    """A declared skill with its details."""

    name: Named
    arguments: tuple[Named, ...] = ()  # weapon, ammunition...
    targets: tuple[Target, ...] = ()


@dataclass(frozen=True)
class OrderDecl:
    """One ``order`` statement: an activated trooper and the one or two skills it
    declares (possibly none yet). A Coordinated Order has one per participant."""

    trooper: Named
    skills: tuple[SkillDecl, ...] = ()
    impetuous: bool = False  # an Impetuous Order, from the Impetuous table only
    coordinated: bool = False  # a participant of a Coordinated Order
    spearhead: bool = False  # ...and its Spearhead


@dataclass(frozen=True)
class AroDecl:
    """A declared ARO, made after the first skill (step 1) or after the second (step 2)."""

    trooper: Named
    skill: SkillDecl
    step: int = 1


@dataclass(frozen=True)
class Dice:
    """Dice a player rolled for a trooper, in order: for its skill (``dice x: 7 15``),
    its saving rolls (``dice x save: 4 18``) or its Guts Roll (``dice x guts: 12``)."""

    trooper: Named
    rolls: tuple[int, ...]
    kind: str = "roll"  # roll | save | guts
    values: tuple[Span, ...] = ()  # where each die is written


@dataclass(frozen=True)
class Position:
    """A whole position file."""

    file: str
    text: str
    edition: Named | None = None
    active: Named | None = None
    troopers: tuple[TrooperDecl, ...] = ()
    relations: tuple[Relation, ...] = ()
    orders: tuple[OrderDecl, ...] = ()
    aros: tuple[AroDecl, ...] = ()
    dice: tuple[Dice, ...] = ()
    statements: dict[str, Span] = field(default_factory=dict, compare=False)
