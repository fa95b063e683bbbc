"""Collect every case file under cases/ as a pytest item, run by checker.cases."""

from __future__ import annotations

import pytest

from checker import cases


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".toml":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):
        yield CaseItem.from_parent(self, name=self.path.stem)


class CaseItem(pytest.Item):
    def runtest(self):
        result = cases.run(cases.load(self.path))
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
