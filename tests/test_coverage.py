"""docs/coverage.md is generated from the catalogue, the rule book and the cases
(``checker/infinity/coverage.py``): stale output fails, every entry and cited rule has its row, and
the way a case is tied to an entry or a rule is checked on small case files."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import games
from checker.engine import rulebook
from checker.engine.catalogue import KINDS, UNSTATUSED
from checker.engine.catalogue import load as load_catalogue
from checker.infinity import cases, coverage, editions

from .conftest import ROOT


@pytest.fixture(scope="module")
def generated() -> str:
    return coverage.build()


def test_coverage_md_is_generated_from_the_catalogue_and_the_cases(generated):
    actual = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert actual == generated, f"docs/coverage.md is stale: run `{coverage.COMMAND}`"


def test_the_sections_are_the_statused_kinds_and_the_rules():
    assert set(coverage.SECTIONS) == (set(KINDS) - UNSTATUSED) | {coverage.RULES}


@pytest.mark.parametrize("edition", editions())
def test_every_entry_and_every_cited_rule_has_one_row(edition):
    cov = coverage.edition_coverage(edition, [])
    catalogue = load_catalogue(edition)
    for kind in set(coverage.SECTIONS) - {coverage.RULES}:
        assert sorted(r.id for r in cov.section(kind)) == sorted(e.id for e in catalogue.all(kind)), kind
    cited = {r.id for r in rulebook.load(edition).citations if r.edition == edition}
    assert sorted(r.id for r in cov.section(coverage.RULES)) == sorted(cited)
    assert all(r.cases == () for r in cov.rows)


AROS = '''source = "a test"
command = "aros"
position = \'\'\'
edition n5
active nomads
trooper zerker nomads { skills: Berserk; weapons: CC Weapon }
trooper fus1 panoceania Fusilier { lieutenant; weapons: Combi Rifle }
lof fus1 -> zerker
order zerker: Move
\'\'\'

[expect]
triggers.fus1 = ["lof"]
legal.fus1 = ["dodge", "bs_attack/combi_rifle"]
denied.fus1 = { "look_out" = ["aro_skill"] }
pending.fus1 = ["cc_attack/knife: distance fus1 zerker"]
'''

UNKNOWN_SKILL = '''source = "a test"
command = "error"
position = \'\'\'
edition n5
active nomads
trooper zerker nomads { skills: Flying }
\'\'\'

[expect]
kind = "position"
'''

GARBAGE = '''source = "a test"
command = "error"
position = "this is not a position"

[expect]
kind = "notation"
'''


def _case(tmp_path: Path, name: str, text: str) -> cases.Case:
    path = tmp_path / "cases" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return cases.load(path)


def test_a_case_exercises_what_its_position_puts_in_play(tmp_path):
    ties = coverage.ties(_case(tmp_path, "a.toml", AROS), tmp_path)
    assert ties is not None
    assert (ties.path, ties.edition) == ("cases/a.toml", "n5")
    written = {("special_skills", "berserk"), ("weapons", "cc_weapon"), ("skills", "move"),
               ("special_skills", "lieutenant"), ("weapons", "combi_rifle")}
    options = {("skills", s) for s in ("dodge", "bs_attack", "look_out", "cc_attack")}
    assert written | options <= ties.in_play
    assert ties.named == written | options
    # given by a weapon's chart: in play, not named
    assert {("ammunition", "n"), ("traits", "suppressive_fire")} <= ties.in_play - ties.named
    # the trigger kind "lof" is granted by aro_trigger (trigger_rule(lof, aro_trigger))
    assert ties.rules == {"aro_skill", "aro_trigger"}


def test_a_position_that_does_not_resolve_exercises_no_entry(tmp_path):
    ties = coverage.ties(_case(tmp_path, "e.toml", UNKNOWN_SKILL), tmp_path)
    assert ties is not None and ties.edition == "n5"
    assert (ties.in_play, ties.named, ties.rules, ties.resolved) == (frozenset(), frozenset(), frozenset(), False)
    assert coverage.ties(_case(tmp_path, "g.toml", GARBAGE), tmp_path) is None


def test_expected_options_name_their_common_skill():
    aros = {"legal": {"fus1": ["dodge>a2"]}, "invalid": {"fus1": ["bs_attack/pistol"]},
            "denied": {"fus1": {"engage": ["aro_lof"]}}, "pending": {"fus1": ["cc_attack/knife: distance fus1 a"]}}
    assert sorted(coverage.expected_options("aros", aros)) == ["bs_attack", "cc_attack", "dodge", "engage"]
    declarations = {"legal": {"first": ["berserk/cc_weapon>fus1"]}, "denied": {"second": {"move": []}}}
    assert sorted(coverage.expected_options("declarations", declarations)) == ["berserk", "move"]
    odds = {"rows": ["declared", "fus1 bs_attack/multi_rifle/ap"]}
    assert list(coverage.expected_options("odds", odds)) == ["bs_attack"]
    assert list(coverage.expected_options("check", {"verdicts": {"order": ["x"]}})) == []


def test_rows_list_named_cases_first_and_count_the_rest(tmp_path):
    found = [coverage.Ties(f"cases/{n}.toml", "n5", frozenset({("states", "prone")}),
                           frozenset({("states", "prone")}) if n in "cd" else frozenset(), frozenset({"aro_lof"}))
             for n in "abcdef"]
    cov = coverage.edition_coverage("n5", [*found, coverage.Ties("cases/n3.toml", "n3", frozenset(), frozenset(),
                                                                  frozenset({"aro_lof"}))])
    prone = next(r for r in cov.section("states") if r.id == "prone")
    assert prone.cases == ("cases/c.toml", "cases/d.toml", "cases/a.toml", "cases/b.toml", "cases/e.toml",
                           "cases/f.toml")
    assert prone.named == 2
    aro_lof = next(r for r in cov.section(coverage.RULES) if r.id == "aro_lof")
    assert len(aro_lof.cases) == 6
    assert (cov.cases, cov.unresolved) == (6, 0)
    text = coverage.render([cov])
    line = next(x for x in text.splitlines() if x.startswith("| Prone (`prone`)"))
    assert line.endswith("| 6 (2 named) | `cases/c.toml`, `cases/d.toml`, `cases/a.toml`, `cases/b.toml` and 2 more |")


def test_statuses_totals_and_the_list_of_entries_short_of_cases():
    cov = coverage.edition_coverage("n5", [])
    rows = {r.id: r for r in cov.rows if r.section != coverage.RULES}
    text = coverage.render([cov])
    for row in rows.values():
        word = coverage.STATUS_WORDS[row.status]
        assert f"| {word} |" in text or f"| {word}: " in text
    states = cov.section("states")
    counts = [len(states), *(sum(r.status == s for r in states) for s in coverage.STATUS_WORDS), len(states)]
    assert "| N5 | States | " + " | ".join(map(str, counts)) + " |" in text
    short = text[text.index("### N5: fewer than 2 cases"):]
    assert f"({len(cov.rows)})" in short.splitlines()[0]
    assert all(f"`{r.id}`" in short for r in cov.rows)


def test_a_bar_in_a_cell_is_escaped():
    assert coverage._cell("a | b\n  c") == "a \\| b c"


def test_main_writes_every_game_s_page_and_checks_it(tmp_path, monkeypatch):
    for game in games.GAMES:
        monkeypatch.setattr(game, "coverage", lambda name=game.name: f"table of {name}\n")
    assert games.main(["--check"], tmp_path) == 1
    assert games.main([], tmp_path) == 0
    for game in games.GAMES:
        assert (tmp_path / game.coverage_page).read_text(encoding="utf-8") == f"table of {game.name}\n"
    assert games.main(["--check"], tmp_path) == 0
    assert games.main(["--nope"], tmp_path) == 2


def test_main_refuses_a_malformed_case(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "cases" / "bad.toml"
    bad.parent.mkdir()
    bad.write_text('source = "s"\nposition = "edition n5"\n[expect]\nlegl = 1\n', encoding="utf-8")
    monkeypatch.setattr(coverage, "CASES", bad.parent)
    assert games.main([], tmp_path) == 2
    assert "unknown key 'legl'" in capsys.readouterr().err
    assert not (tmp_path / "docs").exists()
