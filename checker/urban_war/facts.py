"""Turn an Urban War :class:`Position` into clingo facts, checking every name against
the Urban War catalogue (``checker/catalogue/urban-war/``).

Inputs: a Position. Defines: :func:`build` (the facts) and :class:`Game` (what the
verdicts need to name things). The Urban War module that builds clingo symbols.
"""

from __future__ import annotations

from dataclasses import dataclass

import clingo

from ..engine.catalogue import Catalogue, Entry
from ..engine.catalogue import load as load_catalogue
from ..engine.errors import Location, PositionError, UnknownEntryError
from ..infinity.position import Span, lines_of
from . import CATALOGUE
from .position import Named, Position

F, N, S = clingo.Function, clingo.Number, clingo.String

# Special skills read only with their value: Heavy Armour 4, Lethal Strike (x1), ...
VALUE_REQUIRED = {"heavy_armour", "lethal_strike", "find_weakness", "multiple_attacks", "multiple_shots",
                  "neural_spike_activation", "spomm", "strategy", "high_morale"}


@dataclass(frozen=True)
class Game:
    """The position with its names resolved: what the report needs beside the answer set."""

    position: Position
    catalogue: Catalogue
    active: str
    # model id -> the catalogue entries in play for it (special skills, states)
    in_play: tuple[tuple[str, Entry], ...]
    actions: tuple[tuple[int, str, str], ...]  # (slot, skill id, target)
    reactions: tuple[tuple[str, str, str], ...]  # (model, skill id, target)


def _c(text: str) -> clingo.Symbol:
    return F(text)


def _name(text: str) -> clingo.Symbol:
    """A name the position writes (a model id, a side): a clingo string, never a
    constant, so no name equals a word of the rule base."""
    return S(text)


class _Facts:
    def __init__(self, position: Position):
        self.pos = position
        self.cat = load_catalogue(CATALOGUE)
        self.lines = lines_of(position.text)
        self.facts: list[clingo.Symbol] = []
        self.in_play: list[tuple[str, Entry]] = []

    def error(self, message: str, span: Span) -> PositionError:
        line = self.lines[span.line - 1] if span.line <= len(self.lines) else ""
        return PositionError(message, Location(self.pos.file, span.line, span.column, line))

    def add(self, name: str, *args: clingo.Symbol | int | str) -> None:
        self.facts.append(F(name, [a if isinstance(a, clingo.Symbol) else N(a) if isinstance(a, int) else _c(a)
                                   for a in args]))

    def lookup(self, kind: str, named: Named) -> Entry:
        try:
            return self.cat.lookup(kind, named.text)
        except UnknownEntryError as exc:
            raise self.error(str(exc), named.span) from None

    def model_id(self, named: Named, ids: set[str]) -> str:
        if named.text not in ids:
            raise self.error(f"unknown model id {named.text!r}; models: {', '.join(sorted(ids))}", named.span)
        return named.text

    def build(self) -> Game:
        pos = self.pos
        ids: set[str] = set()
        sides: dict[str, str] = {}
        for m in pos.models:
            if m.id in ids:
                raise self.error(f"model {m.id!r} is written twice", m.span)
            ids.add(m.id)
            sides[m.id] = m.side
            self.model(m)
        if pos.active_side is None:
            raise self.error("no active side: write 'active SIDE'", Span(1, 1))
        if pos.active_side.text not in sides.values():
            raise self.error(f"no model of side {pos.active_side.text!r}", pos.active_side.span)
        self.add("active_side", _name(pos.active_side.text))
        for skill in self.cat.all("skills"):
            self.add("skill", skill.id)
            if skill.get("target"):
                self.add("targeted", skill.id)
            if skill.get("reaction"):
                self.add("reaction_skill", skill.id)
            if skill.get("friendly"):
                self.add("friendly_target", skill.id)
        for los in pos.los:
            for name in (los.source, los.target):
                self.model_id(Named(name, los.span), ids)
            self.add("los", _name(los.source), _name(los.target))
        for band in pos.bands:
            for name in (band.source, band.target):
                self.model_id(Named(name, band.span), ids)
            self.add("band", _name(band.source), _name(band.target), band.band)
        if pos.action is None:
            raise self.error("no activated model: write 'action ID:' and its actions, if any", Span(1, 1))
        active = self.model_id(pos.action.model, ids)
        if sides[active] != pos.active_side.text:
            raise self.error(f"{active!r} is not a model of the active side {pos.active_side.text!r}",
                             pos.action.model.span)
        self.add("active", _name(active))
        actions = []
        for k, step in enumerate(pos.action.steps, 1):
            skill = self.step_skill(step.skill, reaction=False)
            target = self.step_target(step, skill, ids, active)
            actions.append((k, skill.id, target))
            self.add("declared", k, skill.id, _name(target))
        self.add("next_slot", len(actions) + 1)
        reactions = []
        for decl in pos.reactions:
            model = self.model_id(decl.model, ids)
            if sides[model] == pos.active_side.text:
                raise self.error(f"{model!r} is a model of the active side: it does not react", decl.model.span)
            for step in decl.steps:
                skill = self.step_skill(step.skill, reaction=True)
                target = self.step_target(step, skill, ids, model)
                reactions.append((model, skill.id, target))
                self.add("reaction", _name(model), skill.id, _name(target))
        for distance in pos.distances:
            for name in (distance.source, distance.target):
                self.model_id(Named(name, distance.span), ids)
            self.add("distance", _name(distance.source), _name(distance.target), distance.inches)
        for named, count in pos.wounds:
            self.add("wounds_caused", _name(self.model_id(named, ids)), count)
        for dice in pos.dice:
            model = self.model_id(dice.model, ids)
            for i, value in enumerate(dice.values, 1):
                self.add("die", _name(model), dice.kind, i, value)
            if dice.need is not None:
                self.add("need", _name(model), dice.kind, dice.need)
            if dice.mod is not None:
                self.add("stated_mod", _name(model), dice.kind, dice.mod)
        return Game(pos, self.cat, active, tuple(self.in_play), tuple(actions), tuple(reactions))

    def model(self, m) -> None:
        me = _name(m.id)
        self.add("model", me)
        self.add("side", me, _name(m.side))
        if m.order:
            self.add("given_order", me, m.order)
        for name, value, _span in m.attributes:
            self.add({"cal": "calibre", "cd": "cd", "w": "wounds_attr", "sz": "sz", "mv": "mv",
                      "lost": "wounds_gone"}[name], me, value)
        for named in m.skills:
            entry = self.lookup("special_skills", named)
            self.in_play.append((m.id, entry))
            if entry.get("param") and named.value is None and entry.id in VALUE_REQUIRED:
                raise self.error(f"{entry.name} takes its value in parentheses: '{entry.name} (4)'", named.span)
            if not entry.get("param") and named.value is not None:
                raise self.error(f"{entry.name} takes no value in parentheses", named.span)
            self.add("special", me, entry.id)
            if named.value is not None:
                self.add("special_value", me, entry.id, named.value)
        states = [self.lookup("states", s) for s in m.states] or [self.cat.entries["states"]["normal"]]
        for entry in states:
            self.in_play.append((m.id, entry))
            self.add("state", me, entry.id)

    def step_skill(self, named: Named, reaction: bool) -> Entry:
        entry = self.lookup("skills", named)
        if bool(entry.get("reaction")) != reaction:
            what = "a reaction: declare it on a 'react' line" if entry.get("reaction") else \
                "an action: declare it on the 'action' line"
            raise self.error(f"{entry.name} is {what}", named.span)
        return entry

    def step_target(self, step, skill: Entry, ids: set[str], actor: str) -> str:
        if skill.get("target"):
            if step.target is None:
                raise self.error(f"{skill.name} needs a target: '{skill.name} -> ID'", step.skill.span)
            return self.model_id(step.target, ids)
        if step.target is not None:
            raise self.error(f"{skill.name} takes no target", step.target.span)
        return actor


def build(position: Position) -> tuple[Game, list[clingo.Symbol]]:
    """The resolved game and its facts.

    Raises
    ------
    PositionError
        At the name or number the catalogue or the position does not know.
    """
    maker = _Facts(position)
    game = maker.build()
    return game, maker.facts
