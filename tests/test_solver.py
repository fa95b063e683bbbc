"""The solver's reuse is invisible: a Control built from the parsed rule base gives the
shown atoms, in clingo's order, of one loading the entry file, for a fixed sample of
the case positions (all of them under ``slow``); the answer is read through clingo's
symbol API into plain Python values."""

from __future__ import annotations

import re
from collections.abc import Sequence

import clingo
import pytest

from checker.engine import reading, solver
from checker.engine.errors import RulingError
from checker.infinity import analysis, answers, cases, resolution

from .conftest import ROOT
from .sample import case_sample, whole


def _facts(sample: list[cases.Case]) -> list[tuple[str, str, list[clingo.Symbol]]]:
    found = []
    for case in sample:
        try:
            game, _cat, symbols = analysis.load(case.position, str(case.path))
        except RulingError:
            continue
        found.append((str(case.path.relative_to(ROOT)), game.edition, symbols))
    return found


def _solve_the_same(found: list[tuple[str, str, list[clingo.Symbol]]]) -> None:
    different = []
    for name, edition, symbols in found:
        try:
            loaded = solver._shown(edition, symbols, solver.SOLVE_SECONDS, parsed=False)
            built = solver._shown(edition, symbols, solver.SOLVE_SECONDS, parsed=True)
        except RulingError as exc:
            different += [] if "no answer set" in str(exc) else [f"{name}: {exc}"]
            continue
        if list(loaded[0]) != list(built[0]) or loaded[2] != built[2]:
            different.append(name)
        elif not reading.read(built[0]) == reading.read(list(built[0])) == _read_by_api(built[0]):
            # the model's sequence read as its C symbols, the same Symbols in a list, and
            # each Symbol through its properties
            different.append(f"{name}: the readers differ")
    assert different == []


def test_case_positions_solve_the_same_from_the_parsed_rule_base():
    # a fixed sample of the corpus (tests/sample.py), both editions among them: the
    # others differ only in their facts, and the whole corpus runs as cases anyway
    found = _facts(case_sample())
    assert {edition for _, edition, _ in found} == {"n3", "n5"}
    _solve_the_same(found)


@pytest.mark.slow
def test_every_case_position_solves_the_same_from_the_parsed_rule_base():
    found = _facts(whole())
    assert len(found) > 300
    _solve_the_same(found)


def _solve_the_same_sliced(found: list[tuple[str, str, list[clingo.Symbol]]], monkeypatch) -> None:
    different = []
    for name, edition, symbols in found:
        sliced: tuple | RulingError
        given: tuple | RulingError
        try:
            sliced = solver._shown(edition, symbols, solver.SOLVE_SECONDS)
        except RulingError as exc:
            sliced = exc
        with monkeypatch.context() as whole:
            whole.setattr(solver, "_sliced", lambda _edition, _entry, _fingerprint: None)
            try:
                given = solver._shown(edition, symbols, solver.SOLVE_SECONDS)
            except RulingError as exc:
                given = exc
        if isinstance(sliced, RulingError) or isinstance(given, RulingError):
            different += [] if str(sliced) == str(given) else [f"{name}: {sliced} / {given}"]
        elif sorted(map(str, sliced[0])) != sorted(map(str, given[0])):
            different.append(name)
    assert different == []


def test_case_positions_solve_the_same_with_only_the_rules_their_facts_can_fire(monkeypatch):
    # checker/engine/slicing.py: the rules left out never fire, so the answer set is the
    # one of the whole rule base (its atoms maybe in another order)
    found = _facts(case_sample())
    assert {edition for _, edition, _ in found} == {"n3", "n5"}
    _solve_the_same_sliced(found, monkeypatch)


@pytest.mark.slow
def test_every_case_position_solves_the_same_with_only_the_rules_its_facts_can_fire(monkeypatch):
    found = _facts(whole())
    assert len(found) > 300
    _solve_the_same_sliced(found, monkeypatch)


def _read_by_api(symbols: Sequence[clingo.Symbol]) -> dict[str, list[tuple]]:
    """The atoms read one by one through the clingo.Symbol properties."""
    found: dict[str, list[tuple]] = {}
    for symbol in symbols:
        found.setdefault(symbol.name, []).append(tuple(map(reading.value, symbol.arguments)))
    return found


F, N, S = clingo.Function, clingo.Number, clingo.String


@pytest.fixture(params=["c", "api"])
def reader(request, monkeypatch):
    """Each test of the reader runs with both ways of reading a symbol (the C symbol
    functions where clingo's binding has them, and the Symbol properties)."""
    if request.param == "api":
        monkeypatch.setattr(reading, "_rows", reading._api_rows)
    elif reading._lib is None:
        pytest.skip("this clingo has no binding of its C symbol functions")
    return reading


@pytest.mark.parametrize(("symbol", "name", "row"), [
    (F("p"), "p", ()),
    (F("a", [N(1)]), "a", (1,)),
    (F("a", [N(-3), F("b")]), "a", (-3, "b")),
    (F("denied", [F("aro", [S("fus1"), F("dodge"), F("none")]), F("aro_lof")]),
     "denied", (("aro", "fus1", "dodge", None), "aro_lof")),
    (F("f", [F("g", [F("h", [N(1), N(2)])]), F("k"), F("l", [F("m")])]),
     "f", (("g", ("h", 1, 2)), "k", ("l", "m"))),
    (F("note", [F("x"), S("a (b, c)")]), "note", ("x", "a (b, c)")),
    (F("n", [S('q"x\\y\nz')]), "n", ('q"x\\y\nz',)),
    (F("t", [F("", [F("a"), N(0)])]), "t", (("", "a", 0),)),
    # the constant none is the rule base's "absent"; a name the position writes is a
    # string, and a string "none" is that name
    (F("aro", [S("none"), F("dodge"), F("none")]), "aro", ("none", "dodge", None)),
    (F("option", [F("none"), S("none"), F("f", [F("none"), S("none")])]),
     "option", (None, "none", ("f", None, "none"))),
    (F("x", [F("none_of"), S("")]), "x", ("none_of", "")),
])
def test_reading_an_atom_through_the_symbol_api(reader, symbol, name, row):
    assert reader.read([symbol]) == {name: [row]}


def test_reading_groups_atoms_by_predicate_in_order(reader):
    symbols = [F("a", [N(2)]), F("b", [S("x")]), F("a", [N(1)]), F("c"), F("a", [N(2)])]
    assert reader.read(symbols) == {"a": [(2,), (1,), (2,)], "b": [("x",)], "c": [()]}


def test_repeated_arguments_are_read_once_into_equal_values(reader):
    shared = F("act", [S("fus1"), N(1), F("move"), F("none"), F("none")])
    read = reader.read([F("denied", [shared, F(rule)]) for rule in ("r1", "r2")])
    first, second = (row[0] for row in read["denied"])
    assert first == second == ("act", "fus1", 1, "move", None, None)
    assert first is second  # the same argument symbol is converted once


def test_unread_atoms_are_left_out(reader):
    unread = reader.Unread(names=frozenset({"cite"}), subjects_of=frozenset({"denied"}),
                           subjects=frozenset({"act"}))
    symbols = [F("cite", [F("r"), S("s")]), F("denied", [F("act", [S("a")]), F("r")]),
               F("denied", [F("aro", [S("b")]), F("r")]), F("denied", [F("act"), F("r")]),
               F("option", [S("act")])]
    assert reader.read(symbols, unread) == {
        "denied": [(("aro", "b"), "r"), ("act", "r")], "option": [("act",)]}


def test_reading_cases_cuts_the_case_argument(reader):
    symbols = [F("option", [N(1), S("fus1"), F("none")]), F("cite", [F("r"), S("text")]),
               F("option", [N(0), S("none"), F("dodge")]), F("flag", [N(1)])]
    assert reader.read_cases(symbols, frozenset({"option", "flag"}), 2) == [
        {"option": [("none", "dodge")], "cite": [("r", "text")]},
        {"option": [("fus1", None)], "cite": [("r", "text")], "flag": [()]},
    ]


def test_a_changed_rule_base_is_parsed_again(monkeypatch):
    entry = str(solver.entry_file("n5"))
    solver.prepare("n5")
    first = solver._parsed[entry][1]
    solver.prepare("n5")
    assert solver._parsed[entry][1] is first
    monkeypatch.setattr(solver, "_fingerprint", lambda _entry: ("changed",))
    solver.prepare("n5")
    assert solver._parsed[entry][1] is not first
    assert solver._parsed[entry][0] == ("changed",)
    monkeypatch.undo()
    solver._parsed.pop(entry)


def test_another_entry_file_is_loaded_not_taken_from_the_cache(tmp_path, monkeypatch):
    solver.prepare("n5")
    program = tmp_path / "other.lp"
    program.write_text("trooper(x).\n#show trooper/1.\n", encoding="utf-8")
    monkeypatch.setattr(solver, "entry_file", lambda _edition: program)
    assert solver.solve("n5", []).by_name == {"trooper": [("x",)]}


def test_resolution_reads_only_the_predicates_it_lists():
    """``ruling odds`` shows only ``resolution.READS`` for its many positions: a
    predicate the resolution reads and the list leaves out would be silently empty."""
    text = (ROOT / "checker" / "infinity" / "resolution.py").read_text(encoding="utf-8")
    read = {getattr(answers, name).predicate for name in re.findall(r"\bans\.([A-Z][A-Za-z]*)\b", text)}
    assert "atoms.get(" not in text and read == set(resolution.READS)
    assert "atoms[" not in text and "by_name" not in text
