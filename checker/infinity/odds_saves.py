"""Saving rolls and end states of an Order priced exactly (part of ``ruling odds``,
:mod:`checker.infinity.odds`): given the hits, each trooper's saves per hit as the edition's
damage rules ask for them (asp/infinity/core/damage.lp, asp/infinity/<edition>/damage.lp, restated here
per hit), its Wounds and its end state, and the summary chances. What cannot be priced
is named and left out (None), never counted as nothing.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ..engine.catalogue import Catalogue, atom_text
from . import dice
from .game import Game
from .odds_rolls import RollView
from .resolution import Roll

UNHARMED = "unharmed"
# End states that take the trooper out of the fight: every Unconscious kind and Dead.
# The tokens placed instead of Unconscious (NWI, Dogged) leave it acting as Normal.
DOWN = frozenset({"unconscious", "unconscious_level_2", "shasvastii_embryo", "dead"})
# Every end state a trooper may be left in, from no harm to Dead (``_state``).
END_STATES = (UNHARMED, "wounded", "nwi", "dogged", "unconscious", "shasvastii_embryo", "unconscious_level_2",
              "dead")
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
# The special skill giving a trooper with STR a second Unconscious level.
REMOTE_PRESENCE = {"n5": "remote_presence", "n3": "g_remote_presence"}
# Skills a trooper chooses between at its first Unconscious (N3 FAQ 1.2, No Wound
# Incapacitation: V: Dogged or G: Remote Presence): the odds do not price a choice.
CHOSEN_TOGETHER = {"n5": frozenset(), "n3": frozenset({"v_dogged", "g_remote_presence"})}


def end_states(game, cat, views, hits, involved, unpriced):
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
    if CHOSEN_TOGETHER[ed] and CHOSEN_TOGETHER[ed] <= skills:
        odd = sorted(set(odd) | CHOSEN_TOGETHER[ed])
    tokens = [REPLACEMENT[ed][s] for s in sorted(skills) if s in REPLACEMENT[ed]]
    if odd or len(tokens) > 1:
        unpriced.append(f"{t}: the special skills {', '.join(odd or sorted(skills & set(REPLACEMENT[ed])))} "
                        "change its saves or Wounds in ways the odds do not price")
        return None
    replaced = any(s in REPLACEMENT[ed].values() for s in trooper.states)
    down_before = replaced or any(s in UNCONSCIOUS_KINDS[ed] for s in trooper.states)
    prior = trooper.wounds_before if trooper.wounds_before is not None else (life if down_before else 0)
    levels = 2 if REMOTE_PRESENCE[ed] in skills and "str" in attrs and not replaced else 1
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


def _slots(game: Game, cat: Catalogue, v: RollView, t: str, crit: bool, unpriced: list[str]) -> list[dice.Slot] | None:
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


def summary(game: Game, reactor: str | None, states, together, blocked):
    """(an activated trooper down, the reacting trooper down, nothing happens); as
    declared, the second is the chance some reactive trooper ends down."""
    active = None if blocked & set(game.activated) else together["active"]
    if reactor is not None:
        react = None if reactor in blocked else sum(
            (p for s, p in states.get(reactor, {}).items() if s in DOWN), Fraction(0))
    else:
        react = None if blocked - set(game.activated) else together["reactive"]
    return active, react, (None if blocked else together["nothing"])
