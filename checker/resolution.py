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

    @property
    def hits(self) -> int:
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
    trooper: str
    before: tuple[str, ...]
    life: int | None  # W / VITA / STR at the start
    wounds_lost: int
    after: tuple[str, ...]


@dataclass(frozen=True)
class Resolution:
    rolls: tuple[Roll, ...]
    saves: tuple[Save, ...]
    saves_missing: tuple[tuple[str, int], ...]  # (trooper, index) of saves without a die
    states: tuple[StateChange, ...]
    rules: tuple[str, ...]  # the rule ids the resolution applied

    @property
    def complete(self) -> bool:
        """Every die the resolution needs was written."""
        return not self.saves_missing and all(len(r.dice) == r.dice_needed for r in self.rolls)

    def to_dict(self) -> dict:
        return {**asdict(self), "complete": self.complete}


RESOLUTION_RULES = ("range_mod", "cover_mod", "roll_success", "face_to_face",
                    "result_above_20", "critical_damage", "saving_roll", "ap_ammo",
                    "special_ammo", "wounds_states")


def roll_key(group) -> str:
    if group[0] == "act":
        _, actor, step, target = group
        return f"{actor} skill {step} -> {target}"
    return f"aro {group[1]}"


def resolution(game: Game, atoms: Atoms) -> Resolution | None:
    """What the dice do; None when nothing declared rolls."""
    groups = atoms.get("group")
    if not groups:
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
    rolls = []
    for g, roller, skill, weapon, attribute, target, n in sorted(groups, key=lambda x: (x[0][0] != "act", x[0])):
        base = dict(game.trooper(roller).attributes).get(attribute, 0)
        rolls.append(Roll(
            roll_key(g), roller, skill, None if weapon == "none" else weapon, target,
            attribute, base, tuple(sorted(mods[g], key=lambda m: m.rule)), sv.get(g, base), n,
            tuple(dice[g]), tuple(sorted(opposed[g])), ammo.get(g),
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
    return Resolution(tuple(rolls), saves, missing, _states(game, atoms), _rules(atoms))


def _states(game: Game, atoms: Atoms) -> tuple[StateChange, ...]:
    lost = dict(atoms.get("wounds_lost"))
    life = dict(atoms.get("life"))
    after = defaultdict(list)
    for t, state in atoms.get("state_after"):
        after[t].append(state)
    involved = sorted({t for g in atoms.get("group") for t in (g[1], g[5])})
    changes = []
    for t in involved:
        before = tuple(game.trooper(t).states) or ("normal",)
        new = tuple(sorted(after[t])) or before
        changes.append(StateChange(t, before, life.get(t), lost.get(t, 0), new))
    return tuple(changes)


def _rules(atoms: Atoms) -> tuple[str, ...]:
    used = {r for r, _, _ in atoms.get("cite")}
    return tuple(r for r in RESOLUTION_RULES if r in used)
