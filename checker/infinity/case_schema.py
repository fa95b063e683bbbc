"""The case file format as data: the keys each command's ``[expect]`` accepts, which of
them are tables per trooper or per subject, and the type of every value.

``checker/infinity/cases.py`` documents the format for a reader; the loader checks every case
file against this schema, so a misspelt key or a value of the wrong type is a malformed
case, never an expectation silently left out. The schema also knows which strings name
rules, so the corpus can be asked which rules its expectations pin.
"""

from __future__ import annotations

from ..engine.catalogue import KINDS
from ..engine.errors import (
    CaseFormatError,
    NotationError,
    PositionError,
    RuleBaseError,
    RulingError,
)
from .case_spec import (
    Chance,
    Each,
    Index,
    ListOf,
    Pattern,
    Problem,
    Rules,
    Scalar,
    Spec,
    Table,
)
from .odds_saves import END_STATES
from .report import CONFLICT, DENIED, INVALID, LEGAL

STRING = Scalar(str, "a string")
WHOLE = Scalar(int, "a whole number")
STRINGS = ListOf(STRING)
RULE = Rules()
RULES = ListOf(RULE, "a list of rule ids")
COMMANDS = ("aros", "check", "declarations", "error", "odds")
SLOTS = ("first", "second")
ERROR_KINDS = tuple(c.kind for c in (NotationError, PositionError, CaseFormatError, RuleBaseError, RulingError))
DIE_RESULTS = (*(r + c for r in ("success", "critical", "fail") for c in ("", " cancelled")), "discarded", "pending")
# A fact the position lacks, as "missing id...": the kinds checker/infinity/resolution.py's
# Pending names ("distance fus alg", "burst_share fus 1 alg", "attribute alg arm",
# "ammunition fus panzerfaust", "fireteam_level alpha core"); an option's, after its key
# ("dodge: distance fus1 hellcat").
PENDING_KINDS = ("distance", "burst_share", "attribute", "ammunition", "fireteam_level", "smoke_distance",
                 "fireteam_after_aro", "weapons", "lof", "cost", "impetuous_nearest", "impetuous_toward",
                 "impetuous_reach", "impetuous_zone")
_PENDING = rf"(?:{'|'.join(PENDING_KINDS)})(?: [^ ]+)+"
PENDING_FACTS = ListOf(
    Pattern(what='a string "missing id..." ("distance fus alg")', pattern=_PENDING),
    'a list of strings "missing id..."')
OPTION_PENDING = ListOf(
    Pattern(what='a string "option: missing id..." ("bs_attack/combi_rifle: distance fus1 hellcat")',
            pattern=rf"[^ ]+: {_PENDING}"),
    'a list of strings "option: missing id..."')

# Conflicts read "subject | permission | denial" (or "| rule" for a breach of the position).
CONFLICT_KEY = Rules(what='a string "subject | rule | rule"', sep=" | ", skip=1)
CONFLICT_KEYS = ListOf(CONFLICT_KEY, 'a list of strings "subject | rule | rule"')
# What a verdict lists under Not modelled (or under Unverified values), as "kind/id"
# with the catalogue's kind ("special_skills/sat_lock", "states/stunned"), or "table" for
# a table value (checker/infinity/table.py: "table/small_teardrop", "table/silhouettes").
NOT_MODELLED = ListOf(
    Pattern(what='a string "kind/id" ("special_skills/sat_lock")',
            pattern=rf"(?:{'|'.join((*KINDS, 'table'))})/[a-z0-9_]+"),
    'a list of strings "kind/id"')
COMMON: dict[str, Spec] = {
    "conflicts": CONFLICT_KEYS,
    "conflict_facts": Each(STRINGS, "conflict", key=CONFLICT_KEY),
    "breaches": Each(RULES, "subject"),
}
AROS: dict[str, Spec] = {
    "not_modelled": NOT_MODELLED,
    "unverified": NOT_MODELLED,
    "legal": Each(STRINGS, "trooper"),
    "invalid": Each(STRINGS, "trooper"),
    "triggers": Each(STRINGS, "trooper"),
    "declares_after": Each(Scalar(int, "a whole number", (0, 1, 2)), "trooper"),
    "may_delay": Each(Rules(what='a rule id, or "" for none'), "trooper"),
    "denied": Each(Each(RULES, "option"), "trooper"),
    "pending": Each(OPTION_PENDING, "trooper"),
    "revealed": STRINGS,
    **COMMON,
}
DECLARATIONS: dict[str, Spec] = {
    "not_modelled": NOT_MODELLED,
    "unverified": NOT_MODELLED,
    "legal": Each(STRINGS, "slot", SLOTS),
    "denied": Each(Each(RULES, "option"), "slot", SLOTS),
    "pending": Each(OPTION_PENDING, "slot", SLOTS),
    **COMMON,
}
RESOLUTION: dict[str, Spec] = {
    "sv": Each(WHOLE, "roll"),
    "mods": Each(RULES, "roll"),
    "hits": Each(WHOLE, "roll"),
    "hit_troopers": Each(Each(WHOLE, "trooper"), "roll"),
    "results": Each(ListOf(Scalar(str, "a die result", DIE_RESULTS), "a list of die results"), "roll"),
    "face_to_face": STRINGS,
    "saves": Each(ListOf(Scalar(str, "a save result", ("pass", "fail")), "a list of save results"), "trooper"),
    "wounds_lost": Each(WHOLE, "trooper"),
    "states": Each(STRINGS, "trooper"),
    "outcomes": Each(STRINGS, "subject"),
    "clashes": CONFLICT_KEYS,
    "rules": RULES,
    "pending": Each(PENDING_FACTS, "subject"),
    "unused": Each(ListOf(Index(), "a list of dice places"), "trooper"),
}
CHECK: dict[str, Spec] = {
    "not_modelled": NOT_MODELLED,
    "unverified": NOT_MODELLED,
    "legal": Scalar(bool, "true or false"),
    "status": Each(Scalar(str, "a status", (LEGAL, INVALID, DENIED, CONFLICT)), "subject"),
    "verdicts": Each(RULES, "subject"),
    "lifted": Each(ListOf(Rules(what='a string "permission > denial"', sep=" > ", least=2),
                             'a list of strings "permission > denial"'), "subject"),
    "resolution": Table(RESOLUTION),
    "revealed": STRINGS,
    "pending": Each(PENDING_FACTS, "subject"),
    **COMMON,
}
# Odds: a row is "declared" (the Order as declared) or "TROOPER OPTION", the option as
# an aros case names it, with its ammunition after the weapon when it has several
# ("fus1 bs_attack/multi_rifle/ap"); a roll's outcome is "TROOPER SUCCESSES CRITICALS",
# the trooper its standing dice count against ("-" for none).
# A sequence of Orders (docs/turn.md): `legal` is every judged Order's, `judged` how many
# were judged, `orders.N` each Order's check expectations, `not_judged` that Order N
# was left unjudged, and `states_phase` a `step N end`'s changes ("a loses stunned | stunned_states_phase").
ORDER_CHECK: dict[str, Spec] = {
    **CHECK, "not_judged": Scalar(bool, "true or false"),
    "states_phase": ListOf(Rules(what='a string "trooper gains|loses|becomes|may_become state | rule"', sep=" | ", skip=1),
                           'a list of strings "trooper gains|loses|becomes|may_become state | rule"'),
}
CHECK["judged"] = WHOLE
CHECK["orders"] = Each(Table(ORDER_CHECK), "Order", key=Pattern(what="an Order's number", pattern=r"[1-9][0-9]*"))
ROW = Pattern(what='a row: "declared" or "trooper option" ("fus1 bs_attack/combi_rifle")',
              pattern=r"declared|[^ ]+ [^ ]+")
OUTCOME = Pattern(what='an outcome "trooper successes criticals" ("fus1 2 0")', pattern=r"[^ ]+ \d+ \d+")
SUMMARY_COLUMNS = ("active_down", "reactor_down", "nothing")
CHANCE = Chance()
ODDS: dict[str, Spec] = {
    "rows": ListOf(ROW, "a list of rows"),
    "summary": Each(Each(Chance(unpriced=True), "column", SUMMARY_COLUMNS), "row", key=ROW),
    "rolls": Each(Each(Each(CHANCE, "outcome", key=OUTCOME), "roll"), "row", key=ROW),
    "end_states": Each(Each(Each(CHANCE, "trooper's end state", END_STATES), "trooper"), "row", key=ROW),
    "not_priced": Each(STRINGS, "row", key=ROW),
    **COMMON,
}
ERROR: dict[str, Spec] = {
    "kind": Scalar(str, "an error kind", ERROR_KINDS),
    "line": Scalar(int, "a line number"),
    "message": STRING,
}
EXPECT_FIELDS: dict[str, dict[str, Spec]] = {
    "aros": AROS, "check": CHECK, "declarations": DECLARATIONS, "error": ERROR, "odds": ODDS}
EXPECT_KEYS = {key for fields in EXPECT_FIELDS.values() for key in fields}


def _joined(words: list[str]) -> str:
    """``aros, check and declarations``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _expect(command: str) -> Table:
    others = tuple(
        (key, f"it is for {_joined([c for c, fields in EXPECT_FIELDS.items() if key in fields])} cases")
        for key in sorted(EXPECT_KEYS - set(EXPECT_FIELDS[command]))
    )
    required = ("kind",) if command == "error" else ()
    return Table(EXPECT_FIELDS[command], required, elsewhere=others)


EXPECT = {command: _expect(command) for command in COMMANDS}
TEXT = Scalar(str, "a string with some text", blank=False)
CASE = Table({
    "source": TEXT,  # where the rule is written: a case without one proves nothing
    "description": STRING,
    "command": Scalar(str, "a command", COMMANDS),
    "position": TEXT,
    "expect": Scalar(dict, "a table"),
}, required=("source", "position", "expect"),
   elsewhere=tuple((key, "expectations belong under [expect]") for key in sorted(EXPECT_KEYS)))


def problems(data: dict) -> list[Problem]:
    """Every place where a case file's parsed TOML does not fit the format."""
    found = list(CASE.check(data, ()))
    command = data.get("command", "aros")
    if command in EXPECT and isinstance(data.get("expect"), dict):
        found += EXPECT[command].check(data["expect"], ("expect",))
    return found


def rules_named(command: str, expect: dict) -> set[str]:
    """The rule ids a (well-formed) case's expectations name."""
    return set(EXPECT[command].rules(expect))
