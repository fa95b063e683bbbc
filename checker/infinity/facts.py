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
from .turn import army_fact

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
    add("active_side", Name(game.active_side))
    _catalogue(add, catalogue, game)
    for t in game.troopers:
        me = Name(t.id)
        add("trooper", me)
        add("side", me, Name(t.side))
        for key, value in t.attributes:
            add("attribute", me, key, value)
        if t.troop_type:
            add("troop_type", me, t.troop_type)
        if t.deployable:
            add("deployable", me)
        if t.training:
            add("training", me, t.training)
        if t.lieutenant:
            add("lieutenant", me)
        if t.group is not None:
            add("combat_group", me, t.group)
        if t.controller is not None:
            add("controller", me, Name(t.controller))
        for s in t.skills:
            add("has_skill", me, s.id, NONE if s.level is None else s.level)
            if s.param is not None:
                add("skill_param", me, s.id, s.param)
        for w in (*t.weapons, *t.equipment):
            add("carries", me, w)
        if not t.weapons and (not t.profile or catalogue.entries["profiles"][t.profile].get("weapons") is None):
            add("weapons_unwritten", me)  # no `weapons:` written, no profile that lists them
        for w in sorted({w for w in t.weapons if t.weapons.count(w) > 1}):
            add("twin_weapons", me, w)
        for c in t.characteristics:
            add("characteristic", me, c)
        for state in t.states:
            add("state", me, state)
        if t.wounds_before is not None:
            add("wounds_before", me, t.wounds_before)
        if t.points is not None:
            add("cost", me, t.points)
        if t.species is not None:  # a name the player writes: a string, as a side's species
            add("trooper_species", me, Name(t.species))
    for r in game.relations:
        _relation(add, r)
    names = ("declared_weapon", "declared_ammo", "declared_target", "declared_covers")
    for order in game.orders:
        me = Name(order.trooper)
        add("activated", me)
        if order.impetuous:
            add("impetuous_order")
        if order.coordinated:
            add("coordinated", me)
        if order.spearhead:
            add("spearhead", me)
        if order.fireteam:
            add("fireteam_line", me)
        if order.leader:
            add("fireteam_leader", me)
        for automatic in order.declares:
            add("declares_automatic", me, automatic)
        if order.source is not None and order.source != "impetuous":
            add("order_source", me, order.source, NONE if order.pool is None else order.pool)
        for step, use in enumerate(order.skills, start=1):
            add("declared", me, step, use.skill)
            _use(add, names, (me, step), use)
    for team in game.fireteams:
        add("fireteam", Name(team.id), team.type)
        if team.level is not None:
            add("fireteam_level", Name(team.id), team.level)
        for member in team.members:
            add("fireteam_member", Name(team.id), Name(member))
    for trooper, zone in game.deployments:
        add("deploy", Name(trooper), zone)
    for trooper, entry in game.deploy_entries:
        add("deploy_entry", Name(trooper), entry)
    for trooper, placed in game.deploy_places:
        add("deploy_places", Name(trooper), Name(placed))
    for trooper, placed, zone in game.deploy_places_in:
        add("deploy_places_in", Name(trooper), Name(placed), zone)
    for element, kind in game.elements:  # objectives and neutral elements (docs/deployment.md)
        add("element", Name(element), kind)
    for trooper, element in game.element_contacts:
        add("contact_element", Name(trooper), Name(element))
    for trooper, zone, blocked in game.dispersions:
        add("dispersion", Name(trooper), zone)
        if blocked:
            add("dispersion_blocked", Name(trooper))
    for aro in game.aros:
        me = Name(aro.trooper)
        add("aro", me, aro.use.skill, aro.step)
        add("aro_line", me, aro.line)
        _use(add, ("aro_weapon", "aro_ammo", "aro_target", "aro_covers"), (me,), aro.use)
    for delay in game.delays:
        add("aro_delay", Name(delay.trooper))
        if delay.target is not None:
            add("aro_delay_target", Name(delay.trooper), Name(delay.target))
    for trooper, kind, rolls in game.dice:
        for i, value in enumerate(rolls, start=1):
            add("die", Name(trooper), kind, i, value)
    for trooper, values in game.discards:
        for i, value in enumerate(values, start=1):
            add("discard", Name(trooper), i, value)
    for fact in game.army:  # the Player Turn (checker/infinity/turn.py)
        add(*army_fact(fact))
    return out


class Name(str):
    """A name the position writes (a trooper id, a side, a Fireteam id): a clingo
    string, never a constant, so no name equals a word of the rule base (``none``)."""

    __slots__ = ()


NONE = "none"  # the rule base's constant for an absent level or Combat Group


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


_PLAIN = (str, int, bool, Name)
_TERMS: dict[tuple[type, str | int | bool], Symbol] = {}


def _symbol(value) -> Symbol:
    if isinstance(value, Symbol):
        return value
    if isinstance(value, Name):
        return String(value)
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
    subject, object_ = Name(r.subject), Name(r.object)
    if r.kind in ("lof", "zoc"):
        add(r.kind, subject, object_, r.step)
    elif r.kind == "hacking":
        add("hacking_area", subject, object_, r.step)
    elif r.kind == "contact":
        add("contact", subject, object_, r.step)
        add("contact", object_, subject, r.step)
    elif r.kind == "distance":
        add("distance", subject, object_, int(r.value))
        add("distance", object_, subject, int(r.value))
    elif r.kind == "cover":
        add("cover", subject, object_, r.value)
    elif r.kind == "visibility":
        zone = "_".join(str(r.value).split())
        add("visibility", subject, object_, zone)
        add("visibility", object_, subject, zone)
    elif r.kind == "visibility_inside":
        add("visibility_inside", subject, "_".join(str(r.value).split()))
    elif r.kind == "trigger":
        add("mine_trigger", subject, object_, "dodge" if r.value == "dodge" else "area")
        for c in r.covered:
            add("mine_covers", subject, object_, Name(c))
    elif r.kind == "smoke_at":
        add("smoke_at", subject, int(str(r.value)))
    elif r.kind == "smoke_across":
        add("smoke_across", subject, object_, Name(str(r.value)))
    elif r.kind in ("nearest", "toward", "reach"):  # stated for the first Move, or `from second`
        add("impetuous_" + r.kind, subject, object_, max(1, r.step))
    elif r.kind in ("toward_zone", "inside_zone"):
        add("impetuous_" + r.kind, subject, max(1, r.step))
    elif r.kind in ("path_measured", "path_difficult", "zone_clear", "zone_within", "path_doubles_back",
                    "zone_left"):
        add(r.kind, subject, r.step)  # step: the skill whose path was measured
    elif r.kind in ("gap_start", "gap_end"):
        add("path_gap", subject, r.step, object_, r.kind[4:], int(str(r.value)))
    elif r.kind in ("zone_gap_start", "zone_gap_end"):
        add("zone_gap", subject, r.step, r.kind[9:], int(str(r.value)))
    elif r.kind == "path_clear":
        add(r.kind, subject, r.step, object_)
    elif r.kind == "path_length":
        add("path_length", subject, r.step, int(str(r.value)))


def _use(add, names: tuple[str, str, str, str], key: tuple, use: SkillUse) -> None:
    """The details of a declared skill, each fact keyed by ``key`` (the reacting
    trooper, or the activated trooper and the step)."""
    weapon, ammo, target, covers = names
    if use.weapon:
        add(weapon, *key, use.weapon)
    if use.ammunition:
        add(ammo, *key, use.ammunition)
    for i, t in enumerate(use.targets, start=1):
        trooper = Name(t.trooper)
        add(target, *key, trooper, t.burst if t.burst is not None else "all")
        add(target + "_index", *key, trooper, i)
        for c in t.covered:
            add(covers, *key, trooper, Name(c))


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
