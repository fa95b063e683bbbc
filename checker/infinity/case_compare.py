"""How a case's expectations are compared with ruling's reports: every set both ways,
saves and die results in order, each mismatch a Difference naming the expectation's key.
The format is documented in ``checker/infinity/cases.py``."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ..engine.cases import Case, CaseResult, Difference
from ..engine.errors import LocatedError, RulingError
from .case_spec import NOT_PRICED
from .odds import OddsReport, OptionOdds
from .report import INVALID, LEGAL, AroReport, CheckReport, DeclarationsReport


def _compare(key: str, expected, actual) -> list[Difference]:
    expected, actual = set(expected), set(actual)
    if expected == actual:
        return []
    return [Difference(key, tuple(sorted(expected - actual, key=str)), tuple(sorted(actual - expected, key=str)))]


def _option_key(option) -> str:
    """``skill`` or ``skill/weapon``, then ``>against`` for an ARO against one of
    several activated troopers."""
    key = f"{option.skill}/{option.weapon}" if option.weapon else option.skill
    return f"{key}>{option.against}" if option.against else key


def _pending_key(pending) -> str:
    """A pending fact as a case writes it: ``distance fus alg`` (missing, then its ids)."""
    return " ".join((pending.missing, *pending.ids))


def _option_pending(key: str, option) -> list[str]:
    """``bs_attack/combi_rifle: distance fus1 hellcat``, one per fact the option waits on."""
    return [f"{key}: {_pending_key(p)}" for p in option.pending]


def _conflict_keys(conflicts) -> list[str]:
    return [" | ".join((c.subject, *c.rules)) for c in conflicts]


def aro_differences(expect: dict, report: AroReport) -> list[Difference]:
    """What an aros case's ``[expect]`` says and the report does not, and the reverse."""
    troopers = {t.trooper: t for t in report.reactive}
    actual_of = {
        "legal": lambda t: [_option_key(o) for o in t.options if o.status == LEGAL],
        "invalid": lambda t: [_option_key(o) for o in t.options if o.status == INVALID],
        "triggers": lambda t: [trigger.kind for trigger in t.triggers],
        "declares_after": lambda t: [t.declares_after or 0],
        "may_delay": lambda t: [t.may_delay.rule if t.may_delay else ""],
        "pending": lambda t: [k for o in t.options for k in _option_pending(_option_key(o), o)],
    }
    diffs: list[Difference] = []
    for key in (*actual_of, "denied"):
        for trooper, expected in expect.get(key, {}).items():
            if trooper not in troopers:
                diffs.append(Difference(f"{key}.{trooper}", missing=("a reactive trooper",)))
            elif key != "denied":
                expected = expected if isinstance(expected, list) else [expected]
                diffs += _compare(f"{key}.{trooper}", expected, actual_of[key](troopers[trooper]))
            else:
                by_key = {_option_key(o): o for o in troopers[trooper].options}
                for option, rules in expected.items():
                    actual = [c.rule for c in by_key[option].denied_by] if option in by_key else ["<no such option>"]
                    diffs += _compare(f"denied.{trooper}.{option}", rules, actual)
    return diffs + _common_differences(expect, report)


def _common_differences(expect: dict, report) -> list[Difference]:
    diffs: list[Difference] = []
    for key in ("not_modelled", "unverified"):
        if key in expect:
            diffs += _compare(key, expect[key], [f"{item.kind}/{item.id}" for item in getattr(report, key)])
    if "conflicts" in expect:
        diffs += _compare("conflicts", expect["conflicts"], _conflict_keys(report.conflicts))
    facts = {key: list(c.facts) for key, c in zip(_conflict_keys(report.conflicts), report.conflicts)}
    for key, expected in expect.get("conflict_facts", {}).items():
        diffs += _compare(f"conflict_facts.{key}", expected, facts.get(key, ["<no such conflict>"]))
    if "revealed" in expect:
        diffs += _compare("revealed", expect["revealed"], [t for t, _ in report.revealed])
    breaches = {j.subject: j for j in report.breaches}
    for subject, rules in expect.get("breaches", {}).items():
        actual = [c.rule for c in breaches[subject].denied_by] if subject in breaches else ["<no breach>"]
        diffs += _compare(f"breaches.{subject}", rules, actual)
    return diffs


SLOTS = {"first": 1, "second": 2}


def _declaration_key(option) -> str:
    """``skill[/weapon][>target]``, prefixed ``actor:`` when several are activated."""
    key = _option_key(option)
    key = f"{key}>{option.target}" if option.target else key
    return f"{option.actor}:{key}" if option.actor else key


def declaration_differences(expect: dict, report: DeclarationsReport) -> list[Difference]:
    """What a declarations case's ``[expect]`` says and the report does not, and the reverse."""
    diffs: list[Difference] = []
    for name, slot in SLOTS.items():
        options = {_declaration_key(o): o for o in report.options if o.slot == slot}
        if name in expect.get("legal", {}):
            actual = [k for k, o in options.items() if o.status == LEGAL]
            diffs += _compare(f"legal.{name}", expect["legal"][name], actual)
        if name in expect.get("pending", {}):
            actual = [p for k, o in options.items() for p in _option_pending(k, o)]
            diffs += _compare(f"pending.{name}", expect["pending"][name], actual)
        for key, rules in expect.get("denied", {}).get(name, {}).items():
            actual = [c.rule for c in options[key].denied_by] if key in options else ["<no such option>"]
            diffs += _compare(f"denied.{name}.{key}", rules, actual)
    return diffs + _common_differences(expect, report)


def check_differences(expect: dict, report: CheckReport) -> list[Difference]:
    """What a check case's ``[expect]`` says and the report does not, and the reverse."""
    diffs: list[Difference] = []
    if "legal" in expect:
        diffs += _compare("legal", [expect["legal"]], [report.legal])
    judged = {j.subject: j for j in report.judgements}
    for subject, status in expect.get("status", {}).items():
        diffs += _compare(f"status.{subject}", [status], [judged[subject].status if subject in judged else "<not judged>"])
    for subject, rules in expect.get("verdicts", {}).items():
        denials = [c.rule for c in judged[subject].denied_by] if subject in judged else ["<not judged>"]
        diffs += _compare(f"verdicts.{subject}", rules, denials)
    for subject, facts in expect.get("pending", {}).items():
        waiting = [_pending_key(p) for p in judged[subject].pending] if subject in judged else ["<not judged>"]
        diffs += _compare(f"pending.{subject}", facts, waiting)
    for subject, pairs in expect.get("lifted", {}).items():
        lifted = [f"{e.permission.rule} > {e.denial.rule}" for e in judged[subject].lifted] if subject in judged else ["<not judged>"]
        diffs += _compare(f"lifted.{subject}", pairs, lifted)
    return diffs + _resolution_differences(expect.get("resolution", {}), report) + _common_differences(expect, report)


def _resolution_differences(expect: dict, report: CheckReport) -> list[Difference]:
    if not expect:
        return []
    res = report.resolution
    if res is None:
        return [Difference("resolution", missing=("a resolution (nothing rolls)",))]
    rolls = {r.key: r for r in res.rolls}
    states = {c.trooper: c for c in res.states}
    diffs: list[Difference] = []
    if not res.complete and any(k in expect for k in ("states", "wounds_lost", "saves", "outcomes", "clashes")):
        diffs.append(Difference("resolution", missing=("every die the resolution needs (some are not written)",)))

    def each(key, table, actual_of):
        for name, expected in expect.get(key, {}).items():
            if name not in table:
                diffs.append(Difference(f"resolution.{key}.{name}", missing=(f"no {name!r} here",)))
                continue
            actual = actual_of(table[name])
            if isinstance(expected, dict):  # hit_troopers: { trooper = hits }
                expected = [f"{t} {n}" for t, n in expected.items()]
            expected = expected if isinstance(expected, list) else [expected]
            diffs.extend(_compare(f"resolution.{key}.{name}", expected, actual if isinstance(actual, list) else [actual]))

    each("sv", rolls, lambda r: r.sv)
    each("mods", rolls, lambda r: [m.rule for m in r.mods])
    each("hits", rolls, lambda r: None if r.pending else r.hits)  # a pending roll has no hits yet
    each("hit_troopers", rolls, lambda r: [f"{t} {n}" for t, n in r.hit_troopers])
    each("wounds_lost", states, lambda c: c.wounds_lost)
    each("states", states, lambda c: list(c.after))
    outcomes: dict[str, list[str]] = {}
    for o in res.outcomes:
        outcomes.setdefault(o.subject, []).append(o.what)
    for name, expected in expect.get("outcomes", {}).items():
        diffs += _compare(f"resolution.outcomes.{name}", expected, outcomes.get(name, []))
    if "clashes" in expect:
        actual = [f"{c.subject} | {c.states[0][1]} | {c.states[1][1]}" for c in res.clashes]
        diffs += _compare("resolution.clashes", expect["clashes"], actual)
    for trooper, expected in expect.get("saves", {}).items():  # in order: one per hit
        actual = [s.result for s in res.saves if s.trooper == trooper]
        if actual != expected:
            diffs.append(Difference(f"resolution.saves.{trooper}", tuple(expected), tuple(actual)))
    for key, expected in expect.get("results", {}).items():  # in order: one per die
        actual = [d.result + (" cancelled" if d.cancelled else "") for d in rolls[key].dice] if key in rolls else []
        if actual != expected:
            diffs.append(Difference(f"resolution.results.{key}", tuple(expected), tuple(actual)))
    for subject, expected in expect.get("pending", {}).items():  # a roll key, "saves T", "states T"
        actual = [_pending_key(p) for p in res.pending if p.subject == subject]
        diffs += _compare(f"resolution.pending.{subject}", expected, actual)
    for trooper, expected in expect.get("unused", {}).items():  # the places of its dice not used
        diffs += _compare(f"resolution.unused.{trooper}", expected, [u.index for u in res.unused if u.trooper == trooper])
    if "face_to_face" in expect:
        pairs = {" | ".join(sorted((r.key, o))) for r in res.rolls for o in r.face_to_face_with}
        diffs += _compare("resolution.face_to_face", {" | ".join(sorted(p.split(" | "))) for p in expect["face_to_face"]}, pairs)
    if "rules" in expect:
        diffs += _compare("resolution.rules", expect["rules"], [c.rule for c in report.rules])
    return diffs


def error_differences(expect: dict, exc: RulingError) -> list[Difference]:
    """How the error raised differs from the kind, line and words an error case expects."""
    diffs = _compare("kind", [expect.get("kind")], [exc.kind])
    if "line" in expect:
        line = exc.location.line if isinstance(exc, LocatedError) else None
        diffs += _compare("line", [expect["line"]], [line])
    if "message" in expect and expect["message"] not in str(exc):
        diffs.append(Difference("message", missing=(expect["message"],)))
    return diffs


def raised(case: Case, exc: RulingError) -> CaseResult:
    """The result of a case whose position raised ``exc``: compared with what an error case
    expects of it, or, for any other case, the error itself as the difference."""
    if case.command == "error":
        return CaseResult(case, tuple(error_differences(case.expect, exc)), str(exc))
    return CaseResult(case, (Difference("error", unexpected=(str(exc),)),), str(exc))


def odds_row_key(row: OptionOdds) -> str:
    """``declared``, or ``TROOPER skill[/weapon[/ammunition]][>against]``."""
    if row.reactor is None:
        return "declared"
    key = "/".join(x for x in (row.skill, row.weapon, row.ammunition) if x)
    return f"{row.reactor} {key}" + (f">{row.against}" if row.against else "")


def _chance(text: str) -> Fraction | None:
    return None if text == NOT_PRICED else Fraction(text)


def _chance_text(p: Fraction | None, like: str) -> str:
    """``p`` as a case writes it: in the denominator of ``like`` when exact in it."""
    if p is None:
        return NOT_PRICED
    if like != NOT_PRICED and "/" in like:
        denominator = int(like.split("/")[1])
        if (p * denominator).denominator == 1:
            return f"{p * denominator}/{denominator}"
    return f"{p.numerator}/{p.denominator}"


def _chances(key: str, expected: dict[str, str], actual: Mapping[str, Fraction | None]) -> list[Difference]:
    """A table of chances compared both ways, by value: each item "name = chance"."""
    want = {(name, _chance(text)) for name, text in expected.items()}
    have = set(actual.items())
    if want == have:
        return []
    like = next(iter(expected.values()), "")
    missing = tuple(f"{name} = {expected[name]}" for name, _ in sorted(want - have, key=str))
    unexpected = tuple(f"{name} = {_chance_text(p, expected.get(name, like))}"
                       for name, p in sorted(have - want, key=str))
    return [Difference(key, missing, unexpected)]


def odds_differences(expect: dict, report: OddsReport) -> list[Difference]:
    """What an odds case's ``[expect]`` says and the report does not, and the reverse."""
    rows = {odds_row_key(r): r for r in (report.declared, *report.options)}
    diffs: list[Difference] = []
    if "rows" in expect:
        diffs += _compare("rows", expect["rows"], rows)
    for key in ("summary", "rolls", "end_states", "not_priced"):
        for name, expected in expect.get(key, {}).items():
            if name not in rows:
                diffs.append(Difference(f"{key}.{name}", missing=("a row of the odds",)))
            elif key == "summary":
                diffs += _chances(f"summary.{name}", expected, {c: getattr(rows[name], c) for c in expected})
            elif key == "not_priced":
                diffs += _compare(f"not_priced.{name}", expected, rows[name].not_priced)
            elif key == "rolls":
                rolls = {r.key: r for r in rows[name].rolls}
                for roll, outcomes in expected.items():
                    if roll not in rolls:
                        diffs.append(Difference(f"rolls.{name}.{roll}", missing=(f"a roll (rolls: {', '.join(rolls)})",)))
                        continue
                    actual = {f"{s.trooper or '-'} {s.successes} {s.criticals}": s.chance for s in rolls[roll].scores}
                    diffs += _chances(f"rolls.{name}.{roll}", outcomes, actual)
            else:
                for trooper, states in expected.items():
                    actual = {e.state: e.chance for e in rows[name].end_states if e.trooper == trooper}
                    diffs += _chances(f"end_states.{name}.{trooper}", states, actual)
    return diffs + _common_differences(expect, report)
