"""Urban War: the game's notation, catalogue, rule base, commands and cases."""

from __future__ import annotations

import re
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from checker import games
from checker.cli import main
from checker.engine import catalogue, solver
from checker.engine.errors import NotationError, PositionError
from checker.urban_war import ENTRY
from checker.urban_war.analysis import analyse

ROOT = Path(__file__).resolve().parent.parent
SEED = Path("/work/shared/seeds/004_5af2cbd84cdeb84c.txt")
EXAMPLE = ROOT / "examples" / "urban-war-overwatch.pos"
RULES = ROOT / "asp" / "urban_war"
CASES = ROOT / "cases" / "urban-war"


def rule_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(RULES.rglob("*.lp")))


@pytest.mark.skipif(not SEED.exists(), reason="the seeds are not on this machine")
def test_every_seed_004_skill_has_a_catalogue_entry():
    headings = re.findall(r"^#{2,3} \*\*(.+?)\*\*", SEED.read_text(encoding="utf-8"), re.MULTILINE)
    cat = catalogue.load("urban-war")
    assert len(headings) == 43
    names = {e.name for e in cat.all("special_skills")}
    assert set(headings) == names
    for entry in cat.all("special_skills"):
        assert entry.source == f"seed 004_5af2cbd84cdeb84c.txt, {entry.name}"


def test_the_modelled_status_matches_the_rule_base():
    """A special skill some rule reads (special(M, id)) is yes or partial; the others no."""
    text = rule_text()
    read = set(re.findall(r"special(?:_value)?\(\w+, (\w+)[,)]", text))
    cat = catalogue.load("urban-war")
    for entry in cat.all("special_skills"):
        assert (entry.id in read) == (entry.modelled != "no"), entry.id
    for entry in cat.all("states"):
        if entry.id != "normal":
            assert (entry.id in text) == (entry.modelled != "no"), entry.id


def test_every_rule_used_is_cited_and_every_citation_used():
    text = rule_text()
    cited = set(re.findall(r"^rule\((\w+), urban_war,", text, re.MULTILINE))
    body = re.sub(r"^rule\(.*?\)\.$", "", text, flags=re.MULTILINE | re.DOTALL)
    used = set(re.findall(r"(?:denial|needs_test|no_test|gains|loses|outcome|effect)\([^.]*?, ([a-z]\w*)\)\s*:-", body))
    used |= set(re.findall(r"(?:forbids|hides|hit_mod|test_mod)\(([a-z]\w*),", body))
    used |= set(re.findall(r"(?:bars_counter|obliged)\([^.]*?, ([a-z]\w*)\)\s*:-", body))
    assert used and used <= cited
    unused = {r for r in cited if not re.search(rf"\b{r}\b", body)}
    assert unused == set()


def test_the_entry_file_includes_the_engine_and_no_infinity_file():
    entry = solver.entry_file(ENTRY).read_text(encoding="utf-8")
    includes = re.findall(r'#include "([^"]+)"', entry)
    assert includes[:2] == ["engine/verdict.lp", "engine/outcome.lp"]
    assert not [i for i in includes if i.startswith("infinity")]
    assert {f"urban_war/{p.name}" for p in RULES.glob("*.lp")} == set(includes[2:])


def test_each_modelled_skill_has_two_cases():
    sources = [case.source for case in games.collect_cases([CASES])]
    for entry in catalogue.load("urban-war").all("special_skills"):
        if entry.modelled != "no":
            named = [s for s in sources if f"seed 004_5af2cbd84cdeb84c.txt, {entry.name}" in s]
            assert len(named) >= 2, entry.name


def test_the_example_resolves():
    checked = analyse(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE)).check()
    assert checked.legal
    assert [r for _, r in checked.damage[0].points] == ["dodged", "dodge unresolved"]
    assert ("sgt", "revealed", "stealth_revealed") in checked.states


@pytest.mark.parametrize("command, code", [("aros", 0), ("declarations", 0), ("check", 0)])
def test_the_commands_on_the_example(command, code):
    result = CliRunner().invoke(main, [command, str(EXAMPLE)])
    assert result.exit_code == code, result.output
    assert "Rules:" in result.output
    json_result = CliRunner().invoke(main, [command, str(EXAMPLE), "--format", "json"])
    assert '"game": "urban-war"' in json_result.output


def test_strict_exits_1_when_something_in_play_is_not_modelled():
    assert CliRunner().invoke(main, ["aros", str(EXAMPLE), "--strict"]).exit_code == 1


def test_an_illegal_declaration_exits_1():
    text = "game urban-war\nactive a\nmodel x a { order lock-fire }\nmodel y b\naction x: Move + Move\n"
    result = CliRunner().invoke(main, ["check", "-"], input=text)
    assert result.exit_code == 1 and "[uw_lock_fire_single]" in result.output


@pytest.mark.parametrize("text, error, where", [
    ("game urban-war\nactive a\nlos x y\n", NotationError, ":3:7:"),
    ("game urban-war\nactive a\nmodel x a { cal 9 }\n", PositionError, ":3:17:"),
    ("game urban-war\nactive a\nmodel x a\naction x: Shoot\n", PositionError, ":4:11:"),
    ("game urban-war\nactive a\nmodel x a\naction x: Overwatch Shoot -> x\n", PositionError, ":4:11:"),
])
def test_bad_input_is_located(text, error, where):
    with pytest.raises(error) as info:
        analyse(text, "p.pos")
    assert f"p.pos{where}" in str(info.value)
    result = CliRunner().invoke(main, ["aros", "-"], input=text)
    assert result.exit_code == 2 and f"-{where}" in result.output


def test_odds_is_refused_on_urban_war():
    result = CliRunner().invoke(main, ["aros", str(EXAMPLE), "--odds"])
    assert result.exit_code == 2 and "Urban War" in result.output


def test_verify_runs_the_urban_war_cases():
    result = CliRunner().invoke(main, ["verify", str(CASES)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("0 failed")


def test_a_malformed_case_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('source = "x"\ncommand = "check"\nposition = "game urban-war"\n[expect]\nlegl = true\n')
    result = CliRunner().invoke(main, ["verify", str(bad)])
    assert result.exit_code == 2 and "unknown key 'legl'" in result.output


def test_the_coverage_page_matches_the_catalogue():
    from checker.urban_war.coverage import coverage_markdown

    page = ROOT / "docs" / "urban-war" / "coverage.md"
    assert page.read_text(encoding="utf-8") == coverage_markdown(), "regenerate docs/urban-war/coverage.md"


def test_clingo_on_the_entry_file_reproduces_the_program(tmp_path):
    import json
    import subprocess
    import sys

    facts = tmp_path / "facts.lp"
    result = CliRunner().invoke(main, ["facts", str(EXAMPLE)])
    assert result.exit_code == 0
    facts.write_text(result.output, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "clingo", str(solver.entry_file(ENTRY)), str(facts), "--outf=2"],
                         capture_output=True, text=True, check=False).stdout
    from_cli = sorted(json.loads(out)["Call"][0]["Witnesses"][0]["Value"])
    from_python = analyse(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE)).atoms
    assert from_cli and len(from_cli) == sum(len(v) for v in from_python.by_name.values())


# The Urban War rule base has no permission, hence no lifted denial or conflict, and no two
# states it gives exclude each other: these tests add the facts that would make them
# (a permission, a precedence, a state given twice) to the facts of a real position.
LOCK_FIRE = "game urban-war\nactive a\nmodel x a { order lock-fire }\nmodel y b\naction x: Move + Move\n"
PERMIT = ('permission(act(2, move, "x"), test_permit)',
          'rule(test_permit, urban_war, "test source", "A test rule allowing a second Move.")')
CLASH = ('gains("x", normal, test_stand)', 'gains("x", prone, test_down)',
         'rule(test_stand, urban_war, "test source", "A test rule standing x up.")',
         'rule(test_down, urban_war, "test source", "A test rule putting x down.")')


@pytest.fixture
def extra_facts(monkeypatch):
    """Solve Urban War positions with the facts given added."""
    from checker.urban_war import analysis

    added: list[str] = []
    solve = solver.solve

    def with_extra(edition, facts, *args, **kwargs):
        return solve(edition, [*facts, *(clingo.parse_term(f) for f in added)], *args, **kwargs)

    monkeypatch.setattr(analysis.solver, "solve", with_extra)
    return added


def test_a_permission_overriding_a_denial_lifts_it(extra_facts):
    extra_facts += [*PERMIT, "overrides(test_permit, uw_lock_fire_single)"]
    checked = analyse(LOCK_FIRE).check()
    second = checked.actions[1]
    assert (second.status, second.denied_by, second.lifted, second.conflicts) == \
        ("legal", (), (("uw_lock_fire_single", "test_permit"),), ())
    assert checked.legal and checked.conflicts == () and checked.state_clashes == ()
    assert {"test_permit", "uw_lock_fire_single"} <= {r for r, _, _ in checked.citations}
    assert checked.to_dict()["actions"][1]["lifted"] == [{"denial": "uw_lock_fire_single", "permission": "test_permit"}]
    result = CliRunner().invoke(main, ["check", "-"], input=LOCK_FIRE)
    assert result.exit_code == 0, result.output
    assert "action 2 move: legal; allowed by [test_permit] over [uw_lock_fire_single]" in result.output
    before = LOCK_FIRE.replace("Move + Move", "Move")  # the next slot, 2, is the one permitted
    declared = analyse(before).declarations()
    assert {o.key(): o.lifted for o in declared.options if o.lifted} == \
        {"move": (("uw_lock_fire_single", "test_permit"),)}
    assert "move" in {o.key() for o in declared.options if o.status == "legal"}
    result = CliRunner().invoke(main, ["declarations", "-"], input=before)
    assert result.exit_code == 0 and "  move: legal; allowed by [test_permit] over [uw_lock_fire_single]\n" in result.output


def test_a_permission_and_a_denial_with_no_precedence_are_a_conflict(extra_facts):
    extra_facts += PERMIT
    checked = analyse(LOCK_FIRE).check()
    second = checked.actions[1]
    assert (second.status, second.denied_by, second.lifted, second.conflicts) == \
        ("conflict", ("uw_lock_fire_single",), (), (("test_permit", "uw_lock_fire_single"),))
    assert not checked.legal
    assert [c.to_dict() for c in checked.conflicts] == \
        [{"subject": "action 2 move", "permission": "test_permit", "denial": "uw_lock_fire_single"}]
    assert {"test_permit", "uw_lock_fire_single"} <= {r for r, _, _ in checked.citations}
    result = CliRunner().invoke(main, ["check", "-"], input=LOCK_FIRE)
    assert result.exit_code == 1
    assert "action 2 move: conflict [test_permit] against [uw_lock_fire_single]" in result.output
    assert "Conflicts (two rules disagree with no precedence between them):\n  action 2 move\n" \
           "    permits: [test_permit]\n    forbids: [uw_lock_fire_single]\n" in result.output
    assert "[test_permit] urban-war test source: A test rule allowing a second Move." in result.output
    json_result = CliRunner().invoke(main, ["check", "-", "--format", "json"], input=LOCK_FIRE)
    assert json_result.exit_code == 1 and '"status": "conflict"' in json_result.output
    # declarations and aros of the same position carry the conflict and fail
    before = LOCK_FIRE.replace("Move + Move", "Move")
    declared = analyse(before).declarations()
    assert [c.subject for c in declared.conflicts] == ["action 2 move"]
    assert [o.status for o in declared.options if o.key() == "move"] == ["conflict"]
    assert CliRunner().invoke(main, ["declarations", "-"], input=before).exit_code == 1


def test_two_states_that_exclude_each_other_are_a_state_clash(extra_facts):
    extra_facts += CLASH
    text = LOCK_FIRE.replace("Move + Move", "Move")
    checked = analyse(text).check()
    assert [c.to_dict() for c in checked.state_clashes] == \
        [{"model": "x", "states": [{"state": "normal", "rule": "test_stand"}, {"state": "prone", "rule": "test_down"}]}]
    assert {"test_stand", "test_down"} <= {r for r, _, _ in checked.citations}
    result = CliRunner().invoke(main, ["check", "-"], input=text)
    assert result.exit_code == 1
    assert "Verdict: legal (with conflicts)" in result.output
    assert "  x: normal [test_stand] and prone [test_down]" in result.output


def test_a_case_expecting_a_conflict_or_lifted_denial_compares_both_ways(extra_facts, tmp_path):
    from checker.urban_war import cases

    extra_facts += PERMIT
    data = {"source": "test", "command": "check", "position": LOCK_FIRE,
            "expect": {"conflicts": ["action 2 move | test_permit | uw_lock_fire_single"], "lifted": {"action 2": []}}}
    assert cases.run(cases.load(tmp_path / "c.toml", data, "")).differences == ()
    data["expect"] = {"conflicts": [], "lifted": {"action 2": ["test_permit > uw_lock_fire_single"]}}
    found = {d.key: (d.missing, d.unexpected) for d in cases.run(cases.load(tmp_path / "c.toml", data, "")).differences}
    assert found == {"conflicts": ((), ("action 2 move | test_permit | uw_lock_fire_single",)),
                     "lifted.action 2": (("test_permit > uw_lock_fire_single",), ())}


def test_a_conflict_on_a_reaction_is_named_by_the_reacting_model(extra_facts):
    extra_facts += ['permission(react("y", counter_charge, "x"), test_permit)',
                    'rule(test_permit, urban_war, "test source", "A test rule allowing a counter-charge.")']
    text = LOCK_FIRE.replace("Move + Move", "Move")
    reactions = analyse(text).reactions()
    assert [c.to_dict() for c in reactions.conflicts] == \
        [{"subject": "react y counter_charge>x", "permission": "test_permit", "denial": "uw_counter_charge"}]
    result = CliRunner().invoke(main, ["aros", "-"], input=text)
    assert result.exit_code == 1
    assert "  counter_charge -> x: conflict [test_permit] against [uw_counter_charge]\n" in result.output


def test_every_action_and_reaction_has_a_kind_of_act():
    """A denial of shooting, moving or fighting reaches an act through its kind
    (asp/urban_war/acts.lp): an action or reaction with no kind would escape every one."""
    text = (RULES / "acts.lp").read_text(encoding="utf-8")
    kinds = {m.group(1) for m in re.finditer(r"act_kind\(([a-z]\w*), ", text)}
    skills = {e.id for e in catalogue.load("urban-war").all("skills")}
    assert skills == kinds


def test_no_denial_of_a_kind_names_one_action():
    """States and skills forbid kinds of act (forbids/3, state_forbids/3), never one
    shooting action: a rule written for Shoot alone would miss Overwatch shots and
    Suppressive Fire."""
    body = re.sub(r"%[^\n]*", "", rule_text())
    acts = "shoot|overwatch_shoot|suppressive_fire|charge|jump_charge|counter_charge|move|rush"
    for statement in body.split(".\n"):
        head = statement.split(":-")[0]
        if re.search(rf"denial\((act|react)\([A-Z_]+, ({acts}),", head):
            assert "state(" not in statement, statement
