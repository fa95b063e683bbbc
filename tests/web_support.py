"""What the web tests share: whether the web extra and the browser may be missing.

``RULING_WEB_REQUIRED=1`` (``.ci/run`` sets it) makes a missing web extra, Playwright or
chromium a failure; elsewhere those tests are skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest

REQUIRED = os.environ.get("RULING_WEB_REQUIRED") == "1"


def missing(reason: str) -> None:
    """Fail where the web tests are required, else skip with ``reason``."""
    if REQUIRED:
        pytest.fail(f"{reason} (RULING_WEB_REQUIRED=1)", pytrace=False)
    pytest.skip(reason)


def need_modules(*names: str) -> None:
    absent = [n for n in names if importlib.util.find_spec(n) is None]
    if absent:
        missing(f"{', '.join(absent)} not installed: pip install '.[test]'")


def chromium() -> str:
    """The system's chromium (``RULING_CHROMIUM`` names another)."""
    found = os.environ.get("RULING_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        missing("no chromium on the PATH (Debian: apt-get install chromium)")
    assert found is not None
    return found
