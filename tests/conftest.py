from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^#include "([^"]+)"\.', re.MULTILINE)


def included(path: Path) -> list[Path]:
    """A rule base file and every file it includes, in clingo's order, read with a regex
    (not with clingo); includes are relative to the including file."""
    files = [path]
    for name in INCLUDE.findall(path.read_text(encoding="utf-8")):
        files += included((path.parent / name).resolve())
    return files


def holds_statements(path: Path) -> bool:
    """Whether a rule file holds more than comments and #include lines."""
    return any(line.strip() and not line.startswith(("%", "#include"))
               for line in path.read_text(encoding="utf-8").split("\n"))


@pytest.fixture
def write(tmp_path):
    """Write a position file and return its path."""

    def _write(text: str, name: str = "p.pos") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return _write
