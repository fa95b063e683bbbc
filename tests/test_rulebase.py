"""The rule base: every rule cited in every edition, and the clingo command reproduces
what the program derives."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from checker.engine import catalogue, reading, rulebook, solver
from checker.infinity import analysis, editions

from .conftest import INCLUDE, ROOT, included


def _statements(edition: str) -> list:
    from clingo import ast

    statements: list = []
    ast.parse_files([str(solver.entry_file(edition))], statements.append)
    return [s for s in statements if s.ast_type == ast.ASTType.Rule]


def _head_atom(stm):
    """The symbolic atom of a rule's head, or None (a constraint, a choice...)."""
    head = stm.head
    return head.atom.symbol if head.ast_type.name == "Literal" and head.atom.ast_type.name == "SymbolicAtom" else None


def _args(term) -> tuple[str, list]:
    """``name`` and arguments of a function term (a constant has none)."""
    if term.ast_type.name == "SymbolicTerm":
        symbol = term.symbol
        return (symbol.name, list(symbol.arguments)) if symbol.type.name == "Function" else ("", [])
    if term.ast_type.name == "Function":
        return term.name, list(term.arguments)
    return "", []


def _constant(term) -> str | None:
    name, args = _args(term)
    return name if name and not args else None


def _binders(stm, variable: str) -> set[tuple[str, int, int]]:
    """The (predicate, arity, index) of each positive body atom binding ``variable``."""
    found = set()
    for literal in stm.body:
        atom = getattr(literal, "atom", None)
        if literal.sign != 0 or atom is None or atom.ast_type.name != "SymbolicAtom":
            continue
        name, args = _args(atom.symbol)
        found |= {(name, len(args), i) for i, a in enumerate(args)
                  if a.ast_type.name == "Variable" and a.name == variable}
    return found


def rules_used(edition: str) -> set[str]:
    """Every rule id the edition's rule base can mark used, derived from the rule base:
    starting from ``used_rule/1``, follow each head argument back to the body atoms that
    bind it (``used_rule(R) :- gains(_, _, R)``, ``gains(T, unconscious, R) :-
    life_down(T, R)``...) to a fixpoint, and collect every constant a head puts in one of
    those argument places (``life_down(T, wounds_states) :- ...``)."""
    statements = [(s, _head_atom(s)) for s in _statements(edition)]
    places = {("used_rule", 1, 0)}
    grown = True
    while grown:
        grown = False
        for stm, head in statements:
            name, args = _args(head) if head is not None else ("", [])
            for predicate, arity, index in list(places):
                if name != predicate or len(args) != arity or args[index].ast_type.name != "Variable":
                    continue
                new = _binders(stm, args[index].name) - places
                if new:
                    places |= new
                    grown = True
    used = set()
    for _, head in statements:
        name, args = _args(head) if head is not None else ("", [])
        for predicate, arity, index in places:
            if name == predicate and len(args) == arity and (c := _constant(args[index])) is not None:
                used.add(c)
    return used


def cited(edition: str) -> set[str]:
    """Every rule id the edition cites, in whichever of its files the citation stands."""
    return set(rulebook.load(edition).ids)


# Rule ids the shared core or an edition's file names, uncited in an edition because a
# fact of the other edition, or a catalogue entry the edition does not have, guards them
# (the static derivation above cannot see a guard). Each must stay unreachable: if one
# became reachable, the solver would refuse the position with a rule-base error.
UNREACHABLE = {
    "n3": {
        "dodge_engaged": "asp/infinity/core/engagement.lp: needs dodge_leaves_engaged, an N5 fact",
        "immunity_critical": "asp/infinity/core/damage.lp: needs critical_save(extra_save), the N5 critical",
        "stun_ammo": "asp/infinity/n3/damage.lp: Stun is in the ammunition table, on no N3 weapon of the catalogue",
        "plasma_ammo": "asp/infinity/n3/damage.lp: Plasma is in the ammunition table, on no N3 weapon of the catalogue",
        "remote_presence": "asp/infinity/core/damage.lp: needs the Remote Presence skill, not in the N3 catalogue",
        "fireteam_leader_attacks": "asp/infinity/core/fireteam.lp: needs a skill with both the Movement and the "
                                   "Attack label (N5 Berserk), none in the N3 catalogue",
        **{rule: "asp/infinity/core/command_tokens.lp, retreat.lp, aftermath.lp: need operational_use/2 or "
                 "unaffected_before/1, the N5 `token` and `began T unaffected` lines checker/infinity/turn.py "
                 "refuses in an N3 position" for rule in ("token_guts", "token_regular", "token_unaffected",
                                                            "token_use_side", "token_use_spent")},
    },
    "n5": {},
}


def test_the_n3_unreachable_rule_ids_stay_out_of_its_catalogue():
    """The guards UNREACHABLE names for N3 hold: no N3 weapon (or firing mode) has Stun or
    Plasma, no N3 special skill is Remote Presence, no N3 common skill is both a Movement
    and an Attack."""
    cat = catalogue.load("n3")
    ammunition = {catalogue.atom_text(a) for w in cat.all("weapons")
                  for table in (w.data, *w.get("modes", [])) for a in table.get("ammunition", [])}
    assert "n" in ammunition and not {"stun", "plasma"} & ammunition
    assert "remote_presence" not in cat.entries["special_skills"]
    assert not [s.id for s in cat.all("skills") if {"movement", "attack"} <= set(s.get("labels", []))]


@pytest.mark.parametrize("edition", editions())
def test_every_rule_the_edition_uses_is_cited(edition):
    used = rules_used(edition)
    # the derivation reaches the verdict rules, the MODs, the states and the outcomes
    assert {"aro_lof", "range_mod", "wounds_states", "roll_success"} <= used
    missing = used - cited(edition)
    assert missing == set(UNREACHABLE[edition]), f"{edition} uses rules without a citation: {sorted(missing)}"


@pytest.mark.parametrize("edition", editions())
def test_every_cited_rule_is_one_the_rule_base_uses(edition):
    unused = [r.id for r in rulebook.load(edition).citations if not r.used_at]
    assert unused == [], f"{edition} cites rules no statement uses: {unused}"


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
        elif any(int(n) not in (SEEDS[seed.group(1)][1] or ()) for n in re.findall(r"\d+", pages.group(1))):
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
    import clingo

    witness = json.loads(out)["Call"][0]["Witnesses"][0]["Value"]
    from_cli = reading.read([clingo.parse_term(atom) for atom in witness])
    from_python = solver.solve(game.edition, symbols).by_name
    assert from_cli.get("option") and from_cli.get("cite")  # a real answer, not two empty ones
    assert {k: sorted(v, key=str) for k, v in from_cli.items()} == {
        k: sorted(v, key=str) for k, v in from_python.items()}


GAMES = ("urban_war",)  # entry files of other games: asp/<game>.lp, no Infinity edition


def test_every_rule_file_is_included_once_by_each_entry_that_reaches_it():
    asp = solver.entry_file("n5").parent.resolve()
    entries = [solver.entry_file(e).resolve() for e in (*editions(), *GAMES)]
    reached: set = set()
    for entry in entries:
        files = included(entry)[1:]
        assert len(files) == len(set(files)), f"{entry.name} includes a file twice"
        reached |= set(files)
    assert {p.resolve() for p in asp.rglob("*.lp")} - set(entries) == reached


@pytest.mark.parametrize("edition", editions())
@pytest.mark.parametrize("folder", ["skills", "states"])
def test_each_folder_list_names_every_file_of_its_folder(edition, folder):
    base = solver.entry_file(edition).parent / "infinity" / edition
    listed = INCLUDE.findall((base / f"{folder}.lp").read_text(encoding="utf-8"))
    assert listed == sorted(f"{folder}/{p.name}" for p in (base / folder).glob("*.lp"))


@pytest.mark.parametrize("edition", editions())
def test_every_resolution_rule_names_a_step_of_the_table(edition):
    import clingo

    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(solver.entry_file(edition)))
    ctl.ground([("base", [])])
    unknown = [str(s) for s in ctl.symbolic_atoms.by_signature("unknown_step", 2)]
    assert unknown == []
