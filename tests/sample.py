"""The fixed sample of the case corpus that the equivalence oracles solve by default.

An equivalence oracle proves that a speed path (a report read alone, a batch, copies of
a position, a second reader) gives what the plain path gives. Each one runs on
``SAMPLE_SIZE`` cases picked here (plus the cases that exercise its speed path
specifically), and a twin test marked ``slow`` runs it on the whole corpus
(``pytest -m slow``); the cases themselves all run under ``cases/`` anyway.

The sample is stratified and deterministic: the corpus is split by where a case stands
(``n3``, ``n5``, ``faq/n3``, ``faq/n5``, ``errors``) and by its command,
every stratum gets a share of the sample in proportion to its size and at least
``STRATUM_FLOOR`` cases, and within a stratum the cases are picked evenly spaced in path order. No random
draw: the same files give the same sample on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeVar

from checker.infinity import cases

from .conftest import ROOT

SAMPLE_SIZE = 40
"""About how many cases an equivalence oracle solves by default, shared by the strata
in proportion to their size (before the floor and the cases an oracle always keeps)."""

STRATUM_FLOOR = 3
"""The fewest cases a stratum gives the sample (all of them, if it holds fewer), so a
small stratum (the declarations cases of an edition) is never left to one case."""

CASES = ROOT / "cases"
T = TypeVar("T")


@cache
def corpus() -> tuple[cases.Case, ...]:
    """Every Infinity case under ``cases/`` (``checker.infinity.cases.collect``), in path
    order, read once per test session: the speed paths the oracles check are Infinity's."""
    return tuple(sorted(cases.collect([CASES]), key=lambda c: c.path.as_posix()))


def stratum(case: cases.Case) -> tuple[str, ...]:
    """Where ``case`` stands under ``cases/`` (one folder, two under ``faq``) and its command."""
    parts = case.path.relative_to(CASES).parts
    where = parts[:2] if parts[0] == "faq" and len(parts) > 2 else parts[:1]
    return (*where, case.command)


def edition(case: cases.Case) -> str | None:
    """The Infinity edition whose folder holds ``case`` (``n3`` or ``n5``), if any."""
    parts = case.path.relative_to(CASES).parts
    return next((p for p in parts[:2] if p in ("n3", "n5")), None)


def spread(items: Sequence[T], size: int, key: Callable[[T], tuple[str, ...]],
           keep: Callable[[T], bool] = lambda _item: False) -> list[T]:
    """About ``size`` of ``items``, stratified by ``key``, plus every item ``keep`` holds for.

    Parameters
    ----------
    items
        The population, in a fixed order.
    size
        The share to pick; each stratum gets ``size * len(stratum) / len(items)``
        rounded, and at least ``STRATUM_FLOOR`` (or all it holds).
    key
        The stratum of an item.
    keep
        Items always in the sample, whatever their place.

    Returns
    -------
    list
        The picked items in the order of ``items``.
    """
    strata: dict[tuple[str, ...], list[int]] = {}
    for index, item in enumerate(items):
        strata.setdefault(key(item), []).append(index)
    picked = {i for i, item in enumerate(items) if keep(item)}
    for members in strata.values():
        share = min(len(members), max(STRATUM_FLOOR, round(size * len(members) / max(len(items), 1))))
        picked |= {members[(2 * n + 1) * len(members) // (2 * share)] for n in range(share)}
    return [items[i] for i in sorted(picked)]


def case_sample(commands: Sequence[str] = (), size: int = SAMPLE_SIZE,
                keep: Callable[[cases.Case], bool] = lambda _case: False) -> list[cases.Case]:
    """The default sample of the corpus for an oracle.

    Parameters
    ----------
    commands
        Only cases of these commands (all when empty).
    size
        The share to pick (``SAMPLE_SIZE`` unless an oracle needs another).
    keep
        Cases always in the sample: those exercising the speed path specifically.

    Returns
    -------
    list of Case
        The sample, in path order.
    """
    population = [c for c in corpus() if not commands or c.command in commands]
    return spread(population, size, stratum, keep)


def whole(commands: Sequence[str] = ()) -> list[cases.Case]:
    """Every case of ``commands`` (all when empty): what an oracle runs under ``slow``."""
    return [c for c in corpus() if not commands or c.command in commands]


def case_id(case: cases.Case) -> str:
    """A case's test id: its path under the repository."""
    return case.path.relative_to(ROOT).as_posix()

