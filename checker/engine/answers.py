"""Typed answers: each shown predicate a report reads, declared once as a frozen
dataclass with slots whose fields are the predicate's arguments in order, and built
from the rows of checker/engine/reading.py by ``Atoms.of``.

A declaration subclasses ``Answer``, names its predicate in the class attribute
``predicate`` and annotates its fields; its arity is the number of its fields
(``arity``). A field holding a term keeps the row's value of it: an int, a str, None
for the constant ``none``, a tuple ``(name, *args)`` for a function term (``Term``).

``Answer``'s metaclass makes each declaration a frozen dataclass with slots as
``typing.dataclass_transform`` describes it to type checkers (mypy checks each field's
name and type, and the constructor's arguments): ``__slots__`` from the annotations,
``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` and pickling shared by every
answer, assignment refused (``dataclasses.FrozenInstanceError``). It costs a class
statement: ``dataclasses.dataclass`` generates and compiles each method of each class,
which for the classes of a game took longer than a small report.

Objects are built once per answer and type, by a builder made once per arity that
sets each slot through its descriptor: ``__init__`` goes through the frozen
``__setattr__`` guard.

The predicates of asp/engine/, which every game shows, are declared here; each game
declares its own beside its report (checker/infinity/answers.py,
checker/urban_war/answers.py).

Defines: ``Answer``, ``Term``, ``arity``, ``build``, ``predicates`` and the engine's
answers ``Denied``, ``Lifted``, ``Conflict``, ``Cite``, ``ResolutionRule``, ``Gains``,
``Loses``, ``Outcome``, ``Applied``, ``StateClash``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import FrozenInstanceError
from functools import partial
from typing import Any, ClassVar, TypeAlias, TypeVar, dataclass_transform

Term: TypeAlias = int | str | tuple | None  # a clingo term as reading.py reads it

A = TypeVar("A", bound="Answer")


@dataclass_transform(frozen_default=True)
class _AnswerType(type):
    """Makes each class of answers a frozen dataclass with slots: its fields are its
    annotations less those of class variables."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _AnswerType:
        if "_fields" not in namespace:
            annotations = namespace.get("__annotations__", {})
            names = tuple(n for n, kind in annotations.items() if not str(kind).startswith(("ClassVar", "typing.ClassVar")))
            if any(getattr(base, "_fields", ()) for base in bases):
                raise TypeError(f"{name}: an answer with fields is not subclassed")
            namespace["__slots__"] = names
            namespace["_fields"] = names
        return super().__new__(mcs, name, bases, namespace)


class Answer(metaclass=_AnswerType):
    """Base of every typed answer: ``predicate`` names what it reads, ``_fields`` its
    fields in the predicate's order."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    predicate: ClassVar[str]

    def __init__(self, *values: Any, **named: Any) -> None:
        fields = self._fields
        values += tuple(named.pop(name) for name in fields[len(values):] if name in named)
        if len(values) != len(fields) or named:
            raise TypeError(f"{type(self).__name__} takes the fields {', '.join(fields)}")
        for name, value in zip(fields, values):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"

    def __reduce__(self) -> tuple:
        return type(self), self._values()


def arity(kind: type[Answer]) -> int:
    """The arity of the predicate ``kind`` reads: its number of fields."""
    return len(kind._fields)


def predicates(kinds: Iterable[type[Answer]]) -> frozenset[str]:
    """The predicate names the answer types ``kinds`` read."""
    return frozenset(kind.predicate for kind in kinds)


_BUILDERS: dict[type, Callable[[Iterable[tuple]], list]] = {}
_TEMPLATES: dict[int, Callable[..., list]] = {}  # a builder for each arity, its class and setters unbound


def build(kind: type[A], rows: Iterable[tuple]) -> list[A]:
    """One ``kind`` object per row, its fields the row's values in order."""
    builder = _BUILDERS.get(kind)
    if builder is None:
        count = arity(kind)
        template = _TEMPLATES.get(count)
        if template is None:
            template = _TEMPLATES[count] = _template(count)
        setters = [getattr(kind, name).__set__ for name in kind._fields]
        builder = _BUILDERS[kind] = partial(template, object.__new__, kind, *setters)
    return builder(rows)


def _template(count: int) -> Callable[..., list]:
    """A function ``(new, kind, *setters, rows)`` building a ``kind`` object from each
    row of ``count`` values, each value set by its slot's setter."""
    values = "".join(f"v{i}, " for i in range(count))
    setters = "".join(f"s{i}, " for i in range(count))
    sets = "".join(f"s{i}(o, v{i}); " for i in range(count))
    source = (f"def build(new, kind, {setters}rows):\n"
              f"    out = []\n"
              f"    append = out.append\n"
              f"    for {values}in rows:\n"
              f"        o = new(kind); {sets}append(o)\n"
              f"    return out\n")
    scope: dict[str, Any] = {}
    exec(source, scope)  # noqa: S102 - the source is made from the count alone
    return scope["build"]


# ---- asp/engine/verdict.lp -----------------------------------------------------------

class Denied(Answer):
    """``denied(Subject, Rule)``: the rule forbids the subject, no permission lifts it."""

    predicate = "denied"
    subject: Term
    rule: str


class Lifted(Answer):
    """``lifted(Subject, Denial, Permission)``: a permission overrides a denial."""

    predicate = "lifted"
    subject: Term
    denial: str
    permission: str


class Conflict(Answer):
    """``conflict(Subject, Permission, Denial)``: a rule permits what another forbids,
    neither overriding the other."""

    predicate = "conflict"
    subject: Term
    permission: str
    denial: str


class Cite(Answer):
    """``cite(Rule, Source, Text)``: a rule's citation."""

    predicate = "cite"
    rule: str
    source: str
    text: str


class ResolutionRule(Answer):
    """``resolution_rule(Rule)``: the rule applies at Resolution."""

    predicate = "resolution_rule"
    rule: str


# ---- asp/engine/outcome.lp -----------------------------------------------------------

class Gains(Answer):
    """``gains(Subject, State, Rule)``."""

    predicate = "gains"
    subject: Term
    state: str
    rule: str


class Loses(Answer):
    """``loses(Subject, State, Rule)``."""

    predicate = "loses"
    subject: Term
    state: str
    rule: str


class Outcome(Answer):
    """``outcome(Subject, What, Rule)``: what the rule makes of the subject."""

    predicate = "outcome"
    subject: Term
    what: Term
    rule: str


class Applied(Answer):
    """``applied(Rule, Step)``: a resolution rule used, at its step."""

    predicate = "applied"
    rule: str
    step: int


class StateClash(Answer):
    """``state_clash(Subject, State1, Rule1, State2, Rule2)``: two states that exclude
    each other, each gained by its rule."""

    predicate = "state_clash"
    subject: Term
    state1: str
    rule1: str
    state2: str
    rule2: str
