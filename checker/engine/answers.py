"""Typed answers: each shown predicate a report reads, declared once as a frozen
dataclass with slots whose fields are the predicate's arguments in order, and built
from the rows of checker/engine/reading.py by ``Atoms.of``.

A declaration names its predicate in the class attribute ``predicate``; its arity is
the number of its fields (``arity``). A field holding a term keeps the row's value of
it: an int, a str, None for the constant ``none``, a tuple ``(name, *args)`` for a
function term (typed ``Term``).

Objects are built once per answer and type, by a builder made once per type that sets
each slot through its descriptor: a frozen dataclass's ``__init__`` sets each field
through ``object.__setattr__``, about twice as slow.

The predicates of asp/engine/, which every game shows, are declared here; each game
declares its own beside its report (checker/infinity/answers.py,
checker/urban_war/answers.py).

Defines: ``Answer``, ``Term``, ``arity``, ``build``, ``predicates`` and the engine's
answers ``Denied``, ``Lifted``, ``Conflict``, ``Cite``, ``ResolutionRule``, ``Gains``,
``Loses``, ``Outcome``, ``Applied``, ``StateClash``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, is_dataclass
from typing import ClassVar, TypeAlias, TypeVar

Term: TypeAlias = int | str | tuple | None  # a clingo term as reading.py reads it

A = TypeVar("A", bound="Answer")


class Answer:
    """Base of every typed answer: a frozen dataclass (slots) declaring ``predicate``."""

    __slots__ = ()
    predicate: ClassVar[str]


def arity(kind: type[Answer]) -> int:
    """The arity of the predicate ``kind`` reads: its number of fields."""
    return len(fields(kind))  # type: ignore[arg-type]


def predicates(kinds: Iterable[type[Answer]]) -> frozenset[str]:
    """The predicate names the answer types ``kinds`` read."""
    return frozenset(kind.predicate for kind in kinds)


_BUILDERS: dict[type, Callable[[Iterable[tuple]], list]] = {}


def build(kind: type[A], rows: Iterable[tuple]) -> list[A]:
    """One ``kind`` object per row, its fields the row's values in order."""
    builder = _BUILDERS.get(kind)
    if builder is None:
        builder = _BUILDERS[kind] = _builder(kind)
    return builder(rows)


def _builder(kind: type[Answer]) -> Callable[[Iterable[tuple]], list]:
    """A function building ``kind`` objects from rows: each slot set by its descriptor."""
    if not is_dataclass(kind) or "__slots__" not in vars(kind):
        raise TypeError(f"{kind.__name__} is not a dataclass with slots")
    names = [f.name for f in fields(kind)]
    if not names:
        new = object.__new__
        return lambda rows: [new(kind) for _ in rows]
    setters = {f"s_{name}": getattr(kind, name).__set__ for name in names}
    values = ", ".join(f"f_{name}" for name in names) + ","
    sets = "; ".join(f"s_{name}(o, f_{name})" for name in names)
    source = (
        f"def build(rows, _new_=_new_, _cls_=_cls_, {', '.join(f'{s}={s}' for s in setters)}):\n"
        f"    out = []\n"
        f"    append = out.append\n"
        f"    for {values} in rows:\n"
        f"        o = _new_(_cls_); {sets}; append(o)\n"
        f"    return out\n"
    )
    scope: dict = {"_new_": object.__new__, "_cls_": kind, **setters}
    exec(source, scope)  # noqa: S102 - the source is made from the field names above
    return scope["build"]


# ---- asp/engine/verdict.lp -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Denied(Answer):
    """``denied(Subject, Rule)``: the rule forbids the subject, no permission lifts it."""

    predicate: ClassVar[str] = "denied"
    subject: Term
    rule: str


@dataclass(frozen=True, slots=True)
class Lifted(Answer):
    """``lifted(Subject, Denial, Permission)``: a permission overrides a denial."""

    predicate: ClassVar[str] = "lifted"
    subject: Term
    denial: str
    permission: str


@dataclass(frozen=True, slots=True)
class Conflict(Answer):
    """``conflict(Subject, Permission, Denial)``: a rule permits what another forbids,
    neither overriding the other."""

    predicate: ClassVar[str] = "conflict"
    subject: Term
    permission: str
    denial: str


@dataclass(frozen=True, slots=True)
class Cite(Answer):
    """``cite(Rule, Source, Text)``: a rule's citation."""

    predicate: ClassVar[str] = "cite"
    rule: str
    source: str
    text: str


@dataclass(frozen=True, slots=True)
class ResolutionRule(Answer):
    """``resolution_rule(Rule)``: the rule applies at Resolution."""

    predicate: ClassVar[str] = "resolution_rule"
    rule: str


# ---- asp/engine/outcome.lp -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Gains(Answer):
    """``gains(Subject, State, Rule)``."""

    predicate: ClassVar[str] = "gains"
    subject: Term
    state: str
    rule: str


@dataclass(frozen=True, slots=True)
class Loses(Answer):
    """``loses(Subject, State, Rule)``."""

    predicate: ClassVar[str] = "loses"
    subject: Term
    state: str
    rule: str


@dataclass(frozen=True, slots=True)
class Outcome(Answer):
    """``outcome(Subject, What, Rule)``: what the rule makes of the subject."""

    predicate: ClassVar[str] = "outcome"
    subject: Term
    what: Term
    rule: str


@dataclass(frozen=True, slots=True)
class Applied(Answer):
    """``applied(Rule, Step)``: a resolution rule used, at its step."""

    predicate: ClassVar[str] = "applied"
    rule: str
    step: int


@dataclass(frozen=True, slots=True)
class StateClash(Answer):
    """``state_clash(Subject, State1, Rule1, State2, Rule2)``: two states that exclude
    each other, each gained by its rule."""

    predicate: ClassVar[str] = "state_clash"
    subject: Term
    state1: str
    rule1: str
    state2: str
    rule2: str
