"""The calls the web server makes into the games: each answer is what the command prints
with ``--format json``, and each call runs alone (the rule bases, the grammar and the
catalogues stay loaded in the process between calls).

Defines: :data:`COMMANDS`, :data:`FILE`, :func:`judge`, :func:`picture`, :func:`rules`,
:func:`catalogue`, :func:`warm`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TypeVar

from .. import games
from ..engine.errors import RulingError
from ..engine.game import COMMANDS as JUDGED
from ..engine.game import Output
from .examples import bundled

# What the API answers: the commands that judge a position, and ``odds``.
COMMANDS = (*JUDGED, "odds")

# The name a position sent in a request is told by in its located errors.
FILE = "position"

_one_at_a_time = threading.Lock()  # the solver's caches are the process's
T = TypeVar("T")


def _alone(work: Callable[[], T]) -> T:
    with _one_at_a_time:
        return work()


def judge(command: str, text: str) -> Output:
    """``ruling COMMAND --format json`` on the position ``text``.

    Raises
    ------
    RulingError
        For bad input (located), a time-out, or a command the game does not offer.
    """
    if command not in COMMANDS:
        raise RulingError(f"unknown command {command!r}: the commands are {', '.join(COMMANDS)}")

    def run() -> Output:
        game = games.for_text(text, FILE)
        if command == "odds":
            return game.odds(text, FILE, "json")
        return game.judge(command, text, FILE, "json")

    return _alone(run)


def picture(text: str) -> str | None:
    """The position's picture (SVG), or None when its game draws none for it.

    Raises
    ------
    RulingError
        For bad input (located).
    """
    return _alone(lambda: games.for_text(text, FILE).picture(text, FILE))


def rules(rule_id: str, rule_set: str | None) -> dict:
    """``ruling rules ID [--edition SET] --format json``.

    Raises
    ------
    RulingError
        For an unknown rule set or rule id (with the closest known ids).
    """
    from ..engine import rulebook

    sets = games.rule_sets()
    if rule_set is not None and rule_set not in sets:
        raise RulingError(f"unknown rule set {rule_set!r}: the rule sets are {', '.join(sets)}")
    found = _alone(lambda: rulebook.select((rule_id,), (rule_set,) if rule_set else sets))
    return {"rules": [r.to_dict() for r in found]}


def catalogue(edition: str, kind: str | None = None, name: str | None = None) -> dict:
    """``ruling catalogue [KIND] [NAME] --edition EDITION --format json``.

    Raises
    ------
    RulingError
        For an unknown catalogue, kind or entry.
    """
    if edition not in games.catalogues():
        raise RulingError(f"unknown catalogue {edition!r}: the catalogues are {', '.join(games.catalogues())}")
    output = _alone(lambda: games.catalogue_game(edition).catalogue(edition, kind, name, "json"))
    return json.loads(output.body)


def warm() -> None:
    """Judge every bundled example with every command once, so that the first request
    finds the grammar, the catalogues and each rule base parsed (errors are the
    examples' own: a game without odds)."""
    from ..engine import solver

    for rule_set in games.rule_sets():
        solver.prepare(rule_set)
    for example in bundled():
        for command in COMMANDS:
            try:
                judge(command, example.text)
            except RulingError:
                pass
