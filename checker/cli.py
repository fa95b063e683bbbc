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

from . import __version__, games
from .engine.errors import RulingError
from .engine.game import FORMATS, Output
from .engine.json_text import to_json

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
    "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
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
    _judge("aros", file, fmt, legal_only=legal_only, strict=strict, with_odds=with_odds)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
@strict_option
def check(file: str, fmt: str, strict: bool) -> None:
    """Verdict on the declared Order and AROs (exit 1 if anything is illegal)."""
    _judge("check", file, fmt, strict=strict)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
@legal_only_option
@strict_option
def declarations(file: str, fmt: str, legal_only: bool, strict: bool) -> None:
    """Every skill, weapon and target the activated trooper may declare, slot by slot."""
    _judge("declarations", file, fmt, legal_only=legal_only, strict=strict)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@format_option
def odds(file: str, fmt: str) -> None:
    """Exact odds of the declared Order and of each reactive trooper's legal AROs, best first."""
    text = _guard(lambda: _read(file), fmt)
    output = _guard(lambda: games.for_text(text, file).odds(text, file, fmt), fmt)
    _finish(output)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@click.option("--after", type=click.IntRange(min=1), required=True,
              help="The Order of the sequence after which the position is written.")
@format_option
def state(file: str, after: int, fmt: str) -> None:
    """The position a sequence of Orders leaves after its Order N, in the notation."""
    text = _guard(lambda: _read(file), fmt)
    game = _guard(lambda: games.for_text(text, file), fmt)
    if not hasattr(game, "state"):
        _fail(RulingError(f"{game.title} has no sequences of Orders"), fmt)
    _finish(_guard(lambda: game.state(text, file, after, fmt), fmt))


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option
@click.option("-v", "--verbose", is_flag=True, help="Print every case, not only failures.")
def verify(paths: tuple[str, ...], fmt: str, verbose: bool) -> None:
    """Run case files (or folders of them); exit 1 if any case fails."""
    import time

    from .engine import cases

    # On a terminal, a progress line on stderr, rewritten in place and erased at the end.
    progress = fmt == "text" and sys.stdout.isatty() and sys.stderr.isatty()
    results: list[cases.CaseResult] = []
    try:
        found = games.collect_cases([Path(p) for p in paths])
        start = shown = time.monotonic()
        for result in games.run_cases(found):
            results.append(result)
            now = time.monotonic()
            if progress and (now - shown >= 0.1 or len(results) == len(found)):
                shown = now
                failures = sum(not r.passed for r in results)
                line = cases.progress_line(len(results), len(found), failures, now - start)
                click.echo(f"\r{line}\033[K", err=True, nl=False)
    except RulingError as exc:
        _fail(exc, fmt)
    if progress:
        click.echo("\r\033[K", err=True, nl=False)
    failed = [r for r in results if not r.passed]
    if fmt == "json":
        click.echo(to_json({
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
@format_option
def facts(file: str, fmt: str) -> None:
    """Print the position as clingo facts, to reproduce a run with the clingo command
    (JSON: the rule set's entry file and the facts, one string each)."""
    text = _guard(lambda: _read(file), fmt)
    rule_set, symbols = _guard(lambda: games.for_text(text, file).facts(text, file), fmt)
    from .engine import solver

    entry = solver.entry_file(rule_set)
    if fmt == "json":
        click.echo(to_json({"rule_set": rule_set, "entry": str(entry), "facts": [f"{s}." for s in symbols]}))
    else:
        click.echo(f"% python -m clingo {entry} <this file>")
        click.echo(solver.program_text(symbols), nl=False)
    sys.exit(EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@position_argument
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False), required=True,
              help="The picture file: SVG, or PNG when it ends in .png.")
@click.option("--zoc", is_flag=True, help="Draw each trooper's Zone of Control.")
def draw(file: str, out: str, zoc: bool) -> None:
    """Draw the position's table: bases to scale with ids and front arcs, scenery, Lines
    of Fire coloured by what was measured, templates (docs/table.md)."""
    text = _guard(lambda: _read(file), "text")
    picture = _guard(lambda: games.for_text(text, file).picture(text, file, zoc=zoc), "text")
    if picture is None:
        _fail(RulingError(f"{file}: the position places no trooper ('at ID X Y'): nothing to draw"), "text")
    try:
        if out.lower().endswith(".png"):
            import cairosvg  # optional: only a PNG needs it

            cairosvg.svg2png(bytestring=picture.encode("utf-8"), write_to=out)
        else:
            Path(out).write_text(picture, encoding="utf-8")
    except ImportError:
        _fail(RulingError("a PNG needs the cairosvg package (pip install cairosvg); write an .svg instead"), "text")
    except OSError as exc:
        _fail(RulingError(f"{out}: cannot write: {exc}"), "text")
    click.echo(f"wrote {out}")
    sys.exit(EXIT_OK)


@main.command(epilog=EXIT_CODES_HELP)
@click.argument("rule_ids", metavar="[ID]...", nargs=-1)
@click.option("--edition", type=click.Choice(games.rule_sets()),
              help="Only this rule set's rules: an Infinity edition or another game (default: every one).")
@format_option
def rules(rule_ids: tuple[str, ...], edition: str | None, fmt: str) -> None:
    """Each rule's edition, source and text, the file:line citing it and every file:line using it.

    With no ID, every rule of the edition(s), one line each. An unknown ID is exit 2.
    """
    from .engine import rulebook  # only this command reads the rule base's text

    found = _guard(lambda: rulebook.select(rule_ids, (edition,) if edition else games.rule_sets()), fmt)
    if fmt == "json":
        click.echo(to_json({"rules": [r.to_dict() for r in found]}))
    elif rule_ids:
        click.echo("\n".join(r.describe() for r in found))
    else:
        click.echo("\n".join(r.line() for r in found))
    sys.exit(EXIT_OK)


@main.command(name="catalogue", epilog=EXIT_CODES_HELP)
@click.argument("kind", required=False)
@click.argument("name", required=False)
@click.option("--edition", type=click.Choice(games.catalogues()), default="n5", show_default=True,
              help="The catalogue to list: an Infinity edition's, or another game's.")
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
    _finish(_guard(lambda: games.catalogue_game(edition).catalogue(edition, kind, name, fmt), fmt))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (127.0.0.1: this machine only).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free port).")
def serve(host: str, port: int) -> None:
    """A local web page and JSON API judging a position (the 'web' extra: pip install 'ruling[web]').

    The page offers the bundled examples of every game; the API answers what --format json
    prints (docs/web.md). Ctrl-C stops it.
    """
    try:
        from .web import serving
    except ImportError as exc:
        click.echo(f"error: ruling serve needs the web extra ({exc.name} is missing): pip install 'ruling[web]'",
                   err=True)
        sys.exit(EXIT_BAD_INPUT)
    serving.run(host, port, lambda address: click.echo(f"ruling: judging positions at {address} (Ctrl-C stops)"))
    sys.exit(EXIT_OK)


def _judge(command: str, file: str, fmt: str, **flags: bool) -> None:
    """``command``'s verdict on the position in ``file``, from the game it is written for; exits."""
    text = _guard(lambda: _read(file), fmt)
    _finish(_guard(lambda: games.for_text(text, file).judge(command, text, file, fmt, **flags), fmt))


def _finish(output: Output) -> None:
    click.echo(output.body, nl=False)
    sys.exit(EXIT_ILLEGAL if output.failed else EXIT_OK)


def _read(file: str) -> str:
    """The file's text (``engine.text.decode``, for every game: a byte order mark set aside,
    every line end a newline); bytes that are not UTF-8 are a NotationError at their line and column."""
    from .engine.text import decode

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
        click.echo(to_json({"error": exc.to_dict()}))
    click.echo(str(exc), err=True)
    sys.exit(EXIT_BAD_INPUT)
