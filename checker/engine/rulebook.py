"""The rule book: each rule id of an edition, its citation, and the statements using it.

Built from the rule base files themselves: the entry file ``asp/<edition>.lp`` and every
file it ``#include``s, read by clingo's parser (``clingo.ast.parse_files``), which follows
the includes as the solver does and gives every statement and term its line. A rule's
citation is its ``rule(Id, Edition, Source, Text)`` fact, wherever it stands; its uses
are the atoms (head or body) holding ``Id`` as a constant where a rule id stands, each
given by the line where the id stands. Where a rule id stands is inferred from the rules
(``rule_places.py``): the engine's own predicates name their rule arguments
(:data:`RULE_ARGUMENTS`: ``denial/2``, ``outcome/3``...), and a game's argument is one
when its rules pass it to or from one (``mod/3``'s second, ``pending/3``'s third). A
constant spelled like a rule id elsewhere is another thing's id (``has_skill(A, stealth,
_)`` names a skill), not a use. Comments are not statements and strings are not
constants, so an id named in a comment or a rule's text is not a use either.

With ``facts.py``, ``solver.py`` and ``rule_places.py``, a module that imports clingo; it
parses and never grounds or solves. Paths are relative to the folder holding ``asp/``
(``asp/infinity/core/templates.lp``), in a source checkout and in the installed package alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo
from clingo import ast

from .errors import RuleBaseError, RulingError
from .resources import asp_dir, rule_sets
from .rule_places import (
    RULE_ARGUMENTS,
    Fn,
    Slot,
    Statement,
    occurrences,
    rule_slots,
    summarize,
)

__all__ = ["RULE_ARGUMENTS", "Place", "Rule", "Rulebook", "UnknownRuleError", "load", "select"]

CITATION = "rule"  # the predicate of a citation: rule(Id, Edition, Source, Text)

@dataclass(frozen=True, order=True)
class Place:
    """A line of a rule base file; ``file`` is relative to the folder holding ``asp/``."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line}


@dataclass(frozen=True)
class Rule:
    """One citation of a rule id in an edition, and every statement using that id."""

    id: str
    edition: str
    source: str
    text: str
    cited_at: Place
    used_at: tuple[Place, ...]

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "edition": self.edition,
            "source": self.source,
            "text": self.text,
            "cited_at": self.cited_at.to_dict(),
            "used_at": [p.to_dict() for p in self.used_at],
        }

    def line(self) -> str:
        """One line: id, edition, where it is cited, its source."""
        return f"[{self.id}] {self.edition.upper()} {self.cited_at}: {self.source}"

    def describe(self) -> str:
        """Several lines: the citation, then one line per statement using the rule."""
        lines = [
            f"[{self.id}] {self.edition.upper()}",
            f"  source: {self.source}",
            f"  text:   {self.text}",
            f"  cited:  {self.cited_at}",
        ]
        uses = [str(p) for p in self.used_at] or ["(no statement uses it)"]
        lines.append(f"  used:   {uses[0]}")
        lines += [f"          {u}" for u in uses[1:]]
        return "\n".join(lines)


@dataclass(frozen=True)
class Rulebook:
    """Every citation an edition's rule base holds, in the order clingo reads them."""

    edition: str
    files: tuple[str, ...]  # every file the edition loads, the entry file first
    citations: tuple[Rule, ...]  # a rule cited twice is here twice
    places: frozenset[Slot]  # every argument place holding a rule (rule_places.rule_slots)

    def rule(self, rule_id: str) -> Rule | None:
        """The (first) citation of ``rule_id``, or None."""
        return next((r for r in self.citations if r.id == rule_id), None)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every rule id cited, once each, sorted."""
        return tuple(sorted({r.id for r in self.citations}))


class UnknownRuleError(RulingError):
    """A rule id no edition asked for cites."""

    kind = "unknown-rule"

    def __init__(self, rule_id: str, editions: Sequence[str], suggestions: Sequence[str],
                 elsewhere: Sequence[str] = ()):
        where = "/".join(e.upper() for e in editions)
        message = f"unknown {where} rule '{rule_id}'"
        if elsewhere:
            others = ", ".join(e.upper() for e in elsewhere)
            message += f" (it is cited in {others}: add --edition {elsewhere[0]})"
        elif suggestions:
            message += f" (did you mean {' or '.join(suggestions)}?)"
        else:
            message += " ('ruling rules' lists every rule)"
        super().__init__(message)
        self.rule_id = rule_id
        self.suggestions = tuple(suggestions)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "rule": self.rule_id, "suggestions": list(self.suggestions)}


@cache
def load(edition: str) -> Rulebook:
    """The rule book of ``edition``, read from ``asp/<edition>.lp`` and its includes.

    Raises
    ------
    RuleBaseError
        If the entry file is missing or clingo cannot parse the rule base.
    """
    read = _read(edition)
    places = _places()[edition]
    mentions: dict[str, list[Place]] = {}
    for file, stm in read.statements:
        first: dict[str, int] = {}
        for atom in stm.atoms:
            for slot, term in occurrences(atom):
                if isinstance(term, Fn) and not term.args and slot in places and term.name not in first:
                    first[term.name] = term.line
        for name, line in first.items():
            mentions.setdefault(name, []).append(Place(file, line))
    rules = tuple(
        Rule(rid, ed, source, text, place, tuple(mentions.get(rid, ())))
        for rid, ed, source, text, place in read.cited
    )
    return Rulebook(edition, read.files, rules, places)


def cache_clear() -> None:
    """Forget every rule base read (for a process whose rule base files change)."""
    for cached in (load, _read, _places):
        cached.cache_clear()
    _SUMMARIES.clear()


@dataclass(frozen=True)
class _Read:
    """A rule set's files, its citations, and every other statement read by
    :func:`rule_places.summarize`, with its file."""

    files: tuple[str, ...]
    cited: tuple[tuple[str, str, str, str, Place], ...]
    statements: tuple[tuple[str, Statement], ...]


@cache
def _read(edition: str) -> _Read:
    entry = asp_dir() / f"{edition}.lp"
    if not entry.is_file():
        raise RuleBaseError(f"no rule base for edition '{edition}': {entry} does not exist")
    statements: list[ast.AST] = []
    messages: list[str] = []
    try:
        ast.parse_files([str(entry)], statements.append,
                        logger=lambda _code, msg: messages.append(msg.strip()))
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo cannot parse the {edition} rule base: {exc}", tuple(messages)) from None
    root = asp_dir().resolve().parent
    files: dict[str, None] = {_relative(str(entry), root): None}
    cited: list[tuple[str, str, str, str, Place]] = []
    read: list[tuple[str, Statement]] = []
    relative: dict[str, str] = {}
    for stm in statements:
        if stm.ast_type in (ast.ASTType.Comment, ast.ASTType.Program):
            continue
        begin = stm.location.begin
        if begin.filename not in relative:
            relative[begin.filename] = _relative(begin.filename, root)
        file = relative[begin.filename]
        files.setdefault(file)
        citation = _citation(stm)
        if citation is not None:
            cited.append((*citation, Place(file, begin.line)))
        else:  # a statement of a file two rule sets load is read once
            key = (begin.filename, begin.line, begin.column)
            if key not in _SUMMARIES:
                _SUMMARIES[key] = summarize(stm)
            read.append((file, _SUMMARIES[key]))
    return _Read(tuple(files), tuple(cited), tuple(read))


_SUMMARIES: dict[tuple[str, int, int], Statement] = {}  # by file (as clingo names it), line and column


@cache
def _places() -> dict[str, frozenset[Slot]]:
    """The places holding a rule in each rule set (each entry file ``asp/*.lp``).

    A file means the same in every rule set loading it: a place that a file of two rule
    sets holds, found to hold a rule in one, holds one in the other (a rule the core
    passes to Python only, as ``pending/3``'s, shows as one where an edition's own rules
    pass it to the engine). The rule sets are inferred again with the places the others
    found until none finds more.
    """
    reads = {p.stem: _read(p.stem) for p in sorted(asp_dir().glob("*.lp"))}
    shared: dict[tuple[str, str], set[Slot]] = {}  # the places a file of both holds
    for name, read in reads.items():
        for other, theirs in reads.items():
            common = set(read.files) & set(theirs.files)
            if other != name and common:
                shared[name, other] = {slot for file, stm in read.statements if file in common
                                       for atom in stm.atoms for slot, _ in occurrences(atom)}
    places = {name: frozenset[Slot]() for name in reads}
    changed = True
    while changed:
        changed = False
        for name, read in reads.items():
            known = {slot for (mine, other), slots in shared.items() if mine == name
                     for slot in places[other] & slots}
            found = rule_slots([stm for _, stm in read.statements], {c[0] for c in read.cited}, known)
            changed |= found != places[name]
            places[name] = found
    return places


def select(rule_ids: Iterable[str], editions: Sequence[str]) -> list[Rule]:
    """The citations of ``rule_ids`` in ``editions`` (every rule, sorted, if none is named).

    Raises
    ------
    UnknownRuleError
        For the first id that none of ``editions`` cites, with the closest known ids.
    """
    books = [load(e) for e in editions]
    rule_ids = list(rule_ids)
    if not rule_ids:
        return [r for b in books for r in sorted(b.citations, key=lambda r: r.id)]
    found: list[Rule] = []
    for rule_id in rule_ids:
        hits = [r for b in books if (r := b.rule(rule_id)) is not None]
        if not hits:
            known = sorted({i for b in books for i in b.ids})
            elsewhere = [e for e in rule_sets() if e not in editions and load(e).rule(rule_id)]
            raise UnknownRuleError(rule_id, editions, difflib.get_close_matches(rule_id, known, n=3),
                                   elsewhere)
        found += hits
    return found


def _relative(filename: str, root: Path) -> str:
    return Path(filename).resolve().relative_to(root).as_posix()


def _citation(stm: ast.AST) -> tuple[str, str, str, str] | None:
    """``rule(Id, Edition, "Source", "Text").`` as its four values; None for anything else."""
    if stm.ast_type != ast.ASTType.Rule or len(stm.body) != 0:
        return None
    head = stm.head
    if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
        return None
    term = head.atom.symbol
    if term.ast_type != ast.ASTType.Function or term.name != CITATION or len(term.arguments) != 4:
        return None
    if any(a.ast_type != ast.ASTType.SymbolicTerm for a in term.arguments):
        return None
    rid, edition, source, text = (a.symbol for a in term.arguments)
    kinds = (rid.type, edition.type, source.type, text.type)
    if kinds != (clingo.SymbolType.Function,) * 2 + (clingo.SymbolType.String,) * 2:
        return None
    return rid.name, edition.name, source.string, text.string
