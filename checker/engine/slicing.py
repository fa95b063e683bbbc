"""The rules of a rule base that a position's facts can fire, so that clingo is given only
those: a rule whose body needs an atom that no fact and no rule that may fire can give
never fires, and leaving it out changes no answer set. clingo sets up every rule it is
given at every ground call, firing or not (about 20 µs a rule): most of a small
position's grounding.

A rule's needs are its body's positive atoms outside aggregates and conditions (a
negated atom, an aggregate or a condition may hold with no atom at all); what it gives
is every atom of its head. Atoms are compared by name, arity and the constants written
as their arguments (``has_skill(T, hacker, L)`` needs a ``has_skill`` with ``hacker``
second); any other argument (a variable, an operation, a term with arguments) matches
anything. The rules kept are the least set closed under that: the rules whose needs the
facts and the kept rules' heads meet.

Inputs: the statements of a rule base (``clingo.ast``) and a position's facts.
Defines: ``Slicer`` (read once per rule base), ``Slicer.kept`` (the statements to give
clingo for some facts), ``analyse`` (a rule base's slicer, None for one written with
statements it does not know).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import clingo

if TYPE_CHECKING:  # imported where used: a run that reads the slicer from the cache skips its import
    from clingo import ast

# An atom's key (its name, ``-`` first for a classically negated one, and its arity) and
# its pattern: each argument a constant's text, or None for one that matches anything.
Key = tuple[str, int]
Pattern = tuple[str | None, ...]
Atom = tuple[Key, Pattern]


@dataclass
class Slicer:
    """What each statement of a rule base needs and gives, in the rule base's order."""

    needs: list[list[Atom]]  # per statement: the atoms its body needs ([] for a statement always kept)
    gives: list[list[Atom]]  # per statement: its head's atoms
    constants: dict[Key, tuple[int, ...]] = field(init=False)  # per key: the arguments some need names
    _waiting: dict[Key, list[tuple[int, int]]] = field(init=False)  # per key: (statement, need) pairs

    def __post_init__(self) -> None:
        constants: dict[Key, set[int]] = {}
        self._waiting = {}
        for i, needs in enumerate(self.needs):
            for j, (key, pattern) in enumerate(needs):
                self._waiting.setdefault(key, []).append((i, j))
                constants.setdefault(key, set()).update(k for k, a in enumerate(pattern) if a is not None)
        self.constants = {key: tuple(sorted(found)) for key, found in constants.items()}

    def kept(self, facts: Iterable[clingo.Symbol]) -> list[int]:
        """The indices of the statements to give clingo with ``facts``, in order."""
        missing = [len(n) for n in self.needs]
        met: set[tuple[int, int]] = set()
        known: dict[Key, set[Pattern]] = {}
        queue: list[Atom] = []
        seen: set[tuple[Key, tuple]] = set()
        for symbol in facts:
            key = (symbol.name if symbol.positive else "-" + symbol.name, len(symbol.arguments))
            places = self.constants.get(key)
            if places is None:
                continue  # no rule needs it
            if places:
                arguments = symbol.arguments
                values = tuple(str(arguments[k]) for k in places)
            else:
                values = ()
            if (key, values) not in seen:
                seen.add((key, values))
                pattern: list[str | None] = [None] * key[1]
                for k, value in zip(places, values, strict=True):
                    pattern[k] = value
                queue.append((key, tuple(pattern)))
        for i, count in enumerate(missing):
            if count == 0:
                queue.extend(self.gives[i])
        while queue:
            key, given = queue.pop()
            patterns = known.setdefault(key, set())
            if given in patterns:
                continue
            patterns.add(given)
            for i, j in self._waiting.get(key, ()):
                if (i, j) in met or not _match(self.needs[i][j][1], given):
                    continue
                met.add((i, j))
                missing[i] -= 1
                if missing[i] == 0:
                    queue.extend(self.gives[i])
        return [i for i, count in enumerate(missing) if count == 0]

    def to_json(self) -> list:
        return [self.needs, self.gives]

    @classmethod
    def from_json(cls, data: list) -> Slicer:
        needs, gives = data
        return cls([[((k[0], k[1]), tuple(p)) for k, p in n] for n in needs],
                   [[((k[0], k[1]), tuple(p)) for k, p in g] for g in gives])


def _match(need: Pattern, given: Pattern) -> bool:
    return all(a is None or b is None or a == b for a, b in zip(need, given, strict=True))


def analyse(statements: list[ast.AST]) -> Slicer | None:
    """The slicer of a rule base's statements; None if it writes a statement this
    reading does not know (``#const``, ``#external``, ``#minimize``, a script...), which
    is then always given whole."""
    from clingo import ast

    # statements that are not rules and hold no atom a rule needs: always given to clingo
    kept = (ast.ASTType.Program, ast.ASTType.ShowSignature, ast.ASTType.Defined, ast.ASTType.Comment)
    needs: list[list[Atom]] = []
    gives: list[list[Atom]] = []
    for statement in statements:
        kind = statement.ast_type
        if kind in kept:
            needs.append([])
            gives.append([])
            continue
        if kind != ast.ASTType.Rule:
            return None
        head: list[Atom] = []
        if not _heads(statement.head, head):
            return None
        body: list[Atom] = []
        for literal in statement.body:
            if (literal.ast_type == ast.ASTType.Literal and literal.sign == ast.Sign.NoSign
                    and literal.atom.ast_type == ast.ASTType.SymbolicAtom):
                atom = _atom(literal.atom.symbol)
                if atom is not None:  # a pool (``p(a; b)``) needs one of its atoms: none is needed
                    body.append(atom)
        needs.append(body)
        gives.append(head)
    return Slicer(needs, gives)


def _atom(term: ast.AST) -> Atom | None:
    """The key and pattern of an atom's term, None for a pool."""
    from clingo import ast

    sign = ""
    if term.ast_type == ast.ASTType.UnaryOperation:
        sign, term = "-", term.argument
    if term.ast_type == ast.ASTType.SymbolicTerm:
        symbol = term.symbol
        return (sign + symbol.name, len(symbol.arguments)), tuple(str(a) for a in symbol.arguments)
    if term.ast_type != ast.ASTType.Function:
        return None
    pattern = tuple(str(a.symbol) if a.ast_type == ast.ASTType.SymbolicTerm else None for a in term.arguments)
    return (sign + term.name, len(pattern)), pattern


def _heads(node: ast.AST, out: list[Atom]) -> bool:
    """Add every atom written in a rule's head to ``out``; False if one is not read."""
    from clingo import ast

    stack = [node]
    while stack:
        item = stack.pop()
        if item.ast_type == ast.ASTType.TheoryAtom:
            return False
        if item.ast_type == ast.ASTType.SymbolicAtom:
            term = item.symbol
            inner = term.argument if term.ast_type == ast.ASTType.UnaryOperation else term
            sign = "-" if inner is not term else ""
            for atom in (inner.arguments if inner.ast_type == ast.ASTType.Pool else [inner]):
                found = _atom(ast.UnaryOperation(atom.location, ast.UnaryOperator.Minus, atom) if sign else atom)
                if found is None:
                    return False
                out.append(found)
            continue
        for key in item.child_keys:
            child = getattr(item, key)
            for sub in (child if isinstance(child, ast.ASTSequence) else [child]):
                if isinstance(sub, ast.AST):
                    stack.append(sub)
    return True
