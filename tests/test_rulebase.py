"""The rule base: every rule cited in every edition, and the clingo command reproduces
what the program derives."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from checker import analysis, rulebook, solver
from checker.resources import asp_dir, editions

from .conftest import ROOT

RULE_HEAD = re.compile(r"\b(?:denial|permission)\([^:]*?,\s*([a-z_]+)\)\s*:-")
MARKER_RULE = re.compile(r"marker_limits\([a-z_0-9]+,\s*([a-z_]+)\)")
TRIGGER_RULE = re.compile(r"trigger_rule\([a-z_]+,\s*([a-z_]+)\)")


def rules_used(files) -> set[str]:
    used: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        for pattern in (RULE_HEAD, MARKER_RULE, TRIGGER_RULE):
            used |= set(pattern.findall(text))
    return used - {"D", "Rule"}


def cited(edition: str) -> set[str]:
    """Every rule id the edition cites, in whichever of its files the citation stands."""
    return set(rulebook.load(edition).ids)


def loaded_files(edition: str) -> list:
    return [asp_dir().parent / f for f in rulebook.load(edition).files]


@pytest.mark.parametrize("edition", editions())
def test_every_rule_the_edition_uses_is_cited(edition):
    missing = rules_used(loaded_files(edition)) - cited(edition)
    assert not missing, f"{edition} uses rules without a citation: {sorted(missing)}"


@pytest.mark.parametrize("edition", editions())
def test_each_rule_is_cited_once_per_edition_and_for_that_edition(edition):
    citations = rulebook.load(edition).citations
    ids = [r.id for r in citations]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert twice == [], f"{edition}: cited more than once: {twice}"
    other = sorted(r.id for r in citations if r.edition != edition)
    assert other == [], f"{edition} files cite these rules for another edition: {other}"


# The seeds (/work/shared/seeds, README): each file's edition and the pages it holds.
# 004 is another game (Urban War) and is never a source.
SEEDS = {
    "000_ef9e2e41b2197e1b.txt": ("n3", range(80, 90)),
    "001_69d947c19396f45c.txt": ("n3", range(40, 50)),
    "002_08949e79254af97e.txt": ("n5", None),  # no page numbers: the section is named
    "003_ffd030bb113e9f57.txt": ("n3", range(30, 40)),
}
SEED = re.compile(r"seed (\d{3}_[0-9a-f]{16}\.txt)(.*)")
PAGES = re.compile(r" pp?\.(\d+(?:(?:-|, )\d+)*)")
REPOSITORY_PATH = re.compile(r"[\w.-]+/[\w.-]+ [\w.-]+(?:/[\w.-]+)*\.\w+")


def source_problems(edition: str, source: str) -> list[str]:
    """What keeps each "; "-separated part of ``source`` from naming a document a reader
    can open: a seed file of the edition and its page (or section), a URL, or a
    repository and a path."""
    problems = []
    for part in source.split("; "):
        seed = SEED.match(part)
        if part.startswith(("http://", "https://")) or REPOSITORY_PATH.match(part):
            continue
        if not seed:
            problems.append(f"{part!r} is not a seed, a URL or a repository path")
        elif seed.group(1) not in SEEDS or SEEDS[seed.group(1)][0] != edition:
            problems.append(f"{part!r}: not a seed of {edition}")
        elif SEEDS[seed.group(1)][1] is None:
            if not seed.group(2).strip(" ,") or PAGES.match(seed.group(2)):
                problems.append(f"{part!r}: this seed has no pages, name the section")
        elif not (pages := PAGES.match(seed.group(2))):
            problems.append(f"{part!r}: no page")
        elif any(int(n) not in SEEDS[seed.group(1)][1] for n in re.findall(r"\d+", pages.group(1))):
            problems.append(f"{part!r}: a page this seed does not hold")
    return problems


@pytest.mark.parametrize("edition", editions())
def test_every_source_names_a_document_a_reader_can_open(edition):
    problems = {r.id: source_problems(edition, r.source) for r in rulebook.load(edition).citations}
    assert {k: v for k, v in problems.items() if v} == {}
    # "unverified" belongs in the rule text, beside a source that says where to look
    assert [r.id for r in rulebook.load(edition).citations if "unverified" in r.source.lower()] == []


@pytest.mark.parametrize("source, problem", [
    ("seed 000_ef9e2e41b2197e1b.txt p.81", None),
    ("seed 000_ef9e2e41b2197e1b.txt pp.80, 82 (Fire)", None),
    ("http://infinitythewiki.com/en/Dodge; seed 003_ffd030bb113e9f57.txt pp.35, 38", None),
    ("potassco/clingo examples/clingo/15puzzle/encoding.lp", None),
    ("unverified: N3 Surprise Shot page not read", "is not a seed, a URL or a repository path"),
    ("seed 003_ffd030bb113e9f57.txt p.35; p.38", "'p.38' is not a seed"),
    ("seed 000_ef9e2e41b2197e1b.txt p.79", "a page this seed does not hold"),
    ("seed 000_ef9e2e41b2197e1b.txt pp.80-91", "a page this seed does not hold"),
    ("seed 003_ffd030bb113e9f57.txt", "no page"),
    ("seed 002_08949e79254af97e.txt, Stealth", "not a seed of n3"),
    ("seed 004_5af2cbd84cdeb84c.txt p.3", "not a seed of n3"),
])
def test_the_source_check_itself(source, problem):
    problems = source_problems("n3", source)
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problem in problems[0], problems


def test_both_editions_exist():
    assert set(editions()) >= {"n3", "n5"}


def test_clingo_on_the_entry_file_reproduces_the_program(tmp_path):
    text = (ROOT / "examples" / "hellcat.pos").read_text(encoding="utf-8")
    game, _, symbols = analysis.load(text)
    facts = tmp_path / "facts.lp"
    facts.write_text(solver.program_text(symbols), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "clingo", str(solver.entry_file(game.edition)), str(facts), "--outf=2"],
        capture_output=True, text=True, check=False,
    ).stdout
    from_cli = sorted(json.loads(out)["Call"][0]["Witnesses"][0]["Value"])
    from_python = sorted(str(s) for s in _shown(game.edition, symbols))
    assert from_cli == from_python


def _shown(edition, symbols):
    import clingo

    ctl = clingo.Control(["--models=1"])
    ctl.load(str(solver.entry_file(edition)))
    with ctl.backend() as backend:
        for s in symbols:
            backend.add_rule([backend.add_atom(s)])
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    return shown


@pytest.mark.parametrize("term", [
    'denied(aro(fus1,dodge,none),aro_lof)',
    'cite(aro_lof,"seed 003 p.33","A \\"quoted\\" text\\\\n é")',
    'first_eligible(fus1,2)', 'x(-3,"")', 'p', 'q("a,b(c)")',
])
def test_reading_shown_atoms_matches_the_clingo_api(term):
    import clingo

    def value(s):
        if s.type == clingo.SymbolType.Number:
            return s.number
        if s.type == clingo.SymbolType.String:
            return s.string
        return (s.name, *map(value, s.arguments)) if s.arguments else s.name

    symbol = clingo.parse_term(term)
    expected = (symbol.name, tuple(value(a) for a in symbol.arguments))
    assert solver._parse_term(str(symbol)) == expected
