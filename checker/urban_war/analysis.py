"""Analyse an Urban War position: parse, build the facts, solve with asp/urban_war.lp.

Inputs: a position text. Defines: :func:`analyse` and :class:`Analysis`, whose
``declarations``, ``reactions`` and ``check`` give the verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import solver
from ..engine.errors import Location, PositionError
from ..infinity.position import lines_of
from . import ENTRY, notation, report
from .answers import UnusedDie
from .facts import Game, build


@dataclass(frozen=True)
class Analysis:
    game: Game
    atoms: solver.Atoms

    def declarations(self) -> report.Declarations:
        return report.declarations(self.game, self.atoms)

    def reactions(self) -> report.Reactions:
        return report.reactions(self.game, self.atoms)

    def check(self) -> report.Check:
        return report.check(self.game, self.atoms)


def analyse(text: str, file: str = "<position>") -> Analysis:
    """Parse and solve an Urban War position.

    Raises
    ------
    NotationError, PositionError
        For a text that breaks the notation, names something unknown, or writes dice no
        roll uses (at the dice line).
    RuleBaseError
        If clingo fails on the rule base.
    """
    position = notation.parse(text, file)
    game, facts = build(position)
    atoms = solver.solve(ENTRY, facts)
    unused = sorted(atoms.of(UnusedDie), key=lambda u: (u.model, u.kind, u.index))
    if unused:
        model, kind, index = unused[0].model, unused[0].kind, unused[0].index
        dice = next(d for d in position.dice if d.model.text == model and d.kind == kind)
        line = lines_of(position.text)[dice.span.line - 1]
        raise PositionError(f"{kind} die {index} of {model} is used by no roll (a die per point of damage for "
                            "dodge, per wound received for cover and armour, and only with that special skill; damage dice "
                            "past those the hits give; command dice past the checks; morale dice with no check due)",
                            Location(file, dice.span.line, dice.span.column, line))
    return Analysis(game, atoms)
