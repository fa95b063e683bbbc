"""The catalogue: every entry sourced, every profile's names resolve in its edition."""

from __future__ import annotations

import pytest

from checker.engine import catalogue as cat
from checker.engine.resources import editions
from checker.infinity.resolve import LIST_KINDS


@pytest.mark.parametrize("edition", editions())
def test_every_entry_names_its_source(edition):
    c = cat.load(edition)
    for kind in cat.KINDS:
        for entry in c.all(kind):
            assert entry.source.strip(), f"{edition} {kind} {entry.id} has no source"


@pytest.mark.parametrize("edition", editions())
def test_profiles_resolve(edition):
    c = cat.load(edition)
    unknown = []
    for profile in c.all("profiles"):
        for kind, catalogue_kind in LIST_KINDS.items():
            for text in profile.get(kind, []):
                name, _ = cat.split_param(text)
                if not (c.find(catalogue_kind, name) or c.find(catalogue_kind, cat.split_level(name)[0])):
                    unknown.append(f"{profile.name}: {kind} {text!r}")
    assert not unknown


@pytest.mark.parametrize("edition", editions())
def test_the_seed_worked_example_troopers_exist(edition):
    names = ["Fusilier", "Alguacil", "Hellcat", "Hassassin Fiday", "Father-Knight",
             "Veteran Kazak", "Maghariba Guard", "Reverend Healer", "Irmandinho", "Grenzer"]
    c = cat.load(edition)
    assert [n for n in names if c.find("profiles", n) is None] == []


def test_names_match_regardless_of_case_spaces_and_level():
    c = cat.load("n5")
    assert c.find("skills", "  bs   ATTACK ").id == "bs_attack"
    assert cat.split_level("Sixth Sense L2") == ("Sixth Sense", "2")
    assert cat.split_level("Marksmanship LX") == ("Marksmanship", "X")


def test_n5_weapon_data_names_its_repository_and_file():
    """The N5 weapon charts come from Romdeau/infinity-comlog src/lib/weapon-data.ts (at a
    fixed commit), not from an anonymous file id."""
    repo = "https://github.com/Romdeau/infinity-comlog/blob/9b4b29bd308e8b5ec274e24ff7224827a0b6fbf5/src/lib/weapon-data.ts"
    sources = [w.source for w in cat.load("n5").all("weapons")]
    assert [s for s in sources if "file id" in s or "code corpus" in s] == []
    assert sum(repo in s for s in sources) == 37


@pytest.mark.parametrize("edition", editions())
def test_every_entry_but_a_profile_says_what_the_rule_base_does_with_it(edition):
    c = cat.load(edition)
    for kind in cat.KINDS:
        for entry in c.all(kind):
            if kind in cat.UNSTATUSED:
                assert entry.modelled is None
            else:
                assert entry.modelled in cat.STATUSES, f"{edition} {kind} {entry.id}"
                assert (entry.missing is not None) == (entry.modelled == cat.PARTIAL) or entry.modelled == cat.NO
