"""Errors raised by the library; the CLI turns each into a message and exit code 2."""

from __future__ import annotations

from dataclasses import dataclass


class RulingError(Exception):
    """Base class of every error ruling reports to a user."""

    kind = "error"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "message": str(self)}


@dataclass(frozen=True)
class Location:
    """A place in a source text: 1-based line and column."""

    file: str
    line: int
    column: int
    source_line: str = ""

    def caret(self) -> str:
        """The source line with a caret under the column."""
        text = self.source_line.rstrip("\r\n").expandtabs(1)
        return f"    {text}\n    {' ' * (self.column - 1)}^"


class LocatedError(RulingError):
    """An error at a place in a position or case file."""

    def __init__(self, message: str, location: Location, expected: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.location = location
        self.expected = expected

    def __str__(self) -> str:
        loc = self.location
        text = f"{loc.file}:{loc.line}:{loc.column}: error: {self.message}"
        if loc.source_line:
            text += "\n" + loc.caret()
        if self.expected:
            text += "\n    expected " + _words(self.expected)
        return text

    def to_dict(self) -> dict:
        loc = self.location
        return {
            "kind": self.kind,
            "message": self.message,
            "file": loc.file,
            "line": loc.line,
            "column": loc.column,
            "expected": list(self.expected),
        }


class NotationError(LocatedError):
    """The position text does not follow the notation's grammar."""

    kind = "notation"


class PositionError(LocatedError):
    """The text parses but names something unknown (a trooper id, skill, weapon...)."""

    kind = "position"


class CaseFormatError(RulingError):
    """A case file is malformed."""

    kind = "case"


class RuleBaseError(RulingError):
    """clingo could not load, ground or solve the rule base."""

    kind = "rule-base"

    def __init__(self, message: str, messages: tuple[str, ...] = ()):
        super().__init__(message)
        self.messages = messages

    def __str__(self) -> str:
        text = super().__str__()
        return text + "".join("\n    " + m for m in self.messages)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "message": self.args[0], "messages": list(self.messages)}


class SolveTimeout(RuleBaseError):
    """Solving a position took longer than the time bound (``checker.engine.solver.SOLVE_SECONDS``)."""

    kind = "time-out"


class PositionTimeout(LocatedError):
    """A :class:`SolveTimeout`, told at the start of the position file it was solving."""

    kind = "time-out"


class UnknownEntryError(RulingError):
    """A catalogue kind or entry name that does not exist."""

    kind = "catalogue"


def _words(items: tuple[str, ...]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    items = tuple(dict.fromkeys(items))
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]
