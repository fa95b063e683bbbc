"""Collect every case file under cases/ (``*.toml``) as a pytest item, read by the game
its position is written for (``checker.games``).

A case file is read while collecting, so a malformed one (an unknown key, a value of the
wrong type) is a collection error naming the file and the key, never a passing test.

The corpus is solved once per test session: the first case item to run has every
selected case run together (``checker.games.run_cases``: a game may ground many
positions in one program, on every core), and each item reports its own result from
that run, the same ``CaseResult`` the case gives alone (tests/test_batch.py)."""

from __future__ import annotations

import pytest

from checker import games
from checker.engine.cases import Case, CaseResult
from checker.engine.errors import CaseFormatError

RESULTS = pytest.StashKey[dict[str, CaseResult]]()


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".toml":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        yield CaseItem.from_parent(self, name=self.path.stem, case=games.load_case(self.path))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFormatError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self):
        result = _results(self.session).get(str(self.case.path))
        if result is None:  # an item the session did not select up front
            result = next(games.run_cases([self.case]))
        if not result.passed:
            raise CaseFailure(result.describe())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"case: {self.name}"


def _results(session: pytest.Session) -> dict[str, CaseResult]:
    """Every selected case's result, run together the first time one is asked for."""
    found = session.stash.get(RESULTS, None)
    if found is None:
        selected = [item.case for item in session.items if isinstance(item, CaseItem)]
        found = session.stash[RESULTS] = {str(r.case.path): r for r in games.run_cases(selected)}
    return found


class CaseFailure(Exception):
    pass
