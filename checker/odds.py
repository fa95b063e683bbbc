"""Exact odds of an Order (``ruling odds``).

For the Order as declared, and for each legal ARO of each reactive trooper taken as if
it declared that option (every other trooper as written): each roll's distribution of
standing successes and Criticals, each trooper's end state after the saving rolls, and
a summary a player reads at a glance. Every number is a fraction, computed, never
sampled.

The rolls (Success Value, dice, Face to Face pairings, ammunition, the hits of a
Direct Template) are the resolution's: each option is solved with its dice removed and
read through :mod:`checker.resolution`. :mod:`checker.dice` counts every outcome of the
dice; the saves follow the edition's damage rules (asp/core/damage.lp,
asp/<edition>/damage.lp), restated here per hit. What the odds cannot price (a pending
fact, an ammunition or skill not restated here) is named in ``not_priced``, and every
number it would change is left out (None), never counted as nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from . import analysis, dice, facts, report, solver
from .catalogue import Catalogue, atom_text
from .game import Aro, Game, SkillUse, TargetUse
from .resolution import Roll, resolution

UNHARMED = "unharmed"
# End states that take the trooper out of the fight: every Unconscious kind and Dead.
# The tokens placed instead of Unconscious (NWI, Dogged) leave it acting as Normal.
DOWN = frozenset({"unconscious", "unconscious_level_2", "shasvastii_embryo", "dead"})
EVASION = frozenset({"dodge", "change_facing"})  # rolls that evade an Attack (core and N3 templates.lp)
# The ammunition whose saves are restated here, per edition (core/damage.lp; N3 Fire:
# n3/ammo_fire_em.lp). Any other is named as not priced.
PRICED_AMMO = {"n5": frozenset({"n", "ap", "da", "exp", "t2", "shock"}),
               "n3": frozenset({"n", "ap", "da", "exp", "t2", "shock", "fire"})}
# Shock kills a trooper with 1 in this attribute that fails a save against it (core/damage.lp).
SHOCK_LIFE = {"n5": "vita", "n3": "w"}
AMMO_SAVES = {"da": 2, "exp": 3}
AMMO_HALVES: dict[str, dict[str, tuple[str, ...]]] = {"n5": {"ap": ("arm", "bts")}, "n3": {"ap": ("arm",)}}
# The skills that place a token instead of Unconscious (n5/damage.lp, n3/damage.lp).
REPLACEMENT = {
    "n5": {"no_wound_incapacitation": "nwi", "dogged": "dogged", "shasvastii": "shasvastii_embryo"},
    "n3": {"v_no_wound_incapacitation": "nwi", "v_dogged": "dogged"},
}
UNCONSCIOUS_KINDS = {"n5": {"unconscious", "shasvastii_embryo"}, "n3": {"unconscious", "spawn_embryo"}}
# Special skills that change saves or Wounds in ways not restated here.
UNPRICED_SKILLS = {"n5": frozenset({"immunity"}), "n3": frozenset({"immunity_shock", "immunity_total"})}
FIRE_SENSITIVE = frozenset({"impersonation", "ch_camouflage", "ch_to_camouflage"})  # N3 Burnt
MAX_ENUMERATION = 20_000  # dice multisets a template roll may enumerate (its Burst)

# What follows the end states and is not priced: ruling check resolves it.
LEFT_OUT = (
    "the Guts Roll a trooper that survives an Attack makes, and what a failed one makes it do",
    "the move a passed Dodge allows",
)
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
    kind: str  # face_to_face | normal | template (a Direct Template: hits without a roll)
    against: tuple[str, ...]  # the rolls it faces
    scores: tuple[Score, ...]
    attack: bool = True  # its standing dice are hits; else a roll that passes or fails (Dodge, Reset)


@dataclass(frozen=True)
class EndState:
    trooper: str
    state: str  # unharmed, wounded, unconscious, unconscious_level_2, nwi, dogged, shasvastii_embryo, dead
    chance: Fraction


@dataclass(frozen=True)
class OptionOdds:
    """One row: the Order as declared (``reactor`` None), or one reactive trooper's ARO
    option with every other trooper as written."""

    reactor: str | None
    label: str  # "BS Attack (Combi Rifle)", or "as declared"
    skill: str | None
    weapon: str | None
    ammunition: str | None
    rolls: tuple[RollOdds, ...]
    end_states: tuple[EndState, ...]  # by trooper, then state
    active_down: Fraction | None  # an activated trooper ends Unconscious or worse
    reactor_down: Fraction | None  # the reacting trooper does (as declared: any reactive trooper)
    nothing: Fraction | None  # no trooper loses a Wound or gains a state
    not_priced: tuple[str, ...] = ()  # what the numbers leave out, and why

    @property
    def margin(self) -> Fraction | None:
        """The reactive player's edge: its enemy down less its own trooper down."""
        if self.active_down is None or self.reactor_down is None:
            return None
        return self.active_down - self.reactor_down


@dataclass(frozen=True)
class OddsReport:
    edition: str
    activated: tuple[str, ...]
    declared: OptionOdds
    options: tuple[OptionOdds, ...]  # best first for the reactive player
    conflicts: tuple[report.Conflict, ...]
    breaches: tuple[report.Judgement, ...]
    left_out: tuple[str, ...] = LEFT_OUT


def odds(text: str, file: str = "<position>") -> OddsReport:
    """The odds of the position's Order and of each legal ARO option. Its dice are
    ignored: the odds are taken before any die is rolled.

    Raises
    ------
    NotationError, PositionError
        For a position that does not parse or names something unknown.
    RuleBaseError
        If the rule base fails.
    """
    game, cat, _ = analysis.load(text, file)
    game = replace(game, dice=())
    atoms = solver.solve(game.edition, facts.build(game, cat))
    aros = report.aro_report(game, atoms, cat)
    declared = option_odds(game, cat, atoms)
    rows = []
    for reactive in aros.reactive:
        step = next((a.step for a in game.aros if a.trooper == reactive.trooper), reactive.declares_after or 1)
        for option in reactive.legal:
            for ammo in _ammunitions(cat, option.weapon):
                targets = (TargetUse(option.against, None, ()),) if option.against else ()
                variant = _with_aro(game, reactive.trooper, SkillUse(option.skill, option.weapon, ammo, targets), step)
                solved = solver.solve(variant.edition, facts.build(variant, cat))
                label = option.label if ammo is None else option.label.replace(
                    f"({option.weapon_name})", f"({option.weapon_name}, {_ammo_name(cat, ammo)})")
                row = option_odds(variant, cat, solved, reactive.trooper)
                rows.append(replace(row, label=label, skill=option.skill, weapon=option.weapon, ammunition=ammo))
    rows.sort(key=_best_first)
    return OddsReport(game.edition, game.activated, declared, tuple(rows), aros.conflicts, aros.breaches)


def option_odds(game: Game, cat: Catalogue, atoms: solver.Atoms, reactor: str | None = None) -> OptionOdds:
    """The odds of one solved position (its dice removed): every roll, every end state."""
    resolved = resolution(game, atoms)
    # the Order's skills and the AROs; a Guts Roll (asked for when a Direct Template hits
    # without a roll) comes after the end states and is not priced
    rolls = tuple(r for r in resolved.rolls if r.key.startswith("aro ") or " skill " in r.key) if resolved else ()
    unpriced: list[str] = []
    views = [_View.of(game, cat, r, unpriced) for r in rolls]
    priced, hits = _price_rolls(game, cat, views, unpriced)
    states: dict[str, dict[str, Fraction]] = {}
    active = react = nothing = None
    if hits is not None:
        involved = {t for v in views for t in (v.roll.roller, *v.under)} | {t for vec in hits for _, t, _, _ in vec}
        states, together, blocked = _end_states(game, cat, views, hits, sorted(involved), unpriced)
        active, react, nothing = _summary(game, reactor, states, together, blocked)
    # a roll that is neither a weapon's Attack, an evasion nor Reset changes something
    # the end states do not price (Discover reveals, Forward Observer targets...)
    for v in views:
        if not v.roll.attack and v.roll.skill not in EVASION | {"reset"}:
            unpriced.append(f"{v.key}: what a passed {_label(cat, v.roll)} does is not priced")
            nothing = None
    rows = tuple(EndState(t, s, p) for t in sorted(states) for s, p in sorted(states[t].items()))
    return OptionOdds(reactor, "as declared", None, None, None, priced, rows, active, react, nothing,
                      tuple(dict.fromkeys(unpriced)))


# ---- The rolls ---------------------------------------------------------------------

@dataclass(frozen=True)
class _View:
    """A roll of the resolution, with what pricing it needs."""

    roll: Roll
    faces: tuple[dice.Face, ...]  # its 20 faces; empty for a Direct Template and a roll not priced
    priced: bool  # its Success Value and dice are known (a Direct Template: its hits)
    template: bool  # an Attack with a Template Weapon that rolls
    under: tuple[str, ...]  # the troopers its Attack affects: the target, then those its template covers

    @staticmethod
    def of(game: Game, cat: Catalogue, roll: Roll, unpriced: list[str]) -> _View:
        weapon = cat.entries["weapons"].get(roll.weapon) if roll.weapon else None
        template = bool(weapon and weapon.get("template", "none") != "none" and roll.attack and not roll.automatic)
        under: tuple[str, ...] = ()
        if roll.automatic:
            under = tuple(t for t, _ in roll.hit_troopers)
        elif roll.attack and roll.target:
            under = (roll.target, *(_covered(game, cat, roll) if template else ()))
        faces: tuple[dice.Face, ...] = ()
        priced = not (roll.pending or roll.dice_needed is None or (roll.sv is None and not roll.automatic))
        if not priced:
            why = "; ".join(f"write '{p.write}' ({p.where})" for p in roll.pending) or "its Success Value is not known"
            unpriced.append(f"{roll.key}: {why}")
        elif not roll.automatic:
            faces = dice.faces(roll.sv or 0, game.edition)
        engaged = {x for r in game.relations if r.kind == "contact" for x in (r.subject, r.object)}
        if any(m.rule == "bs_into_cc" for m in roll.mods):
            unpriced.append(f"{roll.key}: a BS Attack into a Close Combat, whose failed dice may hit an ally")
            priced = False
        elif template and game.edition == "n3" and engaged & set(under):
            unpriced.append(f"{roll.key}: a template over a Close Combat affects everyone in it (N3)")
            priced = False
        return _View(roll, faces, priced, template, under)

    @property
    def key(self) -> str:
        return self.roll.key

    @property
    def n(self) -> int:
        """Its number of dice."""
        return self.roll.dice_needed or 0


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


def _price_rolls(game: Game, cat: Catalogue, views: list[_View], unpriced: list[str]):
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


def _components(views: list[_View]) -> list[list[str]]:
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


def _component(game, part: list[_View], by_key, scores, unpriced) -> dict[HitVector, Fraction] | None:
    """The joint hits of rolls that face each other, and each roll's scores."""
    if len(part) == 1 and part[0].roll.automatic:
        return _direct_template(part[0], by_key, scores, unpriced)
    if len(part) == 1:
        v = part[0]
        counts = dice.normal_roll(v.faces, v.n)
        return _tally_pairs(game, [((v, _only(v, outcome)),) for outcome in counts], counts.values(), 20 ** v.n,
                            scores)
    if len(part) == 2 and not any(v.template and len(v.under) > 1 for v in part):
        a, b = part
        pairs = dice.face_to_face(a.faces, a.n, b.faces, b.n)
        outcomes = [((a, _only(a, oa)), (b, _only(b, ob))) for oa, ob in pairs]
        return _tally_pairs(game, outcomes, pairs.values(), 20 ** (a.n + b.n), scores)
    hubs = [v for v in part if len(v.roll.face_to_face_with) > 1 or (v.template and len(v.under) > 1)]
    if len(hubs) == 1 and hubs[0].template and all(
            v is hubs[0] or v.roll.face_to_face_with == (hubs[0].key,) for v in part):
        return _star(game, hubs[0], [v for v in part if v is not hubs[0]], scores, unpriced)
    unpriced.append("rolls facing each other in a way not priced: " + ", ".join(v.key for v in part))
    return None


def _only(v: _View, outcome: dice.Outcome) -> dict[str | None, dice.Outcome]:
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


def _as_hit(game: Game, v: _View, trooper: str | None, s: int, c: int) -> tuple[int, int]:
    """Standing dice as what they do to ``trooper``: N3, a Critical of a template is a
    Critical only for its target, a success for the others under it (n3/templates.lp)."""
    if v.template and trooper != v.roll.target and game.edition == "n3":
        return s + c, 0
    return s, c


def _hits(game: Game, v: _View, trooper: str | None, s: int, c: int) -> list[tuple[str, str, int, int]]:
    """The hits standing dice make: an Attack's, on the trooper they count against."""
    if not v.roll.attack or trooper is None or not s + c:
        return []
    return [(v.key, trooper, *_as_hit(game, v, trooper, s, c))]


def _star(game, hub: _View, leaves: list[_View], scores, unpriced) -> dict[HitVector, Fraction] | None:
    """A template roll faced by each affected trooper on its own (core/rolls.lp: each
    answer cancels the template's dice only for its own roller): enumerate the
    template's dice, and each answer given them."""
    n = hub.n
    if dice.multiset_count(n, hub.faces) > MAX_ENUMERATION:
        unpriced.append(f"{hub.key}: a template roll of {n} dice faced by several troopers")
        return None
    answers = {leaf.roll.roller: leaf for leaf in leaves}
    total_hub = 20 ** n
    joint: dict[HitVector, Fraction] = defaultdict(Fraction)
    for hub_dice, hub_ways in dice.dice_classes(hub.faces, n):
        combos: dict[tuple, Fraction] = {((), ()): Fraction(hub_ways, total_hub)}
        for leaf in leaves:
            step: dict[tuple, Fraction] = defaultdict(Fraction)
            m = leaf.n
            for leaf_dice, ways in dice.dice_classes(leaf.faces, m):
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


def _direct_template(v: _View, by_key, scores, unpriced) -> dict[HitVector, Fraction] | None:
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
            fails = dice.normal_roll(e.faces, e.n).get((0, 0), 0)
            dodged = 1 - (1 - dodged) * Fraction(fails, 20 ** e.n)
        mark = scores.setdefault(v.key, defaultdict(Fraction))
        mark[(trooper, placed, 0)] += 1 - dodged
        if dodged:
            mark[(trooper, 0, 0)] += dodged
        joint = _product(joint, {((v.key, trooper, placed, 0),): 1 - dodged, (): dodged})
    return joint


def _product(a: dict[HitVector, Fraction], b: dict[HitVector, Fraction]) -> dict[HitVector, Fraction]:
    out: dict[HitVector, Fraction] = defaultdict(Fraction)
    for va, pa in a.items():
        for vb, pb in b.items():
            if pa and pb:
                out[tuple(sorted(va + vb))] += pa * pb
    return dict(out)


def _roll_odds(cat: Catalogue, v: _View, marks: dict[tuple, Fraction]) -> RollOdds:
    r = v.roll
    kind = "template" if r.automatic else "face_to_face" if r.face_to_face_with else "normal"
    order = sorted(marks.items(), key=lambda x: (str(x[0][0]), x[0][1] + x[0][2], x[0][2]))
    found = tuple(Score(t, s, c, p) for (t, s, c), p in order if p)
    return RollOdds(r.key, _label(cat, r), r.roller, r.skill, r.weapon, r.ammunition, r.sv, v.n,
                    kind, r.face_to_face_with, found, r.attack)


def _label(cat: Catalogue, r: Roll) -> str:
    """``BS Attack (Combi Rifle, N)``: the skill, weapon and ammunition by name."""
    skill = cat.entries["skills"].get(r.skill)
    text = skill.name if skill else r.skill
    if r.weapon:
        weapon = cat.entries["weapons"].get(r.weapon)
        details = [weapon.name if weapon else r.weapon] + ([_ammo_name(cat, r.ammunition)] if r.ammunition else [])
        text += f" ({', '.join(details)})"
    return text


# ---- Saves and end states ------------------------------------------------------------

def _end_states(game, cat, views, hits, involved, unpriced):
    """Each trooper's end-state distribution, and, over the whole Order: the chance
    nothing happens and the chance some activated (some reactive) trooper ends down;
    and the troopers whose end state cannot be priced. Given the hits, each trooper's
    saves are its own dice: the troopers are independent."""
    by_key = {v.key: v for v in views}
    blocked: set[str] = set()
    states: dict[str, dict[str, Fraction]] = {t: defaultdict(Fraction) for t in involved}
    together = {"nothing": Fraction(0), "active": Fraction(0), "reactive": Fraction(0)}
    cache: dict[tuple, dict[str, Fraction] | None] = {}
    for vector, chance in hits.items():
        stays = {"nothing": Fraction(1), "active": Fraction(1), "reactive": Fraction(1)}
        for t in involved:
            mine = tuple((k, s, c) for k, who, s, c in vector if who == t)
            if (t, mine) not in cache:
                cache[(t, mine)] = _trooper_end(game, cat, by_key, t, mine, unpriced)
            dist = cache[(t, mine)]
            if dist is None:
                blocked.add(t)
                continue
            for state, p in dist.items():
                states[t][state] += chance * p
            stays["nothing"] *= dist.get(UNHARMED, Fraction(0))
            up = 1 - sum((p for s, p in dist.items() if s in DOWN), Fraction(0))
            stays["active" if t in game.activated else "reactive"] *= up
        together["nothing"] += chance * stays["nothing"]
        together["active"] += chance * (1 - stays["active"])
        together["reactive"] += chance * (1 - stays["reactive"])
    kept = {t: dict(s) for t, s in states.items() if t not in blocked}
    return kept, together, blocked


def _trooper_end(game, cat, by_key, t: str, mine, unpriced) -> dict[str, Fraction] | None:
    """The end state of trooper ``t`` after the saves its hits call for."""
    if not mine:
        return {UNHARMED: Fraction(1)}
    trooper = game.trooper(t)
    attrs = dict(trooper.attributes)
    life = next((attrs[a] for a in ("w", "vita", "str") if a in attrs), None)
    skills = {s.id for s in trooper.skills}
    ed = game.edition
    if life is None:
        unpriced.append(f"{t}: its W / VITA / STR is not written")
        return None
    odd = sorted(skills & UNPRICED_SKILLS[ed])
    tokens = [REPLACEMENT[ed][s] for s in sorted(skills) if s in REPLACEMENT[ed]]
    if odd or len(tokens) > 1:
        unpriced.append(f"{t}: the special skills {', '.join(odd or sorted(skills & set(REPLACEMENT[ed])))} "
                        "change its saves or Wounds in ways the odds do not price")
        return None
    replaced = any(s in REPLACEMENT[ed].values() for s in trooper.states)
    down_before = replaced or any(s in UNCONSCIOUS_KINDS[ed] for s in trooper.states)
    prior = trooper.wounds_before if trooper.wounds_before is not None else (life if down_before else 0)
    levels = 2 if ed == "n5" and "remote_presence" in skills and "str" in attrs and not replaced else 1
    cap = life + levels - prior
    if cap <= 0:
        unpriced.append(f"{t}: it is Dead before the Order")
        return None
    parts = []
    for key, s, c in mine:
        for crit, count in ((False, s), (True, c)):
            slots = _slots(game, cat, by_key[key], t, crit, unpriced) if count else []
            if slots is None:
                return None
            per_hit = dice.total_wounds((dice.slot_wounds(x, cap) for x in slots), cap)
            parts.extend([per_hit] * count)
    out: dict[str, Fraction] = defaultdict(Fraction)
    for lost, p in dice.total_wounds(parts, cap).items():
        out[_state(lost, prior, life, life + levels, down_before, tokens)] += p
    return dict(out)


def _state(lost: int, prior: int, life: int, dead_at: int, down_before: bool, tokens: list[str]) -> str:
    """What ``lost`` Wounds in this Order leave (core/damage.lp, life levels)."""
    total = prior + lost
    if lost == 0:
        return UNHARMED
    if total >= dead_at:
        return "dead"
    if total > life:
        return "unconscious_level_2"
    if total == life and not down_before:
        return tokens[0] if tokens else "unconscious"
    return "wounded"


def _slots(game: Game, cat: Catalogue, v: _View, t: str, crit: bool, unpriced: list[str]) -> list[dice.Slot] | None:
    """The saving rolls one hit of ``v`` on ``t`` calls for (core/damage.lp and the
    edition's damage.lp): per save, the faces that pass, the Wounds a failure costs,
    and whether a failure repeats it."""
    ed, roll = game.edition, v.roll
    weapon = cat.entries["weapons"][roll.weapon or ""]  # an Attack roll has its weapon
    ammo = roll.ammunition
    if ammo is None and len(weapon.get("ammunition", [])) > 1:
        unpriced.append(f"{roll.key}: the ammunition of {weapon.name} is not declared")
        return None
    ammo = ammo or "n"
    target = game.trooper(t)
    attrs = dict(target.attributes)
    if ammo not in PRICED_AMMO[ed]:
        unpriced.append(f"{roll.key}: {ammo.upper()} ammunition is not priced")
        return None
    if ammo == "fire" and {s.id for s in target.skills} & FIRE_SENSITIVE:
        unpriced.append(f"{t}: Fire makes it Burnt (its Fire-Sensitive skills), not priced")
        return None
    saving = atom_text(weapon.get("saving", "ARM"))
    kinds = ("arm", "bts") if saving == "arm_bts" else (saving,)
    if "ph" in kinds:
        unpriced.append(f"{roll.key}: a PH saving roll is not priced")
        return None
    if any(k not in attrs for k in kinds):
        unpriced.append(f"{t}: its {'/'.join(k.upper() for k in kinds)} is not written")
        return None
    against = _against(game, weapon, roll, unpriced)
    if against is None:
        return None
    cover = 3 if t == roll.target and not v.template and _partial_cover(game, t, roll.roller) else 0
    halves = AMMO_HALVES[ed].get(ammo, ())
    repeats = (ed == "n3" and ammo == "fire") or (
        ed == "n5" and "continuous_damage" in (atom_text(x.split("(")[0]) for x in weapon.get("traits", [])))
    wounds = 2 if ammo == "t2" else 1
    kills = ammo == "shock" and attrs.get(SHOCK_LIFE[ed]) == 1  # its failure is Dead, whatever the Wounds

    def save(kind: str) -> int:
        value = dice.halved(attrs[kind]) if kind in halves else attrs[kind]
        return dice.save_roll(ed, kind, value, cover, against).passes

    saves = AMMO_SAVES.get(ammo, 1)
    base = [(j, k) for j in range(1, saves + 1) for k in kinds]
    if crit and ed == "n3":  # the first save of the hit fails with no roll (n3/resolution.lp)
        return [dice.Slot(None, wounds, kills=kills) if j == 1 else dice.Slot(save(k), wounds, repeats, kills)
                for j, k in base]
    slots = [dice.Slot(save(k), wounds, repeats, kills) for _, k in base]
    if crit:  # N5: one more save, ARM for a Combined Saving Roll; T2's costs 1 Wound
        slots.append(dice.Slot(save("arm" if saving == "arm_bts" else kinds[0]), 1 if ammo == "t2" else wounds,
                               kills=kills))
    return slots


def _against(game: Game, weapon, roll: Roll, unpriced: list[str]) -> int | None:
    """N5: the weapon's PS; N3: its DAM (a CC weapon's may be its user's PH)."""
    value = weapon.get("ps" if game.edition == "n5" else "damage")
    if isinstance(value, str) and atom_text(value) == "ph":
        value = dict(game.trooper(roll.roller).attributes).get("ph")
    if not isinstance(value, int):
        unpriced.append(f"{roll.key}: {weapon.name} has no {'PS' if game.edition == 'n5' else 'DAM'} the odds can read")
        return None
    return value


def _partial_cover(game: Game, t: str, attacker: str) -> bool:
    return any(r.kind == "cover" and r.subject == t and r.object == attacker and r.value == "partial"
               for r in game.relations)


def _summary(game: Game, reactor: str | None, states, together, blocked):
    """(an activated trooper down, the reacting trooper down, nothing happens); as
    declared, the second is the chance some reactive trooper ends down."""
    active = None if blocked & set(game.activated) else together["active"]
    if reactor is not None:
        react = None if reactor in blocked else sum(
            (p for s, p in states.get(reactor, {}).items() if s in DOWN), Fraction(0))
    else:
        react = None if blocked - set(game.activated) else together["reactive"]
    return active, react, (None if blocked else together["nothing"])


# ---- Options ----------------------------------------------------------------------------

def _with_aro(game: Game, trooper: str, use: SkillUse, step: int) -> Game:
    """The position with ``trooper``'s ARO replaced by ``use`` (declared after ``step``)."""
    line = next((a.line for a in game.aros if a.trooper == trooper), 0)
    kept = tuple(a for a in game.aros if a.trooper != trooper)
    return replace(game, aros=(*kept, Aro(trooper, use, step, line)))


def _ammunitions(cat: Catalogue, weapon: str | None) -> tuple[str | None, ...]:
    """One option per ammunition when the weapon has several (the ARO must name one)."""
    ammo = cat.entries["weapons"][weapon].get("ammunition", []) if weapon else []
    return tuple(atom_text(a) for a in ammo) if len(ammo) > 1 else (None,)


def _ammo_name(cat: Catalogue, ammo: str) -> str:
    entry = cat.entries.get("ammunition", {}).get(ammo)
    return entry.name if entry else ammo


def _best_first(row: OptionOdds) -> tuple:
    """Best first for the reactive player: the largest edge (its enemy down less its
    own trooper down), then the enemy's chance down; rows not priced last."""
    if row.margin is None:
        return (1, Fraction(0), Fraction(0), row.reactor or "", row.label)
    return (0, -row.margin, -(row.active_down or 0), row.reactor or "", row.label)
