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


def _build(position: Position) -> tuple[Game, catalogue.Catalogue, list]:
    game = resolve.resolve(position)
    cat = catalogue.load(game.edition)
    return game, cat, facts.build(game, cat)


def analyse(text: str, file: str = "<position>") -> Analysis:
    """Run a position through the whole pipeline.

    Raises
    ------
    NotationError, PositionError
        For a position that does not parse, names something unknown, or writes dice
        no roll, saving roll or Guts Roll uses (and no verdict explains).
    RuleBaseError
        If the rule base fails (a defect of ruling, not of the position).
    """
    position = notation.parse(text, file)
    game, cat, symbols = _build(position)
    try:
        atoms = solver.solve(game.edition, symbols)
    except SolveTimeout as exc:
        first = text.split("\n", 1)[0]
        raise PositionTimeout(f"{exc}", Location(file, 1, 1, first)) from None
    error = unused_dice_error(position, game, atoms, cat)
    if error:
        raise error
    return Analysis(game, atoms, cat)
