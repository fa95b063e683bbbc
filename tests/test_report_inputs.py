"""Each command asks the rule base for what its report reads only (``analysis.analyse``
with ``only``: the facts of ``analysis.ONLY_FACTS``, and the atoms ``report.UNREAD``
leaves unread); the report is the one the whole answer gives, for every case position
of those commands (``ruling verify`` solves each case in full)."""

from __future__ import annotations

import pytest

from checker.engine.errors import RulingError
from checker.infinity import analysis, cases

from .conftest import ROOT

COMMANDS = ("aros", "check", "declarations")
CASES = [c for c in cases.collect([ROOT / "cases"]) if c.command in COMMANDS]


def _report(result: analysis.Analysis, command: str) -> dict:
    return getattr(result, command)().to_dict()


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: c.path.relative_to(ROOT).as_posix())
def test_the_report_read_alone_is_the_whole_answers(case):
    try:
        whole = analysis.analyse(case.position, str(case.path))
    except RulingError as exc:
        with pytest.raises(type(exc)):
            analysis.analyse(case.position, str(case.path), only=case.command)
        return
    alone = analysis.analyse(case.position, str(case.path), only=case.command)
    assert _report(alone, case.command) == _report(whole, case.command)


def test_a_result_read_for_one_report_gives_no_other():
    position = "edition n5\nactive a\ntrooper x a { BS 12 }\ntrooper y b { BS 11 }\norder x: Move\n"
    result = analysis.analyse(position, only="aros")
    result.aros()
    with pytest.raises(ValueError, match="aros report only"):
        result.check()
