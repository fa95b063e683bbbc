"""Run the rule base on a position's facts. With facts.py and rulebook.py (which only
parses the rule base), the only module that knows clingo."""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import clingo
from clingo import ast

from .errors import RuleBaseError, SolveTimeout
from .resources import asp_dir, editions

# Solving is bounded (grounding cannot be interrupted: the ranges of the numbers a
# position may write, checker.position.RANGES, keep it small). A position of two full
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


def entry_file(edition: str):
    """The ``asp/<edition>.lp`` file that ``#include``s the whole rule base of an edition."""
    return asp_dir() / f"{edition}.lp"


def solve(edition: str, facts: list[clingo.Symbol], seconds: float | None = None) -> Atoms:
    """Ground and solve the edition's rule base with ``facts``, for at most ``seconds``
    of solving (default ``SOLVE_SECONDS``).

    Raises
    ------
    SolveTimeout
        If solving takes longer.
    RuleBaseError
        If clingo fails, the program has no answer set, or a rule is used without a
        citation for this edition.
    """
    seconds = SOLVE_SECONDS if seconds is None else seconds
    messages: list[str] = []
    timings: dict[str, float] = {}
    ctl = clingo.Control(
        ["--models=1"], logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20
    )
    start = time.perf_counter()
    try:
        ctl.load(str(entry_file(edition)))
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
    atoms = _group(shown)
    if atoms.get("uncited"):
        names = ", ".join(sorted(str(a[0]) for a in atoms.get("uncited")))
        raise RuleBaseError(f"rules used without a citation for {edition}: {names}")
    ground = int(ctl.statistics["problem"]["lpStep"]["atoms"])
    return Atoms(atoms.by_name, timings, ground)


def _group(symbols: list[clingo.Symbol]) -> Atoms:
    # One C call per atom (str) and a Python tokenizer: much faster than walking
    # every argument through the clingo API.
    by_name: dict[str, list[tuple]] = defaultdict(list)
    for symbol in symbols:
        name, args = _parse_term(str(symbol))
        by_name[name].append(args)
    return Atoms(dict(by_name))


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
        if node.ast_type == ast.ASTType.Rule:
            self.rule += 1
            self._walk(node)

    def _walk(self, node: ast.AST) -> None:
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
