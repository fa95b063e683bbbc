"""Collect every case file under cases/ as a pytest item, run by checker.cases.

A case file is read while collecting, so a malformed one (an unknown key, a value of the
wrong type) is a collection error naming the file and the key, never a passing test."""

from __future__ import annotations

import pytest

from checker import cases
from checker.errors import CaseFormatError


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".toml":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        yield CaseItem.from_parent(self, name=self.path.stem, case=cases.load(self.path))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFormatError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseItem(pytest.Item):
    def __init__(self, *, case: cases.Case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self):
        result = cases.run(self.case)
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
