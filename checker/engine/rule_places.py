"""Where a rule id stands in a rule base, found by inferring the kind of every argument.

The engine names the arguments of its own predicates that hold a rule
(:data:`RULE_ARGUMENTS`: ``denial/2``'s second, ``rule/4``'s first, ...). A game's
predicates are read from its rules, as clingo's parser gives them: every argument place
of an atom (a predicate and a position, and the places inside a compound term there:
``guts_none/2`` 1 ``fails/1`` 0) is a node, and one statement holding the same variable,
or the same constant, at two places, or comparing two variables with ``=``, makes them
one kind (union-find). Every place of the kind of an engine rule argument holds a rule:
``outcome(T, guts_roll_fails_automatically, R) :- guts_auto_fail(T, R)`` makes
``guts_auto_fail/2``'s second argument one.

Kinds that differ are kept apart by what the rule base says of itself: an argument of an
engine predicate that :data:`RULE_ARGUMENTS` does not name (``denial/2``'s subject,
``outcome/3``'s What, ``gains/3``'s state) holds no rule, and a place holding a constant
that no citation names (``has_skill/3``'s ``lieutenant``, ``group/7``'s ``bs_attack``)
holds something else; neither joins any kind. A variable is scoped as clingo scopes it: a
variable of an aggregate element or of a condition (``p(X) : q(X)``) that the rest of the
statement does not use is that element's own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import clingo
from clingo import ast

Signature = tuple[str, int]  # a predicate's name and arity
Slot = tuple[str | int, ...]  # name, arity, position (repeated for each compound term inward)

# The engine's predicates (asp/engine/verdict.lp, asp/engine/outcome.lp) with an argument
# that is a rule, and the (0-based) positions of those arguments.
RULE_ARGUMENTS: Mapping[Signature, tuple[int, ...]] = {
    ("denial", 2): (1,), ("permission", 2): (1,), ("overrides", 2): (0, 1), ("scoped", 1): (0,),
    ("rule", 4): (0,), ("resolution_rule", 1): (0,), ("resolution_for", 2): (1,), ("denied", 2): (1,),
    ("lifted", 3): (1, 2), ("conflict", 3): (1, 2), ("cite", 3): (0,), ("uncited", 1): (0,),
    ("used_rule", 1): (0,), ("gains", 3): (2,), ("loses", 3): (2,), ("outcome", 3): (2,),
    ("resolution_phase", 2): (0,), ("applied", 2): (0,), ("unknown_step", 2): (0,),
    ("state_clash", 5): (2, 4), ("origin", 3): (2,),
}


@dataclass(frozen=True, slots=True)
class Var:
    """A variable, named with its scope (a local variable's name carries its element's number)."""

    key: str


@dataclass(frozen=True, slots=True)
class Fn:
    """A constant (no arguments) or a compound term, with the parsed term it stands in."""

    name: str
    args: tuple[Term, ...]
    node: ast.AST

    @property
    def line(self) -> int:
        """The line of the term (read from the parser only when asked: it costs)."""
        return int(self.node.location.begin.line)


@dataclass(frozen=True, slots=True)
class Pool:
    """``a;b``: each alternative stands at the same place."""

    alternatives: tuple[Term, ...]


Term = Var | Fn | Pool | None  # None: a number, a string, an arithmetic term, an interval


@dataclass
class Statement:
    """One statement's atoms and its ``=`` comparisons between variables."""

    atoms: list[Term] = field(default_factory=list)
    equal: list[tuple[str, str]] = field(default_factory=list)


class _Reader:
    """One statement read into :class:`Statement`, each variable named with its scope
    (0: the statement's; a number for each aggregate element or condition)."""

    def __init__(self) -> None:
        self.out = Statement()
        self.scopes: dict[str, set[int]] = {}
        self.count = 0

    def node(self, node: ast.AST, scope: int) -> None:
        kind = node.ast_type
        if kind == T.Literal:
            self.node(node.atom, scope)
        elif kind == T.SymbolicAtom:
            self.out.atoms.append(self.term(node.symbol, scope))
        elif kind == T.Comparison:
            left = self.term(node.term, scope)
            for guard in node.guards:
                right = self.term(guard.term, scope)
                if guard.comparison == EQUAL and isinstance(left, Var) and isinstance(right, Var):
                    self.out.equal.append((left.key, right.key))
                left = right
        elif kind == T.Rule:
            self.node(node.head, scope)
            for literal in node.body:
                self.node(literal, scope)
        elif kind == T.ConditionalLiteral:
            condition = node.condition
            if len(condition):
                self.count += 1
                scope = self.count
            self.node(node.literal, scope)
            for literal in condition:
                self.node(literal, scope)
        elif kind in (T.BodyAggregateElement, T.HeadAggregateElement):
            self.count += 1
            scope = self.count
            for term in node.terms:
                self.term(term, scope)
            condition = node.condition  # a head element's: its literal and its condition
            if isinstance(condition, ast.AST):
                self.node(condition.literal, scope)
                condition = condition.condition
            for literal in condition:
                self.node(literal, scope)
        elif kind == T.Guard:
            self.term(node.term, scope)
        elif kind in (T.BodyAggregate, T.Aggregate, T.HeadAggregate, T.Disjunction):
            for key in ("left_guard", "right_guard"):
                if key in node.child_keys and (guard := getattr(node, key)) is not None:
                    self.node(guard, scope)
            for element in node.elements:
                self.node(element, scope)
        elif kind not in _LEAVES:
            for key in node.child_keys:
                child = getattr(node, key)
                if isinstance(child, ast.AST):
                    self.node(child, scope)
                elif child is not None and not isinstance(child, (str, int)):
                    for item in child:
                        if isinstance(item, ast.AST):
                            self.node(item, scope)

    def term(self, node: ast.AST, scope: int) -> Term:
        kind = node.ast_type
        if kind == T.Variable:
            name = node.name
            if name == "_":
                return None
            self.scopes.setdefault(name, set()).add(scope)
            return Var(f"{name}#{scope}")
        if kind == T.SymbolicTerm:
            return _symbol(node.symbol, node)
        if kind == T.Function:
            name = node.name
            return Fn(name, tuple(self.term(a, scope) for a in node.arguments), node) if name else None
        if kind == T.Pool:
            return Pool(tuple(self.term(a, scope) for a in node.arguments))
        if kind == T.UnaryOperation and node.operator_type == ast.UnaryOperator.Minus:
            inner = self.term(node.argument, scope)  # a classically negated atom: its kind is the atom's
            return Fn(f"-{inner.name}", inner.args, inner.node) if isinstance(inner, Fn) else None
        if kind in (T.BinaryOperation, T.Interval):  # its variables are scoped, at no place
            for key in node.child_keys:
                self.term(getattr(node, key), scope)
        return None


T = ast.ASTType
EQUAL = ast.ComparisonOperator.Equal
_LEAVES = (T.Comment, T.Program, T.ShowSignature, T.Defined, T.BooleanConstant)


def summarize(stm: ast.AST) -> Statement:
    """The atoms and variable equalities of ``stm``, each variable named by its scope: a
    variable of an aggregate element or a condition that the rest of ``stm`` does not use
    is that element's own."""
    reader = _Reader()
    reader.node(stm, 0)
    local = {name for name, where in reader.scopes.items() if 0 not in where}

    def key(raw: str) -> str:
        name = raw.partition("#")[0]
        return raw if name in local else name

    def rename(term: Term) -> Term:
        if isinstance(term, Var):
            return Var(key(term.key))
        if isinstance(term, Fn):
            return Fn(term.name, tuple(rename(a) for a in term.args), term.node) if term.args else term
        if isinstance(term, Pool):
            return Pool(tuple(rename(a) for a in term.alternatives))
        return None

    raw = reader.out
    return Statement([rename(a) for a in raw.atoms], [(key(a), key(b)) for a, b in raw.equal])


def _symbol(symbol: clingo.Symbol, node: ast.AST) -> Term:
    if symbol.type == clingo.SymbolType.Function and symbol.name:
        return Fn(symbol.name, tuple(_symbol(a, node) for a in symbol.arguments), node)
    return None


def occurrences(term: Term, slot: Slot = ()) -> Iterator[tuple[Slot, Term]]:
    """Every argument place under an atom's ``term``, each with the term standing there
    (each alternative of a pool at the pool's place); the atom itself has none."""
    if isinstance(term, Pool):
        for alternative in term.alternatives:
            yield from occurrences(alternative, slot)
        return
    if slot and term is not None:
        yield slot, term
    if isinstance(term, Fn):
        for position, arg in enumerate(term.args):
            yield from occurrences(arg, (*slot, term.name, len(term.args), position))


class _Kinds:
    """Union-find over places and variables."""

    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def find(self, x: object) -> object:
        parent = self.parent.setdefault(x, x)
        while parent != x:
            grand = self.parent[parent]
            self.parent[x] = grand
            x, parent = parent, grand
        return x

    def join(self, a: object, b: object) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def rule_slots(statements: Sequence[Statement], cited: Collection[str], known: Collection[Slot] = (),
               roots: Mapping[Signature, Iterable[int]] = RULE_ARGUMENTS) -> frozenset[Slot]:
    """Every argument place of ``statements`` of the kind of a place in ``roots``.

    An argument of a ``roots`` predicate that ``roots`` does not name holds no rule, and a
    place holding a constant that ``cited`` lacks holds something other than rules (a skill,
    a state): neither joins a kind. So an argument holding a rule in some atoms and a skill
    in others (``group/7``'s third), or a skill tested with a rule's variable
    (``has_skill(A, R, _)``), makes no skill a rule.

    Parameters
    ----------
    statements
        The rule base, each statement read by :func:`summarize`.
    cited
        Every rule id the rule base cites.
    known
        Places known to hold a rule besides those of ``roots`` (found by another rule set
        loading the same file).
    roots
        The places known to hold a rule: predicate, and positions.

    Returns
    -------
    frozenset of Slot
        The places holding a rule: ``("mod", 3, 1)``, and ``(name, arity, position, ...)``
        further inward for a place inside a compound term.
    """
    found = [[(slot, term) for atom in stm.atoms for slot, term in occurrences(atom)] for stm in statements]
    root_slots: set[Slot] = {(name, arity, p) for (name, arity), positions in roots.items() for p in positions}
    barred: set[Slot] = {slot for places in found for slot, _ in places
              if len(slot) == 3 and (slot[0], slot[1]) in roots and slot not in root_slots}
    root_slots |= set(known)
    barred |= {slot for places in found for slot, term in places
               if isinstance(term, Fn) and not term.args and term.name not in cited and slot not in root_slots}
    kinds = _Kinds()
    for index, (stm, places) in enumerate(zip(statements, found)):
        for slot, term in places:
            if slot in barred:
                continue
            if isinstance(term, Var):
                kinds.join((index, term.key), slot)
            elif isinstance(term, Fn) and not term.args:
                kinds.join((index, "", term.name), slot)
        for a, b in stm.equal:
            kinds.join((index, a), (index, b))
    rooted = {kinds.find(slot) for slot in root_slots}
    return frozenset(slot for places in found for slot, _ in places
                     if slot not in barred and kinds.find(slot) in rooted)
