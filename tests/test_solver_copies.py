"""``solver_copies.Copies``: the position and each copy of it (one per legal ARO option,
as ``ruling odds`` prices them) get the atoms they have when solved alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from checker.engine import solver, solver_copies
from checker.engine.errors import RulingError
from checker.infinity import analysis, cases, facts, odds, report

from .sample import case_id, case_sample, spread, stratum, whole

COMMANDS = ("aros", "check", "declarations", "odds")


def _is_delay(case: cases.Case) -> bool:
    return "delay" in case.path.name


def _sample() -> list[cases.Case]:
    """Case positions of both editions whose reactive troopers have legal options: a
    sample of the odds cases (the positions ruling odds copies), of the cases with
    delayed AROs, and of the others (tests/sample.py)."""
    odds_cases = case_sample(("odds",), size=8)
    delays = spread([c for c in whole(COMMANDS) if _is_delay(c)], 4, stratum)
    others = case_sample(("aros", "check", "declarations"), size=0)
    chosen = {c.path for c in [*odds_cases, *delays]}
    return sorted([*odds_cases, *delays, *(c for c in others if c.path not in chosen)],
                  key=lambda c: c.path.as_posix())


def _loaded(case: cases.Case):
    """The position of ``case`` without its dice, and its catalogue; None for a position error."""
    try:
        game, cat, _ = analysis.load(case.position, str(case.path))
    except RulingError:
        return None
    return replace(game, dice=()), cat


def _sorted(atoms: solver.Atoms) -> dict[str, list]:
    return {name: sorted(rows, key=repr) for name, rows in atoms.by_name.items() if rows}


def test_the_sample_covers_both_editions_and_delays():
    loaded = [found for found in map(_loaded, _sample()) if found]
    assert {game.edition for game, _ in loaded} == {"n3", "n5"}
    assert any(game.delays for game, _ in loaded)
    assert {c.command for c in _sample()} == set(COMMANDS)


def _copies_as_alone(case: cases.Case) -> None:
    found = _loaded(case)
    if found is None:
        return
    game, cat = found
    program = solver_copies.Copies(game.edition, facts.build(game, cat), odds.VARY)
    assert _sorted(program.atoms) == _sorted(solver.solve(game.edition, facts.build(game, cat)))
    variants = odds.option_positions(game, cat, report.aro_report(game, program.atoms, cat))
    copies = [[*facts.build(v, cat), facts.DECLARED_ONLY] for *_, v in variants]
    together = program.solve(copies)
    alone = [solver.solve(game.edition, c) for c in copies]
    assert [_sorted(a) for a in together] == [_sorted(a) for a in alone]


@pytest.mark.parametrize("case", _sample(), ids=case_id)
def test_copies_have_the_atoms_they_have_alone(case):
    _copies_as_alone(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", whole(COMMANDS), ids=case_id)
def test_copies_of_every_case_position_have_the_atoms_they_have_alone(case):
    _copies_as_alone(case)
