"""Load the catalogue data (``checker/catalogue/<edition>/*.toml``) and look names up.

Matching ignores case, runs of spaces and a trailing level (``Sixth Sense L2``). Every
entry but a profile says what the rule base does with it (``modelled``: yes, partial or
no; ``missing``: what is not encoded), checked when the catalogue is loaded.
"""

from __future__ import annotations

import difflib
import hashlib
import marshal
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

from .errors import RuleBaseError, UnknownEntryError
from .resources import cache_dir, catalogue_dir, store_cache

# file stem -> the TOML array-of-tables key of its entries
KINDS = {
    "skills": "skill",
    "special_skills": "special_skill",
    "states": "state",
    "weapons": "weapon",
    "profiles": "profile",
    "characteristics": "characteristic",
    "ammunition": "ammunition",
    "traits": "trait",
    "troop_types": "troop_type",
    "fireteams": "fireteam",
    "turn": "rule",
}

# What the rule base does with an entry (its ``modelled`` key): YES, every effect its
# rule text gives is encoded; PARTIAL, some are (``missing`` names the others); NO, no
# rule reads it. Profiles have no status: their skills, weapons... have one each.
YES, PARTIAL, NO = "yes", "partial", "no"
STATUSES = (YES, PARTIAL, NO)
UNSTATUSED = frozenset({"profiles"})

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

    @property
    def modelled(self) -> str | None:
        """``yes``, ``partial`` or ``no``; None for a profile."""
        return self.data.get("modelled")

    @property
    def missing(self) -> str | None:
        """What the rule base does not encode (partial), or why nothing is (no)."""
        return self.data.get("missing")


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

    def lookup(self, kind: str, text: str) -> Entry:
        """The entry of ``kind`` named ``text`` as a position or weapon chart writes it:
        its name or an alias, its id, with a level (``Sixth Sense L2``) or a parameter
        (``Mimetism (-3)``, ``Disposable (2)``).

        Raises
        ------
        UnknownEntryError
            If no entry has that name, with the closest name as a hint.
        """
        entries = self.entries[kind]
        head = split_param(text)[0]
        for candidate in (text, head, split_level(head)[0]):
            entry = self.find(kind, candidate) or entries.get(candidate.strip())
            if entry is not None:
                return entry
        entry_id = trait_id(text) if kind == "traits" else atom_text(text)
        if entry_id in entries:
            return entries[entry_id]
        hint = self.suggest(kind, head)
        raise UnknownEntryError(
            f"no {KINDS[kind].replace('_', ' ')} named {text!r} in the {self.edition} catalogue"
            + (f"; did you mean {hint!r}?" if hint else f"; see 'ruling catalogue {kind} --edition {self.edition}'")
        )

    def ammunition_of(self, weapon: Entry) -> tuple[Entry, ...]:
        """The ammunition entries a weapon fires, in every mode, in chart order."""
        spelled = [*weapon.get("ammunition", []), *(a for m in weapon.get("modes", []) for a in m.get("ammunition", []))]
        ids = dict.fromkeys(atom_text(a) for a in spelled)
        return tuple(self.entries["ammunition"][i] for i in ids if i in self.entries["ammunition"])

    def traits_of(self, weapon: Entry) -> tuple[Entry, ...]:
        """The trait entries of a weapon, in every mode, in chart order."""
        spelled = [*weapon.get("traits", []), *(t for m in weapon.get("modes", []) for t in m.get("traits", []))]
        ids = dict.fromkeys(trait_id(t) for t in spelled)
        return tuple(self.entries["traits"][i] for i in ids if i in self.entries["traits"])


def kind_named(text: str) -> str:
    """The catalogue kind (file stem) ``text`` names: the stem, or the singular of its
    TOML tables, ignoring case, spaces and hyphens (``Special Skills``, ``weapon``).

    Raises
    ------
    UnknownEntryError
        For any other word, with the closest kind as a hint.
    """
    word = "_".join(text.replace("-", " ").split()).casefold()
    for stem, key in KINDS.items():
        if word in (stem, key):
            return stem
    close = difflib.get_close_matches(word, list(KINDS), n=1, cutoff=0.5)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise UnknownEntryError(f"unknown catalogue kind {text!r}; {hint}kinds: {', '.join(KINDS)}")


@cache
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
    tables = _tables(folder)
    for stem, key in KINDS.items():
        entries[stem], index[stem] = _entries(folder / f"{stem}.toml", stem, tables[stem].get(key, []))
    return Catalogue(
        edition,
        MappingProxyType({k: MappingProxyType(v) for k, v in entries.items()}),
        MappingProxyType({k: MappingProxyType(v) for k, v in index.items()}),
    )


_TABLES_VERSION = 3  # bump when what _tables keeps changes


def _tables(folder: Path) -> dict[str, dict]:
    """Each kind's parsed TOML file (``{}`` for a missing one), from the cache folder
    when a process parsed the same bytes before (marshal loads them in a fraction of
    tomllib's time), else parsed and written there.

    Raises
    ------
    RuleBaseError
        If a file is not valid TOML.
    """
    texts = {stem: (folder / f"{stem}.toml").read_bytes() if (folder / f"{stem}.toml").exists() else None
             for stem in KINDS}
    digest = hashlib.sha256(f"{_TABLES_VERSION} {folder.name}".encode())
    for stem, data in texts.items():
        digest.update(stem.encode() + b"\0" + (data if data is not None else b"\1") + b"\0")
    file = cache_dir() / f"catalogue-{folder.name}-{digest.hexdigest()[:32]}.marshal"
    try:
        found = marshal.loads(file.read_bytes())
        if isinstance(found, dict) and set(found) == set(KINDS):
            return found
    except (OSError, ValueError, EOFError, TypeError):
        pass
    tables: dict[str, dict] = {}
    for stem, data in texts.items():
        path = folder / f"{stem}.toml"
        try:
            tables[stem] = tomllib.loads(data.decode("utf-8")) if data is not None else {}
        except tomllib.TOMLDecodeError as exc:
            raise RuleBaseError(f"{path}: {exc}") from None
    try:
        data = marshal.dumps(tables)
    except ValueError:
        return tables  # a value marshal cannot keep: no cache, the next process parses again
    store_cache(file, data, f"catalogue-{folder.name}-*.marshal")
    return tables


def _entries(path, stem: str, rows: list) -> tuple[dict[str, Entry], dict[str, str]]:
    entries: dict[str, Entry] = {}
    index: dict[str, str] = {}
    for row in rows:
        missing = [k for k in ("id", "name", "source") if k not in row]
        if missing or not _ID.match(str(row.get("id", ""))):
            raise RuleBaseError(f"{path}: entry {row.get('id', row)!r}: bad or missing {missing or 'id'}")
        if row["id"] in entries:
            raise RuleBaseError(f"{path}: duplicate id {row['id']!r}")
        if stem not in UNSTATUSED:
            _check_status(path, row)
        entry = Entry(stem, row["id"], row["name"], row["source"], MappingProxyType(dict(row)))
        entries[entry.id] = entry
        for name in [row["name"], *row.get("aliases", [])]:
            index.setdefault(normalize(name), entry.id)
    return entries, index


def _check_status(path, row: dict) -> None:
    """``modelled`` is one of STATUSES; ``missing`` says what is not encoded when it is
    partial, and is absent when it is yes."""
    status, missing = row.get("modelled"), row.get("missing")
    where = f"{path}: entry {row['id']!r}"
    if status not in STATUSES:
        raise RuleBaseError(f"{where}: 'modelled' must be one of {', '.join(STATUSES)}, not {status!r}")
    if status == PARTIAL and not (isinstance(missing, str) and missing.strip()):
        raise RuleBaseError(f"{where}: modelled = \"partial\" needs 'missing': what the rule base does not encode")
    if status == YES and missing is not None:
        raise RuleBaseError(f"{where}: modelled = \"yes\" takes no 'missing'")


def split_param(text: str) -> tuple[str, str | None]:
    """``'Surprise Attack (-3)'`` -> ``('Surprise Attack', '-3')``."""
    head, sep, tail = text.partition("(")
    return (head.strip(), tail.rstrip(") ").strip()) if sep else (text, None)


def trait_id(text: str) -> str:
    """A trait as written in a weapon chart, as the id ``checker/infinity/facts.py`` gives it:
    ``'Disposable (2)'`` -> ``'disposable'``, ``'State: IMM-A'`` -> ``'state__imm_a'``."""
    return atom_text(text.split("(")[0])


def atom_text(text: str) -> str:
    """A catalogue spelling as an ASCII ASP-friendly id: ``'E/M'`` -> ``'e_m'``,
    ``'Grâce'`` -> ``'grace'``."""
    plain = unicodedata.normalize("NFKD", text.casefold()).encode("ascii", "ignore").decode()
    return "".join(c if c.isalnum() else "_" for c in plain).strip("_")
