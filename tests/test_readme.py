"""Every example in README.md runs and does what the README says it does.

Examples are found by their markup, wherever they stand:

- a fenced block whose first statement is ``edition ...`` is a position: ``ruling check``
  finds it legal (exit 0) and, if it writes dice, they resolve the whole Order;
- a fenced ``toml`` block with an ``[expect]`` table is a case: ``ruling verify`` passes it;
- a line ``$ ruling ...`` (fenced or indented) is a command, and the lines after it, up to
  the next ``$`` line or the block's end, its output: exactly that output, or, when some
  lines are ``...``, the other lines in order, ``...`` standing for any lines left out
  (and, inside a line, for any text). It exits 0, or N when the line ends ``# exit N``;
- an indented shell line (``pip install . && ruling aros examples/hellcat.pos``) runs each
  of its ``ruling`` commands, which exit 0;
- an indented block ``FILE:LINE:COL: error: ...`` is a notation error: a file whose line
  LINE is the source line the block shows (under a minimal header) gives exactly that
  error on standard error, with exit code 2.

A failure names the README line of the example.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from checker.cli import EXIT_BAD_INPUT, EXIT_OK

from .conftest import ROOT

README = ROOT / "README.md"
ERROR_HEAD = re.compile(r"^(?P<file>\S+\.pos):(?P<line>\d+):(?P<col>\d+): error: ")
EXIT_NOTE = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


@dataclass(frozen=True)
class Block:
    """A code block of the README: its first content line's number, its info string
    (``toml``; "indented" for an indented block), and its lines."""

    line: int
    info: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    kind: str  # position, case, command, shell, error
    line: int  # in README.md
    text: str  # the position, the case, the command or the error block
    output: tuple[str, ...] = ()
    exit_code: int = EXIT_OK

    @property
    def where(self) -> str:
        return f"README.md:{self.line}"


def blocks(text: str) -> list[Block]:
    """Fenced blocks, and indented blocks (four spaces after a blank line) outside them."""
    found: list[Block] = []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        fence = re.match(r"^```\s*(\S*)\s*$", lines[n])
        if fence:
            end = next(k for k in range(n + 1, len(lines)) if lines[k].startswith("```"))
            found.append(Block(n + 2, fence.group(1), tuple(lines[n + 1:end])))
            n = end + 1
        elif lines[n].startswith("    ") and (n == 0 or not lines[n - 1].strip()):
            end = n
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            body = [line[4:] for line in lines[n:end]]
            while body and not body[-1].strip():
                body.pop()
            found.append(Block(n + 1, "indented", tuple(body)))
            n = end
        else:
            n += 1
    return found


def examples(text: str) -> list[Example]:
    found: list[Example] = []
    for block in blocks(text):
        statements = [s for s in block.lines if s.strip() and not s.lstrip().startswith("#")]
        if block.info != "indented" and statements and statements[0].startswith("edition "):
            found.append(Example("position", block.line, "\n".join(block.lines) + "\n"))
        elif block.info == "toml" and "[expect]" in block.lines:
            found.append(Example("case", block.line, "\n".join(block.lines) + "\n"))
        elif any(s.startswith("$ ") for s in block.lines):
            starts = [k for k, s in enumerate(block.lines) if s.startswith("$ ")]
            for k, end in zip(starts, [*starts[1:], len(block.lines)]):
                command = block.lines[k][2:]
                note = EXIT_NOTE.search(command)
                found.append(Example("command", block.line + k, EXIT_NOTE.sub("", command),
                                     block.lines[k + 1:end], int(note.group(1)) if note else EXIT_OK))
        elif block.info == "indented" and block.lines and ERROR_HEAD.match(block.lines[0]):
            found.append(Example("error", block.line, "\n".join(block.lines) + "\n", exit_code=EXIT_BAD_INPUT))
        elif block.info == "indented":
            for k, line in enumerate(block.lines):
                for part in line.split("&&"):
                    if part.split()[:1] == ["ruling"]:
                        found.append(Example("shell", block.line + k, part.strip()))
    return found


EXAMPLES = examples(README.read_text(encoding="utf-8"))


def ruling(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``ruling ARGS`` as a user runs it (``python -m checker`` is the same program)."""
    return subprocess.run([sys.executable, "-m", "checker", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)


def command_args(example: Example) -> list[str]:
    words = shlex.split(example.text)
    assert words[0] == "ruling", f"{example.where}: not a ruling command: {example.text!r}"
    assert not {"&&", "|", ">", "<", ";"} & set(words), f"{example.where}: a shell pipeline: {example.text!r}"
    return words[1:]


def shown_lines_appear(shown: tuple[str, ...], output: list[str]) -> str:
    """'' if the output is what the README shows, else what is wrong. Without '...' the
    output is exactly the shown lines; with it, the shown lines appear in order, lines
    between two shown lines only where a '...' line stands, and '...' inside a line
    stands for any text."""
    shown = tuple(line.rstrip() for line in shown)
    while shown and not shown[-1]:
        shown = shown[:-1]
    if not any("..." in line for line in shown):
        return "" if list(shown) == output else "the output differs"
    at, gap = 0, True  # gap: the next shown line may skip output lines
    for line in shown:
        if line.strip() == "...":
            gap = True
            continue
        pattern = re.compile(".*".join(map(re.escape, line.split("..."))))
        candidates = range(at, len(output)) if gap else range(at, min(at + 1, len(output)))
        hit = next((k for k in candidates if pattern.fullmatch(output[k])), None)
        if hit is None:
            where = "in order" if gap else f"right after output line {at}"
            return f"shown line {line!r} is not in the output {where}"
        at, gap = hit + 1, False
    return ""


def ids(kind: str) -> list:
    return [pytest.param(e, id=e.where) for e in EXAMPLES if e.kind == kind]


def test_the_readme_has_each_kind_of_example():
    kinds = {e.kind for e in EXAMPLES}
    assert kinds >= {"position", "case", "command", "shell", "error"}, sorted(kinds)
    assert any(e.output for e in EXAMPLES if e.kind == "command"), "no command with its output"


@pytest.mark.parametrize("example", ids("position"))
def test_a_position_is_legal(example, tmp_path):
    (tmp_path / "example.pos").write_text(example.text, encoding="utf-8")
    run = ruling(["check", "example.pos"], tmp_path)
    assert run.returncode == EXIT_OK, f"{example.where}: the position is not legal:\n{run.stdout}{run.stderr}"
    if any(line.split()[:1] == ["dice"] for line in example.text.splitlines()):
        data = json.loads(ruling(["check", "example.pos", "--format", "json"], tmp_path).stdout)
        assert data["resolution"]["complete"] is True, f"{example.where}: its dice do not resolve the Order:\n{run.stdout}"


@pytest.mark.parametrize("example", ids("case"))
def test_a_case_passes(example, tmp_path):
    (tmp_path / "example.toml").write_text(example.text, encoding="utf-8")
    run = ruling(["verify", "example.toml"], tmp_path)
    assert (run.returncode, run.stdout) == (EXIT_OK, "1 passed, 0 failed\n"), (
        f"{example.where}: the case does not pass:\n{run.stdout}{run.stderr}")


@pytest.mark.parametrize("example", ids("command") + ids("shell"))
def test_a_command_exits_as_shown_and_prints_what_is_shown(example):
    run = ruling(command_args(example), ROOT)
    assert run.returncode == example.exit_code, (
        f"{example.where}: `{example.text}` exited {run.returncode}, not {example.exit_code}:\n{run.stdout}{run.stderr}")
    if example.output:
        wrong = shown_lines_appear(example.output, run.stdout.splitlines())
        assert not wrong, f"{example.where}: `{example.text}`: {wrong}; it printed:\n{run.stdout}"


@pytest.mark.parametrize("example", ids("error"))
def test_an_error_is_reported_as_shown(example, tmp_path):
    shown = example.text.splitlines()
    head = ERROR_HEAD.match(shown[0])
    assert head and len(shown) > 1, f"{example.where}: no source line under the error"
    number = int(head.group("line"))
    header = ["edition n3", "active nomads"][:number - 1]
    lines = header + ["# filler"] * (number - 1 - len(header)) + [shown[1].removeprefix("    ")]
    (tmp_path / head.group("file")).write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = ruling(["check", head.group("file")], tmp_path)
    assert (run.returncode, run.stdout) == (EXIT_BAD_INPUT, ""), f"{example.where}: {run.stdout}{run.stderr}"
    assert run.stderr == example.text, f"{example.where}: the error differs; it printed:\n{run.stderr}"


@pytest.mark.parametrize("shown, output, wrong", [
    (("a", "b"), ["a", "b"], ""),
    (("a", "b"), ["a", "b", "c"], "the output differs"),
    (("a", "...", "c"), ["a", "b", "c"], ""),
    (("a", "c", "..."), ["a", "b", "c"], "shown line 'c' is not in the output right after output line 1"),
    (("...", "c", "a"), ["a", "b", "c"], "shown line 'a' is not in the output right after output line 3"),
    (("x: ... y", "..."), ["x: 1 2 y", "z"], ""),
    (("x: ... y", "..."), ["x: 1 2 z"], "shown line 'x: ... y' is not in the output in order"),
])
def test_elisions_stand_for_lines_left_out_and_nothing_else(shown, output, wrong):
    assert shown_lines_appear(shown, output) == wrong


def test_ci_runs_the_readme_test_command_exactly():
    """The quick start's second command (install the test extra, then the checks and the
    tests) is the line ``.ci/run`` runs, character for character."""
    quick_start = README.read_text(encoding="utf-8").split("## Quick start")[1].split("\n## ")[0]
    commands = [line.strip() for line in quick_start.splitlines() if line.startswith("    pip install")]
    assert len(commands) == 2, commands
    test_command = commands[1]
    assert "'.[test]'" in test_command and test_command.endswith("pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci
