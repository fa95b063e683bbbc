"""The N5 Operational Uses of a Command Token a position writes (docs/turn.md, `token T
USE`): what the notation reads, the facts they make, the errors it locates, and a
sequence carrying a use written in a step to the turn's later Orders. What the rule base
makes of them is in the cases under cases/n5/turn (token_*, sequence_token_*)."""

from __future__ import annotations

import pytest

from checker.engine import catalogue
from checker.engine.errors import NotationError, PositionError
from checker.infinity import facts, notation, resolve, sequence

N5 = """edition n5
active pan
trooper a pan { group 1 }
trooper i pan { group 1; training irregular }
trooper e nom
tokens pan 4
"""


def test_token_uses_are_read_and_become_facts():
    position = notation.parse(N5 + "token i regular\ntoken a unaffected\norder a from group 1: Move\n", "t.pos")
    assert [(d.kind, d.subject.text, d.own) for d in position.army if d.kind == "token_use"] == [
        ("token_use", "i", "regular"), ("token_use", "a", "unaffected")]
    game = resolve.resolve(position)
    shown = {str(s).replace("\"", "") for s in facts.build(game, catalogue.load("n5"))}
    assert {"operational_use(i,regular)", "operational_use(a,unaffected)"} <= shown


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    (N5 + "token x regular\n", 7, 7, "unknown trooper id 'x'"),
    (N5 + "token i regular\ntoken i regular\n", 8, 7, "a second 'token' statement of the same kind for 'i'"),
    (N5.replace("edition n5", "edition n3") + "token i regular\n", 7, 7, "the stored N3 Command Tokens page"),
])
def test_bad_token_uses_are_located(text, line, column, words):
    with pytest.raises(PositionError, match=words) as err:
        resolve.resolve(notation.parse(text + "order a from group 1: Move\n", "t.pos"))
    assert (err.value.location.line, err.value.location.column) == (line, column)


def test_a_use_the_grammar_does_not_know_is_located():
    with pytest.raises(NotationError, match="unexpected 'steady'") as err:
        notation.parse(N5 + "token i steady\n", "t.pos")
    assert (err.value.location.line, err.value.location.column) == (7, 9)
    assert "a use ('regular', 'unaffected' or 'guts')" in str(err.value)


def test_a_use_written_in_a_step_holds_for_the_later_orders():
    text = (N5 + "step 1\norder a from group 1: Move\nstep 2 anew\ntoken i regular\norder a from group 1: Move\n"
            "step 3\norder a from group 1: Move\n")
    seq = sequence.split(text, "t.pos")
    first = sequence.order_text(seq, 0)
    third = sequence.order_text(seq, 2)
    assert "token i regular" not in first
    assert "token i regular" in third
