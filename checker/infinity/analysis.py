"""The library's entry points: position text in, verdict objects out.

No printing, no exiting: the CLI and the case runner call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import catalogue, solver
from ..engine.errors import Location, PositionTimeout, SolveTimeout
from . import facts, notation, report, resolve
from .game import Game
from .position import Position
from .resolution import unused_dice_error


@dataclass(frozen=True)
class Analysis:
    """Everything one run derives from a position."""

    game: Game
    atoms: solver.Atoms
    catalogue: catalogue.Catalogue
    only: str | None = None  # the one report the atoms were read for (``analyse``)

    def aros(self) -> report.AroReport:
        self._for("aros")
        return report.aro_report(self.game, self.atoms, self.catalogue)

    def check(self) -> report.CheckReport:
        self._for("check")
        return report.check_report(self.game, self.atoms, self.catalogue)

    def declarations(self) -> report.DeclarationsReport:
        self._for("declarations")
        return report.declarations_report(self.game, self.atoms, self.catalogue)

    def _for(self, name: str) -> None:
        if self.only not in (None, name):
            raise ValueError(f"the atoms were read for the {self.only} report only, not for {name}")


# What each report asks the rule base to list (checker/infinity/facts.py): ``check`` judges only
# what is declared; ``aros`` lists no option of the activated trooper, ``declarations``
# none of the reacting troopers.
ONLY_FACTS = {"check": facts.DECLARED_ONLY, "aros": facts.NO_DECLARATION_LISTS,
              "declarations": facts.NO_ARO_LISTS}


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


def prepare_position(position: Position) -> Prepared:
    """``prepare`` for a position already read (an Order of a sequence, set on what the
    Orders before it left: checker/infinity/sequence.py)."""
    return Prepared(position, *_build(position))


def _build(position: Position) -> tuple[Game, catalogue.Catalogue, list]:
    game = resolve.resolve(position)
    cat = catalogue.load(game.edition)
    return game, cat, facts.build(game, cat)


def analyse(text: str, file: str = "<position>", prepared: Prepared | None = None,
            only: str | None = None) -> Analysis:
    """Run a position through the whole pipeline (from ``prepared`` when the caller has
    already read it with ``prepare``). With ``only`` (``aros``, ``check`` or
    ``declarations``), the atoms that report never reads may be left unread (a large
    position has hundreds of thousands), ``check`` grounds no lists of options, and the
    Analysis gives that report only.

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
    if only is not None:
        # Each report reads one list of options at most: the rule base grounds no other
        # (tests/test_report_inputs.py: every case's report is the same).
        symbols = [*symbols, ONLY_FACTS[only]]
    try:
        atoms = solver.solve(game.edition, symbols, unread=report.UNREAD[only] if only else None)
    except SolveTimeout as exc:
        first = text.split("\n", 1)[0]
        raise PositionTimeout(f"{exc}", Location(file, 1, 1, first)) from None
    error = unused_dice_error(position, game, atoms, cat)
    if error:
        raise error
    return Analysis(game, atoms, cat, only)
