"""The solver's reuse is invisible: a Control built from the parsed rule base gives the
shown atoms, in clingo's order, of one loading the entry file, and reading them gives
what the tokenizer gives, for every case position."""

from __future__ import annotations

import re
from collections import defaultdict

import clingo
import pytest

from checker.engine import solver
from checker.engine.errors import RulingError
from checker.infinity import analysis, cases, resolution

from .conftest import ROOT


def _facts() -> list[tuple[str, str, list[clingo.Symbol]]]:
    found = []
    for case in cases.collect([ROOT / "cases"]):
        try:
            game, _cat, symbols = analysis.load(case.position, str(case.path))
        except RulingError:
            continue
        found.append((str(case.path.relative_to(ROOT)), game.edition, symbols))
    return found


FACTS = _facts()


def _tokenized(symbols: list[clingo.Symbol]) -> dict[str, list[tuple]]:
    """The shown atoms read one by one by the tokenizer (``_parse_term``)."""
    by_name: dict[str, list[tuple]] = defaultdict(list)
    for symbol in symbols:
        name, args = solver._parse_term(str(symbol))
        by_name[name].append(args)
    return dict(by_name)


def test_case_positions_solve_the_same_from_the_parsed_rule_base():
    # every fourth case position of the corpus, both editions among them: the others
    # differ only in their facts, and the whole corpus runs as cases anyway
    sample = FACTS[::4]
    assert len(FACTS) > 300 and {edition for _, edition, _ in sample} == {"n3", "n5"}
    different = []
    for name, edition, symbols in sample:
        try:
            loaded = solver._shown(edition, symbols, solver.SOLVE_SECONDS, parsed=False)
            built = solver._shown(edition, symbols, solver.SOLVE_SECONDS, parsed=True)
        except RulingError as exc:
            different += [] if "no answer set" in str(exc) else [f"{name}: {exc}"]
            continue
        if loaded[0] != built[0] or loaded[2] != built[2]:
            different.append(name)
        elif solver._group(built[0]).by_name != _tokenized(loaded[0]):
            different.append(f"{name}: read differently")
    assert different == []


@pytest.mark.parametrize("text", [
    "a", "a(1)", "a(-3,b)", "denied(aro(fus1,dodge,none),aro_lof)", "f(g(h(1,2)),k,l(m))",
    'note(x,"a (b, c)")', 'n("q\\"x\\\\y\\nz")', "p(f(g),h)",
])
def test_reading_a_term_equals_the_tokenizer(text):
    symbol = clingo.parse_term(text)
    assert str(symbol) == text
    assert solver._group([symbol]).by_name == _tokenized([symbol])


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
    read = set(re.findall(r'atoms\.get\("([a-z_]+)"', text))
    read |= {k for ks in re.findall(r'atoms\.get\(k\) for k in \(([^)]*)\)', text) for k in re.findall(r'"([a-z_]+)"', ks)}
    assert read == set(resolution.READS)
    assert "atoms[" not in text and "by_name" not in text
