"""The case format is strict: an unknown or mistyped key is a malformed case, refused with
the file, line and key named, by the loader, by `ruling verify` (exit 2) and by pytest
(a collection error), never a case that passes without checking what it says."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, main
from checker.engine.errors import CaseFormatError
from checker.infinity import case_schema, cases

from .conftest import ROOT

POSITION = """edition n3
active nomads
trooper hellcat nomads { weapons: Boarding Shotgun }
trooper fus1 panoceania { weapons: Combi Rifle }
lof fus1 -> hellcat
order hellcat: Move
"""
AROS_OK = 'triggers.fus1 = ["lof"]'
CHECK_OK = "legal = true"
ODDS_OK = 'summary.declared = { active_down = "0/1", reactor_down = "0/1", nothing = "1/1" }'
CHANCE_OR_NA = 'an exact chance "numerator/denominator" ("3/20") or "n/a"'


def case_text(command: str, expect: str, top: str = "") -> str:
    return (
        f'source = "seed 003_ffd030bb113e9f57.txt p.30"\n{top}command = "{command}"\n'
        f'position = """\n{POSITION}"""\n\n[expect]\n{expect}\n'
    )


# (command, lines under [expect], lines at the top, the text of the line that is wrong,
#  the error after "file:line: error: ")
MALFORMED = [
    ("aros", 'legl.fus1 = ["dodge"]', "", "legl.fus1",
     "unknown key 'legl' in [expect] of an aros case; did you mean 'legal'?"),
    ("aros", 'verdicts = { "order" = [] }', "", "verdicts",
     "unknown key 'verdicts' in [expect] of an aros case; it is for check cases"),
    ("aros", f'{AROS_OK}\ndenied.fus1 = {{ "bs_attack/combi_rifle" = "aro_lof" }}', "", "denied.fus1",
     "'denied.fus1.\"bs_attack/combi_rifle\"' in [expect] must be a list of rule ids, not a string ('aro_lof')"),
    ("aros", 'declares_after.fus1 = "1"', "", "declares_after",
     "'declares_after.fus1' in [expect] must be a whole number, not a string ('1')"),
    ("aros", "declares_after.fus1 = 3", "", "declares_after",
     "'declares_after.fus1' in [expect] must be 0, 1 or 2, not 3"),
    ("aros", "declares_after.fus1 = true", "", "declares_after",
     "'declares_after.fus1' in [expect] must be a whole number, not a boolean (True)"),
    ("aros", 'legal.fus1 = "dodge"', "", "legal.fus1",
     "'legal.fus1' in [expect] must be a list of strings, not a string ('dodge')"),
    ("aros", 'triggers = ["lof"]', "", "triggers",
     "'triggers' in [expect] must be a table per trooper, not a list (['lof'])"),
    ("aros", AROS_OK, 'verdict = "legal"\n', "verdict",
     "unknown key 'verdict' at the top of the case; known keys: command, description, expect, position, source"),
    ("aros", AROS_OK, 'descripton = "x"\n', "descripton",
     "unknown key 'descripton' at the top of the case; did you mean 'description'?"),
    ("aros", AROS_OK, "legal = true\n", "legal = true",
     "unknown key 'legal' at the top of the case; expectations belong under [expect]"),
    ("arros", AROS_OK, "", "command",
     "'command' must be 'aros', 'check', 'declarations', 'error' or 'odds', not 'arros'"),
    ("check", 'resolution.svv = { "hellcat skill 1" = 15 }', "", "resolution.svv",
     "unknown key 'resolution.svv' in [expect] of a check case; did you mean 'resolution.sv'?"),
    ("check", 'resolution.sv = { "hellcat skill 1" = 15.0 }', "", "resolution.sv",
     "'resolution.sv.\"hellcat skill 1\"' in [expect] must be a whole number, not a number (15.0)"),
    ("check", 'legal = "yes"', "", "legal",
     "'legal' in [expect] must be true or false, not a string ('yes')"),
    ("check", f'{CHECK_OK}\nresolution.saves = {{ fus1 = ["pass", "fial"] }}', "", "resolution.saves",
     "'resolution.saves.fus1[1]' in [expect] must be 'pass' or 'fail', not 'fial'"),
    ("check", f'{CHECK_OK}\nresolution.results = {{ "aro fus1" = ["succes"] }}', "", "resolution.results",
     ("'resolution.results.\"aro fus1\"[0]' in [expect] must be 'success', 'success cancelled', 'critical', "
      "'critical cancelled', 'fail', 'fail cancelled', 'discarded' or 'pending', not 'succes'")),
    ("check", f'{CHECK_OK}\nresolution.pending = {{ "aro fus1" = "distance fus1 hellcat" }}', "", "resolution.pending",
     ("'resolution.pending.\"aro fus1\"' in [expect] must be a list of strings \"missing id...\", "
      "not a string ('distance fus1 hellcat')")),
    ("check", f'{CHECK_OK}\nresolution.pending = {{ "aro fus1" = ["range fus1 hellcat"] }}', "", "resolution.pending",
     ("'resolution.pending.\"aro fus1\"[0]' in [expect] must be a string \"missing id...\" (\"distance fus alg\"), "
      "not 'range fus1 hellcat'")),
    ("check", f'{CHECK_OK}\nresolution.pending = {{ "aro fus1" = ["distance"] }}', "", "resolution.pending",
     ("'resolution.pending.\"aro fus1\"[0]' in [expect] must be a string \"missing id...\" (\"distance fus alg\"), "
      "not 'distance'")),
    ("check", f"{CHECK_OK}\nresolution.unused = {{ fus1 = 1 }}", "", "resolution.unused",
     "'resolution.unused.fus1' in [expect] must be a list of dice places, not a whole number (1)"),
    ("check", f"{CHECK_OK}\nresolution.unused = {{ fus1 = [0] }}", "", "resolution.unused",
     "'resolution.unused.fus1[0]' in [expect] must be a die's place, 1 or more, not 0"),
    ("check", f'{CHECK_OK}\nresolution.unused = {{ fus1 = ["1"] }}', "", "resolution.unused",
     "'resolution.unused.fus1[0]' in [expect] must be a die's place, 1 or more, not a string ('1')"),
    ("check", f"{CHECK_OK}\ntriggers.fus1 = []", "", "triggers",
     "unknown key 'triggers' in [expect] of a check case; it is for aros cases"),
    ("check", f'{CHECK_OK}\npending = {{ "order skill 1" = ["nearest"] }}', "", "pending",
     ("'pending.\"order skill 1\"[0]' in [expect] must be a string \"missing id...\" (\"distance fus alg\"), "
      "not 'nearest'")),
    ("aros", f'{AROS_OK}\npending.fus1 = ["distance fus1 hellcat"]', "", "pending.fus1",
     ("'pending.fus1[0]' in [expect] must be a string \"option: missing id...\" "
      "(\"bs_attack/combi_rifle: distance fus1 hellcat\"), not 'distance fus1 hellcat'")),
    ("aros", f'{AROS_OK}\npending.fus1 = "dodge: distance fus1 hellcat"', "", "pending.fus1",
     ("'pending.fus1' in [expect] must be a list of strings \"option: missing id...\", "
      "not a string ('dodge: distance fus1 hellcat')")),
    ("declarations", 'pending.third = ["move: distance hellcat fus1"]', "", "pending.third",
     "'pending.third' in [expect] is not a slot: 'first' or 'second'"),
    ("check", 'status = { "aro fus1" = "ok" }', "", "status",
     "'status.\"aro fus1\"' in [expect] must be 'legal', 'invalid', 'denied' or 'conflict', not 'ok'"),
    ("check", 'lifted = { "aro fus1" = ["alert_change_facing"] }', "", "lifted",
     "'lifted.\"aro fus1\"[0]' in [expect] must be a string \"permission > denial\", not 'alert_change_facing'"),
    ("check", 'conflicts = ["aro fus1"]', "", "conflicts",
     "'conflicts[0]' in [expect] must be a string \"subject | rule | rule\", not 'aro fus1'"),
    ("check", f"{CHECK_OK}\nresolution = {{}}", "", "resolution",
     "'resolution' in [expect] is empty: a case must expect something"),
    ("declarations", 'legal.thrid = ["move"]', "", "legal.thrid",
     "'legal.thrid' in [expect] is not a slot: 'first' or 'second'"),
    ("declarations", 'legal.first = ["move"]\nrevealed = []', "", "revealed",
     "unknown key 'revealed' in [expect] of a declarations case; it is for aros and check cases"),
    ("error", 'kind = "position"\nline = "3"', "", "line",
     "'line' in [expect] must be a line number, not a string ('3')"),
    ("error", "line = 3", "", "[expect]",
     "'kind' in [expect] is required"),
    ("error", 'kind = "syntax"', "", "kind",
     "'kind' in [expect] must be 'notation', 'position', 'case', 'rule-base' or 'error', not 'syntax'"),
    ("aros", "", "", "[expect]",
     "'expect' is empty: a case must expect something"),
    ("aros", AROS_OK, 'description = 3\n', "description",
     "'description' must be a string, not a whole number (3)"),
    ("odds", 'summary.declared = { active_down = "0.5" }', "", "summary.declared",
     f"'summary.declared.active_down' in [expect] must be {CHANCE_OR_NA}, not '0.5'"),
    ("odds", 'summary.declared = { active_down = 0.5 }', "", "summary.declared",
     f"'summary.declared.active_down' in [expect] must be {CHANCE_OR_NA[:-9]}, not a number (0.5)"),
    ("odds", 'summary.declared = { nothing = "3/2" }', "", "summary.declared",
     f"'summary.declared.nothing' in [expect] must be {CHANCE_OR_NA}, not '3/2'"),
    ("odds", 'summary.declared = { nothing = "1/0" }', "", "summary.declared",
     f"'summary.declared.nothing' in [expect] must be {CHANCE_OR_NA}, not '1/0'"),
    ("odds", 'summary.declared = { active = "1/2" }', "", "summary.declared",
     "'summary.declared.active' in [expect] is not a column: 'active_down', 'reactor_down' or 'nothing'"),
    ("odds", 'summary.fus1 = { nothing = "1/2" }', "", "summary.fus1",
     ("'summary.fus1' in [expect] must be a row: \"declared\" or \"trooper option\" "
      "(\"fus1 bs_attack/combi_rifle\"), not 'fus1'")),
    ("odds", 'rolls.declared = { "aro fus1" = { "hellcat 1" = "1/2" } }', "", "rolls.declared",
     ("'rolls.declared.\"aro fus1\".\"hellcat 1\"' in [expect] must be an outcome "
      "\"trooper successes criticals\" (\"fus1 2 0\"), not 'hellcat 1'")),
    ("odds", 'rolls.declared = { "aro fus1" = { "hellcat 1 0" = "n/a" } }', "", "rolls.declared",
     ("'rolls.declared.\"aro fus1\".\"hellcat 1 0\"' in [expect] must be an exact chance "
      "\"numerator/denominator\" (\"3/20\"), not 'n/a'")),
    ("odds", 'end_states.declared = { fus1 = { down = "1/2" } }', "", "end_states.declared",
     ("'end_states.declared.fus1.down' in [expect] is not a trooper's end state: 'unharmed', 'wounded', "
      "'nwi', 'dogged', 'unconscious', 'shasvastii_embryo', 'unconscious_level_2' or 'dead'")),
    ("odds", 'not_priced.declared = "x"', "", "not_priced.declared",
     "'not_priced.declared' in [expect] must be a list of strings, not a string ('x')"),
    ("odds", f'{ODDS_OK}\nlegal.fus1 = ["dodge"]', "", "legal.fus1",
     "unknown key 'legal' in [expect] of an odds case; it is for aros, check and declarations cases"),
    ("odds", 'row = ["declared"]', "", "row",
     "unknown key 'row' in [expect] of an odds case; did you mean 'rows'?"),
    ("aros", f'{AROS_OK}\nrows = ["declared"]', "", "rows",
     "unknown key 'rows' in [expect] of an aros case; it is for odds cases"),
]


def located(path: Path, wrong_line: str, message: str) -> str:
    """The error line expected for ``message`` at the first line starting with ``wrong_line``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(wrong_line))
    return f"{path}:{number}: error: {message}"


def malformed(tmp_path: Path, command, expect, top) -> Path:
    path = tmp_path / "case.toml"
    path.write_text(case_text(command, expect, top), encoding="utf-8")
    return path


def test_the_well_formed_cases_load_and_pass(tmp_path):
    for command, expect in (("aros", AROS_OK), ("check", CHECK_OK), ("odds", ODDS_OK)):
        path = malformed(tmp_path, command, expect, "")
        assert cases.run(cases.load(path)).differences == ()


@pytest.mark.parametrize("command, expect, top, wrong_line, message", MALFORMED)
def test_the_loader_refuses_naming_file_line_and_key(tmp_path, command, expect, top, wrong_line, message):
    path = malformed(tmp_path, command, expect, top)
    with pytest.raises(CaseFormatError) as err:
        cases.load(path)
    assert str(err.value).splitlines() == [located(path, wrong_line, message)]


@pytest.mark.parametrize("command, expect, top, wrong_line, message", MALFORMED)
def test_verify_exits_2_naming_file_line_and_key(tmp_path, command, expect, top, wrong_line, message):
    path = malformed(tmp_path, command, expect, top)
    result = CliRunner().invoke(main, ["verify", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr.splitlines() == [located(path, wrong_line, message)]
    assert result.stdout == ""


def test_every_problem_of_a_case_is_listed(tmp_path):
    path = malformed(tmp_path, "aros", 'legl.fus1 = ["dodge"]\ndeclares_after.fus1 = "1"', 'verdict = "x"\n')
    with pytest.raises(CaseFormatError) as err:
        cases.load(path)
    assert str(err.value).splitlines() == [
        located(path, "verdict", "unknown key 'verdict' at the top of the case; known keys: "
                "command, description, expect, position, source"),
        located(path, "legl", "unknown key 'legl' in [expect] of an aros case; did you mean 'legal'?"),
        located(path, "declares_after", "'declares_after.fus1' in [expect] must be a whole number, not a string ('1')"),
    ]


def test_a_missing_source_has_no_line(tmp_path):
    path = tmp_path / "case.toml"
    path.write_text(f'position = """\n{POSITION}"""\n[expect]\n{AROS_OK}\n', encoding="utf-8")
    with pytest.raises(CaseFormatError) as err:
        cases.load(path)
    assert str(err.value) == f"{path}: error: 'source' is required"


def test_a_blank_source_is_refused(tmp_path):
    path = tmp_path / "case.toml"
    path.write_text(case_text("aros", AROS_OK).replace('"seed 003_ffd030bb113e9f57.txt p.30"', '"  "'),
                    encoding="utf-8")
    with pytest.raises(CaseFormatError) as err:
        cases.load(path)
    assert str(err.value) == f"{path}:1: error: 'source' must be a string with some text, not blank"


def test_a_folder_without_cases_is_refused_not_passed(tmp_path):
    result = CliRunner().invoke(main, ["verify", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr == f"{tmp_path}: no case files (*.toml) in this folder\n"


def test_pytest_reports_a_malformed_case_as_a_collection_error(tmp_path):
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(ROOT / "cases" / "conftest.py", folder / "conftest.py")
    (folder / "good.toml").write_text(case_text("aros", AROS_OK), encoding="utf-8")
    bad = folder / "bad.toml"
    bad.write_text(case_text("aros", 'legl.fus1 = ["dodge"]'), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--continue-on-collection-errors",
         "-rA", str(folder)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout
    assert located(bad, "legl", "unknown key 'legl' in [expect] of an aros case; did you mean 'legal'?") in run.stdout
    assert "ERROR cases/bad.toml" in run.stdout and "PASSED cases/good.toml::good" in run.stdout
    assert run.stdout.splitlines()[-1].strip("= ").startswith("1 passed, 1 error")


def test_die_results_and_saves_are_compared_in_order(tmp_path):
    source = ROOT / "cases" / "n5" / "discover" / "forward_observer_rolls_its_burst_of_two.toml"
    text = source.read_text(encoding="utf-8")
    assert '["success", "fail"]' in text
    path = tmp_path / "case.toml"
    path.write_text(text.replace('["success", "fail"]', '["fail", "success"]'), encoding="utf-8")
    assert cases.run(cases.load(source)).passed
    [difference] = cases.run(cases.load(path)).differences
    assert (difference.key, difference.missing, difference.unexpected) == (
        'resolution.results.fo skill 1 -> alg', ("fail", "success"), ("success", "fail"))


def test_the_schema_knows_which_strings_name_rules():
    expect = {
        "legal": True,
        "verdicts": {"aro fus1": ["aro_lof"], "order": []},
        "lifted": {"aro fus2": ["alert_change_facing > aro_trigger"]},
        "conflicts": ["aro fus1 | sixth_sense | aro_lof"],
        "conflict_facts": {"position kaz2 | two_lieutenants": ["lieutenant kaz1 ariadna"]},
        "breaches": {"position kaz2": ["wounds_before_state"]},
        "revealed": ["fiday"],
        "status": {"aro fus1": "denied"},
        "resolution": {"mods": {"r": ["range_mod"]}, "rules": ["saving_roll"], "states": {"fus1": ["prone"]},
                       "clashes": ["alg | wounds_states | engaged_enter"], "outcomes": {"fus1": ["dodge_move"]}},
    }
    assert case_schema.problems({"source": "s", "position": "p", "command": "check", "expect": expect}) == []
    assert case_schema.rules_named("check", expect) == {
        "aro_lof", "alert_change_facing", "aro_trigger", "sixth_sense", "two_lieutenants", "wounds_before_state",
        "range_mod", "saving_roll", "wounds_states", "engaged_enter",
    }
    aros = {"denied": {"fus1": {"dodge": ["aro_lof"]}}, "may_delay": {"fus1": "marker_delay", "fus2": ""},
            "triggers": {"fus1": ["zoc"]}, "legal": {"fus1": ["reset"]}}
    assert case_schema.rules_named("aros", aros) == {"aro_lof", "marker_delay"}


def test_the_pending_and_unused_keys_accept_their_types():
    expect = {
        "legal": True,
        "resolution": {
            "results": {"fus skill 1 -> alg": ["pending", "success cancelled"]},
            "pending": {"fus skill 1 -> alg": ["distance fus alg", "burst_share fus 1 alg"],
                        "saves alg": ["attribute alg arm"], "fus skill 2 -> bob": ["ammunition fus panzerfaust"],
                        "aro alg": []},
            "unused": {"bob": [1, 3], "alg": []},
        },
    }
    assert case_schema.problems({"source": "s", "position": "p", "command": "check", "expect": expect}) == []
    aros = {"pending": {"fus1": ["bs_attack/combi_rifle: distance fus1 hellcat", "engage: distance fus1 hellcat"],
                        "fus2": []}}
    assert case_schema.problems({"source": "s", "position": "p", "command": "aros", "expect": aros}) == []
    declarations = {"pending": {"first": ["bs_attack/combi_rifle>fus1: distance hellcat fus1"], "second": []}}
    assert case_schema.problems({"source": "s", "position": "p", "command": "declarations",
                                 "expect": declarations}) == []


def differences(tmp_path: Path, case: str, old: str, new: str) -> list[tuple]:
    """The differences of a corpus case with one expectation rewritten (the case itself passes)."""
    source = ROOT / "cases" / case
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1 and cases.run(cases.load(source)).passed
    path = tmp_path / "case.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return [(d.key, d.missing, d.unexpected) for d in cases.run(cases.load(path)).differences]


def test_pending_facts_are_compared_both_ways(tmp_path):
    case = "n5/pending/range_mod_pending_without_distance.toml"
    old = '"aro alg" = ["distance alg fus"] }'
    assert differences(tmp_path, case, old, '"aro alg" = [] }') == [
        ("resolution.pending.aro alg", (), ("distance alg fus",))]
    assert differences(tmp_path, case, old, '"aro alg" = ["distance alg fus", "attribute alg bs"] }') == [
        ("resolution.pending.aro alg", ("attribute alg bs",), ())]


def test_a_pending_roll_has_no_hits_to_expect(tmp_path):
    case = "n5/pending/range_mod_pending_without_distance.toml"
    old = 'resolution.unused = { alg = [] }'
    assert differences(tmp_path, case, old, 'resolution.hits = { "aro alg" = 0 }') == [
        ("resolution.hits.aro alg", (0,), (None,))]


def test_unused_dice_are_compared_both_ways(tmp_path):
    case = "n5/pending/dice_of_a_denied_aro_are_not_used.toml"
    old = "bob = [1], fus = []"
    assert differences(tmp_path, case, old, "bob = [], fus = []") == [("resolution.unused.bob", (), (1,))]
    assert differences(tmp_path, case, old, "bob = [1], fus = [1]") == [("resolution.unused.fus", (1,), ())]


def test_option_pending_facts_are_compared_both_ways(tmp_path):
    case = "n3/pending/engage_pending_without_distance.toml"
    old = '"engage: distance fus1 alg"]'
    assert differences(tmp_path, case, old, '"engage: distance alg fus1"]') == [
        ("pending.fus1", ("engage: distance alg fus1",), ("engage: distance fus1 alg",))]
    assert differences(tmp_path, case, "pending.fus3 = []", 'pending.fus3 = ["engage: distance fus3 alg"]') == [
        ("pending.fus3", ("engage: distance fus3 alg",), ())]
    case = "n5/pending/declaration_range_pending_without_distance.toml"
    assert differences(tmp_path, case, 'pending.second = ["bs_attack/combi_rifle>alg: distance fus alg"]',
                       "pending.second = []") == [
        ("pending.second", (), ("bs_attack/combi_rifle>alg: distance fus alg",))]


def test_every_expect_key_is_documented_in_the_format():
    documented = cases.__doc__ or ""
    keys = {key for fields in case_schema.EXPECT_FIELDS.values() for key in fields if key != "resolution"}
    keys |= {f"resolution.{key}" for key in case_schema.RESOLUTION}
    assert {key for key in keys if f"\n    {key}." not in documented and f"\n    {key} =" not in documented} == set()


def test_odds_chances_are_compared_by_value_in_any_denominator(tmp_path):
    case = "n5/odds/critical_adds_a_saving_roll.toml"
    assert differences(tmp_path, case, '"alg 0 1" = "1/20"', '"alg 0 1" = "5/100"') == []
    assert differences(tmp_path, case, '"alg 0 1" = "1/20"', '"alg 0 1" = "2/40"') == []


def test_odds_distributions_are_compared_both_ways(tmp_path):
    case = "n5/odds/critical_adds_a_saving_roll.toml"
    roll = "rolls.declared.fus skill 1 -> alg"
    # an entry left out is unexpected, shown in the denominator the case writes
    assert differences(tmp_path, case, '"alg 0 1" = "1/20"\n', "") == [(roll, (), ("alg 0 1 = 1/20",))]
    # an entry ruling does not give is missing
    assert differences(tmp_path, case, '"alg 0 1" = "1/20"', '"alg 0 1" = "1/20"\n"alg 2 0" = "0/20"') == [
        (roll, ("alg 2 0 = 0/20",), ())]
    # a wrong chance is both
    assert differences(tmp_path, case, '"alg 0 1" = "1/20"', '"alg 0 1" = "2/20"') == [
        (roll, ("alg 0 1 = 2/20",), ("alg 0 1 = 1/20",))]
    states = "end_states.declared.alg"
    assert differences(tmp_path, case, 'wounded = "2561/4000"\n', "") == [(states, (), ("wounded = 5122/8000",))]
    assert differences(tmp_path, case, 'unconscious = "169/8000"', 'dead = "169/8000"') == [
        (states, ("dead = 169/8000",), ("unconscious = 169/8000",))]


def test_odds_summary_rows_and_not_priced_are_compared(tmp_path):
    case = "n5/odds/critical_adds_a_saving_roll.toml"
    assert differences(tmp_path, case, 'reactor_down = "169/8000"', 'reactor_down = "n/a"') == [
        ("summary.declared", ("reactor_down = n/a",), ("reactor_down = 169/8000",))]
    assert differences(tmp_path, case, 'rows = ["declared"]', 'rows = ["declared", "alg dodge"]') == [
        ("rows", ("alg dodge",), ())]
    assert differences(tmp_path, case, "not_priced.declared = []", 'not_priced.declared = ["x"]') == [
        ("not_priced.declared", ("x",), ())]
    assert differences(tmp_path, case, "not_priced.declared = []", 'not_priced."alg dodge" = []') == [
        ("not_priced.alg dodge", ("a row of the odds",), ())]
    assert differences(tmp_path, case, '[expect.rolls.declared."fus skill 1 -> alg"]',
                       '[expect.rolls.declared."aro alg"]') == [
        ("rolls.declared.aro alg", ("a roll (rolls: fus skill 1 -> alg)",), ())]
    case = "n3/odds/pending_distance_is_not_priced.toml"
    assert differences(tmp_path, case, 'summary."b dodge" = { active_down = "n/a"',
                       'summary."b dodge" = { active_down = "0/1"') == [
        ("summary.b dodge", ("active_down = 0/1",), ("active_down = n/a",))]
    assert differences(tmp_path, case, '"b dodge", "b engage"', '"b dodge"') == [("rows", (), ("b engage",))]


def test_the_odds_keys_accept_their_types_and_name_no_rules():
    expect = {
        "rows": ["declared", "fus1 bs_attack/multi_rifle/ap", "fus1 dodge>a2"],
        "summary": {"declared": {"active_down": "0/1", "reactor_down": "n/a", "nothing": "1/1"}},
        "rolls": {"fus1 dodge>a2": {"a2 skill 1 -> fus1": {"fus1 0 0": "2234385/64000000", "- 1 0": "1/2"}}},
        "end_states": {"declared": {"fus1": {state: "1/8" for state in ("unharmed", "wounded", "nwi", "dogged",
                                                                        "unconscious", "shasvastii_embryo",
                                                                        "unconscious_level_2", "dead")}}},
        "not_priced": {"declared": []},
        "conflicts": [],
    }
    assert case_schema.problems({"source": "s", "position": "p", "command": "odds", "expect": expect}) == []
    assert case_schema.rules_named("odds", expect) == set()


def test_the_odds_case_rows_name_every_option_of_the_odds():
    """A row key names the skill, weapon, ammunition and the activated trooper it is against."""
    from checker.infinity.case_compare import odds_row_key
    from checker.infinity.odds import OptionOdds

    def row(**kw) -> OptionOdds:
        base: dict = {"reactor": "fus1", "label": "", "skill": "bs_attack", "weapon": "multi_rifle",
                      "ammunition": None, "rolls": (), "end_states": (), "active_down": None,
                      "reactor_down": None, "nothing": None}
        return OptionOdds(**(base | kw))

    assert odds_row_key(row(reactor=None)) == "declared"
    assert odds_row_key(row()) == "fus1 bs_attack/multi_rifle"
    assert odds_row_key(row(ammunition="ap")) == "fus1 bs_attack/multi_rifle/ap"
    assert odds_row_key(row(skill="dodge", weapon=None, against="a2")) == "fus1 dodge>a2"


def test_not_modelled_items_are_compared_both_ways(tmp_path):
    path = tmp_path / "case.toml"

    def diffs(expect: str) -> list[tuple]:
        path.write_text(case_text("aros", expect), encoding="utf-8")
        return [(d.key, d.missing, d.unexpected) for d in cases.run(cases.load(path)).differences]

    in_play = '"weapons/boarding_shotgun"'  # its AP mode's template is not modelled
    assert diffs(f"not_modelled = [{in_play}]") == []
    assert diffs("not_modelled = []") == [("not_modelled", (), ("weapons/boarding_shotgun",))]
    assert diffs(f'not_modelled = [{in_play}, "states/stunned"]') == [("not_modelled", ("states/stunned",), ())]
    with pytest.raises(CaseFormatError, match="kind/id"):
        diffs('not_modelled = ["stunned"]')


def test_unverified_items_are_compared_both_ways(tmp_path):
    path = tmp_path / "case.toml"
    position = POSITION.replace("Boarding Shotgun", "Grenades")

    def diffs(expect: str) -> list[tuple]:
        path.write_text(case_text("aros", expect).replace(POSITION, position), encoding="utf-8")
        return [(d.key, d.missing, d.unexpected) for d in cases.run(cases.load(path)).differences]

    assert diffs('unverified = ["weapons/grenades"]') == []  # the N3 Grenades chart is recalled
    assert diffs("unverified = []") == [("unverified", (), ("weapons/grenades",))]
