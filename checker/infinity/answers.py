"""The shown predicates of the Infinity rule base (asp/infinity/) its reports read, each
as a typed answer (checker/engine/answers.py), and the answer types each report reads:
``ruling odds`` shows only those of the resolution, and each command leaves unread
what its report never reads (checker/infinity/report.py, ``UNREAD``).

Defines: one ``Answer`` class per predicate; ``RESOLUTION_TYPES``, ``REPORT_TYPES``,
``VERDICT_SUBJECTS``.
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
    ResolutionRule,
    StateClash,
    Term,
)

# ---- asp/infinity/core: verdicts and the options of a report ------------------------

class ResolutionFor(Answer):
    """``resolution_for(Subject, Rule)``: Rule's denial of Subject is found at Resolution."""

    predicate = "resolution_for"
    subject: Term
    rule: str


class BreachFact(Answer):
    """``breach_fact(Subject, Rule, Fact)``: a fact of the position that breaks the rule."""

    predicate = "breach_fact"
    subject: Term
    rule: str
    fact: Term


class OptionPending(Answer):
    """``option_pending(Subject, Missing, Rule)``: an option's verdict waits on a fact."""

    predicate = "option_pending"
    subject: Term
    missing: tuple
    rule: str


class Revealed(Answer):
    """``revealed(T)``: a Marker the Order reveals."""

    predicate = "revealed"
    trooper: str


class HasSkill(Answer):
    """``has_skill(T, SpecialSkill, Level | none)``."""

    predicate = "has_skill"
    trooper: str
    skill: str
    level: Term


class SingleKind(Answer):
    """``single_kind(Kind)``: a skill kind that takes the whole Order."""

    predicate = "single_kind"
    kind: str


class Act(Answer):
    """``act(A, Slot, Skill, Weapon | none, Target | none)``: an option of the activated trooper."""

    predicate = "act"
    actor: str
    slot: int
    skill: str
    weapon: str | None
    target: str | None


class Combination(Answer):
    """``combination(Kind1, Kind2)``: skill kinds one Order may combine."""

    predicate = "combination"
    first: str
    second: str


class TriggerRule(Answer):
    """``trigger_rule(Kind, Rule)``: the rule behind a kind of ARO trigger."""

    predicate = "trigger_rule"
    kind: str
    rule: str


class Trigger(Answer):
    """``trigger(R, Kind, Step)``: why R may react at Step."""

    predicate = "trigger"
    trooper: str
    kind: str
    step: int


class FirstEligible(Answer):
    """``first_eligible(R, Step)``: the first step at which R is eligible."""

    predicate = "first_eligible"
    trooper: str
    step: int


class MayDelay(Answer):
    """``may_delay(R, Rule)``: R may delay its ARO under Rule."""

    predicate = "may_delay"
    trooper: str
    rule: str


class AroOption(Answer):
    """``option(R, Skill, Weapon | none, Against | none)``: an ARO R may declare."""

    predicate = "option"
    trooper: str
    skill: str
    weapon: str | None
    against: str | None


class Judged(Answer):
    """``judged(Subject)``: a declared skill or position fact a check judges."""

    predicate = "judged"
    subject: Term


# ---- asp/infinity/core: resolution (rolls.lp, mods.lp, damage.lp) -------------------

class Group(Answer):
    """``group(G, Roller, Skill, Weapon, Attribute, Target, Dice)``: one set of dice."""

    predicate = "group"
    group: tuple
    roller: str
    skill: str
    weapon: str | None
    attribute: str
    target: str | None
    dice: int


class GroupDice(Answer):
    """``group_dice(G, roll | save | guts)``: the dice line the group reads."""

    predicate = "group_dice"
    group: tuple
    kind: str


class GroupExtra(Answer):
    """``group_extra(G, E)``: the group rolls E extra dice and discards E."""

    predicate = "group_extra"
    group: tuple
    extra: int


class DieOf(Answer):
    """``die_of(G, K, Value)``: the K-th die of the group."""

    predicate = "die_of"
    group: tuple
    index: int
    value: int


class Result(Answer):
    """``result(G, K, Kind, Compare)``: each die kept."""

    predicate = "result"
    group: tuple
    index: int
    kind: str
    compare: int


class Discarded(Answer):
    """``discarded(G, K)``: a discarded die of a group with extra dice."""

    predicate = "discarded"
    group: tuple
    index: int


class Cancelled(Answer):
    """``cancelled(G, K)``: a success the opponent's roll cancels."""

    predicate = "cancelled"
    group: tuple
    index: int


class BadDiscard(Answer):
    """``bad_discard(T, J, Reason)``: the J-th discard T writes cannot be applied."""

    predicate = "bad_discard"
    trooper: str
    index: int
    reason: Term


class Opposed(Answer):
    """``opposed(G1, G2)``: a Face to Face Roll."""

    predicate = "opposed"
    group: tuple
    against: tuple


class Pending(Answer):
    """``pending(Subject, Missing, Rule)``: Rule waits on a fact the position leaves unwritten."""

    predicate = "pending"
    subject: tuple
    missing: tuple
    rule: str


class UnusedDie(Answer):
    """``unused_die(T, Kind, I, Reason)``: a written die no roll reads."""

    predicate = "unused_die"
    trooper: str
    kind: str
    index: int
    reason: Term


class RollWaived(Answer):
    """``roll_waived(G, Rule)``: Rule makes the roll an automatic success."""

    predicate = "roll_waived"
    group: tuple
    rule: str


class Automatic(Answer):
    """``automatic(G)``: a template roll, no dice."""

    predicate = "automatic"
    group: tuple


class AttackRoll(Answer):
    """``attack_roll(G)``: the roll is an Attack."""

    predicate = "attack_roll"
    group: tuple


class Mod(Answer):
    """``mod(G, Rule, Value)``: a MOD to the group's roll."""

    predicate = "mod"
    group: tuple
    rule: str
    value: int


class Sv(Answer):
    """``sv(G, Value)``: the group's Success Value."""

    predicate = "sv"
    group: tuple
    value: int


class AmmoOf(Answer):
    """``ammo_of(G, Ammunition)``: the ammunition of the group's hits."""

    predicate = "ammo_of"
    group: tuple
    ammunition: str


class Hit(Answer):
    """``hit(G, K, Target, success | critical)``."""

    predicate = "hit"
    group: tuple
    index: int
    target: str
    kind: str


class Save(Answer):
    """``save(T, I, G, K, J, Die)``: the I-th saving roll of T."""

    predicate = "save"
    trooper: str
    index: int
    group: tuple
    hit: int
    die: int
    value: int


class SaveResult(Answer):
    """``save_result(T, I, Result)``."""

    predicate = "save_result"
    trooper: str
    index: int
    result: str


class WoundsLost(Answer):
    """``wounds_lost(T, N)``: the Wounds T loses to its saving rolls."""

    predicate = "wounds_lost"
    trooper: Term
    wounds: int


class WoundsChanged(Answer):
    """``wounds_changed(T, N, Rule)``: Wounds a rule other than a saving roll costs."""

    predicate = "wounds_changed"
    trooper: Term
    wounds: int
    rule: str


class Life(Answer):
    """``life(T, N)``: T's Wounds (or STR)."""

    predicate = "life"
    trooper: Term
    wounds: int


class LifePrior(Answer):
    """``life_prior(T, N)``: the Wounds T had lost before this Order."""

    predicate = "life_prior"
    trooper: Term
    wounds: int


# The answer types checker/infinity/resolution.py reads.
RESOLUTION_TYPES: tuple[type[Answer], ...] = (
    AmmoOf, Applied, AttackRoll, Automatic, BadDiscard, Cancelled, DieOf, Discarded, Gains, Group, GroupDice,
    GroupExtra, Hit, Life, LifePrior, Loses, Mod, Opposed, Outcome, Pending, Result, RollWaived, Save, SaveResult,
    StateClash, Sv, UnusedDie, WoundsChanged, WoundsLost,
)

# The answer types every report reads through its index of verdicts (report._Verdicts),
# and those ``Atoms`` objects of whose subjects a report may leave unread (``Unread``).
VERDICT_TYPES: tuple[type[Answer], ...] = (
    BreachFact, Cite, Conflict, Denied, HasSkill, Judged, Lifted, OptionPending, ResolutionFor, ResolutionRule,
)
VERDICT_SUBJECTS: tuple[type[Answer], ...] = (Denied, Lifted, OptionPending)

# The answer types each command's report (checker/infinity/report.py) reads.
REPORT_TYPES: dict[str, tuple[type[Answer], ...]] = {
    "declarations": (*VERDICT_TYPES, Act, Combination, SingleKind),
    "aros": (*VERDICT_TYPES, AroOption, FirstEligible, MayDelay, Revealed, Trigger, TriggerRule),
    "check": (*VERDICT_TYPES, Revealed, *RESOLUTION_TYPES),
}


# ---- asp/infinity/core/order_count.lp: the Player Turn (checker/infinity/sequence.py) --

class PoolSize(Answer):
    """``pool_size(Side, Group, N)``: the Regular Orders a Combat Group's pool held at the
    start of the turn, as written or as its troopers generated them."""

    predicate = "pool_size"
    side: str
    group: int
    orders: int


class RetreatByCount(Answer):
    """``retreat_by_count(Side)``: the Retreat! check of the active army's Tactical Phase
    finds it in Retreat! (asp/infinity/core/retreat.lp)."""

    predicate = "retreat_by_count"
    side: str


class LossOfLieutenant(Answer):
    """``loss_of_lieutenant_now(Side)``: the army is in Loss of Lieutenant this turn."""

    predicate = "loss_of_lieutenant_now"
    side: str


class CommandTokens(Answer):
    """``tokens_dealt(Side, N)``: the Command Tokens a generated ``tokens SIDE`` held at
    the start of the turn (the game's, with a Lieutenant's extra)."""

    predicate = "tokens_dealt"
    side: str
    tokens: int


class TokenSpent(Answer):
    """``token_spent(Side, Use)``: the Order spends one of the side's Command Tokens for
    Use (``coordinated``, a re-roll ``reroll(G, K)``)."""

    predicate = "token_spent"
    side: str
    use: Term


# ---- asp/infinity/core/states_phase.lp: the end of the turn (checker/infinity/sequence.py) --

class TurnEnd(Answer):
    """``turn_end(T, gains | loses, State, Rule)``: a state the States Phase gives or ends."""

    predicate = "turn_end"
    trooper: str
    change: str
    state: str
    rule: str


class TurnEndGains(Answer):
    """``turn_end_gains(T, skills | characteristics, Id, Rule)``: a skill or
    characteristic the trooper holds from the end of the turn on (Frenzy's Impetuous)."""

    predicate = "turn_end_gains"
    trooper: str
    kind: str
    id: str
    rule: str


class TurnEndAppoints(Answer):
    """``turn_end_appoints(T, Rule)``: the trooper appointed Lieutenant as the turn ends."""

    predicate = "turn_end_appoints"
    trooper: str
    rule: str


class TurnEndAppointable(Answer):
    """``turn_end_appointable(T, Rule)``: a trooper the player may appoint Lieutenant as
    the turn ends (the choice is the player's)."""

    predicate = "turn_end_appointable"
    trooper: str
    rule: str
