"""The odds of an Order as text a player reads, and as JSON: every chance as an exact
fraction ("numerator/denominator") beside its float; text shows percentages with one
decimal."""

from __future__ import annotations

from dataclasses import asdict
from fractions import Fraction

from .odds import OddsReport, OptionOdds
from .odds_rolls import RollOdds
from .render import check_by_hand, heading
from .report import LEGAL, AroReport

STATE_WORDS = {  # in the order a trooper's end states are listed
    "unharmed": "unharmed", "wounded": "wounded", "nwi": "NWI token", "dogged": "Dogged token",
    "unconscious": "Unconscious", "shasvastii_embryo": "Shasvastii-Embryo",
    "unconscious_level_2": "Unconscious (2nd level)", "dead": "Dead",
}
STATE_ORDER = {s: i for i, s in enumerate(STATE_WORDS)}


def percent(p: Fraction | None) -> str:
    """``Fraction(1, 3)`` -> ``'33.3%'``; None (not priced) -> ``'n/a'``."""
    return "n/a" if p is None else f"{float(p) * 100:.1f}%"


def chance(p: Fraction | None) -> dict | None:
    """An exact chance for JSON: its fraction as text and its float."""
    if p is None:
        return None
    return {"fraction": f"{p.numerator}/{p.denominator}", "value": float(p)}


def odds_dict(r: OddsReport) -> dict:
    """The report as plain data: every Fraction as :func:`chance`."""
    return {
        "edition": r.edition,
        "activated": list(r.activated),
        "summary": [_summary_row(o) for o in (r.declared, *r.options)],
        "declared": _option_dict(r.declared),
        "options": [_option_dict(o) for o in r.options],
        "conflicts": [asdict(c) for c in r.conflicts],
        "breaches": [asdict(b) for b in r.breaches],
        "left_out": list(r.left_out),
        "not_modelled": [asdict(i) for i in r.not_modelled],
        "unverified": [asdict(i) for i in r.unverified],
    }


def rows_by_option(r: OddsReport) -> dict[tuple, list[OptionOdds]]:
    """The ARO rows by (reacting trooper, skill, weapon, against): one per ammunition
    when the weapon has several, as the ARO list names an option."""
    found: dict[tuple, list[OptionOdds]] = {}
    for o in r.options:
        found.setdefault((o.reactor, o.skill, o.weapon, o.against), []).append(o)
    return found


def aros_odds_dict(aros: AroReport, r: OddsReport) -> dict:
    """``ruling aros --odds`` as plain data: the ARO report, each legal option with
    ``odds``, its summary rows (one per ammunition), every other option with null."""
    data = aros.to_dict()
    priced = rows_by_option(r)
    for reactive, entry in zip(aros.reactive, data["reactive"], strict=True):
        for option, shown in zip(reactive.options, entry["options"], strict=True):
            rows = priced.get((reactive.trooper, option.skill, option.weapon, option.against), [])
            shown["odds"] = [_summary_row(o) | {"ammunition": o.ammunition, "not_priced": list(o.not_priced)}
                             for o in rows] if option.status == LEGAL else None
    return data


def _summary_row(o: OptionOdds) -> dict:
    return {"reactor": o.reactor, "option": o.label, "active_down": chance(o.active_down),
            "reactor_down": chance(o.reactor_down), "nothing": chance(o.nothing), "priced": not o.not_priced}


def _option_dict(o: OptionOdds) -> dict:
    return {
        "reactor": o.reactor, "option": o.label, "skill": o.skill, "weapon": o.weapon, "ammunition": o.ammunition,
        "against": o.against,
        "active_down": chance(o.active_down), "reactor_down": chance(o.reactor_down), "nothing": chance(o.nothing),
        "rolls": [_roll_dict(r) for r in o.rolls],
        "end_states": [{"trooper": e.trooper, "state": e.state, "chance": chance(e.chance)} for e in o.end_states],
        "not_priced": list(o.not_priced),
    }


def _roll_dict(r: RollOdds) -> dict:
    return {
        "key": r.key, "label": r.label, "roller": r.roller, "skill": r.skill, "weapon": r.weapon,
        "ammunition": r.ammunition, "attack": r.attack, "sv": r.sv, "dice": r.dice,
        **({"extra_dice": r.extra} if r.extra else {}), "kind": r.kind,
        "against": list(r.against),
        "scores": [{"against": s.trooper, "successes": s.successes, "criticals": s.criticals,
                    "chance": chance(s.chance)} for s in r.scores],
    }


def odds_text(r: OddsReport) -> str:
    """The summary table (best first for the reactive player), then each option's rolls
    and end states, and what the numbers leave out."""
    lines = [heading(r, ""), "",
             "Summary, best first for the reactive player: the chance the activated trooper ends",
             "Unconscious or worse, the chance the reacting trooper does (as declared: any reactive",
             "trooper), and the chance no trooper loses a Wound or gains a state."]
    rows = [("reacting", "option", "active down", "reactor down", "nothing")]
    rows += [(o.reactor or "(as declared)", o.label, *_numbers(o)) for o in (r.declared, *r.options)]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [c.rjust(widths[i + 2]) for i, c in enumerate(row[2:])]
        lines.append("  " + "  ".join(cells).rstrip())
    for o in (r.declared, *r.options):
        lines += ["", "As declared:" if o.reactor is None else f"{o.reactor}: {o.label}"]
        lines += ["  " + line for line in _detail(o)]
    if r.conflicts or r.breaches:
        subjects = [c.subject for c in r.conflicts] + [b.subject for b in r.breaches]
        lines += ["", f"Conflicts (ruling aros names the rules): {', '.join(subjects)}"]
    lines += ["", "Not in these numbers (ruling check resolves them): " + "; ".join(r.left_out) + "."]
    # what the numbers may miss, or take from unverified values: the verdicts' closing sections
    lines += check_by_hand(r)
    return "\n".join(lines) + "\n"


def _numbers(o: OptionOdds) -> tuple[str, str, str]:
    return percent(o.active_down), percent(o.reactor_down), percent(o.nothing)


def _detail(o: OptionOdds) -> list[str]:
    lines = []
    for roll in o.rolls:
        lines += _roll_lines(roll)
    by_trooper: dict[str, list] = {}
    for e in o.end_states:
        by_trooper.setdefault(e.trooper, []).append(e)
    for trooper, states in by_trooper.items():
        states.sort(key=lambda e: STATE_ORDER.get(e.state, len(STATE_ORDER)))
        lines.append(f"{trooper} ends: " + ", ".join(f"{STATE_WORDS.get(e.state, e.state)} {percent(e.chance)}"
                                                      for e in states))
    lines += [f"not priced: {why}" for why in o.not_priced]
    return lines


def _roll_lines(r: RollOdds) -> list[str]:
    if r.kind == "template":
        return [f"{r.key}: {r.label}, Direct Template, no roll"] + [
            f"  hits {s.trooper}: {s.successes} {percent(s.chance)}" for s in r.scores]
    if r.kind == "waived":
        return [f"{r.key}: {r.label}, no roll: succeeds automatically"]
    sv = "?" if r.sv is None else str(r.sv)
    how = f"Face to Face with {', '.join(r.against)}" if r.kind == "face_to_face" else "Normal Roll"
    extra = f" (+{r.extra} SD: {r.dice + r.extra} rolled, the best {r.dice} kept)" if r.extra else ""
    lines = [f"{r.key}: {r.label}, SV {sv}, {r.dice} {'die' if r.dice == 1 else 'dice'}{extra}, {how}"]
    if not r.attack:
        passed = sum((s.chance for s in r.scores if s.successes + s.criticals), Fraction(0))
        crit = sum((s.chance for s in r.scores if s.criticals), Fraction(0))
        return lines + [f"  succeeds {percent(passed)} (a Critical {percent(crit)})"] if r.scores else lines
    by_target: dict[str | None, list[str]] = {}
    for s in r.scores:
        parts = [f"{s.successes} hit{'s' if s.successes != 1 else ''}"] if s.successes else []
        parts += [f"{s.criticals} Critical{'s' if s.criticals != 1 else ''}"] if s.criticals else []
        by_target.setdefault(s.trooper, []).append(f"{' + '.join(parts) or 'none'} {percent(s.chance)}")
    for target, texts in by_target.items():
        lines.append(f"  hits {target}: " + ", ".join(texts))
    return lines
