"""Every rule of each edition is pinned by an expectation of at least one case of that
edition: named where a case compares rules (denied, verdicts, lifted, conflicts,
breaches, may_delay, resolution mods, rules and clashes; ``checker/infinity/case_schema.py``
knows which keys those are), or the rule that grants a trigger kind a case expects
(``trigger_rule(Kind, Rule)`` in the rule base). A rule named only in a comment, a
description or a position pins nothing."""

from __future__ import annotations

import re
from functools import cache

import pytest

from checker.engine import rulebook
from checker.engine.resources import asp_dir
from checker.infinity import case_schema, cases, editions

from .conftest import ROOT

TRIGGER_RULE = re.compile(r"^trigger_rule\(\s*([a-z][a-z0-9_]*)\s*,\s*([a-z][a-z0-9_]*)\s*\)\s*\.", re.MULTILINE)
NOT_A_RULE = {"position"}  # a state clash's side that the position itself wrote

# Rules no case's expectation names yet, each needing a case (or an expectation added to
# one): the test fails when one is pinned, so the list can only shrink.
# sixth_sense_arc is cited only beside a pending option: the pending key names the fact to
# write (lof R A), not the rule waiting on it.
UNPINNED: dict[str, set[str]] = {"n3": set(), "n5": {"sixth_sense_arc"}}


def rule_files(edition: str) -> list:
    """The files the edition's entry file includes."""
    return [asp_dir().parent / f for f in rulebook.load(edition).files]


@cache
def cited(edition: str) -> frozenset[str]:
    """Every rule id with a citation for ``edition``, in whatever rule file it stands."""
    return frozenset(r.id for r in rulebook.load(edition).citations if r.edition == edition)


@cache
def named(edition: str) -> frozenset[str]:
    """Every rule id the expectations of the edition's cases pin (its FAQ cases included)."""
    granted: dict[str, set[str]] = {}
    for path in rule_files(edition):
        for kind, rule in TRIGGER_RULE.findall(path.read_text(encoding="utf-8")):
            granted.setdefault(kind, set()).add(rule)
    found: set[str] = set()
    for case in cases.collect([ROOT / "cases" / edition, ROOT / "cases" / "faq" / edition]):
        found |= case_schema.rules_named(case.command, case.expect)
        for kinds in case.expect.get("triggers", {}).values() if case.command == "aros" else ():
            found |= {rule for kind in kinds for rule in granted.get(kind, ())}
    return frozenset(found)


@pytest.mark.parametrize("edition", editions())
def test_every_cited_rule_is_pinned_by_a_case(edition):
    assert len(cited(edition)) > 50, f"too few citations found for {edition}: the pattern is wrong"
    unpinned = cited(edition) - named(edition)
    assert sorted(unpinned - UNPINNED[edition]) == [], f"{edition}: rules no case's expectation names"
    assert sorted(UNPINNED[edition] - unpinned) == [], f"{edition}: pinned now, take them out of UNPINNED"


@pytest.mark.parametrize("edition", editions())
def test_cases_name_only_rules_their_edition_cites(edition):
    assert sorted(named(edition) - cited(edition) - NOT_A_RULE) == []
