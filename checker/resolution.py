"""The resolved Order: every roll with its MODs and dice, the Face to Face pairings,
the saving rolls, and each trooper's state before and after, from the answer set."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass

from .game import Game
from .solver import Atoms

@dataclass(frozen=True)
class Mod:
    rule: str
    value: int


@dataclass(frozen=True)
class Die:
    value: int
    result: str  # success | critical | fail
    cancelled: bool  # a success the opposing roll cancels

    @property
    def scores(self) -> bool:
        return self.result != "fail" and not self.cancelled


@dataclass(frozen=True)
class Roll:
    """One set of dice: the Order's skill against one target, or one ARO."""

    key: str  # "fus skill 2 -> alg" or "aro alg"
    roller: str
    skill: str
    weapon: str | None
    target: str | None
    attribute: str
    base: int
    mods: tuple[Mod, ...]
    sv: int
    dice_needed: int
    dice: tuple[Die, ...]
    face_to_face_with: tuple[str, ...]  # keys of the opposing rolls; empty: a Normal Roll
    ammunition: str | None
    automatic: bool = False  # a Direct Template: no roll, every trooper under it is hit
    hit_troopers: tuple[tuple[str, int], ...] = ()  # (trooper, hits on it), the target or others
    attack: bool = True  # an Attack with a weapon: its successes are hits; else passed / failed
    attribute_written: bool = True  # False: the roller's profile lacks the attribute rolled

    @property
    def hits(self) -> int:
        if self.automatic:
            return sum(n for _, n in self.hit_troopers)
        return sum(1 for d in self.dice if d.scores)


@dataclass(frozen=True)
class Save:
    trooper: str
    index: int  # its n-th saving roll
    against: str  # the roll key whose hit calls for it
    value: int
    result: str  # pass | fail


@dataclass(frozen=True)
class StateChange:
    """A trooper's states before and after the Order, and its Wounds: ``wounds_before``
    were lost before the Order (its ``wounds N``, or all of its life when it was
    Unconscious), ``wounds_lost`` in this Order (less any mended: N3 Regeneration),
    ``wounds_total`` is both."""

    trooper: str  # a trooper id, or "army <side>"
    before: tuple[str, ...]
    life: int | None  # W / VITA / STR on the profile
    wounds_lost: int
    after: tuple[str, ...]
    because: tuple[tuple[str, str, str], ...] = ()  # (gains | loses, state, rule)
    wounds_before: int = 0
    wounds_total: int = 0


@dataclass(frozen=True, order=True)
class Outcome:
    """An effect that is not a state: a choice left to the player, a marker replaced."""

    subject: str
    what: str
    rule: str


@dataclass(frozen=True, order=True)
class StateClash:
    """Two rules leave one trooper in states that exclude each other."""

    subject: str
    states: tuple[tuple[str, str], ...]  # (state, rule or "position") twice


@dataclass(frozen=True)
class Resolution:
    rolls: tuple[Roll, ...]
    saves: tuple[Save, ...]
    saves_missing: tuple[tuple[str, int], ...]  # (trooper, index) of saves without a die
    states: tuple[StateChange, ...]
    rules: tuple[str, ...]  # the rule ids the resolution applied, in the order applied
    outcomes: tuple[Outcome, ...] = ()
    clashes: tuple[StateClash, ...] = ()

    @property
    def complete(self) -> bool:
        """Every die the resolution needs, and every attribute it rolls, was written."""
        return not self.saves_missing and all(
            len(r.dice) == r.dice_needed and r.attribute_written for r in self.rolls)

    def to_dict(self) -> dict:
        """asdict, with each roll's hits (or passed / failed for a roll that is not
        an Attack) and whether every die was written."""
        d = asdict(self)
        for roll, data in zip(self.rolls, d["rolls"]):
            data["hits" if roll.attack else "passed"] = roll.hits if roll.attack else roll.hits > 0
        return {**d, "complete": self.complete}


def term_text(term) -> str:
    """An atom's term as the ids it is made of: ``('no_discover_retry', 'camo')`` ->
    ``'no_discover_retry camo'``; a constant stays as it is."""
    if isinstance(term, tuple):
        return " ".join(term_text(t) for t in term)
    return str(term)


def subject_name(subject) -> str:
    """``"alg"``, or ``"army nomads"`` for ``("army", "nomads")``."""
    return subject if isinstance(subject, str) else " ".join(str(a) for a in subject)


def roll_key(group) -> str:
    """``"fus skill 2 -> alg"`` for the Order's skill at a target, ``"aro alg"``, and
    ``"<kind> <args>"`` for the other rolls (``"guts alg"``)."""
    if group[0] == "act":
        _, actor, step, target = group
        return f"{actor} skill {step} -> {target}"
    return " ".join(str(a) for a in group)


def resolution(game: Game, atoms: Atoms) -> Resolution | None:
    """What the dice do and what the Order leaves behind; None when nothing declared
    rolls and no state or outcome follows from the Order."""
    groups = atoms.get("group")
    if not groups and not any(atoms.get(k) for k in ("gains", "loses", "outcome")):
        return None
    mods = defaultdict(list)
    for g, rule, value in atoms.get("mod"):
        mods[g].append(Mod(rule, value))
    sv = dict(atoms.get("sv"))
    results = {(g, k): (kind, c) for g, k, kind, c in atoms.get("result")}
    cancelled = set(atoms.get("cancelled"))
    dice = defaultdict(list)
    for g, k, value in sorted(atoms.get("die_of")):
        kind, _ = results.get((g, k), ("fail", value))
        dice[g].append(Die(value, kind, (g, k) in cancelled))
    opposed = defaultdict(list)
    for g1, g2 in atoms.get("opposed"):
        opposed[g1].append(roll_key(g2))
    ammo = dict(atoms.get("ammo_of"))
    automatic = {g for (g,) in atoms.get("automatic")}
    attacks = {g for (g,) in atoms.get("attack_roll")}
    hit_on = defaultdict(lambda: defaultdict(int))
    for g, _k, t, _kind in atoms.get("hit"):
        hit_on[g][t] += 1
    rolls = []
    order = {"act": 0, "aro": 1}
    for g, roller, skill, weapon, attribute, target, n in sorted(groups, key=lambda x: (order.get(x[0][0], 2), x[0])):
        attributes = dict(game.trooper(roller).attributes)
        base = attributes.get(attribute, 0)
        rolls.append(Roll(
            roll_key(g), roller, skill, None if weapon == "none" else weapon, None if target == "none" else target,
            attribute, base, tuple(sorted(mods[g], key=lambda m: m.rule)), sv.get(g, base), n,
            tuple(dice[g]), tuple(sorted(opposed[g])), ammo.get(g),
            g in automatic, tuple(sorted(hit_on[g].items())), g in attacks, attribute in attributes,
        ))
    keys = {}
    for t, i, g, _k, _j, value in atoms.get("save"):
        keys[(t, i)] = (roll_key(g), value)
    outcome = {(t, i): r for t, i, r in atoms.get("save_result")}
    saves = tuple(sorted(
        (Save(t, i, key, value, outcome.get((t, i), "missing")) for (t, i), (key, value) in keys.items()),
        key=lambda s: (s.trooper, s.index),
    ))
    missing = tuple(sorted((t, i) for (t, i), r in outcome.items() if r == "missing"))
    outcomes = tuple(sorted(Outcome(subject_name(s), term_text(what), rule) for s, what, rule in atoms.get("outcome")))
    clashes = tuple(sorted(
        StateClash(subject_name(t), ((s1, r1), (s2, r2))) for t, s1, r1, s2, r2 in atoms.get("state_clash")
    ))
    return Resolution(tuple(rolls), saves, missing, _states(game, atoms), _rules(atoms), outcomes, clashes)


def _states(game: Game, atoms: Atoms) -> tuple[StateChange, ...]:
    """Before and after for every trooper that rolls, is rolled against, is hit, or
    changes state; after = before, less what it loses, plus what it gains."""
    lost = defaultdict(int, atoms.get("wounds_lost"))
    for t, n, _rule in atoms.get("wounds_changed"):
        lost[t] += n
    life = dict(atoms.get("life"))
    prior = dict(atoms.get("life_prior"))
    because = defaultdict(list)
    for t, state, rule in atoms.get("loses"):
        because[t].append(("loses", state, rule))
    for t, state, rule in atoms.get("gains"):
        because[t].append(("gains", state, rule))
    ids = {t.id for t in game.troopers}
    involved = {t for g in atoms.get("group") for t in (g[1], g[5]) if t in ids} | set(because)
    involved |= {t for _g, _k, t, _kind in atoms.get("hit") if t in ids}
    changes = []
    for t in sorted(involved, key=lambda s: (not isinstance(s, str), str(s))):
        before = tuple(game.trooper(t).states) if isinstance(t, str) and t in ids else ()
        gone = {s for how, s, _ in because[t] if how == "loses"}
        new = [s for s in before if s not in gone] + sorted({s for how, s, _ in because[t] if how == "gains"} - set(before))
        changes.append(StateChange(
            subject_name(t), before or ("normal",), life.get(t), lost[t],
            tuple(new) or ("normal",), tuple(sorted(because[t])),
            prior.get(t, 0), prior.get(t, 0) + lost[t],
        ))
    return tuple(changes)


def _rules(atoms: Atoms) -> tuple[str, ...]:
    """The resolution rules used, in the order each file's resolution_phase/2 gives."""
    return tuple(r for r, _ in sorted(atoms.get("applied"), key=lambda a: (a[1], a[0])))
