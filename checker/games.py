"""The games ruling judges, and which one a position or a case is written for.

A position's first statement ``game NAME`` names its game (``engine.game.named_game``);
a position naming none is Infinity's (it opens with ``edition n5`` or ``edition n3``). A
third game is a package with a ``plugin`` module, added to ``GAMES``; no other file
names a game.

``python -m checker.games [--check]`` writes every game's coverage page (``--check``:
exit 1 if one is stale).

Defines: :data:`GAMES`, :func:`for_text`, :func:`named`, :func:`rule_sets`,
:func:`catalogues`, :func:`load_case`,
:func:`collect_cases`, :func:`run_cases`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from .engine import cases
from .engine.errors import CaseFormatError, Location, NotationError, RulingError
from .engine.game import Game, named_game
from .infinity.plugin import GAME as INFINITY
from .urban_war.plugin import GAME as URBAN_WAR

GAMES: tuple[Game, ...] = (INFINITY, URBAN_WAR)
DEFAULT = INFINITY  # the game of a position that names none


def named(name: str | None) -> Game:
    """The game called ``name``; the default game for None.

    Raises
    ------
    RulingError
        For a name no game has.
    """
    if name is None:
        return DEFAULT
    for game in GAMES:
        if game.name == name:
            return game
    raise RulingError(f"unknown game {name!r}: the games are {', '.join(g.name for g in GAMES)}")


def for_text(text: str, file: str = "<position>") -> Game:
    """The game a position text is written for.

    Raises
    ------
    RulingError
        For a ``game`` statement naming no known game (located at line 1).
    """
    try:
        return named(named_game(text))
    except RulingError as exc:
        first = text.split("\n", 1)[0]
        raise NotationError(str(exc), Location(file, 1, 1, first)) from None


def rule_sets() -> tuple[str, ...]:
    """Every rule set of every game (``asp/<name>.lp``), for ``ruling rules``."""
    return tuple(name for game in GAMES for name in game.rule_sets())


def catalogues() -> tuple[str, ...]:
    """Every catalogue ``ruling catalogue`` lists, of every game."""
    return tuple(name for game in GAMES for name in game.catalogues())


def catalogue_game(name: str) -> Game:
    """The game whose catalogue ``name`` is (one of :func:`catalogues`)."""
    return next(game for game in GAMES if name in game.catalogues())


def load_case(path: Path) -> cases.Case:
    """One case file, read by the game its position is written for.

    Raises
    ------
    CaseFormatError
        If it is not TOML, names an unknown game, or breaks its game's case format.
    """
    data, text = cases.read(path)
    try:
        game = named(named_game(str(data.get("position", ""))))
    except RulingError as exc:
        raise CaseFormatError(f"{path}: error: {exc}") from None
    return game.load_case(path, data, text)


def game_of(case: cases.Case) -> Game:
    """The game a loaded case is written for."""
    return named(named_game(case.position))


def collect_cases(paths: Sequence[Path]) -> list[cases.Case]:
    """Every case under the given files and folders, in path order.

    Raises
    ------
    CaseFormatError
        If a case is malformed, or a folder holds no case.
    """
    return [load_case(path) for path in cases.case_files(list(paths))]


def run_cases(found: Sequence[cases.Case]) -> Iterator[cases.CaseResult]:
    """Each case's result, in the order given; each game runs its own cases together
    (and gives their results in the order it was given them)."""
    by_game: dict[str, list[int]] = {}
    for k, case in enumerate(found):
        by_game.setdefault(game_of(case).name, []).append(k)
    results: dict[int, cases.CaseResult] = {}
    done = 0
    for name, places in by_game.items():
        for k, result in zip(places, named(name).run_cases([found[k] for k in places]), strict=True):
            results[k] = result
            while done in results:
                yield results.pop(done)
                done += 1


def main(argv: Sequence[str] | None = None, root: Path | None = None) -> int:
    """Write every game's coverage page (0); with ``--check``, write nothing and exit 1
    if one is stale; 2 for other arguments, a malformed case or a rule base that does
    not parse."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"]):
        sys.stderr.write("usage: python -m checker.games [--check]\n")
        return 2
    root = root or Path(__file__).resolve().parent.parent
    stale = False
    for game in GAMES:
        try:
            text = game.coverage()
        except RulingError as error:  # a malformed case, a rule base clingo cannot parse
            sys.stderr.write(f"error: {error}\n")
            return 2
        page = root / game.coverage_page
        if args:
            stale = stale or not page.is_file() or page.read_text(encoding="utf-8") != text
        else:
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(text, encoding="utf-8")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
