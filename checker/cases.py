"""Data-driven rule cases: one TOML file per case, expectations compared both ways.

A case file::

    source = "seed 003_ffd030bb113e9f57.txt p.30"   # required: where the rule is written
    description = "ZoC without LoF: only Change Facing or Reset"
    command = "aros"                                # aros | check | declarations | error
    position = '''
    edition n3
    ...
    '''

    [expect]
    # command = "aros": for each named trooper, the exact set of legal options
    # ("skill" or "skill/weapon" ids), its trigger kinds and declaration step
    legal.fus1 = ["change_facing", "reset"]
    # granted, but performed as Idle at Resolution (a rule checked then fails)
    invalid.fus1 = ["bs_attack/pistol"]
    triggers.fus1 = ["zoc"]
    declares_after.fus1 = 1           # 1, 2 or 0 for no ARO
    may_delay.fus1 = "marker_delay"   # the rule letting it hold its ARO, or "" for none
    # for named options, the exact set of rules denying them
    denied.fus1 = { "bs_attack/combi_rifle" = ["aro_lof", "zoc_no_lof"] }
    # command = "declarations": per slot (first, second), the exact set of legal
    # options as "skill[/weapon][>target]", and the rules denying named options
    legal.first = ["move", "bs_attack/combi_rifle>fus1"]
    denied.second = { "bs_attack/combi_rifle>fus2" = ["target_lof"] }
    # command = "check": overall verdict (legal = everything declared was granted) and,
    # per named subject, the rules denying it (or failing at Resolution); `status` pins
    # a subject's tier: legal, invalid, denied or conflict
    status = { "aro fus1" = "invalid" }
    legal = false
    verdicts = { "aro fus1" = ["aro_lof"], "order" = [] }
    lifted = { "aro yao" = ["total_reaction > aro_burst"] }  # denials an exception lifts
    # command = "check" with dice: the resolution, per roll key ("fus skill 2 -> alg",
    # "aro alg"): its SV, its MOD rules, its hits; Face to Face pairs; each trooper's
    # saving roll results in order, Wounds lost and states after
    resolution.sv = { "fus skill 2 -> alg" = 15 }
    resolution.mods = { "fus skill 2 -> alg" = ["range_mod"] }
    resolution.hits = { "fus skill 2 -> alg" = 2, "aro alg" = 0 }
    resolution.hit_troopers = { "alg skill 1 -> fus1" = { fus1 = 1, yj = 1 } }  # a template's hits
    resolution.face_to_face = ["aro alg | fus skill 2 -> alg"]
    resolution.saves = { alg = ["pass", "fail"] }
    resolution.wounds_lost = { alg = 1 }
    resolution.states = { alg = ["unconscious"] }
    resolution.results = { "guts alg" = ["fail"] }          # each die, "success cancelled" etc.
    resolution.outcomes = { alg = ["guts_prone_or_move"] }   # effects that are not states
    resolution.clashes = ["alg | wounds_states | position"]  # states that exclude each other
    # both: the exact set of conflicts as "subject | permission | denial", a breach of
    # the position as "position kaz2 | two_lieutenants", states that exclude each other
    # as "alg after the Order | rule1 | rule2"; and of markers revealed for the Order
    conflicts = []
    conflict_facts = { "position kaz2 | two_lieutenants" = ["lieutenant kaz1 ariadna", "lieutenant kaz2 ariadna"] }
    revealed = ["fiday"]
    # both: for named subjects "position <trooper>", the rules the position breaks
    breaches = { "position kaz2" = ["two_lieutenants"] }
    # command = "error": the kind of error and where
    kind = "position"
    line = 3

Every set is compared both ways: a missing item and an extra one both fail.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from . import analysis
from .errors import CaseFormatError, LocatedError, RulingError
from .render import aros_text, check_text, declarations_text
from .report import INVALID, LEGAL, AroReport, CheckReport, DeclarationsReport

COMMANDS = ("aros", "check", "declarations", "error")


@dataclass(frozen=True)
class Case:
    path: Path
    source: str
    description: str
    command: str
    position: str
    expect: dict


@dataclass(frozen=True)
class Difference:
    key: str
    missing: tuple = ()
    unexpected: tuple = ()

    def __str__(self) -> str:
        parts = [f"  {self.key}:"]
        if self.missing:
            parts.append(f"    missing:    {', '.join(map(str, self.missing))}")
        if self.unexpected:
            parts.append(f"    unexpected: {', '.join(map(str, self.unexpected))}")
        return "\n".join(parts)


@dataclass(frozen=True)
class CaseResult:
    case: Case
    differences: tuple[Difference, ...]
    output: str = field(default="", compare=False)

    @property
    def passed(self) -> bool:
        return not self.differences

    def describe(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.case.path}  ({self.case.source})"
        if self.passed:
            return head
        numbered = "\n".join(
            f"  {n:3} | {line}" for n, line in enumerate(self.case.position.splitlines(), 1)
        )
        return "\n".join([
            head,
            f"  {self.case.description}",
            "position:",
            numbered,
            "differences:",
            *map(str, self.differences),
            "output:",
            *("  " + line for line in self.output.splitlines()),
            f"reproduce: ruling verify {self.case.path} --verbose",
            "",
        ])

    def to_dict(self) -> dict:
        return {
            "case": str(self.case.path),
            "source": self.case.source,
            "passed": self.passed,
            "differences": [
                {"key": d.key, "missing": list(d.missing), "unexpected": list(d.unexpected)}
                for d in self.differences
            ],
        }


def collect(paths: list[Path]) -> list[Case]:
    """Every ``*.toml`` case under the given files and folders, in path order."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("*.toml")) if path.is_dir() else [path]
    return [load(f) for f in files]


def load(path: Path) -> Case:
    """Read one case file; raise CaseFormatError if it is malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CaseFormatError(f"{path}: {exc}") from None
    for key in ("source", "position", "expect"):
        if key not in data:
            raise CaseFormatError(f"{path}: missing required key {key!r}")
    command = data.get("command", "aros")
    if command not in COMMANDS:
        raise CaseFormatError(f"{path}: command must be one of {', '.join(COMMANDS)}, not {command!r}")
    return Case(path, data["source"], data.get("description", ""), command, data["position"], data["expect"])


def run(case: Case) -> CaseResult:
    """Run a case and compare its expectations with what ruling derives."""
    try:
        result = analysis.analyse(case.position, str(case.path))
    except RulingError as exc:
        if case.command == "error":
            return CaseResult(case, tuple(_error_differences(case.expect, exc)), str(exc))
        return CaseResult(case, (Difference("error", unexpected=(str(exc),)),), str(exc))
    if case.command == "error":
        return CaseResult(case, (Difference("error", missing=(case.expect.get("kind"),)),))
    if case.command == "aros":
        report = result.aros()
        return CaseResult(case, tuple(_aro_differences(case.expect, report)), aros_text(report))
    if case.command == "declarations":
        report = result.declarations()
        diffs = _declaration_differences(case.expect, report)
        return CaseResult(case, tuple(diffs), declarations_text(report))
    report = result.check()
    return CaseResult(case, tuple(_check_differences(case.expect, report)), check_text(report))


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


def _conflict_keys(conflicts) -> list[str]:
    return [" | ".join((c.subject, *c.rules)) for c in conflicts]


def _aro_differences(expect: dict, report: AroReport) -> list[Difference]:
    troopers = {t.trooper: t for t in report.reactive}
    diffs: list[Difference] = []
    for key in ("legal", "invalid", "triggers", "declares_after", "may_delay", "denied"):
        for trooper in expect.get(key, {}):
            if trooper not in troopers:
                diffs.append(Difference(f"{key}.{trooper}", missing=("a reactive trooper",)))
    for key, status in (("legal", LEGAL), ("invalid", INVALID)):
        for trooper, expected in expect.get(key, {}).items():
            if trooper in troopers:
                actual = [_option_key(o) for o in troopers[trooper].options if o.status == status]
                diffs += _compare(f"{key}.{trooper}", expected, actual)
    for trooper, kinds in expect.get("triggers", {}).items():
        if trooper in troopers:
            diffs += _compare(f"triggers.{trooper}", kinds, {t.kind for t in troopers[trooper].triggers})
    for trooper, step in expect.get("declares_after", {}).items():
        if trooper in troopers:
            diffs += _compare(f"declares_after.{trooper}", [step], [troopers[trooper].declares_after or 0])
    for trooper, rule in expect.get("may_delay", {}).items():
        if trooper in troopers:
            delay = troopers[trooper].may_delay
            diffs += _compare(f"may_delay.{trooper}", [rule], [delay.rule if delay else ""])
    for trooper, options in expect.get("denied", {}).items():
        if trooper not in troopers:
            continue
        by_key = {_option_key(o): o for o in troopers[trooper].options}
        for option, rules in options.items():
            actual = [c.rule for c in by_key[option].denied_by] if option in by_key else ["<no such option>"]
            diffs += _compare(f"denied.{trooper}.{option}", rules, actual)
    return diffs + _common_differences(expect, report)


def _common_differences(expect: dict, report) -> list[Difference]:
    diffs: list[Difference] = []
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


def _declaration_differences(expect: dict, report: DeclarationsReport) -> list[Difference]:
    diffs: list[Difference] = []
    for name, slot in SLOTS.items():
        options = {_declaration_key(o): o for o in report.options if o.slot == slot}
        if name in expect.get("legal", {}):
            actual = [k for k, o in options.items() if o.status == LEGAL]
            diffs += _compare(f"legal.{name}", expect["legal"][name], actual)
        for key, rules in expect.get("denied", {}).get(name, {}).items():
            actual = [c.rule for c in options[key].denied_by] if key in options else ["<no such option>"]
            diffs += _compare(f"denied.{name}.{key}", rules, actual)
    return diffs + _common_differences(expect, report)


def _check_differences(expect: dict, report: CheckReport) -> list[Difference]:
    diffs: list[Difference] = []
    if "legal" in expect:
        diffs += _compare("legal", [expect["legal"]], [report.legal])
    judged = {j.subject: j for j in report.judgements}
    for subject, status in expect.get("status", {}).items():
        actual = judged[subject].status if subject in judged else "<not judged>"
        diffs += _compare(f"status.{subject}", [status], [actual])
    for subject, rules in expect.get("verdicts", {}).items():
        actual = [c.rule for c in judged[subject].denied_by] if subject in judged else ["<not judged>"]
        diffs += _compare(f"verdicts.{subject}", rules, actual)
    for subject, pairs in expect.get("lifted", {}).items():
        actual = [f"{e.permission.rule} > {e.denial.rule}" for e in judged[subject].lifted] if subject in judged else ["<not judged>"]
        diffs += _compare(f"lifted.{subject}", pairs, actual)
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
    each("hits", rolls, lambda r: r.hits)
    each("hit_troopers", rolls, lambda r: [f"{t} {n}" for t, n in r.hit_troopers])
    each("wounds_lost", states, lambda c: c.wounds_lost)
    each("states", states, lambda c: list(c.after))
    each("results", rolls, lambda r: [d.result + (" cancelled" if d.cancelled else "") for d in r.dice])
    outcomes: dict[str, list[str]] = {}
    for o in res.outcomes:
        outcomes.setdefault(o.subject, []).append(o.what)
    for name, expected in expect.get("outcomes", {}).items():
        diffs += _compare(f"resolution.outcomes.{name}", expected, outcomes.get(name, []))
    if "clashes" in expect:
        actual = [f"{c.subject} | {c.states[0][1]} | {c.states[1][1]}" for c in res.clashes]
        diffs += _compare("resolution.clashes", expect["clashes"], actual)
    for trooper, expected in expect.get("saves", {}).items():
        actual = [s.result for s in res.saves if s.trooper == trooper]
        if actual != list(expected):
            diffs.append(Difference(f"resolution.saves.{trooper}", tuple(expected), tuple(actual)))
    if "face_to_face" in expect:
        pairs = {" | ".join(sorted((r.key, o))) for r in res.rolls for o in r.face_to_face_with}
        diffs += _compare("resolution.face_to_face", {" | ".join(sorted(p.split(" | "))) for p in expect["face_to_face"]}, pairs)
    if "rules" in expect:
        diffs += _compare("resolution.rules", expect["rules"], [c.rule for c in report.rules])
    return diffs


def _error_differences(expect: dict, exc: RulingError) -> list[Difference]:
    diffs = _compare("kind", [expect.get("kind")], [exc.kind])
    if "line" in expect:
        line = exc.location.line if isinstance(exc, LocatedError) else None
        diffs += _compare("line", [expect["line"]], [line])
    if "message" in expect and expect["message"] not in str(exc):
        diffs.append(Difference("message", missing=(expect["message"],)))
    return diffs
