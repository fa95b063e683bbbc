"""The ``ruling`` command. The only module that knows click.

Exit codes:
  0  legal, or all cases passed
  1  illegal, a conflict was found, the position breaks the rules, a case failed, or
     (--strict) something in play is not fully modelled
  2  bad input: a notation or position error, a number out of range, unused dice, an
     unreadable file, a malformed case, a solver time-out
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import __version__, urban_war
from .engine import solver
from .engine.catalogue import load as load_catalogue
from .engine.errors import RulingError
from .engine.resources import editions
from .infinity import analysis, render

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2

EXIT_CODES_HELP = f"""
\b
Exit codes:
  {EXIT_OK}  legal / all cases passed
  {EXIT_ILLEGAL}  illegal, conflict found, position breaks the rules, or a case failed;
     with --strict, also anything in play listed under 'Not modelled'
  {EXIT_BAD_INPUT}  bad input (notation error, unknown name, number out of range, unused
     dice, unreadable file, malformed case, time-out)
"""

format_option = click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="Output for a person (text) or a program (json).",
)
position_argument = click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
legal_only_option = click.option(
    "--legal-only", is_flag=True, help="List only what is legal, not the denied options."
)
strict_option = click.option(
    "--strict", is_flag=True,
    help=f"Exit {EXIT_ILLEGAL} when anything in play (a special skill, state, weapon, ammunition, trait...) "
         "is listed under 'Not modelled': the rule base does not fully encode it.",
)


class _Command(click.Group):
    """The ``ruling`` group, leaving the process at once when run as a program.

    A run on a large position leaves hundreds of megabytes of objects, Python's and
    clingo's; freeing them one by one as the interpreter shuts down took a third of
    a second to over half a second at 2,000 troopers a side, after the output was
    complete. Called as a program (``ruling``, ``python -m checker``: ``__call__``),
    the process flushes its output and ends without that; ``main`` (click's test
    runner, a program embedding the command) returns or raises as before.
    """

    def __call__(self, *args, **kwargs):
        try:
            return super().__call__(*args, **kwargs)
        except SystemExit as exc:
            code = 0 if exc.code is None else exc.code
            if not isinstance(code, int):
                raise  # a message to print: the interpreter prints it
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                raise exc from None  # a closed pipe: reported as the interpreter reports it
            os._exit(code)


@click.group(cls=_Command, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="ruling")
def main() -> None:
    """ruling: which AROs and orders the Infinity rules allow, each verdict cited."""


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
@legal_only_option
@strict_option
@click.option("--odds", "with_odds", is_flag=True,
              help="Add to each legal ARO its exact chances (active down, reactor down, nothing), as 'ruling odds'.")
def aros(file: str, fmt: str, legal_only: bool, strict: bool, with_odds: bool) -> None:
    """Each enemy trooper's legal AROs, and the rule denying every other option."""
    analysed = _run(file, fmt, "aros", legal_only=legal_only, strict=strict, with_odds=with_odds)
    result = analysed.aros()
    if with_odds:
        from .infinity import odds as odds_module
        from .infinity import odds_render

        priced = _guard(lambda: odds_module.game_odds(analysed.game, analysed.catalogue), fmt)
        _emit_data(odds_render.aros_odds_dict(result, priced), fmt,
                   lambda _data: render.aros_text(result, show_denied=not legal_only, odds=priced))
    else:
        _emit(result, fmt, lambda r: render.aros_text(r, show_denied=not legal_only))
    failed = result.conflicts or result.breaches or (strict and result.not_modelled)
    sys.exit(EXIT_ILLEGAL if failed else EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
@strict_option
def check(file: str, fmt: str, strict: bool) -> None:
    """Verdict on the declared Order and AROs (exit 1 if anything is illegal)."""
    result = _run(file, fmt, "check", strict=strict).check()
    _emit(result, fmt, render.check_text)
    failed = not result.legal or result.conflicts or (strict and result.not_modelled)
    sys.exit(EXIT_ILLEGAL if failed else EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
@legal_only_option
@strict_option
def declarations(file: str, fmt: str, legal_only: bool, strict: bool) -> None:
    """Every skill, weapon and target the activated trooper may declare, slot by slot."""
    result = _run(file, fmt, "declarations", legal_only=legal_only, strict=strict).declarations()
    _emit(result, fmt, lambda r: render.declarations_text(r, show_denied=not legal_only))
    failed = result.conflicts or result.breaches or (strict and result.not_modelled)
    sys.exit(EXIT_ILLEGAL if failed else EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
def odds(file: str, fmt: str) -> None:
    """Exact odds of the declared Order and of each reactive trooper's legal AROs, best first."""
    from .infinity import odds as odds_module
    from .infinity import odds_render

    result = _guard(lambda: odds_module.odds(_read(file), file), fmt)
    _emit_data(odds_render.odds_dict(result), fmt, lambda _data: odds_render.odds_text(result))
    sys.exit(EXIT_ILLEGAL if result.conflicts or result.breaches else EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option
@click.option("-v", "--verbose", is_flag=True, help="Print every case, not only failures.")
def verify(paths: tuple[str, ...], fmt: str, verbose: bool) -> None:
    """Run case files (or folders of them); exit 1 if any case fails."""
    import time

    from .infinity import batch, cases
    from .urban_war import cases as urban_war_cases

    # On a terminal, a progress line on stderr, rewritten in place and erased at the end.
    progress = fmt == "text" and sys.stdout.isatty() and sys.stderr.isatty()
    results: list[cases.CaseResult | urban_war_cases.CaseResult] = []
    try:
        other_game = urban_war_cases.collect([Path(p) for p in paths])
        found = cases.collect([Path(p) for p in paths if not urban_war_cases.only_urban_war(Path(p))])
        start = shown = time.monotonic()
        for result in batch.run(found):
            results.append(result)
            now = time.monotonic()
            if progress and (now - shown >= 0.1 or len(results) == len(found)):
                shown = now
                failures = sum(not r.passed for r in results)
                line = batch.progress_line(len(results), len(found), failures, now - start)
                click.echo(f"\r{line}\033[K", err=True, nl=False)
        results += [urban_war_cases.run(case) for case in other_game]
    except RulingError as exc:
        _fail(exc, fmt)
    if progress:
        click.echo("\r\033[K", err=True, nl=False)
    failed = [r for r in results if not r.passed]
    if fmt == "json":
        click.echo(render.to_json({
            "passed": len(results) - len(failed),
            "failed": len(failed),
            "cases": [r.to_dict() for r in results],
        }))
    else:
        for r in results:
            if verbose or not r.passed:
                click.echo(r.describe())
        click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(EXIT_ILLEGAL if failed else EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
def facts(file: str) -> None:
    """Print the position as clingo facts, to reproduce a run with the clingo command."""
    text = _guard(lambda: _read(file), "text")
    if urban_war.declares_game(text):
        from .urban_war import facts as uw_facts
        from .urban_war import notation as uw_notation

        _, uw_symbols = _guard(lambda: uw_facts.build(uw_notation.parse(text, file)), "text")
        click.echo(f"% python -m clingo {solver.entry_file(urban_war.ENTRY)} <this file>")
        click.echo(solver.program_text(uw_symbols), nl=False)
        sys.exit(EXIT_OK)
    game, _, symbols = _guard(lambda: analysis.load(text, file), "text")
    click.echo(f"% python -m clingo {solver.entry_file(game.edition)} <this file>")
    click.echo(solver.program_text(symbols), nl=False)


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("rule_ids", metavar="[ID]...", nargs=-1)
@click.option("--edition", type=click.Choice(editions()), help="Only this edition's rules (default: every edition).")
@format_option
def rules(rule_ids: tuple[str, ...], edition: str | None, fmt: str) -> None:
    """Each rule's edition, source and text, the file:line citing it and every file:line using it.

    With no ID, every rule of the edition(s), one line each. An unknown ID is exit 2.
    """
    from .engine import rulebook  # only this command reads the rule base's text

    found = _guard(lambda: rulebook.select(rule_ids, (edition,) if edition else editions()), fmt)
    if fmt == "json":
        click.echo(render.to_json({"rules": [r.to_dict() for r in found]}))
    elif rule_ids:
        click.echo("\n".join(r.describe() for r in found))
    else:
        click.echo("\n".join(r.line() for r in found))
    sys.exit(EXIT_OK)


@main.command(name="catalogue", epilog=EXIT_CODES_HELP)
@click.argument("kind", required=False)
@click.argument("name", required=False)
@click.option("--edition", type=click.Choice(editions()), default="n5", show_default=True,
              help="The edition whose catalogue to list.")
@format_option
def catalogue_command(kind: str | None, name: str | None, edition: str, fmt: str) -> None:
    """The catalogue: profiles, weapons, skills, special skills, states, characteristics,
    ammunition and traits, each with its values, source and modelled status.

    \b
    With no KIND, every kind with its number of entries per status.
    With a KIND (e.g. skills, special_skills, weapons), every entry of it and its status.
    With a KIND and a NAME (e.g. weapons "Combi Rifle"), that entry with all its values.
    An unknown KIND or NAME is exit 2.
    """
    from .infinity import modelled  # only this command lists the catalogue

    listing = _guard(lambda: modelled.catalogue_listing(load_catalogue(edition), kind, name), fmt)
    _emit_data(listing, fmt, render.catalogue_text)
    sys.exit(EXIT_OK)


def _emit_data(data: dict, fmt: str, as_text) -> None:
    """Plain data on stdout, as JSON or as the text ``as_text`` makes of it."""
    click.echo(render.to_json(data) if fmt == "json" else as_text(data), nl=fmt == "json")


def _emit(result, fmt: str, as_text) -> None:
    """A report on stdout, as JSON or as the text ``as_text`` makes of it."""
    if fmt == "json":
        click.echo(render.to_json(result.to_dict()))
    else:
        click.echo(as_text(result), nl=False)


def _run(file: str, fmt: str, command: str, **flags: bool) -> analysis.Analysis:
    text = _guard(lambda: _read(file), fmt)
    if urban_war.declares_game(text):
        _urban_war(command, text, file, fmt, **flags)
    return _guard(lambda: analysis.analyse(text, file, only=command), fmt)


def _urban_war(command: str, text: str, file: str, fmt: str, legal_only: bool = False, strict: bool = False,
               with_odds: bool = False) -> None:
    """aros, declarations and check on an Urban War position (checker/urban_war/); exits."""
    from .urban_war import analysis as uw_analysis
    from .urban_war import render as uw_render

    if with_odds:
        _fail(RulingError("--odds does not cover Urban War: the success values of its d10 tests are not "
                          "in the rule base"), fmt)
    analysed = _guard(lambda: uw_analysis.analyse(text, file), fmt)
    if command == "check":
        checked = analysed.check()
        _emit(checked, fmt, uw_render.check_text)
        sys.exit(EXIT_ILLEGAL if not checked.legal or (strict and checked.not_modelled) else EXIT_OK)
    if command == "aros":
        reactions = analysed.reactions()
        _emit(reactions, fmt, lambda r: uw_render.reactions_text(r, show_denied=not legal_only))
        sys.exit(EXIT_ILLEGAL if strict and reactions.not_modelled else EXIT_OK)
    declared = analysed.declarations()
    _emit(declared, fmt, lambda r: uw_render.declarations_text(r, show_denied=not legal_only))
    sys.exit(EXIT_ILLEGAL if strict and declared.not_modelled else EXIT_OK)


def _read(file: str) -> str:
    """The file's text; bytes that are not UTF-8 are a NotationError at their line and column."""
    from .infinity.notation import decode

    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        raise RulingError(f"{file}: cannot read: {exc}") from None
    return decode(data, file)


def _guard(work, fmt: str):
    try:
        return work()
    except RulingError as exc:
        _fail(exc, fmt)


def _fail(exc: RulingError, fmt: str):
    if fmt == "json":
        click.echo(render.to_json({"error": exc.to_dict()}))
    click.echo(str(exc), err=True)
    sys.exit(EXIT_BAD_INPUT)
