"""Read the shown atoms of an answer set into plain Python values, through clingo's
symbol API: no atom is printed to text.

Each atom is a row, the tuple of its arguments' values: a number an int, a string or a
constant a str, a function with arguments the tuple ``(name, *values)``, and the
constant ``none`` (the rule base's one word for an absent weapon, level, target...)
None. A string holding "none" is the str "none": every name a position writes reaches
the rule base as a string (checker/infinity/facts.py), so no name is read as None.

Each distinct argument is converted once, however many atoms hold it. Two readers
give the same rows: ``value`` through the ``clingo.Symbol`` properties, and, where
clingo's own binding of its C symbol functions (``clingo._internal``) is there, the
same functions called directly with buffers made once: each ``Symbol`` property
allocates its out-parameters and wraps every argument in a new object, which made
reading a large answer take several times as long as grounding it.
tests/test_solver.py checks the two agree.

Defines: ``read``, ``read_cases``, ``rows``, ``value``, ``word``, ``sort_key``, ``NONE``, ``Unread``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import clingo

from .gc_hold import gc_held

NONE = "none"  # the constant the rule base writes for an absent weapon, level, target...


@dataclass(frozen=True)
class Unread:
    """Shown atoms a caller never reads, which ``read`` may leave out (it need not: a
    caller still passes over them itself): every atom of the predicates ``names``,
    and the atoms of the predicates ``subjects_of`` whose first argument is a term
    headed by one of ``subjects`` (``denied(act(...), Rule)`` for ``act``)."""

    names: frozenset[str] = frozenset()
    subjects_of: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()


_NOTHING = Unread()


def read(symbols: Iterable[clingo.Symbol], unread: Unread | None = None) -> dict[str, list[tuple]]:
    """The shown atoms ``symbols`` grouped by predicate name, in their order, less those
    ``unread`` names."""
    unread = unread or _NOTHING
    skipped = unread.names
    subjects_of = unread.subjects_of if unread.subjects else frozenset()
    subjects = unread.subjects
    by_name: dict[str, list[tuple]] = {}
    with gc_held():  # every tuple made here lives as long as the answer
        for name, row in _rows(symbols, skipped):
            if name in subjects_of and row and row[0].__class__ is tuple and row[0][0] in subjects:
                continue
            rows = by_name.get(name)
            if rows is None:
                rows = by_name[name] = []
            rows.append(row)
    return by_name


def read_cases(symbols: Iterable[clingo.Symbol], case_names: frozenset[str],
               count: int) -> list[dict[str, list[tuple]]]:
    """The shown atoms of ``count`` cases solved in one program, grouped by predicate
    name, case by case: an atom of a predicate in ``case_names`` belongs to the case its
    first argument numbers (and is read without it), any other to every case."""
    per_case: list[dict[str, list[tuple]]] = [{} for _ in range(count)]
    with gc_held():
        for name, row in _rows(symbols, frozenset()):
            if name in case_names:
                per_case[row[0]].setdefault(name, []).append(row[1:])
                continue
            for by_name in per_case:
                by_name.setdefault(name, []).append(row)
    return per_case


def value(symbol: clingo.Symbol) -> int | str | tuple | None:
    """A clingo term as a Python value (see the module's docstring), through the
    ``clingo.Symbol`` properties."""
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
        return (name, *map(_API_VALUES.__getitem__, arguments))
    return "#inf" if kind == clingo.SymbolType.Infimum else "#sup"


def rows(symbols: Iterable[clingo.Symbol]) -> Iterator[tuple[str, tuple]]:
    """Each atom's name and row, in order (a classically negated atom's name without its
    sign)."""
    return _rows(symbols, frozenset())


def word(read_value: object) -> str:
    """A read value as the word clingo writes for it: None is ``none``."""
    return NONE if read_value is None else str(read_value)


def sort_key(read_value: Any) -> Any:
    """A read value with every None as ``"none"``, to sort values among which None
    stands where the rule base writes its constant ``none``: in the order of its word."""
    if read_value is None:
        return NONE
    if read_value.__class__ is tuple:
        return tuple(map(sort_key, read_value))
    return read_value


_MAX = 200_000  # terms kept converted; cleared when full


class _ApiValues(dict):
    """Each term read so far through the Symbol properties, by its symbol."""

    def __missing__(self, symbol: clingo.Symbol) -> int | str | tuple | None:
        found = value(symbol)
        if len(self) >= _MAX:
            self.clear()
        self[symbol] = found
        return found


_API_VALUES = _ApiValues()


def _api_rows(symbols: Iterable[clingo.Symbol], skipped: frozenset[str]):
    """Each atom's name and row, through the Symbol properties."""
    convert = _API_VALUES.__getitem__
    for symbol in symbols:
        name = symbol.name
        if name not in skipped:
            yield name, tuple(map(convert, symbol.arguments))


try:  # clingo's binding of its C API, as its Symbol class calls it (a Symbol's _rep)
    from clingo._internal import _ffi, _lib
except ImportError:
    _lib = None
if not hasattr(clingo.Number(0), "_rep"):  # another clingo: the Symbol properties serve
    _lib = None

if _lib is not None:
    _ARGUMENTS = _ffi.new("clingo_symbol_t**")
    _SIZE = _ffi.new("size_t*")
    _CHARS = _ffi.new("char**")
    _INT = _ffi.new("int*")
    _BOOL = _ffi.new("bool*")
    _NUMBER = clingo.SymbolType.Number.value
    _STRING = clingo.SymbolType.String.value
    _FUNCTION = clingo.SymbolType.Function.value
    _INFIMUM = clingo.SymbolType.Infimum.value

    class _Names(dict):
        """Each name by its C string: clingo keeps one copy of each name."""

        def __missing__(self, chars) -> str:
            found = self[chars] = _ffi.string(chars).decode()
            return found

    class _Values(dict):
        """Each term read so far, by its C symbol (clingo keeps one copy of each)."""

        def __missing__(self, rep: int) -> int | str | tuple | None:
            found = _c_value(rep)
            if len(self) >= _MAX:
                self.clear()
            self[rep] = found
            return found

    _NAMES = _Names()
    _VALUES = _Values()

    def _c_value(rep: int) -> int | str | tuple | None:
        """``value`` of the C symbol ``rep``."""
        kind = _lib.clingo_symbol_type(rep)
        if kind == _NUMBER:
            _lib.clingo_symbol_number(rep, _INT)
            return _INT[0]
        if kind == _STRING:
            _lib.clingo_symbol_string(rep, _CHARS)
            return _ffi.string(_CHARS[0]).decode()
        if kind != _FUNCTION:
            return "#inf" if kind == _INFIMUM else "#sup"
        _lib.clingo_symbol_name(rep, _CHARS)
        name = _NAMES[_CHARS[0]]
        _lib.clingo_symbol_is_positive(rep, _BOOL)
        if not _BOOL[0]:
            name = "-" + name
        _lib.clingo_symbol_arguments(rep, _ARGUMENTS, _SIZE)
        count = _SIZE[0]
        if not count:
            return None if name == NONE else name
        return (name, *map(_VALUES.__getitem__, _ffi.unpack(_ARGUMENTS[0], count)))

    def _c_rows(symbols: Iterable[clingo.Symbol], skipped: frozenset[str]):
        """Each atom's name and row, through clingo's C symbol functions: a model's
        sequence of symbols (``Model.symbols``) read as the C symbols it holds, with no
        Symbol object made for each."""
        name_of, arguments_of, unpack = _lib.clingo_symbol_name, _lib.clingo_symbol_arguments, _ffi.unpack
        names, convert = _NAMES, _VALUES.__getitem__
        chars, arguments, size = _CHARS, _ARGUMENTS, _SIZE
        held = getattr(symbols, "_p_symbols", None)
        reps = unpack(held, len(held)) if held is not None else (symbol._rep for symbol in symbols)
        for rep in reps:
            name_of(rep, chars)
            name = names[chars[0]]
            if name not in skipped:
                arguments_of(rep, arguments, size)
                count = size[0]
                yield name, tuple(map(convert, unpack(arguments[0], count))) if count else ()

    _rows = _c_rows
else:
    _rows = _api_rows
