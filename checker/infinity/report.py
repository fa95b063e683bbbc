"""Verdict objects built from the answer set: who may react and how, and whether the
declared Order and AROs are legal, each verdict with the rules behind it."""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field, fields, is_dataclass, replace
from operator import attrgetter

from ..engine.answers import Term, predicates
from ..engine.catalogue import Catalogue
from ..engine.gc_hold import gc_held
from ..engine.reading import Unread, sort_key, word
from ..engine.solver import Atoms
from . import answers as ans
from .answers import REPORT_TYPES, VERDICT_SUBJECTS
from .game import Game
from .modelled import NotModelled, by_hand
from .resolution import Resolution, resolution, skill_subject, what_to_write

LEGAL, INVALID, DENIED, CONFLICT = "legal", "invalid", "denied", "conflict"
# The three tiers, plus conflicts: LEGAL granted and valid; INVALID granted, but a
# requirement checked at Resolution fails, so it is performed as Idle (a Disposable
# weapon's use still spent, a marker still revealed); DENIED not granted at all.


@dataclass(frozen=True)
class Citation:
    rule: str
    edition: str
    source: str
    text: str
    when: str = "declaration"  # or "resolution": checked when the Order is resolved


@dataclass(frozen=True)
class Exception_:
    """A denial lifted by a permission that explicitly overrides it."""

    denial: Citation
    permission: Citation


@dataclass(frozen=True)
class Conflict:
    """Rules that disagree on one subject: a permission and a denial with no precedence
    between them (kind "rules"), two states that exclude each other after the Order
    ("states"), or a position that breaks an army or state rule ("position"), with the
    facts that triggered it."""

    subject: str
    sides: tuple[tuple[str, Citation], ...]  # (what the rule says: permits, forbids, gives dead, breaks)
    kind: str = "rules"
    facts: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(c.rule for _, c in self.sides)


@dataclass(frozen=True)
class OptionPending:
    """A fact the position does not write that a rule checked at Resolution, or a MOD,
    needs to judge an option (``option_pending/3``): the option keeps its tier (it may
    be declared), and the position should write the fact before the Order is resolved.

    ``missing`` names the fact (``distance``), ``ids`` the ids it is about (the two
    troopers), ``rules`` the rules waiting on it, ``write`` the text to write."""

    missing: str
    ids: tuple[str, ...]
    rules: tuple[Citation, ...]
    write: str


@dataclass(frozen=True)
class Option:
    """One ARO option of a reactive trooper: a skill, and the weapon if it needs one;
    when several troopers are activated (a Coordinated Order), the one it is against.
    ``pending``: what the position must still write for its Resolution (only for an
    option that may be declared)."""

    skill: str
    skill_name: str
    weapon: str | None
    weapon_name: str | None
    status: str
    denied_by: tuple[Citation, ...] = ()
    lifted: tuple[Exception_, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    against: str | None = None
    pending: tuple[OptionPending, ...] = ()

    @property
    def label(self) -> str:
        label = f"{self.skill_name} ({self.weapon_name})" if self.weapon_name else self.skill_name
        return f"{label} against {self.against}" if self.against else label


@dataclass(frozen=True)
class Trigger:
    kind: str  # lof, zoc, template...
    step: int
    rule: Citation | None


@dataclass(frozen=True)
class Reactive:
    trooper: str
    triggers: tuple[Trigger, ...]
    declares_after: int | None  # the step after which it declares: 1, 2, or None
    options: tuple[Option, ...]
    may_delay: Citation | None = None  # it may hold its ARO to the second skill (and why)

    @property
    def legal(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.status == LEGAL)


@dataclass(frozen=True)
class AroReport:
    edition: str
    activated: tuple[str, ...]  # several in a Coordinated Order
    reactive: tuple[Reactive, ...]
    conflicts: tuple[Conflict, ...]
    revealed: tuple[tuple[str, Citation], ...] = ()  # markers revealed for the whole Order
    breaches: tuple[Judgement, ...] = ()  # the position itself breaks a rule
    spearhead: str | None = None
    fireteam_leader: str | None = None  # the Fireteam Leader of a Fireteam Order
    not_modelled: tuple[NotModelled, ...] = ()  # items in play the rule base does not fully model
    unverified: tuple[NotModelled, ...] = ()  # items in play modelled from values no source confirms
    table: tuple[str, ...] = ()  # what was measured from the table and what stated (checker/infinity/table_check.py)

    def to_dict(self) -> dict:
        return plain(self)


@dataclass(frozen=True)
class Judgement:
    """The verdict on one declared thing: the Order, one of its skills, or an ARO."""

    subject: str  # "order", "order skill 1", "aro fus1"
    status: str
    denied_by: tuple[Citation, ...]
    lifted: tuple[Exception_, ...]
    conflicts: tuple[Conflict, ...]
    pending: tuple[OptionPending, ...] = ()  # what a rule judging it waits on (the Impetuous move)


@dataclass(frozen=True)
class CheckReport:
    edition: str
    activated: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    conflicts: tuple[Conflict, ...]
    revealed: tuple[tuple[str, Citation], ...] = ()
    spearhead: str | None = None
    resolution: Resolution | None = None  # the rolls, saves and states, once granted
    rules: tuple[Citation, ...] = ()  # citations of the rules the resolution applied
    not_modelled: tuple[NotModelled, ...] = ()  # items in play the rule base does not fully model
    unverified: tuple[NotModelled, ...] = ()  # items in play modelled from values no source confirms
    table: tuple[str, ...] = ()  # what was measured from the table and what stated (checker/infinity/table_check.py)
    deployments: tuple[tuple[str, str], ...] = ()  # (trooper, zone): a deployment instead of an Order
    fireteam_leader: str | None = None  # the Fireteam Leader of a Fireteam Order

    @property
    def legal(self) -> bool:
        """Everything declared was granted (some may still be performed as Idle)."""
        return all(j.status in (LEGAL, INVALID) for j in self.judgements)

    @property
    def breaches(self) -> tuple[Judgement, ...]:
        return _breaches(self.judgements)

    def to_dict(self) -> dict:
        return {**plain(self), "legal": self.legal,
                "resolution": self.resolution.to_dict() if self.resolution else None}


class _Verdicts:
    """Index of the answer set's verdict atoms by subject. The denials, exceptions and
    pending facts of subjects ``aro(...)`` or ``act(...)`` named in ``skip`` are left out
    (a report that never asks for them); every conflict is kept."""

    def __init__(self, atoms: Atoms, game: Game, skip: frozenset[str] = frozenset()):
        self.edition = edition = game.edition
        self.several = len(game.activated) > 1  # name the actor in subjects
        at_resolution = {r.rule for r in atoms.of(ans.ResolutionRule)}
        self.cites = {
            c.rule: Citation(c.rule, edition, c.source, c.text, "resolution" if c.rule in at_resolution else "declaration")
            for c in atoms.of(ans.Cite)
        }
        # (subject, rule): at Resolution for it only
        here = {(r.subject, r.rule) for r in atoms.of(ans.ResolutionFor)}
        self.denied = defaultdict(list)
        self.breaches: list[tuple] = []  # (subject, rule): the position breaks the rule
        cite: dict[str, Citation] = {}  # each rule's citation, looked up once
        for d in atoms.of(ans.Denied):
            subject, rule = d.subject, d.rule
            if subject.__class__ is tuple:
                if subject[0] in skip:
                    continue
                if subject[0] == "position":
                    self.breaches.append((subject, rule))
            c = cite.get(rule)
            if c is None:
                c = cite[rule] = self.cite(rule)
            self.denied[subject].append(replace(c, when="resolution") if here and (subject, rule) in here else c)
        self.lifted = defaultdict(list)
        for lift in atoms.of(ans.Lifted):
            subject = lift.subject
            if skip and subject.__class__ is tuple and subject[0] in skip:
                continue
            self.lifted[subject].append(Exception_(self.cite(lift.denial), self.cite(lift.permission)))
        self.conflicts = defaultdict(list)
        for clash in atoms.of(ans.Conflict):
            self.conflicts[clash.subject].append(Conflict(self.subject_text(clash.subject), (
                ("permits", self.cite(clash.permission)), ("forbids", self.cite(clash.denial)),
            )))
        self.facts = defaultdict(list)
        for b in atoms.of(ans.BreachFact):
            self.facts[(b.subject, b.rule)].append(fact_text(b.fact))
        waiting: dict[Term, dict[tuple, set[str]]] = defaultdict(lambda: defaultdict(set))
        for p in atoms.of(ans.OptionPending):
            subject = p.subject
            if skip and subject.__class__ is tuple and subject[0] in skip:
                continue
            waiting[subject][p.missing].add(p.rule)
        self.waiting = waiting

    def pending(self, subject, status: str | None = None) -> tuple[OptionPending, ...]:
        """What an option that may be declared (legal, or void at Resolution) waits on;
        nothing for an option a rule forbids or two rules disagree on (``status``, if the
        caller has it)."""
        if (status or self.status(subject)) in (DENIED, CONFLICT) or subject not in self.waiting:
            return ()
        return tuple(_option_pending(missing, tuple(self.cite(r) for r in sorted(rules)))
                     for missing, rules in sorted(self.waiting.get(subject, {}).items(),
                                                  key=lambda x: str(sort_key(x[0]))))

    def cite(self, rule: str) -> Citation:
        return self.cites.get(rule) or Citation(rule, self.edition, "", "")

    def status(self, subject) -> str:
        return _status(self.denied.get(subject, ()), self.conflicts.get(subject))

    def parts(self, subject) -> dict:
        denials = self.denied.get(subject, ())
        conflicts = self.conflicts.get(subject, ())
        lifted = self.lifted.get(subject)
        return {
            "status": _status(denials, conflicts),
            "denied_by": tuple(sorted(denials, key=_RULE)) if len(denials) > 1 else tuple(denials),
            "lifted": tuple(sorted(lifted, key=lambda e: (e.denial.rule, e.permission.rule))) if lifted else (),
            "conflicts": tuple(conflicts),
        }

    def all_conflicts(self, atoms: Atoms, resolved: Resolution | None = None) -> tuple[Conflict, ...]:
        """Every conflict: rules that disagree, breaches of the position, and (once the
        Order is resolved) states that exclude each other."""
        found = [c for cs in self.conflicts.values() for c in cs]
        for subject, rule in sorted(self.breaches, key=lambda x: str(sort_key(x))):
            found.append(Conflict(self.subject_text(subject), (("breaks", self.cite(rule)),), "position",
                                  tuple(sorted(self.facts.get((subject, rule), [])))))
        for clash in resolved.clashes if resolved else ():
            sides = tuple((f"gives {state}", self.cite(rule) if rule != "position" else
                           Citation("position", self.edition, "the position as written", f"{clash.subject} is {state}"))
                          for state, rule in clash.states)
            found.append(Conflict(f"{clash.subject} after the Order", sides, "states"))
        return tuple(found)

    def revealed(self, atoms: Atoms) -> tuple[tuple[str, Citation], ...]:
        return tuple((r.trooper, self.cite("marker_reveal")) for r in atoms.of(ans.Revealed))

    def subject_text(self, subject) -> str:
        """``order``, ``order skill 1`` (``order fus2 skill 1`` when several troopers
        are activated), ``aro fus1``, ``position kaz2``..."""
        if subject == "order":
            return "order"
        name, *args = subject
        if name in ("order", "aro_decl", "shot"):
            return skill_subject(subject, self.several)
        actor = f" {args[0]}" if self.several and name == "act" else ""
        if name == "act":
            _, slot, skill, weapon, target = args
            return f"declaration{actor} {slot} {skill} {word(weapon)} {word(target)}"
        if name == "aro":
            trooper, skill, weapon, against = args
            return (f"aro option {trooper} {skill}" + ("" if weapon is None else f" {weapon}")
                    + (f" against {against}" if self.several else ""))
        return " ".join(str(sort_key(a)) for a in subject)


@dataclass(frozen=True)
class Declaration(Option):
    """An option of the activated trooper: an Option in a slot, with its skill's kind
    and its target."""

    slot: int = field(kw_only=True)  # 1: first skill or whole-Order skill; 2: second
    kind: str = field(kw_only=True)
    target: str | None = field(kw_only=True)
    actor: str | None = field(default=None, kw_only=True)  # when several are activated

    @property
    def label(self) -> str:
        label = f"{super().label} -> {self.target}" if self.target else super().label
        return f"{self.actor}: {label}" if self.actor else label


@dataclass(frozen=True)
class DeclarationsReport:
    edition: str
    activated: tuple[str, ...]
    combinations: tuple[tuple[str, str], ...]  # skill kinds one Order may combine, in order
    single_kinds: tuple[str, ...]  # kinds that fill a whole Order
    options: tuple[Declaration, ...]
    conflicts: tuple[Conflict, ...]
    breaches: tuple[Judgement, ...] = ()
    spearhead: str | None = None
    fireteam_leader: str | None = None  # the Fireteam Leader of a Fireteam Order
    not_modelled: tuple[NotModelled, ...] = ()  # items in play the rule base does not fully model
    unverified: tuple[NotModelled, ...] = ()  # items in play modelled from values no source confirms
    table: tuple[str, ...] = ()  # what was measured from the table and what stated (checker/infinity/table_check.py)

    def to_dict(self) -> dict:
        return plain(self)


def _check_by_hand(game: Game, atoms: Atoms, catalogue: Catalogue) -> dict[str, tuple]:
    """What a verdict names for checking by hand: the items in play not fully modelled,
    those modelled from unverified values (the table's too), and what the table measured."""
    granted = _granted(game, atoms)
    table_values = tuple(NotModelled("table", i, name, "yes", None, source, troopers)
                         for i, name, source, troopers in game.table_unverified)
    not_modelled, unverified = by_hand(game, catalogue, granted)
    return {"not_modelled": not_modelled, "unverified": unverified + table_values, "table": game.table}


def _granted(game: Game, atoms: Atoms) -> tuple[tuple[str, str], ...]:
    """The (trooper, special skill) pairs a rule grants, not written in the position."""
    written = {(t.id, s.id) for t in game.troopers for s in t.skills}
    return tuple(sorted({(h.trooper, h.skill) for h in atoms.of(ans.HasSkill)} - written))


# Option subjects, each left out of the reports that never look it up: the activated
# trooper's options (``act``) of the ARO report, the reactive troopers' (``aro``) of the
# declarations, both of a check (it judges only what is declared: ``judged/1``).
_ACT = frozenset({"act"})
_ARO = frozenset({"aro"})
# What each report never reads, which ``solver.solve`` may then leave unread: the
# options of the other report (``act/5``, ``option/4``: the predicates of the option
# types it does not read) and the verdicts on them (the predicates of
# ``VERDICT_SUBJECTS``, on the subjects named above).
_OPTIONS = predicates((ans.Act, ans.AroOption))
_VERDICTS = predicates(VERDICT_SUBJECTS)
UNREAD = {
    command: Unread(_OPTIONS - predicates(REPORT_TYPES[command]), _VERDICTS, skipped)
    for command, skipped in (("aros", _ACT), ("declarations", _ARO), ("check", _ACT | _ARO))
}
ORDER_COMBINATION = "order_combination"  # the rule keeping a whole-Order skill out of the second slot


@gc_held()
def declarations_report(game: Game, atoms: Atoms, catalogue: Catalogue) -> DeclarationsReport:
    """Every skill, weapon and target the activated trooper could declare in each slot."""
    v = _Verdicts(atoms, game, _ARO)
    singles = tuple(sorted(k.kind for k in atoms.of(ans.SingleKind)))
    options = []
    for act in atoms.of(ans.Act):
        actor, slot, skill, weapon, target = act.actor, act.slot, act.skill, act.weapon, act.target
        entry = catalogue.entries["skills"][skill]
        subject = ("act", actor, slot, skill, weapon, target)
        parts = v.parts(subject)
        if slot == 2 and entry.get("kind") in singles and not any(
                e.denial.rule == ORDER_COMBINATION for e in parts["lifted"]):
            continue  # a whole-Order skill is never a second skill, unless a rule lets it be (N3 Super-Jump)
        weapon_entry = catalogue.entries["weapons"].get(weapon) if weapon is not None else None
        options.append(Declaration(
            skill, entry.name, weapon,
            weapon_entry.name if weapon_entry else None, **parts, pending=v.pending(subject),
            slot=slot, kind=entry.get("kind", ""), target=target,
            actor=actor if v.several else None,
        ))
    options.sort(key=lambda o: (o.slot, o.actor or "", o.status != LEGAL, o.skill, o.weapon or "",
                                o.target or ""))
    return DeclarationsReport(
        game.edition, game.activated,
        tuple(sorted(((c.first, c.second) for c in atoms.of(ans.Combination)), key=sort_key)), singles,
        tuple(options), v.all_conflicts(atoms), _breaches(_judgements(v, atoms)), game.spearhead,
        fireteam_leader=game.fireteam_leader, **_check_by_hand(game, atoms, catalogue),
    )


@gc_held()
def aro_report(game: Game, atoms: Atoms, catalogue: Catalogue) -> AroReport:
    """Every reactive trooper, why it may react, and each option with its verdict."""
    v = _Verdicts(atoms, game, _ACT)
    trigger_rules = {t.kind: t.rule for t in atoms.of(ans.TriggerRule)}
    first_step: dict[tuple[str, str], int] = {}  # each kind of trigger from its first step
    for t in atoms.of(ans.Trigger):
        key = (t.trooper, t.kind)
        first_step[key] = min(t.step, first_step.get(key, t.step))
    triggers = defaultdict(list)
    for (reactive_id, kind), step in first_step.items():
        rule = trigger_rules.get(kind)
        triggers[reactive_id].append(Trigger(kind, step, v.cite(rule) if rule else None))
    first = {f.trooper: f.step for f in atoms.of(ans.FirstEligible)}
    # the first rule by name
    delay = {t: rule for t, rule in sorted(((d.trooper, d.rule) for d in atoms.of(ans.MayDelay)), reverse=True)}
    options = defaultdict(list)
    names: dict[tuple[str, str | None], tuple[str, str, str | None, str | None]] = {}  # (skill, weapon): its names
    # An option with no exception, conflict or pending fact is the same for every trooper
    # its skill, weapon and denials (the same Citation objects) are: made once, shared.
    made: dict[tuple, Option] = {}
    several, denied, lifted, conflicts, waiting = v.several, v.denied, v.lifted, v.conflicts, v.waiting
    for o in atoms.of(ans.AroOption):
        skill, weapon, against = o.skill, o.weapon, o.against
        subject = ("aro", o.trooper, skill, weapon, against)
        same = None if subject in lifted or subject in conflicts or subject in waiting else \
            (skill, weapon, against, *map(id, denied.get(subject, ())))
        option = made.get(same) if same is not None else None
        if option is None:
            named = names.get((skill, weapon))
            if named is None:
                named = names[(skill, weapon)] = _option_names(catalogue, skill, weapon)
            parts = v.parts(subject)
            option = Option(*named, parts["status"], parts["denied_by"], parts["lifted"], parts["conflicts"],
                            against if several else None, v.pending(subject, parts["status"]))
            if same is not None:
                made[same] = option
        options[o.trooper].append(option)
    reactive = []
    for trooper in game.troopers:
        if trooper.id not in options:
            continue
        opts = sorted(options[trooper.id],
                      key=lambda o: (o.status != LEGAL, o.skill, o.weapon or "", o.against or ""))
        trig = tuple(sorted(triggers[trooper.id], key=lambda t: (t.step, t.kind)))
        delayed = v.cite(delay[trooper.id]) if trooper.id in delay else None
        reactive.append(Reactive(trooper.id, trig, first.get(trooper.id), tuple(opts), delayed))
    return AroReport(
        game.edition, game.activated, tuple(reactive), v.all_conflicts(atoms), v.revealed(atoms),
        _breaches(_judgements(v, atoms)), game.spearhead, fireteam_leader=game.fireteam_leader,
        **_check_by_hand(game, atoms, catalogue),
    )


@gc_held()
def check_report(game: Game, atoms: Atoms, catalogue: Catalogue) -> CheckReport:
    """A verdict on the declared Order, each of its skills, and each declared ARO."""
    v = _Verdicts(atoms, game, _ACT | _ARO)
    judgements = _judgements(v, atoms)
    resolved = resolution(game, atoms)
    rules = tuple(v.cite(r) for r in resolved.rules) if resolved else ()
    return CheckReport(game.edition, game.activated, judgements, v.all_conflicts(atoms, resolved), v.revealed(atoms),
                       game.spearhead, resolved, rules, deployments=game.deployments,
                       fireteam_leader=game.fireteam_leader,
                       **_check_by_hand(game, atoms, catalogue))


def fact_text(fact) -> str:
    """A fact term as words: ``('lieutenant', 'kaz1', 'ariadna')`` -> ``'lieutenant kaz1 ariadna'``."""
    if isinstance(fact, tuple):
        return " ".join(fact_text(a) for a in fact)
    return word(fact).replace("_", " ")


def _option_pending(missing: tuple, rules: tuple[Citation, ...]) -> OptionPending:
    """An option's pending fact, with the text to write: ``distance fus1 hellcat N``."""
    kind, ids, write, _where = what_to_write(missing)
    return OptionPending(kind, ids, rules, write)


def _judgements(v: _Verdicts, atoms: Atoms) -> tuple[Judgement, ...]:
    subjects = sorted((j.subject for j in atoms.of(ans.Judged)), key=_subject_order)
    return tuple(Judgement(v.subject_text(s), **v.parts(s), pending=v.pending(s)) for s in subjects)


def _breaches(judgements: tuple[Judgement, ...]) -> tuple[Judgement, ...]:
    """The judgements on the position itself (subjects ``position <trooper>``)."""
    return tuple(j for j in judgements if j.subject.startswith("position"))


def _option_names(catalogue: Catalogue, skill: str, weapon: str | None) -> tuple[str, str, str | None, str | None]:
    """An option's skill, skill name, weapon and weapon name (no weapon: None)."""
    skill_name = catalogue.entries["skills"][skill].name
    weapon_name = catalogue.entries["weapons"][weapon].name if weapon is not None else None
    return skill, skill_name, weapon, weapon_name


def _status(denials, conflicts) -> str:
    """An option's tier: a conflict, denied at Declaration, void at Resolution, or legal."""
    if conflicts:
        return CONFLICT
    if "declaration" in map(_WHEN, denials):
        return DENIED
    return INVALID if denials else LEGAL


_RULE = attrgetter("rule")
_WHEN = attrgetter("when")


def _subject_order(subject) -> tuple:
    if isinstance(subject, tuple) and subject[0] == "position":
        return (-1, "", 0, str(sort_key(subject[1])))
    if subject == "order":
        return (0, "", 0, "")
    if isinstance(subject, tuple) and subject[0] in ("order", "shot"):
        return (1, str(sort_key(subject[1])), subject[2], str(sort_key(subject[3:])))
    return (2, "", 0, str(sort_key(subject[1:])))


@gc_held()
def plain(value):
    """``dataclasses.asdict`` of a verdict object: the same dicts, lists and tuples, each
    string, number, bool and None kept as it is (``asdict`` deep-copies them, to the same
    objects), the field names of each class read once."""
    return _plain(value)


def _plain(value):
    cls = value.__class__
    if cls in _ATOMS:
        return value
    names = _FIELDS.get(cls)
    if names is not None:
        return {name: item if item.__class__ in _ATOMS else _plain(item)
                for name in names for item in (getattr(value, name),)}
    if cls is tuple or cls is list:
        return cls([item if item.__class__ in _ATOMS else _plain(item) for item in value])
    if is_dataclass(value) and not isinstance(value, type):
        _FIELDS[cls] = tuple(f.name for f in fields(value))
        return _plain(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
        return cls(*[_plain(item) for item in value])
    if isinstance(value, (list, tuple)):
        return cls(_plain(item) for item in value)
    if isinstance(value, dict):
        return cls((_plain(k), _plain(v)) for k, v in value.items())
    return copy.deepcopy(value)


_ATOMS = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}
