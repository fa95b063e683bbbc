"""The library's entry points: position text in, verdict objects out.

No printing, no exiting: the CLI and the case runner call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import catalogue, facts, notation, report, resolve, solver
from .game import Game


@dataclass(frozen=True)
class Analysis:
    """Everything one run derives from a position."""

    game: Game
    atoms: solver.Atoms
    catalogue: catalogue.Catalogue

    def aros(self) -> report.AroReport:
        return report.aro_report(self.game, self.atoms, self.catalogue)

    def check(self) -> report.CheckReport:
        return report.check_report(self.game, self.atoms)

    def declarations(self) -> report.DeclarationsReport:
        return report.declarations_report(self.game, self.atoms, self.catalogue)


def load(text: str, file: str = "<position>") -> tuple[Game, catalogue.Catalogue, list]:
    """Parse and resolve a position; return the game, its catalogue and its facts."""
    game = resolve.resolve(notation.parse(text, file))
    cat = catalogue.load(game.edition)
    return game, cat, facts.build(game, cat)


def analyse(text: str, file: str = "<position>") -> Analysis:
    """Run a position through the whole pipeline.

    Raises
    ------
    NotationError, PositionError
        For a position that does not parse or names something unknown.
    RuleBaseError
        If the rule base fails (a defect of ruling, not of the position).
    """
    game, cat, symbols = load(text, file)
    return Analysis(game, solver.solve(game.edition, symbols), cat)
