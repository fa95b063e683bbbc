"""The rule base: every rule cited in every edition, and the clingo command reproduces
what the program derives."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from checker import analysis, solver
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
    text = (asp_dir() / edition / "rules.lp").read_text(encoding="utf-8")
    return set(re.findall(rf"rule\(([a-z_]+), {edition},", text))


@pytest.mark.parametrize("edition", editions())
def test_every_rule_the_edition_uses_is_cited(edition):
    files = list((asp_dir() / "core").glob("*.lp")) + list((asp_dir() / edition).glob("*.lp"))
    missing = rules_used(files) - cited(edition)
    assert not missing, f"{edition} uses rules without a citation: {sorted(missing)}"


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
