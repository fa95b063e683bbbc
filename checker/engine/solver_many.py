"""Solve many positions of one edition in one clingo program, each with the answer it
has alone (``solver.solve``).

The rule base is rewritten (once per rule base, kept in the user's cache folder under
a digest of the rule files' content): every predicate that depends on a position's
facts (transitively, through any rule) gets a first argument, the case, and every rule
using one gets the body literal ``ruling_case(C)``; rules over the rule base's own
tables stay as written, so they are grounded once for all the cases instead of once
per case. Cases are independent (no rule joins two of them: ``C`` is in every atom of
a rewritten rule), so each case's shown atoms are the ones it has alone; the atoms of
a shown predicate no position touches belong to every case. Their order may differ
from a run alone: the reports sort every list they output.

Inputs: the parsed statements of an edition's rule base (``solver._statements``).
Defines: ``solve_many``, ``solve_each`` (falls back to one position at a time),
``prefetch`` (answers kept for ``solver.solve``), ``prepare``.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import clingo
from clingo import ast

from . import reading, slicing, solver
from .resources import cache_dir, store_cache

_CASE = "ruling_case"  # the predicate naming the cases, and the variable holding one
_VAR = "RulingCase_"
_UNCITED = "uncited"  # the rules used without a citation (solver.checked)


def solve_many(edition: str, facts: list[list[clingo.Symbol]], seconds: float | None = None,
               show: frozenset[str] | None = None) -> list[solver.Atoms] | None:
    """The shown atoms of each position's answer set, as ``solver.solve`` gives them
    alone, or None when the positions cannot be solved together (the program fails,
    has no answer set or takes longer than ``seconds``: each then runs alone, meeting
    its own error). With ``show``, only the shown predicates of those names (and
    ``uncited``, which every answer is checked against): a caller that reads a few
    predicates of many positions does not pay for reading the others."""
    seconds = solver.SOLVE_SECONDS if seconds is None else seconds
    shared = _shared(facts)
    parts = [[_parts(s) for s in case if s not in shared] for case in facts]
    common = [_parts(s) for s in shared]
    inputs = frozenset((name, len(arguments)) for case in [*parts, common] for name, arguments, _ in case)
    program = _program(edition, inputs)
    if program is None:
        return None
    statements, dependent = program
    ctl = clingo.Control(["--models=1"], logger=lambda _code, _msg: None, message_limit=0)
    start = time.perf_counter()
    try:
        with ast.ProgramBuilder(ctl) as builder:
            for statement, shows in _shows(statements):
                if show is None or shows is None or shows in show or shows == _UNCITED:
                    builder.add(statement)
            for statement in _sharing(frozenset((name, len(arguments)) for name, arguments, _ in common)):
                builder.add(statement)
        with ctl.backend() as backend:
            for name, arguments, _ in common:
                backend.add_rule([backend.add_atom(clingo.Function(_SHARED + name, arguments))])
            for i, case in enumerate(facts):
                number = clingo.Number(i)
                backend.add_rule([backend.add_atom(clingo.Function(_CASE, [number]))])
                for name, arguments, positive in parts[i]:
                    backend.add_rule([backend.add_atom(clingo.Function(name, [number, *arguments], positive))])
        ctl.ground([("base", [])])
        ground = time.perf_counter() - start
        start = time.perf_counter()
        shown: list[clingo.Symbol] = []
        with ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)), async_=True) as handle:
            if not handle.wait(seconds):
                handle.cancel()
                return None
            result = handle.get()
    except RuntimeError:
        return None
    if not result.satisfiable:
        return None
    timings = {"ground": ground / len(facts), "solve": (time.perf_counter() - start) / len(facts)}
    return _per_case(shown, _case_names(statements, dependent), len(facts), timings)


def _shared(facts: list[list[clingo.Symbol]]) -> frozenset[clingo.Symbol]:
    """The positive facts every position has (copies of one position, as ``ruling odds``
    solves them, share nearly all): each is added once, without a case, and a rule of
    ``_sharing`` gives it to every case, so the grounder makes the copies, not Python."""
    if len(facts) < 2:
        return frozenset()
    common = set(facts[0])
    for case in facts[1:]:
        common.intersection_update(case)
    return frozenset(s for s in common if _parts(s)[2])


_SHARED = "ruling_shared_"  # the prefix of a shared fact's predicate
_shares: dict[frozenset[tuple[str, int]], list[ast.AST]] = {}


def _sharing(signatures: frozenset[tuple[str, int]]) -> list[ast.AST]:
    """``name(Case, X1, ..., Xn) :- ruling_case(Case), ruling_shared_name(X1, ..., Xn).``
    for each shared fact's signature."""
    found = _shares.get(signatures)
    if found is None:
        text = []
        for name, arity in sorted(signatures):
            args = [f"RulingX{k}_" for k in range(arity)]
            shared = f"{_SHARED}{name}({', '.join(args)})" if args else f"{_SHARED}{name}"
            text.append(f"{name}({', '.join([_VAR, *args])}) :- {_CASE}({_VAR}), {shared}.")
        found = []
        ast.parse_string("\n".join(text), found.append)
        found = _shares[signatures] = [s for s in found if s.ast_type != ast.ASTType.Program]
    return found


# Each fact's name, arguments and sign, read once per process: the positions solved
# together share most of their facts (facts.py makes each symbol once), and reading a
# symbol's parts costs C calls. Bounded: cleared when full.
_PARTS: dict[clingo.Symbol, tuple[str, list[clingo.Symbol], bool]] = {}
_PARTS_MAX = 200_000


def _parts(symbol: clingo.Symbol) -> tuple[str, list[clingo.Symbol], bool]:
    found = _PARTS.get(symbol)
    if found is None:
        if len(_PARTS) >= _PARTS_MAX:
            _PARTS.clear()
        found = _PARTS[symbol] = (symbol.name, symbol.arguments, symbol.positive)
    return found


def _per_case(shown: list[clingo.Symbol], case_names: frozenset[str], count: int,
              timings: dict[str, float]) -> list[solver.Atoms]:
    """Each case's shown atoms, read as ``solver.solve`` reads them, less the case
    argument (a number, first). ``case_names``: the shown predicates that have one."""
    return [solver.Atoms(by_name, dict(timings)) for by_name in reading.read_cases(shown, case_names, count)]


_names: dict[int, tuple[list[ast.AST], frozenset[str]]] = {}
_show_names: dict[int, tuple[list[ast.AST], list[tuple[ast.AST, str | None]]]] = {}


def _shows(statements: list[ast.AST]) -> list[tuple[ast.AST, str | None]]:
    """Each statement with the name it shows (None for a statement that is not a
    ``#show``), read once per program: an AST attribute costs C calls."""
    found = _show_names.get(id(statements))
    if found is None or found[0] is not statements:
        named = [(s, s.name if s.ast_type == ast.ASTType.ShowSignature else None) for s in statements]
        found = _show_names[id(statements)] = (statements, named)
    return found[1]


def _case_names(statements: list[ast.AST], dependent: frozenset[tuple[str, int]]) -> frozenset[str]:
    """The names of the shown predicates given a case argument (``_rewrite`` refuses a
    name shown both with and without one)."""
    found = _names.get(id(statements))
    if found is None or found[0] is not statements:
        names = frozenset(s.name for s in statements if s.ast_type == ast.ASTType.ShowSignature
                          and (s.name, s.arity - 1) in dependent)
        found = _names[id(statements)] = (statements, names)
    return found[1]


# Bump when the rewriting changes: a cached program of another version is not read.
_VERSION = 3
_programs: dict[tuple, tuple[list[ast.AST], frozenset] | None] = {}


def _program(edition: str, inputs: frozenset[tuple[str, int]]) -> tuple[list[ast.AST], frozenset] | None:
    """The rule base with a case argument on every predicate depending on a position's
    facts, and those predicates' signatures (without the case); None if the rule base
    writes something this rewriting does not know.

    The inputs are the predicates the rule base reads and never derives (and those it
    declares ``#defined``), with any other the positions write (``inputs``). The
    rewritten program is kept in this process and, as text, in the user's cache folder,
    under a digest of every rule file's content: rewriting takes over a second, reading
    the text back as long as loading the rule base.
    """
    entry = str(solver.entry_file(edition))
    statements = solver._statements(edition, entry)
    key = (entry, solver._parsed[entry][0])
    if key not in _programs:
        _programs.clear()  # the rule base changed: its programs are stale
        _programs[key] = _cached(edition, entry, statements)
    found = _programs[key]
    if found is None or inputs <= found[1]:
        return found
    wider = (*key, inputs)  # a position writes a predicate the rule base also derives
    if wider not in _programs:
        _programs[wider] = _rewrite(statements, _static_inputs(statements) | inputs)
    return _programs[wider]


def _static_inputs(statements: list[ast.AST]) -> frozenset[tuple[str, int]]:
    """The predicates the rule base reads and never derives, and those it declares
    ``#defined``."""
    heads: set = set()
    bodies: set = set()
    defined: set = set()
    for statement in statements:
        if statement.ast_type == ast.ASTType.Rule:
            heads |= _signatures(statement.head)
            bodies |= _signatures(statement.body)
        elif statement.ast_type == ast.ASTType.Defined:
            defined.add((statement.name, statement.arity))
    return frozenset((bodies - heads) | defined)


def _cached(edition: str, entry: str, statements: list[ast.AST]) -> tuple[list[ast.AST], frozenset] | None:
    """The rewritten rule base, from the cache folder when a process wrote it for the
    same rule files, else rewritten and written there."""
    digest = hashlib.sha256(f"{_VERSION} {edition}".encode())
    for path in sorted(p for p, *_ in solver._parsed[entry][0]):
        digest.update(path.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    file = cache_dir() / f"{edition}-{digest.hexdigest()[:32]}.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        program: list[ast.AST] = []
        ast.parse_string(data["program"], program.append, logger=lambda _code, _msg: None)
        return program, frozenset((name, arity) for name, arity in data["dependent"])
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        pass
    rewritten = _rewrite(statements, _static_inputs(statements))
    if rewritten is not None:
        text = "\n".join(str(s) for s in rewritten[0])
        data = json.dumps({"dependent": sorted(rewritten[1]), "program": text}).encode("utf-8")
        store_cache(file, data, f"{edition}-*.json")
    return rewritten


def _rewrite(statements: list[ast.AST], inputs: frozenset[tuple[str, int]]) -> tuple[list[ast.AST], frozenset] | None:
    rules = []
    for statement in statements:
        kind = statement.ast_type
        if kind == ast.ASTType.Rule:
            rules.append((_signatures(statement.head), _signatures(statement.body)))
        elif kind not in (ast.ASTType.Program, ast.ASTType.ShowSignature, ast.ASTType.Defined,
                          ast.ASTType.Comment):
            return None  # #show terms, #external, #minimize...: not in the rule base today
    dependent = set(inputs)
    changed = True
    while changed:
        changed = False
        for head, body in rules:
            if body & dependent and not head <= dependent:
                dependent |= head
                changed = True
    frozen = frozenset(dependent)
    every = {s for head, body in rules for s in head | body} | set(inputs)
    if any((name, arity + 1) in every - frozen for name, arity in frozen) or any(name == _CASE for name, _ in every):
        return None  # p/2 depending on a position and p/3 not: the case argument would mix them
    shown = [(s.name, s.arity) for s in statements if s.ast_type == ast.ASTType.ShowSignature]
    if {n for n, a in shown if (n, a) in frozen} & {n for n, a in shown if (n, a) not in frozen}:
        return None  # a name shown with a case argument and without: the atoms could not be told apart
    out: list[ast.AST] = []
    adder = _AddCase(frozen)
    for statement in statements:
        kind = statement.ast_type
        if kind == ast.ASTType.Rule:
            sigs = _signatures(statement.head) | _signatures(statement.body)
            if sigs & frozen:
                statement = adder(statement)
                loc = statement.location
                case = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
                    ast.Function(loc, _CASE, [ast.Variable(loc, _VAR)], 0)))
                statement = statement.update(body=[case, *statement.body])
        elif (kind in (ast.ASTType.ShowSignature, ast.ASTType.Defined)
              and (statement.name, statement.arity) in frozen):
            statement = statement.update(arity=statement.arity + 1)
        out.append(statement)
    return out, frozen


def _signatures(node) -> set[tuple[str, int]]:
    """Every predicate ``name/arity`` written in an AST node or a list of them."""
    found: set[tuple[str, int]] = set()
    for atom, _ in slicing.written_atoms(node):
        if atom.ast_type == ast.ASTType.Function:
            found.add((atom.name, len(atom.arguments)))
        elif atom.ast_type == ast.ASTType.SymbolicTerm:
            found.add((atom.symbol.name, 0))
    return found


class _AddCase(ast.Transformer):
    """Adds the case variable as first argument to every atom of a dependent predicate."""

    def __init__(self, dependent: frozenset[tuple[str, int]]):
        self.dependent = dependent

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
        term = node.symbol
        negated = term.ast_type == ast.ASTType.UnaryOperation
        inner = term.argument if negated else term
        if inner.ast_type == ast.ASTType.Pool:  # ``p(a; b)``: each atom of the pool
            inner = inner.update(arguments=[self._atom(a) for a in inner.arguments])
        else:
            inner = self._atom(inner)
        return node.update(symbol=term.update(argument=inner) if negated else inner)

    def _atom(self, term: ast.AST) -> ast.AST:
        inner = term
        if inner.ast_type == ast.ASTType.SymbolicTerm:
            inner = ast.Function(inner.location, inner.symbol.name, [], 0)
        if inner.ast_type != ast.ASTType.Function or (inner.name, len(inner.arguments)) not in self.dependent:
            return term
        return inner.update(arguments=[ast.Variable(inner.location, _VAR), *inner.arguments])


def prepare(edition: str) -> None:
    """Rewrite the edition's rule base for many positions now (before forking workers)."""
    _program(edition, frozenset())


def solve_each(edition: str, facts: list[list[clingo.Symbol]],
               show: frozenset[str] | None = None) -> list[solver.Atoms]:
    """``[solver.solve(edition, f) for f in facts]``, the positions grounded together
    when they can be (each still raising its own error, alone, when they cannot).
    With ``show``, the answers grounded together hold only those predicates (see
    :func:`solve_many`); one solved alone holds them all.

    Raises
    ------
    SolveTimeout, RuleBaseError
        As ``solver.solve``, for the first position that meets one.
    """
    together = solve_many(edition, facts, show=show) if len(facts) > 1 else None
    if together is None:
        return [solver.solve(edition, f) for f in facts]
    return [solver.checked(edition, atoms) for atoms in together]


def prefetch(edition: str, facts: list[list[clingo.Symbol]]) -> None:
    """Solve the positions together now; each later ``solver.solve`` of one of them
    (same edition, same facts) takes its answer instead of grounding it alone."""
    together = solve_many(edition, facts) if len(facts) > 1 else None
    for case, atoms in zip(facts, together or (), strict=False):
        solver.remember(edition, case, atoms)
