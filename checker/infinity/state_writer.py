"""``ruling state FILE --after N``: the position a sequence leaves after its Order N,
written in the notation (docs/turn.md). Read back, its Orders get the verdicts they get
in the whole sequence (tests/test_sequence.py checks every sequence case).

The statements before the first ``step`` are written as they stand, but a trooper whose
states or Wounds changed (written again on one line), a generated pool (written with
the size it had at the start of the turn) and the ``spent`` statements (written with
what the turn spent up to Order N), with ``led`` for an army that began the turn with its
Lieutenant, ``points SIDE N counted`` (the turn's Retreat! check is made) and ``retreat``
for an army that check put in Retreat!; the relations of steps 1 to N follow, holding from
the activation, then ``off table T`` for each Airborne Deployment trooper the
deployments left off the table, then the steps after N as written (before the first
Order, the Deployment Phase's steps alone, the turn's statements stay as written). After a ``step N end`` the turn is
over: the troopers are written with the states its States Phase left, each ``tokens``
line less the Command Tokens the turn spent (they are the game's; a generated ``tokens
SIDE`` is written with its count, as it is before the turn's end), ``points SIDE N``
without ``counted`` and no ``retreat`` the check put (the next turn makes its own Retreat!
check), nothing of the turn's
own (no ``spent``, no ``led``), and the Lieutenant its States Phase appointed written
``lieutenant`` in the previous one's stead; whose turn follows is the player's to write.

Defines: :func:`state_text`.
"""

from __future__ import annotations

from ..engine.errors import Location, PositionError
from . import notation, sequence
from .position import ArmyDecl, Named, Position, Span, TrooperDecl, lines_of


def state_text(text: str, file: str, after: int) -> tuple[str, tuple[sequence.Judged, ...]]:
    """The position after Order ``after`` of the sequence in ``text``, and the verdicts
    of the Orders up to it.

    Raises
    ------
    NotationError, PositionError
        For a text that does not read, an ``after`` that is no Order of the sequence, or
        an Order up to it that was not judged (its reason says why).
    """
    seq = sequence.split(text, file)
    numbers = [s.number for s in seq.steps]
    lines = lines_of(text)
    if not numbers:
        raise PositionError("the position is no sequence of Orders: 'ruling state' writes the position after one "
                            "of its numbered Orders", Location(file, 1, 1, lines[0]),
                            ("a 'step N' line before each Order (docs/turn.md)",))
    if after not in numbers:
        raise PositionError(f"the sequence has no Order {after}", Location(file, 1, 1, lines[0]),
                            (f"an Order from {numbers[0]} to {numbers[-1]}",))
    index = numbers.index(after)
    partial = sequence.Split(seq.text, seq.file, seq.header, seq.steps[:index + 1])
    judged, carry, _, stop = sequence.judge(partial)
    if stop is not None:
        first = next((j for j in judged if j.not_judged), judged[-1])
        raise PositionError(f"no position after Order {after}: {stop}", Location(file, first.line, 1,
                                                                                lines[first.line - 1]))
    return _write(seq, index, carry, lines), judged


def _write(seq: sequence.Split, index: int, carry: sequence.Carry, lines: list[str]) -> str:
    first = notation.parse(sequence.order_text(seq, 0), seq.file)
    names = sequence.state_names(seq)
    troopers = {t.id.span.line: t for t in first.troopers}
    pools = {d.subject.span.line: d for d in first.army if d.kind == "pool"}
    points = {d.subject.span.line: d for d in first.army if d.kind == "army_points"}
    cut = seq.cut_before(index)
    out: list[str] = []
    tokens = {d.subject.span.line: d for d in first.army if d.kind == "tokens"}
    rounds = {d.subject.span.line: d for d in first.army if d.kind == "game_round"}
    uses = _uses(seq, index, first)
    for s in seq.header:
        if s.kind in sequence.SPENT_KINDS and carry.started or s.kind in sequence.ORDER_ONLY:
            continue
        if s.kind in sequence.TURN_CARRIED:
            continue  # written below, with the uses the steps up to N wrote
        if s.kind == "off_table":
            continue  # written below, as the deployments left them
        if carry.ended and s.kind in ("cancel_impetuous", "nullified", "limited_tokens", "began_isolated"):
            continue  # the turn's own: the next turn's Impetuous Phase has its own; Isolated below
        if carry.ended and s.kind == "game_round":
            following = _next_round(first, rounds.get(s.line))
            if following is not None:
                out.append(f"round {following}")
            continue
        held = tokens.get(s.line)
        dealt = None if held is None else sequence.of_side(carry.tokens, held.subject.text)
        if held is not None and (carry.ended or dealt is not None) and (held.count is not None or dealt is not None):
            count = int(held.count.text) if held.count is not None else dealt or 0
            spent = sequence.of_side(carry.spent_tokens, held.subject.text) or 0
            spent += sum(1 for d in uses
                         if d.own != "guts" and sequence.same_side(_side_of(first, d) or "", held.subject.text))
            out.append(f"tokens {held.subject.text} {max(count - spent, 0) if carry.ended else count}")
            continue
        if s.kind in sequence.CARRIED:
            if cut < 0:
                out.append(_relation_line(lines, s))
            continue
        decl = troopers.get(s.line)
        if decl is not None and (decl.id.text in carry.states or decl.id.text in carry.gained
                                 or _lieutenant(decl, carry) != decl.lieutenant):
            out.append(_trooper_line(decl, carry, names))
            continue
        army = points.get(s.line)
        if army is not None and army.count is not None:  # counted until the turn ends, anew after
            counted = " counted" if carry.started and not carry.ended or army.own and not carry.started else ""
            out.append(f"points {army.subject.text} {army.count.text}{counted}")
            continue
        pool = pools.get(s.line)
        if pool is not None and pool.count is None and pool.group is not None and not carry.ended:
            size = sequence.pool_size(carry, pool.subject.text, int(pool.group.text))
            if size is not None:
                out.append(f"pool {pool.subject.text} group {pool.group.text}: {size}")
                continue
        out.extend(lines[s.line - 1:s.end_line])
    for k, step in enumerate(seq.steps[:index + 1]):
        out.extend(_relation_line(lines, s) for s in step.statements if s.kind in sequence.CARRIED and k >= cut)
    if not carry.ended:
        # the army the turn's Retreat! check put in Retreat! stays in it for the turn; after
        # the turn's end its next check, from the `points` written, decides anew
        out.extend(f"retreat {d.subject.text}" for d in sequence.retreat_decls(carry, first.army, _SPAN))
        out.extend(f"led {d.subject.text}" for d in sequence.led_decls(carry, first.army, _SPAN))
        out.extend(_spent_line(d) for d in sequence.spent_decls(carry, _SPAN))
        out.extend(f"token {d.subject.text} {d.own}" for d in uses)
    else:
        # at the start of any turn that follows, a trooper Isolated now began it Isolated
        out.extend(f"began {t.id.text} isolated" for t in first.troopers if t.id.text in carry.isolated)
        # "until the end of the game": a trooper a Command Token freed from Retreat! stays free
        out.extend(f"began {d.subject.text} unaffected" for d in uses if d.own == "unaffected")
    out.extend(f"off table {d.subject.text}" for d in sequence.off_table_decls(carry, _SPAN))
    for step in seq.steps[index + 1:]:
        end = max((s.end_line for s in step.statements), default=step.line)
        out.extend(lines[step.line - 1:end])
    return "\n".join(out) + "\n"


_SPAN = Span(1, 1)  # the spent statements are written, not read: no place to point at


def _uses(seq: sequence.Split, index: int, first: Position) -> list[ArmyDecl]:
    """The turn's Operational Uses of Command Tokens (`token T USE`) written before the
    first step and in steps up to ``index``, each held for the rest of the turn."""
    lines = {s.line for s in seq.header if s.kind in sequence.TURN_CARRIED}
    lines |= {s.line for step in seq.steps[:index + 1] for s in step.statements if s.kind in sequence.TURN_CARRIED}
    text = sequence.order_text(seq, index)
    army = notation.parse(text, seq.file).army if lines - {d.subject.span.line for d in first.army} else first.army
    return [d for d in army if d.kind == "token_use" and d.subject.span.line in lines]


def _side_of(first: Position, use: ArmyDecl) -> str | None:
    """The side of the trooper a use names, as its ``trooper`` line writes it."""
    return next((t.side.text for t in first.troopers if t.id.text == use.subject.text), None)


def _next_round(first: Position, written: ArmyDecl | None) -> int | None:
    """The Game Round of the Player Turn after the one that ended: the same round when the
    active side has the first Player Turn (``first SIDE``), the next when it has the
    second; None when the position does not say who plays first (the line is left out)."""
    if written is None or written.count is None or first.active is None:
        return None
    leader = next((d.subject.text for d in first.army if d.kind == "first_player"), None)
    if leader is None:
        return None
    number = int(written.count.text)
    return number if sequence.same_side(leader, first.active.text) else number + 1


def _relation_line(lines: list[str], s: notation.Statement) -> str:
    """A relation's lines, its ``from first`` / ``from second`` left out: it holds from
    the activation of the Orders after the one it was written for."""
    text = "\n".join(lines[s.line - 1:s.end_line])
    if s.phase is None:
        return text
    start, end = s.phase
    return (text[:start - 1] + text[end - 1:]).rstrip()


def _trooper_line(t: TrooperDecl, carry: sequence.Carry, names: dict[str, str]) -> str:
    parts: list[str] = []
    if _lieutenant(t, carry):
        parts.append("lieutenant")
    if t.group is not None:
        parts.append(f"group {t.group.text}")
    parts += [f"{a.text} {v.text}" for a, v in t.attributes]
    if t.troop_type is not None:
        parts.append(f"type {t.troop_type.text}")
    if t.training is not None:
        parts.append(f"training {t.training.text}")
    wounds = carry.wounds.get(t.id.text, 0)
    if wounds:
        parts.append(f"wounds {wounds}")
    if t.points is not None:
        parts.append(f"points {t.points.text}")
    if t.species is not None:
        parts.append(f"species {t.species.text}")
    gained = carry.gained.get(t.id.text, ())
    written = {kind for kind, _ in t.lists}
    for kind, items in t.lists:
        if kind != "states" or t.id.text not in carry.states:
            more = [name for k, name in gained if k == kind]
            label = "state" if kind == "states" else kind
            parts.append(f"{label}: " + ", ".join([_item(i) for i in items] + more))
    parts += [f"{kind}: {name}" for kind, name in gained if kind not in written]
    states = carry.states.get(t.id.text, ())
    if states:
        parts.append("state: " + ", ".join(names.get(s, s) for s in states))
    head = "deployable" if t.deployable else "trooper"
    profile = f" {t.profile.text}" if t.profile else ""
    block = " { " + "; ".join(parts) + " }" if parts else ""
    return f"{head} {t.id.text} {t.side.text}{profile}{block}"


def _lieutenant(t: TrooperDecl, carry: sequence.Carry) -> bool:
    """Whether the trooper is written as its army's Lieutenant: the one appointed as the
    turn ended, else the one written (it loses the skill to the appointed one)."""
    appointed = sequence.of_side(carry.appointed, t.side.text)
    return t.lieutenant if appointed is None else appointed == t.id.text


def _item(item: Named) -> str:
    return item.text + (f" ({item.param})" if item.param else "")


def _spent_line(d: ArmyDecl) -> str:
    if d.kind == "spent_own":
        times = f": {d.count.text}" if d.count is not None and d.count.text != "1" else ""
        return f"spent {d.subject.text} {d.own}{times}"
    if d.kind == "spent_tokens":
        return f"spent {d.subject.text} tokens: {d.count.text if d.count else 0}"
    return f"spent {d.subject.text} group {d.group.text if d.group else 0}: {d.count.text if d.count else 0}"
