"""Each command asks the rule base for what its report reads only (``analysis.analyse``
with ``only``: the facts of ``analysis.ONLY_FACTS``, and the atoms ``report.UNREAD``
leaves unread); the report is the one the whole answer gives, for a sample of the case
positions of those commands, and for all of them under ``slow`` (``ruling verify``
solves each case in full)."""

from __future__ import annotations

import pytest

from checker.engine.errors import RulingError
from checker.infinity import analysis

from .sample import case_id, case_sample, edition, whole

COMMANDS = ("aros", "check", "declarations")


def _report(result: analysis.Analysis, command: str) -> dict:
    return getattr(result, command)().to_dict()


def _same_report_alone(case) -> None:
    try:
        full = analysis.analyse(case.position, str(case.path))
    except RulingError as exc:
        with pytest.raises(type(exc)):
            analysis.analyse(case.position, str(case.path), only=case.command)
        return
    alone = analysis.analyse(case.position, str(case.path), only=case.command)
    assert _report(alone, case.command) == _report(full, case.command)


def test_the_sample_holds_each_command_of_both_editions():
    assert {(edition(c), c.command) for c in case_sample(COMMANDS)} >= {
        (edition, command) for edition in ("n3", "n5") for command in COMMANDS}


@pytest.mark.parametrize("case", case_sample(COMMANDS), ids=case_id)
def test_the_report_read_alone_is_the_whole_answers(case):
    _same_report_alone(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", whole(COMMANDS), ids=case_id)
def test_the_report_read_alone_is_the_whole_answers_on_the_whole_corpus(case):
    _same_report_alone(case)


def test_a_result_read_for_one_report_gives_no_other():
    position = "edition n5\nactive a\ntrooper x a { BS 12 }\ntrooper y b { BS 11 }\norder x: Move\n"
    result = analysis.analyse(position, only="aros")
    result.aros()
    with pytest.raises(ValueError, match="aros report only"):
        result.check()
