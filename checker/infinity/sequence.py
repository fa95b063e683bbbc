"""A numbered sequence of Orders (docs/turn.md): each Order judged on the position the
Orders before it left, chained in Python.

A sequence is a position whose Orders each follow a ``step N`` line. Order N is read as
a position of one Order: the statements before the first ``step`` (the army at the
start of the turn), the relations of the steps before it, and its own step's lines,
every other line blank so each error keeps its line. What Order N-1 left is then set
on that position: each trooper's states and Wounds after its resolution, the Orders and
Command Tokens the turn has spent, the size each generated Order Pool had at the start
of the turn; relations written for an earlier Order hold from the activation on. A last step
written ``step N end`` is the turn's end: its States Phase, solved on the position the
last Order left with ``states_phase`` set (asp/infinity/core/states_phase.lp), gives
the states the turn ends with. A position of one Order never comes here: it takes the
path it always took.

Defines: :func:`split`, :func:`judge`, :class:`Judged`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TypeVar

from ..engine import catalogue
from ..engine.errors import Location, NotationError
from . import analysis, editions, notation
from .answers import (
    CommandTokens,
    LossOfLieutenant,
    PoolSize,
    RetreatByCount,
    TokenSpent,
    TurnEnd,
    TurnEndAppointable,
    TurnEndAppoints,
    TurnEndGains,
)
from .position import ArmyDecl, Named, Position, Span, TrooperDecl, lines_of
from .report import CheckReport

# Relations that describe the table and hold for the Orders after the one they are
# written for; a Mine's trigger, a Smoke and a Command Token spent on a Guts Roll
# (`token T guts`) are the Order's own.
CARRIED = frozenset({"lof", "lof_both", "zoc", "hacking", "distance", "contact", "cover", "visibility",
                     "visibility_inside"})
ORDER_ONLY = frozenset({"trigger", "smoke_at", "smoke_across", "token_order_use"})
# What a step may hold: its Order (or deployment), AROs, dice and relations; a deployment
# step may name the player deploying (``active``: the players deploy in turn,
# docs/deployment.md).
# An Operational Use of a Command Token (`token T USE`) written in a step is made before
# or during its Order, and holds for the turn's later Orders (``anew`` does not drop it).
TURN_CARRIED = frozenset({"token_use"})
STEP_KINDS = (frozenset({"order", "aro", "aro_delay", "dice", "deploy", "dispersion", "active"}) | CARRIED | ORDER_ONLY
              | TURN_CARRIED)
SPENT_KINDS = frozenset({"spent_regular", "spent_tokens", "spent_own"})
LIST_KINDS = {"skills": "special_skills", "characteristics": "characteristics"}  # a trooper's list -> its kind


@dataclass(frozen=True)
class Step:
    number: int
    line: int
    anew: bool
    statements: tuple[notation.Statement, ...]
    end: bool = False  # `step N end`: the turn's States Phase


@dataclass(frozen=True)
class Split:
    """A sequence's text cut into the army at the start of the turn and its steps."""

    text: str
    file: str
    header: tuple[notation.Statement, ...]
    steps: tuple[Step, ...]

    def cut_before(self, index: int) -> int:
        """The index of the last step at or before ``index`` written ``anew`` (-1: none):
        relations written before it no longer hold."""
        return max((k for k in range(index + 1) if self.steps[k].anew), default=-1)


def split(text: str, file: str = "<position>") -> Split:
    """The sequence's army and steps, their numbers one after another.

    Raises
    ------
    NotationError
        For a text that does not parse, a step out of order, an Order's line before the
        first step, or a statement a step cannot hold.
    """
    lines = lines_of(text)

    def error(message: str, line: int, expected: tuple[str, ...] = ()) -> NotationError:
        return NotationError(message, Location(file, line, 1, lines[line - 1]), expected)

    header: list[notation.Statement] = []
    steps: list[tuple[notation.Statement, list[notation.Statement]]] = []
    for s in notation.statements(text, file):
        if s.kind == "step":
            if steps and steps[-1][0].end:
                raise error(f"step {s.number} follows 'step {steps[-1][0].number} end': the turn's end is its "
                            "last step", s.line)
            if steps and s.number != (steps[-1][0].number or 0) + 1:
                raise error(f"step {s.number} follows step {steps[-1][0].number}: a sequence numbers its Orders "
                            "one after another", s.line, (f"'step {(steps[-1][0].number or 0) + 1}'",))
            if s.number == 0:
                raise error("a sequence numbers its Orders from 1", s.line, ("'step 1' or later",))
            steps.append((s, []))
        elif steps:
            if steps[-1][0].end:
                raise error(f"'step {steps[-1][0].number} end' is the turn's States Phase: it holds no Order and "
                            f"no relation, not '{s.kind}'", s.line)
            if s.kind not in STEP_KINDS:
                raise error(f"a step holds its Order's lines (order, aro, dice, deploy, relations), not "
                            f"'{s.kind}': write it before the first 'step'", s.line)
            steps[-1][1].append(s)
        elif s.kind in STEP_KINDS - CARRIED - ORDER_ONLY - TURN_CARRIED - {"active"}:
            raise error(f"'{s.kind}' before the first 'step': each Order of a sequence follows its 'step N' line",
                        s.line, ("'step 1'",))
        else:
            header.append(s)
    for _, body in steps:
        for s in body:
            if s.kind == "active" and not any(b.kind == "deploy" for b in body):
                raise error("'active' in a step names the player deploying: a step with an Order is the turn's "
                            "active player's", s.line, ("'active' in a step holding a 'deploy' line",))
    return Split(text, file, tuple(header),
                 tuple(Step(s.number or 0, s.line, s.anew, tuple(body), s.end) for s, body in steps))


@dataclass
class Carry:
    """What the Orders judged so far leave for the next: states and Wounds by trooper
    id (catalogue ids), the turn's spent Orders and Command Tokens, the generated pools'
    sizes, by side as the position resolves it."""

    states: dict[str, tuple[str, ...]] = field(default_factory=dict)
    wounds: dict[str, int] = field(default_factory=dict)
    spent_regular: dict[tuple[str, int], int] = field(default_factory=dict)
    spent_tokens: dict[str, int] = field(default_factory=dict)
    spent_own: dict[tuple[str, str], int] = field(default_factory=dict)  # times each own Order was spent
    pools: dict[tuple[str, int], int] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)  # a generated `tokens SIDE`: its count at the start
    led: set[str] = field(default_factory=set)  # sides that began the turn with their Lieutenant
    retreat: set[str] = field(default_factory=set)  # sides the turn's Retreat! check put in Retreat!
    ended: bool = False  # the States Phase was judged: the turn is over
    wounded: set[str] = field(default_factory=set)  # Frenzy troopers an Order listed as wounding an enemy
    gained: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # (list, name) from the turn's end
    appointed: dict[str, str] = field(default_factory=dict)  # side -> the Lieutenant appointed as the turn ends
    isolated: set[str] = field(default_factory=set)  # troopers Isolated as the turn ends: the next turn began so
    # the turn's Tactical Phase is counted at its first Order, after the deployments before it
    started: bool = False
    off_table: set[str] = field(default_factory=set)  # Airborne Deployment troopers still off the table


def order_text(seq: Split, index: int) -> str:
    """The text of the Order at ``index`` as a position of one Order, every line it does
    not read blank (so lines keep their numbers)."""
    keep: set[int] = set()
    cut = seq.cut_before(index)

    def take(s: notation.Statement) -> None:
        keep.update(range(s.line, s.end_line + 1))

    own_active = any(s.kind == "active" for s in seq.steps[index].statements)
    for s in seq.header:
        if s.kind in CARRIED and cut >= 0 or s.kind in ORDER_ONLY and index > 0 or s.kind == "active" and own_active:
            continue
        take(s)
    for k, step in enumerate(seq.steps[:index]):
        for s in step.statements:
            if s.kind in CARRIED and k >= cut or s.kind in TURN_CARRIED:
                take(s)
    for s in seq.steps[index].statements:
        take(s)
    return "\n".join(line if n in keep else "" for n, line in enumerate(lines_of(seq.text), start=1))


def order_position(seq: Split, index: int, carry: Carry, edition_states: dict[str, str]) -> Position:
    """The position of the Order at ``index``, with what the earlier Orders left."""
    position = notation.parse(order_text(seq, index), seq.file)
    if index == 0:
        return position
    own = {s.line for s in seq.steps[index].statements}
    at = Span(seq.steps[index].line, 1)
    relations = tuple(r if r.subject.span.line in own else replace(r, step=0) for r in position.relations)
    troopers = tuple(_carried_trooper(t, carry, edition_states) for t in position.troopers)
    return replace(position, relations=relations, troopers=troopers, army=_army(position.army, carry, at))


def _carried_trooper(t: TrooperDecl, carry: Carry, names: dict[str, str]) -> TrooperDecl:
    if t.id.text not in carry.states:
        return t
    states = tuple(Named(names.get(s, s), t.id.span) for s in carry.states[t.id.text])
    lists = tuple(item for item in t.lists if item[0] != "states") + ((("states", states),) if states else ())
    wounds = carry.wounds.get(t.id.text, 0)
    return replace(t, lists=lists, wounds=Named(str(wounds), t.id.span) if wounds else None)


def _army(written: tuple[ArmyDecl, ...], carry: Carry, at: Span) -> tuple[ArmyDecl, ...]:
    kept = []
    for decl in written:
        if decl.kind in SPENT_KINDS and carry.started:
            continue  # written again below, with what the turn has spent since
        if decl.kind == "off_table":
            continue  # written again below, as the deployments so far left them
        if decl.kind == "pool" and decl.count is None and decl.group is not None:
            size = pool_size(carry, decl.subject.text, int(decl.group.text))
            if size is not None:
                decl = replace(decl, count=Named(str(size), decl.subject.span))
        if decl.kind == "army_points" and carry.started:  # the turn's Retreat! check was made at its start
            decl = replace(decl, own="counted")
        kept.append(decl)
    return (tuple(kept) + led_decls(carry, written, at) + retreat_decls(carry, written, at) + spent_decls(carry, at)
            + off_table_decls(carry, at))


def off_table_decls(carry: Carry, at: Span) -> tuple[ArmyDecl, ...]:
    """``off table T`` for each Airborne Deployment trooper the deployments so far left off
    the table: it adds no Order to the pool its first Order counts."""
    return tuple(ArmyDecl("off_table", Named(t, at)) for t in sorted(carry.off_table))


def retreat_decls(carry: Carry, written: tuple[ArmyDecl, ...], at: Span) -> tuple[ArmyDecl, ...]:
    """``retreat`` for each side the turn's Retreat! check put in Retreat!, unless written."""
    return _unwritten("retreat", carry.retreat, written, at)


def led_decls(carry: Carry, written: tuple[ArmyDecl, ...], at: Span) -> tuple[ArmyDecl, ...]:
    """``led`` for each side that began the turn with its Lieutenant, unless written."""
    return _unwritten("led", carry.led, written, at)


def _unwritten(kind: str, sides: set[str], written: tuple[ArmyDecl, ...], at: Span) -> tuple[ArmyDecl, ...]:
    """A ``kind`` statement for each of ``sides`` that ``written`` has none of."""
    have = {d.subject.text for d in written if d.kind == kind}
    return tuple(ArmyDecl(kind, Named(side, at)) for side in sorted(sides)
                 if not any(same_side(side, h) for h in have))


def spent_decls(carry: Carry, at: Span) -> tuple[ArmyDecl, ...]:
    """The ``spent`` statements of what the turn has spent, in a fixed order."""
    out = [ArmyDecl("spent_regular", Named(side, at), Named(str(g), at), Named(str(n), at))
           for (side, g), n in sorted(carry.spent_regular.items()) if n]
    out += [ArmyDecl("spent_tokens", Named(side, at), None, Named(str(n), at))
            for side, n in sorted(carry.spent_tokens.items()) if n]
    out += [ArmyDecl("spent_own", Named(t, at), None, Named(str(n), at) if n > 1 else None, kind)
            for (t, kind), n in sorted(carry.spent_own.items())]
    return tuple(out)


def same_side(side: str, written: str) -> bool:
    """Whether a side the rule base names is the one a position writes (spaces and case aside)."""
    return " ".join(side.split()).casefold() == " ".join(written.split()).casefold()


_V = TypeVar("_V")


def of_side(by_side: dict[str, _V], written: str) -> _V | None:
    """The value ``by_side`` holds for the side a position writes ``written``, if any."""
    return next((v for side, v in by_side.items() if same_side(side, written)), None)


def pool_size(carry: Carry, written: str, group: int) -> int | None:
    """The size a generated Order Pool had at the turn's start: the side written ``written``,
    its Combat Group ``group``."""
    return next((n for (side, g), n in carry.pools.items() if g == group and same_side(side, written)), None)


@dataclass(frozen=True, order=True)
class PhaseChange:
    """A state the States Phase gives (``gains``) or ends (``loses``), and the rule;
    ``kind`` ``skills`` or ``characteristics`` for one the trooper holds from then on."""

    trooper: str
    change: str
    state: str
    rule: str
    kind: str = "states"


@dataclass(frozen=True)
class Judged:
    """One Order of a sequence: its number, its ``step`` line, its verdict, or why it
    was not judged (an earlier Order was illegal, or left a result not yet known); for
    ``step N end``, the States Phase's changes."""

    number: int
    line: int
    check: CheckReport | None = None
    not_judged: str | None = None
    states_phase: tuple[PhaseChange, ...] | None = None
    end: bool = False  # the step is `step N end`


def judge(seq: Split) -> tuple[tuple[Judged, ...], Carry, int, str | None]:
    """Each Order's verdict, the carry after the last Order judged, how many were judged,
    and why the position after the last Order is not known (None when it is); an Order is
    judged only once every Order before it was legal and resolved."""
    carry = Carry()
    out: list[Judged] = []
    stop: str | None = None
    judged = 0
    for index, step in enumerate(seq.steps):
        if stop is not None:
            out.append(Judged(step.number, step.line, None, stop, end=step.end))
            continue
        judged += 1
        if step.end:
            check, changes = judge_end(seq, index, carry)
            out.append(Judged(step.number, step.line, check, states_phase=changes, end=True))
            continue
        check, stop = judge_one(seq, index, carry)
        out.append(Judged(step.number, step.line, check))
    return tuple(out), carry, judged, stop


def judge_one(seq: Split, index: int, carry: Carry) -> tuple[CheckReport, str | None]:
    """The verdict on the Order at ``index``; ``carry`` updated with what it leaves, and
    the reason the next Order cannot be judged, if any."""
    number = seq.steps[index].number
    position = order_position(seq, index, carry, state_names(seq) if index else {})
    prepared = analysis.prepare_position(position)
    result = analysis.analyse(position.text, seq.file, prepared, only="check")
    check = result.check()
    if index == 0:
        carry.off_table = {d.subject.text for d in position.army if d.kind == "off_table"}
    if not carry.started and (prepared.game.orders or not prepared.game.deployments):
        _start(carry, prepared, result)  # an Order, an Airborne Deployment's landing included
    if not check.legal or check.conflicts:
        return check, f"Order {number} is not legal: the position after it is not known"
    resolved = check.resolution
    if resolved is not None and (not resolved.complete or resolved.clashes):
        return check, (f"Order {number}'s resolution waits on dice or facts still to write: the position after "
                       "it is not known")
    for trooper, zone in prepared.game.deployments:  # kept off the table, or on it from now on
        (carry.off_table.add if zone == "off_table" else carry.off_table.discard)(trooper)
    reason = _spend(carry, prepared, number)
    if resolved is not None:  # Frenzy: the outcome its wounding an enemy lists (asp .../frenzy)
        carry.wounded |= {o.subject for o in resolved.outcomes if o.rule == "frenzy"}
    for token in result.atoms.of(TokenSpent):
        carry.spent_tokens[token.side] = carry.spent_tokens.get(token.side, 0) + 1
    if resolved is not None:
        for change in resolved.states:
            if change.trooper in {t.id for t in prepared.game.troopers}:
                carry.states[change.trooper] = tuple(s for s in change.after if s != "normal")
                carry.wounds[change.trooper] = change.wounds_total
    markers = {k for k, e in catalogue.load(prepared.game.edition).entries["states"].items() if e.get("marker")}
    for trooper, _ in check.revealed:
        before = carry.states.get(trooper, prepared.game.trooper(trooper).states)
        carry.states[trooper] = tuple(s for s in before if s not in markers)
        carry.wounds.setdefault(trooper, prepared.game.trooper(trooper).wounds_before or 0)
    return check, reason


def judge_end(seq: Split, index: int, carry: Carry) -> tuple[CheckReport, tuple[PhaseChange, ...]]:
    """The States Phase of ``step N end``: the states it gives and ends, set on ``carry``.

    Raises
    ------
    NotationError
        For a position that does not say whose turn it is (``active SIDE``).
    """
    step = seq.steps[index]
    position = order_position(seq, index, carry, state_names(seq) if index else {})
    if position.active is None:
        lines = lines_of(seq.text)
        raise NotationError(f"'step {step.number} end' is the States Phase of the active army's turn: write "
                            "whose turn it is", Location(seq.file, step.line, 1, lines[step.line - 1]),
                            ("'active SIDE'",))
    at = Span(step.line, 1)
    army = position.army + (ArmyDecl("states_phase", Named(position.active.text, at)),) + tuple(
        ArmyDecl("wound_inflicted", Named(t, at)) for t in sorted(carry.wounded))
    position = replace(position, army=army)
    prepared = analysis.prepare_position(position)
    result = analysis.analyse(position.text, seq.file, prepared, only="check")
    if not carry.started:
        _start(carry, prepared, result)
    changes = tuple(sorted(PhaseChange(str(c.trooper), c.change, c.state, c.rule)
                           for c in result.atoms.of(TurnEnd)))
    entries = catalogue.load(prepared.game.edition).entries
    gains = tuple(sorted(PhaseChange(str(g.trooper), "gains", g.id, g.rule, g.kind)
                         for g in result.atoms.of(TurnEndGains)))
    for g in gains:
        name = entries[LIST_KINDS[g.kind]][g.state].name
        carry.gained[g.trooper] = carry.gained.get(g.trooper, ()) + ((g.kind, name),)
    for trooper in sorted({c.trooper for c in changes}):
        before = carry.states.get(trooper, prepared.game.trooper(trooper).states)
        lost = {c.state for c in changes if c.trooper == trooper and c.change == "loses"}
        gained = tuple(c.state for c in changes if c.trooper == trooper and c.change == "gains")
        carry.states[trooper] = tuple(s for s in before if s not in lost) + tuple(
            s for s in gained if s not in before)
        carry.wounds.setdefault(trooper, prepared.game.trooper(trooper).wounds_before or 0)
    appointments = tuple(sorted(PhaseChange(str(a.trooper), "becomes", "lieutenant", str(a.rule))
                                for a in result.atoms.of(TurnEndAppoints)))
    for a in appointments:
        carry.appointed[prepared.game.trooper(a.trooper).side] = a.trooper
    choices = tuple(sorted(PhaseChange(str(a.trooper), "may_become", "lieutenant", str(a.rule))
                           for a in result.atoms.of(TurnEndAppointable)))
    carry.isolated = {t.id for t in prepared.game.troopers if "isolated" in carry.states.get(t.id, t.states)}
    carry.ended = True
    return result.check(), changes + gains + appointments + choices


@lru_cache(maxsize=8)
def state_names(seq: Split) -> dict[str, str]:
    """Each state's catalogue name by its id, in the sequence's edition (none for an
    edition the position does not name rightly: its Orders meet that error)."""
    edition = notation.parse(order_text(seq, 0), seq.file).edition
    if edition is None or edition.text not in editions():
        return {}
    return {k: e.name for k, e in catalogue.load(edition.text).entries["states"].items()}


def _start(carry: Carry, prepared: analysis.Prepared, result: analysis.Analysis) -> None:
    """The turn's start, at its first Order (the deployments before it are the Deployment
    Phase's): what its army statements say it spent before that Order, and the size of
    each generated pool."""
    carry.started = True
    for fact in prepared.game.army:
        if fact.kind == "spent_regular" and fact.group is not None:
            carry.spent_regular[(fact.subject, fact.group)] = fact.count or 0
        elif fact.kind == "spent_tokens":
            carry.spent_tokens[fact.subject] = fact.count or 0
        elif fact.kind == "spent_own" and fact.own:
            carry.spent_own[(fact.subject, fact.own)] = fact.count or 1
    lost = {x.side for x in result.atoms.of(LossOfLieutenant)}
    carry.led = {t.side for t in prepared.game.troopers if t.lieutenant} - lost
    carry.retreat = {x.side for x in result.atoms.of(RetreatByCount)}
    generated = {(f.subject, f.group) for f in prepared.game.army if f.kind == "pool" and f.count is None}
    for size in result.atoms.of(PoolSize):
        if (size.side, size.group) in generated:
            carry.pools[(size.side, size.group)] = size.orders
    dealt = {f.subject for f in prepared.game.army if f.kind == "tokens" and f.count is None}
    for held in result.atoms.of(CommandTokens):
        if held.side in dealt:
            carry.tokens[held.side] = held.tokens


def _own(carry: Carry, trooper: str, kind: str) -> None:
    """One more of the trooper's own Orders of ``kind`` spent."""
    carry.spent_own[(trooper, kind)] = carry.spent_own.get((trooper, kind), 0) + 1


def _spend(carry: Carry, prepared: analysis.Prepared, number: int) -> str | None:
    """Add what the Order spent to ``carry``; the reason the next Order cannot be judged
    when the army counts its pool and the Order does not say which Order it spends."""
    game = prepared.game
    counted = {f.subject for f in game.army if f.kind in ("pool", "spent_regular")}
    # a Coordinated or Fireteam Order is one Order: the line that writes its source says it
    written = any(o.source is not None or o.impetuous for o in game.orders)
    regular: set[tuple[str, int]] = set()
    landing = {t for t, _ in game.deployments}  # an Airborne Deployment's Order: the trooper's own
    for order in game.orders:
        side = game.trooper(order.trooper).side
        # a landing spends the trooper's own Order (`airborne`; an Irregular trooper's
        # Irregular Order), and its Impetuous Order in the Impetuous Phase, or a Regular
        # Order of its group's pool in a Coordinated Order (seed 002, Combat Jump, Parachutist)
        landed = order.trooper in landing
        if landed:
            _own(carry, order.trooper, "airborne")
        if order.impetuous:
            _own(carry, order.trooper, "impetuous")
        elif order.source == "regular" and order.pool is not None:
            regular.add((side, order.pool))
        elif landed:
            continue
        elif order.source in ("irregular", "lieutenant", "tactical"):
            _own(carry, order.trooper, order.source)
        elif order.source is None and side in counted and not written:
            return (f"Order {number} does not write which Order it spends ('from group N', 'irregular'...): "
                    "the Order Pool after it is not known")
    for key in regular:
        carry.spent_regular[key] = carry.spent_regular.get(key, 0) + 1
    return None

