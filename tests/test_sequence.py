"""Sequences of Orders (docs/turn.md): the position after Order N, read back, gives the
Orders after N the verdicts they get in the whole sequence (every sequence case); the
sequence's notation errors are located."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.cli import main
from checker.engine.errors import NotationError, PositionError
from checker.infinity import cases, notation, sequence, sequence_report, state_writer

ROOT = Path(__file__).resolve().parent.parent
SEQUENCE_CASES = sorted(
    p for edition in ("n5", "n3") for p in (ROOT / "cases" / edition).rglob("*.toml")
    if notation.is_sequence(p.read_text(encoding="utf-8")) and cases.load(p).command == "check"
)


def _verdicts(j: sequence.Judged) -> tuple:
    """What an Order's verdict says: each judgement's status and rules, the states after."""
    if j.check is None:
        return (j.number, "not judged")
    judgements = tuple((x.subject, x.status, tuple(sorted(c.rule for c in x.denied_by))) for x in j.check.judgements)
    states = tuple((s.trooper, s.after, s.wounds_total) for s in j.check.resolution.states) if j.check.resolution else ()
    return (j.number, judgements, states)


def test_sequence_cases_are_found():
    assert len(SEQUENCE_CASES) >= 20


@pytest.mark.parametrize("path", SEQUENCE_CASES, ids=lambda p: str(p.relative_to(ROOT)))
def test_state_after_each_order_reads_back_to_the_same_verdicts(path):
    case = cases.load(path)
    whole = sequence_report.sequence_report(case.position, str(path))
    # after the first Order, one in the middle and the last but one: each carries what
    # every Order before it left
    last = len(whole.orders) - 1
    for k in sorted({0, last // 2, last - 1} - {last}):
        judged = whole.orders[k]
        if judged.check is None or not judged.check.legal or whole.orders[k + 1].check is None:
            continue
        written, _ = state_writer.state_text(case.position, str(path), judged.number)
        again = sequence_report.sequence_report(written, f"{path} after {judged.number}")
        assert [_verdicts(j) for j in again.orders] == [_verdicts(j) for j in whole.orders[k + 1:]], written


SEQ = """edition n5
active pan
trooper a pan Fusilier { group 1 }
trooper e nom Fusilier
step 1
order a from group 1: Move
"""


def test_one_order_is_not_a_sequence():
    assert not notation.is_sequence("edition n5\nactive pan\n# step 1\norder a: Move\n")
    assert notation.is_sequence(SEQ)


@pytest.mark.parametrize(("text", "line", "words"), [
    (SEQ + "step 3\norder a: Move\n", 7, "step 3 follows step 1"),
    (SEQ.replace("step 1\n", ""), 5, "before the first 'step'"),
    (SEQ + "trooper b pan Fusilier\n", 7, "a step holds its Order's lines"),
])
def test_sequence_errors_are_located(text, line, words):
    with pytest.raises(NotationError) as caught:
        sequence.split(text, "s.pos")
    assert caught.value.location.line == line and words in str(caught.value)


def test_a_step_read_as_one_order_is_a_located_error():
    from checker.infinity import notation

    with pytest.raises(NotationError) as caught:
        notation.parse(SEQ, "s.pos")
    assert caught.value.location.line == 5


def test_an_error_in_a_later_order_keeps_its_line():
    with pytest.raises(PositionError) as caught:
        sequence_report.sequence_report(SEQ + "step 2\norder zz from group 1: Move\n", "s.pos")
    assert caught.value.location.line == 8


def test_state_command_writes_the_position_and_rejects_an_order_it_lacks(tmp_path):
    file = tmp_path / "s.pos"
    file.write_text(SEQ + "step 2\norder a from group 1: Move\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["state", str(file), "--after", "1"])
    assert out.exit_code == 0, out.output
    assert "spent pan group 1: 1" in out.output and "step 2" in out.output and "step 1" not in out.output
    missing = CliRunner().invoke(main, ["state", str(file), "--after", "5"])
    assert missing.exit_code == 2 and "no Order 5" in missing.output
    one_order = tmp_path / "one.pos"
    one_order.write_text(SEQ.split("step 1")[0], encoding="utf-8")
    no_steps = CliRunner().invoke(main, ["state", str(one_order), "--after", "1"])
    assert no_steps.exit_code == 2 and "no sequence of Orders" in no_steps.output, no_steps.output


def test_no_state_after_an_order_whose_result_is_not_known():
    text = SEQ.replace("trooper e nom Fusilier", "trooper e nom { BS 12; weapons: Combi Rifle }") + \
        "lof e -> a\naro e: BS Attack (Combi Rifle) -> a\nstep 2\norder a from group 1: Move\n"
    with pytest.raises(PositionError) as caught:
        state_writer.state_text(text, "s.pos", 1)
    assert "waits on dice" in str(caught.value) and caught.value.location.line == 5
    with pytest.raises(PositionError):
        sequence_report.last_position(text, "s.pos")


def test_check_on_a_sequence_in_json_gives_each_order(tmp_path):
    import json

    file = tmp_path / "s.pos"
    text = SEQ.replace("step 1", "pool pan group 1: 1\nstep 1") + "step 2\norder a from group 1: Move\n"
    file.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--format", "json", str(file)])
    assert out.exit_code == 1, out.output
    data = json.loads(out.output)
    assert (data["legal"], data["judged"]) == (False, 2)
    assert [o["number"] for o in data["orders"]] == [1, 2]
    assert [j["status"] for j in data["orders"][1]["check"]["judgements"] if j["subject"] == "order"] == ["denied"]


END = """edition n5
active pan
trooper a pan { group 1; state: Stunned }
trooper dg nom { W 1; skills: Dogged; state: Dogged }
tokens pan 4
spent pan tokens: 1
pool pan group 1
step 1
order b from group 1: Move
step 2 end
"""


def test_state_after_the_turns_end_is_the_position_the_turn_leaves():
    text = END.replace("trooper dg", "trooper b pan { group 1 }\ntrooper dg")
    written, judged = state_writer.state_text(text, "s.pos", 2)
    assert [j.number for j in judged] == [1, 2]
    assert judged[-1].states_phase is not None
    assert [(c.trooper, c.change, c.state) for c in judged[-1].states_phase] == [
        ("a", "loses", "stunned"), ("dg", "gains", "dead"), ("dg", "loses", "dogged")]
    lines = written.splitlines()
    assert "trooper a pan { group 1 }" in lines and "state: Dead" in written
    # Command Tokens are the game's: those spent are gone; the turn's own statements are not written
    assert "tokens pan 3" in lines and "pool pan group 1" in lines
    assert not any(line.startswith(("spent", "led", "step")) for line in lines), written


@pytest.mark.parametrize(("tail", "line", "words"), [
    ("step 2 end\nstep 3\norder a: Move\n", 8, "last step"),
    ("step 2 end\norder a: Move\n", 8, "holds no Order"),
])
def test_the_turns_end_is_the_last_step_and_holds_nothing(tail, line, words):
    text = SEQ + tail
    with pytest.raises(NotationError) as caught:
        sequence.split(text, "s.pos")
    assert caught.value.location.line == line and words in str(caught.value)


def test_the_turns_end_in_json_lists_its_changes(tmp_path):
    import json

    file = tmp_path / "s.pos"
    file.write_text(END.replace("order b", "order a"), encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--format", "json", str(file)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["orders"][1]["states_phase"][0] == {
        "trooper": "a", "change": "loses", "state": "stunned", "rule": "stunned_states_phase", "kind": "states"}
