"""``ruling verify`` on every core: each case's result is the one it has alone, in order."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from checker.cli import main
from checker.engine.cases import progress_line
from checker.infinity import batch, cases

from .conftest import ROOT
from .sample import case_sample, corpus, whole


def _same(a: cases.CaseResult, b: cases.CaseResult) -> None:
    assert a.case == b.case
    assert a.differences == b.differences
    assert a.output == b.output
    assert a.describe() == b.describe()
    assert a.to_dict() == b.to_dict()


def _in_workers_as_alone(sample: list[cases.Case]) -> None:
    assert {c.command for c in sample} >= {"aros", "check", "declarations", "error", "odds"}
    assert len(sample) >= batch.MIN_CASES_FOR_WORKERS
    alone = [cases.run(case) for case in sample]
    together = list(batch.run(sample, processes=2))
    assert [r.case.path for r in together] == [c.path for c in sample]
    for a, b in zip(alone, together, strict=True):
        _same(a, b)


def test_cases_in_workers_give_their_result_alone_in_order():
    # a fixed sample of the corpus (tests/sample.py: each command of each folder); the
    # CI run of `ruling verify cases/` then runs them all in workers
    _in_workers_as_alone(case_sample())


@pytest.mark.slow
def test_every_case_in_workers_gives_its_result_alone_in_order():
    _in_workers_as_alone(whole())


def test_without_fork_the_cases_run_here_with_the_same_results(monkeypatch):
    some = list(corpus()[:: max(1, len(corpus()) // 12)])
    assert len(some) >= batch.MIN_CASES_FOR_WORKERS
    monkeypatch.setattr(batch, "_can_fork", lambda: False)
    monkeypatch.setattr(batch, "warm", lambda: pytest.fail("no workers, nothing to warm"))
    for a, b in zip([cases.run(c) for c in some], batch.run(some, processes=2), strict=True):
        _same(a, b)


def test_progress_line_counts_cases_failures_and_time_left():
    assert progress_line(100, 400, 2, 5.0) == "100/400 cases, 2 failed, 15 s left"
    assert progress_line(0, 10, 0, 0.0) == "0/10 cases, 0 failed, 0 s left"
    assert progress_line(10, 10, 1, 3.0) == "10/10 cases, 1 failed, 0 s left"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_verify_piped_prints_no_progress(fmt):
    folder = str(ROOT / "cases" / "n3" / "aro")
    result = CliRunner().invoke(main, ["verify", folder, "--format", fmt], catch_exceptions=False)
    assert "\r" not in result.output
    assert "cases," not in result.output
    if fmt == "text":
        assert result.output.splitlines()[-1].endswith(" failed")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_verify_on_a_terminal_shows_progress_then_erases_it():
    folder = ROOT / "cases" / "n3" / "aro"
    count = len(cases.collect([folder]))
    master, slave = os.openpty()
    with subprocess.Popen([sys.executable, "-m", "checker", "verify", str(folder)],
                          stdout=slave, stderr=slave, cwd=ROOT) as process:
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    os.close(master)
    text = b"".join(chunks).decode().replace("\r\n", "\n")
    assert process.returncode == 0
    assert f"\r{count}/{count} cases, 0 failed, 0 s left\x1b[K" in text
    assert text.endswith(f"\r\x1b[K{count} passed, 0 failed\n")


def _sorted(atoms) -> dict:
    return {name: sorted(map(repr, args)) for name, args in atoms.by_name.items()}


def _grounded_together_as_alone(sample: list[cases.Case]) -> None:
    from checker.engine import solver, solver_many
    from checker.engine.errors import RulingError
    from checker.infinity import analysis

    by_edition: dict[str, list] = {}
    for case in sample:
        try:
            game, _cat, symbols = analysis.load(case.position, str(case.path))
        except RulingError:
            continue
        by_edition.setdefault(game.edition, []).append(symbols)
    assert len(by_edition) == 2
    for edition, positions in by_edition.items():
        together = solver_many.solve_many(edition, positions)
        assert together is not None, "the rule base could not be rewritten with a case argument"
        for symbols, atoms in zip(positions, together, strict=True):
            assert _sorted(atoms) == _sorted(solver.solve(edition, symbols))


def test_positions_grounded_together_have_the_atoms_each_has_alone():
    # the same sets of shown atoms (clingo's order may differ; the reports sort), on a
    # fixed sample of the corpus (tests/sample.py)
    _grounded_together_as_alone(case_sample())


@pytest.mark.slow
def test_every_case_position_grounded_together_has_the_atoms_it_has_alone():
    _grounded_together_as_alone(whole())


def test_the_rewritten_rule_base_is_cached_under_the_content_of_its_files(tmp_path, monkeypatch):
    from checker.engine import solver, solver_many

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(solver_many, "_programs", {})
    solver.prepare("n5")
    entry = str(solver.entry_file("n5"))
    first = solver_many._program("n5", frozenset())
    assert first is not None
    written = list((tmp_path / "ruling").glob("n5-*.json"))
    assert len(written) == 1
    monkeypatch.setattr(solver_many, "_programs", {})
    again = solver_many._program("n5", frozenset())  # read back from the cache
    assert again is not None and again[1] == first[1]
    assert [str(s) for s in again[0]][-5:] == [str(s) for s in first[0]][-5:]
    # the file is named by a digest of the rewriting's version and every rule file's
    # content: another version (or a changed rule file) is another file, never the stale one
    statements = solver._statements("n5", entry)
    monkeypatch.setattr(solver_many, "_VERSION", solver_many._VERSION + 1)
    solver_many._cached("n5", entry, statements)
    now = list((tmp_path / "ruling").glob("n5-*.json"))
    assert len(now) == 1 and now != written  # the earlier one is removed


def test_a_pooled_atom_of_a_position_dependent_predicate_gets_the_case_argument():
    # `p(a; b)` is a pool of atoms: each gets the case, as `p(X)` does, so every case
    # has p(a) and p(b) besides its own facts
    import clingo
    from clingo import ast

    from checker.engine import solver_many

    statements: list = []
    ast.parse_string("p(a; b). p(X) :- q(X). r(X) :- p(X). #show r/1.", statements.append)
    rewritten, dependent = solver_many._rewrite(statements, frozenset({("q", 1)}))
    assert {("p", 1), ("q", 1), ("r", 1)} <= dependent
    assert "p(RulingCase_,a;RulingCase_,b) :- ruling_case(RulingCase_)." in [str(s) for s in rewritten]
    ctl = clingo.Control()
    with ast.ProgramBuilder(ctl) as builder:
        for statement in rewritten:
            builder.add(statement)
    ctl.add("base", [], "ruling_case(1). ruling_case(2). q(1, c).")
    ctl.ground([("base", [])])
    shown: list[str] = []
    ctl.solve(on_model=lambda m: shown.extend(map(str, m.symbols(shown=True))))
    assert sorted(shown) == ["r(1,a)", "r(1,b)", "r(1,c)", "r(2,a)", "r(2,b)"]
