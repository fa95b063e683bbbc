"""The case file format as data: the keys each command's ``[expect]`` accepts, which of
them are tables per trooper or per subject, and the type of every value.

``checker/cases.py`` documents the format for a reader; the loader checks every case
file against this schema, so a misspelt key or a value of the wrong type is a malformed
case, never an expectation silently left out. The schema also knows which strings name
rules, so the corpus can be asked which rules its expectations pin.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import (
    CaseFormatError,
    NotationError,
    PositionError,
    RuleBaseError,
    RulingError,
)
from .report import CONFLICT, DENIED, INVALID, LEGAL

KeyPath = tuple[str, ...]  # the keys leading to a value, outermost first


@dataclass(frozen=True)
class Problem:
    """One place where a case file does not fit the schema: a value that is not what
    ``message`` says, or (``unknown``) a key the table does not know."""

    path: KeyPath
    message: str = ""
    unknown: bool = False
    close: str = ""  # the closest known key
    hint: str = ""  # otherwise: where the key belongs, or the known keys


class Spec:
    """What one value must be."""

    what = "a value"

    def check(self, value: object, path: KeyPath) -> Iterator[Problem]:
        raise NotImplementedError

    def rules(self, value: object) -> Iterator[str]:
        """The rule ids this (already checked) value names."""
        return iter(())


@dataclass(frozen=True)
class Scalar(Spec):
    """A string, a whole number or a boolean, optionally one of a few values."""

    type: type
    what: str
    choices: tuple = ()
    blank: bool = True  # False: a string with some text

    def check(self, value, path):
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            yield Problem(path, f"must be {self.what}, not {_shown(value)}")
        elif self.choices and value not in self.choices:
            yield Problem(path, f"must be {_alternatives(self.choices)}, not {value!r}")
        elif not self.blank and not str(value).strip():
            yield Problem(path, f"must be {self.what}, not blank")


@dataclass(frozen=True)
class Rules(Scalar):
    """A string naming rules: a rule id, or at least ``least`` ids joined by ``sep``
    after ``skip`` leading parts that are not rules ("fus1 | permission | denial")."""

    type: type = str
    what: str = "a rule id"
    sep: str = ""
    skip: int = 0
    least: int = 1

    def check(self, value, path):
        yield from super().check(value, path)
        if isinstance(value, str) and self.sep and len(value.split(self.sep)) < self.skip + self.least:
            yield Problem(path, f"must be {self.what}, not {value!r}")

    def rules(self, value):
        parts = value.split(self.sep) if self.sep else [value]
        return iter(part.strip() for part in parts[self.skip:] if part.strip())


@dataclass(frozen=True)
class Pattern(Scalar):
    """A string of one shape: ``pattern``, a regular expression it matches whole."""

    type: type = str
    what: str = "a string"
    pattern: str = ""

    def check(self, value, path):
        found = list(super().check(value, path))
        yield from found
        if not found and not re.fullmatch(self.pattern, value):
            yield Problem(path, f"must be {self.what}, not {value!r}")


@dataclass(frozen=True)
class Index(Scalar):
    """A whole number counting from 1: the place of a die in its dice line."""

    type: type = int
    what: str = "a die's place, 1 or more"

    def check(self, value, path):
        found = list(super().check(value, path))
        yield from found
        if not found and value < 1:
            yield Problem(path, f"must be {self.what}, not {value!r}")


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    what: str = "a list of strings"

    def check(self, value, path):
        if not isinstance(value, list):
            yield Problem(path, f"must be {self.what}, not {_shown(value)}")
            return
        for n, item in enumerate(value):
            yield from self.item.check(item, (*path, f"[{n}]"))

    def rules(self, value):
        for item in value:
            yield from self.item.rules(item)


@dataclass(frozen=True)
class Each(Spec):
    """A table with one entry per trooper, subject, option...: any key (or one of
    ``keys``), each value of the same spec."""

    value: Spec
    per: str
    keys: tuple[str, ...] = ()
    key: Spec | None = None  # what the key itself is, when it names rules

    @property
    def what(self) -> str:  # type: ignore[override]
        return f"a table per {self.per}"

    def check(self, value, path):
        if not isinstance(value, dict):
            yield Problem(path, f"must be {self.what}, not {_shown(value)}")
            return
        for key, item in value.items():
            if self.keys and key not in self.keys:
                yield Problem((*path, key), f"is not a {self.per}: {_alternatives(self.keys)}")
                continue
            if self.key:
                yield from self.key.check(key, (*path, key))
            yield from self.value.check(item, (*path, key))

    def rules(self, value):
        for key, item in value.items():
            if self.key:
                yield from self.key.rules(key)
            yield from self.value.rules(item)


@dataclass(frozen=True)
class Table(Spec):
    """A table of known keys; any other key is refused, with the closest known one."""

    fields: dict[str, Spec]
    required: tuple[str, ...] = ()
    what: str = "a table"
    elsewhere: tuple[tuple[str, str], ...] = ()  # (key, where it belongs) for keys known elsewhere

    def check(self, value, path):
        if not isinstance(value, dict):
            yield Problem(path, f"must be {self.what}, not {_shown(value)}")
            return
        if not value and path:
            yield Problem(path, "is empty: a case must expect something")
        for key in self.required:
            if key not in value:
                yield Problem((*path, key), "is required")
        others = dict(self.elsewhere)
        for key, item in value.items():
            if key in self.fields:
                yield from self.fields[key].check(item, (*path, key))
            elif key in others:
                yield Problem((*path, key), unknown=True, hint=others[key])
            else:
                close = difflib.get_close_matches(key, self.fields, n=1, cutoff=0.6)
                yield Problem((*path, key), unknown=True, close="".join(close),
                              hint=f"known keys: {', '.join(sorted(self.fields))}")

    def rules(self, value):
        for key, item in value.items():
            yield from self.fields[key].rules(item)


STRING = Scalar(str, "a string")
WHOLE = Scalar(int, "a whole number")
STRINGS = ListOf(STRING)
RULE = Rules()
RULES = ListOf(RULE, "a list of rule ids")
COMMANDS = ("aros", "check", "declarations", "error")
SLOTS = ("first", "second")
ERROR_KINDS = tuple(c.kind for c in (NotationError, PositionError, CaseFormatError, RuleBaseError, RulingError))
DIE_RESULTS = (*(r + c for r in ("success", "critical", "fail") for c in ("", " cancelled")), "pending")
# A fact the position lacks, as "missing id...": the kinds checker/resolution.py's
# Pending names ("distance fus alg", "burst_share fus 1 alg", "attribute alg arm",
# "ammunition fus panzerfaust"); an option's, after its key ("dodge: distance fus1 hellcat").
PENDING_KINDS = ("distance", "burst_share", "attribute", "ammunition")
_PENDING = rf"(?:{'|'.join(PENDING_KINDS)})(?: [^ ]+)+"
PENDING_FACTS = ListOf(
    Pattern(what='a string "missing id..." ("distance fus alg")', pattern=_PENDING),
    'a list of strings "missing id..."')
OPTION_PENDING = ListOf(
    Pattern(what='a string "option: missing id..." ("bs_attack/combi_rifle: distance fus1 hellcat")',
            pattern=rf"[^ ]+: {_PENDING}"),
    'a list of strings "option: missing id..."')

# Conflicts read "subject | permission | denial" (or "| rule" for a breach of the position).
CONFLICT_KEY = Rules(what='a string "subject | rule | rule"', sep=" | ", skip=1)
CONFLICT_KEYS = ListOf(CONFLICT_KEY, 'a list of strings "subject | rule | rule"')
COMMON: dict[str, Spec] = {
    "conflicts": CONFLICT_KEYS,
    "conflict_facts": Each(STRINGS, "conflict", key=CONFLICT_KEY),
    "breaches": Each(RULES, "subject"),
}
AROS: dict[str, Spec] = {
    "legal": Each(STRINGS, "trooper"),
    "invalid": Each(STRINGS, "trooper"),
    "triggers": Each(STRINGS, "trooper"),
    "declares_after": Each(Scalar(int, "a whole number", (0, 1, 2)), "trooper"),
    "may_delay": Each(Rules(what='a rule id, or "" for none'), "trooper"),
    "denied": Each(Each(RULES, "option"), "trooper"),
    "pending": Each(OPTION_PENDING, "trooper"),
    "revealed": STRINGS,
    **COMMON,
}
DECLARATIONS: dict[str, Spec] = {
    "legal": Each(STRINGS, "slot", SLOTS),
    "denied": Each(Each(RULES, "option"), "slot", SLOTS),
    "pending": Each(OPTION_PENDING, "slot", SLOTS),
    **COMMON,
}
RESOLUTION: dict[str, Spec] = {
    "sv": Each(WHOLE, "roll"),
    "mods": Each(RULES, "roll"),
    "hits": Each(WHOLE, "roll"),
    "hit_troopers": Each(Each(WHOLE, "trooper"), "roll"),
    "results": Each(ListOf(Scalar(str, "a die result", DIE_RESULTS), "a list of die results"), "roll"),
    "face_to_face": STRINGS,
    "saves": Each(ListOf(Scalar(str, "a save result", ("pass", "fail")), "a list of save results"), "trooper"),
    "wounds_lost": Each(WHOLE, "trooper"),
    "states": Each(STRINGS, "trooper"),
    "outcomes": Each(STRINGS, "subject"),
    "clashes": CONFLICT_KEYS,
    "rules": RULES,
    "pending": Each(PENDING_FACTS, "subject"),
    "unused": Each(ListOf(Index(), "a list of dice places"), "trooper"),
}
CHECK: dict[str, Spec] = {
    "legal": Scalar(bool, "true or false"),
    "status": Each(Scalar(str, "a status", (LEGAL, INVALID, DENIED, CONFLICT)), "subject"),
    "verdicts": Each(RULES, "subject"),
    "lifted": Each(ListOf(Rules(what='a string "permission > denial"', sep=" > ", least=2),
                             'a list of strings "permission > denial"'), "subject"),
    "resolution": Table(RESOLUTION),
    "revealed": STRINGS,
    **COMMON,
}
ERROR: dict[str, Spec] = {
    "kind": Scalar(str, "an error kind", ERROR_KINDS),
    "line": Scalar(int, "a line number"),
    "message": STRING,
}
EXPECT_FIELDS: dict[str, dict[str, Spec]] = {"aros": AROS, "check": CHECK, "declarations": DECLARATIONS, "error": ERROR}
EXPECT_KEYS = {key for fields in EXPECT_FIELDS.values() for key in fields}


def _expect(command: str) -> Table:
    others = tuple(
        (key, f"it is for {' and '.join(c for c, fields in EXPECT_FIELDS.items() if key in fields)} cases")
        for key in sorted(EXPECT_KEYS - set(EXPECT_FIELDS[command]))
    )
    required = ("kind",) if command == "error" else ()
    return Table(EXPECT_FIELDS[command], required, elsewhere=others)


EXPECT = {command: _expect(command) for command in COMMANDS}
TEXT = Scalar(str, "a string with some text", blank=False)
CASE = Table({
    "source": TEXT,  # where the rule is written: a case without one proves nothing
    "description": STRING,
    "command": Scalar(str, "a command", COMMANDS),
    "position": TEXT,
    "expect": Scalar(dict, "a table"),
}, required=("source", "position", "expect"),
   elsewhere=tuple((key, "expectations belong under [expect]") for key in sorted(EXPECT_KEYS)))


def problems(data: dict) -> list[Problem]:
    """Every place where a case file's parsed TOML does not fit the format."""
    found = list(CASE.check(data, ()))
    command = data.get("command", "aros")
    if command in EXPECT and isinstance(data.get("expect"), dict):
        found += EXPECT[command].check(data["expect"], ("expect",))
    return found


def rules_named(command: str, expect: dict) -> set[str]:
    """The rule ids a (well-formed) case's expectations name."""
    return set(EXPECT[command].rules(expect))


def _alternatives(items) -> str:
    shown = [repr(i) for i in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _shown(value: object) -> str:
    kinds = {str: "a string", bool: "a boolean", int: "a whole number", float: "a number",
             list: "a list", dict: "a table"}
    return f"{kinds.get(type(value), type(value).__name__)} ({value!r})"
