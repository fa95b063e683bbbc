"""The FAQ registries (docs/faq/*.toml) account for every FAQ question read, and docs/faq.md
is generated from them: stale output, a case path that does not exist, a case under
cases/faq that no registry names, and an unknown key or status all fail."""

from __future__ import annotations

import importlib.util
import sys
import tomllib

import pytest

from .conftest import ROOT

_spec = importlib.util.spec_from_file_location("faq_generate", ROOT / "docs" / "faq" / "generate.py")
assert _spec is not None and _spec.loader is not None
generate = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = generate  # dataclasses resolve annotations through it
_spec.loader.exec_module(generate)

REGISTRY_PATHS = sorted((ROOT / "docs" / "faq").glob("*.toml"))
FAQ_CASES = ROOT / "cases" / "faq"


def test_there_are_registries():
    assert [p.name for p in REGISTRY_PATHS] == ["n3-faq-v1.6.toml", "n3-wiki-faq.toml", "n5-wiki-faq.toml"]


@pytest.mark.parametrize("path", REGISTRY_PATHS, ids=lambda p: p.name)
def test_registry_is_well_formed(path):
    registry = generate.load(path)
    assert registry.questions
    assert registry.edition in {"n3", "n5"}


def test_faq_md_is_generated_from_the_registries():
    expected = generate.render(generate.registries())
    actual = (ROOT / "docs" / "faq.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/faq.md is stale: run `python docs/faq/generate.py`"


def _named_cases() -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for registry in generate.registries():
        for q in registry.questions:
            for case in q.cases:
                named.setdefault(case, []).append(f"{registry.path.name}:{q.id}")
    return named


def test_every_named_case_exists_under_its_edition():
    named = _named_cases()
    missing = sorted(c for c in named if not (ROOT / c).is_file())
    assert missing == []
    editions = {r.path.name: r.edition for r in generate.registries()}
    misplaced = sorted(
        (case, where) for case, wheres in named.items() for where in wheres
        if not case.startswith(f"cases/faq/{editions[where.split(':')[0]]}/")
    )
    assert misplaced == []


def test_every_faq_case_is_in_a_registry():
    on_disk = {p.relative_to(ROOT).as_posix() for p in FAQ_CASES.rglob("*.toml")}
    named = set(_named_cases())
    assert on_disk, "cases/faq holds no case"
    assert sorted(on_disk - named) == []
    assert sorted(named - on_disk) == []


def test_every_faq_case_cites_its_faq_and_quotes_the_question():
    for path in sorted(FAQ_CASES.rglob("*.toml")):
        case = tomllib.loads(path.read_text(encoding="utf-8"))
        assert "FAQ" in case["source"] or "Errata" in case["source"], path
        assert "question" in case["source"], path
        assert '"' in case["description"], f"{path}: the description quotes no question"


def test_every_case_names_the_question_that_lists_it():
    unnamed = []
    for registry in generate.registries():
        for q in registry.questions:
            for case in q.cases:
                source = tomllib.loads((ROOT / case).read_text(encoding="utf-8"))["source"]
                if q.id not in source:
                    unnamed.append((case, q.id))
    assert unnamed == []


def test_counts_in_faq_md_match_the_registries():
    text = (ROOT / "docs" / "faq.md").read_text(encoding="utf-8")
    for registry in generate.registries():
        counts = [sum(q.status == s for q in registry.questions) for s in generate.STATUSES]
        row = f"| {registry.title} | {len(registry.questions)} | " + " | ".join(map(str, counts)) + " |"
        assert row in text


GOOD = '''title = "T"
edition = "n3"
source = "s"
coverage = "c"

[[question]]
id = "a-1"
section = "A"
version = "1.6"
url = "u"
question = "q?"
answer = "a"
'''

BAD = [
    (GOOD + 'status = "case"\ncases = ["x.toml"]\nrefs = "r"\n', "unknown key(s) refs"),
    (GOOD + 'status = "done"\nreason = "r"\n', "unknown status 'done'"),
    (GOOD + 'status = "case"\n', "status 'case' needs 'cases' and no 'reason'"),
    (GOOD + 'status = "case"\ncases = ["x.toml"]\nreason = "r"\n', "status 'case' needs 'cases' and no 'reason'"),
    (GOOD + 'status = "needs rule"\n', "status 'needs rule' needs a 'reason'"),
    (GOOD + 'status = "out of scope"\nreason = "r"\ncases = ["x.toml"]\n', "status 'out of scope' takes no 'cases'"),
    (GOOD.replace('version = "1.6"\n', "") + 'status = "needs rule"\nreason = "r"\n', "missing key(s) version"),
    (GOOD + 'status = "needs rule"\nreason = "r"\ncases = "x.toml"\n', "'cases' must be a list of paths"),
    ('edition = "n3"\n' + GOOD, "Cannot overwrite"),
    (GOOD.replace('title = "T"', 'titel = "T"') + 'status = "needs rule"\nreason = "r"\n', "unknown top-level key(s) titel"),
    (GOOD + 'status = "needs rule"\nreason = "r"\n' + GOOD[GOOD.index("[[question]]"):] + 'status = "needs rule"\nreason = "r"\n',
     "repeated question id(s) a-1"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m for _, m in BAD])
def test_a_malformed_registry_is_refused(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises((generate.RegistryError, tomllib.TOMLDecodeError)) as error:
        generate.load(path)
    assert message in str(error.value)


def test_a_well_formed_registry_is_accepted(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD + 'status = "needs notation"\nreason = "r"\ncases = ["x.toml"]\n', encoding="utf-8")
    registry = generate.load(path)
    assert [(q.id, q.status, q.cases, q.reason) for q in registry.questions] == [("a-1", "needs notation", ("x.toml",), "r")]


def test_the_generator_writes_what_render_returns(tmp_path, monkeypatch):
    out = tmp_path / "faq.md"
    monkeypatch.setattr(generate, "OUTPUT", out)
    assert generate.main() == 0
    assert out.read_text(encoding="utf-8") == generate.render(generate.registries())
