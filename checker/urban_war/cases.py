"""Urban War rule cases: one TOML file per case (``checker/engine/cases.py``), its
position opening with ``game urban-war``, expectations compared both ways.

A case file::

    source = "seed 004_5af2cbd84cdeb84c.txt, Berserk Charge"   # required
    description = "..."
    command = "aros"            # aros | declarations | check | error
    position = '''
    game urban-war
    ...
    '''
    [expect]
    # aros: per model, the exact set of legal reactions ("skill>target"), the rules denying
    # named ones, the tests named ones wait on
    legal.art = ["overwatch_shoot>sgt"]
    denied.art = { "counter_charge>sgt" = ["uw_counter_charge"] }
    tests.art = { "overwatch_shoot>sgt" = ["cd_test_calibre"] }
    lifted.art = { "overwatch_shoot>sgt" = ["permission > denial"] }  # denials a permission lifts
    # declarations: the exact set of legal options of the next slot, denials of named ones
    legal = ["move", "shoot>art"]
    denied = { "charge>art" = ["uw_charge_snap_fire"] }
    lifted = { "move" = ["permission > denial"] }
    # check: the overall verdict, per subject ("action 1", "react art") its denying rules;
    # per model, each wound's result in order, the wounds lost, the states gained
    legal = true
    verdicts = { "action 1" = [], "react art" = ["uw_shoot_los"] }
    damage = { art = ["dodged", "wound"] }
    wounds_lost = { art = 1 }
    states = { sgt = ["revealed"] }
    loses = { p = ["prone"] }                     # states a rule ends
    excess = { art = 1 }                          # wounds caused past those left
    outcomes = { art = ["morale(failed)"] }       # per model, every outcome (exact set)
    rolls = { sgt = ["hit 1: 10 passed"] }        # per model, every die: kind, index, total, result
    unverified = ["..."]                          # the values only a report gives (exact set)
    effects = { "action 1" = ["to_hit(1)"] }      # what rules add to an act (also aros, declarations)
    lifted = { "action 1" = ["permission > denial"] }
    # aros, declarations, check: the exact set of conflicts, "subject | permission | denial"
    # (the subject "action 2 move", "react art overwatch_shoot>sgt"); for check also the
    # states that exclude each other after the activation, "sgt after the activation |
    # rule1 | rule2" (``position`` for a state as written); [] for none
    conflicts = ["action 2 move | permission | denial"]
    # error: the kind of error, its line, words of its message
    kind = "position"
    line = 3
    message = "unknown model id"

Inputs: case files. Defines: :func:`load`, :func:`run`.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.cases import Case, CaseResult, Difference
from ..engine.errors import CaseFormatError, LocatedError, RulingError
from . import analysis, render
from .report import Check, Option, Verdict

KEYS = {
    "aros": {"legal", "denied", "tests", "lifted", "conflicts", "effects"},
    "declarations": {"legal", "denied", "tests", "lifted", "conflicts", "effects"},
    "check": {"legal", "verdicts", "damage", "wounds_lost", "states", "lifted", "conflicts", "effects",
              "excess", "outcomes", "rolls", "loses", "unverified"},
    "error": {"kind", "line", "message"},
}


def load(path: Path, data: dict, text: str) -> Case:
    """An Urban War case from its file's table ``data`` (``engine.cases.read``; ``text``
    is the file's text).

    Raises
    ------
    CaseFormatError
        If it lacks source, position or expect, or has an unknown key.
    """
    command = data.get("command", "aros")
    problems = [f"missing key {k!r}" for k in ("source", "position", "expect") if k not in data]
    if command not in KEYS:
        problems.append(f"unknown command {command!r}; commands: {', '.join(KEYS)}")
    else:
        unknown = set(data.get("expect", {})) - KEYS[command]
        problems += [f"unknown key {k!r} in [expect] of a {command} case" for k in sorted(unknown)]
        if not data.get("expect"):
            problems.append("empty [expect]")
    problems += [f"unknown key {k!r} at the top of the case" for k in sorted(
        set(data) - {"source", "description", "command", "position", "expect"})]
    if problems:
        raise CaseFormatError("\n".join(f"{path}: error: {p}" for p in problems))
    return Case(path, data["source"], data.get("description", ""), command, data["position"], data["expect"])


def _value(key: str, expected: object, found: object) -> list[Difference]:
    """A difference when ``found`` is not the one value a case expects."""
    return [] if found == expected else [Difference(key, (str(expected),), (str(found),))]


def _sets(key: str, expected: list, found: list) -> list[Difference]:
    missing = tuple(sorted(set(map(str, expected)) - set(map(str, found))))
    extra = tuple(sorted(set(map(str, found)) - set(map(str, expected))))
    return [Difference(key, missing, extra)] if missing or extra else []


def _in_order(key: str, expected: list, found: list) -> list[Difference]:
    return [] if list(expected) == list(found) else [Difference(key, tuple(map(str, expected)), tuple(map(str, found)))]


def _option_differences(prefix: str, expect: dict, options: list[Option]) -> list[Difference]:
    by_key = {o.key(): o for o in options}
    diffs = []
    if "legal" in expect:
        diffs += _sets(f"{prefix}legal", expect["legal"], [o.key() for o in options if not o.denied_by])
    for name, rules in expect.get("denied", {}).items():
        denied = list(by_key[name].denied_by) if name in by_key else ["<no such option>"]
        diffs += _sets(f"{prefix}denied.{name}", rules, denied)
    for name, tests in expect.get("tests", {}).items():
        tested = [t for t, _ in by_key[name].tests] if name in by_key else ["<no such option>"]
        diffs += _sets(f"{prefix}tests.{name}", tests, tested)
    for name, pairs in expect.get("lifted", {}).items():
        diffs += _sets(f"{prefix}lifted.{name}", pairs, _lifted(by_key[name]) if name in by_key else ["<no such option>"])
    for name, effects in expect.get("effects", {}).items():
        found = [e for e, _ in by_key[name].effects] if name in by_key else ["<no such option>"]
        diffs += _sets(f"{prefix}effects.{name}", effects, found)
    return diffs


def _lifted(option: Option) -> list[str]:
    return [f"{by} > {denial}" for denial, by in option.lifted]


def _conflicts(expect: dict, verdict: Verdict) -> list[Difference]:
    if "conflicts" not in expect:
        return []
    found = [f"{c.subject} | {c.permission} | {c.denial}" for c in verdict.conflicts]
    if isinstance(verdict, Check):
        found += [f"{c.model} after the activation | " + " | ".join(r for _, r in c.states) for c in verdict.state_clashes]
    return _sets("conflicts", expect["conflicts"], found)


def run(case: Case) -> CaseResult:
    """Run a case and compare its expectations with what the rule base derives."""
    try:
        result = analysis.analyse(case.position, str(case.path))
    except RulingError as exc:
        if case.command != "error":
            return CaseResult(case, (Difference("error", unexpected=(str(exc),)),), str(exc))
        e = case.expect
        diffs = _sets("kind", [e["kind"]], [getattr(exc, "kind", "error")])
        if "line" in e:
            diffs += _sets("line", [e["line"]], [exc.location.line if isinstance(exc, LocatedError) else 0])
        if "message" in e and e["message"] not in str(exc):
            diffs.append(Difference("message", (e["message"],), (str(exc),)))
        return CaseResult(case, tuple(diffs), str(exc))
    if case.command == "error":
        return CaseResult(case, (Difference("error", missing=(case.expect.get("kind", ""),)),))
    if case.command == "declarations":
        decl = result.declarations()
        return CaseResult(case, tuple(_option_differences("", case.expect, list(decl.options))
                                      + _conflicts(case.expect, decl)),
                          render.declarations_text(decl))
    if case.command == "aros":
        reactions = result.reactions()
        by_model = dict(reactions.by_model)
        diffs = []
        kinds = ("legal", "denied", "tests", "lifted", "effects")
        models = {m for k in kinds for m in case.expect.get(k, {})}
        for model in sorted(models):
            sub = {k: case.expect[k][model] for k in kinds if model in case.expect.get(k, {})}
            diffs += _option_differences(f"{model}: ", sub, list(by_model.get(model, ())))
        diffs += _conflicts(case.expect, reactions)
        return CaseResult(case, tuple(diffs), render.reactions_text(reactions))
    check = result.check()
    e = case.expect
    diffs = []
    if "legal" in e and e["legal"] != check.legal:
        diffs.append(Difference("legal", (str(e["legal"]),), (str(check.legal),)))
    subjects = {f"action {o.slot}": o for o in check.actions} | {f"react {o.model}": o for o in check.reactions}
    for name, rules in e.get("verdicts", {}).items():
        diffs += _sets(f"verdicts.{name}", rules, list(subjects[name].denied_by) if name in subjects else ["<none>"])
    for name, pairs in e.get("lifted", {}).items():
        diffs += _sets(f"lifted.{name}", pairs, _lifted(subjects[name]) if name in subjects else ["<none>"])
    diffs += _conflicts(e, check)
    damage = {d.model: d for d in check.damage}
    for model, results in e.get("damage", {}).items():
        diffs += _in_order(f"damage.{model}", results, [r for _, r in damage[model].points] if model in damage else [])
    for model, lost in e.get("wounds_lost", {}).items():
        diffs += _value(f"wounds_lost.{model}", lost, damage[model].wounds_lost if model in damage else None)
    for model, states in e.get("states", {}).items():
        diffs += _sets(f"states.{model}", states, [s for m, s, _ in check.states if m == model])
    for model, states in e.get("loses", {}).items():
        diffs += _sets(f"loses.{model}", states, [s for m, s, _ in check.lost_states if m == model])
    for name, effects in e.get("effects", {}).items():
        diffs += _sets(f"effects.{name}", effects, [x for x, _ in subjects[name].effects] if name in subjects else ["<none>"])
    for model, n in e.get("excess", {}).items():
        diffs += _value(f"excess.{model}", n, damage[model].excess if model in damage else None)
    for model, whats in e.get("outcomes", {}).items():
        diffs += _sets(f"outcomes.{model}", whats, [w for m, w, _ in check.outcomes if m == model])
    if "unverified" in e:
        diffs += _sets("unverified", e["unverified"], [v for v, _ in check.unverified])
    for model, rolls in e.get("rolls", {}).items():
        found_rolls = [f"{r.kind} {r.index}: {r.total} {r.result}" for r in check.rolls if r.model == model]
        diffs += _sets(f"rolls.{model}", rolls, found_rolls)
    return CaseResult(case, tuple(diffs), render.check_text(check))
