"""Special skill parameters: typed in Python (checker/infinity/params.py), never parsed by a rule."""

from __future__ import annotations

import pytest

from checker.engine import catalogue as cat
from checker.engine.catalogue import YES
from checker.infinity import editions, facts, params
from checker.infinity.notation import parse
from checker.infinity.resolve import resolve


def held(text: str, edition: str = "n5"):
    """The typed parameter a trooper writing ``text`` in its skills holds."""
    game = resolve(parse(f"edition {edition}\nactive a\ntrooper t a {{ skills: {text} }}\norder t: Idle\n", "p.pos"))
    return game.troopers[0].skills[0].param


@pytest.mark.parametrize(("text", "value"), [
    ("Mimetism (-6)", -6),
    ("Berserk (+3)", 3),
    ("Surprise Attack (CC-6)", params.Term("mod", ("cc", -6))),
    ("Surprise Attack (-3)", params.Term("mod", ("all", -3))),
    ("Surprise Attack (wip -3)", params.Term("mod", ("wip", -3))),
    ("Immunity (ARM)", "arm"),
    ("Immunity (Enhanced)", "enhanced"),
    ("Immunity (Shock)", params.Term("ammo", ("shock",))),
    ("Immunity (E/M)", params.Term("ammo", ("e_m",))),
    ("Immunity (Stunned)", params.Term("state", ("stunned",))),
    ("Immunity (Continuous Damage)", params.Term("trait", ("continuous_damage",))),
    ("Terrain (Zero-G)", "zero_g"),
    ("Decoy (2)", 2),
    ("Infiltration (PH=18)", params.Term("value", ("ph", 18))),
    ("Doctor (2W)", params.Term("wounds", (2,))),
    ("Engineer (Reroll -3)", params.Term("reroll", (-3,))),
    ("Lieutenant (+1 Order)", params.Term("extra", ("order",))),
    ("Lieutenant (+1 command  token)", params.Term("extra", ("command_token",))),
    ("Combat Jump (Explosion)", "explosion"),
    ("Parachutist (Deployment Zone)", "deployment_zone"),
    ("Minelayer (2)", 2),
    ("Peripheral (Servant)", "servant"),
    ("Super-Jump (Jump)", None),  # a text parameter: no rule reads it
])
def test_each_type_reads_its_value(text, value):
    assert held(text) == value


@pytest.mark.parametrize(("text", "message", "expected"), [
    ("Surprise Attack (XX-3)", "'XX-3' is not a MOD, or a MOD to an attribute", "optionally after an attribute"),
    ("Surprise Attack (CC-13)", "'CC-13': its MOD is out of range", "from -12 to 12"),
    ("Mimetism (three)", "a MOD 'three' is out of range", "a MOD from -12 to 12"),
    ("Immunity (Banana)", "Immunity (Banana) names no attribute, ammunition, trait or state of edition n5",
     "ARM, BTS, Enhanced, Critical"),
    ("Terrain (Sea)", "Terrain (Sea): not one of its values", "one of: Aquatic, Desert"),
    ("Stealth (2)", "Stealth takes no value in brackets", "Stealth without brackets"),
    ("Mimetism (+3)", "Mimetism (+3): its MOD is a penalty, below 0", "a MOD from -12 to -1"),
    ("Surprise Attack (CC+3)", "Surprise Attack (CC+3): its MOD is a penalty, below 0", "a MOD from -12 to -1"),
    ("Camouflage (0)", "Camouflage (0): its MOD is a penalty, below 0", "a MOD from -12 to -1"),
    ("Doctor (3 wounds)", "'3 wounds' is not a variant of the skill", "2W, or Reroll -X"),
    ("Doctor (3W)", "'3W' is not a variant of the skill", "2W, or Reroll -X"),
    ("Lieutenant (+2 Orders)", "'+2 Orders' is not an extra of the Lieutenant", "+1 Order, or +1 Command Token"),
    ("Infiltration (PH 18)", "'PH 18' is not an attribute with its value", "an attribute and its value"),
    ("Infiltration (PH=31)", "PH '31' is out of range", "PH from 0 to 30"),
])
def test_a_value_its_type_refuses_is_a_located_position_error(text, message, expected):
    from checker.engine.errors import PositionError

    with pytest.raises(PositionError) as caught:
        held(text)
    assert str(caught.value.args[0]) == message
    assert caught.value.location.line == 3 and caught.value.location.column > 20
    assert any(expected in e for e in caught.value.expected), caught.value.expected


def test_a_typed_value_reaches_clingo_as_a_term():
    game = resolve(parse("edition n5\nactive a\ntrooper t a { skills: Surprise Attack (CC-6), Immunity (Shock) }\n"
                         "order t: Idle\n", "p.pos"))
    shown = {str(f) for f in facts.build(game, cat.load("n5")) if f.name == "skill_param"}
    assert shown == {'skill_param("t",surprise_attack,mod(cc,-6))', 'skill_param("t",immunity,ammo(shock))'}


@pytest.mark.parametrize("edition", editions())
def test_every_parameter_names_its_type_and_a_text_one_is_never_fully_modelled(edition):
    for entry in cat.load(edition).all("special_skills"):
        kind = entry.get("param")
        assert kind is False or kind in params.KINDS, f"{entry.id}: param = {kind!r}"
        assert (kind == "choice") == bool(entry.get("param_values")), entry.id
        assert kind != "text" or entry.modelled != YES, f"{entry.id}: a fully modelled skill's value must be typed"
        assert entry.get("param_sign") in (None, "negative") and (
            entry.get("param_sign") is None or kind in ("mod", "attribute_mod")), entry.id
