"""The building blocks of the case schema (``checker/infinity/case_schema.py``): what one value
of a case file must be (a scalar, a list, a table of known keys, a table per trooper or
subject), each able to list the places a parsed value does not fit and the rule ids it
names."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

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


NOT_PRICED = "n/a"  # a chance the odds leave out


@dataclass(frozen=True)
class Chance(Scalar):
    """An exact chance: a string ``"numerator/denominator"`` ("3/20", "0/1", "1/1"), at
    most 1, in any denominator (the reference counts over 20^6 keep theirs); with
    ``unpriced``, also ``"n/a"`` for a chance the odds leave out."""

    type: type = str
    what: str = 'an exact chance "numerator/denominator" ("3/20")'
    unpriced: bool = False

    def check(self, value, path):
        found = list(super().check(value, path))
        yield from found
        if found or (self.unpriced and value == NOT_PRICED):
            return
        shape = re.fullmatch(r"(\d+)/(\d+)", value)
        if not shape or int(shape[2]) == 0 or int(shape[1]) > int(shape[2]):
            alternatives = f' or "{NOT_PRICED}"' if self.unpriced else ""
            yield Problem(path, f"must be {self.what}{alternatives}, not {value!r}")


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


def _alternatives(items) -> str:
    shown = [repr(i) for i in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _shown(value: object) -> str:
    kinds = {str: "a string", bool: "a boolean", int: "a whole number", float: "a number",
             list: "a list", dict: "a table"}
    return f"{kinds.get(type(value), type(value).__name__)} ({value!r})"
