"""``solver_copies.Copies``: the position and each copy of it (one per legal ARO option,
as ``ruling odds`` prices them) get the atoms they have when solved alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from checker.engine import solver, solver_copies
from checker.engine.errors import RulingError
from checker.infinity import analysis, cases, facts, odds, report

from .conftest import ROOT


def _positions_with_options():
    """Case positions of both editions whose reactive troopers have legal options: every
    odds case, and a sample of the others (delayed AROs among them)."""
    found = []
    for i, case in enumerate(cases.collect([ROOT / "cases"])):
        if case.command == "error" or (case.command != "odds" and i % 25 and "delay" not in case.path.name):
            continue
        try:
            game, cat, _ = analysis.load(case.position, str(case.path))
        except RulingError:
            continue
        found.append((case.path.relative_to(ROOT).as_posix(), replace(game, dice=()), cat))
    return found


POSITIONS = _positions_with_options()


def _sorted(atoms: solver.Atoms) -> dict[str, list]:
    return {name: sorted(rows, key=repr) for name, rows in atoms.by_name.items() if rows}


def test_the_sample_covers_both_editions_and_delays():
    assert {game.edition for _, game, _ in POSITIONS} == {"n3", "n5"}
    assert any(game.delays for _, game, _ in POSITIONS)
    assert len(POSITIONS) >= 80


@pytest.mark.parametrize(("path", "game", "cat"), POSITIONS, ids=[p for p, _, _ in POSITIONS])
def test_copies_have_the_atoms_they_have_alone(path, game, cat):
    program = solver_copies.Copies(game.edition, facts.build(game, cat), odds.VARY)
    assert _sorted(program.atoms) == _sorted(solver.solve(game.edition, facts.build(game, cat)))
    variants = odds.option_positions(game, cat, report.aro_report(game, program.atoms, cat))
    copies = [[*facts.build(v, cat), facts.DECLARED_ONLY] for *_, v in variants]
    together = program.solve(copies)
    alone = [solver.solve(game.edition, c) for c in copies]
    assert [_sorted(a) for a in together] == [_sorted(a) for a in alone]
