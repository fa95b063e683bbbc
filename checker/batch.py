"""Run many cases on every core, in case order, each with the result it has alone.

Each worker is a fork of this process made after the caches every case uses are
filled (each edition's rule base parsed, its catalogue read, the grammar built), so a
case costs its own grounding and solving only. Where fork is not available, or for a
handful of cases, the cases run here, one after another. No printing: the caller gets
each result as it comes, in order, and may show progress with ``progress_line``.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator

from . import cases, catalogue, notation, solver
from .errors import RulingError
from .resources import editions

# Fewer cases than this run in this process: forking workers would cost more.
MIN_CASES_FOR_WORKERS = 8
# Cases handed to a worker at a time: few enough to keep both cores busy to the end.
CHUNK = 4


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
    if processes <= 1 or len(found) < MIN_CASES_FOR_WORKERS or not _can_fork():
        yield from map(cases.run, found)
        return
    warm()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap(cases.run, found, chunksize=CHUNK)


def warm() -> None:
    """Fill the per-process caches every case uses: each edition's parsed rule base,
    catalogue and the position grammar."""
    for edition in editions():
        try:
            solver.prepare(edition)
            catalogue.load(edition)
        except RulingError:
            pass  # the cases meet the same error, each at its own run
    try:
        notation.parse(f"edition {editions()[0]}\n", "<warm>")
    except RulingError:
        pass


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def progress_line(done: int, total: int, failed: int, seconds: float) -> str:
    """``'120/458 cases, 1 failed, 9 s left'``: the time left at the rate so far."""
    left = seconds / done * (total - done) if done else 0.0
    return f"{done}/{total} cases, {failed} failed, {left:.0f} s left"
