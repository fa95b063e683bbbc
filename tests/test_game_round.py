"""The turn's place in the game (docs/turn.md): `round N`, `first SIDE`, `limited SIDE
tokens`, `began T isolated` read, located when wrong, and carried by `ruling state`
after a turn's end (the next Player Turn's round; the troopers Isolated as it ends)."""

from __future__ import annotations

import pytest

from checker.engine.errors import PositionError
from checker.infinity import notation, resolve, state_writer
from checker.infinity.turn import TURN_RANGES

HEAD = """edition n5
active pan
trooper a pan { group 1 }
trooper b pan { group 1; state: Isolated }
trooper e nom { }
"""


def test_the_round_range_reads_its_ends():
    bound = TURN_RANGES["game_round"]
    assert (bound.read("1"), bound.read("10"), bound.read("0"), bound.read("11")) == (1, 10, None, None)


@pytest.mark.parametrize(("line", "column", "words"), [
    ("round 0", 7, "a Game Round '0' is out of range"),
    ("first pan\nfirst nom", 7, "a second 'first' statement"),
    ("round 1\nround 2", 1, "a second 'round' statement"),
    ("first xyz", 7, "no trooper is on the side 'xyz'"),
    ("began zz isolated", 7, "zz"),
])
def test_round_statements_wrong_are_located(line, column, words):
    text = HEAD + line + "\norder a from group 1: Move\n"
    with pytest.raises(PositionError) as raised:
        resolve.resolve(notation.parse(text, "p.pos"))
    assert words in str(raised.value)
    assert raised.value.location.line == len(HEAD.splitlines()) + line.count("\n") + 1
    assert raised.value.location.column == column


END = HEAD + """round ROUND
first FIRST
tokens pan 4
began b isolated
pool pan group 1
step 1
order a from group 1: Move
step 2 end
"""


def _end(number: int, first: str) -> str:
    return END.replace("ROUND", str(number)).replace("FIRST", first)


@pytest.mark.parametrize(("first", "following"), [("pan", 1), ("nom", 2)])
def test_after_the_turns_end_the_round_is_the_next_player_turns(first, following):
    text = _end(1, first)
    if first == "pan":  # the opponent's Strategic Use, made in the game's first Player Turn
        text = text.replace("tokens pan 4\n", "tokens pan 4\nlimited pan tokens\n")
    written, _ = state_writer.state_text(text, "s.pos", 2)
    lines = written.splitlines()
    assert f"round {following}" in lines and f"first {first}" in lines
    # the Strategic Use's limit is the turn's own; b, Isolated as the turn ends, begins the next so
    assert "limited pan tokens" not in lines and lines.count("began b isolated") == 1


def test_without_the_turn_order_the_next_round_is_not_written():
    text = _end(2, "pan").replace("first pan\n", "")
    written, _ = state_writer.state_text(text, "s.pos", 2)
    assert not any(line.startswith("round") for line in written.splitlines())


def test_mid_turn_the_round_and_the_isolated_start_are_kept_as_written():
    text = _end(1, "pan").replace("tokens pan 4\n", "tokens pan 4\nlimited pan tokens\n").replace(
        "step 2 end", "step 2\norder a from group 1: Move")
    written, _ = state_writer.state_text(text, "s.pos", 1)
    lines = written.splitlines()
    assert {"round 1", "first pan", "limited pan tokens", "began b isolated"} <= set(lines)


def test_a_trooper_isolated_as_the_turn_ends_begins_the_next_isolated():
    text = _end(1, "pan").replace("began b isolated\n", "")
    written, _ = state_writer.state_text(text, "s.pos", 2)
    assert "began b isolated" in written.splitlines() and "began a isolated" not in written
