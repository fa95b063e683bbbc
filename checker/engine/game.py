"""The interface a game plugs into the engine through: the commands ask it for verdicts,
facts and cases, and never name a game.

A game is a package beside ``checker/engine/`` (``checker/infinity/``,
``checker/urban_war/``) with a module ``plugin`` whose ``GAME`` meets :class:`Game`;
``checker/games.py`` lists them. Its rule base is one or more entry files
``asp/<rule set>.lp`` over ``asp/engine/``.

Defines: :class:`Game`, :class:`Output`, :func:`named_game`, :data:`COMMANDS`, :data:`FORMATS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .json_text import to_json

if TYPE_CHECKING:
    import clingo

    from .cases import Case, CaseResult

# A position's first statement ``game NAME`` (after blank lines and comments) names its
# game; a position without one is the default game's (``checker/games.py``).
_GAME_STATEMENT = re.compile(
    r"\A\ufeff?(?:[ \t\f]*(?:#[^\n\r]*)?(?:\r\n|\r|\n))*[ \t\f]*game[ \t\f]+([A-Za-z][A-Za-z0-9_-]*)(?=[ \t\f#\r\n]|\Z)")


def named_game(text: str) -> str | None:
    """The game a position's first statement names (``game urban-war``), or None."""
    found = _GAME_STATEMENT.match(text)
    return found.group(1) if found else None


# The commands a game judges a position by (``Game.judge``).
COMMANDS = ("aros", "declarations", "check")


# The forms a command prints its answer in (``--format``).
FORMATS = ("text", "json")


@dataclass(frozen=True)
class Output:
    """A command's answer as printed, in the form asked for (text for a person, JSON for a
    program), and whether the command fails (exit 1: something illegal, a conflict, a
    breach, or with ``--strict`` something in play not modelled)."""

    body: str
    failed: bool

    @classmethod
    def of(cls, fmt: str, data: Callable[[], dict], text: Callable[[], str], failed: bool) -> Output:
        """The answer printed in ``fmt``: the JSON of ``data()`` or the text ``text()``,
        each made only when asked for."""
        return cls(to_json(data()) + "\n" if fmt == "json" else text(), failed)


class Game(Protocol):
    """What the engine asks of a game."""

    name: str  # as a position names it in its first statement, e.g. ``urban-war``
    title: str  # as a person reads it, e.g. ``Urban War``
    coverage_page: str  # the page ``coverage`` writes, from the repository's root


    def rule_sets(self) -> tuple[str, ...]:
        """The rule base entry files ``asp/<name>.lp`` of this game (one per edition)."""
        ...

    def catalogues(self) -> tuple[str, ...]:
        """The catalogues ``ruling catalogue`` lists for this game (none: not listed)."""
        ...

    def catalogue(self, name: str, kind: str | None, entry: str | None, fmt: str) -> Output:
        """One of :meth:`catalogues`: its kinds, the entries of ``kind``, or one ``entry``.

        Raises
        ------
        UnknownEntryError
            For an unknown kind or entry.
        """
        ...

    def judge(self, command: str, text: str, file: str, fmt: str, *, legal_only: bool = False,
              strict: bool = False, with_odds: bool = False) -> Output:
        """The verdict of ``command`` (one of :data:`COMMANDS`) on the position.

        Raises
        ------
        RulingError
            For bad input (located), a time-out, or an option the game does not offer.
        """
        ...

    def odds(self, text: str, file: str, fmt: str) -> Output:
        """The exact odds of every option of the position (``ruling odds``).

        Raises
        ------
        RulingError
            For bad input, or a game whose rule base has no odds.
        """
        ...

    def facts(self, text: str, file: str) -> tuple[str, list[clingo.Symbol]]:
        """The rule set the position is judged by and the facts it gives the rule base."""
        ...

    def picture(self, text: str, file: str, *, zoc: bool = False) -> str | None:
        """The SVG text of the position's table (``ruling draw``; ``zoc``: with the Zones
        of Control), or None when the position has no coordinates.

        Raises
        ------
        RulingError
            For bad input (located).
        """
        ...

    def load_case(self, path: Path, data: dict, text: str) -> Case:
        """A case file of this game, checked against its format (``engine.cases.read``
        gives ``data`` and ``text``).

        Raises
        ------
        CaseFormatError
            For a key the format does not know, or one missing or of the wrong type.
        """
        ...

    def run_cases(self, cases: list[Case]) -> Iterator[CaseResult]:
        """Each case's result, in the order given (a game may solve them together)."""
        ...

    def coverage(self) -> str:
        """The text of the game's coverage page (Markdown): every catalogue entry and
        cited rule with its status."""
        ...
