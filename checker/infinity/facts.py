"""Turn a :class:`Game` and its catalogue into clingo facts.

Every input predicate of the rule base is listed, with its meaning, in
``asp/infinity/core/inputs.lp``. Only the catalogue entries a position uses are emitted, plus
the whole (small) tables of common skills and states, so grounding stays small.
"""

from __future__ import annotations

from clingo import Function, Number, String, Symbol

from ..engine.catalogue import Catalogue, Entry, atom_text, split_param
from ..engine.gc_hold import gc_held
from .game import Game, SkillUse
from .params import Term

# The fact asking the rule base to judge only the declared Order and AROs, listing no
# other option (asp/infinity/core/inputs.lp): for a caller that reads nothing else,
# such as ``ruling odds`` with its many copies of one position. tests/test_odds.py checks
# that every case's check report is the same with it.
DECLARED_ONLY = Function("judge_declared_only")
# The facts asking it to list only one side's options (the other side's declared ones
# are still judged): the activated trooper's, for ``ruling aros``; the reacting
# troopers', for ``ruling declarations``. Each report reads nothing else; tests/test_report_inputs.py
# checks every case's report is the same with it.
NO_DECLARATION_LISTS = Function("list_no_declarations")
NO_ARO_LISTS = Function("list_no_aros")


@gc_held()
def build(game: Game, catalogue: Catalogue) -> list[Symbol]:
    """All facts for ``game``: catalogue, troopers, relations, the Order and its AROs."""
    out: list[Symbol] = []
    add = lambda name, *args: out.append(_fact(name, args))

    add("edition", game.edition)
    add("active_side", game.active_side)
    _catalogue(add, catalogue, game)
    for t in game.troopers:
        add("trooper", t.id)
        add("side", t.id, t.side)
        for key, value in t.attributes:
            add("attribute", t.id, key, value)
        if t.troop_type:
            add("troop_type", t.id, t.troop_type)
        if t.deployable:
            add("deployable", t.id)
        if t.training:
            add("training", t.id, t.training)
        if t.lieutenant:
            add("lieutenant", t.id)
        if t.group is not None:
            add("combat_group", t.id, t.group)
        for s in t.skills:
            add("has_skill", t.id, s.id, "none" if s.level is None else s.level)
            if s.param is not None:
                add("skill_param", t.id, s.id, s.param)
        for w in (*t.weapons, *t.equipment):
            add("carries", t.id, w)
        if not t.weapons and t.profile and catalogue.entries["profiles"][t.profile].get("weapons") is None:
            add("weapons_unwritten", t.id)  # a profile without values, no `weapons:` written
        for w in sorted({w for w in t.weapons if t.weapons.count(w) > 1}):
            add("twin_weapons", t.id, w)
        for c in t.characteristics:
            add("characteristic", t.id, c)
        for state in t.states:
            add("state", t.id, state)
        if t.wounds_before is not None:
            add("wounds_before", t.id, t.wounds_before)
    for r in game.relations:
        _relation(add, r)
    names = ("declared_weapon", "declared_ammo", "declared_target", "declared_covers")
    for order in game.orders:
        add("activated", order.trooper)
        if order.impetuous:
            add("impetuous_order")
        if order.coordinated:
            add("coordinated", order.trooper)
        if order.spearhead:
            add("spearhead", order.trooper)
        if order.fireteam:
            add("fireteam_line", order.trooper)
        if order.leader:
            add("fireteam_leader", order.trooper)
        for automatic in order.declares:
            add("declares_automatic", order.trooper, automatic)
        if order.source is not None and order.source != "impetuous":
            add("order_source", order.trooper, order.source, "none" if order.pool is None else order.pool)
        for step, use in enumerate(order.skills, start=1):
            add("declared", order.trooper, step, use.skill)
            _use(add, names, (order.trooper, step), use)
    for team in game.fireteams:
        add("fireteam", team.id, team.type)
        if team.level is not None:
            add("fireteam_level", team.id, team.level)
        for member in team.members:
            add("fireteam_member", team.id, member)
    for trooper, zone in game.deployments:
        add("deploy", trooper, zone)
    for aro in game.aros:
        add("aro", aro.trooper, aro.use.skill, aro.step)
        add("aro_line", aro.trooper, aro.line)
        _use(add, ("aro_weapon", "aro_ammo", "aro_target", "aro_covers"), (aro.trooper,), aro.use)
    for delay in game.delays:
        add("aro_delay", delay.trooper)
        if delay.target is not None:
            add("aro_delay_target", delay.trooper, delay.target)
    for trooper, kind, rolls in game.dice:
        for i, value in enumerate(rolls, start=1):
            add("die", trooper, kind, i, value)
    for trooper, values in game.discards:
        for i, value in enumerate(values, start=1):
            add("discard", trooper, i, value)
    return out


# Facts already made in this process: ``ruling odds`` and ``ruling verify`` build many
# positions that share most of their facts, and making a clingo symbol costs several C
# calls. Bounded: cleared when full.
_FACTS: dict[tuple, Symbol] = {}
_FACTS_MAX = 200_000


def _fact(name: str, args: tuple) -> Symbol:
    key = (name, args, tuple(map(type, args)))  # True == 1, but their facts differ
    found = _FACTS.get(key)
    if found is None:
        if len(_FACTS) >= _FACTS_MAX:
            _FACTS.clear()
        found = _FACTS[key] = Function(name, [_term(a) for a in args])
    return found


def _term(value) -> Symbol:
    """The symbol of a fact's argument (one made before, for a string, int or bool)."""
    if value.__class__ not in _PLAIN:
        return _symbol(value)
    key = (value.__class__, value)  # True == 1, but their terms differ
    found = _TERMS.get(key)
    if found is None:
        if len(_TERMS) >= _FACTS_MAX:
            _TERMS.clear()
        found = _TERMS[key] = _symbol(value)
    return found


_PLAIN = (str, int, bool)
_TERMS: dict[tuple[type, str | int | bool], Symbol] = {}


def _symbol(value) -> Symbol:
    if isinstance(value, Symbol):
        return value
    if isinstance(value, Term):
        return Function(value.name, [_term(a) for a in value.args])
    if isinstance(value, bool):
        return Function("true" if value else "false")
    if isinstance(value, int):
        return Number(value)
    text = str(value)
    if text and (text[0].islower() and text.replace("_", "").isalnum() and text.isascii()):
        return Function(text)
    if text.lstrip("-").isdigit():
        return Number(int(text))
    return String(text)


def _relation(add, r) -> None:
    if r.kind in ("lof", "zoc"):
        add(r.kind, r.subject, r.object, r.step)
    elif r.kind == "hacking":
        add("hacking_area", r.subject, r.object, r.step)
    elif r.kind == "contact":
        add("contact", r.subject, r.object, r.step)
        add("contact", r.object, r.subject, r.step)
    elif r.kind == "distance":
        add("distance", r.subject, r.object, int(r.value))
        add("distance", r.object, r.subject, int(r.value))
    elif r.kind == "cover":
        add("cover", r.subject, r.object, r.value)
    elif r.kind == "visibility":
        zone = "_".join(str(r.value).split())
        add("visibility", r.subject, r.object, zone)
        add("visibility", r.object, r.subject, zone)
    elif r.kind == "visibility_inside":
        add("visibility_inside", r.subject, "_".join(str(r.value).split()))
    elif r.kind == "trigger":
        add("mine_trigger", r.subject, r.object, "dodge" if r.value == "dodge" else "area")
        for c in r.covered:
            add("mine_covers", r.subject, r.object, c)
    elif r.kind == "smoke_at":
        add("smoke_at", r.subject, int(str(r.value)))
    elif r.kind == "smoke_across":
        add("smoke_across", r.subject, r.object, r.value)


def _use(add, names: tuple[str, str, str, str], key: tuple, use: SkillUse) -> None:
    """The details of a declared skill, each fact keyed by ``key`` (the reacting
    trooper, or the activated trooper and the step)."""
    weapon, ammo, target, covers = names
    if use.weapon:
        add(weapon, *key, use.weapon)
    if use.ammunition:
        add(ammo, *key, use.ammunition)
    for i, t in enumerate(use.targets, start=1):
        add(target, *key, t.trooper, t.burst if t.burst is not None else "all")
        add(target + "_index", *key, t.trooper, i)
        for c in t.covered:
            add(covers, *key, t.trooper, c)


def _catalogue(add, catalogue: Catalogue, game: Game) -> None:
    for skill in catalogue.all("skills"):
        add("common_skill", skill.id)
        add("skill_kind", skill.id, skill.get("kind", "short"))
        add("skill_name", skill.id, skill.name)
        add("skill_source", skill.id, skill.source)
        if skill.get("aro"):
            add("aro_skill", skill.id)
        if skill.get("lof"):
            add("lof_skill", skill.id)
        if skill.get("roll"):
            add("skill_roll", skill.id, skill.get("roll"))
        if skill.get("burst"):
            add("skill_burst", skill.id, skill.get("burst"))
        for label in skill.get("labels", []):
            add("skill_label", skill.id, atom_text(label))
        for need in skill.get("needs", []):
            add("skill_needs", skill.id, _need(need))
    for state in catalogue.all("states"):
        add("state_name", state.id, state.name)
        for flag in ("marker", "hidden", "null"):
            if state.get(flag):
                add("state_" + flag, state.id)
    used = {w for t in game.troopers for w in (*t.weapons, *t.equipment)}
    declared = [u for o in game.orders for u in o.skills] + [a.use for a in game.aros]
    used |= {u.weapon for u in declared if u.weapon}
    for weapon_id in sorted(used):
        _weapon(add, catalogue.entries["weapons"][weapon_id])
    for special in sorted({s.id for t in game.troopers for s in t.skills}):
        add("special_skill_name", special, catalogue.entries["special_skills"][special].name)


def _need(need: str) -> Symbol:
    head, sep, arg = need.partition(":")
    if not sep:
        return Function(head)
    return Function(head, [Function(atom_text(arg))])


def _weapon(add, w: Entry) -> None:
    add("weapon_name", w.id, w.name)
    add("weapon_kind", w.id, w.get("kind", "bs"))
    for key in ("damage", "ps"):  # N3 DAM / N5 PS: an integer, or the attribute it uses
        if w.get(key) is not None:
            add("weapon_" + key, w.id, w.get(key) if isinstance(w.get(key), int) else atom_text(w.get(key)))
    if w.get("saving"):
        add("weapon_saving", w.id, atom_text(w.get("saving")))
    if isinstance(w.get("burst"), int):
        add("weapon_burst", w.id, w.get("burst"))
    for trait in w.get("traits", []):
        add("weapon_trait", w.id, atom_text(trait.split("(")[0]))
        name, param = split_param(trait)
        if param:  # 'BS Weapon (PH)': weapon_trait_param(grenades, bs_weapon, ph)
            add("weapon_trait_param", w.id, atom_text(name), atom_text(param))
    for ammo in w.get("ammunition", []):
        add("weapon_ammo", w.id, atom_text(ammo))
    if w.get("template", "none") != "none":
        add("weapon_template", w.id, w.get("template"), w.get("template_type", "impact"))
    ranges = w.get("ranges", [])
    for low, high, mod in ranges:
        add("weapon_range", w.id, round(low * 10), round(high * 10), mod)
    if ranges:
        add("weapon_max_range", w.id, round(max(r[1] for r in ranges) * 10))
