"""Data-driven rule cases: one TOML file per case, expectations compared both ways.

A case file::

    source = "seed 003_ffd030bb113e9f57.txt p.30"   # required: where the rule is written
    description = "ZoC without LoF: only Change Facing or Reset"
    command = "aros"                                # aros | check | declarations | error | odds
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
    # the options that may be declared but wait on a fact the position does not write
    # (a rule checked at Resolution, or a MOD, needs it): "option: missing id...",
    # the exact set for the trooper; [] for none
    pending.fus1 = ["bs_attack/combi_rifle: distance fus1 hellcat", "engage: distance fus1 hellcat"]
    # command = "declarations": per slot (first, second), the exact set of legal
    # options as "skill[/weapon][>target]", and the rules denying named options
    legal.first = ["move", "bs_attack/combi_rifle>fus1"]
    denied.second = { "bs_attack/combi_rifle>fus2" = ["target_lof"] }
    pending.first = ["bs_attack/combi_rifle>fus1: distance hellcat fus1"]  # as for aros
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
    resolution.results = { "guts alg" = ["fail"] }  # each die in order: success, critical, fail (+ " cancelled"),
                                                    # or pending (its Success Value waits on a fact)
    # per subject (a roll key, "saves alg", "states alg"), the exact set of facts it
    # waits on, as "missing id...": distance A B, burst_share ACTOR STEP TARGET,
    # attribute TROOPER ATTR, ammunition ROLLER WEAPON; [] for none. A pending roll has
    # no hits to expect.
    resolution.pending = { "fus skill 2 -> alg" = ["distance fus alg"], "saves alg" = ["attribute alg arm"] }
    # per trooper, the places in its dice line of the dice listed as not used (written
    # for a skill a rule denies or performs as Idle); [] for none
    resolution.unused = { bob = [1] }
    resolution.outcomes = { alg = ["guts_prone_or_move"] }   # effects that are not states
    resolution.clashes = ["alg | wounds_states | position"]  # states that exclude each other
    resolution.rules = ["range_mod", "saving_roll"]  # every rule the resolution applied
    # aros, check, declarations, odds: the exact set of conflicts as "subject | permission |
    # denial", a breach of the position as "position kaz2 | two_lieutenants", states
    # that exclude each other as "alg after the Order | rule1 | rule2"; the facts behind
    # a conflict
    conflicts = []
    conflict_facts = { "position kaz2 | two_lieutenants" = ["lieutenant kaz1 ariadna", "lieutenant kaz2 ariadna"] }
    # aros and check: the markers revealed for the whole Order
    revealed = ["fiday"]
    # command = "check" on a sequence of Orders (docs/turn.md): legal is every judged
    # Order's, judged how many were judged, and each Order's check expectations (the keys
    # above) stand under its number; not_judged = true for an Order left unjudged; a
    # `step N end` (the States Phase) writes its changes as "trooper gains|loses id | rule"
    judged = 3
    orders.2.verdicts = { "order" = ["order_pool_empty"] }
    orders.3.not_judged = true
    orders.4.states_phase = ["a loses stunned | stunned_states_phase"]
    # aros, check, declarations: the exact set of what the verdict lists under Not
    # modelled, as "kind/id" with the catalogue's kind; [] for none
    not_modelled = ["special_skills/sat_lock", "states/stunned"]
    # aros, check, declarations: the same, of what it lists under Unverified values
    # (modelled from values no stored source confirms)
    unverified = ["weapons/grenades"]
    # aros, check, declarations, odds: for subjects "position <trooper>", the rules it breaks
    breaches = { "position kaz2" = ["two_lieutenants"] }
    # command = "odds" (``ruling odds``; dice in the position are ignored): the exact
    # set of rows, "declared" (the Order as declared) and "TROOPER OPTION" for each
    # legal ARO, the option named as above, its ammunition after the weapon when it has
    # several ("fus1 bs_attack/multi_rifle/ap"). Every chance is an exact fraction
    # "numerator/denominator" in any denominator ("2234385/64000000" = "446877/12800000").
    rows = ["declared", "fus1 bs_attack/combi_rifle", "fus1 dodge"]
    # per row, the named summary columns; "n/a" for a chance the odds leave out
    summary.declared = { active_down = "1/5", reactor_down = "3/8", nothing = "9/20" }
    # per row and roll key: the exact distribution of what its dice leave standing, as
    # "TROOPER SUCCESSES CRITICALS" (the trooper they count against, "-" for none)
    rolls."fus1 dodge" = { "alg skill 1 -> fus1" = { "fus1 0 0" = "3/5", "fus1 1 0" = "2/5" } }
    # per row and trooper: the exact distribution of its end states (unharmed, wounded,
    # nwi, dogged, unconscious, shasvastii_embryo, unconscious_level_2, dead)
    end_states.declared = { fus1 = { unharmed = "3/5", dead = "2/5" } }
    # per row: the exact set of what the odds leave out, as ``ruling odds`` words it
    not_priced.declared = []
    # command = "error": the kind of error (required: notation, position, case,
    # rule-base, error), its line, and words its message contains
    kind = "position"
    line = 3
    message = "unknown trooper id 'fus9'"

Every set is compared both ways: a missing item and an extra one both fail; saves and
die results are compared in order; a table of chances (a distribution) is a set of
"name = chance" items, compared by value.

Only these keys are known, each for the commands named above, with the value types
shown (a list of strings, a whole number, true or false, a table per trooper or
subject; ``checker/infinity/case_schema.py`` holds the schema). A case with any other key (a
misspelt ``legl.fus1``, ``verdicts`` in an aros case), a value of another type or an
empty ``[expect]`` is malformed: ``ruling verify`` exits 2 naming the file, line and
key (and the closest known key), and pytest reports a collection error.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..engine.cases import Case, CaseResult, Difference, case_files, read
from ..engine.errors import CaseFormatError, RulingError
from ..engine.game import named_game
from . import (
    GAME_NAME,
    analysis,
    case_schema,
    case_spec,
    notation,
    odds,
    sequence_cases,
)
from .case_compare import (
    aro_differences,
    check_differences,
    declaration_differences,
    odds_differences,
    raised,
)
from .odds_render import odds_text
from .render import aros_text, check_text, declarations_text


def collect(paths: list[Path]) -> list[Case]:
    """Every Infinity case under the given files and folders, in path order: the case
    files whose position names no other game (``engine.game.named_game``).

    Raises
    ------
    CaseFormatError
        If a case is malformed, or a folder holds no case (it would pass, testing nothing).
    """
    found = []
    for path in case_files(paths):
        data, text = read(path)
        if named_game(str(data.get("position", ""))) in (None, GAME_NAME):
            found.append(from_table(path, data, text))
    return found


def load(path: Path) -> Case:
    """Read one Infinity case file (``from_table``)."""
    return from_table(path, *read(path))


def from_table(path: Path, data: dict, text: str) -> Case:
    """An Infinity case from its file's table ``data`` and ``text`` (``engine.cases.read``).

    Raises
    ------
    CaseFormatError
        If a key is unknown, missing or of the wrong type for the case's command
        (``checker/infinity/case_schema.py``): one located line per problem, naming the
        key and, for a misspelt one, the closest known key.
    """
    found = case_schema.problems(data)
    if found:
        command = data.get("command", "aros")
        raise CaseFormatError("\n".join(_located(str(path), text, command, p) for p in found))
    return Case(path, data["source"], data.get("description", ""), data.get("command", "aros"),
                data["position"], data["expect"])


def _located(file: str, text: str, command: object, problem: case_spec.Problem) -> str:
    """``file:line: error: ...`` naming the key as the file writes it, the line being the
    first that writes the key (none for a missing key)."""
    keys = [k for k in problem.path if not k.startswith("[")]
    line = _line_of(text, keys)
    head = f"{file}{f':{line}' if line else ''}: error:"
    expect = problem.path[:1] == ("expect",) and len(problem.path) > 1
    key = _dotted(problem.path[1:] if expect else problem.path)
    where = " in [expect]" if expect else ""
    if not problem.unknown:
        return f"{head} {key!r}{where} {problem.message}"
    where += f" of {'an' if str(command)[0] in 'aeo' else 'a'} {command} case" if expect else " at the top of the case"
    if problem.close:
        close = _dotted((*problem.path[1 if expect else 0:-1], problem.close))
        return f"{head} unknown key {key!r}{where}; did you mean {close!r}?"
    return f"{head} unknown key {key!r}{where}; {problem.hint}"


def _line_of(text: str, keys: list[str]) -> int | None:
    """The line writing the innermost key of ``keys`` (bare, quoted or in a header),
    searching from the line of the key before it; None if it is not written (missing)."""
    lines, start, found = text.splitlines(), 0, None
    for key in keys:
        written = re.compile(rf'(^|[\s.{{\[,])("{re.escape(key)}"|{re.escape(key)})\s*[.=\]]')
        hit = next((n for n in range(start, len(lines)) if written.search(lines[n].split("#")[0])), None)
        if hit is None:
            return found
        start, found = hit, hit + 1
    return found


def _dotted(path: case_spec.KeyPath) -> str:
    """A key path as TOML writes it: ``denied.fus1."bs_attack/pistol"``; list items as ``[n]``."""
    text = ""
    for key in path:
        if key.startswith("[") and key.endswith("]") and key[1:-1].isdigit():
            text += key
        else:
            text += ("." if text else "") + (key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"')
    return text


def run(case: Case, prepared: analysis.Prepared | None = None) -> CaseResult:
    """Run a case and compare its expectations with what ruling derives (its position
    already read by ``analysis.prepare`` when ``prepared`` is given)."""
    if case.command == "odds":
        try:
            priced = odds.odds(case.position, str(case.path))
        except RulingError as exc:
            return CaseResult(case, (Difference("error", unexpected=(str(exc),)),), str(exc))
        return CaseResult(case, tuple(odds_differences(case.expect, priced)), odds_text(priced))
    if notation.is_sequence(case.position):
        return sequence_cases.run(case)
    try:
        result = analysis.analyse(case.position, str(case.path), prepared)
    except RulingError as exc:
        return raised(case, exc)
    if case.command == "error":
        return CaseResult(case, (Difference("error", missing=(case.expect.get("kind"),)),))
    if case.command == "aros":
        aros = result.aros()
        return CaseResult(case, tuple(aro_differences(case.expect, aros)), aros_text(aros))
    if case.command == "declarations":
        declarations = result.declarations()
        diffs = declaration_differences(case.expect, declarations)
        return CaseResult(case, tuple(diffs), declarations_text(declarations))
    check = result.check()
    return CaseResult(case, tuple(check_differences(case.expect, check)), check_text(check))
