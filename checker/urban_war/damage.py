"""The resolution a ``check`` reports: each model's damage (each point's result, the
wounds lost, capped, and the excess) and each die written with its total and result.

Inputs: a :class:`~checker.urban_war.facts.Game` and the solver's atoms.
Defines: :class:`Damage`, :class:`Roll`, :func:`damage_of`, :func:`rolls_of`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..engine.solver import Atoms
from . import answers as ans
from .facts import Game


@dataclass(frozen=True)
class Damage:
    """One model's resolution: each wound caused, and what its dice made of it."""

    model: str
    points: tuple[tuple[int, str], ...]  # (point, dodged | dodge unresolved | saved | wound | armour die missing)
    wounds_lost: int | None
    wounds: int | None
    excess: int = 0  # wounds caused past those the model had left
    left: int | None = None  # wounds left afterwards

    def to_dict(self) -> dict:
        return {"model": self.model, "points": [{"point": i, "result": r} for i, r in self.points],
                "wounds_lost": self.wounds_lost, "wounds": self.wounds, "excess": self.excess,
                "wounds_left": self.left}


@dataclass(frozen=True)
class Roll:
    """One d10 as written, with its total after modifiers and its result."""

    model: str
    kind: str
    index: int
    total: int | None
    result: str  # passed | failed | open

    def to_dict(self) -> dict:
        return {"model": self.model, "kind": self.kind, "die": self.index, "total": self.total,
                "result": self.result}


def damage_of(game: Game, atoms: Atoms) -> tuple[Damage, ...]:
    """Each damaged model: the models the position writes wounds for, then any other
    model a point of damage reached."""
    results: dict[str, dict[int, str]] = defaultdict(dict)
    for kind, word in ans.RESULTS:
        for point in atoms.of(kind):
            results[point.model][point.point] = word
    lost = {w.model: w.wounds for w in atoms.of(ans.WoundsLost)}
    excess = {w.model: w.wounds for w in atoms.of(ans.WoundsExcess)}
    left = {w.model: w.wounds for w in atoms.of(ans.WoundsLeft)}
    attrs = {m.id: {a: v for a, v, _ in m.attributes} for m in game.position.models}
    written = [n.text for n, _ in game.position.wounds]
    damaged = written + sorted(set(results) - set(written))
    return tuple(Damage(model, tuple(sorted(results[model].items())), lost.get(model),
                        attrs.get(model, {}).get("w"), excess.get(model, 0), left.get(model))
                 for model in dict.fromkeys(damaged))


def rolls_of(atoms: Atoms) -> tuple[Roll, ...]:
    """Every die written with a need or left open, in order of model, kind and die."""
    totals = {(t.model, t.kind, t.index): t.total for t in atoms.of(ans.Total)}
    verdicts = {(p.model, p.kind, p.index): "passed" for p in atoms.of(ans.Passed)}
    verdicts |= {(f.model, f.kind, f.index): "failed" for f in atoms.of(ans.Failed)}
    verdicts |= {(o.model, o.kind, o.index): "open" for o in atoms.of(ans.OpenDie)}
    return tuple(Roll(m, k, i, totals.get((m, k, i)), r) for (m, k, i), r in sorted(verdicts.items()))
