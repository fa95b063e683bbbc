"""The position as written: what the notation says, before any catalogue look-up.

Every name keeps the place it was written at, so later stages can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine.numbers import Range  # re-exported: the ranges below are its instances

if TYPE_CHECKING:
    from .table import TableDecl


def lines_of(text: str) -> list[str]:
    """The lines of a text as the parser counts them: split at newlines only (str.
    splitlines would also split at form feeds, U+2028... and shift every line after)."""
    return text.split("\n")


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
    param_span: Span | None = None  # where the parameter is written, if in the position


@dataclass(frozen=True)
class TrooperDecl:
    """One ``trooper`` (or ``deployable``) statement and the details in its block: ``lieutenant``,
    ``group N``, ``controller NAME`` (a Peripheral's Controller), attributes (``W 2``), ``type``, ``training``, ``wounds N`` (W / VITA /
    STR points lost before this Order), ``points N`` (its Cost in the Army List), ``species NAME``
    (its own species, where not its army's) and the lists (``skills:``, ``state:``...)."""

    id: Named
    side: Named
    profile: Named | None
    lieutenant: bool = False
    group: Named | None = None  # "group 1": the number as written, and where
    controller: Named | None = None  # "controller doc": a Peripheral's Controller, as written
    attributes: tuple[tuple[Named, Named], ...] = ()  # (MOV, 4-4), (BS, 13), each where written
    troop_type: Named | None = None
    training: Named | None = None
    lists: tuple[tuple[str, tuple[Named, ...]], ...] = ()  # ("skills", (...)), ...
    wounds: Named | None = None  # "wounds 1": the number as written, and where
    points: Named | None = None  # "points 29": its Cost in the Army List, as written, and where
    species: Named | None = None  # "species human": its own species, as written
    deployable: Named | None = None  # the 'deployable' keyword of a placed Deployable, and where


@dataclass(frozen=True)
class Relation:
    """A relation a player states: ``lof``, ``zoc``, ``hacking``, ``contact``, ``distance``, ``cover``,
    ``visibility`` (between two troopers), ``visibility_inside`` (one trooper, both its
    subject and its object: it stands inside the zone) and ``trigger`` (a placed Mine, the
    subject, and the enemy acting inside its Trigger Area; ``value`` ``dodge`` when it
    enters the area only at the end of its Dodge), ``smoke_at`` (the Smoke's thrower, both
    subject and object; ``value`` the inches to where its template lands) and
    ``smoke_across`` (the thrower, then the attacker; ``value`` the target of the Attack
    whose LoF crosses the Smoke).

    ``step`` is the declaration step from which it holds: 0 (from the activation,
    the default), 1 (``from first``: made by the first skill, e.g. a move into
    contact) or 2 (``from second``: only once the second skill is declared).
    """

    kind: str
    subject: Named
    object: Named
    step: int = 0
    value: Named | None = None  # inches for distance and smoke_at, partial/total for cover, the zone for
    # visibility, the Attack's target for smoke_across
    covered: tuple[Named, ...] = ()  # trigger: the troopers the Mine's template also affects


@dataclass(frozen=True)
class Target:
    """A target of a skill: ``fus1 x2 [fus2 fus3]``."""

    id: Named
    burst: Named | None = None  # "x2": the share as written (without the x), and where
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
    kind: str | None = None  # the Order's source: regular, irregular, lieutenant, tactical, impetuous
    pool: Named | None = None  # a Regular Order's Combat Group (``from group 2``)
    fireteam: bool = False  # a member activated by a Fireteam Order
    leader: bool = False  # ...and its Fireteam Leader
    declares: tuple[Named, ...] = ()  # the Automatic Skills and Equipment it declares (``declares Stealth``)


@dataclass(frozen=True)
class FireteamDecl:
    """``fireteam alpha core level 3: fus1, fus2, fus3``: a Fireteam, its type, its members
    and its Fireteam Level (N5), if written."""

    id: Named
    type: Named
    members: tuple[Named, ...]
    level: Named | None = None


@dataclass(frozen=True)
class AroDecl:
    """A declared ARO, made after the first skill (step 1) or after the second (step 2)."""

    trooper: Named
    skill: SkillDecl
    step: int = 1


@dataclass(frozen=True)
class DelayDecl:
    """``aro fus delays``: fus declared, after the first skill, that it delays its ARO to
    the second (``-> camo``: against that activated marker)."""

    trooper: Named
    target: Named | None = None


@dataclass(frozen=True)
class Dice:
    """Dice a player rolled for a trooper, in order: for its skill (``dice x: 7 15``),
    its saving rolls (``dice x save: 4 18``), its Guts Roll (``dice x guts: 12``) or a
    failed WIP Roll rolled again (``dice x reroll: 12``, asp/infinity/core/reroll.lp)."""

    trooper: Named
    rolls: tuple[int, ...]
    kind: str = "roll"  # roll | save | guts | reroll
    values: tuple[Span, ...] = ()  # where each die is written
    discards: tuple[int, ...] = ()  # `discard 15`: the dice a roll with extra dice sets aside
    discard_spans: tuple[Span, ...] = ()


@dataclass(frozen=True)
class DeployDecl:
    """One ``deploy`` statement: a trooper placed in a zone of the table during the
    Deployment Phase (``own zone``, ``own half``, ``enemy half``, ``enemy zone``) or kept
    off it (``off table``); an Airborne Deployment's entry (``jump``, ``edge``); the
    Deployables it places as it deploys (``places m1, m2``), each with the zone it
    stands in when written (``places m1 own zone``; None: the trooper's own)."""

    trooper: Named
    zone: Named
    entry: Named | None = None
    places: tuple[Named, ...] = ()
    place_zones: tuple[Named | None, ...] = ()


@dataclass(frozen=True)
class ElementDecl:
    """A game element on the table that is no trooper (docs/deployment.md): ``objective``
    (a mission objective) or ``neutral`` (a neutral Model, Marker or Token)."""

    kind: str
    id: Named


@dataclass(frozen=True)
class DispersionDecl:
    """``dispersion cj enemy half``: where the Dispersion Roll of a failed deployment roll
    put the trooper (a zone, or ``off table``); ``blocked``: a place there it cannot be
    placed (part of its base off the table, not fitting, a contact its skill forbids)."""

    trooper: Named
    zone: Named
    blocked: bool = False


@dataclass(frozen=True)
class ArmyDecl:
    """One statement of the Player Turn (docs/turn.md): ``tokens`` (a side's Command
    Tokens at the start of the turn), ``pool`` (the Regular Orders of a Combat Group's
    Order Pool at its start), ``spent_regular`` / ``spent_tokens`` (Regular Orders of a
    group, Command Tokens, spent before this Order), ``spent_own`` (a trooper's own
    Order of kind ``own``: irregular, lieutenant, impetuous, tactical, airborne; ``count`` times
    when written, a Lieutenant (+1 Order)'s two), ``retreat``
    (the side's army is in Retreat!), ``army_points`` (the points of the side's Army List in
    ``count``; ``own`` ``counted`` when the turn's Retreat! check is already made), ``led`` (it began the turn with its Lieutenant) and
    ``cancel_impetuous`` (a trooper's Impetuous Order cancelled, spending a Regular Order
    of ``group`` when written), ``off_table`` (an Airborne Deployment trooper still off
    the table: it adds no Order to the pool), ``species`` (the species ``own`` the side's
    army is formed by), ``token_use`` (an N5 Operational Use of a Command Token, ``own``
    ``regular``, ``unaffected`` or ``guts``), ``began_unaffected`` (a trooper a Command
    Token of an earlier turn made unaffected by Retreat!). ``subject`` is the side, or the
    trooper of ``spent_own``, ``cancel_impetuous``, ``off_table``, ``token_use`` and
    ``began_unaffected``."""

    kind: str
    subject: Named
    group: Named | None = None
    count: Named | None = None
    own: str | None = None


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
    deployments: tuple[DeployDecl, ...] = ()
    aros: tuple[AroDecl, ...] = ()
    dice: tuple[Dice, ...] = ()
    delays: tuple[DelayDecl, ...] = ()
    fireteams: tuple[FireteamDecl, ...] = ()
    army: tuple[ArmyDecl, ...] = ()  # the Player Turn's statements (docs/turn.md)
    elements: tuple[ElementDecl, ...] = ()  # objectives and neutral elements (docs/deployment.md)
    dispersions: tuple[DispersionDecl, ...] = ()
    statements: dict[str, Span] = field(default_factory=dict, compare=False)
    table: TableDecl | None = None  # 'at', 'terrain' and 'template' statements (checker/infinity/table.py)


# ---- The numbers a position may write ---------------------------------------------
# Each number of the notation has a range the rules give it or, where they give none,
# one wide enough for every published profile. A number outside its range is bad input
# (exit 2, located, saying the range), never a question for the rule base: inside the
# ranges every fact fits clingo's 32-bit integers and grounding stays small (a Burst
# share is a count of dice the rule base grounds one by one).
#
#   number                    range        rule or reason
#   dice x: N                 1 to 20      Infinity rolls a d20 (seed 003 p.34)
#   -> target xN              1 to B + 1   Burst share. B: the Burst of the declared
#                                          weapon (1 if it has none), else the skill's own
#                                          (Forward Observer), else the largest of the
#                                          edition's weapons; + 1 keeps a share past the
#                                          Burst a rule verdict ([burst_split]), and Twin
#                                          Weapons' +1 (seed 003 p.35)
#   distance a b N            0 to 96      inches: the longest range band of any weapon
#                                          in the catalogue ends at 96, past the diagonal
#                                          of a 48 x 48 inch table (68)
#   CC, BS, PH, WIP           0 to 30      d20 Attributes: profiles reach CC 23; a Success
#                                          Value past 20 adds to the die (core/rolls.lp)
#   ARM, BTS                  0 to 20      saving-roll Attributes, rolled on a d20
#   W, VITA, STR              1 to 10      profiles have 1 to 3
#   S                         1 to 8       Silhouette S1 to S8
#   MOV A-B                   0 to 12      inches, each value: profiles reach 6-4
#   wounds N                  0 to L + 10  L: its W, VITA or STR; a Dead trooper has
#                                          lost more than L (Dead from L + 1, with Remote
#                                          Presence L + 2), and may show any further loss
#   group N                   1 to 15      an Army List has at most 15 Troopers (N5 wiki
#                                          Army List), so at most 15 Combat Groups
#   skill LN                  0 to 5       the catalogue's levels run from L0 (N3
#                                          Infiltration) to L5 (Martial Arts)
#   skill (N)                 -12 to 12    a MOD in brackets (Mimetism (-6)): the sum of
#                                          MODs never exceeds +12 or -12 (wiki MODs,
#                                          Maximum Modifier)


RANGES: dict[str, Range] = {
    "die": Range("a die", 1, 20, "Infinity rolls a d20 (seed 003 p.34)"),
    "burst": Range("a Burst share", 1, 1, "the Burst (seed 003 p.32), + 1 that a rule may add (Twin Weapons, "
                   "seed 003 p.35) or deny ([burst_split])", over="the Burst"),
    "distance": Range(
        "a distance", 0, 96,
        "the longest range band of any weapon ends at 96 inches, past the diagonal of a 48 x 48 inch table",
        " inches"),
    **{a: Range(a, 0, 30, "a d20 Attribute: profiles reach 23, and a Success Value past 20 adds to the die")
       for a in ("CC", "BS", "PH", "WIP")},
    **{a: Range(a, 0, 20, "a saving-roll Attribute, rolled on a d20") for a in ("ARM", "BTS")},
    **{a: Range(a, 1, 10, "profiles have 1 to 3") for a in ("W", "VITA", "STR")},
    "S": Range("S", 1, 8, "Silhouette S1 to S8"),
    "deployable S": Range("S", 0, 8, "a Deployable's Token is S0 (a Mine, http://wiki.infinitythegame.com/en/Mines) "
                          "to S8"),
    "MOV": Range("each MOV value", 0, 12, "profiles reach 6-4", " inches"),
    "wounds": Range(
        "wounds", 0, 10,
        "a Dead trooper has lost more than its W, VITA or STR and may show any further loss",
        over="its W, VITA or STR"),
    "points": Range("a trooper's Cost", 0, 200, "a profile's Cost in points: the dearest profiles cost under 100, "
                    "and an Army List holds at most 400 points (N5 rulebook v5.1.1 p.143, End-Game: Retreat!)"),
    "group": Range("a Combat Group", 1, 15, "an Army List has at most 15 Troopers (N5 wiki Army List)"),
    "step": Range("an Order's number", 1, 60,
                  "a Player Turn spends at most the Orders of its troopers: an Army List has at most 15 Troopers "
                  "(N5 wiki Army List), each giving a Regular or Irregular Order, an Impetuous Order and a Tactical "
                  "Awareness Order, and the Lieutenant Order; 60 leaves room for a scenario's extras"),
    "level": Range("a level", 0, 5, "the catalogue's levels run from L0 (N3 Infiltration) to L5 (Martial Arts)"),
    "param": Range("a MOD", -12, 12, "MODs never exceed +12 or -12 (wiki MODs, Maximum Modifier)"),
}
