"""Run many cases on every core, in case order, each with the result it has alone.

Cases run in groups of ``GROUP``: the positions of a group are grounded together in
one clingo program per edition (``solver_many``), so the rule base is grounded once
per group instead of once per case; each case then reads its own answer. Each worker
is a fork of this process made after the caches every case uses are filled (each
edition's rule base parsed, its catalogue read, the grammar built). Where fork is not
available, or for a handful of cases, the groups run here, one after another. No
printing: the caller gets each result as it comes, in order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator

from ..engine import catalogue, solver, solver_many
from ..engine.errors import RulingError
from . import analysis, cases, editions, notation

# Fewer cases than this run in this process: forking workers would cost more.
MIN_CASES_FOR_WORKERS = 8
# Cases grounded together and handed to a worker at a time: enough to share the
# grounding of the rule base, few enough to keep both cores busy to the end.
GROUP = 48
# Commands whose case solves its position once, as written (odds solves variants).
_SOLVED_AS_WRITTEN = ("aros", "check", "declarations")


def workers() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run(found: list[cases.Case], processes: int | None = None) -> Iterator[cases.CaseResult]:
    """Each case's result, in the order of ``found``, the same ``CaseResult`` as
    ``cases.run(case)`` gives alone.

    ``processes`` defaults to ``workers()``; 1 runs every case in this process.
    """
    processes = workers() if processes is None else processes
    processes = min(processes, len(found))
    size = max(1, min(GROUP, -(-len(found) // max(processes, 1))))
    groups = [found[k:k + size] for k in range(0, len(found), size)]
    if processes <= 1 or len(found) < MIN_CASES_FOR_WORKERS or not _can_fork():
        for group in groups:
            yield from run_group(group)
        return
    warm()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        for results in pool.imap(run_group, groups):
            yield from results


def run_group(group: list[cases.Case]) -> list[cases.CaseResult]:
    """Each case's result, as ``cases.run`` gives it alone, the positions solved together."""
    by_edition: dict[str, list[list]] = {}
    prepared: dict[int, analysis.Prepared] = {}
    for k, case in enumerate(group):
        if case.command not in _SOLVED_AS_WRITTEN:
            continue
        try:
            prepared[k] = analysis.prepare(case.position, str(case.path))
        except RulingError:
            continue  # the case meets the same error when it runs
        by_edition.setdefault(prepared[k].game.edition, []).append(prepared[k].facts)
    for edition, positions in by_edition.items():
        solver_many.prefetch(edition, positions)
    try:
        return [cases.run(case, prepared.get(k)) for k, case in enumerate(group)]
    finally:
        solver.forget()


def warm() -> None:
    """Fill the per-process caches every case uses: each edition's parsed rule base,
    its rewriting for many positions, its catalogue and the position grammar."""
    for edition in editions():
        try:
            solver.prepare(edition)
            solver_many.prepare(edition)
            catalogue.load(edition)
        except RulingError:
            pass  # the cases meet the same error, each at its own run
    try:
        notation.parse(f"edition {editions()[0]}\n", "<warm>")
    except RulingError:
        pass


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()
