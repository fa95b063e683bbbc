"""Run the rule base on a position's facts. With facts.py and rulebook.py (which only
parses the rule base), the only module that knows clingo."""

from __future__ import annotations

import atexit
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

if TYPE_CHECKING:  # imported where used: a run that does not parse skips its import
    from clingo import ast

from .errors import RuleBaseError, SolveTimeout
from .gc_hold import gc_held
from .resources import asp_dir, editions

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
    by_name = _group(shown, unread).by_name
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


def _group(symbols: list[clingo.Symbol], unread: Unread | None = None) -> Atoms:
    """The shown atoms grouped by predicate, as ``group_texts`` reads their texts, less
    those ``unread`` names.

    clingo lists a model's atoms signature by signature: each run of one signature is
    printed with one call (as one tuple of the run) and split with one regular
    expression (``_Reader.run``); a run it cannot read goes atom by atom."""
    reader = _Reader(unread)
    with gc_held():  # every tuple made here lives as long as the Atoms
        start, count = 0, len(symbols)
        while start < count:
            end, signature = _run_end(symbols, start)
            if signature is not None and signature[0] in reader.unread_names:
                start = end
                continue
            if signature is not None and end - start >= _RUN_MIN:
                body = str(clingo.Tuple_(symbols[start:end]))[1:-1]
                if reader.run(*signature, body, end - start):
                    start = end
                    continue
            for symbol in symbols[start:end]:
                reader.one(str(symbol))
            start = end
    return Atoms(reader.by_name)


def group_texts(texts: Iterable[str]) -> Atoms:
    """The atoms written as clingo prints them, grouped by predicate."""
    groups: dict[str, list[str]] = {}
    for text in texts:
        cut = text.find("(")
        name = text[:cut] if cut > 0 else text
        group = groups.get(name)
        if group is None:
            group = groups[name] = []
        group.append(text)
    reader = _Reader()
    with gc_held():
        for name, group in groups.items():
            first = group[0]
            arity = _INNER.sub("", first[len(name) + 1:-1]).count(",") + 1 if len(first) > len(name) else 0
            if len(group) < _RUN_MIN or not reader.run(name, arity, ",".join(group), len(group)):
                for text in group:
                    reader.one(text)
    return Atoms(reader.by_name)


_RUN_MIN = 8  # a shorter run is read atom by atom
_INNER = re.compile(r"\([^()]*\)")
# An argument as clingo prints it, with no string in it: a number or constant, or a
# function whose arguments are numbers or constants.
_ARGUMENT = r'([^(),"]++(?:\((?:[^(),"]++,)*+[^(),"]++\))?+)'


def _run_end(symbols: list[clingo.Symbol], start: int) -> tuple[int, tuple[str, int] | None]:
    """The end of the run of atoms from ``start`` that share its signature (found by
    galloping: clingo lists them together; ``_Reader.run`` checks every one), and that
    signature (None for a symbol that is not a positive function)."""
    signature = _signature(symbols[start])
    low, step, count = start, 1, len(symbols)
    high = start + 1
    while high < count and _signature(symbols[high]) == signature:
        low, step = high, step * 2
        high = start + step
    high = min(high, count)
    while high - low > 1:  # symbols[low] has the signature; symbols[high] has not, or is the end
        middle = (low + high) // 2
        if _signature(symbols[middle]) == signature:
            low = middle
        else:
            high = middle
    return high, signature


def _signature(symbol: clingo.Symbol) -> tuple[str, int] | None:
    if symbol.type != clingo.SymbolType.Function or not symbol.positive or not symbol.name:
        return None
    return symbol.name, len(symbol.arguments)


class _Reader:
    """Atoms read into ``by_name``: a run of one signature at once (``run``), any other
    atom alone (``one``). Each distinct argument text is read once."""

    def __init__(self, unread: Unread | None = None) -> None:
        self.by_name: dict[str, list[tuple]] = {}
        self.values: dict[str, int | str | tuple] = {}
        self.leaves: dict[str, int | str] = _Leaves()
        unread = unread or Unread()
        self.unread_names = unread.names
        self.subjects_of = unread.subjects_of if unread.subjects else frozenset()
        self.subjects = unread.subjects
        # The text a left-out first argument starts with: ``act(``.
        self.subject_starts = tuple(f"{subject}(" for subject in sorted(unread.subjects))

    def one(self, text: str) -> None:
        name, args = _parse_term(text) if '"' in text else _split_term(text, self.leaves)
        if name in self.unread_names or (
                name in self.subjects_of and args and args[0].__class__ is tuple and args[0][0] in self.subjects):
            return
        rows = self.by_name.get(name)
        if rows is None:
            rows = self.by_name[name] = []
        rows.append(args)

    def run(self, name: str, arity: int, body: str, count: int) -> bool:
        """Read ``body``, ``count`` atoms ``name(...)`` of ``arity`` arguments joined by
        commas, if each argument is a number, a constant or a function of those (no
        string): False, reading nothing, if not.

        Each match is an atom and the comma after it (none at the end): if there are
        ``count`` of them and their lengths add up to the body's, they tile it, each
        match one atom, split into its arguments."""
        if arity == 0:
            return False
        found = _run_pattern(name, arity).findall(body)
        if len(found) != count:
            return False
        texts = found if arity == 1 else chain.from_iterable(found)
        if sum(map(len, texts)) + count * (len(name) + arity + 2) - 1 != len(body):
            return False
        if name in self.subjects_of:  # less the atoms about subjects never read
            starts = self.subject_starts
            found = [a for a in found if not (a if arity == 1 else a[0]).startswith(starts)]
            if not found:
                return True
        # One column of argument texts per argument: each is read, and made into rows,
        # by C loops (``zip``, ``map``), not by a Python loop over the atoms.
        columns = [found] if arity == 1 else list(zip(*found))
        values = self.values
        leaf = self.leaves.__getitem__
        try:
            for column in columns:
                for text in set(column).difference(values):
                    cut = text.find("(")
                    values[text] = leaf(text) if cut < 0 else (text[:cut], *map(leaf, text[cut + 1:-1].split(",")))
        except (ValueError, IndexError):  # not a term clingo prints: read atom by atom
            return False
        value = values.__getitem__
        self.by_name.setdefault(name, []).extend(zip(*[map(value, column) for column in columns]))
        return True


@lru_cache(maxsize=256)
def _run_pattern(name: str, arity: int) -> re.Pattern[str]:
    return re.compile(re.escape(name) + r"\(" + ",".join([_ARGUMENT] * arity) + r"\)(?:,|\Z)")


class _Leaves(dict):
    """Each number or constant read so far (``_split_term`` reads a word the same way)."""

    def __missing__(self, word: str) -> int | str:
        value = self[word] = int(word) if word[0] in _NUMBER_START else word
        return value


_PUNCT = re.compile(r"([(),])")
_NUMBER_START = frozenset("-0123456789")


def _split_term(text: str, leaves: dict[str, int | str]) -> tuple[str, tuple]:
    """``_parse_term`` for a term without strings: ``str.split`` on the punctuation
    gives ``[word, punct, word, punct, ..., word]``; ``leaves`` caches each constant or
    number read so far. A term this cannot read goes to ``_parse_term``."""
    parts = _PUNCT.split(text)
    if len(parts) == 1:
        return (text, ()) if text[0] not in _NUMBER_START else _parse_term(text)
    stack: list[list] = []
    result: tuple = ()
    try:
        for k in range(0, len(parts) - 1, 2):
            word, punct = parts[k], parts[k + 1]
            if punct == "(":
                if not word:
                    return _parse_term(text)  # a tuple term
                stack.append([word])
                continue
            if word:
                leaf = leaves.get(word)
                if leaf is None:
                    leaf = leaves[word] = int(word) if word[0] in _NUMBER_START else word
                stack[-1].append(leaf)
            if punct == ")":
                done = tuple(stack.pop())
                if stack:
                    stack[-1].append(done)
                else:
                    result = done
    except (ValueError, IndexError):  # "-f(x)", a term clingo would not print
        return _parse_term(text)
    return result[0], result[1:]


_TOKEN = re.compile(r'\s*(?:(-?\d+)|"((?:[^"\\]|\\.)*)"|([a-z_][A-Za-z0-9_\']*)|([(),]))')
_ESCAPES = {"\\n": "\n", '\\"': '"', "\\\\": "\\"}


def _parse_term(text: str) -> tuple[str, tuple]:
    """``'denied(aro(fus1,dodge,none),aro_lof)'`` -> ``('denied', (('aro', 'fus1', 'dodge', 'none'), 'aro_lof'))``.

    Numbers are int, strings and constants str, compound terms tuples headed by
    their name."""
    tokens = _TOKEN.findall(text)
    pos = 0

    def term():
        nonlocal pos
        number, string, name, punct = tokens[pos]
        pos += 1
        if number:
            return int(number)
        if not (name or punct):  # a string literal
            return re.sub(r'\\[n"\\]', lambda m: _ESCAPES[m.group(0)], string)
        if pos < len(tokens) and tokens[pos][3] == "(":
            pos += 1
            args = [term()]
            while tokens[pos][3] == ",":
                pos += 1
                args.append(term())
            pos += 1  # ")"
            return (name, *args)
        return name

    head = term()
    return (head, ()) if isinstance(head, str) else (head[0], tuple(head[1:]))


def program_text(facts: list[clingo.Symbol]) -> str:
    """The facts as an ASP program, to reproduce a run with the clingo command."""
    return "".join(f"{symbol}.\n" for symbol in facts)


# ---- Names the rule base keeps for itself ------------------------------------------
# A position's trooper ids and sides become constants of the program, so one spelled
# like a constant the rule base writes where a trooper id or side stands (``none``, the
# target of a skill without one) would be taken for it. Which argument of which
# predicate holds a trooper id or a side is read from the rules themselves: a variable
# shared by two arguments in one rule makes them hold the same kind of value.

_ROOTS = (("trooper/1", 0), ("side/2", 0), ("side/2", 1), ("active_side/1", 0))
_WORD = re.compile(r"[a-z_][A-Za-z0-9_']*")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|%[^\n]*')


def trooper_constants(names: Iterable[str]) -> dict[str, str]:
    """Of ``names``, those the rule base writes as a constant where a trooper id or a
    side stands, each with the file:line of one such place."""
    candidates = set(names) & _rule_base_words()  # cheap: most ids appear in no rule file
    if not candidates:
        return {}
    found = _trooper_constants()
    return {name: found[name] for name in sorted(candidates) if name in found}


@lru_cache(maxsize=1)
def _rule_base_words() -> frozenset[str]:
    """Every word of the rule files outside strings and comments: a superset of the
    constants, read in a few milliseconds."""
    code = (_STRING_OR_COMMENT.sub(" ", p.read_text(encoding="utf-8")) for p in asp_dir().rglob("*.lp"))
    return frozenset(w for text in code for w in _WORD.findall(text))


@lru_cache(maxsize=1)
def _trooper_constants() -> dict[str, str]:
    """Every constant in a trooper-id or side argument of the rule base of every
    edition, read through clingo's parser: ``{'none': 'core/activation.lp:44', ...}``."""
    from clingo import ast

    kinds = _Kinds()
    files = [str(entry_file(e)) for e in editions()]
    ast.parse_files(files, kinds.statement, logger=lambda _code, _msg: None)
    roots = {kinds.find(r) for r in _ROOTS}
    found: dict[str, str] = {}
    for place, name, term in kinds.constants:
        if name not in found and kinds.find(place) in roots:
            begin = term.location.begin
            found[name] = f"asp/{Path(os.path.relpath(begin.filename, asp_dir())).as_posix()}:{begin.line}"
    return found


class _Kinds:
    """Argument places (``("lof/3", 0)``, ``("denied/2", 0, "aro_decl/1", 0)``) joined
    into kinds by the variables rules share between them (union-find), and the
    constants written at each place."""

    def __init__(self) -> None:
        self.parent: dict[tuple, tuple] = {}
        self.constants: list[tuple[tuple, str, ast.AST]] = []
        self.rule = 0

    def find(self, x: tuple) -> tuple:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a: tuple, b: tuple) -> None:
        self.parent[self.find(a)] = self.find(b)

    def statement(self, node: ast.AST) -> None:
        from clingo import ast

        if node.ast_type == ast.ASTType.Rule:
            self.rule += 1
            self._walk(node)

    def _walk(self, node: ast.AST) -> None:
        from clingo import ast

        kind = node.ast_type
        if kind == ast.ASTType.SymbolicAtom:
            atom = node.symbol
            if atom.ast_type == ast.ASTType.Function:
                args = list(atom.arguments)
                for i, arg in enumerate(args):
                    self._term(arg, (f"{atom.name}/{len(args)}", i))
        elif kind == ast.ASTType.Comparison:
            terms = [node.term, *(g.term for g in node.guards)]
            places = [("var", self.rule, t.name) for t in terms if t.ast_type == ast.ASTType.Variable]
            for place in places[1:]:
                self.join(places[0], place)
            for term in terms:
                for place in places:
                    self._term(term, place)
        else:
            for key in node.child_keys:
                child = getattr(node, key)
                for item in (child if isinstance(child, ast.ASTSequence) else [child]):
                    if isinstance(item, ast.AST):
                        self._walk(item)

    def _term(self, term: ast.AST, place: tuple) -> None:
        from clingo import ast

        kind = term.ast_type
        if kind == ast.ASTType.Variable and term.name != "_":
            self.join(("var", self.rule, term.name), place)
        elif kind == ast.ASTType.SymbolicTerm:
            symbol = term.symbol
            if symbol.type == clingo.SymbolType.Function and symbol.name and not symbol.arguments:
                self.constants.append((place, symbol.name, term))
        elif kind == ast.ASTType.Function and not term.external:
            args = list(term.arguments)
            if not args:
                self.constants.append((place, term.name, term))
            for i, arg in enumerate(args):
                self._term(arg, (*place, f"{term.name}/{len(args)}", i))
        elif kind == ast.ASTType.Pool:
            for arg in term.arguments:
                self._term(arg, place)
