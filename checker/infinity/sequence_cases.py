"""Cases on a sequence of Orders (docs/turn.md, docs/cases.md): ``check`` compares
``legal`` (every judged Order's), ``judged`` and each ``orders.N`` as a check case of
that Order (a ``step N end``'s as ``states_phase``, "trooper gains|loses|becomes|may_become state | rule");
``aros`` and ``declarations`` compare the last Order's report; ``error``
the error the sequence meets.

Defines: :func:`run`.
"""

from __future__ import annotations

from ..engine.cases import Case, CaseResult, Difference
from ..engine.errors import RulingError
from . import sequence_report
from .case_compare import (
    _compare,
    aro_differences,
    check_differences,
    declaration_differences,
    raised,
)
from .render import aros_text, declarations_text

# Keys a sequence's check case writes at its top; the rest go under orders.N.
SEQUENCE_KEYS = frozenset({"legal", "judged", "orders"})


def run(case: Case) -> CaseResult:
    """The case's differences on the sequence in its position."""
    file = str(case.path)
    try:
        if case.command in ("aros", "declarations"):
            analysed = sequence_report.last_order(case.position, file, case.command)
            if case.command == "aros":
                aros = analysed.aros()
                return CaseResult(case, tuple(aro_differences(case.expect, aros)), aros_text(aros))
            found = analysed.declarations()
            return CaseResult(case, tuple(declaration_differences(case.expect, found)), declarations_text(found))
        if case.command == "odds":
            why = "odds on a sequence: pin its last Order as a position of one Order"
            return CaseResult(case, (Difference("command", unexpected=(why,)),))
        report = sequence_report.sequence_report(case.position, file)
    except RulingError as exc:
        return raised(case, exc)
    if case.command == "error":
        return CaseResult(case, (Difference("error", missing=(case.expect.get("kind"),)),))
    return CaseResult(case, tuple(differences(case.expect, report)), sequence_report.sequence_text(report))


def differences(expect: dict, report: sequence_report.SequenceReport) -> list[Difference]:
    """What the case expects of the sequence and its Orders, and the report does not."""
    diffs = [Difference(key, unexpected=("a sequence's case writes each Order's expectations under orders.N",))
             for key in sorted(set(expect) - SEQUENCE_KEYS)]
    if "legal" in expect:
        diffs += _compare("legal", [expect["legal"]], [report.legal])
    if "judged" in expect:
        diffs += _compare("judged", [expect["judged"]], [report.judged])
    by_number = {str(j.number): j for j in report.orders}
    for number, table in expect.get("orders", {}).items():
        judged = by_number.get(number)
        if judged is None:
            diffs.append(Difference(f"orders.{number}", missing=("an Order of that number",)))
            continue
        if "not_judged" in table:
            diffs += _compare(f"orders.{number}.not_judged", [table["not_judged"]], [judged.check is None])
        if judged.check is None:
            if set(table) - {"not_judged"}:
                diffs.append(Difference(f"orders.{number}", unexpected=(f"not judged: {judged.not_judged}",)))
            continue
        if judged.states_phase is not None:
            found = [f"{c.trooper} {c.change} {c.state} | {c.rule}" for c in judged.states_phase]
            diffs += _compare(f"orders.{number}.states_phase", table.get("states_phase", []), found)
            why = "the States Phase step is compared by its states_phase"
            diffs += [Difference(f"orders.{number}.{k}", unexpected=(why,))
                      for k in sorted(set(table) - {"not_judged", "states_phase"})]
            continue
        sub = {k: v for k, v in table.items() if k != "not_judged"}
        diffs += [Difference(f"orders.{number}.{d.key}", d.missing, d.unexpected)
                  for d in check_differences(sub, judged.check)]
    return diffs
