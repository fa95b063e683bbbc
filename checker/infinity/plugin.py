"""Infinity (N5 and N3) as a game of the engine: the commands' verdicts, facts, cases and
coverage, through ``checker/engine/game.py``'s interface.

Defines: :data:`GAME`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.game import Output
from . import GAME_NAME, editions

if TYPE_CHECKING:
    import clingo

    from ..engine.cases import Case, CaseResult

class Infinity:
    """The Infinity plugin."""

    name = GAME_NAME
    coverage_page = "docs/coverage.md"
    title = "Infinity"

    def rule_sets(self) -> tuple[str, ...]:
        return editions()

    def catalogues(self) -> tuple[str, ...]:
        return editions()

    def catalogue(self, name: str, kind: str | None, entry: str | None, fmt: str) -> Output:
        from ..engine.catalogue import load
        from . import modelled, render

        listing = modelled.catalogue_listing(load(name), kind, entry)
        return Output.of(fmt, lambda: listing, lambda: render.catalogue_text(listing), False)

    def judge(self, command: str, text: str, file: str, fmt: str, *, legal_only: bool = False,
              strict: bool = False, with_odds: bool = False) -> Output:
        from . import analysis, render

        analysed = analysis.analyse(text, file, only=command)
        if command == "check":
            checked = analysed.check()
            failed = not checked.legal or bool(checked.conflicts) or (strict and bool(checked.not_modelled))
            return Output.of(fmt, checked.to_dict, lambda: render.check_text(checked), failed)
        if command == "declarations":
            declared = analysed.declarations()
            failed = bool(declared.conflicts or declared.breaches) or (strict and bool(declared.not_modelled))
            return Output.of(fmt, declared.to_dict,
                                lambda: render.declarations_text(declared, show_denied=not legal_only), failed)
        aros = analysed.aros()
        failed = bool(aros.conflicts or aros.breaches) or (strict and bool(aros.not_modelled))
        if not with_odds:
            return Output.of(fmt, aros.to_dict, lambda: render.aros_text(aros, show_denied=not legal_only), failed)
        from . import odds, odds_render

        priced = odds.game_odds(analysed.game, analysed.catalogue)
        return Output.of(fmt, lambda: odds_render.aros_odds_dict(aros, priced),
                            lambda: render.aros_text(aros, show_denied=not legal_only, odds=priced), failed)

    def odds(self, text: str, file: str, fmt: str) -> Output:
        from . import odds, odds_render

        priced = odds.odds(text, file)
        return Output.of(fmt, lambda: odds_render.odds_dict(priced), lambda: odds_render.odds_text(priced),
                         bool(priced.conflicts or priced.breaches))

    def facts(self, text: str, file: str) -> tuple[str, list[clingo.Symbol]]:
        from . import analysis

        game, _, symbols = analysis.load(text, file)
        return game.edition, symbols

    def picture(self, text: str, file: str, *, zoc: bool = False) -> str | None:
        from . import draw

        return draw.picture(text, file, zoc)

    def load_case(self, path: Path, data: dict, text: str) -> Case:
        from . import cases

        return cases.from_table(path, data, text)

    def run_cases(self, cases: list[Case]) -> Iterator[CaseResult]:
        from . import batch

        return batch.run(cases)

    def coverage(self) -> str:
        from . import coverage

        return coverage.build()


GAME = Infinity()
