"""Urban War as a game of the engine: the commands' verdicts, facts, cases and coverage,
through ``checker/engine/game.py``'s interface.

Defines: :data:`GAME`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.errors import RulingError
from ..engine.game import Output
from . import ENTRY
from . import GAME as GAME_NAME

if TYPE_CHECKING:
    import clingo

    from ..engine.cases import Case, CaseResult


class UrbanWar:
    """The Urban War plugin."""

    name = GAME_NAME
    coverage_page = "docs/urban-war/coverage.md"
    title = "Urban War"

    def rule_sets(self) -> tuple[str, ...]:
        return (ENTRY,)

    def catalogues(self) -> tuple[str, ...]:
        return ()  # its entries and their status: docs/urban-war/coverage.md

    def catalogue(self, name: str, kind: str | None, entry: str | None, fmt: str) -> Output:
        raise RulingError(f"ruling catalogue lists no Urban War catalogue: see {self.coverage_page}")

    def judge(self, command: str, text: str, file: str, fmt: str, *, legal_only: bool = False,
              strict: bool = False, with_odds: bool = False) -> Output:
        from . import analysis, render

        if with_odds:
            raise RulingError("--odds does not cover Urban War: the success values of its d10 tests are not "
                              "in the rule base")
        analysed = analysis.analyse(text, file)
        if command == "check":
            checked = analysed.check()
            failed = (not checked.legal or bool(checked.conflicts or checked.state_clashes)
                      or (strict and bool(checked.not_modelled)))
            return Output.of(fmt, checked.to_dict, lambda: render.check_text(checked), failed)
        if command == "aros":
            reactions = analysed.reactions()
            return Output.of(fmt, reactions.to_dict, lambda: render.reactions_text(reactions, show_denied=not legal_only),
                             bool(reactions.conflicts) or (strict and bool(reactions.not_modelled)))
        declared = analysed.declarations()
        return Output.of(fmt, declared.to_dict, lambda: render.declarations_text(declared, show_denied=not legal_only),
                         bool(declared.conflicts) or (strict and bool(declared.not_modelled)))

    def odds(self, text: str, file: str, fmt: str) -> Output:
        raise RulingError("ruling odds does not cover Urban War: the success values of its d10 tests are not "
                          "in the rule base")

    def facts(self, text: str, file: str) -> tuple[str, list[clingo.Symbol]]:
        from . import facts, notation

        _, symbols = facts.build(notation.parse(text, file))
        return ENTRY, symbols

    def picture(self, text: str, file: str, *, zoc: bool = False) -> str | None:
        return None  # Urban War's notation places no trooper on coordinates

    def load_case(self, path: Path, data: dict, text: str) -> Case:
        from . import cases

        return cases.load(path, data, text)

    def run_cases(self, cases: list[Case]) -> Iterator[CaseResult]:
        from . import cases as runner

        return (runner.run(case) for case in cases)

    def coverage(self) -> str:
        from .coverage import coverage_markdown

        return coverage_markdown()


GAME = UrbanWar()
