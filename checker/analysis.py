"""The library's entry points: position text in, verdict objects out.

No printing, no exiting: the CLI and the case runner call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import catalogue, facts, notation, report, resolve, solver
from .errors import Location, PositionTimeout, SolveTimeout
from .game import Game
from .position import Position
from .resolution import unused_dice_error


@dataclass(frozen=True)
class Analysis:
    """Everything one run derives from a position."""

    game: Game
    atoms: solver.Atoms
    catalogue: catalogue.Catalogue

    def aros(self) -> report.AroReport:
        return report.aro_report(self.game, self.atoms, self.catalogue)

    def check(self) -> report.CheckReport:
        return report.check_report(self.game, self.atoms, self.catalogue)

    def declarations(self) -> report.DeclarationsReport:
        return report.declarations_report(self.game, self.atoms, self.catalogue)


def load(text: str, file: str = "<position>") -> tuple[Game, catalogue.Catalogue, list]:
    """Parse and resolve a position; return the game, its catalogue and its facts."""
    return _build(notation.parse(text, file))


@dataclass(frozen=True)
class Prepared:
    """A position read, resolved and turned into facts, ready to solve (``prepare``)."""

    position: Position
    game: Game
    catalogue: catalogue.Catalogue
    facts: list


def prepare(text: str, file: str = "<position>") -> Prepared:
    """``load`` keeping the parsed position, so ``analyse`` need not read it again
    (batch verify reads each case's position once to ground it with others).

    Raises
    ------
    NotationError, PositionError
        As ``analyse``.
    """
    position = notation.parse(text, file)
    return Prepared(position, *_build(position))


def _build(position: Position) -> tuple[Game, catalogue.Catalogue, list]:
    game = resolve.resolve(position)
    cat = catalogue.load(game.edition)
    return game, cat, facts.build(game, cat)


def analyse(text: str, file: str = "<position>", prepared: Prepared | None = None) -> Analysis:
    """Run a position through the whole pipeline (from ``prepared`` when the caller has
    already read it with ``prepare``).

    Raises
    ------
    NotationError, PositionError
        For a position that does not parse, names something unknown, or writes dice
        no roll, saving roll or Guts Roll uses (and no verdict explains).
    RuleBaseError
        If the rule base fails (a defect of ruling, not of the position).
    """
    ready = prepared if prepared is not None else prepare(text, file)
    position, game, cat, symbols = ready.position, ready.game, ready.catalogue, ready.facts
    try:
        atoms = solver.solve(game.edition, symbols)
    except SolveTimeout as exc:
        first = text.split("\n", 1)[0]
        raise PositionTimeout(f"{exc}", Location(file, 1, 1, first)) from None
    error = unused_dice_error(position, game, atoms, cat)
    if error:
        raise error
    return Analysis(game, atoms, cat)
