"""Solve a position, then copies of it that differ from it in a few facts (the ARO each
declares, as ``ruling odds`` prices its options), in one clingo program, each with the
answer it has alone (``solver.solve``).

The position is solved first, by the rule base as ``solver.solve`` loads it. The copies
are then grounded in a second step of the same program, by the rules that depend on the
facts they may differ in (``vary``), rewritten as ``solver_many`` rewrites them: each
such predicate gets a first argument, the case (a rule with no positive body literal
binding it also gets ``ruling_case(C)``). A predicate with a case argument has one more
argument than the position's, so it is another predicate: the copies' atoms never meet
the position's. Every other rule was grounded once, with the position, and its atoms
serve every copy: the rule base over the troopers, the catalogue and the Order is not
grounded again. Of the rewritten rules, only those that may fire are grounded: none
whose positive body literal has no atom to match (a skill or state no trooper has).

The rewritten rules are kept as text in the user's cache folder, under a digest of
``vary``, of every rule file's content and of the code writing them, and given to clingo
as text: a run that finds them there parses nothing but them. A copy's atoms are shown by
``#show p(Case, ...) : p(Case, ...).``, so they are read apart from the position's
(shown by name and arity).

Inputs: the parsed statements of an edition's rule base (``solver._statements``), and
their rewriting (``solver_many._rewrite``).
Defines: ``Copies`` (falls back to ``solver.solve`` and ``solver_many.solve_each``).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from . import reading, solver
from .errors import RuleBaseError
from .resources import cache_dir, store_cache

if TYPE_CHECKING:  # imported where used: a run that reads the rules from the cache skips them
    from clingo import ast

# The names solver_many's rewriting writes (``_rewrite`` checks them), kept here so that a
# run reading the rewritten rules from the cache never imports it, nor clingo's AST.
_CASE = "ruling_case"
_VAR = "RulingCase_"
_PART = "ruling_cases"  # the program part of the rewritten rules
_UNCITED = "uncited"


class Copies:
    """A position solved as ``solver.solve`` solves it (``atoms``, with its errors), in
    a clingo program that then solves copies of it (``solve``, once: a second call
    solves its copies apart).

    ``vary``: the predicates (``name``, ``arity``) whose facts the copies may have and
    the position not, or the other way round; every other fact of a copy must be one of
    the position's (copies that break this are solved apart, with the same answers).

    Raises
    ------
    SolveTimeout, RuleBaseError
        As ``solver.solve``, for the position.
    """

    def __init__(self, edition: str, facts: list[clingo.Symbol], vary: frozenset[tuple[str, int]]):
        self.edition = edition
        self._program = _program(edition, vary)
        self._ctl: clingo.Control | None = None
        self._facts = facts
        # by k: the position's facts without a case argument from its k-th on, and the
        # parts of those with one before it
        self._split: dict[int, tuple[list[clingo.Symbol], list[tuple[str, list[clingo.Symbol], bool]]]] = {}
        self._shown: dict[str, list[tuple]] = {}  # its shown atoms without one, each copy's too
        first = self._first(facts) if self._program is not None else None
        self.atoms = solver.checked(edition, first) if first is not None else solver.solve(edition, facts)

    def _first(self, facts: list[clingo.Symbol]) -> solver.Atoms | None:
        """The position's answer, keeping its program; None if it meets an error
        (``solver.solve`` then meets it again, and reports it)."""
        assert self._program is not None
        dependent = self._program.dependent
        if any((name, len(arguments) - 1) in dependent for name, arguments, _ in map(_parts, facts)):
            return None  # a fact p/3 beside a copy's p/2 with its case argument: they would mix
        ctl = clingo.Control(["--models=1"], logger=lambda _code, _msg: None, message_limit=0)
        start = time.perf_counter()
        try:
            solver._add_rule_base(ctl, self.edition, facts=facts)  # the copies are grounded in a part of their own
            with ctl.backend() as backend:
                for symbol in facts:
                    backend.add_rule([backend.add_atom(symbol)])
            ctl.ground([("base", [])])
            ground = time.perf_counter() - start
            start = time.perf_counter()
            shown = _model(ctl)
        except RuntimeError:
            return None
        if shown is None:
            return None
        timings = {"ground": ground, "solve": time.perf_counter() - start}
        by_name = reading.read(shown)
        self._shown = {name: rows for name, rows in by_name.items() if name in self._program.static_shows}
        self._ctl = ctl
        return solver.Atoms(by_name, timings, int(ctl.statistics["problem"]["lpStep"]["atoms"]))

    def solve(self, facts: list[list[clingo.Symbol]], show: frozenset[str] | None = None) -> list[solver.Atoms]:
        """``[solver.solve(edition, f) for f in facts]``, the copies grounded in a second
        step of the position's program (or, when they cannot be, as
        ``solver_many.solve_each`` solves them). With ``show``, each answer holds only
        the shown predicates of those names (and ``uncited``).

        Raises
        ------
        SolveTimeout, RuleBaseError
            As ``solver.solve``, for the first copy that meets one.
        """
        if not facts:
            return []
        found = self._copies(facts, show) if self._ctl is not None else None
        if found is None:
            from . import solver_many

            return solver_many.solve_each(self.edition, facts, show=show)
        return [solver.checked(self.edition, atoms) for atoms in found]

    def _copies(self, facts: list[list[clingo.Symbol]], show: frozenset[str] | None) -> list[solver.Atoms] | None:
        assert self._ctl is not None and self._program is not None
        cases = []
        for case in facts:
            # a copy's facts are the position's, in the same order, up to its ARO's: only
            # those after the first fact that differs are read one by one
            k = next(compress(count(), map(is_not, case, self._facts)), min(len(case), len(self._facts)))
            if k not in self._split:
                dependent = self._program.dependent
                self._split[k] = _split_facts(self._facts[k:], dependent)[0], _split_facts(self._facts[:k], dependent)[1]
            static, tied = _split_facts(case[k:], self._program.dependent)
            if static != self._split[k][0] and set(static) != set(self._split[k][0]):
                return None  # it differs from the position in a fact without a case argument
            cases.append(self._split[k][1] + tied)
        ctl, self._ctl = self._ctl, None  # one step of copies: their rules are grounded once
        start = time.perf_counter()
        try:
            ctl.add("base", [], self._program.text(ctl, {(name, len(arguments) + 1) for case in cases
                                                          for name, arguments, _ in case}, show))
            with ctl.backend() as backend:
                for k, tied in enumerate(cases):
                    _add_case(backend, k, tied)
            ctl.ground([(_PART, [])])
            ground = time.perf_counter() - start
            start = time.perf_counter()
            shown = _model(ctl, terms=True)
        except RuntimeError:
            return None
        if shown is None:
            return None
        timings = {"ground": ground / len(facts), "solve": (time.perf_counter() - start) / len(facts)}
        kept = {name: rows for name, rows in self._shown.items() if show is None or name in show or name == _UNCITED}
        return [solver.Atoms({**by_name, **{name: list(rows) for name, rows in kept.items()}}, dict(timings))
                for by_name in reading.read_cases(shown, frozenset(name for name, _, _ in self._program.shows), len(facts))]


def _model(ctl: clingo.Control, terms: bool = False) -> list[clingo.Symbol] | None:
    """The shown symbols of the answer set (``terms``: only those a ``#show Term :
    Body`` shows, the copies'); None when there is none, or when solving takes longer
    than ``solver.SOLVE_SECONDS``."""
    shown: list[clingo.Symbol] = []
    with ctl.solve(on_model=lambda m: shown.extend(m.symbols(terms=terms, shown=not terms)),
                   async_=True) as handle:
        if not handle.wait(solver.SOLVE_SECONDS):
            handle.cancel()
            return None
        result = handle.get()
    return shown if result.satisfiable else None


def _split_facts(facts: list[clingo.Symbol], dependent: frozenset[tuple[str, int]]
                 ) -> tuple[list[clingo.Symbol], list[tuple[str, list[clingo.Symbol], bool]]]:
    """The facts of predicates without a case argument, as they are, and the parts of
    the others."""
    static = []
    tied = []
    for symbol in facts:
        parts = _parts(symbol)
        if (parts[0], len(parts[1])) in dependent:
            tied.append(parts)
        else:
            static.append(symbol)
    return static, tied


# Each fact's name, arguments and sign, read once per process, found by the fact's
# identity (facts.py makes each fact once, and the copies of a position share nearly
# all of them): hashing a symbol costs a C call. The entry holds the symbol, so its id
# is not reused while the entry lives. Bounded: cleared when full.
_PARTS: dict[int, tuple[clingo.Symbol, tuple[str, list[clingo.Symbol], bool]]] = {}
_PARTS_MAX = 200_000


def _parts(symbol: clingo.Symbol) -> tuple[str, list[clingo.Symbol], bool]:
    found = _PARTS.get(id(symbol))
    if found is None or found[0] is not symbol:
        if len(_PARTS) >= _PARTS_MAX:
            _PARTS.clear()
        found = _PARTS[id(symbol)] = (symbol, (symbol.name, symbol.arguments, symbol.positive))
    return found[1]


def _add_case(backend: clingo.Backend, case: int, tied: list[tuple[str, list[clingo.Symbol], bool]]) -> None:
    """Case ``case``, with its facts of predicates with a case argument."""
    number = clingo.Number(case)
    backend.add_rule([backend.add_atom(clingo.Function(_CASE, [number]))])
    for name, arguments, positive in tied:
        backend.add_rule([backend.add_atom(clingo.Function(name, [number, *arguments], positive))])


# ---- The rewritten rules, kept as text ----------------------------------------------

@dataclass(frozen=True)
class _Rule:
    """A rewritten rule and what it needs to fire, by index into ``_Program.signatures``:
    the predicates with a case argument it defines (``heads``), reads in a positive body
    literal (``needs``) and reads anywhere in its body (``reads``), and those without
    one it reads in a positive body literal (``guards``)."""

    text: str
    heads: tuple[int, ...]
    needs: tuple[int, ...]
    reads: tuple[int, ...]
    guards: tuple[int, ...]


@dataclass(frozen=True)
class _Program:
    """The rules of the rule base that get a case argument, rewritten, with their
    ``#defined`` (``declared``) and one ``#show`` per shown name; the predicates given a
    case argument (their signatures without it) and the names shown without one."""

    rules: tuple[_Rule, ...]
    signatures: tuple[tuple[str, int], ...]
    declared: str
    shows: tuple[tuple[str, int, str], ...]  # (name, its signature's index or -1, statement)
    dependent: frozenset[tuple[str, int]]
    static_shows: frozenset[str]

    def text(self, ctl: clingo.Control, facts: set[tuple[str, int]], show: frozenset[str] | None) -> str:
        """The program part ``ruling_cases`` for copies whose facts with a case argument
        are of the predicates ``facts`` (signatures with it), showing the names in
        ``show`` (and ``uncited``; None: every name).

        Only the rules that may fire and whose atoms a shown one depends on are written
        (grounding a rule costs time even when nothing matches it). A rule with a
        positive body literal of a predicate without a case argument that has no atom in
        ``ctl`` (the position's step is grounded: no later step adds one) never fires,
        nor one with a positive body literal of a predicate with a case argument that
        neither a fact nor a rule that may fire defines."""
        found = {i for i, (name, arity) in enumerate(self.signatures)
                 if (name, arity) in facts or name == _CASE
                 or next(iter(ctl.symbolic_atoms.by_signature(name, arity)), None) is not None}
        alive = [r for r in self.rules if all(g in found for g in r.guards)]
        while True:
            defined = found | {h for r in alive for h in r.heads}
            fired = [r for r in alive if all(n in defined for n in r.needs)]
            if len(fired) == len(alive):
                break
            alive = fired
        shows = [(i, t) for name, i, t in self.shows if show is None or name in show or name == _UNCITED]
        if show is not None:
            needed = {i for i, _ in shows}
            while True:
                used = [r for r in alive if not r.heads or needed.intersection(r.heads)]
                wider = needed.union(*(r.reads for r in used), *(r.heads for r in used))
                if wider == needed:
                    break
                needed = wider
            alive = used
        kept = (t for _, t in shows)
        return "\n".join((f"#program {_PART}.", *(r.text for r in alive), self.declared, *kept, ""))


_programs: dict[tuple, _Program | None] = {}


def _program(edition: str, vary: frozenset[tuple[str, int]]) -> _Program | None:
    """The rules depending on ``vary``, rewritten, kept in this process and in the
    user's cache folder; None if the rule base writes something the rewriting does not
    know, or that would mix with it."""
    entry = str(solver.entry_file(edition))
    fingerprint = solver._fingerprint(entry)
    key = (entry, fingerprint, vary)
    if key not in _programs:
        if any(k[1] != fingerprint for k in _programs):
            _programs.clear()  # the rule base changed: its programs are stale
        _programs[key] = _cached(edition, entry, fingerprint, vary)
    return _programs[key]


# The code that writes the program: a change to it is a new program (its files' content
# is part of the digest naming the cached one).
_WRITERS = ("solver_copies.py", "solver_many.py")


def _cached(edition: str, entry: str, fingerprint: tuple, vary: frozenset[tuple[str, int]]) -> _Program | None:
    """``_program``, from the cache folder when a process wrote it for the same rule
    files, ``vary`` and code, else rewritten and written there (None too: the rewriting
    takes about a second)."""
    signatures = json.dumps(sorted(vary))
    family = hashlib.sha256(f"{edition} {signatures}".encode()).hexdigest()[:16]
    digest = hashlib.sha256(f"{edition} {signatures}".encode())
    writers = [str(Path(__file__).with_name(name)) for name in _WRITERS]
    for path in [*writers, *sorted(p for p, *_ in fingerprint)]:
        digest.update(path.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    file = cache_dir() / f"copies-{edition}-{family}-{digest.hexdigest()[:32]}.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data is None:
            return None  # the rule base cannot be rewritten for these copies
        return _Program(
            tuple(_Rule(text, tuple(heads), tuple(needs), tuple(reads), tuple(guards))
                  for text, heads, needs, reads, guards in data["rules"]),
            tuple((name, arity) for name, arity in data["signatures"]), data["declared"],
            tuple((name, index, text) for name, index, text in data["shows"]),
            frozenset((name, arity) for name, arity in data["dependent"]), frozenset(data["static_shows"]))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        statements = solver._statements(edition, entry)
    except RuleBaseError:
        return None  # solver.solve meets the error, and reports it
    program = _rewrite(statements, vary)
    data = None if program is None else {
        "rules": [(r.text, r.heads, r.needs, r.reads, r.guards) for r in program.rules],
        "signatures": program.signatures,
        "declared": program.declared, "shows": program.shows, "dependent": sorted(program.dependent),
        "static_shows": sorted(program.static_shows)}
    store_cache(file, json.dumps(data).encode("utf-8"), f"copies-{edition}-{family}-*.json")
    return program


def _rewrite(statements: list[ast.AST], vary: frozenset[tuple[str, int]]) -> _Program | None:
    """``solver_many._rewrite`` from ``vary``: the rules it gives a case argument, and
    their ``#defined`` and ``#show``. None if a rule base predicate ``p/3`` stands beside
    a ``p/2`` with a case argument, a rule would define a predicate without one, or the
    rule base names a predicate of its own starting with ``ruling_``."""
    from clingo import ast

    from . import solver_many

    if (solver_many._CASE, solver_many._VAR, solver_many._UNCITED) != (_CASE, _VAR, _UNCITED):
        return None  # the names read back would not be the ones written
    rewritten = solver_many._rewrite(statements, vary)
    if rewritten is None:
        return None
    program, dependent = rewritten
    every = set(vary)
    for statement in statements:
        if statement.ast_type == ast.ASTType.Rule:
            every |= solver_many._signatures(statement.head) | solver_many._signatures(statement.body)
        elif statement.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            every.add((statement.name, statement.arity))
    if any(name.startswith("ruling_") for name, _ in every):
        return None  # a predicate of the rule base named like one the rewriting writes
    if any((name, arity + 1) in every for name, arity in dependent):
        return None  # the position's p/3 and a copy's p/2 with its case argument would mix
    rules: list[_Rule] = []
    signatures: dict[tuple[str, int], int] = {}
    declared: list[str] = []
    shows: list[tuple[str, tuple[str, int], str]] = []  # (name, signature with the case, statement)
    static_shows: set[str] = set()
    for statement in program:
        kind = statement.ast_type
        if kind == ast.ASTType.Rule and _has_case(statement):
            heads = solver_many._signatures(statement.head)
            if not {(n, a - 1) for n, a in heads} <= dependent:
                return None  # it would define, for a copy, an atom the position's step defined
            if any(_binds_case(literal) for literal in statement.body[1:]):
                # the case is bound by the literal: ruling_case(C) would only be one more join
                statement = statement.update(body=list(statement.body[1:]))
            positive = [p for p in map(_positive, statement.body) if p is not None]
            body = [b for b in solver_many._signatures(statement.body) if (b[0], b[1] - 1) in dependent]
            index = [signatures.setdefault(s, len(signatures)) for s in [*heads, *positive, *body]]
            needs = {signatures[s] for s in positive if (s[0], s[1] - 1) in dependent}
            guards = {signatures[s] for s in positive if (s[0], s[1] - 1) not in dependent}
            rules.append(_Rule(str(statement), tuple(index[:len(heads)]), tuple(sorted(needs)),
                               tuple(sorted(index[len(heads) + len(positive):])), tuple(sorted(guards))))
        elif kind == ast.ASTType.Defined and (statement.name, statement.arity - 1) in dependent:
            declared.append(str(statement))
        elif kind == ast.ASTType.ShowSignature:
            if (statement.name, statement.arity - 1) not in dependent:
                static_shows.add(statement.name)
                continue
            args = [_VAR, *(f"RulingX{k}_" for k in range(statement.arity - 1))]
            atom = f"{statement.name}({', '.join(args)})"
            shows.append((statement.name, (statement.name, statement.arity), f"#show {atom} : {atom}."))
    return _Program(tuple(rules), tuple(signatures), "\n".join(declared),
                    tuple((name, signatures.get(shown, -1), text) for name, shown, text in shows), dependent,
                    frozenset(static_shows))


def _positive(literal: ast.AST) -> tuple[str, int] | None:
    """The predicate of a positive body literal (not classically negated); None for
    any other body element."""
    from clingo import ast

    if (literal.ast_type != ast.ASTType.Literal or literal.sign != ast.Sign.NoSign
            or literal.atom.ast_type != ast.ASTType.SymbolicAtom):
        return None
    term = literal.atom.symbol
    if term.ast_type == ast.ASTType.Function and not term.external:
        return term.name, len(term.arguments)
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    return None


def _binds_case(literal: ast.AST) -> bool:
    """A positive literal whose first argument is the case variable."""
    from clingo import ast

    if (literal.ast_type != ast.ASTType.Literal or literal.sign != ast.Sign.NoSign
            or literal.atom.ast_type != ast.ASTType.SymbolicAtom):
        return False
    term = literal.atom.symbol
    return (term.ast_type == ast.ASTType.Function and bool(term.arguments)
            and term.arguments[0].ast_type == ast.ASTType.Variable and term.arguments[0].name == _VAR)


def _has_case(rule: ast.AST) -> bool:
    """The rule was given the case literal (``solver_many._rewrite`` puts it first; the
    rule base itself never writes ``ruling_case``)."""
    from clingo import ast

    if not rule.body:
        return False
    literal = rule.body[0]
    if literal.ast_type != ast.ASTType.Literal or literal.atom.ast_type != ast.ASTType.SymbolicAtom:
        return False
    term = literal.atom.symbol
    return term.ast_type == ast.ASTType.Function and term.name == _CASE
