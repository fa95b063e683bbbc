"""The verdict on a sequence of Orders (docs/turn.md): each Order's check report, in
order, and the Orders left unjudged with the reason; its text and JSON. ``aros``,
``declarations`` and ``odds`` on a sequence judge its last Order, on the position the
Orders before it left.

Defines: :class:`SequenceReport`, :func:`sequence_report`, :func:`last_order`, :func:`sequence_text`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import Location, PositionError
from . import analysis, sequence
from .position import Position, lines_of
from .render import check_text


@dataclass(frozen=True)
class SequenceReport:
    orders: tuple[sequence.Judged, ...]
    judged: int

    @property
    def legal(self) -> bool:
        """Every Order judged was legal, with no rule conflict."""
        return all(j.check.legal and not j.check.conflicts for j in self.orders if j.check is not None)

    @property
    def not_modelled(self) -> bool:
        return any(j.check.not_modelled for j in self.orders if j.check is not None)

    def to_dict(self) -> dict:
        return {"legal": self.legal, "judged": self.judged, "orders": [
            {"number": j.number, "line": j.line, "check": j.check.to_dict() if j.check else None,
             "not_judged": j.not_judged,
             **({"states_phase": [vars(c) for c in j.states_phase]} if j.states_phase is not None else {})}
            for j in self.orders]}


def sequence_report(text: str, file: str) -> SequenceReport:
    """Each Order of the sequence in ``text`` judged on what the Orders before it left."""
    orders, _, judged, _ = sequence.judge(sequence.split(text, file))
    return SequenceReport(orders, judged)


def last_order(text: str, file: str, only: str) -> analysis.Analysis:
    """The analysis of the sequence's last Order, for the report ``only`` (aros,
    declarations), on the position the Orders before it left.

    Raises
    ------
    PositionError
        When an Order before it was illegal or left a result not yet known.
    """
    return analysis.analyse(text, file, analysis.prepare_position(last_position(text, file)), only=only)


def last_position(text: str, file: str) -> Position:
    """The position of the sequence's last Order (see :func:`last_order`)."""
    seq = sequence.split(text, file)
    earlier = sequence.Split(seq.text, seq.file, seq.header, seq.steps[:-1])
    _, carry, _, stop = sequence.judge(earlier) if earlier.steps else ((), sequence.Carry(), 0, None)
    if stop is not None:
        lines = lines_of(text)
        last = seq.steps[-1].line
        raise PositionError(f"Order {seq.steps[-1].number} cannot be judged: {stop}",
                            Location(file, last, 1, lines[last - 1]))
    return sequence.order_position(seq, len(seq.steps) - 1, carry, sequence.state_names(seq))


def sequence_text(report: SequenceReport) -> str:
    """Each Order's verdict under its number and line."""
    total = sum(1 for j in report.orders if not j.end)
    end = " and the States Phase" if any(j.end for j in report.orders) else ""
    head = (f"Sequence of {total} Order{'s' if total != 1 else ''}{end}, {report.judged} judged: "
            f"{'LEGAL' if report.legal else 'ILLEGAL'}")
    out = [head]
    for j in report.orders:
        if j.check is None:
            out.append(f"\nOrder {j.number} (line {j.line}): not judged: {j.not_judged}")
            continue
        if j.states_phase is not None:
            out.append(f"\nStates Phase, step {j.number} end (line {j.line}):")
            out.extend(f"  {c.trooper}: {c.change} {c.state} [{c.rule}]" for c in j.states_phase)
            if not j.states_phase:
                out.append("  no state ends or changes")
            continue
        body = check_text(j.check).rstrip("\n")
        out.append(f"\nOrder {j.number} (line {j.line}):")
        out.extend("  " + line if line else "" for line in body.split("\n"))
    return "\n".join(out) + "\n"
