"""The shown predicates of the Urban War rule base (asp/urban_war/) its reports read, each
as a typed answer (checker/engine/answers.py), with the engine's (denials, citations,
outcomes) that checker/engine/answers.py declares.

Defines: one ``Answer`` class per predicate; ``RESULTS``, ``REPORT_TYPES``.
"""

from __future__ import annotations

from ..engine.answers import (
    Answer,
    Applied,
    Cite,
    Conflict,
    Denied,
    Gains,
    Lifted,
    Loses,
    Outcome,
    StateClash,
    Term,
)


class NeedsTest(Answer):
    """``needs_test(Subject, Test, Rule)``: the action or reaction needs a test the rule asks."""

    predicate = "needs_test"
    subject: tuple
    test: str
    rule: str


class NoTest(Answer):
    """``no_test(Subject, Rule)``: the rule spares the action or reaction its test."""

    predicate = "no_test"
    subject: tuple
    rule: str


class OptionAct(Answer):
    """``option_act(Subject)``: an action the active model may declare next."""

    predicate = "option_act"
    subject: tuple


class AllowedActions(Answer):
    """``allowed_actions(Model, N)``: the actions its order allows."""

    predicate = "allowed_actions"
    model: str
    actions: int


class ReactionSubject(Answer):
    """``reaction_subject(Subject)``: a reaction a model may declare."""

    predicate = "reaction_subject"
    subject: tuple


class DeclaredAct(Answer):
    """``declared_act(Subject)``: a declared action."""

    predicate = "declared_act"
    subject: tuple


class DeclaredReaction(Answer):
    """``declared_reaction(Subject)``: a declared reaction."""

    predicate = "declared_reaction"
    subject: tuple


class Received(Answer):
    """``received(Model, I)``: the I-th wound caused costs the model a wound."""

    predicate = "received"
    model: str
    point: int


class Dodged(Answer):
    """``dodged(Model, I)``: the model dodges the I-th wound caused."""

    predicate = "dodged"
    model: str
    point: int


class DodgeOpen(Answer):
    """``dodge_open(Model, I)``: the Dodge die of the I-th wound is not written."""

    predicate = "dodge_open"
    model: str
    point: int


class Ignored(Answer):
    """``ignored(Model, I)``: Heavy Armour saves the I-th wound received."""

    predicate = "ignored"
    model: str
    point: int


class ArmourOpen(Answer):
    """``armour_open(Model, I)``: the armour die of the I-th wound is not written."""

    predicate = "armour_open"
    model: str
    point: int


class WoundsLost(Answer):
    """``wounds_lost(Model, N)``: the wounds the model loses."""

    predicate = "wounds_lost"
    model: str
    wounds: int


class Effect(Answer):
    """``effect(Subject, Effect, Rule)``: what a rule adds to an act (+1 to hit, 2 attacks)."""

    predicate = "effect"
    subject: tuple
    effect: Term
    rule: str


class Total(Answer):
    """``total(Model, Kind, I, T)``: the I-th die of Kind plus its modifiers."""

    predicate = "total"
    model: str
    kind: str
    index: int
    total: int


class Passed(Answer):
    """``passed(Model, Kind, I)``: the die reached its need."""

    predicate = "passed"
    model: str
    kind: str
    index: int


class Failed(Answer):
    """``failed(Model, Kind, I)``: the die fell short of its need."""

    predicate = "failed"
    model: str
    kind: str
    index: int


class OpenDie(Answer):
    """``open_die(Model, Kind, I)``: a die written with no need."""

    predicate = "open_die"
    model: str
    kind: str
    index: int


class DodgeFailed(Answer):
    """``dodge_failed(Model, I)``: the Dodge die of the I-th point fell short."""

    predicate = "dodge_failed"
    model: str
    point: int


class CoverSaved(Answer):
    """``cover_saved(Model, I)``: a cover save ignores the I-th point."""

    predicate = "cover_saved"
    model: str
    point: int


class CoverOpen(Answer):
    """``cover_open(Model, I)``: the cover die of the I-th point has no need."""

    predicate = "cover_open"
    model: str
    point: int


class WoundsExcess(Answer):
    """``wounds_excess(Model, N)``: wounds caused past those the model had left."""

    predicate = "wounds_excess"
    model: str
    wounds: int


class WoundsLeft(Answer):
    """``wounds_left(Model, N)``: the wounds the model has left afterwards."""

    predicate = "wounds_left"
    model: str
    wounds: int


class DamageMissing(Answer):
    """``damage_missing(Model, N)``: damage dice the hits give and the position lacks."""

    predicate = "damage_missing"
    model: str
    dice: int


class UnusedDie(Answer):
    """``unused_die(Model, Kind, I)``: a written die no point uses (bad input)."""

    predicate = "unused_die"
    model: str
    kind: str
    index: int


# What each wound caused comes to, by the answer type saying so (checker/urban_war/report.py).
RESULTS: tuple[tuple[type[Received | Dodged | DodgeOpen | CoverSaved | CoverOpen | Ignored | ArmourOpen], str], ...] = (
    (Received, "wound"), (Dodged, "dodged"), (DodgeOpen, "dodge unresolved"), (CoverSaved, "saved by cover"),
    (CoverOpen, "cover unresolved"), (Ignored, "saved by Heavy Armour"), (ArmourOpen, "armour save unresolved"),
)

_VERDICTS: tuple[type[Answer], ...] = (Cite, Conflict, Denied, Lifted, NeedsTest, NoTest, Effect)

# The answer types each command's report reads.
REPORT_TYPES: dict[str, tuple[type[Answer], ...]] = {
    "declarations": (*_VERDICTS, AllowedActions, OptionAct),
    "aros": (*_VERDICTS, ReactionSubject),
    "check": (*_VERDICTS, Applied, DeclaredAct, DeclaredReaction, Gains, Loses, Outcome, StateClash, WoundsLost,
              WoundsExcess, WoundsLeft, DamageMissing, Total, Passed, Failed, OpenDie,
              *(kind for kind, _ in RESULTS)),
}
