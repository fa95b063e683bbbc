"""The case format every game shares: one TOML file per case, its expectations compared
with the game's reports both ways, each mismatch a :class:`Difference`.

A case file names its ``source``, a ``description``, the ``command`` it runs, the
``position`` (whose first statement says the game) and an ``[expect]`` table; each game
says which keys its commands know (``checker/infinity/cases.py``,
``checker/urban_war/cases.py``).

Defines: :class:`Case`, :class:`CaseResult`, :class:`Difference`, :func:`read`,
:func:`case_files`, :func:`progress_line`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CaseFormatError

SUFFIX = ".toml"


@dataclass(frozen=True)
class Difference:
    """One expectation's key, the items expected but missing, and those not expected."""

    key: str
    missing: tuple = ()
    unexpected: tuple = ()

    def __str__(self) -> str:
        parts = [f"  {self.key}:"]
        if self.missing:
            parts.append(f"    missing:    {', '.join(map(str, self.missing))}")
        if self.unexpected:
            parts.append(f"    unexpected: {', '.join(map(str, self.unexpected))}")
        return "\n".join(parts)


@dataclass(frozen=True)
class Case:
    """One case file, checked against its game's format: ``[expect]`` holds only known keys."""

    path: Path
    source: str
    description: str
    command: str
    position: str
    expect: dict


@dataclass(frozen=True)
class CaseResult:
    """A case run: the differences between what it expects and what ruling derives."""

    case: Case
    differences: tuple[Difference, ...]
    output: str = field(default="", compare=False)

    @property
    def passed(self) -> bool:
        return not self.differences

    def describe(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.case.path}  ({self.case.source})"
        if self.passed:
            return head
        numbered = "\n".join(
            f"  {n:3} | {line}" for n, line in enumerate(self.case.position.splitlines(), 1)
        )
        return "\n".join([
            head,
            f"  {self.case.description}",
            "position:",
            numbered,
            "differences:",
            *map(str, self.differences),
            "output:",
            *("  " + line for line in self.output.splitlines()),
            f"reproduce: ruling verify {self.case.path} --verbose",
            "",
        ])

    def to_dict(self) -> dict:
        return {
            "case": str(self.case.path),
            "source": self.case.source,
            "passed": self.passed,
            "differences": [
                {"key": d.key, "missing": list(d.missing), "unexpected": list(d.unexpected)}
                for d in self.differences
            ],
        }


def read(path: Path) -> tuple[dict, str]:
    """A case file's TOML table and its text.

    Raises
    ------
    CaseFormatError
        If the file cannot be read, is not UTF-8 or is not TOML.
    """
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CaseFormatError(f"{path}: {exc}") from None
    return data, text


def case_files(paths: list[Path]) -> list[Path]:
    """Every case file (``*.toml``) under the given files and folders, in path order.

    Raises
    ------
    CaseFormatError
        If a folder holds no case (it would pass, testing nothing).
    """
    files: list[Path] = []
    for path in paths:
        found = sorted(path.rglob(f"*{SUFFIX}")) if path.is_dir() else [path]
        if not found:
            raise CaseFormatError(f"{path}: no case files (*{SUFFIX}) in this folder")
        files += found
    return files


def progress_line(done: int, total: int, failed: int, seconds: float) -> str:
    """``'120/458 cases, 1 failed, 9 s left'``: the time left at the rate so far."""
    left = seconds / done * (total - done) if done else 0.0
    return f"{done}/{total} cases, {failed} failed, {left:.0f} s left"
