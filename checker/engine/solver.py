"""Run the rule base on a position's facts, and read the shown atoms of its answer set
through clingo's symbol API into plain Python values (``read``). With facts.py and
rulebook.py (which only parses the rule base), the only module that knows clingo."""

from __future__ import annotations

import atexit
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import clingo

if TYPE_CHECKING:  # imported where used: a run that does not parse skips its import
    from clingo import ast

from .errors import RuleBaseError, SolveTimeout
from .gc_hold import gc_held
from .resources import asp_dir

# Solving is bounded (grounding cannot be interrupted: the ranges of the numbers a
# position may write, checker.infinity.position.RANGES, keep it small). A position of two full
# armies solves in well under a second.
SOLVE_SECONDS = 20.0


@dataclass(frozen=True)
class Atoms:
    """The shown atoms of the answer set, grouped by predicate, as plain Python values."""

    by_name: dict[str, list[tuple]]
    timings: dict[str, float] = field(default_factory=dict, compare=False)
    ground_atoms: int = 0

    def get(self, name: str) -> list[tuple]:
        return self.by_name.get(name, [])


@dataclass(frozen=True)
class Unread:
    """Shown atoms a caller never reads, which ``solve`` may leave out of its Atoms (it
    need not: a caller still passes over them itself): every atom of the predicates
    ``names``, and the atoms of the predicates ``subjects_of`` whose first argument is a
    term headed by one of ``subjects`` (``denied(act(...), Rule)`` for ``act``)."""

    names: frozenset[str] = frozenset()
    subjects_of: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()


def entry_file(edition: str):
    """The ``asp/<edition>.lp`` file that ``#include``s the whole rule base of an edition."""
    return asp_dir() / f"{edition}.lp"


# ---- The rule base, parsed once per process ------------------------------------------
# The first runs of an edition load its entry file (parsing it as the clingo command
# does); from the third on (or after ``prepare``), each Control is built from the
# statements clingo's parser made of the same files, in the same order, which skips
# the parse: building costs about a third of a load, parsing into statements two loads,
# so a process solving an edition once or twice never pays for it. The statements are
# kept with the modification times and sizes of every rule file: a changed rule base
# is parsed again.

LOADS_BEFORE_PARSING = 2

_parsed: dict[str, tuple[tuple, list[ast.AST]]] = {}  # entry file -> (fingerprint, statements)
_loads: dict[str, int] = {}  # entry file -> loads so far
# Released before the interpreter tears clingo down (a statement freed after that fails).
atexit.register(_parsed.clear)


def _fingerprint(entry: str) -> tuple:
    stat = os.stat(entry)
    found = [(entry, stat.st_mtime_ns, stat.st_size)]
    for folder, _dirs, files in os.walk(asp_dir()):
        for name in files:
            if name.endswith(".lp"):
                path = os.path.join(folder, name)
                stat = os.stat(path)
                found.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


def prepare(edition: str) -> None:
    """Parse the edition's rule base now, so every later ``solve`` skips the parse
    (before forking workers, or before solving many positions).

    Raises
    ------
    RuleBaseError
        If clingo cannot parse the rule base.
    """
    _statements(edition, str(entry_file(edition)))


def _statements(edition: str, entry: str) -> list[ast.AST]:
    """The statements of the rule base ``entry`` includes, parsed again if a rule file
    changed since."""
    fingerprint = _fingerprint(entry)
    cached = _parsed.get(entry)
    if cached is not None and cached[0] == fingerprint:
        return cached[1]
    from clingo import ast

    messages: list[str] = []
    statements: list[ast.AST] = []
    try:
        ast.parse_files([entry], statements.append,
                        logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20)
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo failed on the {edition} rule base: {exc}", tuple(messages)) from None
    _parsed[entry] = (fingerprint, statements)
    return statements


def _add_rule_base(ctl: clingo.Control, edition: str, parsed: bool | None = None) -> None:
    entry = str(entry_file(edition))
    if parsed is None:
        parsed = entry in _parsed or _loads.get(entry, 0) >= LOADS_BEFORE_PARSING
    if not parsed:
        _loads[entry] = _loads.get(entry, 0) + 1
        ctl.load(entry)
        return
    from clingo import ast

    statements = _statements(edition, entry)
    with ast.ProgramBuilder(ctl) as builder:
        for statement in statements:
            builder.add(statement)


@gc_held()
def solve(edition: str, facts: list[clingo.Symbol], seconds: float | None = None,
          unread: Unread | None = None) -> Atoms:
    """Ground and solve the edition's rule base with ``facts``, for at most ``seconds``
    of solving (default ``SOLVE_SECONDS``); the atoms ``unread`` names may be left out.

    Raises
    ------
    SolveTimeout
        If solving takes longer.
    RuleBaseError
        If clingo fails, the program has no answer set, or a rule is used without a
        citation for this edition.
    """
    seconds = SOLVE_SECONDS if seconds is None else seconds
    solved = _solved.pop((edition, tuple(facts)), None) if _solved else None
    if solved is not None:
        return checked(edition, solved)
    shown, timings, ground = _shown(edition, facts, seconds)
    start = time.perf_counter()
    by_name = read(shown, unread)
    timings["read"] = time.perf_counter() - start
    return checked(edition, Atoms(by_name, timings, ground))


# Answers solved ahead, together with other positions (``solver_many.prefetch``), each
# taken once by the ``solve`` of the same edition and facts.
_solved: dict[tuple[str, tuple[clingo.Symbol, ...]], Atoms] = {}


def remember(edition: str, facts: list[clingo.Symbol], atoms: Atoms) -> None:
    """Keep ``atoms`` as the answer of the next ``solve(edition, facts)``."""
    _solved[(edition, tuple(facts))] = atoms


def forget() -> None:
    """Drop the answers solved ahead and not taken."""
    _solved.clear()


def checked(edition: str, atoms: Atoms) -> Atoms:
    """``atoms``, unless a rule it used has no citation for the edition.

    Raises
    ------
    RuleBaseError
        If a rule is used without a citation for this edition.
    """
    if atoms.get("uncited"):
        names = ", ".join(sorted(str(a[0]) for a in atoms.get("uncited")))
        raise RuleBaseError(f"rules used without a citation for {edition}: {names}")
    return atoms


def _shown(
    edition: str, facts: list[clingo.Symbol], seconds: float, parsed: bool | None = None
) -> tuple[list[clingo.Symbol], dict[str, float], int]:
    """The shown atoms of the answer set, in clingo's order, the timings and the number
    of ground atoms. ``parsed`` True builds the Control from the parsed rule base, False
    loads the entry file, None chooses (``_add_rule_base``)."""
    messages: list[str] = []
    timings: dict[str, float] = {}
    ctl = clingo.Control(
        ["--models=1"], logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20
    )
    start = time.perf_counter()
    try:
        _add_rule_base(ctl, edition, parsed)
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        ctl.ground([("base", [])])
        timings["ground"] = time.perf_counter() - start
        start = time.perf_counter()
        shown: list[clingo.Symbol] = []
        with ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)), async_=True) as handle:
            if not handle.wait(seconds):
                handle.cancel()
                raise SolveTimeout(
                    f"the {edition} rule base found no verdict within {seconds:g} seconds: the position "
                    "is too large to judge; write fewer troopers, relations or declarations"
                )
            result = handle.get()
        timings["solve"] = time.perf_counter() - start
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo failed on the {edition} rule base: {exc}", tuple(messages)) from None
    if not result.satisfiable:
        raise RuleBaseError(f"the {edition} rule base has no answer set for this position", tuple(messages))
    return shown, timings, int(ctl.statistics["problem"]["lpStep"]["atoms"])


def read(symbols: Iterable[clingo.Symbol], unread: Unread | None = None) -> dict[str, list[tuple]]:
    """The shown atoms ``symbols`` grouped by predicate name, less those ``unread`` names.

    Each atom is a row: the tuple of its arguments read by ``value``. Each distinct
    argument symbol is read once (``_VALUES``), however many atoms hold it.
    """
    unread = unread or _NOTHING_UNREAD
    skipped = unread.names
    subjects_of = unread.subjects_of if unread.subjects else frozenset()
    subjects = unread.subjects
    by_name: dict[str, list[tuple]] = {}
    read_value = _VALUES.__getitem__
    with gc_held():  # every tuple made here lives as long as the Atoms
        for symbol in symbols:
            name = symbol.name
            if name in skipped:
                continue
            row = tuple(map(read_value, symbol.arguments))
            if name in subjects_of and row and row[0].__class__ is tuple and row[0][0] in subjects:
                continue
            rows = by_name.get(name)
            if rows is None:
                rows = by_name[name] = []
            rows.append(row)
    return by_name


def read_cases(symbols: Iterable[clingo.Symbol], case_names: frozenset[str], count: int) -> list[dict[str, list[tuple]]]:
    """The shown atoms of ``count`` cases solved in one program, grouped by predicate
    name, case by case: an atom of a predicate in ``case_names`` belongs to the case its
    first argument numbers (and is read without it), any other to every case."""
    per_case: list[dict[str, list[tuple]]] = [{} for _ in range(count)]
    read_value = _VALUES.__getitem__
    with gc_held():
        for symbol in symbols:
            name = symbol.name
            arguments = symbol.arguments
            if name in case_names:
                rows = per_case[arguments[0].number].setdefault(name, [])
                rows.append(tuple(map(read_value, arguments[1:])))
                continue
            row = tuple(map(read_value, arguments))
            for by_name in per_case:
                by_name.setdefault(name, []).append(row)
    return per_case


def value(symbol: clingo.Symbol) -> int | str | tuple | None:
    """A clingo term as a Python value: a number an int, a string or a constant a str,
    a function with arguments the tuple of its name and its arguments' values, and the
    constant ``none`` (the rule base's word for an absent weapon, level, target...) None.
    A string holding "none" is the str "none": a name the position writes is a string."""
    kind = symbol.type
    if kind == clingo.SymbolType.Number:
        return symbol.number
    if kind == clingo.SymbolType.String:
        return symbol.string
    if kind == clingo.SymbolType.Function:
        name = symbol.name if symbol.positive else "-" + symbol.name
        arguments = symbol.arguments
        if not arguments:
            return None if name == NONE else name
        return (name, *map(_VALUES.__getitem__, arguments))
    return "#inf" if kind == clingo.SymbolType.Infimum else "#sup"


NONE = "none"  # the constant the rule base writes for an absent weapon, level, target...


def word(value: object) -> str:
    """A read value as the word clingo writes for it: None is ``none``."""
    return NONE if value is None else str(value)


def sort_key(value: Any) -> Any:
    """A read value with every None as ``"none"``, to sort values among which None
    stands where the rule base writes its constant ``none``: in the order of its word."""
    if value is None:
        return NONE
    if value.__class__ is tuple:
        return tuple(map(sort_key, value))
    return value


_NOTHING_UNREAD = Unread()


class _Values(dict):
    """Each term read so far, by its symbol (clingo symbols hash and compare by value).
    Bounded: cleared when full."""

    def __missing__(self, symbol: clingo.Symbol) -> int | str | tuple | None:
        found = value(symbol)
        if len(self) >= _VALUES_MAX:
            self.clear()
        self[symbol] = found
        return found


_VALUES_MAX = 200_000
_VALUES = _Values()


def program_text(facts: list[clingo.Symbol]) -> str:
    """The facts as an ASP program, to reproduce a run with the clingo command."""
    return "".join(f"{symbol}.\n" for symbol in facts)

