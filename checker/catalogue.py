"""Load the catalogue data (``checker/catalogue/<edition>/*.toml``) and look names up.

Matching ignores case, runs of spaces and a trailing level (``Sixth Sense L2``).
"""

from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from .errors import RuleBaseError
from .resources import catalogue_dir

# file stem -> the TOML array-of-tables key of its entries
KINDS = {
    "skills": "skill",
    "special_skills": "special_skill",
    "states": "state",
    "weapons": "weapon",
    "profiles": "profile",
    "characteristics": "characteristic",
}

_LEVEL = re.compile(r"^(?P<name>.*?)\s+(?:L|Level\s*)(?P<level>[0-9]+|X)$", re.IGNORECASE)
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def normalize(text: str) -> str:
    """Case- and space-insensitive key: ``'  BS   attack'`` -> ``'bs attack'``."""
    return " ".join(text.split()).casefold()


def split_level(text: str) -> tuple[str, str | None]:
    """``'Sixth Sense L2'`` -> ``('Sixth Sense', '2')``; no level -> ``(text, None)``."""
    match = _LEVEL.match(text.strip())
    if match:
        return match["name"], match["level"].upper()
    return text.strip(), None


@dataclass(frozen=True)
class Entry:
    """One catalogue entry: a skill, state, weapon, profile..."""

    kind: str
    id: str
    name: str
    source: str
    data: Mapping = field(default_factory=dict, compare=False)

    def get(self, key: str, default=None):
        return self.data.get(key, default)


@dataclass(frozen=True)
class Catalogue:
    """Every entry of one edition, by kind and id, with a name index."""

    edition: str
    entries: Mapping[str, Mapping[str, Entry]]
    index: Mapping[str, Mapping[str, str]]

    def find(self, kind: str, text: str) -> Entry | None:
        """The entry of ``kind`` named ``text`` (or one of its aliases), if any."""
        entry_id = self.index[kind].get(normalize(text))
        return self.entries[kind][entry_id] if entry_id else None

    def all(self, kind: str) -> tuple[Entry, ...]:
        return tuple(self.entries[kind].values())

    def suggest(self, kind: str, text: str) -> str | None:
        """The closest known name, for 'did you mean' hints."""
        names = {normalize(e.name): e.name for e in self.entries[kind].values()}
        close = difflib.get_close_matches(normalize(text), list(names), n=1, cutoff=0.6)
        return names[close[0]] if close else None


@lru_cache(maxsize=None)
def load(edition: str) -> Catalogue:
    """Load and check one edition's catalogue.

    Raises
    ------
    RuleBaseError
        If a file is missing, is not valid TOML, or has a bad or duplicate entry.
    """
    folder = catalogue_dir() / edition
    if not folder.is_dir():
        raise RuleBaseError(f"no catalogue for edition {edition!r} in {folder}")
    entries: dict[str, dict[str, Entry]] = {}
    index: dict[str, dict[str, str]] = {}
    for stem, key in KINDS.items():
        path = folder / f"{stem}.toml"
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except tomllib.TOMLDecodeError as exc:
            raise RuleBaseError(f"{path}: {exc}") from None
        entries[stem], index[stem] = _entries(path, stem, table.get(key, []))
    return Catalogue(
        edition,
        MappingProxyType({k: MappingProxyType(v) for k, v in entries.items()}),
        MappingProxyType({k: MappingProxyType(v) for k, v in index.items()}),
    )


def _entries(path, stem: str, rows: list) -> tuple[dict[str, Entry], dict[str, str]]:
    entries: dict[str, Entry] = {}
    index: dict[str, str] = {}
    for row in rows:
        missing = [k for k in ("id", "name", "source") if k not in row]
        if missing or not _ID.match(str(row.get("id", ""))):
            raise RuleBaseError(f"{path}: entry {row.get('id', row)!r}: bad or missing {missing or 'id'}")
        if row["id"] in entries:
            raise RuleBaseError(f"{path}: duplicate id {row['id']!r}")
        entry = Entry(stem, row["id"], row["name"], row["source"], MappingProxyType(dict(row)))
        entries[entry.id] = entry
        for name in [row["name"], *row.get("aliases", [])]:
            index.setdefault(normalize(name), entry.id)
    return entries, index


def split_param(text: str) -> tuple[str, str | None]:
    """``'Surprise Attack (-3)'`` -> ``('Surprise Attack', '-3')``."""
    head, sep, tail = text.partition("(")
    return (head.strip(), tail.rstrip(") ").strip()) if sep else (text, None)


def atom_text(text: str) -> str:
    """A catalogue spelling as an ASCII ASP-friendly id: ``'E/M'`` -> ``'e_m'``,
    ``'Grâce'`` -> ``'grace'``."""
    plain = unicodedata.normalize("NFKD", text.casefold()).encode("ascii", "ignore").decode()
    return "".join(c if c.isalnum() else "_" for c in plain).strip("_")
