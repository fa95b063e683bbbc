"""Single rule files on a few facts: each test grounds one or two ``.lp`` files of the
rule base with a handful of input facts through clingo and compares the exact set of
derived atoms, both ways. A rule file's meaning is pinned here in milliseconds, apart
from the positions and the Python that feed the whole rule base."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from .conftest import ROOT

ASP = ROOT / "asp"
VERDICT = ASP / "engine" / "verdict.lp"
OUTCOME = ASP / "engine" / "outcome.lp"
CITED = 'rule(r_deny, n5, "src d", "text d"). rule(r_allow, n5, "src a", "text a"). rule_set(n5).'


def derive(files: list[Path], facts: str, predicates: tuple[str, ...] = ()) -> set[str]:
    """The atoms of the one answer set of ``files`` with ``facts``: the shown ones, or,
    when ``predicates`` are named, every atom of those predicates (shown or not)."""
    ctl = clingo.Control(["--warn=none"])
    for path in files:
        ctl.load(str(path))
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    models: list[set[str]] = []

    def on_model(model: clingo.Model) -> None:
        symbols = model.symbols(atoms=True) if predicates else model.symbols(shown=True)
        models.append({str(s) for s in symbols if not predicates or s.name in predicates})

    ctl.solve(on_model=on_model)
    assert len(models) == 1, f"{len(models)} answer sets"
    return models[0]


# ---- asp/engine/verdict.lp ----------------------------------------------------------

def test_a_denial_alone_is_denied_and_cited():
    assert derive([VERDICT], f"denial(s, r_deny). {CITED}") == {
        "denied(s,r_deny)", 'cite(r_deny,"src d","text d")'}


def test_a_permission_that_overrides_a_denial_lifts_it():
    facts = f"denial(s, r_deny). permission(s, r_allow). overrides(r_allow, r_deny). {CITED}"
    assert derive([VERDICT], facts) == {
        "lifted(s,r_deny,r_allow)", 'cite(r_deny,"src d","text d")', 'cite(r_allow,"src a","text a")'}


def test_an_override_lifts_the_denial_of_its_own_subject_only():
    facts = f"denial(s, r_deny). denial(u, r_deny). permission(s, r_allow). overrides(r_allow, r_deny). {CITED}"
    assert derive([VERDICT], facts, ("denied", "lifted", "conflict")) == {
        "lifted(s,r_deny,r_allow)", "denied(u,r_deny)"}


def test_a_permission_and_a_denial_with_no_priority_are_a_conflict_and_the_denial_stands():
    facts = f"denial(s, r_deny). permission(s, r_allow). {CITED}"
    assert derive([VERDICT], facts) == {
        "conflict(s,r_allow,r_deny)", "denied(s,r_deny)",
        'cite(r_deny,"src d","text d")', 'cite(r_allow,"src a","text a")'}


def test_a_denial_that_overrides_the_permission_stands_without_conflict():
    facts = "denial(s, r_deny). permission(s, r_allow). overrides(r_deny, r_allow)."
    assert derive([VERDICT], facts, ("denied", "lifted", "conflict")) == {"denied(s,r_deny)"}


def test_a_scoped_permission_lifts_only_what_it_overrides_and_clashes_with_nothing():
    facts = ("denial(s, r_deny). denial(s, r_other). permission(s, r_allow). scoped(r_allow). "
             "overrides(r_allow, r_deny).")
    assert derive([VERDICT], facts, ("denied", "lifted", "conflict")) == {
        "lifted(s,r_deny,r_allow)", "denied(s,r_other)"}


def test_two_permissions_over_one_denial_are_each_a_lift_or_a_conflict():
    facts = ("denial(s, r_deny). permission(s, r_allow). permission(s, r_also). "
             "overrides(r_allow, r_deny).")
    assert derive([VERDICT], facts, ("denied", "lifted", "conflict")) == {
        "lifted(s,r_deny,r_allow)", "conflict(s,r_also,r_deny)"}


def test_a_rule_with_a_citation_in_another_rule_set_only_is_uncited():
    facts = 'denial(s, r_deny). rule(r_deny, n3, "src", "text"). rule_set(n5).'
    assert derive([VERDICT], facts) == {"denied(s,r_deny)", "uncited(r_deny)"}


def test_a_citation_of_an_unused_rule_is_not_shown_and_resolution_rules_are():
    facts = f"resolution_rule(r_late). {CITED}"
    assert derive([VERDICT], facts) == {"resolution_rule(r_late)"}


# ---- asp/engine/outcome.lp ----------------------------------------------------------

def test_a_gained_state_that_excludes_the_state_written_clashes_with_the_position():
    facts = "state(t, a). gains(t, b, r1). exclusive(a, b)."
    assert derive([OUTCOME], facts, ("after", "state_clash")) == {
        "after(t,a)", "after(t,b)", "state_clash(t,a,position,b,r1)"}


def test_two_rules_leaving_exclusive_states_clash_whichever_way_the_pair_is_written():
    facts = "gains(t, a, r1). gains(t, b, r2). exclusive(b, a)."
    assert derive([OUTCOME], facts, ("after", "state_clash")) == {
        "after(t,a)", "after(t,b)", "state_clash(t,a,r1,b,r2)"}


def test_exclusive_states_written_in_the_position_alone_are_no_clash_here():
    # a position writing two exclusive states is a breach of the position, not an outcome
    facts = "state(t, a). state(t, b). exclusive(a, b)."
    assert derive([OUTCOME], facts, ("after", "state_clash")) == {"after(t,a)", "after(t,b)"}


def test_a_lost_state_is_not_after_and_clashes_with_nothing():
    facts = "state(t, a). loses(t, a, r1). gains(t, b, r2). exclusive(a, b)."
    assert derive([OUTCOME], facts, ("after", "state_clash")) == {"after(t,b)"}


def test_the_default_state_ends_when_an_exclusive_state_is_gained():
    facts = "default_state(normal). state(t, normal). gains(t, dead, r1). exclusive(normal, dead). state(u, normal)."
    assert derive([OUTCOME], facts, ("after", "loses", "state_clash")) == {
        "loses(t,normal,r1)", "after(t,dead)", "after(u,normal)"}


def test_rules_used_are_applied_in_the_order_of_their_steps_and_an_unknown_step_is_named():
    facts = ("gains(t, b, r1). outcome(t, choice, r2). loses(t, c, r3). "
             "resolution_phase(r1, saves). resolution_phase(r2, guts). resolution_phase(r3, nowhere). "
             "resolution_phase(r4, saves). resolution_step(saves, 3). resolution_step(guts, 5).")
    assert derive([OUTCOME], facts, ("applied", "unknown_step")) == {
        "applied(r1,3)", "applied(r2,5)", "unknown_step(r3,nowhere)"}


def test_an_outcome_rule_is_cited_by_the_verdict_engine():
    facts = 'gains(t, b, r1). rule(r1, n5, "src", "text"). rule_set(n5).'
    assert derive([VERDICT, OUTCOME], facts, ("cite", "uncited")) == {'cite(r1,"src","text")'}


# ---- Infinity rule files on the engine ---------------------------------------------

N5 = ASP / "infinity" / "n5"


@pytest.mark.parametrize(("skill", "denied"), [
    ("courage", {"denied(position(t),courage_retreat)"}),
    ("dogged", set()),
])
def test_n5_courage_denies_a_retreat_state_written_for_its_user(skill, denied):
    facts = f"has_skill(t, {skill}, none). state(t, retreat). state(u, retreat). rule_set(n5)."
    got = derive([VERDICT, N5 / "skills" / "courage.lp"], facts, ("denied", "breach_fact", "uncited"))
    facts_of = {"breach_fact(position(t),courage_retreat,state(t,retreat))"} if denied else set()
    assert got == denied | facts_of


def test_n5_normal_is_lost_on_entering_a_null_state_and_kept_otherwise():
    # default_state(normal) is Infinity's core data (core/states.lp)
    facts = ("default_state(normal). state(t, normal). state(u, normal). state_null(unconscious). state_null(dead). "
             "gains(t, unconscious, damage_rule). gains(u, prone, prone_rule).")
    got = derive([OUTCOME, N5 / "states" / "normal.lp"], facts, ("after", "loses", "state_clash"))
    assert got == {"loses(t,normal,damage_rule)", "after(t,unconscious)", "after(u,normal)", "after(u,prone)"}


def test_n5_dogged_replaces_unconscious_and_dies_in_the_states_phase():
    facts = "has_skill(t, dogged, none). has_skill(u, courage, none). gains(t, dogged, dogged)."
    got = derive([OUTCOME, N5 / "skills" / "dogged.lp"], facts,
                 ("unconscious_replacement", "replacement_state", "outcome"))
    assert got == {"unconscious_replacement(t,dogged,dogged)", "replacement_state(dogged,dogged)",
                   "outcome(t,dead_in_states_phase,dogged)"}
