"""The catalogue: every entry sourced, every profile's names resolve in its edition."""

from __future__ import annotations

import marshal

import pytest

from checker.engine import catalogue as cat
from checker.engine.resources import catalogue_dir
from checker.infinity import editions
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


def test_parsed_tables_are_kept_in_the_cache_folder_and_read_back(tmp_path, monkeypatch):
    """The parsed TOML tables are written to the user's cache folder once and read from it
    after (a measured win: a fresh `ruling aros` at 15 a side spends about 5% of its time
    in tomllib); a damaged cache file is parsed again and replaced."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = catalogue_dir() / "n5"
    parsed = cat._tables(folder)
    files = list((tmp_path / "ruling").glob("catalogue-n5-*.marshal"))
    assert len(files) == 1 and marshal.loads(files[0].read_bytes()) == parsed
    assert set(parsed) == set(cat.KINDS) and parsed["skills"]["skill"]

    def no_parse(_text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(cat.tomllib, "loads", no_parse)
    assert cat._tables(folder) == parsed
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    files[0].write_bytes(b"\x00damaged")
    assert cat._tables(folder) == parsed
    assert marshal.loads(files[0].read_bytes()) == parsed
