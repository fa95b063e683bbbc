"""Exact odds of an Order (``ruling odds``).

For the Order as declared, and for each legal ARO of each reactive trooper taken as if
it declared that option (every other trooper as written): each roll's distribution of
standing successes and Criticals, each trooper's end state after the saving rolls, and
a summary a player reads at a glance. Every number is a fraction, computed, never
sampled.

The rolls (Success Value, dice, Face to Face pairings, ammunition, the hits of a
Direct Template) are the resolution's: each option is solved with its dice removed and
read through :mod:`checker.infinity.resolution`. :mod:`checker.infinity.odds_rolls` prices them
(:mod:`checker.infinity.dice` counts every outcome of the dice); :mod:`checker.infinity.odds_saves`
follows the edition's damage rules (asp/infinity/core/damage.lp, asp/infinity/<edition>/damage.lp),
restated there per hit, to each trooper's end state. What the odds cannot price (a
pending fact, an ammunition or skill not restated there) is named in ``not_priced``,
and every number it would change is left out (None), never counted as nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from time import monotonic

from ..engine import solver, solver_copies
from ..engine.catalogue import Catalogue, atom_text
from ..engine.errors import (
    Location,
    PositionError,
    PositionTimeout,
    RulingError,
    SolveTimeout,
)
from . import analysis, facts, report
from .game import Aro, Game, SkillUse, TargetUse
from .modelled import NotModelled
from .odds_rolls import EVASION, RollOdds, RollView, ammo_name, label, price_rolls
from .odds_saves import end_states, summary
from .position import lines_of
from .resolution import READS, resolution

# The inputs the copies of a position (one per option) may differ from it in
# (asp/infinity/core/inputs.lp): the ARO each declares, and judging only what is
# declared. The rule base over everything else is grounded once (solver_copies).
VARY = frozenset((
    ("aro", 3), ("aro_line", 2), ("aro_weapon", 2), ("aro_ammo", 2), ("aro_target", 3),
    ("aro_target_index", 3), ("aro_covers", 3), ("aro_delay", 1), ("aro_delay_target", 2),
    ("judge_declared_only", 0),
))

# The work is bounded, in time and in memory. Each priced option is a copy of the
# position, its facts built, grounded and priced: the work grows with the options times
# the facts of one copy (a position of 15 troopers a side, every enemy with LoF: about
# 60 options of 400 facts, 24,000 in all, priced in about a second; 100 enemies with LoF,
# 400 options of 1,200 facts, about 6 seconds). ODDS_FACTS bounds the facts of every copy
# in all, first from the troopers that might react (before solving), then from the options
# found; solver.SOLVE_SECONDS bounds the whole run, checked between its steps.
ODDS_FACTS = 500_000
TOO_MANY = "write fewer troopers, relations or AROs, or ask 'ruling aros' (which lists the options without odds)"


class OddsTooLarge(RulingError):
    """A position whose odds would take more than :data:`ODDS_FACTS` facts of copies."""

    kind = "position"


# What follows the end states and is not priced: ruling check resolves it.
LEFT_OUT = (
    "the Guts Roll a trooper that survives an Attack makes, and what a failed one makes it do",
    "the move a passed Dodge allows",
)


@dataclass(frozen=True)
class EndState:
    trooper: str
    state: str  # unharmed, wounded, unconscious, unconscious_level_2, nwi, dogged, shasvastii_embryo, dead
    chance: Fraction


@dataclass(frozen=True)
class OptionOdds:
    """One row: the Order as declared (``reactor`` None), or one reactive trooper's ARO
    option with every other trooper as written."""

    reactor: str | None
    label: str  # "BS Attack (Combi Rifle)", or "as declared"
    skill: str | None
    weapon: str | None
    ammunition: str | None
    rolls: tuple[RollOdds, ...]
    end_states: tuple[EndState, ...]  # by trooper, then state
    active_down: Fraction | None  # an activated trooper ends Unconscious or worse
    reactor_down: Fraction | None  # the reacting trooper does (as declared: any reactive trooper)
    nothing: Fraction | None  # no trooper loses a Wound or gains a state
    not_priced: tuple[str, ...] = ()  # what the numbers leave out, and why
    against: str | None = None  # the activated trooper the ARO is against (a Coordinated Order)

    @property
    def margin(self) -> Fraction | None:
        """The reactive player's edge: its enemy down less its own trooper down."""
        if self.active_down is None or self.reactor_down is None:
            return None
        return self.active_down - self.reactor_down


@dataclass(frozen=True)
class OddsReport:
    edition: str
    activated: tuple[str, ...]
    declared: OptionOdds
    options: tuple[OptionOdds, ...]  # best first for the reactive player
    conflicts: tuple[report.Conflict, ...]
    breaches: tuple[report.Judgement, ...]
    left_out: tuple[str, ...] = LEFT_OUT
    spearhead: str | None = None  # the Spearhead of a Coordinated Order
    fireteam_leader: str | None = None  # the Fireteam Leader of a Fireteam Order
    not_modelled: tuple[NotModelled, ...] = ()  # what the numbers may miss: items in play not fully modelled
    unverified: tuple[NotModelled, ...] = ()  # items in play modelled from values no source confirms


def odds(text: str, file: str = "<position>", prepared: analysis.Prepared | None = None) -> OddsReport:
    """The odds of the position's Order and of each legal ARO option (read already when
    ``prepared`` is given: the last Order of a sequence). Its dice are ignored: the odds
    are taken before any die is rolled.

    Raises
    ------
    NotationError, PositionError
        For a position that does not parse, names something unknown, states a
        deployment instead of an Order, or is too large to price (:data:`ODDS_FACTS`).
    PositionTimeout
        If pricing takes longer than ``solver.SOLVE_SECONDS`` in all.
    RuleBaseError
        If the rule base fails.
    """
    deadline = monotonic() + solver.SOLVE_SECONDS
    ready = prepared if prepared is not None else analysis.prepare(text, file)
    if ready.position.deployments:
        # A deployment's roll is priced by nothing here: refuse rather than print 100% nothing.
        at = ready.position.deployments[0].trooper
        line = lines_of(ready.position.text)[at.span.line - 1]
        raise PositionError("ruling odds prices an Order and its AROs; a deployment's roll is resolved by "
                            "'ruling check'", Location(file, at.span.line, at.span.column, line),
                            ("'order' and 'aro' lines instead of a 'deploy' line",))
    first = Location(file, 1, 1, text.split("\n", 1)[0])
    try:
        return game_odds(ready.game, ready.catalogue, deadline)
    except OddsTooLarge as exc:
        raise PositionError(str(exc), first, (TOO_MANY,)) from None
    except SolveTimeout as exc:
        raise PositionTimeout(str(exc), first) from None


def game_odds(game: Game, cat: Catalogue, deadline: float | None = None) -> OddsReport:
    """The odds of a resolved position's Order and of each legal ARO option (its dice
    ignored), as :func:`odds` gives them: for a position already read, such as the
    one ``ruling aros --odds`` lists. ``deadline`` (a ``time.monotonic()`` time) bounds
    the run, by default ``solver.SOLVE_SECONDS`` from the call.

    Raises
    ------
    OddsTooLarge
        If the copies it would solve hold more than :data:`ODDS_FACTS` facts in all.
    SolveTimeout
        If the run passes the deadline.
    RuleBaseError
        If the rule base fails.
    """
    deadline = monotonic() + solver.SOLVE_SECONDS if deadline is None else deadline
    game = replace(game, dice=(), discards=())
    # a trooper of a side other than the active one may react: a copy each at least, of at
    # least a fact per trooper and per relation (counted before any fact is built)
    _bounded(sum(t.side != game.active_side for t in game.troopers), "troopers that may react",
             len(game.troopers) + len(game.relations), "troopers and relations")
    base = facts.build(game, cat)
    program = solver_copies.Copies(game.edition, base, VARY)
    _in_time(deadline)
    atoms = program.atoms
    aros = report.aro_report(game, atoms, cat)
    declared = option_odds(game, cat, atoms)
    variants = option_positions(game, cat, aros)
    _bounded(len(variants), "ARO options", len(base), "facts")
    copies = []
    for *_, variant in variants:
        copies.append([*facts.build(variant, cat), facts.DECLARED_ONLY])
        _in_time(deadline)
    # every option's position grounded in the position's program: what they share with
    # it is not grounded again
    solved = program.solve(copies, show=READS)
    rows = []
    for (reactor, option, ammo, variant), atoms in zip(variants, solved, strict=True):
        _in_time(deadline)
        name = option.label if ammo is None else option.label.replace(
            f"({option.weapon_name})", f"({option.weapon_name}, {ammo_name(cat, ammo)})")
        row = option_odds(variant, cat, atoms, reactor)
        rows.append(replace(row, label=name, skill=option.skill, weapon=option.weapon, ammunition=ammo,
                            against=option.against))
    rows.sort(key=_best_first)
    return OddsReport(game.edition, game.activated, declared, tuple(rows), aros.conflicts, aros.breaches,
                      spearhead=aros.spearhead, fireteam_leader=aros.fireteam_leader,
                      not_modelled=aros.not_modelled, unverified=aros.unverified)


def _bounded(copies: int, what: str, size: int, unit: str) -> None:
    """Refuse odds whose copies would hold more than ODDS_FACTS facts in all (``size``:
    the facts of one copy, or fewer: its ``unit``, each at least a fact)."""
    if copies * size > ODDS_FACTS:
        raise OddsTooLarge(
            f"the position is too large to price: {copies:,} {what}, each priced on a copy of its {size:,} {unit}, "
            f"make {copies * size:,} facts or more; ruling odds prices at most {ODDS_FACTS:,}")


def _in_time(deadline: float) -> None:
    """Stop the run once it is past its deadline."""
    if monotonic() > deadline:
        raise SolveTimeout(
            f"ruling odds found no odds within {solver.SOLVE_SECONDS:g} seconds: the position is too large to "
            f"price; {TOO_MANY}")


def option_odds(game: Game, cat: Catalogue, atoms: solver.Atoms, reactor: str | None = None) -> OptionOdds:
    """The odds of one solved position (its dice removed): every roll, every end state."""
    resolved = resolution(game, atoms)
    # the Order's skills and the AROs; a Guts Roll (asked for when a Direct Template hits
    # without a roll) comes after the end states and is not priced
    rolls = tuple(r for r in resolved.rolls if r.key.startswith("aro ") or " skill " in r.key) if resolved else ()
    unpriced: list[str] = []
    views = [RollView.of(game, cat, r, unpriced) for r in rolls]
    priced, hits = price_rolls(game, cat, views, unpriced)
    states: dict[str, dict[str, Fraction]] = {}
    active = react = nothing = None
    if hits is not None:
        involved = {t for v in views for t in (v.roll.roller, *v.under)} | {t for vec in hits for _, t, _, _ in vec}
        states, together, blocked = end_states(game, cat, views, hits, sorted(involved), unpriced)
        active, react, nothing = summary(game, reactor, states, together, blocked)
    # a roll that is neither a weapon's Attack, an evasion nor Reset changes something
    # the end states do not price (Discover reveals, Forward Observer targets...)
    for v in views:
        if not v.roll.attack and v.roll.skill not in EVASION | {"reset"}:
            unpriced.append(f"{v.key}: what a passed {label(cat, v.roll)} does is not priced")
            nothing = None
    # a Mine's trigger (core/mines.lp) is not priced: its attack and the Dodge against it
    for r in game.relations:
        if r.kind == "trigger":
            unpriced.append(f"mine {r.subject}: its attack on {r.object} and the Dodge against it are not priced")
            active = react = nothing = None
    rows = tuple(EndState(t, s, p) for t in sorted(states) for s, p in sorted(states[t].items()))
    return OptionOdds(reactor, "as declared", None, None, None, priced, rows, active, react, nothing,
                      tuple(dict.fromkeys(unpriced)))


# ---- Options ----------------------------------------------------------------------------

def option_positions(game: Game, cat: Catalogue, aros: report.AroReport
                     ) -> list[tuple[str, report.Option, str | None, Game]]:
    """Per legal ARO option (one per ammunition when the weapon has several): the
    reactive trooper, the option, its ammunition and the position with that ARO declared
    in place of the trooper's own."""
    variants = []
    for reactive in aros.reactive:
        step = next((a.step for a in game.aros if a.trooper == reactive.trooper), reactive.declares_after or 1)
        for option in reactive.legal:
            for ammo in _ammunitions(cat, option.weapon):
                targets = (TargetUse(option.against, None, ()),) if option.against else ()
                use = SkillUse(option.skill, option.weapon, ammo, targets)
                variants.append((reactive.trooper, option, ammo, _with_aro(game, reactive.trooper, use, step)))
    return variants


def _with_aro(game: Game, trooper: str, use: SkillUse, step: int) -> Game:
    """The position with ``trooper``'s ARO replaced by ``use`` (declared after ``step``);
    an ARO declared after the first skill is not delayed, so its delay goes."""
    line = next((a.line for a in game.aros if a.trooper == trooper), 0)
    kept = tuple(a for a in game.aros if a.trooper != trooper)
    delays = tuple(d for d in game.delays if step != 1 or d.trooper != trooper)
    return replace(game, aros=(*kept, Aro(trooper, use, step, line)), delays=delays)


def _ammunitions(cat: Catalogue, weapon: str | None) -> tuple[str | None, ...]:
    """One option per ammunition when the weapon has several (the ARO must name one)."""
    ammo = cat.entries["weapons"][weapon].get("ammunition", []) if weapon else []
    return tuple(atom_text(a) for a in ammo) if len(ammo) > 1 else (None,)


def _best_first(row: OptionOdds) -> tuple:
    """Best first for the reactive player: the largest edge (its enemy down less its
    own trooper down), then the enemy's chance down; rows not priced last."""
    if row.margin is None:
        return (1, Fraction(0), Fraction(0), row.reactor or "", row.label)
    return (0, -row.margin, -(row.active_down or 0), row.reactor or "", row.label)
