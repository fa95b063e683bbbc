"""The Player Turn's statements (docs/turn.md): Command Tokens, the Order Pools, what
the turn has spent before this Order, Retreat!. Resolved against the position's sides,
troopers and number ranges, and turned into the rule base's facts
(asp/infinity/core/order_count.lp, command_tokens.lp, retreat.lp: command_tokens/2, tokens_generated/1,
pool_written/3, pool_generated/2, spent_regular/3,
spent_tokens/2, spent_own/2 (spent_own/3 with the times spent), nullified/3, retreat_written/1, army_points/3, led/1, impetuous_cancelled/2,
off_table/1, game_round/1, first_player/1, tokens_limited/1 (asp/infinity/core/game_round.lp), began_isolated/1, species/2 (Side, Species: `species SIDE NAME`),
operational_use/2 (Trooper, regular | unaffected | guts: `token T USE`, asp/infinity/core/command_tokens.lp),
unaffected_before/1 (Trooper: `began T unaffected`, asp/infinity/core/retreat.lp); states_phase/1 at a sequence's
`step N end`, asp/infinity/core/states_phase.lp).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import catalogue as cat
from ..engine.numbers import Range
from .game import ArmyFact
from .position import ArmyDecl

if TYPE_CHECKING:
    from .resolve import _Resolver

# The ranges of the Player Turn's numbers, with the reason for each.
TURN_RANGES = {
    "orders": Range("a count of Orders", 0, 15,
                    "an Army List has at most 15 Troopers (N5 wiki Army List), each generating one Regular Order"),
    "army_points": Range("an Army List's points", 1, 1000,
                         "the Game Modes build Army Lists of 150 to 400 points (N5 rulebook v5.1.1 p.143, "
                         "End-Game: Retreat!); a Free Game may agree others"),
    "game_round": Range("a Game Round", 1, 10,
                        "Game Rounds are counted from the first; a scenario sets how many are played, and the "
                        "range bounds a mistyped number"),
    "tokens": Range("a count of Command Tokens", 0, 10,
                    "each player has four Command Tokens per game, one more with a Lieutenant's +1 Command Token "
                    "(N5 wiki Command Tokens); the range leaves room for a scenario's extras"),
}

# The facts each kind of statement makes, by its resolved fields.
FACT_NAMES = {"tokens": "command_tokens", "pool": "pool_written", "spent_regular": "spent_regular",
              "spent_tokens": "spent_tokens", "spent_own": "spent_own", "retreat": "retreat_written", "led": "led",
              "army_points": "army_points",
              "states_phase": "states_phase", "cancel_impetuous": "impetuous_cancelled",
              "wound_inflicted": "wound_inflicted_this_turn", "nullified": "nullified",
              "limited_tokens": "tokens_limited", "first_player": "first_player", "game_round": "game_round",
              "began_isolated": "began_isolated", "off_table": "off_table", "species": "species",
              "token_use": "operational_use", "began_unaffected": "unaffected_before"}

# The keyword a statement is written with, where its kind's first word is not it.
_KEYWORDS = {"game_round": "round", "first_player": "first", "limited_tokens": "limited",
             "began_isolated": "began", "species": "species", "token_use": "token",
             "began_unaffected": "began"}


def resolve_army(resolver: _Resolver, decls: tuple[ArmyDecl, ...]) -> tuple[ArmyFact, ...]:
    """The Player Turn statements with their sides and troopers checked, and their numbers
    in range; a statement repeated for one side (and group) is bad input."""
    sides = {t.side for t in resolver.by_id.values()}
    seen: dict[tuple, ArmyDecl] = {}
    facts = []
    for decl in decls:
        if decl.kind in ("spent_own", "cancel_impetuous", "wound_inflicted", "began_isolated", "off_table", "token_use",
                         "began_unaffected"):
            subject = resolver._id(decl.subject)
        elif decl.kind == "game_round":
            subject = "game"  # the game's round, of no side
        else:
            subject = resolver.sides.get(cat.normalize(decl.subject.text), decl.subject.text)
            if subject not in sides:
                raise resolver.error(f"no trooper is on the side {decl.subject.text!r}; sides here: "
                                     f"{', '.join(sorted(sides))}", decl.subject, ("a side of the position",))
        if decl.kind in ("token_use", "began_unaffected") and resolver.cat.edition != "n5":
            what = f"token {decl.subject.text} {decl.own}" if decl.own else f"began {decl.subject.text} unaffected"
            raise resolver.error(f"'{what}' is an N5 Operational Use of a Command Token: "
                                 "the stored N3 Command Tokens page breaks off in its Tactical Use list, before "
                                 "these uses", decl.subject, ("an N5 position",))
        if decl.kind == "species":
            from .deploy_resolve import species_read

            species_read(resolver, decl.subject)
        if decl.kind == "spent_own" and decl.own == "airborne":
            _airborne(resolver, subject, decl)
        group = resolver.number("group", decl.group) if decl.group is not None else None
        count = None
        if decl.count is not None:
            key = ("tokens" if decl.kind in ("tokens", "spent_tokens")
                   else decl.kind if decl.kind in ("army_points", "game_round") else "orders")
            bound = TURN_RANGES[key]
            count = bound.read(decl.count.text)
            if count is None:
                raise resolver.error(bound.out_of_range(decl.count.text), decl.count, (bound.expected(),))
        # one cancellation per trooper, whichever Order paid for it; one Player Turn order in
        # a game: a second `first` line is one too many, whatever its side
        key_of = (decl.kind, None if decl.kind == "first_player" else subject,
                  None if decl.kind == "cancel_impetuous" else group,
                  None if decl.kind in ("army_points", "species") else decl.own)
        if key_of in seen:
            first = seen[key_of].subject.span.line
            word = _KEYWORDS.get(decl.kind, decl.kind.split('_')[0])
            total = "" if decl.kind in _KEYWORDS else ", with the total"
            raise resolver.error(f"a second '{word}' statement of the same kind for "
                                 f"{decl.subject.text!r} (the first is on line {first}); write one{total}",
                                 decl.subject)
        seen[key_of] = decl
        facts.append(ArmyFact(decl.kind, subject, group, count, decl.own))
    return tuple(facts)


def _airborne(resolver: _Resolver, trooper: str, decl: ArmyDecl) -> None:
    """``spent cj airborne``: the own Order an off-table trooper lands with, so only a
    trooper whose skill lands it with one (N5 Combat Jump, Parachutist) has it."""
    from .deploy_resolve import AIRBORNE_SKILLS

    landing = AIRBORNE_SKILLS.get(resolver.cat.edition, {})
    if not {s.id for s in resolver.by_id[trooper].skills} & set(landing):
        raise resolver.error(f"{decl.subject.text!r} has no skill that lands it with its own Order: 'airborne' "
                             "is an off-table N5 Combat Jump or Parachutist trooper's", decl.subject,
                             ("a Combat Jump or Parachutist trooper (N5)",))


def army_fact(fact: ArmyFact) -> tuple:
    """The name and arguments of the fact one resolved statement makes."""
    from .facts import NONE, Name

    name = FACT_NAMES[fact.kind]
    who = Name(fact.subject)
    if fact.kind == "spent_own":  # `spent lt lieutenant: 2`: spent_own/3 with the times spent
        return (name, who, fact.own) if fact.count is None else (name, who, fact.own, fact.count)
    if fact.kind == "army_points":  # `points nomads 300 counted`: the turn's check already made
        return name, who, fact.count, fact.own or NONE
    if fact.kind == "cancel_impetuous":  # the group whose Regular Order it spent, or none
        return name, who, fact.group if fact.group is not None else NONE
    if fact.kind == "game_round":
        return name, fact.count
    if fact.kind == "token_use":  # `token alg regular`: operational_use(alg, regular)
        return name, who, fact.own
    if fact.kind == "species":  # a name the player writes: a string, as the side's
        return name, who, Name(fact.own or "")
    if fact.kind in ("retreat", "led", "states_phase", "wound_inflicted", "limited_tokens", "first_player",
                     "began_isolated", "off_table", "began_unaffected"):
        return (name, who)
    if fact.kind == "pool" and fact.count is None:
        return "pool_generated", who, fact.group
    if fact.kind == "tokens" and fact.count is None:  # `tokens SIDE` alone: as the game gives them
        return ("tokens_generated", who)
    if fact.group is not None:
        return name, who, fact.group, fact.count
    return name, who, fact.count
