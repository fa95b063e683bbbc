"""Every number a position writes has a range (checker.infinity.position.RANGES), solving has a
time bound, and a file that is not UTF-8 is located: each is exit 2 with file:line:col,
never a traceback. No trooper id or side is reserved: one spelled like a word of the rule
base or of the code is judged like any other."""

from __future__ import annotations

import json
import re
import time

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from checker.engine import solver
from checker.infinity.position import RANGES

N5 = """edition n5
active nomads
trooper alg nomads { weapons: Combi Rifle }
trooper fus panoceania { weapons: Combi Rifle }
lof alg <-> fus
"""
LONG = "9" * 4301  # past Python's 4,300-digit limit for converting a str to an int


def run(*args, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


# ---- The table --------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(k for k, r in RANGES.items() if not r.over))
def test_a_range_reads_its_ends_and_refuses_one_past_them(key):
    bound = RANGES[key]
    assert (bound.read(str(bound.low)), bound.read(str(bound.high))) == (bound.low, bound.high)
    assert (bound.read(str(bound.low - 1)), bound.read(str(bound.high + 1))) == (None, None)


@pytest.mark.parametrize("text", [LONG, "2147483648", "-2147483649", "-²", "٣", "１２", "+-3", "", "1.5", " 1"])
def test_a_range_refuses_what_is_no_whole_number_in_it_without_converting(text):
    assert RANGES["param"].read(text) is None and RANGES["die"].read(text) is None


def test_a_margin_range_reads_up_to_the_value_it_is_added_to():
    assert RANGES["burst"].read("4", 3 + RANGES["burst"].high) == 4
    assert RANGES["burst"].read("5", 3 + RANGES["burst"].high) is None


# ---- Each number of the notation, through the CLI ---------------------------------

@pytest.mark.parametrize("line, column, message, expected", [
    ("order alg: BS Attack (Combi Rifle) -> fus x2147483648", 43, "a Burst share '2147483648' is out of range",
     "a Burst share from 1 to 4 (the Burst of Combi Rifle is 3, + 1 that a rule may add (Twin Weapons) or deny"),
    ("distance alg fus 99999999999999999999", 18, "a distance '999999999...' (20 characters) is out of range",
     "a distance from 0 to 96 inches"),
    ("distance alg fus 214748364.8", 18, "a distance '214748364.8' is out of range", "a distance from 0 to 96 inches"),
    (f"distance alg fus {LONG}", 18, "(4301 characters) is out of range", "a distance from 0 to 96 inches"),
    ("trooper z nomads { BS 2147483648 }", 23, "BS '2147483648' is out of range", "BS from 0 to 30"),
    ("trooper z nomads { MOV 4-2147483648 }", 26, "each MOV value '2147483648' is out of range",
     "each MOV value from 0 to 12 inches"),
    ("trooper z nomads { VITA 1; wounds 2147483648 }", 35, "wounds '2147483648' is out of range",
     "wounds from 0 to 11 (1: its W, VITA or STR, + 10"),
    ("trooper z nomads { group 2147483648 }", 26, "a Combat Group '2147483648' is out of range",
     "a Combat Group from 1 to 15"),
    ("trooper z nomads { skills: Mimetism (-2147483649) }", 38, "a MOD '-2147483649' is out of range",
     "a MOD from -12 to 12"),
    ("trooper z nomads { skills: Mimetism (-²) }", 38, "'-²' writes a number with digits other than 0-9",
     "a MOD from -12 to 12"),
    ("trooper z nomads { skills: Sixth Sense L2147483648 }", 28, "a level '2147483648' is out of range",
     "a level from 0 to 5"),
    (f"dice alg: 7 {LONG}", 13, "a die reads 1 to 20, not 999999999... (4301 digits)", "a die from 1 to 20"),
], ids=["burst", "distance", "distance-decimal", "distance-4301", "attribute", "mov", "wounds", "group",
        "mod", "mod-digits", "level", "die-4301"])
def test_a_number_out_of_range_is_located_and_says_the_range(write, line, column, message, expected):
    path = write(N5 + line + "\n")
    text = run("check", path)
    assert text.exit_code == EXIT_BAD_INPUT and isinstance(text.exception, SystemExit)
    first, source, caret, wanted = text.stderr.splitlines()[:4]
    assert first.startswith(f"{path}:6:{column}: error: ") and message in first, first
    assert source.strip() == line.strip() and caret.index("^") == column + 3
    assert wanted.startswith(f"    expected {expected}"), wanted
    error = json.loads(run("check", path, "--format", "json").stdout)["error"]
    assert (error["kind"], error["line"], error["column"]) == ("position", 6, column)


def test_a_burst_share_one_past_the_burst_is_still_the_rule_bases_verdict(write):
    result = run("check", write(N5 + "order alg: BS Attack (Combi Rifle) -> fus x4\n"))
    assert result.exit_code == EXIT_ILLEGAL and "[burst_split]" in result.stdout


@pytest.mark.parametrize("order, top, whose", [
    ("Forward Observer -> fus x{}", 3, "Forward Observer's own Burst is 2"),
    ("BS Attack -> fus x{}", 5, "with no weapon declared, the largest Burst of an N5 weapon is 4"),
])
def test_a_burst_share_without_a_weapon_is_bounded_by_the_skill_or_the_edition(write, order, top, whose):
    head = N5.replace("{ weapons: Combi Rifle }", "{ skills: Forward Observer; weapons: Combi Rifle }", 1)
    assert run("check", write(head + f"order alg: {order.format(top)}\n")).exit_code == EXIT_ILLEGAL
    result = run("check", write(head + f"order alg: {order.format(top + 1)}\n"))
    assert result.exit_code == EXIT_BAD_INPUT
    assert f"expected a Burst share from 1 to {top} ({whose}, + 1 that a rule may add" in result.stderr


@pytest.mark.parametrize("inches, code", [("96", EXIT_OK), ("96.0", EXIT_OK), ("0", EXIT_OK), ("96.05", EXIT_BAD_INPUT)])
def test_a_distance_reaches_96_inches(write, inches, code):
    assert run("check", write(N5 + f"distance alg fus {inches}\norder alg: Move\n")).exit_code == code


def test_wounds_reach_ten_past_the_life_attribute(write):
    dead = "trooper z nomads {{ W 2; wounds {}; state: Dead }}\norder alg: Move\n"
    assert run("check", write(N5 + dead.format(12))).exit_code == EXIT_OK
    assert run("check", write(N5 + dead.format(13))).exit_code == EXIT_BAD_INPUT


# ---- Bytes that are not UTF-8 -----------------------------------------------------

def test_a_byte_that_is_not_utf8_is_located_at_its_line_and_column(tmp_path):
    path = tmp_path / "p.pos"
    path.write_bytes(b"edition n5\nactive nomads\ntrooper a\xffb nomads\n")
    result = run("aros", str(path))
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr.startswith(f"{path}:3:10: error: the file is not UTF-8 text: byte 0xff (invalid start byte)")
    error = json.loads(run("aros", str(path), "--format", "json").stdout)["error"]
    assert (error["kind"], error["line"], error["column"]) == ("notation", 3, 10)
    piped = run("aros", "-", input=b"edition n5\n\xc3\xa9\xe2\x82\n")
    assert piped.exit_code == EXIT_BAD_INPUT and piped.stderr.startswith("-:2:2: error: the file is not UTF-8")


# ---- The time bound ---------------------------------------------------------------

# Eleven pigeons in ten holes: grounds at once, and clingo needs far longer than the
# bound to prove it has no answer.
PIGEONS = "pigeon(1..11). hole(1..10).\n1 { in(P, H) : hole(H) } 1 :- pigeon(P).\n:- in(P, H), in(Q, H), P < Q.\n"


def test_solving_past_the_time_bound_is_a_clear_error(write, tmp_path, monkeypatch):
    program = tmp_path / "pigeons.lp"
    program.write_text(PIGEONS, encoding="utf-8")
    monkeypatch.setattr(solver, "entry_file", lambda edition: program)
    monkeypatch.setattr(solver, "SOLVE_SECONDS", 0.2)
    start = time.perf_counter()
    result = run("check", write(N5 + "order alg: Move\n"), "--format", "json")
    assert time.perf_counter() - start < 10
    assert result.exit_code == EXIT_BAD_INPUT and isinstance(result.exception, SystemExit)
    assert "the n5 rule base found no verdict within 0.2 seconds" in result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "time-out" and (error["line"], error["column"]) == (1, 1)
    assert re.search(r"p\.pos:1:1: error: ", result.stderr)


# ---- No name is reserved -----------------------------------------------------------
# Names the position writes reach the rule base as clingo strings, and the code reads the
# rule base's own ``none`` as None: a trooper or side spelled like a word of either is
# judged as one called anything else.

def test_a_trooper_called_none_is_judged_like_any_other(write):
    shot = N5.replace("lof alg <-> fus\n", "trooper ID panoceania { weapons: Combi Rifle }\nlof fus -> alg\n")
    shot += "order alg: BS Attack (Combi Rifle) -> ID\n"
    for name in ("none", "nobody"):  # no LoF to the target: the attack is denied
        result = run("check", write(shot.replace("ID", name)))
        assert result.exit_code == EXIT_ILLEGAL, (name, result.stderr)
        assert "[target_lof]" in result.stdout


WORDS = ("none", "all", "true", "false", "order", "position")


@pytest.mark.parametrize("name", WORDS)
@pytest.mark.parametrize(("place", "target"), [("trooper ID panoceania", "ID"), ("trooper x ID", "x")])
@pytest.mark.parametrize("command", ["aros", "check"])
def test_a_word_of_the_code_or_rule_base_is_a_name_like_any_other(write, name, place, target, command):
    """The same report, word for word, as for a trooper or side called ``zed9``."""
    text = N5 + f"{place} {{ weapons: HMG }}\nlof {target} <-> alg\norder alg: BS Attack (Combi Rifle) -> {target}\n"
    named = run(command, write(text.replace("ID", name)), "--format", "json")
    plain = run(command, write(text.replace("ID", "zed9")), "--format", "json")
    assert named.exit_code == plain.exit_code and named.exit_code in (EXIT_OK, EXIT_ILLEGAL), named.stderr
    assert json.loads(named.stdout) == json.loads(re.sub(r"\bzed9\b", name, plain.stdout))


def test_a_name_the_rule_base_uses_elsewhere_is_a_fine_id(write):
    result = run("aros", write(N5 + "trooper rem panoceania { type REM }\norder alg: Move\n"))
    assert result.exit_code == EXIT_OK, result.stderr
