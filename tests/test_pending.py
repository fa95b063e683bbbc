"""Pending information and unused dice: a fact a rule needs that the position does not
write leaves its roll (or saves, or states) pending and says what to write, in text and
JSON; a die no roll reads is a located position error (exit 2), unless it was written
for a declared skill a rule denies or performs as Idle, which the resolution lists."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from checker.engine.errors import PositionError
from checker.infinity import analysis

SHOT = """edition n5
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof fus <-> alg
order fus: BS Attack (Combi Rifle) -> alg x2
aro alg: BS Attack (Combi Rifle) -> fus
dice fus: 3 11
dice alg: 16
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def check_json(write, text: str) -> dict:
    result = run("check", write(text), "--format", "json")
    assert result.exit_code in (EXIT_OK, EXIT_ILLEGAL), result.output
    return json.loads(result.output)["resolution"]


def pending_items(resolution) -> set[tuple]:
    return {(p.subject, p.missing, p.ids, p.rules) for p in resolution.pending}


def test_no_distance_leaves_both_rolls_pending_and_says_what_to_write(write):
    res = check_json(write, SHOT)
    assert res["complete"] is False
    rolls = {r["key"]: r for r in res["rolls"]}
    order, aro = rolls["fus skill 1 -> alg"], rolls["aro alg"]
    assert (order["sv"], aro["sv"]) == (None, None)
    assert (order["hits"], aro["hits"]) == (None, None)
    assert [d["result"] for d in order["dice"]] == ["pending", "pending"]
    assert order["pending"] == [{
        "subject": "fus skill 1 -> alg", "missing": "distance", "ids": ["fus", "alg"],
        "rules": ["out_of_range", "range_mod"], "write": "distance fus alg N",
        "where": "a line of its own, N in inches",
    }]
    assert {(p["subject"], p["write"]) for p in res["pending"]} == {
        ("fus skill 1 -> alg", "distance fus alg N"), ("aro alg", "distance alg fus N")}
    text = run("check", write(SHOT)).output
    assert "pending: write 'distance fus alg N' (a line of its own, N in inches) for [out_of_range] [range_mod]" in text
    assert "BS 12 = SV ?; 2 dice" in text and "dice: 3, 11  -> judged once the SV is known" in text
    assert "States: known once every die, attribute and pending fact above is written." in text


def test_the_distance_written_decides_the_rolls(write):
    res = check_json(write, SHOT.replace("order fus", "distance fus alg 10\norder fus"))
    rolls = {r["key"]: r for r in res["rolls"]}
    assert res["pending"] == [] and rolls["fus skill 1 -> alg"]["pending"] == []
    assert (rolls["fus skill 1 -> alg"]["sv"], rolls["aro alg"]["sv"]) == (15, 14)
    assert rolls["fus skill 1 -> alg"]["hits"] == 2


def test_a_burst_split_without_shares_reads_no_dice_and_is_no_error(write):
    text = SHOT.replace("-> alg x2", "-> alg, bob").replace(
        "trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }", "trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\ntrooper bob nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }"
    ).replace("lof fus <-> alg", "lof fus <-> alg\nlof fus -> bob\ndistance fus alg 10\ndistance fus bob 10") + "dice fus: 3 11 5 7\n"
    text = text.replace("dice fus: 3 11\n", "", 1)
    res = analysis.analyse(text).check().resolution
    rolls = {r.key: r for r in res.rolls}
    for target in ("alg", "bob"):
        roll = rolls[f"fus skill 1 -> {target}"]
        assert roll.dice_needed is None and roll.dice == () and roll.sv is None
        assert {(p.missing, p.ids, p.rules) for p in roll.pending} == {("burst_share", ("fus", "1", target), ("burst_split",))}
    assert rolls["aro alg"].sv == 14 and rolls["aro alg"].pending == ()
    assert not res.complete


def test_suppressive_fire_waits_on_the_distance_to_its_enemy(write):
    text = """edition n5
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper sf nomads Alguacil { state: Suppressive Fire; CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof fus <-> sf
order fus: Move + BS Attack (Combi Rifle) -> sf
aro sf: BS Attack (Combi Rifle) -> fus
"""
    res = analysis.analyse(text).check().resolution
    assert pending_items(res) == {
        ("fus skill 2 -> sf", "distance", ("fus", "sf"), ("out_of_range", "range_mod", "suppressive_fire")),
        ("aro sf", "distance", ("sf", "fus"), ("out_of_range", "range_mod")),
    }


def test_discover_waits_on_its_own_range(write):
    text = """edition n3
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper cam nomads { W 1; skills: Camouflage; state: Camouflaged }
lof fus -> cam
order fus: Discover -> cam
"""
    res = analysis.analyse(text).check().resolution
    assert pending_items(res) == {("fus skill 1 -> cam", "distance", ("fus", "cam"), ("discover_range",))}
    written = analysis.analyse(text + "distance fus cam 10\n").check().resolution
    assert written.pending == () and written.rolls[0].sv == 9


def test_an_unwritten_saving_attribute_or_wounds_attribute_is_pending(write):
    n5 = """edition n5
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper alg nomads { WIP 12 }
lof fus -> alg
distance fus alg 10
order fus: BS Attack (Combi Rifle) -> alg x1
dice fus: 3
dice alg save: 19 4 4
"""
    res = analysis.analyse(n5).check().resolution
    assert pending_items(res) == {("saves alg", "attribute", ("alg", "arm"), ("saving_roll",))}
    assert res.saves == () and not res.complete
    assert "saves alg: pending: write 'ARM n' (alg's details) for [saving_roll]" in run("check", write(n5)).output
    n3 = n5.replace("edition n5", "edition n3").replace("{ WIP 12 }", "{ ARM 1; WIP 12 }").replace("19 4 4", "2")
    res = analysis.analyse(n3).check().resolution
    assert pending_items(res) == {("states alg", "attribute", ("alg", "w"), ("wounds_states",))}
    assert [s.result for s in res.saves] == ["fail"] and not res.complete


def test_a_weapon_with_several_ammunitions_and_none_declared_leaves_the_saves_pending():
    text = """edition n5
active panoceania
trooper fus panoceania { BS 12; weapons: Panzerfaust }
trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof fus -> alg
distance fus alg 10
order fus: BS Attack (Panzerfaust) -> alg
dice fus: 3
dice alg save: 5 6 7 8
"""
    res = analysis.analyse(text).check().resolution
    assert pending_items(res) == {("fus skill 1 -> alg", "ammunition", ("fus", "panzerfaust"), ("special_ammo",))}
    assert res.rolls[0].sv == 12 and res.rolls[0].hits == 1  # the roll itself is decided
    assert res.saves == ()
    declared = analysis.analyse(text.replace("(Panzerfaust)", "(Panzerfaust, AP)").replace("5 6 7 8", "5"))
    assert declared.check().resolution.pending == ()


def test_an_extra_die_is_a_located_position_error_with_exit_2(write):
    path = write(SHOT.replace("dice fus: 3 11", "dice fus: 3 11 14 2").replace("order fus", "distance fus alg 10\norder fus"))
    result = run("check", path)
    assert result.exit_code == EXIT_BAD_INPUT and result.stdout == ""
    assert result.stderr.startswith(
        f"{path}:9:16: error: fus rolls 2 dice for its BS Attack (Combi Rifle) -> alg x2; "
        "the third and fourth dice ('14', '2') are not used\n    dice fus: 3 11 14 2\n"
        "                   ^")
    error = json.loads(run("aros", path, "--format", "json").stdout)["error"]
    assert (error["kind"], error["line"], error["column"]) == ("position", 9, 16)
    with pytest.raises(PositionError) as caught:
        analysis.analyse(SHOT.replace("dice alg: 16", "dice alg: 16 2"), "p.pos")
    assert (caught.value.location.line, caught.value.location.column) == (9, 14)


def test_the_first_unused_die_in_the_text_is_the_one_reported():
    text = SHOT.replace("order fus", "distance fus alg 10\norder fus") + "dice alg guts: 5 5\ndice alg save: 1 1 1\n"
    text = text.replace("dice fus: 3 11", "dice fus: 3 19")
    with pytest.raises(PositionError) as caught:
        analysis.analyse(text, "p.pos")
    assert caught.value.location.line == 11
    assert caught.value.message == (
        "alg makes one Guts Roll; the second Guts die '5' is not used")


def test_dice_of_a_denied_aro_are_listed_as_not_used(write):
    text = SHOT.replace("trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }", "trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\ntrooper bob nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }") + (
        "aro bob: BS Attack (Combi Rifle) -> fus\ndice bob: 4\n")
    res = analysis.analyse(text).check().resolution
    assert [(u.trooper, u.kind, u.index, u.value, u.skills, u.rules) for u in res.unused] == [
        ("bob", "roll", 1, 4, ("aro bob",), ("aro_trigger",))]
    output = run("check", write(text)).output
    assert "Dice not used (written for skills that do not roll):\n  bob die 1 (4): aro bob [aro_trigger]" in output
    data = check_json(write, text)
    assert data["unused"] == [{"trooper": "bob", "kind": "roll", "index": 1, "value": 4,
                               "skills": ["aro bob"], "rules": ["aro_trigger"]}]


def test_save_dice_wait_for_the_attack_dice_then_are_judged():
    base = SHOT.replace("order fus", "distance fus alg 10\norder fus").replace("dice alg: 16\n", "dice alg: 16\ndice alg save: 5 5 5\n")
    pending = base.replace("dice fus: 3 11\n", "")
    assert analysis.analyse(pending).check().resolution.saves_missing == ()
    with pytest.raises(PositionError) as caught:
        analysis.analyse(base.replace("dice fus: 3 11", "dice fus: 3 19"))
    assert caught.value.message == (
        "alg makes 1 saving roll (against 1 hit: 1 by fus skill 1 -> alg); "
        "the second and third save dice ('5', '5') are not used")


def test_save_dice_of_allies_the_attacker_chooses_between_are_not_judged():
    text = """edition n5
active nomads
trooper ortega nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper ally1 panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper ally2 panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper angus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
contact ortega ally1
contact ortega ally2
lof angus <-> ortega
distance angus ortega 6
order ortega: CC Attack (Knife) -> ally1
aro angus: BS Attack (Combi Rifle) -> ortega
dice ortega: 18
dice angus: 19
dice ally1 save: 5 5
dice ally2 save: 5
"""
    res = analysis.analyse(text).check().resolution
    assert {(o.subject, o.what) for o in res.outcomes} >= {("angus", "choose_ally_hit")}


def test_guts_die_of_an_engaged_trooper_says_why_it_makes_no_roll():
    text = """edition n3
active nomads
trooper alg nomads { CC 15; PH 11; weapons: CC Weapon; state: Engaged }
trooper fus panoceania { WIP 12; ARM 1; W 1; state: Engaged }
contact alg fus
order alg: CC Attack (CC Weapon) -> fus
dice alg: 6
dice fus save: 13
dice fus guts: 15
"""
    with pytest.raises(PositionError) as caught:
        analysis.analyse(text)
    assert caught.value.message == (
        "fus makes no Guts Roll (it ends the Order engaged, which spares it the roll); its Guts die '15' is not used")
    assert caught.value.location.line == 9


def test_dice_for_a_rolling_skill_the_rule_base_does_not_resolve_are_not_judged():
    text = """edition n5
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof fus <-> alg
order fus: Move + Dodge
dice fus: 3 4 5
"""
    assert analysis.analyse(text).check().legal


def test_base_contact_is_no_distance_to_write():
    text = """edition n5
active panoceania
trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper alg nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof fus <-> alg
contact fus alg from first
order fus: Move + BS Attack (Combi Rifle) -> alg x1
dice fus: 14
"""
    res = analysis.analyse(text).check().resolution
    assert res.pending == () and res.rolls[0].sv == 15
    assert [(m.rule, m.value) for m in res.rolls[0].mods] == [("range_mod", 3)]


def test_a_roll_without_its_attribute_still_shows_its_other_pending_facts(write):
    text = SHOT.replace("trooper fus panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }", "trooper fus panoceania { weapons: Combi Rifle }")
    output = run("check", write(text)).output
    assert "BS ? (not written: add 'BS n' to fus's details)\n    pending: write 'distance fus alg N'" in output
    res = analysis.analyse(text).check().resolution
    assert {(p.subject, p.missing, p.ids) for p in res.pending} >= {
        ("fus skill 1 -> alg", "attribute", ("fus", "bs")), ("fus skill 1 -> alg", "distance", ("fus", "alg"))}


def test_a_pending_discover_neither_fails_nor_costs_the_retry():
    text = """edition n3
active haqqislam
trooper fiday haqqislam Fiday { state: IMP-1 }
trooper fus1 panoceania { WIP 13; weapons: Combi Rifle }
lof fus1 -> fiday
order fiday: Move + Move
aro fus1: Discover -> fiday
dice fus1: 12
"""
    res = analysis.analyse(text).check().resolution
    assert pending_items(res) == {("aro fus1", "distance", ("fus1", "fiday"), ("discover_range",))}
    assert res.outcomes == () and [d.result for d in res.rolls[0].dice] == ["pending"]
    written = analysis.analyse(text + "distance fus1 fiday 10\n").check().resolution
    assert {(o.subject, o.what, o.rule) for o in written.outcomes} == {("fus1", "no_discover_retry fiday", "discover_retry")}


ENGAGE = """edition n3
active nomads
trooper alg nomads { weapons: Combi Rifle, Knife }
trooper fus1 panoceania { weapons: Combi Rifle, Knife }
trooper fus2 panoceania { weapons: Combi Rifle, Knife }
lof fus1 <-> alg
zoc fus2 -> alg
order alg: Move
"""


def option_pending(option) -> set[tuple]:
    return {(p.missing, p.ids, tuple(c.rule for c in p.rules), p.write) for p in option.pending}


def test_aro_options_say_which_distance_their_resolution_needs(write):
    report = analysis.analyse(ENGAGE).aros()
    options = {(t.trooper, o.skill, o.weapon): o for t in report.reactive for o in t.options}
    bs, engage = options[("fus1", "bs_attack", "combi_rifle")], options[("fus1", "engage", None)]
    assert (bs.status, engage.status) == ("legal", "legal")
    assert option_pending(bs) == {("distance", ("fus1", "alg"), ("out_of_range", "range_mod"), "distance fus1 alg N")}
    assert option_pending(engage) == {("distance", ("fus1", "alg"), ("engage_range",), "distance fus1 alg N")}
    assert {k for k, o in options.items() if o.pending} == {("fus1", "bs_attack", "combi_rifle"), ("fus1", "engage", None)}
    # fus2 (ZoC, no LoF) may not BS Attack: a denied option waits on nothing
    assert options[("fus2", "bs_attack", "combi_rifle")].status == "denied"
    assert options[("fus2", "bs_attack", "combi_rifle")].pending == ()
    output = run("aros", write(ENGAGE)).output
    assert ("  pending (may be declared; write what its Resolution needs):\n"
            "    BS Attack (Combi Rifle): range not checked: write 'distance fus1 alg N' [out_of_range] [range_mod]\n"
            "    Engage: 2-inch radius not checked: write 'distance fus1 alg N' [engage_range]\n") in output
    assert "  [engage_range] N3 http://wiki.infinitythegame.com/en/Engage: " in output
    data = json.loads(run("aros", write(ENGAGE), "--format", "json").output)
    fus1 = next(t for t in data["reactive"] if t["trooper"] == "fus1")
    engage_json = next(o for o in fus1["options"] if o["skill"] == "engage")
    assert engage_json["status"] == "legal"
    assert [(p["missing"], p["ids"], [c["rule"] for c in p["rules"]], p["write"]) for p in engage_json["pending"]] == [
        ("distance", ["fus1", "alg"], ["engage_range"], "distance fus1 alg N")]


def test_engage_is_judged_once_the_distance_or_contact_is_written():
    def engage(text):
        report = analysis.analyse(text).aros()
        fus1 = next(t for t in report.reactive if t.trooper == "fus1")
        option = next(o for o in fus1.options if o.skill == "engage")
        return option.status, [c.rule for c in option.denied_by], option.pending
    assert engage(ENGAGE.replace("order alg", "distance fus1 alg 1.5\norder alg")) == ("legal", [], ())
    assert engage(ENGAGE.replace("order alg", "distance fus1 alg 2.5\norder alg")) == ("denied", ["engage_range"], ())
    assert engage(ENGAGE.replace("order alg", "contact fus1 alg from first\norder alg")) == ("legal", [], ())


def test_declarations_say_which_distance_their_resolution_needs(write):
    text = ENGAGE.replace("order alg: Move", "order alg")
    report = analysis.analyse(text).declarations()
    pending = {(o.slot, o.skill, o.weapon, o.target): option_pending(o) for o in report.options if o.pending}
    assert pending == {
        (slot, "bs_attack", "combi_rifle", "fus1"): {
            ("distance", ("alg", "fus1"), ("out_of_range", "range_mod"), "distance alg fus1 N")}
        for slot in (1, 2)}
    assert all(o.status == "legal" for o in report.options if o.pending)
    # alg has no LoF to fus2: the BS Attack on fus2 is denied and waits on nothing
    on_fus2 = [o for o in report.options if (o.skill, o.target) == ("bs_attack", "fus2")]
    assert [(o.status, o.pending) for o in on_fus2] == [("denied", ()), ("denied", ())]
    output = run("declarations", write(text)).output
    assert output.count("   pending (may be declared; write what its Resolution needs):\n"
                        "     BS Attack (Combi Rifle) -> fus1: range not checked: "
                        "write 'distance alg fus1 N' [out_of_range] [range_mod]\n") == 2
    data = json.loads(run("declarations", write(text), "--format", "json").output)
    assert sorted((o["slot"], o["target"], p["ids"], p["write"]) for o in data["options"] for p in o["pending"]) == [
        (1, "fus1", ["alg", "fus1"], "distance alg fus1 N"), (2, "fus1", ["alg", "fus1"], "distance alg fus1 N")]
