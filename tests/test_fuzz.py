"""Bad input never crashes and never hangs: the case positions, mutated (characters
inserted, deleted or replaced, tokens swapped, numbers made huge, negative, decimal or
written in other digits, lines repeated, bytes that are not UTF-8), run through the CLI
in-process. Every run exits 0, 1 or 2 without a traceback; with ``--format json`` its
stdout is JSON whatever the exit code; an exit 2 names file:line:col."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.cli import EXIT_BAD_INPUT, main

from .conftest import ROOT

POSITIONS = sorted({
    tomllib.loads(path.read_text(encoding="utf-8")).get("position", "")
    for path in (ROOT / "cases").rglob("*.toml")
} - {""})

# Past 32 bits, at the edge, past Python's 4,300-digit conversion, negative, decimal,
# in other digits; the first ones, which crashed, three times as often.
HUGE = ["2147483648", "-2147483649", "99999999999999999999", "214748364.8", "9" * 4301, "-²"]
NUMBERS = HUGE * 3 + ["2147483647", "100000000", "-1", "0", "00", "1.5", "-0", "²", "٣", "１２"]
CHARACTERS = list("abxz ->:+,.()[]{}#;\n\t0123456789") + ["\x00", "\r", "\x0c", "é", "²", "\u2028", "\ufeff"]
BAD_BYTES = [b"\xff", b"\xc3", b"\x80", b"\xe2\x82"]
COMMANDS = ["aros", "declarations", "check"]


@st.composite
def mutated(draw) -> bytes:
    """A case position with a number replaced (the crashes were in numbers), then up
    to two more mutations of any kind."""
    text = _number(draw, draw(st.sampled_from(POSITIONS)))
    for _ in range(draw(st.integers(0, 2))):
        text = draw(st.sampled_from(MUTATIONS))(draw, text)
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 19)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(BAD_BYTES)) + data[at:]
    return data


def _insert(draw, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.sampled_from(CHARACTERS)) + text[at:]


def _delete(draw, text: str) -> str:
    at = draw(st.integers(0, max(len(text) - 1, 0)))
    return text[:at] + text[at + 1:]


def _replace(draw, text: str) -> str:
    at = draw(st.integers(0, max(len(text) - 1, 0)))
    return text[:at] + draw(st.sampled_from(CHARACTERS)) + text[at + 1:]


def _swap_tokens(draw, text: str) -> str:
    tokens = re.split(r"(\s+)", text)
    words = [i for i, t in enumerate(tokens) if t.strip()]
    if len(words) > 1:
        a, b = draw(st.sampled_from(words)), draw(st.sampled_from(words))
        tokens[a], tokens[b] = tokens[b], tokens[a]
    return "".join(tokens)


def _number(draw, text: str) -> str:
    found = list(re.finditer(r"-?[0-9]+(?:\.[0-9]+)?", text))
    if not found:
        return text
    match = draw(st.sampled_from(found))
    return text[:match.start()] + draw(st.sampled_from(NUMBERS)) + text[match.end():]


def _duplicate_line(draw, text: str) -> str:
    lines = text.split("\n")
    at = draw(st.integers(0, len(lines) - 1))
    return "\n".join(lines[:at + 1] + lines[at:])


MUTATIONS = [_number, _swap_tokens, _duplicate_line, _insert, _delete, _replace]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=600, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=mutated(), command=st.sampled_from(COMMANDS), fmt=st.sampled_from(["text", "json"]))
def test_a_mutated_position_exits_0_1_or_2_and_says_where(folder, data, command, fmt):
    path = folder / "p.pos"
    path.write_bytes(data)
    result = CliRunner().invoke(main, [command, str(path), "--format", fmt])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code in (0, 1, 2)
    if fmt == "json":
        output = json.loads(result.stdout)
    if result.exit_code == EXIT_BAD_INPUT:
        assert re.match(re.escape(str(path)) + r":\d+:\d+: error: ", result.stderr), result.stderr
        if fmt == "json":
            assert {"line", "column"} <= output["error"].keys(), output
