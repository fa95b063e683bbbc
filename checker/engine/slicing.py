"""The rules of a rule base that a position's facts can fire, so that clingo is given only
those: a rule whose body needs an atom that no fact and no rule that may fire can give
never fires, and leaving it out changes no answer set. clingo sets up every rule it is
given at every ground call, firing or not (about 20 µs a rule): most of a small
position's grounding.

A rule's needs are its body's positive atoms outside aggregates and conditions (a
negated atom, an aggregate or a condition may hold with no atom at all); what it gives
is every atom written in its head. Atoms are compared by name, arity and the constants
written as their arguments (``has_skill(T, hacker, L)`` needs a ``has_skill`` with
``hacker`` second); any other argument (a variable, an operation, a term with
arguments) matches anything. Arguments are compared as ``reading`` reads them, which
takes a string for the constant of the same text and the constant ``none`` for any
argument: a match too many keeps a rule that does not fire, never the reverse. A fact
gives its atom with either sign. The rules kept are the least set closed under that:
the rules whose needs the facts and the kept rules' heads meet.

Inputs: the statements of a rule base (``clingo.ast``) and a position's facts.
Defines: ``Slicer`` (made once per rule base, kept as plain data), ``Slicer.kept`` (the
statements to give clingo for some facts), ``analyse`` (a rule base's slicer, None for
one written with statements it does not know).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import clingo

from . import reading

if TYPE_CHECKING:  # imported where used: a run that reads the slicer from the cache skips its import
    from clingo import ast

# An atom's key (its name, ``-`` first for a classically negated one, and its arity) and
# its pattern: each argument a read constant, or None for one that matches anything.
Key = tuple[str, int]
Pattern = tuple
Atom = tuple[Key, Pattern]


class Slicer:
    """What each statement of a rule base needs and gives, indexed: every part plain data
    (``data()``), for the cache folder."""

    def __init__(self, data: tuple) -> None:
        # per statement: its head's atoms; the count of distinct atoms its body needs,
        # less those the statements needing nothing meet; per key, each distinct atom
        # needed with the statements needing it; the argument places some need names;
        # what the statements needing nothing give and meet
        self.gives: list[tuple[Atom, ...]]
        self.missing: list[int]
        self.needed: dict[Key, tuple[tuple[Pattern, tuple[int, ...]], ...]]
        self.places: dict[Key, tuple[int, ...]]
        self.known: dict[Key, frozenset[Pattern]]
        self.met: frozenset[tuple[Key, int]]
        self.gives, self.missing, self.needed, self.places, self.known, self.met = data
        # per name and arity of a fact, the keys (either sign) some statement needs, with
        # their argument places
        self._wanted: dict[Key, tuple[tuple[Key, tuple[int, ...]], ...]] = {}

    def data(self) -> tuple:
        return self.gives, self.missing, self.needed, self.places, self.known, self.met

    @classmethod
    def of(cls, needs: list[tuple[Atom, ...]], gives: list[tuple[Atom, ...]], never: frozenset[int]) -> Slicer:
        """The slicer of statements that need and give these atoms (those of ``never``
        are never given to clingo)."""
        distinct = [tuple(dict.fromkeys(n)) for n in needs]
        by_key: dict[Key, dict[Pattern, list[int]]] = {}
        for i, atoms in enumerate(distinct):
            for key, pattern in atoms:
                by_key.setdefault(key, {}).setdefault(pattern, []).append(i)
        needed = {key: tuple((p, tuple(ids)) for p, ids in found.items()) for key, found in by_key.items()}
        places = {key: tuple(sorted({k for p, _ in found for k, a in enumerate(p) if a is not None}))
                  for key, found in needed.items()}
        # a count below zero is never met: a statement never given
        slicer = cls((gives, [-1 if i in never else len(n) for i, n in enumerate(distinct)], needed, places, {},
                      frozenset()))
        known: dict[Key, set[Pattern]] = {}
        met: set[tuple[Key, int]] = set()
        slicer._close([a for i, n in enumerate(distinct) if not n for a in gives[i]], slicer.missing, known, met)
        slicer.known = {key: frozenset(found) for key, found in known.items()}
        slicer.met = frozenset(met)
        return slicer

    def kept(self, facts: Iterable[clingo.Symbol]) -> list[int]:
        """The indices of the statements to give clingo with ``facts``, in order."""
        places, wanted = self.places, self._wanted
        queue: list[Atom] = []
        seen: set[tuple[Key, tuple]] = set()
        for name, row in reading.rows(facts):
            fact = (name, len(row))
            keys = wanted.get(fact)
            if keys is None:
                keys = wanted[fact] = tuple((key, places[key]) for key in (fact, ("-" + name, len(row)))
                                            if key in places)
            for key, at in keys:  # none: no rule needs it
                values = tuple(row[k] for k in at)
                if (key, values) not in seen:
                    seen.add((key, values))
                    pattern: list = [None] * key[1]
                    for k, value in zip(at, values, strict=True):
                        pattern[k] = value
                    queue.append((key, tuple(pattern)))
        missing = list(self.missing)
        self._close(queue, missing, {key: set(found) for key, found in self.known.items()}, set(self.met))
        return [i for i, count in enumerate(missing) if count == 0]

    def _close(self, queue: list[Atom], missing: list[int], known: dict[Key, set[Pattern]],
               met: set[tuple[Key, int]]) -> None:
        """Meet the needs the atoms of ``queue`` meet, and those the heads of the
        statements whose needs are all met then meet, until none is left."""
        needed, gives = self.needed, self.gives
        while queue:
            key, given = queue.pop()
            patterns = known.get(key)
            if patterns is None:
                patterns = known[key] = set()
            elif given in patterns:
                continue
            patterns.add(given)
            for k, (need, ids) in enumerate(needed.get(key, ())):
                if (key, k) in met or not _match(need, given):
                    continue
                met.add((key, k))
                for i in ids:
                    missing[i] -= 1
                    if missing[i] == 0:
                        queue.extend(gives[i])


def _match(need: Pattern, given: Pattern) -> bool:
    for a, b in zip(need, given):
        if a is not None and b is not None and a != b:
            return False
    return True


def analyse(statements: list[ast.AST]) -> Slicer | None:
    """The slicer of a rule base's statements; None if it writes a statement this
    reading does not know (``#const``, ``#external``, ``#minimize``, a script...), which
    is then always given whole."""
    from clingo import ast

    # statements that are not rules and hold no atom a rule needs: always given to
    # clingo, but for comments, never given
    always = (ast.ASTType.Program, ast.ASTType.ShowSignature, ast.ASTType.Defined, ast.ASTType.Comment)
    needs: list[tuple[Atom, ...]] = []
    gives: list[tuple[Atom, ...]] = []
    never: set[int] = set()
    for statement in statements:
        kind = statement.ast_type
        if kind in always:
            needs.append(())
            gives.append(())
            if kind == ast.ASTType.Comment:
                never.add(len(needs) - 1)
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
        needs.append(tuple(body))
        gives.append(tuple(head))
    return Slicer.of(needs, gives, frozenset(never))


def _atom(term: ast.AST, negated: bool = False) -> Atom | None:
    """The key and pattern of an atom's term (``negated``: classically, or written as a
    unary minus), None for a pool."""
    from clingo import ast

    if term.ast_type == ast.ASTType.UnaryOperation:
        negated, term = True, term.argument
    sign = "-" if negated else ""
    if term.ast_type == ast.ASTType.SymbolicTerm:
        symbol = term.symbol
        return (sign + symbol.name, len(symbol.arguments)), tuple(map(reading.value, symbol.arguments))
    if term.ast_type != ast.ASTType.Function:
        return None
    pattern = tuple(reading.value(a.symbol) if a.ast_type == ast.ASTType.SymbolicTerm else None
                    for a in term.arguments)
    return (sign + term.name, len(pattern)), pattern


def _heads(node: ast.AST, out: list[Atom]) -> bool:
    """Add every atom written in a rule's head to ``out``; False if one is not read."""
    from clingo import ast

    for atom, negated in written_atoms(node):
        found = None if atom.ast_type == ast.ASTType.TheoryAtom else _atom(atom, negated)
        if found is None:
            return False
        out.append(found)
    return True


def written_atoms(node) -> Iterator[tuple[ast.AST, bool]]:
    """Every atom written in an AST node or a list of them, with whether it is classically
    negated: each atom of a pool (``p(a; b)``) apart, as the term it is written with; a
    theory atom as itself (the atoms of its elements follow)."""
    from clingo import ast

    stack = list(node) if isinstance(node, (list, ast.ASTSequence)) else [node]
    while stack:
        item = stack.pop()
        if item.ast_type == ast.ASTType.SymbolicAtom:
            term = item.symbol
            negated = term.ast_type == ast.ASTType.UnaryOperation
            inner = term.argument if negated else term
            for atom in (inner.arguments if inner.ast_type == ast.ASTType.Pool else [inner]):
                yield atom, negated
            continue
        if item.ast_type == ast.ASTType.TheoryAtom:
            yield item, False
        for key in item.child_keys:
            child = getattr(item, key)
            for sub in (child if isinstance(child, ast.ASTSequence) else [child]):
                if isinstance(sub, ast.AST):
                    stack.append(sub)
