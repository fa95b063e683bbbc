"""Urban War verdicts built from the answer set: declarations, reactions, the check of a
declared activation and the resolution of its dice.

Inputs: a :class:`~checker.urban_war.facts.Game` and the solver's atoms.
Defines: :class:`Option`, :class:`Conflict`, :class:`StateClash`, :class:`Declarations`,
:class:`Reactions`, :class:`Check` and their ``to_dict``; :func:`declarations`, :func:`reactions`, :func:`check`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..engine.answers import Term
from ..engine.solver import Atoms
from . import answers as ans
from .damage import Damage, Roll, damage_of, rolls_of
from .facts import Game

# What each unresolved test is, in words (ids from asp/urban_war/).
TESTS = {
    "calibre_attempt": "a CD test for the additional action",
    "cd_test_calibre": "a Cd test modified by Calibre",
    "command_check": "a command check",
    "jump_check": "a CD check before the jump",
    "tactical_awareness_check": "a Tactical Awareness CD check (failed: no shooting this turn)",
    "sniper_check": "a Sniper CD test (failed: it fires at the closest enemy)",
    "impetuous_check": "an Impetuous CD check (failed: it moves towards the nearest enemy in LOS)",
    "nearest_target": "that the target is the nearest enemy in LOS (distances not written)",
    "indirect_fire_los": "whether indirect fire needs LOS (in no stored source)",
    "table_edge_6": "that it deploys within 6 inches of a table edge",
    "scanning_radius": "the target's range band (SPOMM's scanning radius)",
    "neural_spike_range": "the distance to the rallied model (6 inches per level)",
    "snap_fire_first": "that every Snap-Fire model has activated (Lock-Fire models activate after them)",
}


def term_text(term: Term) -> str:
    """A clingo term as written: ``to_hit(1)``, ``strikes_first("sgt")`` as strikes_first(sgt)."""
    if isinstance(term, tuple):
        name, *args = term
        return f"{name}({', '.join(term_text(a) for a in args)})" if args else str(name)
    return "none" if term is None else str(term)


@dataclass(frozen=True)
class Option:
    """One action or reaction: who, which skill, at whom, and the rules on it."""

    model: str
    slot: int  # the action's place in the activation; 0 for a reaction
    skill: str
    target: str | None
    denied_by: tuple[str, ...]
    tests: tuple[tuple[str, str], ...]  # (test id, rule)
    no_test: tuple[str, ...] = ()
    lifted: tuple[tuple[str, str], ...] = ()  # (denial, the permission overriding it)
    conflicts: tuple[tuple[str, str], ...] = ()  # (permission, denial): no precedence between them
    effects: tuple[tuple[str, str], ...] = ()  # (effect, rule): what a rule adds to the act

    @property
    def status(self) -> str:
        """Its tier: ``conflict`` (two rules disagree, neither legal nor denied),
        ``denied`` or ``legal``."""
        return "conflict" if self.conflicts else "denied" if self.denied_by else "legal"

    def subject(self) -> str:
        """The subject a conflict names: "action 2 move", "react art overwatch_shoot>sgt"."""
        return (f"action {self.slot}" if self.slot else f"react {self.model}") + f" {self.key()}"

    def key(self) -> str:
        return self.skill + (f">{self.target}" if self.target else "")

    def to_dict(self) -> dict:
        return {"model": self.model, "slot": self.slot, "skill": self.skill, "target": self.target,
                "status": self.status, "denied_by": list(self.denied_by),
                "tests": [{"test": t, "rule": r} for t, r in self.tests], "no_test": list(self.no_test),
                "lifted": [{"denial": d, "permission": p} for d, p in self.lifted],
                "conflicts": [{"permission": p, "denial": d} for p, d in self.conflicts],
                "effects": [{"effect": e, "rule": r} for e, r in self.effects]}


@dataclass(frozen=True)
class Conflict:
    """A permission and a denial with no precedence between them, on one subject."""

    subject: str
    permission: str
    denial: str

    def to_dict(self) -> dict:
        return {"subject": self.subject, "permission": self.permission, "denial": self.denial}


@dataclass(frozen=True)
class StateClash:
    """Two rules leaving a model in states that exclude each other (``position``: the state
    as written)."""

    model: str
    states: tuple[tuple[str, str], ...]  # (state, rule), two of them

    def to_dict(self) -> dict:
        return {"model": self.model, "states": [{"state": s, "rule": r} for s, r in self.states]}


@dataclass(frozen=True)
class NotModelled:
    kind: str
    id: str
    name: str
    status: str
    missing: str
    models: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "id": self.id, "name": self.name, "modelled": self.status,
                "missing": self.missing, "models": list(self.models)}


@dataclass(frozen=True)
class Verdict:
    """What every Urban War report carries: the citations and what is not modelled."""

    citations: tuple[tuple[str, str, str], ...]
    not_modelled: tuple[NotModelled, ...]
    conflicts: tuple[Conflict, ...]
    unverified: tuple[tuple[str, str], ...]  # (value, source): what only a report or summary gives

    def base_dict(self) -> dict:
        return {"game": "urban-war",
                "unverified": [{"value": v, "source": s} for v, s in self.unverified],
                "rules": [{"id": i, "source": s, "text": t} for i, s, t in self.citations],
                "not_modelled": [n.to_dict() for n in self.not_modelled],
                "conflicts": [c.to_dict() for c in self.conflicts]}


@dataclass(frozen=True)
class Declarations(Verdict):
    model: str = ""
    order: str | None = None
    allowed: int | None = None
    slot: int = 1
    options: tuple[Option, ...] = ()

    def to_dict(self) -> dict:
        return {**self.base_dict(), "model": self.model, "order": self.order, "allowed_actions": self.allowed,
                "slot": self.slot, "options": [o.to_dict() for o in self.options]}


@dataclass(frozen=True)
class Reactions(Verdict):
    active: str = ""
    by_model: tuple[tuple[str, tuple[Option, ...]], ...] = ()

    def to_dict(self) -> dict:
        return {**self.base_dict(), "active": self.active,
                "models": {m: [o.to_dict() for o in opts] for m, opts in self.by_model}}


@dataclass(frozen=True)
class Check(Verdict):
    actions: tuple[Option, ...] = ()
    reactions: tuple[Option, ...] = ()
    damage: tuple[Damage, ...] = ()
    states: tuple[tuple[str, str, str], ...] = ()  # (model, state gained, rule)
    applied: tuple[str, ...] = field(default=())
    state_clashes: tuple[StateClash, ...] = ()
    rolls: tuple[Roll, ...] = ()
    outcomes: tuple[tuple[str, str, str], ...] = ()  # (model, what, rule)
    lost_states: tuple[tuple[str, str, str], ...] = ()  # (model, state lost, rule)

    @property
    def legal(self) -> bool:
        """Everything declared is granted: no denial stands and no conflict."""
        return not self.conflicts and not any(o.denied_by for o in (*self.actions, *self.reactions))

    def to_dict(self) -> dict:
        return {**self.base_dict(), "legal": self.legal, "actions": [o.to_dict() for o in self.actions],
                "reactions": [o.to_dict() for o in self.reactions], "damage": [d.to_dict() for d in self.damage],
                "states": [{"model": m, "gains": s, "rule": r} for m, s, r in self.states],
                "resolution_rules": list(self.applied), "state_clashes": [c.to_dict() for c in self.state_clashes],
                "rolls": [r.to_dict() for r in self.rolls],
                "outcomes": [{"model": m, "what": w, "rule": r} for m, w, r in self.outcomes],
                "loses": [{"model": m, "state": s, "rule": r} for m, s, r in self.lost_states]}


def _options(game: Game, atoms: Atoms, subjects: list[tuple]) -> list[Option]:
    denied: dict[Term, set[str]] = defaultdict(set)
    for d in atoms.of(ans.Denied):
        denied[d.subject].add(d.rule)
    tests: dict[Term, set[tuple[str, str]]] = defaultdict(set)
    for t in atoms.of(ans.NeedsTest):
        tests[t.subject].add((t.test, t.rule))
    no_test: dict[Term, set[str]] = defaultdict(set)
    for n in atoms.of(ans.NoTest):
        no_test[n.subject].add(n.rule)
    lifted: dict[Term, set[tuple[str, str]]] = defaultdict(set)
    for lift in atoms.of(ans.Lifted):
        lifted[lift.subject].add((lift.denial, lift.permission))
    effects: dict[Term, set[tuple[str, str]]] = defaultdict(set)
    for e in atoms.of(ans.Effect):
        effects[e.subject].add((term_text(e.effect), e.rule))
    conflicts: dict[Term, set[tuple[str, str]]] = defaultdict(set)
    for c in atoms.of(ans.Conflict):
        conflicts[c.subject].add((c.permission, c.denial))
    targeted = {e.id for e in game.catalogue.all("skills") if e.get("target")}
    found = []
    for subject in subjects:
        if subject[0] == "act":
            _, slot, skill, target = subject
            model = game.active
        else:
            _, model, skill, target = subject
            slot = 0
        found.append(Option(model, slot, skill, target if skill in targeted else None,
                            tuple(sorted(denied[subject])), tuple(sorted(tests[subject])),
                            tuple(sorted(no_test[subject])), tuple(sorted(lifted[subject])),
                            tuple(sorted(conflicts[subject])), tuple(sorted(effects[subject]))))
    return sorted(found, key=lambda o: (o.model, o.slot, o.status != "legal", o.skill, o.target or ""))


def _verdict(game: Game, atoms: Atoms, rules: set[str], options: list[Option]) -> dict:
    cites = {c.rule: (c.source, c.text) for c in atoms.of(ans.Cite)}
    seen: dict[tuple[str, str], NotModelled] = {}
    for model, entry in game.in_play:
        if entry.modelled == "yes":
            continue
        key = (entry.kind, entry.id)
        old = seen.get(key)
        models = (*old.models, model) if old else (model,)
        seen[key] = NotModelled(entry.kind, entry.id, entry.name, entry.modelled or "", entry.missing or "", models)
    for skill in {s for _, s, _ in game.actions} | {s for _, s, _ in game.reactions}:
        entry = game.catalogue.entries["skills"][skill]
        if entry.modelled != "yes":
            seen.setdefault(("skills", skill), NotModelled("skills", skill, entry.name, entry.modelled or "",
                                                           entry.missing or "", ()))
    rules = rules | _rules_of(options) | {r for o in options for _, r in o.effects}
    return {"citations": tuple((r, *cites[r]) for r in sorted(rules) if r in cites),
            "not_modelled": tuple(seen[k] for k in sorted(seen)),
            "conflicts": tuple(Conflict(o.subject(), p, d) for o in options for p, d in o.conflicts),
            "unverified": tuple((u.value, u.source) for u in game.position.unverified)}


def _rules_of(options: list[Option]) -> set[str]:
    return {r for o in options for r in (*o.denied_by, *(t[1] for t in o.tests), *o.no_test,
                                         *(r for pair in (*o.lifted, *o.conflicts) for r in pair))}


def declarations(game: Game, atoms: Atoms) -> Declarations:
    options = _options(game, atoms, [a.subject for a in atoms.of(ans.OptionAct)])
    order = next((m.order for m in game.position.models if m.id == game.active), None)
    allowed = next((a.actions for a in atoms.of(ans.AllowedActions) if a.model == game.active), None)
    return Declarations(**_verdict(game, atoms, set(), options), model=game.active, order=order,
                        allowed=allowed, slot=len(game.actions) + 1, options=tuple(options))


def reactions(game: Game, atoms: Atoms) -> Reactions:
    options = _options(game, atoms, [r.subject for r in atoms.of(ans.ReactionSubject)])
    by_model: dict[str, list[Option]] = defaultdict(list)
    for o in options:
        by_model[o.model].append(o)
    return Reactions(**_verdict(game, atoms, set(), options), active=game.active,
                     by_model=tuple((m, tuple(v)) for m, v in sorted(by_model.items())))


def check(game: Game, atoms: Atoms) -> Check:
    actions = _options(game, atoms, [a.subject for a in atoms.of(ans.DeclaredAct)])
    reacts = _options(game, atoms, [r.subject for r in atoms.of(ans.DeclaredReaction)])
    damage = damage_of(game, atoms)
    rolls = rolls_of(atoms)
    outcomes = tuple(sorted((str(o.subject), term_text(o.what), o.rule) for o in atoms.of(ans.Outcome)))
    lost_states = tuple(sorted((str(x.subject), x.state, x.rule) for x in atoms.of(ans.Loses) if x.state != "normal"))
    states = tuple(sorted((str(g.subject), g.state, g.rule) for g in atoms.of(ans.Gains)))
    outcome_rules = {o.rule for o in atoms.of(ans.Outcome)} | {r for _, _, r in states}
    applied = tuple(a.rule for a in sorted(atoms.of(ans.Applied), key=lambda a: (a.step, a.rule)) if a.rule in outcome_rules)
    clashes = tuple(StateClash(str(c.subject), ((c.state1, c.rule1), (c.state2, c.rule2)))
                    for c in sorted(atoms.of(ans.StateClash),
                                    key=lambda c: (c.subject, c.state1, c.rule1, c.state2, c.rule2)))
    rules = outcome_rules | {r for c in clashes for _, r in c.states} | {x.rule for x in atoms.of(ans.Loses)}
    return Check(**_verdict(game, atoms, rules, actions + reacts), actions=tuple(sorted(actions, key=lambda o: o.slot)),
                 reactions=tuple(reacts), damage=damage, states=states, applied=applied,
                 state_clashes=clashes, rolls=rolls, outcomes=outcomes, lost_states=lost_states)
