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
        from . import analysis, notation

        if notation.is_sequence(text):
            return self._judge_sequence(command, text, file, fmt, legal_only=legal_only, strict=strict,
                                        with_odds=with_odds)
        analysed = analysis.analyse(text, file, only=command)
        return self._judged(analysed, command, fmt, legal_only=legal_only, strict=strict, with_odds=with_odds)

    def _judge_sequence(self, command: str, text: str, file: str, fmt: str, *, legal_only: bool,
                        strict: bool, with_odds: bool) -> Output:
        """A sequence of Orders (docs/turn.md): ``check`` judges each Order, the other
        commands its last Order."""
        from . import sequence_report

        if command == "check":
            report = sequence_report.sequence_report(text, file)
            failed = not report.legal or (strict and report.not_modelled)
            return Output.of(fmt, report.to_dict, lambda: sequence_report.sequence_text(report), failed)
        analysed = sequence_report.last_order(text, file, command)
        return self._judged(analysed, command, fmt, legal_only=legal_only, strict=strict, with_odds=with_odds)

    def _judged(self, analysed, command: str, fmt: str, *, legal_only: bool, strict: bool,
                with_odds: bool) -> Output:
        from . import render

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

    def state(self, text: str, file: str, after: int, fmt: str) -> Output:
        """``ruling state FILE --after N``: the position after Order N of a sequence."""
        from . import state_writer

        written, _ = state_writer.state_text(text, file, after)
        return Output.of(fmt, lambda: {"after": after, "position": written}, lambda: written, False)

    def odds(self, text: str, file: str, fmt: str) -> Output:
        from . import notation, odds, odds_render

        if notation.is_sequence(text):
            from . import sequence_report
            from .analysis import prepare_position

            position = sequence_report.last_position(text, file)
            priced = odds.odds(position.text, file, prepare_position(position))
            return Output.of(fmt, lambda: odds_render.odds_dict(priced), lambda: odds_render.odds_text(priced),
                             bool(priced.conflicts or priced.breaches))
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
