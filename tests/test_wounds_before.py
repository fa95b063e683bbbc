"""Wounds lost before the Order (`wounds N` in a trooper's block): parsed, resolved,
shown in the state table and JSON, and a bad value is a located error with exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from checker.infinity import notation

from .test_notation import grammar_example

SHOT = """edition n5
active panoceania
trooper fus panoceania { BS 12; weapons: Combi Rifle }
trooper alg nomads { ARM 1; VITA 2; WIP 13; wounds 1 }
lof fus -> alg
distance fus alg 10
order fus: BS Attack (Combi Rifle) -> alg x1
dice fus: 4
dice alg save: 12
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_grammar_example_writes_wounds_before():
    pos = notation.parse(grammar_example(), "example.pos")
    ghost = pos.troopers[3]
    assert ghost.wounds.text == "1" and ghost.wounds.span.line > 1


def test_the_state_table_counts_the_wounds_before(write):
    result = run("check", write(SHOT))
    assert result.exit_code == EXIT_OK, result.output
    table = result.output.split("States:")[1]
    row = next(line for line in table.splitlines() if line.startswith("  alg "))
    assert "2/2 (1 before)" in row and "unconscious" in row
    data = json.loads(run("check", write(SHOT), "--format", "json").output)
    alg = next(s for s in data["resolution"]["states"] if s["trooper"] == "alg")
    assert (alg["wounds_before"], alg["wounds_lost"], alg["wounds_total"], alg["life"]) == (1, 1, 2, 2)


def test_as_many_wounds_as_vita_without_unconscious_is_a_breach(write):
    text = SHOT.replace("VITA 2; WIP 13; wounds 1", "VITA 2; WIP 13; wounds 2")
    result = run("check", write(text))
    assert result.exit_code == EXIT_ILLEGAL
    assert "position alg: the position breaks a rule" in result.output
    assert "[wounds_before_state]" in result.output


@pytest.mark.parametrize("value, column, found", [
    ("-1", 30, "'-1'"),
    ("one", 30, "'one'"),
    ("1.5", 31, "'.5'"),
    ("", 31, "'}'"),
])
def test_a_bad_value_is_a_located_notation_error(write, value, column, found):
    path = write(f"edition n5\nactive a\ntrooper x a {{ VITA 2; wounds {value} }}\n")
    for command in ("check", "aros"):
        result = run(command, path)
        assert result.exit_code == EXIT_BAD_INPUT
        first = result.output.splitlines()[0]
        assert first.startswith(f"{path}:3:{column}: error: unexpected {found}"), first
        assert "wounds lost before the Order are a whole number, 0 or more" in first
        assert "Traceback" not in result.output
    error = json.loads(run("check", path, "--format", "json").output.split("\n}\n")[0] + "\n}")["error"]
    assert (error["kind"], error["line"], error["column"]) == ("notation", 3, column)


def test_wounds_without_a_life_attribute_is_a_position_error(write):
    path = write("edition n3\nactive a\ntrooper x a { BS 11; wounds 1 }\n")
    result = run("check", path)
    assert result.exit_code == EXIT_BAD_INPUT
    assert f"{path}:3:29: error: 'wounds 1' needs the W, VITA or STR" in result.output
    assert "Traceback" not in result.output
