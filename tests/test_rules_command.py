"""`ruling rules`: from a rule id to its citation and to every statement using it, in one step."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from clingo import ast

from checker import games
from checker.cli import EXIT_BAD_INPUT, EXIT_OK, main
from checker.engine import rule_places, rulebook
from checker.engine.errors import RuleBaseError
from checker.engine.resources import asp_dir

from .conftest import ROOT, holds_statements, included

CITATION = re.compile(r"^rule\(([a-z0-9_]+), (n3|n5|urban_war),", re.MULTILINE)


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def line_of(place: dict) -> str:
    """The text of the rule base line a ``{"file", "line"}`` place names."""
    lines = (ROOT / place["file"]).read_text(encoding="utf-8").split("\n")
    return lines[place["line"] - 1]


def all_rules() -> list[dict]:
    result = run("rules", "--format", "json")
    assert result.exit_code == EXIT_OK
    return json.loads(result.output)["rules"]


def test_template_dodge_shows_its_text_its_citation_and_its_uses():
    result = run("rules", "template_dodge")
    assert result.exit_code == EXIT_OK
    table = (asp_dir() / "infinity" / "n3" / "rules.lp").read_text(encoding="utf-8").split("\n")
    cited = next(i for i, line in enumerate(table, 1) if line.startswith("rule(template_dodge, n3,"))
    text = re.search(r'"([^"]+)"\)\.$', table[cited]).group(1)  # the Text, on the next line
    assert result.output.startswith("[template_dodge] N3\n")
    assert "  source: seed 003_ffd030bb113e9f57.txt p.35\n" in result.output
    assert f"  text:   {text}\n" in result.output
    assert f"  cited:  asp/infinity/n3/rules.lp:{cited}\n" in result.output
    aro = (asp_dir() / "infinity" / "n3" / "aro.lp").read_text(encoding="utf-8").split("\n")
    override = next(i for i, line in enumerate(aro, 1) if "overrides(template_dodge, aro_lof)" in line)
    assert f"asp/infinity/n3/aro.lp:{override}\n" in result.output
    # N5 has no such rule: only the N3 citation is printed
    assert "N5" not in result.output


def test_a_rule_of_both_editions_is_printed_for_each():
    data = json.loads(run("rules", "aro_lof", "--format", "json").output)["rules"]
    assert [(r["id"], r["edition"]) for r in data] == [("aro_lof", "n3"), ("aro_lof", "n5")]
    for rule in data:
        uses = {(p["file"], line_of(p).strip()) for p in rule["used_at"]}
        # the core denial, loaded by both editions, derives it in each
        assert any(f == "asp/infinity/core/aro.lp" and t.startswith("denial(aro(R, S, W, A), aro_lof) :-") for f, t in uses)
    n3 = {(p["file"], line_of(p).strip()) for p in data[0]["used_at"]}
    assert ("asp/infinity/n3/skills/sixth_sense.lp", "overrides(sixth_sense, aro_lof).") in n3


def test_every_printed_place_holds_its_rule():
    for rule in all_rules():
        assert line_of(rule["cited_at"]).startswith(f"rule({rule['id']}, {rule['edition']},"), rule["id"]
        assert rule["used_at"], f"{rule['edition']} {rule['id']}: cited, used by no statement"
        for place in rule["used_at"]:
            code = line_of(place).split("%")[0]  # a comment naming the rule is not a use
            assert re.search(rf"\b{rule['id']}\b", code), (rule["id"], place)
            edition_file = place["file"].startswith("asp/infinity/n")
            assert not edition_file or place["file"].startswith(f"asp/infinity/{rule['edition']}/")


def test_every_id_of_every_rule_set_is_indexed_from_the_files_the_rule_set_loads():
    indexed = {(r["id"], r["edition"]) for r in all_rules()}
    expected = set()
    for edition in games.rule_sets():
        files = included(asp_dir().resolve() / f"{edition}.lp")
        with_rules = [f for i, f in enumerate(files) if i == 0 or holds_statements(f)]
        assert list(rulebook.load(edition).files) == [f.relative_to(ROOT).as_posix() for f in with_rules]
        expected |= {c for f in files for c in CITATION.findall(f.read_text(encoding="utf-8"))}
    assert sorted(expected - indexed) == [] and sorted(indexed - expected) == []
    assert {e for _, e in indexed} == {"n3", "n5", "urban_war"}


def test_no_id_lists_every_rule_of_the_edition_one_line_each():
    result = run("rules", "--edition", "n5")
    assert result.exit_code == EXIT_OK
    lines = result.output.rstrip("\n").split("\n")
    ids = rulebook.load("n5").ids
    assert len(lines) == len(ids)
    for rule_id, line in zip(ids, lines):
        assert line.startswith(f"[{rule_id}] N5 asp/infinity/n5/"), line  # its table, or its skill's file
    every = run("rules").output.rstrip("\n").split("\n")
    assert len(every) == sum(len(rulebook.load(e).ids) for e in ("n3", "n5", "urban_war"))


def test_an_unknown_id_exits_2_with_a_hint():
    result = run("rules", "template_dodg")
    assert result.exit_code == EXIT_BAD_INPUT
    assert "unknown N3/N5/URBAN_WAR rule 'template_dodg' (did you mean template_dodge" in result.output
    assert "Traceback" not in result.output
    result = run("rules", "template_dodge", "--edition", "n5")
    assert result.exit_code == EXIT_BAD_INPUT
    assert "unknown N5 rule 'template_dodge' (it is cited in N3: add --edition n3)" in result.output
    result = run("rules", "xyzzy", "--format", "json")
    assert result.exit_code == EXIT_BAD_INPUT
    error = json.loads(result.output.split("\n}\n")[0] + "\n}")["error"]
    assert error == {"kind": "unknown-rule", "rule": "xyzzy", "suggestions": [],
                     "message": "unknown N3/N5/URBAN_WAR rule 'xyzzy' ('ruling rules' lists every rule)"}


def test_one_unknown_id_among_known_ones_is_still_exit_2():
    result = run("rules", "aro_lof", "no_such_rule")
    assert result.exit_code == EXIT_BAD_INPUT and "'no_such_rule'" in result.output


@pytest.fixture
def tiny_rule_base(tmp_path, monkeypatch):
    """A rule base of its own: an entry file including two files, and one it does not."""
    (tmp_path / "asp" / "zz").mkdir(parents=True)
    (tmp_path / "asp" / "zz.lp").write_text(
        '#include "zz/rules.lp".\n#include "zz/a.lp".\n', encoding="utf-8")
    (tmp_path / "asp" / "zz" / "rules.lp").write_text(
        '% citations\nrule(r1, zz, "http://example.org/r1", "Rule one.").\n', encoding="utf-8")
    (tmp_path / "asp" / "zz" / "a.lp").write_text(
        "% r1 named in a comment is not a use\n"
        "denial(x, r1) :- p.\n"
        "q :- s,\n"
        "     denied(f(x), r1).\n"
        'rule(r2, zz, "seed 000_ef9e2e41b2197e1b.txt p.81",\n'
        '     "Rule two.").\n'
        "permission(u(\"r1\"), r2).\n"
        "has_skill(x, r1, none). t(f(r1)). v :- denial(r1, r2), r1 != r2.\n", encoding="utf-8")
    (tmp_path / "asp" / "zz" / "unloaded.lp").write_text("denial(y, r1).\n", encoding="utf-8")
    monkeypatch.setattr(rulebook, "asp_dir", lambda: tmp_path / "asp")
    rulebook.cache_clear()
    yield
    rulebook.cache_clear()


def test_citations_and_uses_are_read_statement_by_statement(tiny_rule_base):
    book = rulebook.load("zz")
    assert book.files == ("asp/zz.lp", "asp/zz/rules.lp", "asp/zz/a.lp")
    r1, r2 = book.rule("r1"), book.rule("r2")
    assert (r1.source, r1.text, str(r1.cited_at)) == ("http://example.org/r1", "Rule one.", "asp/zz/rules.lp:2")
    # the line of the term, inside a statement spanning two lines; not the comment, not
    # the string "r1", not the file the entry file does not include, not a constant
    # standing where no rule does (a skill's argument, a compound term, a subject)
    assert [str(p) for p in r1.used_at] == ["asp/zz/a.lp:2", "asp/zz/a.lp:4"]
    assert (str(r2.cited_at), [str(p) for p in r2.used_at]) == ("asp/zz/a.lp:5", ["asp/zz/a.lp:7", "asp/zz/a.lp:8"])


def test_a_rule_base_clingo_cannot_parse_is_a_rule_base_error(tiny_rule_base):
    (rulebook.asp_dir() / "zz" / "a.lp").write_text("denial(x, r1 :- p.\n", encoding="utf-8")
    with pytest.raises(RuleBaseError, match="cannot parse the zz rule base"):
        rulebook.load("zz")


def test_a_rule_named_like_a_skill_is_used_where_a_rule_stands_only():
    # the Stealth rule and the Stealth skill share the id in both editions:
    # has_skill(A, stealth, _) tests the skill, denial(..., stealth) uses the rule
    data = json.loads(run("rules", "stealth", "--format", "json").output)["rules"]
    assert [(r["id"], r["edition"]) for r in data] == [("stealth", "n3"), ("stealth", "n5")]
    for rule in data:
        files = [ROOT / f for f in rulebook.load(rule["edition"]).files]
        skill_lines = {(f.relative_to(ROOT).as_posix(), i) for f in files
                       for i, line in enumerate(f.read_text(encoding="utf-8").split("\n"), 1)
                       if re.search(r"has_skill\(\w+, stealth, ", line.split("%")[0])}
        used = {(p["file"], p["line"]) for p in rule["used_at"]}
        assert skill_lines and used and not used & skill_lines, rule["edition"]
        assert all("has_skill" not in line_of(p) for p in rule["used_at"]), rule["edition"]
    n3, n5 = ({(p["file"], line_of(p).strip()) for p in r["used_at"]} for r in data)
    assert ("asp/infinity/n3/skills/stealth.lp", "silent_rule(stealth).") in n3
    stealth = "asp/infinity/n5/skills/stealth.lp"
    assert (stealth, "denial(aro(R, S, W, A), stealth) :-") in n5
    assert any(f == stealth and t.startswith("stealth_denial(stealth).") for f, t in n5)
    result = run("rules", "stealth", "--edition", "n5")
    assert "has_skill" not in result.output and f"{stealth}:" in result.output


def test_every_rule_argument_is_an_engine_predicate():
    # the engine names its own predicates' rule arguments, no game's; a signature renamed
    # in the engine's rule base and not here would silently drop its uses
    text = "\n".join(f.read_text(encoding="utf-8") for f in (asp_dir() / "engine").glob("*.lp"))
    for (name, arity), positions in rulebook.RULE_ARGUMENTS.items():
        assert re.search(rf"\b{name}(\(|/{arity}\b)", text), (name, arity)
        assert positions and all(0 <= p < arity for p in positions), (name, arity)
    assert ("mod", 3) not in rulebook.RULE_ARGUMENTS and ("needs_test", 3) not in rulebook.RULE_ARGUMENTS


def test_a_game_predicates_rule_places_are_inferred_from_its_rules():
    n3, n5, urban_war = (rulebook.load(e).places for e in ("n3", "n5", "urban_war"))
    # passed to the engine through a variable: mod(deploy(T), Rule, M) :- rolls_to_deploy(T, Rule, _, M)...
    assert {("mod", 3, 1), ("mod_candidate", 3, 1), ("deploy_roll", 5, 2), ("pending", 3, 2)} <= n5
    # a constant shared with denial/2 or used_rule/1 in one statement: breach_fact(position(T),
    # total_cover, ...) :- denial(position(T), total_cover); used_rule(x) :- extra_die(_, x)
    assert {("breach_fact", 3, 1), ("extra_die", 2, 1)} <= n5 & n3
    # inside a compound term: guts_none(T, fails(R)) :- ..., guts_auto_fail(T, R)
    assert ("guts_none", 2, 1, "fails", 1, 0) in n5
    # pending/3's rule reaches the engine in N5 only (fireteam.lp); the core file holding
    # its N3 uses is the same file
    assert ("pending", 3, 2) in n3
    assert {("needs_test", 3, 2), ("no_test", 2, 1)} <= urban_war
    # a skill, a state, a subject or an outcome's What is no rule place: has_skill(A, R, _)
    # tests a skill with a rule's variable (n5/aro.lp), group/7's third argument holds a
    # deployment roll's rule and every other roll's skill
    for places in (n3, n5):
        assert not {("has_skill", 3, 1), ("group", 7, 2), ("aro", 3, 1), ("gains", 3, 1),
                    ("outcome", 3, 1), ("denial", 2, 0), ("fire_sensitive_skill", 2, 1)} & places
    # Urban War's own predicates that pass a rule id (kinds of act, modifiers, effects)
    own = {("forbids", 3, 0), ("state_forbids", 3, 0), ("hides", 3, 0), ("bars_counter", 3, 2), ("obliged", 3, 2),
           ("hit_mod", 4, 0), ("test_mod", 4, 0), ("effect", 3, 2), ("extra_dice", 4, 2), ("first_striker", 3, 2),
           ("morale_due", 2, 1), ("immune", 2, 1), ("outcome", 3, 1, "no_morale_check", 1, 0)}
    assert own <= urban_war
    assert not {p for p in urban_war if p[0] not in {"needs_test", "no_test"}} - own - {
        (n, a, i) for (n, a), positions in rulebook.RULE_ARGUMENTS.items() for i in positions}


def inferred(text: str) -> frozenset:
    """The rule places of a rule base given as text (citations included)."""
    statements: list = []
    ast.parse_string(text, statements.append)
    read = [s for s in statements if s.ast_type not in (ast.ASTType.Comment, ast.ASTType.Program)]
    cited = {s.head.atom.symbol.arguments[0].symbol.name for s in read if str(s).startswith("rule(")}
    return rule_places.rule_slots([rule_places.summarize(s) for s in read], cited)


TINY = """
rule(r1, zz, "s", "t"). rule(r2, zz, "s", "t"). rule(sneak, zz, "s", "t").
bonus(x, r1, 2). bonus(y, r2, 1).
outcome(T, gets(V), R) :- bonus(T, R, V).
delay(T, wait(R)) :- denial(T, R).
used_rule(R) :- chosen(X), R = X.
note(x, r2) :- denial(x, r2).
many :- #count { R : used_rule(R) } > 1, #count { R : other(R) } > 1.
p(A) :- step(A, (R; Q)), denial(A, R), denial(A, Q).
"""


def test_a_rule_place_is_found_through_a_shared_variable_a_constant_or_an_equality():
    places = inferred(TINY)
    assert ("bonus", 3, 1) in places  # through R, to outcome/3's rule
    assert ("delay", 2, 1, "wait", 1, 0) in places  # inside a compound term
    assert ("chosen", 1, 0) in places  # through R = X
    assert ("note", 2, 1) in places  # the constant r2, at denial/2's rule too
    assert ("step", 2, 1) in places  # each alternative of a pool
    # not the other arguments; not other/1, whose R is its own aggregate element's
    assert not {("bonus", 3, 0), ("bonus", 3, 2), ("outcome", 3, 1), ("delay", 2, 0), ("other", 1, 0),
                ("note", 2, 0), ("p", 1, 0), ("step", 2, 0)} & places


def test_a_variable_shared_with_a_skill_argument_does_not_make_the_skill_a_rule():
    skills = TINY + "has_skill(a, sneak, 1). has_skill(a, climb, 1). pick(sneak).\n"
    pun = "permission(order, R) :- pick(R), has_skill(A, R, _), trooper(A).\n"
    places = inferred(skills + pun)
    # R is the rule sneak and the skill sneak; climb, a skill no citation names, shows
    # has_skill/3's second argument holds skills
    assert ("pick", 1, 0) in places and ("has_skill", 3, 1) not in places
    # through any other rule too: a skill place joins no kind
    places = inferred(skills + pun + "q(S) :- has_skill(_, S, _), tested(S).\n")
    assert not {("has_skill", 3, 1), ("tested", 1, 0)} & places
    # a skill argument holding only cited ids, with no variable reaching a rule place, is none
    assert ("has_skill", 3, 1) not in inferred(TINY + "has_skill(a, sneak, 1). q :- has_skill(_, S, _), s(S).\n")
