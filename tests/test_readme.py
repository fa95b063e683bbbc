"""Every example in README.md and in the documents it points to runs and does what it says.

The documents are README.md, benchmarks/README.md and every Markdown file under docs/
but the generated ones (``GENERATED``). Examples are found by their markup, wherever they
stand:

- a fenced block whose first statement is ``edition ...`` or ``game ...`` is a position.
  When a command shown runs on it (below), that command's exit code and output are its
  test; otherwise ``ruling check`` finds it legal (exit 0) and, for Infinity, if it
  writes dice, they resolve the whole Order;
- a fenced ``toml`` block with an ``[expect]`` table is a case: ``ruling verify`` passes it;
- a line ``$ ruling ...`` (fenced or indented) is a command, and the lines after it, up to
  the next ``$`` line or the block's end, its output: exactly that output, or, when some
  lines are ``...``, the other lines in order, ``...`` standing for any lines left out
  (and, inside a line, for any text). It exits 0, or N when the line ends ``# exit N``.
  A command naming a position file the repository does not hold (``ruling check
  dodge.pos``) runs on the last position shown before it in the same document, saved
  under that name;
- an indented shell line (``pip install . && ruling aros examples/hellcat.pos``) runs each
  of its ``ruling`` commands, which exit 0;
- an indented block ``FILE:LINE:COL: error: ...`` is a notation error: a file whose line
  LINE is the source line the block shows (under a minimal header) gives exactly that
  error on standard error, with exit code 2.

A failure names the document and line of the example.
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
DOCS = ROOT / "docs"
BENCHMARKS_README = ROOT / "benchmarks" / "README.md"
# Written by a program, not by hand: their own tests keep them in step with the code.
GENERATED = {DOCS / "coverage.md", DOCS / "faq.md", DOCS / "urban-war" / "coverage.md"}
DOCUMENTS = [README, BENCHMARKS_README,
             *sorted(p for p in DOCS.rglob("*.md") if p not in GENERATED)]
README_LIMIT = 12_000  # bytes: the README is what a newcomer reads first

ERROR_HEAD = re.compile(r"^(?P<file>\S+\.pos):(?P<line>\d+):(?P<col>\d+): error: ")
EXIT_NOTE = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
LINK = re.compile(r"\]\(([^)#\s]+)\)")
# Words that tell the project's past rather than what it is.
HISTORY = re.compile(r"\b(?:this|earlier|previous|last|next) rounds?\b|\bissue \d+|\bafter this change\b",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Block:
    """A code block of a document: its first content line's number, its info string
    (``toml``; "indented" for an indented block), and its lines."""

    line: int
    info: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    kind: str  # position, case, command, shell, error
    document: Path
    line: int  # in the document
    text: str  # the position, the case, the command or the error block
    output: tuple[str, ...] = ()
    exit_code: int = EXIT_OK
    position: str = ""  # for a command: the last position shown before it, if any

    @property
    def where(self) -> str:
        return f"{self.document.relative_to(ROOT).as_posix()}:{self.line}"


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


def examples(text: str, document: Path) -> list[Example]:
    found: list[Example] = []
    position = ""
    for block in blocks(text):
        statements = [s for s in block.lines if s.strip() and not s.lstrip().startswith("#")]
        if block.info != "indented" and statements and statements[0].split()[0] in {"edition", "game"}:
            position = "\n".join(block.lines) + "\n"
            found.append(Example("position", document, block.line, position))
        elif block.info == "toml" and "[expect]" in block.lines:
            found.append(Example("case", document, block.line, "\n".join(block.lines) + "\n"))
        elif any(s.startswith("$ ") for s in block.lines):
            starts = [k for k, s in enumerate(block.lines) if s.startswith("$ ")]
            for k, end in zip(starts, [*starts[1:], len(block.lines)]):
                command = block.lines[k][2:]
                note = EXIT_NOTE.search(command)
                found.append(Example("command", document, block.line + k, EXIT_NOTE.sub("", command),
                                     block.lines[k + 1:end], int(note.group(1)) if note else EXIT_OK,
                                     position))
        elif block.info == "indented" and block.lines and ERROR_HEAD.match(block.lines[0]):
            found.append(Example("error", document, block.line, "\n".join(block.lines) + "\n",
                                 exit_code=EXIT_BAD_INPUT))
        elif block.info == "indented":
            for k, line in enumerate(block.lines):
                for part in line.split("&&"):
                    if part.split()[:1] == ["ruling"]:
                        found.append(Example("shell", document, block.line + k, part.strip()))
    return found


EXAMPLES = [e for document in DOCUMENTS for e in examples(document.read_text(encoding="utf-8"), document)]


def ruling(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``ruling ARGS`` as a user runs it (``python -m checker`` is the same program)."""
    return subprocess.run([sys.executable, "-m", "checker", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)


def command_args(example: Example) -> list[str]:
    words = shlex.split(example.text)
    assert words[0] == "ruling", f"{example.where}: not a ruling command: {example.text!r}"
    assert not {"&&", "|", ">", "<", ";"} & set(words), f"{example.where}: a shell pipeline: {example.text!r}"
    return words[1:]


def saved_names(args: list[str]) -> list[str]:
    """The position files a command names that the repository does not hold."""
    return [a for a in args if a.endswith(".pos") and not (ROOT / a).exists()]


def workdir(example: Example, args: list[str], tmp_path: Path) -> Path:
    """Where the command runs: the repository, or, when it names a position file the
    repository does not hold, a folder holding the position shown before it under that name."""
    saved = saved_names(args)
    if not saved:
        return ROOT
    assert example.position, f"{example.where}: `{example.text}` names {saved[0]}, and no position is shown before it"
    for name in saved:
        (tmp_path / name).write_text(example.position, encoding="utf-8")
    return tmp_path


def shown_lines_appear(shown: tuple[str, ...], output: list[str]) -> str:
    """'' if the output is what the document shows, else what is wrong. Without '...' the
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


def run_by_a_command(position: Example) -> bool:
    """Whether a command shown in the position's document runs on it."""
    return any(e.kind == "command" and e.document == position.document and e.position == position.text
               and saved_names(shlex.split(e.text)[1:]) for e in EXAMPLES)


def ids(kind: str) -> list:
    return [pytest.param(e, id=e.where) for e in EXAMPLES
            if e.kind == kind and not (kind == "position" and run_by_a_command(e))]


def test_the_documents_hold_each_kind_of_example():
    kinds = {e.kind for e in EXAMPLES}
    assert kinds >= {"position", "case", "command", "shell", "error"}, sorted(kinds)
    in_readme = {e.kind for e in EXAMPLES if e.document == README}
    assert in_readme >= {"position", "command", "shell", "error"}, sorted(in_readme)
    assert any(e.output and e.position for e in EXAMPLES if e.document == README), (
        "the README shows no position with its output")


def test_the_readme_is_short():
    size = len(README.read_bytes())
    assert size < README_LIMIT, f"README.md is {size} bytes; the reference belongs in docs/"


def test_the_readme_points_to_every_document_and_each_exists():
    readme = README.read_text(encoding="utf-8")
    linked = {(ROOT / target).resolve() for target in LINK.findall(readme) if "://" not in target}
    missing = sorted(str(p.relative_to(ROOT)) for p in linked if not p.exists())
    assert missing == [], f"the README links to files that do not exist: {missing}"
    documents = {p.resolve() for p in [*DOCS.rglob("*.md"), BENCHMARKS_README]}
    unlisted = sorted(str(p.relative_to(ROOT)) for p in documents - linked)
    assert unlisted == [], f"documents the README's table does not point to: {unlisted}"


@pytest.mark.parametrize("document", [pytest.param(d, id=d.relative_to(ROOT).as_posix()) for d in DOCUMENTS])
def test_a_document_links_to_files_that_exist(document):
    targets = [t for t in LINK.findall(document.read_text(encoding="utf-8")) if "://" not in t]
    missing = [t for t in targets if not (document.parent / t).exists()]
    assert missing == [], f"{document.relative_to(ROOT)} links to files that do not exist: {missing}"


@pytest.mark.parametrize("document", [pytest.param(d, id=d.relative_to(ROOT).as_posix()) for d in DOCUMENTS])
def test_a_document_says_what_is_not_how_it_came_to_be(document):
    found = [(n, m.group(0)) for n, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1)
             for m in HISTORY.finditer(line)]
    assert found == [], f"{document.relative_to(ROOT)}: history words at (line, words) {found}"


@pytest.mark.parametrize("example", ids("position"))
def test_a_position_is_legal(example, tmp_path):
    (tmp_path / "example.pos").write_text(example.text, encoding="utf-8")
    run = ruling(["check", "example.pos"], tmp_path)
    assert run.returncode == EXIT_OK, f"{example.where}: the position is not legal:\n{run.stdout}{run.stderr}"
    infinity = not example.text.lstrip().startswith("game ")
    if infinity and any(line.split()[:1] == ["dice"] for line in example.text.splitlines()):
        data = json.loads(ruling(["check", "example.pos", "--format", "json"], tmp_path).stdout)
        assert data["resolution"]["complete"] is True, f"{example.where}: its dice do not resolve the Order:\n{run.stdout}"


@pytest.mark.parametrize("example", ids("case"))
def test_a_case_passes(example, tmp_path):
    (tmp_path / "example.toml").write_text(example.text, encoding="utf-8")
    run = ruling(["verify", "example.toml"], tmp_path)
    assert (run.returncode, run.stdout) == (EXIT_OK, "1 passed, 0 failed\n"), (
        f"{example.where}: the case does not pass:\n{run.stdout}{run.stderr}")


@pytest.mark.parametrize("example", ids("command") + ids("shell"))
def test_a_command_exits_as_shown_and_prints_what_is_shown(example, tmp_path):
    args = command_args(example)
    run = ruling(args, workdir(example, args, tmp_path))
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


def test_a_command_on_a_position_shown_runs_on_that_position(tmp_path):
    text = "```\nedition n5\nactive a\n```\n\n```\n$ ruling check p.pos\n```\n\n```\n$ ruling check examples/hellcat.pos\n```\n"
    first, second = examples(text, README)[1:]
    assert (first.kind, first.position) == ("command", "edition n5\nactive a\n")
    assert workdir(first, command_args(first), tmp_path) == tmp_path
    assert (tmp_path / "p.pos").read_text(encoding="utf-8") == "edition n5\nactive a\n"
    assert workdir(second, command_args(second), tmp_path) == ROOT


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
