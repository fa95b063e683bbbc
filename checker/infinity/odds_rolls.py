"""The rolls of an Order priced exactly (part of ``ruling odds``, :mod:`checker.infinity.odds`).

Each roll of the resolution (:mod:`checker.infinity.resolution`) becomes a :class:`RollView`;
rolls that face each other are priced together: a Normal Roll and a Face to Face by
:mod:`checker.infinity.dice`'s counts, a template roll faced by several troopers by enumerating
its dice (core/rolls.lp: each answer cancels the template's dice only for its own
roller), a Direct Template by its hits and the Dodges against it (core/templates.lp).
The result is each roll's :class:`RollOdds` and the joint distribution of the hits.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from ..engine.catalogue import Catalogue
from . import dice
from .game import Game
from .resolution import Roll

EVASION = frozenset({"dodge", "change_facing"})  # rolls that evade an Attack (core and N3 templates.lp)
MAX_ENUMERATION = 20_000  # dice multisets a template roll may enumerate (its Burst)
HitVector = tuple[tuple[str, str, int, int], ...]  # sorted (roll key, trooper hit, successes, Criticals)


@dataclass(frozen=True)
class Score:
    """The chance that a roll leaves ``successes`` and ``criticals`` standing against
    ``trooper`` (the trooper it hits, or the one it evades)."""

    trooper: str | None
    successes: int
    criticals: int
    chance: Fraction


@dataclass(frozen=True)
class RollOdds:
    key: str  # as ruling check names it: "fus skill 2 -> alg", "aro alg"
    label: str  # the skill, weapon and ammunition by name: "BS Attack (Combi Rifle, N)"
    roller: str
    skill: str
    weapon: str | None
    ammunition: str | None
    sv: int | None
    dice: int
    kind: str  # face_to_face | normal | template (a Direct Template: hits without a roll) | waived (succeeds without one)
    against: tuple[str, ...]  # the rolls it faces
    scores: tuple[Score, ...]
    attack: bool = True  # its standing dice are hits; else a roll that passes or fails (Dodge, Reset)
    extra: int = 0  # extra dice rolled and discarded (N5 "+1 SD")


@dataclass(frozen=True)
class RollView:
    """A roll of the resolution, with what pricing it needs."""

    roll: Roll
    faces: tuple[dice.Face, ...]  # its 20 faces; empty for a Direct Template and a roll not priced
    priced: bool  # its Success Value and dice are known (a Direct Template: its hits)
    template: bool  # an Attack with a Template Weapon that rolls
    under: tuple[str, ...]  # the troopers its Attack affects: the target, then those its template covers

    @staticmethod
    def of(game: Game, cat: Catalogue, roll: Roll, unpriced: list[str]) -> RollView:
        weapon = cat.entries["weapons"].get(roll.weapon) if roll.weapon else None
        template = bool(weapon and weapon.get("template", "none") != "none" and roll.attack and not roll.automatic)
        under: tuple[str, ...] = ()
        if roll.automatic:
            under = tuple(t for t, _ in roll.hit_troopers)
        elif roll.attack and roll.target:
            under = (roll.target, *(_covered(game, cat, roll) if template else ()))
        faces: tuple[dice.Face, ...] = ()
        unrolled = roll.automatic or roll.waived is not None
        priced = not (roll.pending or roll.dice_needed is None or (roll.sv is None and not unrolled))
        if not priced:
            why = "; ".join(f"write '{p.write}' ({p.where})" for p in roll.pending) or "its Success Value is not known"
            unpriced.append(f"{roll.key}: {why}")
        elif not unrolled:
            faces = dice.faces(roll.sv or 0, game.edition)
        engaged = {x for r in game.relations if r.kind == "contact" for x in (r.subject, r.object)}
        if any(m.rule == "bs_into_cc" for m in roll.mods):
            unpriced.append(f"{roll.key}: a BS Attack into a Close Combat, whose failed dice may hit an ally")
            priced = False
        elif template and game.edition == "n3" and engaged & set(under):
            unpriced.append(f"{roll.key}: a template over a Close Combat affects everyone in it (N3)")
            priced = False
        return RollView(roll, faces, priced, template, under)

    @property
    def key(self) -> str:
        return self.roll.key

    @property
    def n(self) -> int:
        """Its number of dice kept (its Burst share)."""
        return self.roll.dice_needed or 0

    @property
    def extra(self) -> int:
        """Its extra dice, rolled and discarded (N5 "+1 SD")."""
        return self.roll.extra


def _covered(game: Game, cat: Catalogue, roll: Roll) -> tuple[str, ...]:
    """The troopers the template of ``roll`` also covers, as the position writes them
    (core/templates.lp under/2): not its roller, not a hidden trooper."""
    hidden_states = {s.id for s in cat.all("states") if s.get("hidden")}
    hidden = {t.id for t in game.troopers if hidden_states & set(t.states)}
    if roll.key.startswith("aro "):
        uses = [a.use for a in game.aros if a.trooper == roll.roller]
    else:
        step = int(roll.key.split(" skill ")[1].split(" ")[0])
        uses = [o.skills[step - 1] for o in game.orders if o.trooper == roll.roller]
    return tuple(c for u in uses for t in u.targets if t.trooper == roll.target for c in t.covered
                 if c != roll.roller and c not in hidden)


def price_rolls(game: Game, cat: Catalogue, views: list[RollView], unpriced: list[str]):
    """Every roll's odds, and the joint distribution of the hits (None: not priced)."""
    by_key = {v.key: v for v in views}
    scores: dict[str, dict[tuple, Fraction]] = {}
    joint: dict[HitVector, Fraction] | None = {(): Fraction(1)}
    for part in _components(views):
        rolls = [by_key[k] for k in part]
        found = None
        if all(v.priced for v in rolls):
            found = _component(game, rolls, by_key, scores, unpriced)
        joint = None if found is None or joint is None else _product(joint, found)
    return tuple(_roll_odds(cat, v, scores.get(v.key, {})) for v in views), joint


def _components(views: list[RollView]) -> list[list[str]]:
    """The rolls that face each other, in groups (a Direct Template with its own group)."""
    parent = {v.key: v.key for v in views}

    def find(k: str) -> str:
        while parent[k] != k:
            k = parent[k]
        return k

    for v in views:
        for other in v.roll.face_to_face_with:
            if other in parent:
                parent[find(v.key)] = find(other)
    groups: dict[str, list[str]] = defaultdict(list)
    for v in views:
        groups[find(v.key)].append(v.key)
    return list(groups.values())


def _component(game, part: list[RollView], by_key, scores, unpriced) -> dict[HitVector, Fraction] | None:
    """The joint hits of rolls that face each other, and each roll's scores."""
    if len(part) == 1 and part[0].roll.automatic:
        return _direct_template(part[0], by_key, scores, unpriced)
    if len(part) == 1 and part[0].roll.waived:
        return _waived(part[0], scores)
    if len(part) == 1:
        v = part[0]
        counts = dice.normal_roll(v.faces, v.n, v.extra)
        return _tally_pairs(game, [((v, _only(v, outcome)),) for outcome in counts], counts.values(),
                            20 ** (v.n + v.extra), scores)
    if len(part) == 2 and not any(v.template and len(v.under) > 1 for v in part):
        a, b = part
        pairs = dice.face_to_face(a.faces, a.n, b.faces, b.n, a.extra, b.extra)
        outcomes = [((a, _only(a, oa)), (b, _only(b, ob))) for oa, ob in pairs]
        return _tally_pairs(game, outcomes, pairs.values(), 20 ** (a.n + a.extra + b.n + b.extra), scores)
    hubs = [v for v in part if len(v.roll.face_to_face_with) > 1 or (v.template and len(v.under) > 1)]
    if len(hubs) == 1 and hubs[0].template and all(
            v is hubs[0] or v.roll.face_to_face_with == (hubs[0].key,) for v in part):
        return _star(game, hubs[0], [v for v in part if v is not hubs[0]], scores, unpriced)
    unpriced.append("rolls facing each other in a way not priced: " + ", ".join(v.key for v in part))
    return None


def _only(v: RollView, outcome: dice.Outcome) -> dict[str | None, dice.Outcome]:
    """A roll's standing dice against each trooper it affects, when one comparison decides
    them all (no other trooper's roll cancels them)."""
    return {t: outcome for t in v.under} if v.under else {v.roll.target: outcome}


def _tally_pairs(game, outcomes, counts, total, scores):
    joint: dict[HitVector, Fraction] = defaultdict(Fraction)
    for sides, count in zip(outcomes, counts, strict=True):
        chance = Fraction(count, total)
        vector = []
        for v, per_trooper in sides:
            for trooper, (s, c) in per_trooper.items():
                mark = scores.setdefault(v.key, defaultdict(Fraction))
                mark[(trooper, *_as_hit(game, v, trooper, s, c))] += chance
                vector.extend(_hits(game, v, trooper, s, c))
        joint[tuple(sorted(vector))] += chance
    return dict(joint)


def _as_hit(game: Game, v: RollView, trooper: str | None, s: int, c: int) -> tuple[int, int]:
    """Standing dice as what they do to ``trooper``: N3, a Critical of a template is a
    Critical only for its target, a success for the others under it (n3/templates.lp)."""
    if v.template and trooper != v.roll.target and game.edition == "n3":
        return s + c, 0
    return s, c


def _hits(game: Game, v: RollView, trooper: str | None, s: int, c: int) -> list[tuple[str, str, int, int]]:
    """The hits standing dice make: an Attack's, on the trooper they count against."""
    if not v.roll.attack or trooper is None or not s + c:
        return []
    return [(v.key, trooper, *_as_hit(game, v, trooper, s, c))]


def _star(game, hub: RollView, leaves: list[RollView], scores, unpriced) -> dict[HitVector, Fraction] | None:
    """A template roll faced by each affected trooper on its own (core/rolls.lp: each
    answer cancels the template's dice only for its own roller): enumerate the
    template's dice, and each answer given them."""
    n = hub.n + hub.extra
    if dice.multiset_count(n, hub.faces) > MAX_ENUMERATION:
        unpriced.append(f"{hub.key}: a template roll of {n} dice faced by several troopers")
        return None
    answers = {leaf.roll.roller: leaf for leaf in leaves}
    total_hub = 20 ** n
    joint: dict[HitVector, Fraction] = defaultdict(Fraction)
    for rolled, hub_ways in dice.dice_classes(hub.faces, n):
        hub_dice = dice.keep_best(rolled, hub.n)
        combos: dict[tuple, Fraction] = {((), ()): Fraction(hub_ways, total_hub)}
        for leaf in leaves:
            step: dict[tuple, Fraction] = defaultdict(Fraction)
            m = leaf.n + leaf.extra
            for leaf_rolled, ways in dice.dice_classes(leaf.faces, m):
                leaf_dice = dice.keep_best(leaf_rolled, leaf.n)
                p = Fraction(ways, 20 ** m)
                key = (dice.scores(leaf_dice, hub_dice), dice.scores(hub_dice, leaf_dice))
                for (marks, vector), q in combos.items():
                    mark = ((leaf.key, leaf.roll.target, *key[0]),
                            (hub.key, leaf.roll.roller, *_as_hit(game, hub, leaf.roll.roller, *key[1])))
                    hit = _hits(game, leaf, leaf.roll.target, *key[0]) + _hits(game, hub, leaf.roll.roller, *key[1])
                    step[(marks + mark, vector + tuple(hit))] += q * p
            combos = step
        free = dice.scores(hub_dice, ())
        for t in hub.under:
            if t not in answers:
                extra = ((hub.key, t, *_as_hit(game, hub, t, *free)),)
                free_hits = tuple(_hits(game, hub, t, *free))
                combos = {(marks + extra, vector + free_hits): q for (marks, vector), q in combos.items()}
        for (marks, vector), q in combos.items():
            for key, trooper, s, c in marks:
                scores.setdefault(key, defaultdict(Fraction))[(trooper, s, c)] += q
            joint[tuple(sorted(vector))] += q
    return dict(joint)


def _direct_template(v: RollView, by_key, scores, unpriced) -> dict[HitVector, Fraction] | None:
    """A Direct Template hits every trooper under it, once per template placed, unless
    that trooper passes its Dodge (a Normal Roll) against the attacker
    (core/templates.lp)."""
    joint: dict[HitVector, Fraction] = {(): Fraction(1)}
    for trooper, placed in v.roll.hit_troopers:
        evading = [e for e in by_key.values()
                   if e.roll.roller == trooper and e.roll.skill in EVASION and e.roll.target == v.roll.roller]
        dodged = Fraction(0)
        for e in evading:
            if e.roll.face_to_face_with:
                unpriced.append(f"{e.key}: an evasion that also faces a roll, against a Direct Template")
            if e.roll.face_to_face_with or not e.priced:
                return None
            fails = dice.normal_roll(e.faces, e.n, e.extra).get((0, 0), 0)
            dodged = 1 - (1 - dodged) * Fraction(fails, 20 ** (e.n + e.extra))
        mark = scores.setdefault(v.key, defaultdict(Fraction))
        mark[(trooper, placed, 0)] += 1 - dodged
        if dodged:
            mark[(trooper, 0, 0)] += dodged
        joint = _product(joint, {((v.key, trooper, placed, 0),): 1 - dodged, (): dodged})
    return joint


def _waived(v: RollView, scores) -> dict[HitVector, Fraction]:
    """A roll an edition's rule makes an automatic success (core/rolls.lp roll_waived/2):
    one success, certain, and no hit (it is not a weapon's Attack)."""
    scores.setdefault(v.key, defaultdict(Fraction))[(v.roll.target, 1, 0)] += 1
    return {(): Fraction(1)}


def _product(a: dict[HitVector, Fraction], b: dict[HitVector, Fraction]) -> dict[HitVector, Fraction]:
    out: dict[HitVector, Fraction] = defaultdict(Fraction)
    for va, pa in a.items():
        for vb, pb in b.items():
            if pa and pb:
                out[tuple(sorted(va + vb))] += pa * pb
    return dict(out)


def _roll_odds(cat: Catalogue, v: RollView, marks: dict[tuple, Fraction]) -> RollOdds:
    r = v.roll
    kind = "template" if r.automatic else "waived" if r.waived else "face_to_face" if r.face_to_face_with else "normal"
    order = sorted(marks.items(), key=lambda x: (str(x[0][0]), x[0][1] + x[0][2], x[0][2]))
    found = tuple(Score(t, s, c, p) for (t, s, c), p in order if p)
    return RollOdds(r.key, label(cat, r), r.roller, r.skill, r.weapon, r.ammunition, r.sv, v.n,
                    kind, r.face_to_face_with, found, r.attack, v.extra)


def label(cat: Catalogue, r: Roll) -> str:
    """``BS Attack (Combi Rifle, N)``: the skill, weapon and ammunition by name."""
    skill = cat.entries["skills"].get(r.skill)
    text = skill.name if skill else r.skill
    if r.weapon:
        weapon = cat.entries["weapons"].get(r.weapon)
        details = [weapon.name if weapon else r.weapon] + ([ammo_name(cat, r.ammunition)] if r.ammunition else [])
        text += f" ({', '.join(details)})"
    return text


def ammo_name(cat: Catalogue, ammo: str) -> str:
    entry = cat.entries.get("ammunition", {}).get(ammo)
    return entry.name if entry else ammo
