"""The oracles' sample of the case corpus (tests/sample.py): stratified, with a floor per
stratum, the kept items always in, in the population's order, the same on every call."""

from __future__ import annotations

from . import sample


def _key(item: str) -> tuple[str, ...]:
    return (item[0],)


def test_each_stratum_gives_its_share_evenly_spaced_and_at_least_the_floor():
    items = [f"a{n:02}" for n in range(40)] + ["b0", "b1"] + [f"c{n}" for n in range(8)]
    picked = sample.spread(items, 10, _key)
    assert sample.STRATUM_FLOOR == 3
    # a: 10 * 40 / 50 = 8 picks, one in the middle of each eighth of the stratum;
    # b holds fewer than the floor: both; c: its floor of 3 over 10 * 8 / 50 = 2
    assert picked == ["a02", "a07", "a12", "a17", "a22", "a27", "a32", "a37", "b0", "b1", "c1", "c4", "c6"]


def test_kept_items_are_in_the_sample_in_the_population_s_order():
    items = [f"a{n:02}" for n in range(40)]
    picked = sample.spread(items, 4, _key, keep=lambda item: item in ("a00", "a39"))
    assert picked == ["a00", "a05", "a15", "a25", "a35", "a39"]


def test_the_case_sample_covers_every_stratum_of_the_corpus_and_is_fixed():
    first = sample.case_sample()
    assert {sample.stratum(c) for c in first} == {sample.stratum(c) for c in sample.corpus()}
    assert {sample.edition(c) for c in first} == {"n3", "n5", None}
    assert [c.path for c in first] == sorted((c.path for c in first), key=lambda p: p.as_posix())
    assert [c.path for c in sample.case_sample()] == [c.path for c in first]
    assert len(first) < len(sample.corpus()) // 10
