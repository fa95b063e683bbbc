"""Collect every case file under cases/ as a pytest item: Infinity's ``*.toml`` run by
checker.infinity.cases, Urban War's ``*.uwcase`` by checker.urban_war.cases (one interface:
``load(path)``, ``run(case)`` with ``.passed`` and ``.describe()``).

A case file is read while collecting, so a malformed one (an unknown key, a value of the
wrong type) is a collection error naming the file and the key, never a passing test."""

from __future__ import annotations

import pytest

from checker.engine.errors import CaseFormatError
from checker.infinity import cases
from checker.urban_war import cases as urban_war_cases

RUNNERS = {".toml": cases, urban_war_cases.SUFFIX: urban_war_cases}


def pytest_collect_file(parent, file_path):
    if file_path.suffix in RUNNERS:
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        runner = RUNNERS[self.path.suffix]
        yield CaseItem.from_parent(self, name=self.path.stem, case=runner.load(self.path), runner=runner)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFormatError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseItem(pytest.Item):
    def __init__(self, *, case, runner, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.runner = runner

    def runtest(self):
        result = self.runner.run(self.case)
        if not result.passed:
            raise CaseFailure(result.describe())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"case: {self.name}"


class CaseFailure(Exception):
    pass
