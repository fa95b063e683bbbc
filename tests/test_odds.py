"""Exact odds: the dice counts (checker.infinity.dice), the odds of a position (checker.infinity.odds)
and ``ruling odds``. tests/test_odds_enumeration.py checks them against ``check``."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from checker.engine import solver, solver_many
from checker.engine.errors import RulingError
from checker.infinity import cases, dice, facts, report
from checker.infinity.analysis import load
from checker.infinity.odds import odds
from checker.infinity.odds_render import odds_dict, odds_text

from .sample import case_sample, whole

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "odds.pos"


# ---- Face to Face: the reference counts (/work/shared/odds-reference.md, inf-dice) ---------

CASE_A_ACTIVE = {  # active SV 13, B5 against reactive SV 12, B1: (hits, crits) -> rolls
    (0, 1): 2234385, (0, 2): 312010, (0, 3): 23610, (0, 4): 995, (0, 5): 19,
    (1, 0): 8640070, (1, 1): 2918840, (1, 2): 409740, (1, 3): 28400, (1, 4): 810,
    (2, 0): 10448840, (2, 1): 3406800, (2, 2): 399660, (2, 3): 16580,
    (3, 0): 11127560, (3, 1): 2791160, (3, 2): 181800,
    (4, 0): 7694230, (4, 1): 1029310, (5, 0): 2372532,
}


@pytest.mark.parametrize("edition", ["n5", "n3"])
def test_face_to_face_case_a(edition):
    counts = dice.face_to_face(dice.faces(13, edition), 5, dice.faces(12, edition), 1)
    active = {a: n for (a, b), n in counts.items() if a != (0, 0)}
    reactive = {b: n for (a, b), n in counts.items() if b != (0, 0)}
    assert active == CASE_A_ACTIVE
    assert reactive == {(0, 1): 2476099, (1, 0): 4755432}
    assert counts[((0, 0), (0, 0))] == 2731118
    assert sum(counts.values()) == 20 ** 6


@pytest.mark.parametrize("edition", ["n5", "n3"])
def test_face_to_face_case_b(edition):
    counts = dice.face_to_face(dice.faces(16, edition), 5, dice.faces(9, edition), 1)
    assert counts[((0, 0), (0, 0))] == 982973
    assert counts[((0, 0), (0, 1))] == 2476099
    assert counts[((0, 0), (1, 0))] == 381600
    assert counts[((5, 0), (0, 0))] == 9880749
    assert counts[((4, 1), (0, 0))] == 3411435
    assert counts[((0, 5), (0, 0))] == 19


@settings(max_examples=40, deadline=None)
@given(sa=st.integers(-2, 27), sb=st.integers(-2, 27), dice_a=st.sampled_from([(1, 1), (2, 1), (1, 2)]),
       edition=st.sampled_from(["n5", "n3"]))
def test_face_to_face_is_the_literal_rule(sa, sb, dice_a, edition):
    """The closed form equals the literal rule (dice.scores) over every ordered roll."""
    na, nb = dice_a
    a, b = dice.faces(sa, edition), dice.faces(sb, edition)
    brute: dict = {}
    for da in itertools.product(a, repeat=na):
        for db in itertools.product(b, repeat=nb):
            key = (dice.scores(da, db), dice.scores(db, da))
            brute[key] = brute.get(key, 0) + 1
    assert dice.face_to_face(a, na, b, nb) == brute


def test_face_to_face_b6_against_b3_counts_every_outcome():
    """B6 against B3 (its time is the benchmark's, never a test's): 20^9 outcomes."""
    counts = dice.face_to_face(dice.faces(15, "n5"), 6, dice.faces(12, "n5"), 3)
    assert sum(counts.values()) == 20 ** 9


def test_normal_roll_counts():
    counts = dice.normal_roll(dice.faces(12, "n5"), 2)  # 11 successes, 1 Critical, 8 failures a die
    assert counts == {(0, 0): 64, (1, 0): 2 * 11 * 8, (0, 1): 2 * 8, (2, 0): 121, (1, 1): 2 * 11, (0, 2): 1}


def test_dice_classes_stand_for_every_roll():
    table = dice.faces(23, "n3")
    assert sum(w for _, w in dice.dice_classes(table, 3)) == 20 ** 3


# ---- Faces and saves -----------------------------------------------------------------------

@pytest.mark.parametrize("sv, die, face", [
    (0, 1, dice.Face("fail", 1)), (12, 11, dice.Face("success", 11)), (12, 12, dice.Face("critical", 12)),
    (12, 13, dice.Face("fail", 13)), (20, 20, dice.Face("critical", 20)),
])
@pytest.mark.parametrize("edition", ["n5", "n3"])
def test_face(sv, die, face, edition):
    assert dice.face(sv, die, edition) == face


@pytest.mark.parametrize("edition, sv, die, face", [
    # N3: the excess is added to the die, 20 or more a Critical
    ("n3", 23, 1, dice.Face("success", 4)), ("n3", 23, 16, dice.Face("success", 19)),
    ("n3", 23, 17, dice.Face("critical", 20)),
    # N5: the die is not raised; a 20, and every die up to the excess, is a Critical
    ("n5", 23, 1, dice.Face("critical", 1)), ("n5", 23, 3, dice.Face("critical", 3)),
    ("n5", 23, 4, dice.Face("success", 4)), ("n5", 23, 19, dice.Face("success", 19)),
    ("n5", 23, 20, dice.Face("critical", 20)),
])
def test_face_above_20(edition, sv, die, face):
    assert dice.face(sv, die, edition) == face


def test_saves_of_each_edition():
    assert dice.save_roll("n5", "arm", 1, 0, 7).passes == 8  # die <= ARM + PS
    assert dice.save_roll("n5", "arm", 1, 3, 7).passes == 11  # Partial Cover +3
    assert dice.save_roll("n3", "arm", 1, 0, 13).passes == 8  # die + ARM > DAM: 13..20
    assert dice.save_roll("n3", "arm", 20, 0, 14).passes == 20
    assert dice.halved(3) == 2 and dice.halved(1) == 1


def test_continuous_damage_repeats_until_passed_or_capped():
    slot = dice.Slot(passes=8, wounds=1, repeats=True)  # fails 12 in 20
    f, p = Fraction(12, 20), Fraction(8, 20)
    assert dice.slot_wounds(slot, 3) == {0: p, 1: f * p, 2: f * f * p, 3: f ** 3}
    assert dice.slot_wounds(dice.Slot(None, 2), 1) == {1: 1}  # an automatic failure, capped
    both = dice.total_wounds([{0: p, 1: f}, {0: p, 1: f}], 1)
    assert both == {0: p * p, 1: 1 - p * p}


# ---- The odds of a position ----------------------------------------------------------------

def test_example_rows_are_every_legal_aro_best_first():
    text = EXAMPLE.read_text(encoding="utf-8")
    result = odds(text, str(EXAMPLE))
    game, cat, symbols = load(text)
    aros = report.aro_report(game, solver.solve(game.edition, symbols), cat)
    legal = {(r.trooper, o.label) for r in aros.reactive for o in r.legal}
    assert {(o.reactor, o.label) for o in result.options} == legal
    margins = [o.margin for o in result.options]
    assert margins == sorted(margins, reverse=True)
    declared = next(o for o in result.options if o.reactor == "fus1" and o.label == "BS Attack (Combi Rifle)")
    assert (declared.active_down, declared.reactor_down, declared.nothing) == (
        result.declared.active_down,
        next(e.chance for e in result.declared.end_states if e.trooper == "fus1" and e.state == "dead")
        + next(e.chance for e in result.declared.end_states if e.trooper == "fus1" and e.state == "unconscious"),
        result.declared.nothing)
    for row in (result.declared, *result.options):
        assert not row.not_priced
        for roll in row.rolls:
            for trooper in {s.trooper for s in roll.scores}:
                assert sum(s.chance for s in roll.scores if s.trooper == trooper) == 1
        for trooper in {e.trooper for e in row.end_states}:
            assert sum(e.chance for e in row.end_states if e.trooper == trooper) == 1


def test_a_template_hits_every_trooper_under_it_unless_it_answers():
    """N3 Boarding Shotgun SV 17 (B2): fus2, covered and not reacting, is hit by each
    die that succeeds (17 faces in 20), whatever fus1 rolls; a Critical counts as a hit."""
    result = odds(EXAMPLE.read_text(encoding="utf-8"))
    shot = next(r for r in result.declared.rolls if r.key == "hellcat skill 2 -> fus1")
    on_fus2 = {(s.successes, s.criticals): s.chance for s in shot.scores if s.trooper == "fus2"}
    assert on_fus2 == {(2, 0): Fraction(17, 20) ** 2, (1, 0): 2 * Fraction(17 * 3, 400), (0, 0): Fraction(9, 400)}


def test_what_is_not_priced_is_named_and_left_out():
    text = """
edition n5
active nomads
trooper a nomads Alguacil { BS 11; VITA 1; weapons: Stun Pistol; CC 13; PH 10; WIP 12; ARM 1; BTS 0 }
trooper b panoceania Fusilier { ARM 1; BTS 0; VITA 1; CC 13; BS 12; PH 10; WIP 12; weapons: Combi Rifle }
lof a <-> b
distance a b 6
order a: Move + BS Attack (Stun Pistol) -> b
"""
    row = odds(text).declared
    assert row.rolls and row.rolls[0].scores  # the roll is priced
    assert row.not_priced == ("a skill 2 -> b: STUN ammunition is not priced",)
    assert {e.trooper for e in row.end_states} == {"a"}  # b's end state is not priced
    assert (row.reactor_down, row.nothing) == (None, None)
    assert row.active_down == 0


def test_a_pending_fact_leaves_the_roll_unpriced():
    text = """
edition n3
active nomads
trooper hellcat nomads Hellcat { CC 15; BS 11; PH 11; WIP 13; ARM 2; BTS 3; W 1; weapons: Boarding Shotgun }
trooper fus1 panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
lof hellcat <-> fus1
order hellcat: Move + BS Attack (Boarding Shotgun) -> fus1
aro fus1: BS Attack (Combi Rifle) -> hellcat
"""
    row = odds(text).declared
    assert row.not_priced == (
        "hellcat skill 2 -> fus1: write 'distance hellcat fus1 N' (a line of its own, N in inches)",
        "aro fus1: write 'distance fus1 hellcat N' (a line of its own, N in inches)",
    )
    assert (row.active_down, row.reactor_down, row.nothing, row.end_states) == (None, None, None, ())


# ---- ruling odds ----------------------------------------------------------------------------

def test_cli_text_and_json():
    runner = CliRunner()
    text = runner.invoke(main, ["odds", str(EXAMPLE)])
    assert text.exit_code == EXIT_OK, text.output
    assert "  (as declared)  as declared" in text.output
    assert "fus1           BS Attack (Combi Rifle)" in text.output
    data = json.loads(runner.invoke(main, ["odds", str(EXAMPLE), "--format", "json"]).output)
    first = data["summary"][0]
    assert first["option"] == "as declared"
    number = first["active_down"]
    assert float(Fraction(number["fraction"])) == number["value"]
    assert len(data["summary"]) == 1 + len(data["options"])


def test_cli_percentages_have_one_decimal():
    result = odds(EXAMPLE.read_text(encoding="utf-8"))
    out = odds_text(result)
    down = result.declared.active_down
    assert f"{float(down) * 100:.1f}%" in out.splitlines()[6]
    assert odds_dict(result)["declared"]["active_down"]["fraction"] == f"{down.numerator}/{down.denominator}"


def test_cli_exit_codes(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.pos"
    bad.write_text("edition n5\nactive nomads\ntrooper a nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\norder a: Mvoe\n", encoding="utf-8")
    out = runner.invoke(main, ["odds", str(bad)])
    assert out.exit_code == EXIT_BAD_INPUT
    assert f"{bad}:4:" in out.output
    breach = tmp_path / "breach.pos"
    breach.write_text(
        "edition n5\nactive nomads\ntrooper a nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\n"
        "trooper l1 panoceania Fusilier { lieutenant; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\ntrooper l2 panoceania Fusilier { lieutenant; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\n"
        "lof a <-> l1\ndistance a l1 6\norder a: Move + BS Attack (Combi Rifle) -> l1\n", encoding="utf-8")
    out = runner.invoke(main, ["odds", str(breach)])
    assert out.exit_code == EXIT_ILLEGAL, out.output
    assert "Conflicts" in out.output


# ---- ruling aros --odds -----------------------------------------------------------------------

AROS_ODDS = """edition n5
active panoceania
trooper fus panoceania { BS 12; PH 10; ARM 1; VITA 1; weapons: Combi Rifle }
trooper alg nomads { BS 11; PH 12; ARM 2; VITA 1; weapons: Combi Rifle }
lof fus <-> alg
distance fus alg 10
order fus: BS Attack (Combi Rifle) -> alg x2
aro alg: BS Attack (Combi Rifle) -> fus
"""
# The rows of cases/n5/odds/face_to_face_burst_two_against_one.toml (alg without WIP: Reset is not priced).
ALG_ODDS = {
    ("bs_attack", "combi_rifle"): ("16953/100000", "589921541/1280000000", "473080059/1280000000"),
    ("dodge", None): ("0/1", "655681741/1280000000", "624318259/1280000000"),
    ("look_out", None): ("0/1", "42830799/64000000", "21169201/64000000"),
    ("reset", None): (None, None, None),
}


def test_aros_odds_text_gives_each_legal_aro_its_chances(write):
    path = write(AROS_ODDS)
    out = CliRunner().invoke(main, ["aros", path, "--odds", "--legal-only"])
    assert out.exit_code == EXIT_OK, out.output
    lines = out.output.splitlines()
    start = lines.index("alg: may react (LoF after the first skill) [aro_trigger]; declares after the first skill")
    assert lines[start + 1:start + 7] == [
        "  legal:                     active down  reactor down  nothing",
        "    BS Attack (Combi Rifle)        17.0%         46.1%    37.0%",
        "    Dodge                           0.0%         51.2%    48.8%",
        "    Look Out!                       0.0%         66.9%    33.1%",
        "    Reset                            n/a           n/a      n/a",
        "      not priced: aro alg: write 'WIP n' (alg's details)",
    ]
    assert "not allowed:" not in out.output
    plain = CliRunner().invoke(main, ["aros", path, "--legal-only"]).output
    assert "  legal: BS Attack (Combi Rifle), Dodge, Look Out!, Reset" in plain.splitlines()
    assert "active down" not in plain


def test_aros_odds_json_adds_the_summary_to_each_legal_option(write):
    path = write(AROS_ODDS)
    data = json.loads(CliRunner().invoke(main, ["aros", path, "--odds", "--format", "json"]).output)
    [alg] = data["reactive"]
    found = {}
    for option in alg["options"]:
        if option["status"] != "legal":
            assert option["odds"] is None
            continue
        [row] = option["odds"]
        found[(option["skill"], option["weapon"])] = tuple(
            row[c] and row[c]["fraction"] for c in ("active_down", "reactor_down", "nothing"))
        assert row["priced"] == (row["not_priced"] == [])
    assert found == ALG_ODDS
    plain = json.loads(CliRunner().invoke(main, ["aros", path, "--format", "json"]).output)
    assert all("odds" not in o for o in plain["reactive"][0]["options"])
    assert {k: v for k, v in data.items() if k != "reactive"} == {k: v for k, v in plain.items() if k != "reactive"}


def test_aros_odds_lists_each_ammunition_of_an_option(write):
    path = write("""edition n3
active nomads
trooper a nomads { BS 12; PH 10; ARM 1; W 1; weapons: Combi Rifle }
trooper b panoceania { BS 11; PH 10; WIP 12; ARM 1; W 1; weapons: MULTI Rifle }
lof a <-> b
distance a b 10
order a: BS Attack (Combi Rifle) -> b x2
""")
    data = json.loads(CliRunner().invoke(main, ["aros", path, "--odds", "--format", "json"]).output)
    [attack] = [o for o in data["reactive"][0]["options"] if o["skill"] == "bs_attack"]
    assert [(row["option"], row["ammunition"]) for row in attack["odds"]] == [
        ("BS Attack (MULTI Rifle, AP)", "ap"), ("BS Attack (MULTI Rifle, Shock)", "shock")]
    text = CliRunner().invoke(main, ["aros", path, "--odds"]).output
    assert sum(line.startswith("    BS Attack (MULTI Rifle, ") for line in text.splitlines()) == 2


def test_aros_odds_keeps_the_exit_code_and_bad_input(write):
    breach = write("edition n5\nactive nomads\ntrooper a nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\n"
                   "trooper l1 panoceania Fusilier { lieutenant; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\ntrooper l2 panoceania Fusilier { lieutenant; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\n"
                   "lof a <-> l1\ndistance a l1 6\norder a: Move + BS Attack (Combi Rifle) -> l1\n")
    assert CliRunner().invoke(main, ["aros", breach, "--odds"]).exit_code == EXIT_ILLEGAL
    bad = write("edition n5\nactive nomads\ntrooper a nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }\norder a: Mvoe\n", "bad.pos")
    out = CliRunner().invoke(main, ["aros", bad, "--odds"])
    assert out.exit_code == EXIT_BAD_INPUT and f"{bad}:4:" in out.output


def test_game_odds_is_the_odds_of_the_position_read():
    from checker.infinity.odds import game_odds

    game, cat, _ = load(AROS_ODDS)
    assert game_odds(game, cat) == odds(AROS_ODDS)


def test_every_end_state_has_words():
    from checker.infinity.odds_render import STATE_WORDS
    from checker.infinity.odds_saves import END_STATES

    assert tuple(STATE_WORDS) == END_STATES


def test_odds_of_a_deployment_is_refused_at_its_deploy_line(tmp_path):
    """A deployment's roll is priced by nothing in `ruling odds`: a located error, exit 2,
    never a table claiming nothing happens."""
    from checker.cli import EXIT_BAD_INPUT, main

    path = tmp_path / "d.pos"
    path.write_text("edition n5\nactive pano\ntrooper k pano { skills: Infiltration; PH 11 }\n"
                    "trooper e ariadna\ndeploy k enemy half\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["odds", str(path)])
    assert result.exit_code == EXIT_BAD_INPUT
    assert f"{path}:5:8: error: ruling odds prices an Order and its AROs" in result.output


def _declared_only_gives_the_same_check(sample: list[cases.Case]) -> None:
    """``ruling odds`` solves its copies of a position with ``facts.DECLARED_ONLY`` (no
    list of options): each position's check report is the same with it."""
    loaded = []
    for case in sample:
        if case.command == "error":
            continue
        try:
            loaded.append(load(case.position, str(case.path)))
        except RulingError:
            continue
    assert {g.edition for g, _, _ in loaded} == {"n5", "n3"}
    for edition in ("n5", "n3"):
        games = [(g, c, f) for g, c, f in loaded if g.edition == edition]
        full = solver_many.solve_each(edition, [f for _, _, f in games])
        declared = solver_many.solve_each(edition, [[*f, facts.DECLARED_ONLY] for _, _, f in games])
        for (game, cat, _), a, b in zip(games, full, declared, strict=True):
            assert report.check_report(game, b, cat).to_dict() == report.check_report(game, a, cat).to_dict()


def test_judging_only_the_declared_gives_the_sample_the_same_check():
    # the odds cases, whose positions ruling odds copies, and a sample of the others
    _declared_only_gives_the_same_check(case_sample(keep=lambda c: c.command == "odds"))


@pytest.mark.slow
def test_judging_only_the_declared_gives_every_case_the_same_check():
    _declared_only_gives_the_same_check(whole())
