"""An Urban War position as plain data, as the notation states it.

Inputs: what ``checker/urban_war/notation.py`` reads.
Defines: :class:`Position` and its parts, each with the place (:class:`Span`) it was written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..infinity.position import Span

# Orders as written -> their ASP ids (http://urbanzone.fr/articles.php?lng=en&pg=41).
ORDERS = {"overwatch": "overwatch", "snap-fire": "snap_fire", "lock-fire": "lock_fire"}

# Every number a position writes, with its range and why.
RANGES = {
    "cal": (0, 3, "Calibre runs from 0 (trooper) to 3 (hero)"),
    "cd": (1, 10, "a Cd test is a d10 test"),
    "w": (1, 10, "wounds on a profile"),
    "sz": (1, 10, "SZ on a profile"),
    "mv": (0, 20, "MV on a profile, in inches"),
    "lost": (0, 10, "wounds already lost"),
    "distance": (0, 200, "inches between two models on the table"),
    "need": (1, 20, "the total a d10 test needs"),
    "mod": (-10, 10, "a modifier the position states (a weapon's range modifier)"),
    "wounds": (0, 20, "the wounds an action caused one model"),
    "die": (1, 10, "a d10"),
    "value": (-12, 12, "a special skill's value (Heavy Armour 4)"),
}


@dataclass(frozen=True)
class Named:
    """A name as written, with its place and an optional value in parentheses."""

    text: str
    span: Span
    value: int | None = None


@dataclass(frozen=True)
class Model:
    id: str
    side: str
    span: Span
    order: str | None = None
    attributes: tuple[tuple[str, int, Span], ...] = ()
    skills: tuple[Named, ...] = ()
    states: tuple[Named, ...] = ()


@dataclass(frozen=True)
class Los:
    source: str
    target: str
    span: Span


@dataclass(frozen=True)
class Band:
    source: str
    target: str
    band: str
    span: Span


@dataclass(frozen=True)
class Distance:
    """Inches between two models, as the players measure them (0: base contact)."""

    source: str
    target: str
    inches: int
    span: Span


@dataclass(frozen=True)
class Unverified:
    """A value the position uses that only a report or summary gives, with its source."""

    value: str
    source: str
    span: Span


@dataclass(frozen=True)
class Step:
    """One declared action or reaction: its skill as written and its target, if any."""

    skill: Named
    target: Named | None


@dataclass(frozen=True)
class Declaration:
    model: Named
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Dice:
    model: Named
    kind: str
    values: tuple[int, ...]
    span: Span
    need: int | None = None
    mod: int | None = None


@dataclass(frozen=True)
class Position:
    file: str
    text: str
    active_side: Named | None
    models: tuple[Model, ...]
    los: tuple[Los, ...]
    bands: tuple[Band, ...]
    action: Declaration | None
    reactions: tuple[Declaration, ...]
    wounds: tuple[tuple[Named, int], ...]
    dice: tuple[Dice, ...]
    distances: tuple[Distance, ...] = ()
    unverified: tuple[Unverified, ...] = ()
