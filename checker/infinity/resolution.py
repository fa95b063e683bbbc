"""The resolved Order: every roll with its MODs and dice, the Face to Face pairings,
the saving rolls, and each trooper's state before and after, from the answer set; what
the position still has to write (pending facts), and the dice no roll reads."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from ..engine.answers import Term, predicates
from ..engine.catalogue import Catalogue
from ..engine.errors import Location, PositionError
from ..engine.reading import sort_key, word
from ..engine.solver import Atoms
from . import answers as ans
from .answers import RESOLUTION_TYPES
from .game import Game
from .position import Position, lines_of


@dataclass(frozen=True)
class Mod:
    rule: str
    value: int


@dataclass(frozen=True)
class Pending:
    """A fact a rule needs that the position does not write, and what to write.

    ``missing`` names it, ``ids`` are the ids it is about: ``distance`` (the two
    troopers), ``burst_share`` (actor, step, target), ``attribute`` (trooper,
    attribute), ``ammunition`` (roller, weapon). ``rules`` are the rules waiting on it."""

    subject: str  # the roll key, or "saves <trooper>" / "states <trooper>"
    missing: str
    ids: tuple[str, ...]
    rules: tuple[str, ...]
    write: str  # the text to write: "distance alg fus N"
    where: str  # where to write it: "a new line", "alg's details"...


@dataclass(frozen=True)
class UnusedDie:
    """A die written for a declared skill that does not roll: a rule denies it, or
    performs it as Idle (the verdict says which)."""

    trooper: str
    kind: str  # roll
    index: int
    value: int
    skills: tuple[str, ...]  # the declared skills not performed: "aro fus1", "order skill 2"
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Die:
    value: int
    result: str  # success | critical | fail | discarded (an extra die set aside) | pending (not judged yet)
    cancelled: bool  # a success the opposing roll cancels

    @property
    def scores(self) -> bool:
        return self.result in ("success", "critical") and not self.cancelled


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
    sv: int | None  # None: pending (a fact the MODs need is not written)
    dice_needed: int | None  # None: its share of the Burst is not written
    dice: tuple[Die, ...]
    face_to_face_with: tuple[str, ...]  # keys of the opposing rolls; empty: a Normal Roll
    ammunition: str | None
    automatic: bool = False  # a Direct Template: no roll, every trooper under it is hit
    hit_troopers: tuple[tuple[str, int], ...] = ()  # (trooper, hits on it), the target or others
    attack: bool = True  # an Attack with a weapon: its successes are hits; else passed / failed
    attribute_written: bool = True  # False: the roller's profile lacks the attribute rolled
    pending: tuple[Pending, ...] = ()  # what the position must write before it is decided
    extra: int = 0  # extra dice rolled and discarded (N5 "+1 SD"), beyond dice_needed
    waived: str | None = None  # the rule that makes it an automatic success, read without dice

    @property
    def dice_rolled(self) -> int | None:
        """The dice the roll reads: its Burst share and its extra dice."""
        return None if self.dice_needed is None else self.dice_needed + self.extra

    @property
    def decided(self) -> bool:
        """Every die is written and judged against a known Success Value."""
        return not self.pending and self.dice_rolled is not None and len(self.dice) == self.dice_rolled

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
    pending: tuple[Pending, ...] = ()  # every fact still to write, the rolls' included
    unused: tuple[UnusedDie, ...] = ()  # dice written for skills that do not roll

    @property
    def complete(self) -> bool:
        """Every die the resolution needs, every attribute it rolls and every fact its
        rules need was written."""
        return not self.saves_missing and not self.pending and all(
            r.decided and r.attribute_written for r in self.rolls)

    def to_dict(self) -> dict:
        """asdict, with each roll's hits (or passed / failed for a roll that is not
        an Attack; null while a fact it needs is pending) and whether every die and
        fact was written."""
        d = asdict(self)
        for roll, data in zip(self.rolls, d["rolls"]):
            value = roll.hits if roll.attack else roll.hits > 0
            data["hits" if roll.attack else "passed"] = None if roll.pending else value
            if not roll.extra:
                del data["extra"]  # only a roll with extra dice (N5 "+1 SD") names them
        return {**d, "complete": self.complete}


def term_text(term) -> str:
    """An atom's term as the ids it is made of: ``('no_discover_retry', 'camo')`` ->
    ``'no_discover_retry camo'``; a constant stays as it is."""
    if isinstance(term, tuple):
        return " ".join(term_text(t) for t in term)
    return word(term)


def subject_name(subject) -> str:
    """``"alg"``, or ``"army nomads"`` for ``("army", "nomads")``."""
    return subject if isinstance(subject, str) else " ".join(str(sort_key(a)) for a in subject)


def roll_key(group) -> str:
    """``"fus skill 2 -> alg"`` for the Order's skill at a target, ``"aro alg"``, and
    ``"<kind> <args>"`` for the other rolls (``"guts alg"``)."""
    if group[0] == "act":
        _, actor, step, target = group
        return f"{actor} skill {step}" if target is None else f"{actor} skill {step} -> {target}"
    return " ".join(str(sort_key(a)) for a in group)


# Every shown predicate :func:`resolution` reads, from the answer types it reads
# (tests/test_answers.py checks this file reads no other): ``ruling odds`` shows only
# these for its many positions.
READS = predicates(RESOLUTION_TYPES)


def resolution(game: Game, atoms: Atoms) -> Resolution | None:
    """What the dice do and what the Order leaves behind; None when nothing declared
    rolls and no state or outcome follows from the Order."""
    groups = atoms.of(ans.Group)
    if not groups and not any(atoms.of(k) for k in (ans.Gains, ans.Loses, ans.Outcome, ans.UnusedDie)):
        return None
    pending = _pending(atoms)
    mods = defaultdict(list)
    for m in atoms.of(ans.Mod):
        mods[m.group].append(Mod(m.rule, m.value))
    sv = {s.group: s.value for s in atoms.of(ans.Sv)}
    results = {(r.group, r.index): r.kind for r in atoms.of(ans.Result)}
    cancelled = {(c.group, c.index) for c in atoms.of(ans.Cancelled)}
    discarded = {(d.group, d.index) for d in atoms.of(ans.Discarded)}
    extra = {e.group: e.extra for e in atoms.of(ans.GroupExtra)}
    dice = defaultdict(list)
    for die in sorted(atoms.of(ans.DieOf), key=lambda d: sort_key((d.group, d.index, d.value))):
        at = (die.group, die.index)
        kind = "discarded" if at in discarded else results.get(at, "pending")
        dice[die.group].append(Die(die.value, kind, at in cancelled))
    opposed = defaultdict(list)
    for o in atoms.of(ans.Opposed):
        opposed[o.group].append(roll_key(o.against))
    ammo = {x.group: x.ammunition for x in atoms.of(ans.AmmoOf)}
    automatic = {x.group for x in atoms.of(ans.Automatic)}
    waived = {w.group: w.rule for w in atoms.of(ans.RollWaived)}
    attacks = {x.group for x in atoms.of(ans.AttackRoll)}
    hit_on: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for h in atoms.of(ans.Hit):
        hit_on[h.group][h.target] += 1
    rolls = []
    order = {"act": 0, "aro": 1}
    for group in sorted(groups, key=lambda x: (order.get(x.group[0], 2), sort_key(x.group))):
        g, roller, skill, weapon = group.group, group.roller, group.skill, group.weapon
        attribute, target, n = group.attribute, group.target, group.dice
        attributes = dict(game.trooper(roller).attributes)
        base = attributes.get(attribute, 0)
        key = roll_key(g)
        share_open = any(p.missing == "burst_share" for p in pending.get(key, ()))
        rolls.append(Roll(
            key, roller, skill, weapon, target,
            attribute, base, () if g in waived else tuple(sorted(mods[g], key=lambda m: m.rule)), sv.get(g),
            None if share_open else n,
            tuple(dice[g]), tuple(sorted(opposed[g])), ammo.get(g),
            g in automatic, tuple(sorted(hit_on[g].items())), g in attacks,
            attribute in attributes or g in automatic or g in waived, pending.get(key, ()), extra.get(g, 0), waived.get(g),
        ))
    keys = {}
    for save in atoms.of(ans.Save):
        keys[(save.trooper, save.index)] = (roll_key(save.group), save.value)
    outcome = {(r.trooper, r.index): r.result for r in atoms.of(ans.SaveResult)}
    saves = tuple(sorted(
        (Save(t, i, key, value, outcome.get((t, i), "missing")) for (t, i), (key, value) in keys.items()),
        key=lambda s: (s.trooper, s.index),
    ))
    missing = tuple(sorted((t, i) for (t, i), r in outcome.items() if r == "missing"))
    outcomes = tuple(sorted(Outcome(subject_name(o.subject), term_text(o.what), o.rule) for o in atoms.of(ans.Outcome)))
    clashes = tuple(sorted(
        StateClash(subject_name(c.subject), ((c.state1, c.rule1), (c.state2, c.rule2)))
        for c in atoms.of(ans.StateClash)
    ))
    every = tuple(p for key in sorted(pending) for p in pending[key])
    return Resolution(tuple(rolls), saves, missing, _states(game, atoms), _rules(atoms), outcomes, clashes,
                      every, _unused(game, atoms))


def _pending(atoms: Atoms) -> dict[str, tuple[Pending, ...]]:
    """The pending facts by subject (a roll key, ``saves alg``, ``states alg``), one
    per missing fact with every rule that waits on it."""
    rules = defaultdict(set)
    for p in atoms.of(ans.Pending):
        rules[(roll_key(p.subject), p.missing)].add(p.rule)
    found = defaultdict(list)
    for (key, missing), waiting in sorted(rules.items(), key=lambda x: (x[0][0], str(sort_key(x[0][1])))):
        found[key].append(_pending_fact(key, missing, tuple(sorted(waiting))))
    return {key: tuple(items) for key, items in found.items()}


def _pending_fact(subject: str, missing: tuple, rules: tuple[str, ...]) -> Pending:
    """What to write for one missing fact (``missing`` as the rule base names it)."""
    kind, ids, write, where = what_to_write(missing)
    return Pending(subject, kind, ids, rules, write, where)


def what_to_write(missing: tuple) -> tuple[str, tuple[str, ...], str, str]:
    """A fact the rule base says is missing (``distance(fus, alg)``...) as its kind, its
    ids, the text to write and where to write it."""
    kind, *args = missing
    ids = tuple(str(sort_key(a)) for a in args)
    if kind == "distance":
        a, b = ids
        return kind, ids, f"distance {a} {b} N", "a line of its own, N in inches"
    if kind == "burst_share":
        actor, step, target = ids
        return (kind, ids, f"{target} xN",
                f"{actor}'s skill {step}, after the target {target}: each target's share of the Burst")
    if kind == "attribute":
        trooper, attribute = ids
        return kind, ids, f"{attribute.upper()} n", f"{trooper}'s details"
    if kind == "ammunition":
        roller, weapon = ids
        return kind, ids, f"{weapon}, <ammunition>", f"the parentheses of {roller}'s skill: the weapon has several"
    if kind == "weapons":
        (trooper,) = ids
        return kind, ids, "weapons: <its weapons>", f"{trooper}'s details: its profile lists none"
    if kind == "cost":
        (trooper,) = ids
        return kind, ids, f"points N (in {trooper}'s block)", f"{trooper}'s details: its Cost, for the Retreat! check"
    if kind == "lof":
        reactor, attacker = ids
        return kind, ids, f"lof {reactor} -> {attacker}", f"a line of its own, if {reactor} (360-degree arc) has LoF to {attacker}"
    if kind == "smoke_distance":
        (thrower,) = ids
        return kind, ids, f"smoke {thrower} at N", "a line of its own, N the inches to where the Smoke lands"
    if kind == "fireteam_after_aro":
        (team,) = ids
        where = ("the Fireteam's line as it stands after its ARO: without the members who left, or no line if "
                 "its Leader left or one member is left")
        return kind, ids, f"fireteam {team} <type> level N: <the members who stay>", where
    if kind == "fireteam_level":
        team, team_type = ids
        return (kind, ids, f"fireteam {team} {team_type} level N: ...",
                "the Fireteam's line, N its members who belong to the same Unit")
    if kind in ("impetuous_nearest", "impetuous_toward", "impetuous_reach", "impetuous_zone"):
        mover, *second = ids  # `second`: the second skill's Move
        phase, path = (" from second", f"move {mover} second via ...") if second else ("", f"move {mover} via ...")
        if kind == "impetuous_zone":
            where = (f"a line of its own (or 'inside {mover} -> zone{phase}'), or the troopers placed ('at'), the "
                     f"enemy Deployment Zone ('zone SIDE deployment: X Y, ...') and the path ('{path}')")
            return kind, ids, f"toward {mover} -> zone{phase}", where
        word = kind.split("_")[1]
        return (kind, ids, f"{word} {mover} -> ENEMY{phase}",
                f"a line of its own, or the troopers placed ('at') and the path ('{path}')")
    return kind, ids, " ".join(ids), "the position"


def skill_subject(subject, several: bool) -> str:
    """A declared skill as the verdicts name it: ``order skill 2`` (``order a1 skill 2``
    in a Coordinated Order), ``aro fus1``, ``order skill 1 shot at fus2``."""
    name, *args = subject
    if name == "aro_decl":
        return f"aro {args[0]}"
    actor = f" {args[0]}" if several else ""
    if name == "shot":
        return f"order{actor} skill {args[1]} shot at {args[2]}"
    return f"order{actor} skill {args[1]}"


def _unused(game: Game, atoms: Atoms) -> tuple[UnusedDie, ...]:
    """The dice written for declared skills a rule denies or performs as Idle."""
    values = {(t, kind): rolls for t, kind, rolls in game.dice}
    several = len(game.activated) > 1
    why: dict[tuple[str, str, int], tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
    for u in atoms.of(ans.UnusedDie):
        reason = u.reason
        if isinstance(reason, tuple) and reason[0] == "idle":
            skills, rules = why[(u.trooper, u.kind, u.index)]
            skills.add(skill_subject(reason[1], several))
            rules.add(reason[2])
    return tuple(
        UnusedDie(t, kind, i, values[(t, kind)][i - 1], tuple(sorted(skills)), tuple(sorted(rules)))
        for (t, kind, i), (skills, rules) in sorted(why.items())
    )


def _states(game: Game, atoms: Atoms) -> tuple[StateChange, ...]:
    """Before and after for every trooper that rolls, is rolled against, is hit, or
    changes state; after = before, less what it loses, plus what it gains."""
    lost: defaultdict[Term, int] = defaultdict(int, {w.trooper: w.wounds for w in atoms.of(ans.WoundsLost)})
    for w in atoms.of(ans.WoundsChanged):
        lost[w.trooper] += w.wounds
    life = {x.trooper: x.wounds for x in atoms.of(ans.Life)}
    prior = {x.trooper: x.wounds for x in atoms.of(ans.LifePrior)}
    because = defaultdict(list)
    for x in atoms.of(ans.Loses):
        because[x.subject].append(("loses", x.state, x.rule))
    for y in atoms.of(ans.Gains):
        because[y.subject].append(("gains", y.state, y.rule))
    ids = {t.id for t in game.troopers}
    involved = {t for g in atoms.of(ans.Group) for t in (g.roller, g.target) if t in ids} | set(because)
    involved |= {h.target for h in atoms.of(ans.Hit) if h.target in ids}
    changes = []
    for t in sorted(involved, key=lambda s: (not isinstance(s, str), str(sort_key(s)))):
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
    return tuple(x.rule for x in sorted(atoms.of(ans.Applied), key=lambda x: (x.step, x.rule)))


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
DICE_WORDS = {"roll": "die", "save": "save die", "guts": "Guts die", "reroll": "re-roll die"}


def _ordinal(n: int) -> str:
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


def unused_dice_error(position: Position, game: Game, atoms: Atoms, catalogue: Catalogue) -> PositionError | None:
    """The dice the position writes that no roll, saving roll or Guts Roll reads and no
    verdict explains (``unused_die/4`` with a reason other than ``idle``): a
    PositionError at the first of them in the text, saying which are unused and why;
    None when there are none. A ``discard`` that cannot be applied (``bad_discard/3``)
    is reported first."""
    bad = sorted(atoms.of(ans.BadDiscard), key=lambda b: str(sort_key((b.trooper, b.index, b.reason))))
    if bad:
        return _bad_discard_error(position, bad[0])
    extra: dict[tuple[str, str], dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for u in atoms.of(ans.UnusedDie):
        if not (isinstance(u.reason, tuple) and u.reason[0] == "idle"):
            extra[(u.trooper, u.kind)][u.index].append(u.reason)
    if not extra:
        return None
    spans = {(d.trooper.text, d.kind): d for d in position.dice}

    def place(key):
        span = spans[key].values[min(extra[key]) - 1]
        return span.line, span.column

    trooper, kind = first = min(extra, key=place)
    indexes = sorted(extra[first])
    written = spans[first]
    values = [written.rolls[i - 1] for i in indexes]
    which = _which_dice(kind, indexes, values, every=len(written.rolls) == len(indexes))
    if kind == "roll":
        why = _roll_dice_text(game, atoms, catalogue, trooper)
    elif kind == "save":
        why = _save_dice_text(atoms, trooper)
    elif kind == "reroll":
        why = f"{trooper} makes no roll a text lets it re-roll (docs/turn.md, 'A re-roll')"
    else:
        why = _guts_dice_text(trooper, min(extra[first][indexes[0]], key=lambda r: str(sort_key(r))))
    span = written.values[indexes[0] - 1]
    lines = lines_of(position.text)
    source = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    return PositionError(f"{why}; {which}", Location(position.file, span.line, span.column, source))


def _bad_discard_error(position: Position, bad: ans.BadDiscard) -> PositionError:
    """The first discard of a trooper's dice line that cannot be applied."""
    trooper, index = bad.trooper, bad.index
    reason: Any = bad.reason  # no_extra_die, not_rolled or count(E)
    written = next(d for d in position.dice if d.trooper.text == trooper and d.kind == "roll")
    value = written.discards[index - 1]
    span = written.discard_spans[index - 1]
    if reason == "no_extra_die":
        why = f"{trooper} rolls no extra die to discard"
    elif reason == "not_rolled":
        why = f"no die of {trooper}'s roll with its extra die shows {value}"
    else:
        why = f"{trooper}'s roll discards {_count(reason[1], 'die', 'dice')}, one per extra die"
    lines = lines_of(position.text)
    source = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    return PositionError(f"{why}: 'discard {value}' cannot be applied",
                         Location(position.file, span.line, span.column, source))


def _which_dice(kind: str, indexes: list[int], values: list[int], every: bool) -> str:
    """``the third die '14' is not used``, ``the third and fourth dice ('14', '3') are
    not used``, ``its save die '7' is not used`` (every die of the line)."""
    one = DICE_WORDS[kind]
    many = one.replace("die", "dice")
    quoted = ", ".join(f"'{v}'" for v in values)
    if every:
        return f"its {one} {quoted} is not used" if len(values) == 1 else f"its {many} ({quoted}) are not used"
    if len(values) == 1:
        return f"the {_ordinal(indexes[0])} {one} {quoted} is not used"
    ordinals = [_ordinal(i) for i in indexes]
    return f"the {', '.join(ordinals[:-1])} and {ordinals[-1]} {many} ({quoted}) are not used"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _roll_dice_text(game: Game, atoms: Atoms, catalogue: Catalogue, trooper: str) -> str:
    """``fus1 rolls 2 dice for its BS Attack (Combi Rifle) -> alg x2``: what the
    trooper's rolls read, and the dice written for its skills that do not roll."""
    kinds = {x.group: x.kind for x in atoms.of(ans.GroupDice)}
    reads = []
    extra = {x.group: x.extra for x in atoms.of(ans.GroupExtra)}
    for group in sorted(atoms.of(ans.Group), key=lambda x: str(sort_key(x.group))):
        g, skill, weapon, target, n = group.group, group.skill, group.weapon, group.target, group.dice
        if group.roller != trooper or kinds.get(g) != "roll":
            continue
        what = catalogue.entries["skills"][skill].name if skill in catalogue.entries["skills"] else skill
        if weapon is not None:
            what += f" ({catalogue.entries['weapons'][weapon].name})"
        what = ("its ARO " if g[0] == "aro" else "its ") + what + (f" -> {target}" if target is not None else "")
        what += f" x{n}" if g[0] == "act" else ""
        what += f" (+{extra[g]} SD: {extra[g]} extra, discarded)" if g in extra else ""
        reads.append((n + extra.get(g, 0), what))
    total = sum(n for n, _ in reads)
    idle = [u for u in _unused(game, atoms) if u.trooper == trooper and u.kind == "roll"]
    if len(reads) == 1:
        text = f"{trooper} rolls {_count(total, 'die', 'dice')} for {reads[0][1]}"
    elif reads:
        text = f"{trooper} rolls {_count(total, 'die', 'dice')}: " + ", ".join(f"{n} for {w}" for n, w in reads)
    elif idle:
        text = f"{trooper} rolls no dice in this Order"
    else:
        def name(skill: str) -> str:
            entry = catalogue.entries["skills"].get(skill)
            return entry.name if entry else skill

        declared = [" + ".join(name(u.skill) for u in o.skills) for o in game.orders if o.trooper == trooper and o.skills]
        declared += [f"ARO {name(a.use.skill)}" for a in game.aros if a.trooper == trooper]
        said = f"its {' and its '.join(declared)} {'rolls' if len(declared) == 1 else 'roll'} none" if declared else "it declares no skill"
        if any(t == trooper for t, _ in game.deployments):
            said = "its deployment makes no roll: no rule asks one there, or the deployment is denied"
        when = "this deployment" if game.deployments else "this Order"
        text = f"{trooper} rolls no dice in {when} ({said})"
    if idle:
        skills = sorted({s for u in idle for s in u.skills})
        rules = " ".join(f"[{r}]" for r in sorted({r for u in idle for r in u.rules}))
        text += (f" ({_count(len(idle), 'die is', 'dice are')} written for {', '.join(skills)}, "
                 f"not performed: {rules})")
    return text


def _save_dice_text(atoms: Atoms, trooper: str) -> str:
    """``alg makes 2 saving rolls (against 2 hits: fus skill 2 -> alg)``."""
    saves = [s for s in atoms.of(ans.Save) if s.trooper == trooper]
    hits: dict[str, int] = defaultdict(int)
    for h in atoms.of(ans.Hit):
        if h.target == trooper:
            hits[roll_key(h.group)] += 1
    if not saves:
        return f"{trooper} makes no saving roll (no hit to save against)"
    by = ", ".join(f"{n} by {key}" for key, n in sorted(hits.items()))
    return f"{trooper} makes {_count(len(saves), 'saving roll', 'saving rolls')} (against {_count(sum(hits.values()), 'hit', 'hits')}: {by})"


def _guts_dice_text(trooper: str, reason) -> str:
    """Why the trooper makes no Guts Roll (core/aftermath.lp: guts_none/2), or makes one."""
    if reason == "one_roll":
        return f"{trooper} makes one Guts Roll"
    if reason == "no_attack":
        return f"{trooper} makes no Guts Roll (no successful Attack hit it in this Order)"
    name, arg = reason
    because = {
        "state": f"it ends the Order {arg}, which spares it the roll",
        "chooses": f"it chooses the result [{arg}]",
        "fails": f"it fails it without a roll [{arg}]",
    }[name]
    return f"{trooper} makes no Guts Roll ({because})"
