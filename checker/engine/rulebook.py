"""The rule book: each rule id of an edition, its citation, and the statements using it.

Built from the rule base files themselves: the entry file ``asp/<edition>.lp`` and every
file it ``#include``s, read by clingo's parser (``clingo.ast.parse_files``), which follows
the includes as the solver does and gives every statement and term its line. A rule's
citation is its ``rule(Id, Edition, Source, Text)`` fact, wherever it stands; its uses
are the atoms (head or body) holding ``Id`` as a constant where a rule id stands: an
argument :data:`RULE_ARGUMENTS` names, as the rule of ``denial/2``, ``permission/2``,
``overrides/2``, ``outcome/3``, ``mod/3``..., each given by the line where the id stands.
A constant spelled like a rule id elsewhere is another thing's id (``has_skill(A,
stealth, _)`` names a skill), not a use. Comments are not statements and strings are not
constants, so an id named in a comment or a rule's text is not a use either.

With ``facts.py`` and ``solver.py``, the only module that imports clingo; it parses and
never grounds or solves. Paths are relative to the folder holding ``asp/``
(``asp/infinity/core/templates.lp``), in a source checkout and in the installed package alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo
from clingo import ast

from .errors import RuleBaseError, RulingError
from .resources import asp_dir
from .resources import editions as all_editions

CITATION = "rule"  # the predicate of a citation: rule(Id, Edition, Source, Text)

Signature = tuple[str, int]  # a predicate's name and arity

# Where a rule id stands: for each rule base folder under ``asp/``, each predicate with
# an argument that is a rule, and the (0-based) positions of those arguments. A rule set
# reads the engine's table and those of the folders its files are in.
RULE_ARGUMENTS: Mapping[str, Mapping[Signature, tuple[int, ...]]] = {
    # asp/engine/verdict.lp and asp/engine/outcome.lp
    "engine": {
        ("denial", 2): (1,), ("permission", 2): (1,), ("overrides", 2): (0, 1), ("scoped", 1): (0,),
        ("rule", 4): (0,), ("resolution_rule", 1): (0,), ("resolution_for", 2): (1,), ("denied", 2): (1,),
        ("lifted", 3): (1, 2), ("conflict", 3): (1, 2), ("cite", 3): (0,), ("uncited", 1): (0,),
        ("used_rule", 1): (0,), ("gains", 3): (2,), ("loses", 3): (2,), ("outcome", 3): (2,),
        ("resolution_phase", 2): (0,), ("applied", 2): (0,), ("unknown_step", 2): (0,),
        ("state_clash", 5): (2, 4), ("origin", 3): (2,),
    },
    # asp/infinity/: the rule an edition fact or an intermediate predicate carries to the
    # engine's (a skill, state, trait or step argument is none)
    "infinity": {
        ("mod", 3): (1,), ("mod_candidate", 3): (1,), ("mod_ignored", 3): (1, 2), ("mod_kept", 2): (0, 1),
        ("ignores_all_mods", 2): (1,), ("opponent_mod", 1): (0,), ("no_cover_benefit", 2): (1,),
        ("pending", 3): (2,), ("option_pending", 3): (2,), ("wounds_changed", 3): (2,),
        ("trigger_rule", 2): (1,), ("full_burst_in_aro", 3): (1,), ("burst_bonus", 4): (2,),
        ("several_target_rule", 1): (0,), ("discover_effect", 3): (1,), ("state_discover_mod", 3): (1,),
        ("deploy_zone", 3): (2,), ("deploy_forbidden", 3): (2,), ("deploy_failure", 3): (2,),
        ("deploy_failure_loses", 3): (2,), ("deploy_roll", 5): (2,), ("deploy_mod", 3): (1,),
        ("rolls_to_deploy", 4): (1,), ("marker_limits", 2): (1,), ("attack_limits", 2): (1,),
        ("cautious_limit", 2): (1,), ("may_delay", 2): (1,), ("delay_must_be_declared", 1): (0,),
        ("silent_rule", 1): (0,), ("template_voids", 3): (2,), ("stealth_denial", 1): (0,),
        ("said_elsewhere", 1): (0,), ("requirement", 3): (2,), ("premature", 2): (1,),
        ("first_basic_short", 2): (1,), ("engaged_cancel_rule", 2): (1,), ("breach_fact", 3): (1,),
        ("immunity_rule", 3): (2,), ("immune_to_shock", 2): (1,), ("immune_state", 3): (2,),
        ("ammo_rule", 2): (1,), ("ammo_state", 3): (2,), ("ammo_type_state", 4): (3,),
        ("extra_slot_wounds", 3): (2,), ("guts_auto_fail", 2): (1,), ("guts_courage", 2): (1,),
        ("best_attr", 2): (1,), ("life_rule_applies", 2): (1,), ("life_rule_beaten", 2): (1,),
        ("life_down", 2): (1,), ("life_enters_down", 2): (1,), ("life_levels", 3): (2,),
        ("dead_rule", 2): (1,), ("replacement_state", 2): (1,), ("unconscious_replacement", 3): (2,),
        ("deployable_down", 2): (1,), ("extra_die", 2): (1,), ("roll_waived", 2): (1,),
        ("weapon_roll_attribute", 4): (3,), ("dodge_bonus", 3): (2,), ("surprise_shot_value", 3): (1,),
        ("fireteam_bonus_skill", 3): (1,), ("visor_rule", 2): (1,), ("idle_skill", 3): (2,),
        ("fire_sensitive_skill", 2): (1,),
    },
    # asp/urban_war/: the rule of a test an action needs, or is spared
    "urban_war": {("needs_test", 3): (2,), ("no_test", 2): (1,)},
}


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
    statements = [s for s in statements if s.ast_type not in (ast.ASTType.Comment, ast.ASTType.Program)]
    for stm in statements:
        files.setdefault(_relative(stm.location.begin.filename, root))
    arguments = rule_arguments(files)
    cited: list[tuple[str, str, str, str, Place]] = []
    mentions: dict[str, list[Place]] = {}
    for stm in statements:
        file = _relative(stm.location.begin.filename, root)
        citation = _citation(stm)
        if citation is not None:
            cited.append((*citation, Place(file, stm.location.begin.line)))
            continue
        first: dict[str, int] = {}
        for name, line in _rule_constants(stm, arguments):
            first.setdefault(name, line)
        for name, line in first.items():
            mentions.setdefault(name, []).append(Place(file, line))
    rules = tuple(
        Rule(rid, ed, source, text, place, tuple(mentions.get(rid, ())))
        for rid, ed, source, text, place in cited
    )
    return Rulebook(edition, tuple(files), rules)


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
            elsewhere = [e for e in all_editions() if e not in editions and load(e).rule(rule_id)]
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


def rule_arguments(files: Iterable[str]) -> dict[Signature, tuple[int, ...]]:
    """The rule arguments (:data:`RULE_ARGUMENTS`) of the engine and of the folders
    holding ``files`` (paths such as ``asp/infinity/core/aro.lp``)."""
    folders = {"engine"} | {Path(f).parts[1] for f in files if len(Path(f).parts) > 2}
    found: dict[Signature, tuple[int, ...]] = {}
    for folder in sorted(folders & set(RULE_ARGUMENTS)):
        for signature, positions in RULE_ARGUMENTS[folder].items():
            found[signature] = tuple(sorted({*found.get(signature, ()), *positions}))
    return found


def _rule_constants(node: ast.AST, arguments: Mapping[Signature, tuple[int, ...]]) -> Iterator[tuple[str, int]]:
    """Every constant under ``node`` standing where a rule id stands (an argument of an
    atom that ``arguments`` names), with its line."""
    if node.ast_type == ast.ASTType.SymbolicAtom:
        yield from _atom_rules(node.symbol, arguments)
        return
    for key in node.child_keys:
        child = getattr(node, key)
        if isinstance(child, ast.AST):
            yield from _rule_constants(child, arguments)
        elif child is not None and not isinstance(child, (str, int)):
            for item in child:
                if isinstance(item, ast.AST):
                    yield from _rule_constants(item, arguments)


def _atom_rules(term: ast.AST, arguments: Mapping[Signature, tuple[int, ...]]) -> Iterator[tuple[str, int]]:
    """The constants at the rule arguments of one atom (``p(a;b)``: of each)."""
    if term.ast_type == ast.ASTType.Pool:
        for alternative in term.arguments:
            yield from _atom_rules(alternative, arguments)
        return
    if term.ast_type == ast.ASTType.Function:
        name, args = term.name, list(term.arguments)
    elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        symbol = term.symbol
        for position in arguments.get((symbol.name, len(symbol.arguments)), ()):
            value = symbol.arguments[position]
            if value.type == clingo.SymbolType.Function and value.name and not value.arguments:
                yield value.name, term.location.begin.line
        return
    else:
        return
    for position in arguments.get((name, len(args)), ()):
        yield from _constant(args[position])


def _constant(term: ast.AST) -> Iterator[tuple[str, int]]:
    """``term`` as a constant (``aro_lof``, each of a pool ``a;b``), with its line; nothing
    for a variable, a number, a string or a compound term."""
    line = term.location.begin.line
    if term.ast_type == ast.ASTType.Pool:
        for alternative in term.arguments:
            yield from _constant(alternative)
    elif term.ast_type == ast.ASTType.Function and not term.arguments and term.name:
        yield term.name, line
    elif term.ast_type == ast.ASTType.SymbolicTerm:
        symbol = term.symbol
        if symbol.type == clingo.SymbolType.Function and symbol.name and not symbol.arguments:
            yield symbol.name, line
