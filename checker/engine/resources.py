"""The one place that finds the rule base, the grammar and the catalogue.

Installed, they live inside the package (``checker/asp``, ``checker/grammar``,
``checker/catalogue``); in a source checkout, ``asp/`` and ``grammar/`` sit beside
``checker/``.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # checker/


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def asp_dir() -> Path:
    """Folder of the ASP rule base (``core/``, one folder and one entry file per edition)."""
    return _data_dir("asp")


def grammar_file() -> Path:
    """The position notation grammar."""
    return _data_dir("grammar") / "position.lark"


def catalogue_dir() -> Path:
    """Folder of the catalogue data, one sub-folder per catalogue (an Infinity edition, a game)."""
    return _PACKAGE / "catalogue"


def rule_sets() -> tuple[str, ...]:
    """Every rule set: the entry files ``asp/<name>.lp``, each a game or a game's edition."""
    return tuple(sorted(p.stem for p in asp_dir().glob("*.lp")))


def cache_dir() -> Path:
    """The user's cache folder for what ruling rebuilds from its own files (the rewritten
    rule base, the parsed catalogue), each file named by a digest of what it was built
    from: deleting the folder only costs time."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ruling"


def store_cache(file: Path, data: bytes, family: str) -> None:
    """Write ``data`` to ``file`` in the cache folder, whole or not at all (a process
    reading it meanwhile sees the old file or the new one), and delete the files of the
    same ``family`` (a glob) it replaces: built from older sources, never read again. A
    cache that cannot be written is no error: the next process rebuilds it."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        part = file.with_suffix(f".{os.getpid()}.tmp")
        part.write_bytes(data)
        part.replace(file)
        for old in file.parent.glob(family):
            if old != file:
                old.unlink(missing_ok=True)
    except OSError:
        pass
