"""The findings of fuzzing mutated positions and of trying traps (issue 26), each pinned:
bounded numbers in both games, side names compared case aside, byte order marks and
CR-only line ends, the bound on ``ruling odds``."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, main
from checker.engine.errors import NotationError, PositionError
from checker.engine.numbers import Range, whole
from checker.engine.text import decode
from checker.infinity import odds
from checker.urban_war import notation as uw_notation


def run(*args: str, stdin: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


# ---- one bounded number reader ------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("7", 7), ("+7", 7), ("-7", -7), ("007", 7), ("0" * 5000 + "7", 7), ("-" + "0" * 5000, 0),
    ("0" * 5000, 0), ("20", 20),
])
def test_whole_reads_numbers_in_range_whatever_their_leading_zeros(text: str, value: int):
    assert whole(text, -20, 20) == value


@pytest.mark.parametrize("text", ["21", "-21", "9" * 5000, "1" + "0" * 4400, "0" * 4400 + "21", "", "-", "1.5",
                                  "٣", "1 2", "0x1"])
def test_whole_refuses_numbers_out_of_range_or_not_whole(text: str):
    assert whole(text, -20, 20) is None


def test_a_range_reads_with_the_shared_reader_and_cuts_a_long_number_short():
    bound = Range("a die", 1, 20, "a d20")
    assert bound.read("0" * 5000 + "20") == 20
    assert bound.read("21") is None
    assert bound.read("21", high=21) == 21
    assert bound.out_of_range("9" * 4400) == "a die '999999999...' (4400 characters) is out of range"
    assert bound.out_of_range("21") == "a die '21' is out of range"


UW_HEAD = "game urban-war\nactive vasa\nmodel a vasa { order lock-fire }\nmodel d syntha { skills: Dodge }\n"


@pytest.mark.parametrize(("line", "column", "message"), [
    ("wounds d " + "9" * 4400, 10, "wounds '999999999...' (4400 characters) is out of range: 0 to 20"),
    ("dice d dodge: 7 " + "0" * 4400 + "11", 17, "die '000000000...' (4402 characters) is out of range: 1 to 10"),
    ("wounds d 21", 10, "wounds 21 is out of range: 0 to 20"),
])
def test_an_urban_war_number_of_any_length_is_a_located_position_error(line: str, column: int, message: str):
    with pytest.raises(PositionError) as caught:
        uw_notation.parse(UW_HEAD + "action a:\n" + line + "\n", "p.txt")
    assert (caught.value.location.line, caught.value.location.column) == (6, column)
    assert caught.value.message.startswith(message)


def test_an_urban_war_attribute_of_thousands_of_digits_exits_2_located(tmp_path):
    path = tmp_path / "long.pos"
    path.write_text(UW_HEAD.replace("order lock-fire", "order lock-fire; cd " + "0" * 5000 + "11"))
    result = run("aros", str(path))
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.output.startswith(f"{path}:3:36: error: cd '000000000...' (5002 characters) is out of range")
    assert "Traceback" not in result.output


def test_an_urban_war_number_with_leading_zeros_reads_as_its_value():
    position = uw_notation.parse(UW_HEAD + "action a:\nwounds d " + "0" * 5000 + "1\n")
    assert position.wounds[0][1] == 1


# ---- side names ---------------------------------------------------------------------


def test_urban_war_sides_differing_only_in_case_are_one_side_spelt_as_first_written():
    position = uw_notation.parse("game urban-war\nactive VASA\nmodel a Vasa\nmodel b vasa\nmodel c syntha\n")
    assert [m.side for m in position.models] == ["Vasa", "Vasa", "syntha"]
    assert position.active_side is not None
    assert (position.active_side.text, position.active_side.span.line) == ("Vasa", 2)


def test_urban_war_sides_of_other_spellings_stay_apart():
    position = uw_notation.parse("game urban-war\nactive vasa\nmodel a vasa\nmodel b va_sa\n")
    assert [m.side for m in position.models] == ["vasa", "va_sa"]


# ---- byte order mark and line ends --------------------------------------------------


def test_decode_sets_a_byte_order_mark_aside_and_reads_every_line_end_as_a_newline():
    assert decode(b"\xef\xbb\xbfedition n5\r\nactive a\rtrooper x a\n") == "edition n5\nactive a\ntrooper x a\n"
    assert decode(b"a\r\rb\r\n\r\nc") == "a\n\nb\n\nc"
    assert decode("\ufeffé".encode()) == "é"
    assert decode("é\ufeff".encode()) == "é\ufeff"  # only a leading mark is set aside


def test_a_byte_that_is_not_utf8_is_located_on_its_line_after_cr_only_line_ends():
    with pytest.raises(NotationError) as caught:
        decode(b"\xef\xbb\xbfone\rtwo\rth\xffree\r", "p.txt")
    location = caught.value.location
    assert (location.line, location.column, location.source_line) == (3, 3, "th\ufffdree")


INFINITY = "edition n5\nactive nomads\ntrooper alg nomads { weapons: Combi Rifle }\nlof alg -> alg2\n"


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n", b"\r"])
def test_an_infinity_error_after_bom_and_any_line_end_stands_at_its_line_and_column(line_end: bytes):
    data = b"\xef\xbb\xbf" + INFINITY.encode().replace(b"\n", line_end)
    result = run("aros", "-", stdin=data)
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.output.startswith("-:4:12: error: unknown trooper id 'alg2'")


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n", b"\r"])
def test_an_urban_war_error_after_bom_and_any_line_end_stands_at_its_line_and_column(line_end: bytes):
    data = b"\xef\xbb\xbf" + (UW_HEAD + "action a:\ndice d dodge: 11\n").encode().replace(b"\n", line_end)
    result = run("check", "-", stdin=data)
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.output.startswith("-:6:15: error: die 11 is out of range: 1 to 10")


def test_a_position_with_bom_and_cr_only_line_ends_reads_as_with_newlines():
    position = INFINITY.replace("lof alg -> alg2\n", "trooper fus panoceania { weapons: Combi Rifle }\n")
    plain = run("aros", "-", stdin=position.encode())
    marked = run("aros", "-", stdin=b"\xef\xbb\xbf" + position.encode().replace(b"\n", b"\r"))
    assert plain.exit_code == marked.exit_code == 0
    assert marked.output == plain.output


# ---- the bound on ruling odds ---------------------------------------------------------


def odds_position(reactive: int, lof: bool = True) -> str:
    """An Order against ``reactive`` enemies, each (with ``lof``) in LoF at 10 inches."""
    lines = ["edition n5", "active panoceania", "trooper fus panoceania { BS 12; ARM 1; W 1; weapons: Combi Rifle }"]
    for i in range(reactive):
        lines.append(f"trooper a{i} nomads {{ BS 11; ARM 1; W 1; weapons: Combi Rifle }}")
        if lof:
            lines += [f"lof a{i} <-> fus", f"distance a{i} fus 10"]
    return "\n".join([*lines, "order fus: BS Attack (Combi Rifle) -> a0", ""])


def test_odds_of_too_many_reacting_troopers_are_refused_before_any_fact_is_built(tmp_path):
    path = tmp_path / "many.pos"
    path.write_text(odds_position(1000, lof=False))
    start = time.perf_counter()
    result = run("odds", str(path))
    assert time.perf_counter() - start < 10
    assert result.exit_code == EXIT_BAD_INPUT
    first, source, caret, expected = result.output.splitlines()[:4]
    assert first == (f"{path}:1:1: error: the position is too large to price: 1,000 troopers that may react, each "
                     "priced on a copy of its 1,001 troopers and relations, make 1,001,000 facts or more; ruling odds "
                     f"prices at most {odds.ODDS_FACTS:,}")
    assert (source.strip(), caret.strip()) == ("edition n5", "^")
    assert expected.strip() == f"expected {odds.TOO_MANY}"


def test_odds_of_too_many_aro_options_are_refused_before_their_copies_are_built(tmp_path, monkeypatch):
    # 30 enemies in LoF: 4 ARO options each (BS Attack, Dodge, Change Facing, Reset)
    monkeypatch.setattr(odds, "ODDS_FACTS", 30 * 400)
    built = []
    original = odds.option_positions
    monkeypatch.setattr(odds, "option_positions", lambda *a: built.append(len(v := original(*a))) or v)
    path = tmp_path / "options.pos"
    path.write_text(odds_position(30))
    result = run("odds", str(path), "--format", "json")
    assert result.exit_code == EXIT_BAD_INPUT
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["line"], error["column"]) == ("position", 1, 1)
    assert error["message"].startswith("the position is too large to price: 120 ARO options, each priced on a copy "
                                       "of its ")
    assert built == [120]


def test_odds_within_the_bound_are_priced(tmp_path):
    path = tmp_path / "few.pos"
    path.write_text(odds_position(3))
    result = run("odds", str(path), "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data["options"]) == 12


def test_odds_past_the_deadline_are_a_located_time_out(tmp_path, monkeypatch):
    clock = itertools.count(0, 15)  # each look at the clock is 15 seconds after the one before
    monkeypatch.setattr(odds, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(odds.solver, "SOLVE_SECONDS", 20.0)
    path = tmp_path / "slow.pos"
    path.write_text(odds_position(2))
    result = run("odds", str(path), "--format", "json")
    assert result.exit_code == EXIT_BAD_INPUT
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["line"], error["column"]) == ("time-out", 1, 1)
    assert error["message"] == ("ruling odds found no odds within 20 seconds: the position is too large to price; "
                                f"{odds.TOO_MANY}")
