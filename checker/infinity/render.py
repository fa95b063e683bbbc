"""Render verdict objects as text for a person or JSON for a program. No I/O here."""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING

from ..engine.gc_hold import gc_held
from .report import (
    CONFLICT,
    DENIED,
    INVALID,
    LEGAL,
    AroReport,
    CheckReport,
    Citation,
    Conflict,
    DeclarationsReport,
)

if TYPE_CHECKING:  # the odds modules load only for `aros --odds` (start-up of every command)
    from .odds import OddsReport, OptionOdds

TRIGGER_WORDS = {
    "lof": "LoF", "zoc": "ZoC", "contact": "ZoC (base contact)", "template": "affected by a template", "template_cc": "in a Close Combat under a template", "hacking_area": "Hacking Area",
    "sixth_sense": "Sixth Sense (attacked)", "stealth_blind": "ZoC or Hacking Area (Stealth not effective)",
}
STEP_WORDS = {1: "after the first skill", 2: "after the second skill"}
_RULE = attrgetter("rule")


def cite(c: Citation) -> str:
    """``[aro_skill] N3 seed 003 p.30: Using an ARO, ...``"""
    when = " (checked at Resolution)" if c.when == "resolution" else ""
    return f"[{c.rule}] {c.edition.upper()} {c.source}{when}: {c.text}"


def heading(r, none: str) -> str:
    """``Edition N5; activated trooper: x`` or, for a Coordinated Order, every
    participant with the Spearhead marked (for a Fireteam Order, its Fireteam Leader; for
    a Controller and its Peripherals, each of them)."""
    if getattr(r, "deployments", ()):
        where = ", ".join(f"{t} in {zone.replace('_', ' ')}" for t, zone in r.deployments)
        return f"Edition {r.edition.upper()}; deployment: {where}"
    if r.fireteam_leader is not None:
        names = ", ".join(a + (" (Fireteam Leader)" if a == r.fireteam_leader else "") for a in r.activated)
        return f"Edition {r.edition.upper()}; activated troopers (Fireteam Order): {names}"
    if len(r.activated) > 1:
        names = ", ".join(a + (" (Spearhead)" if a == r.spearhead else "") for a in r.activated)
        # no Spearhead: a Controller and its Peripherals (or a Coordinated Order lacking one)
        kind = " (Coordinated Order)" if r.spearhead is not None else ""
        return f"Edition {r.edition.upper()}; activated troopers{kind}: {names}"
    return f"Edition {r.edition.upper()}; activated trooper: {r.activated[0] if r.activated else none}"


@gc_held()
def aros_text(r: AroReport, show_denied: bool = True, odds: OddsReport | None = None) -> str:
    """Per reactive trooper: why it may react, its legal AROs, then the denied options
    grouped by the rules that deny them; each rule's citation is printed once, at the end.
    With ``odds`` (``aros --odds``), each legal ARO on a line of its own with its chances."""
    lines = [heading(r, "(none declared)")]
    if not r.activated:
        lines.append("No Order is declared, so no trooper may react. Add 'order <trooper>' "
                     "(a 'deploy' line is judged by 'ruling check').")
    priced = None
    if odds is not None:
        from .odds_render import rows_by_option

        priced = rows_by_option(odds)
    if priced is not None:
        lines += ODDS_HEAD
    cited: dict[str, Citation] = {}
    lines += _breach_lines(r.breaches, cited)
    for trooper, c in r.revealed:
        cited[c.rule] = c
        lines.append(f"{trooper} reveals itself: a figure, not a marker, for the whole Order [{c.rule}]")
    for t in r.reactive:
        lines.append("")
        lines.append(f"{t.trooper}: {_eligibility(t)}")
        lines += _legal_lines(t.options, cited, None if priced is None else (t.trooper, priced))
        if show_denied:
            lines += _denied_lines(t.options, cited)
        cited.update({g.rule.rule: g.rule for g in t.triggers if g.rule})
        if t.may_delay:
            cited[t.may_delay.rule] = t.may_delay
    lines += _conflicts_section(r.conflicts)
    if cited:
        lines += ["", "Rules:"] + [f"  {cite(c)}" for _, c in sorted(cited.items())]
    lines += check_by_hand(r)
    return "\n".join(lines) + "\n"


def _breach_lines(breaches, cited: dict[str, Citation]) -> list[str]:
    """One line per breach of the position itself; records the rules cited."""
    lines = []
    for j in breaches:
        cited.update({c.rule: c for c in j.denied_by})
        lines.append(f"The position breaks the rules: {j.subject}: " + " ".join(f"[{c.rule}]" for c in j.denied_by))
    return lines


def _labels(options) -> str:
    """Option labels, one per skill and weapon: the activated troopers an ARO may be
    against (Coordinated Order) are joined, ``Dodge against a1/a2``."""
    against: dict[str, list[str]] = {}
    for o in options:
        base = replace(o, against=None).label if getattr(o, "against", None) else o.label
        against.setdefault(base, [])
        if getattr(o, "against", None):
            against[base].append(o.against)
    return ", ".join(f"{b} against {'/'.join(a)}" if a else b for b, a in against.items())


def _denied_lines(options, cited: dict[str, Citation]) -> list[str]:
    """Denied options grouped by the rules that deny them; records the rules cited."""
    groups: dict[tuple[str, ...], list] = {}
    for o in options:
        if o.status == DENIED:
            rules = tuple(map(_RULE, o.denied_by))
            groups.setdefault(rules, []).append(o)
            cited.update(zip(rules, o.denied_by))
    lines = ["  not allowed:"] if groups else []
    for rules, group in sorted(groups.items()):
        lines.append(f"    {_labels(group)}: " + " ".join(f"[{x}]" for x in rules))
    return lines


# What the odds columns of ``aros --odds`` mean (the summary of ``ruling odds``).
ODDS_HEAD = [
    "Odds of each legal ARO, as if the trooper declared it (every other trooper as written; dice",
    "ignored): the chance the activated trooper ends Unconscious or worse (active down), the chance",
    "the reacting trooper does (reactor down), the chance no trooper loses a Wound or gains a state.",
]
ODDS_COLUMNS = ("active down", "reactor down", "nothing")


def _legal_lines(options, cited: dict[str, Citation], priced=None) -> list[str]:
    """The legal options, then those void at Resolution, exceptions, pending facts and
    conflicts. ``priced``: (the reacting trooper, :func:`rows_by_option`) to list each
    legal option on a line of its own with its odds."""
    legal = [o for o in options if o.status == LEGAL]
    lines = _odds_table(legal, *priced) if priced and legal else ["  legal: " + (_labels(legal) if legal else "none")]
    invalid = [o for o in options if o.status == INVALID]
    if invalid:
        lines.append("  granted, but void at Resolution (performed as Idle: Disposable use spent, marker revealed):")
        for o in invalid:
            cited.update({c.rule: c for c in o.denied_by})
            lines.append(f"    {o.label}: " + " ".join(f"[{c.rule}]" for c in o.denied_by))
    for o in legal:
        for e in o.lifted:
            cited[e.permission.rule] = e.permission
            lines.append(f"    {o.label}: allowed by [{e.permission.rule}] over [{e.denial.rule}]")
    lines += _option_pending_lines([o for o in options if o.status in (LEGAL, INVALID)], cited)
    for o in options:
        if o.status == CONFLICT:
            lines.append(f"  conflict: {o.label}")
            lines += [f"    {line}" for c in o.conflicts for line in conflict_lines(c)]
    return lines


def _odds_table(legal, trooper: str, priced: dict[tuple, list[OptionOdds]]) -> list[str]:
    """``legal:`` then one line per legal option (per ammunition, when its weapon has
    several) with its chances, and what a chance left out (n/a) waits on."""
    from .odds_render import percent

    rows: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    for o in legal:
        found = priced.get((trooper, o.skill, o.weapon, o.against), [])
        rows += [(r.label, (percent(r.active_down), percent(r.reactor_down), percent(r.nothing)), r.not_priced)
                 for r in found] or [(o.label, ("n/a",) * 3, ("not priced",))]
    width = max(len(label) for label, _, _ in rows)
    columns = [max(len(head), *(len(c[i]) for _, c, _ in rows)) for i, head in enumerate(ODDS_COLUMNS)]
    lines = ["  " + "legal:".ljust(width + 2) + "  " + "  ".join(h.rjust(w) for h, w in zip(ODDS_COLUMNS, columns))]
    for label, chances, why in rows:
        lines.append("    " + label.ljust(width) + "  " + "  ".join(c.rjust(w) for c, w in zip(chances, columns)))
        lines += [f"      not priced: {w}" for w in why]
    return lines


# What a pending fact leaves unchecked, by the rule waiting on it.
PENDING_WORDS = {"out_of_range": "range", "range_mod": "range", "engage_range": "2-inch radius",
                 "fireteam_level_3": "Fireteam Bonus", "fireteam_level_4": "Fireteam Bonus",
                 "sixth_sense_arc": "LoF through the 360-degree arc", "retreat_check": "Retreat! count"}


def _option_pending_lines(options, cited: dict[str, Citation]) -> list[str]:
    """The options that may be declared but whose Resolution needs a fact the position
    does not write, grouped by that fact: ``BS Attack (Combi Rifle), BS Attack (Pistol):
    range not checked: write 'distance fus1 hellcat N' [out_of_range] [range_mod]``."""
    groups: dict[tuple[str, tuple[Citation, ...]], list] = {}
    for o in options:
        for p in o.pending:
            groups.setdefault((p.write, p.rules), []).append(o)
    if not groups:
        return []
    lines = ["  pending (may be declared; write what its Resolution needs):"]
    for (write, rules), group in groups.items():
        cited.update({c.rule: c for c in rules})
        what = " and ".join(dict.fromkeys(PENDING_WORDS.get(c.rule, c.rule.replace("_", " ")) for c in rules))
        lines.append(f"    {_labels(group)}: {what} not checked: write '{write}' " + " ".join(f"[{c.rule}]" for c in rules))
    return lines


KIND_WORDS = {
    "basic_short": "Basic Short Skill", "short": "Short Skill", "long": "Long Skill",
    "short_movement": "Short Movement Skill", "entire": "Entire Order", "automatic": "Automatic Skill",
}


@gc_held()
def declarations_text(r: DeclarationsReport, show_denied: bool = True) -> str:
    """The activated trooper's options, slot by slot, then the rules cited."""
    if not r.activated:
        return "\n".join([(f"Edition {r.edition.upper()}: no activated trooper. Add 'order <trooper>' "
                           "(a 'deploy' line is judged by 'ruling check')."),
                          *check_by_hand(r)]) + "\n"
    combos = [f"{KIND_WORDS.get(a, a)} + {KIND_WORDS.get(b, b)}" for a, b in r.combinations]
    combos += [f"one {KIND_WORDS.get(k, k)}" for k in r.single_kinds]
    lines = [heading(r, ""),
             "An Order is " + ", or ".join(combos) + " (in that order)."]
    cited: dict[str, Citation] = {}
    lines += _breach_lines(r.breaches, cited)
    for slot, title in ((1, "First skill, or a whole-Order skill"), (2, "Second skill")):
        options = [o for o in r.options if o.slot == slot]
        lines += ["", f"{title}:"]
        for kind in sorted({o.kind for o in options}):
            lines.append(f" {KIND_WORDS.get(kind, kind)}:")
            of_kind = [o for o in options if o.kind == kind]
            lines += [" " + line for line in _legal_lines(of_kind, cited)]
            if show_denied:
                lines += [" " + line for line in _denied_lines(of_kind, cited)]
    lines += _conflicts_section(r.conflicts)
    if cited:
        lines += ["", "Rules:"] + [f"  {cite(c)}" for _, c in sorted(cited.items())]
    lines += check_by_hand(r)
    return "\n".join(lines) + "\n"


def _eligibility(t) -> str:
    if t.triggers:
        why = ", ".join(
            f"{TRIGGER_WORDS.get(g.kind, g.kind)} {STEP_WORDS[g.step]}" for g in t.triggers
        )
        rules = sorted({g.rule.rule for g in t.triggers if g.rule})
        where = " ".join(f"[{x}]" for x in rules)
        if not any(o.status == LEGAL for o in t.options):
            return f"triggered ({why}) {where}, but no ARO it could declare is allowed"
        when = STEP_WORDS.get(t.declares_after, "")
        if t.may_delay and t.declares_after == 1:
            when += f", or may delay to the second skill [{t.may_delay.rule}]"
        return f"may react ({why}) {where}; declares {when}"
    if any(o.status == LEGAL for o in t.options):
        return "no ARO by LoF or ZoC; only the options another rule allows"
    return "no ARO"


@gc_held()
def check_text(r: CheckReport) -> str:
    verdict = ("LEGAL" if r.legal else "ILLEGAL") + (" (with conflicts)" if r.conflicts else "")
    lines = [f"{heading(r, '(none)')}: {verdict}"]
    lines += [f"  {t} reveals itself for the whole Order: {cite(c)}" for t, c in r.revealed]
    for j in r.judgements:
        status = "granted, but void at Resolution" if j.status == INVALID else j.status
        lines.append(f"  {j.subject}: {status}")
        lines += [f"    {cite(c)}" for c in j.denied_by]
        lines += [f"    allowed by {cite(e.permission)} (overrides [{e.denial.rule}])" for e in j.lifted]
        lines += [f"    pending: write '{p.write}' for " + " ".join(f"[{c.rule}]" for c in p.rules) for p in j.pending]
    if not r.judgements:
        lines.append("  nothing declared: add 'order <trooper>: <skill>' and 'aro' lines")
    if r.resolution:
        lines += resolution_lines(r.resolution)
        if r.rules:
            lines += ["", "Rules applied:"] + [f"  {cite(c)}" for c in r.rules]
    lines += _conflicts_section(r.conflicts)
    lines += check_by_hand(r)
    return "\n".join(lines) + "\n"


RESULT_WORDS = {"success": "success", "critical": "CRITICAL", "fail": "failure", "discarded": "discarded"}


def _pending_line(p) -> str:
    """``pending: write 'distance fus alg N' (a line of its own, N in inches) for [range_mod]``"""
    return f"pending: write '{p.write}' ({p.where}) for " + " ".join(f"[{r}]" for r in p.rules)


def resolution_lines(res) -> list[str]:
    """Each roll (attribute, MODs, SV, dice), the Face to Face outcome, the saves and
    the state table; what is still to roll when dice are missing, what the position
    must still write when a rule needs a fact it lacks, and the dice written for
    skills that do not roll."""
    lines = []
    if res.rolls:
        lines += ["", "Rolls:" if res.complete else "Rolls (dice still to roll, and what is still to write, are marked '?'):"]
    for roll in res.rolls:
        what = roll.skill + (f" ({roll.weapon}{', ' + roll.ammunition if roll.ammunition else ''})" if roll.weapon else "")
        kind = ("Face to Face with " + ", ".join(roll.face_to_face_with)) if roll.face_to_face_with else "Normal Roll"
        mods = "".join(f" {m.value:+d} [{m.rule}]" for m in roll.mods)
        on = ", ".join(f"{n} on {t}" for t, n in roll.hit_troopers)
        if roll.waived:
            lines.append(f"  {roll.key}: {what}, no roll: succeeds automatically [{roll.waived}]")
            continue
        if roll.automatic:
            lines.append(f"  {roll.key}: {what}, no roll: hits automatically")
            lines.append(f"    -> {roll.hits} hit(s)" + (f" ({on})" if on else ""))
            continue
        lines.append(f"  {roll.key}: {what}, {kind}")
        if not roll.attribute_written:
            lines.append(f"    {roll.attribute.upper()} ? (not written: add '{roll.attribute.upper()} n' to {roll.roller}'s details)")
            lines += [f"    {_pending_line(p)}" for p in roll.pending if p.missing != "attribute"]
            continue
        needed = "? dice" if roll.dice_needed is None else f"{roll.dice_needed} {'die' if roll.dice_needed == 1 else 'dice'}"
        needed += f" (+{roll.extra} SD: {roll.dice_rolled} rolled, {roll.extra} discarded)" if roll.extra else ""
        sv = "?" if roll.sv is None else roll.sv
        lines.append(f"    {roll.attribute.upper()} {roll.base}{mods} = SV {sv}; {needed}")
        lines += [f"    {_pending_line(p)}" for p in roll.pending]
        dice = [f"{d.value} {RESULT_WORDS[d.result]}{' (cancelled)' if d.cancelled else ''}" if d.result in RESULT_WORDS
                else str(d.value) for d in roll.dice]
        dice += ["?"] * ((roll.dice_rolled or 0) - len(roll.dice))
        others = any(t != roll.target for t, _ in roll.hit_troopers)
        verdict = f"{roll.hits} hit(s)" if roll.attack else ("passed" if roll.hits else "failed")
        if roll.sv is None:
            verdict = "judged once the SV is known"
        lines.append("    dice: " + (", ".join(dice) or "?") + (f"  -> {verdict}" if roll.dice else "")
                     + (f" ({on})" if others and roll.sv is not None else ""))
    if res.saves or res.saves_missing:
        lines += ["", "Saving rolls:"]
        for s in res.saves:
            lines.append(f"  {s.trooper} #{s.index} (hit by {s.against}): {s.value} {s.result}")
        lines += [f"  {t} #{i}: ? (no die written: 'dice {t} save: ...')" for t, i in res.saves_missing]
    keys = {r.key for r in res.rolls}
    unattached = [p for p in res.pending if p.subject not in keys]
    if unattached:
        lines += ["", "Still to write:"] + [f"  {p.subject}: {_pending_line(p)}" for p in unattached]
    if res.unused:
        lines += ["", "Dice not used (written for skills that do not roll):"]
        lines += [f"  {u.trooper} {'die' if u.kind == 'roll' else u.kind + ' die'} {u.index} ({u.value}): "
                  f"{', '.join(u.skills)} " + " ".join(f"[{r}]" for r in u.rules) for u in res.unused]
    if not res.complete:
        return lines + ["", "States: known once every die, attribute and pending fact above is written."]
    width = max([13] + [len(", ".join(c.before)) for c in res.states])
    wounds = {c.trooper: _wounds_text(c) for c in res.states}
    column = max([12] + [len(w) + 1 for w in wounds.values()])
    if res.states:
        lines += ["", "States:", f"  {'trooper':<12} {'before':<{width}} {'wounds lost':<{column}} after"]
    for c in res.states:
        why = "; ".join(f"{how} {state} [{rule}]" for how, state, rule in c.because)
        lines.append(f"  {c.trooper:<12} {', '.join(c.before):<{width}} {wounds[c.trooper]:<{column}} {', '.join(c.after)}"
                     + (f"  ({why})" if why else ""))
    if res.outcomes:
        lines += ["", "Outcomes:"] + [f"  {o.subject}: {o.what.replace('_', ' ')} [{o.rule}]" for o in res.outcomes]
    return lines


def _wounds_text(c) -> str:
    """``1/2``: Wounds lost of the W / VITA / STR after the Order; ``2/2 (1 before)``
    when some were lost before it."""
    if c.life is None:
        return str(c.wounds_lost)
    return f"{c.wounds_total}/{c.life}" + (f" ({c.wounds_before} before)" if c.wounds_before else "")


CONFLICT_WORDS = {
    "rules": "two rules disagree, with no precedence between them",
    "position": "the position breaks a rule",
    "states": "two rules leave it in states that exclude each other",
}


def conflict_lines(c: Conflict) -> list[str]:
    lines = [f"{label}: {cite(citation)}" for label, citation in c.sides]
    if c.facts:
        lines.append("facts: " + "; ".join(c.facts))
    return lines


def _conflicts_section(conflicts: tuple[Conflict, ...]) -> list[str]:
    if not conflicts:
        return []
    lines = ["", "Conflicts:"]
    for c in conflicts:
        lines.append(f"  {c.subject}: {CONFLICT_WORDS[c.kind]}")
        lines += [f"    {line}" for line in conflict_lines(c)]
    return lines


# ---- Not modelled, and the catalogue listing ---------------------------------------------

ITEM_WORDS = {
    "skills": "skill", "special_skills": "special skill", "characteristics": "characteristic",
    "states": "state", "weapons": "weapon", "ammunition": "ammunition", "traits": "trait",
    "profiles": "profile", "troop_types": "troop type", "fireteams": "Fireteam type", "table": "table value",
}
STATUS_WORDS = {"yes": "modelled", "partial": "partly modelled", "no": "not modelled"}


def check_by_hand(r) -> list[str]:
    """The closing sections of a verdict: the items modelled from unverified values, then
    the items not fully modelled (always last)."""
    return table_section(getattr(r, "table", ())) + unverified_section(r.unverified) + not_modelled_section(r.not_modelled)


def table_section(lines) -> list[str]:
    """``Table`` lines: which relations were measured from coordinates, which stated."""
    return ["", "Table (checker/infinity/table_check.py):", *(f"  {line}" for line in lines)] if lines else []


def unverified_section(items) -> list[str]:
    """``Unverified values`` lines: each item in play whose values the rule base uses
    although no stored source confirms them, with its source and who has it."""
    return _items_section(
        items, "Unverified values (no stored source confirms them: check them against your rulebook):",
        lambda i: "", lambda i: [])


def not_modelled_section(items) -> list[str]:
    """``Not modelled`` lines: each item in play the rule base does not fully model,
    with what is missing, its source and who has it; nothing when there is none."""
    return _items_section(
        items, "Not modelled (the rule base does not fully encode these: check them by hand):",
        lambda i: f"{STATUS_WORDS[i.status]}; ", lambda i: [f"    missing: {i.missing}"] if i.missing else [])


def _items_section(items, title: str, status, details) -> list[str]:
    """A section listing catalogue items in play: the title, then per item its kind,
    name, ``status(item)``, holders (and weapons), ``details(item)`` lines, its source."""
    if not items:
        return []
    lines = ["", title]
    for i in items:
        word = "equipment" if i.equipment else ITEM_WORDS.get(i.kind, i.kind)
        via = f" (with {', '.join(i.weapon_names)})" if i.weapon_names else ""
        lines.append(f"  {word} {i.name}: {status(i)}{', '.join(i.troopers)}{via}")
        lines += details(i)
        lines.append(f"    source: {i.source}")
    return lines


def catalogue_text(listing: dict) -> str:
    """A catalogue listing (checker.infinity.modelled.catalogue_listing) for a person: the kinds,
    the entries of one kind with their status, or one entry with all its values."""
    edition = listing["edition"].upper()
    if "kinds" in listing:
        lines = [f"Catalogue {edition} (ruling catalogue KIND [NAME] --edition {listing['edition']}):"]
        for k in listing["kinds"]:
            counts = k.get("modelled")
            status = "" if counts is None else ": " + ", ".join(
                f"{n} {STATUS_WORDS[s]}" for s, n in counts.items() if n)
            lines.append(f"  {k['kind']:<16} {k['entries']:>3} entries{status}")
        return "\n".join(lines) + "\n"
    word = ITEM_WORDS.get(listing["kind"], listing["kind"])
    if "entry" in listing:
        e = listing["entry"]
        lines = [f"{e['name']} [{e['id']}] ({edition} {word})"]
        lines += [f"  {key}: {_catalogue_value(key, value)}" for key, value in e.items() if key not in ("id", "name")]
        return "\n".join(lines) + "\n"
    lines = [f"{edition} {listing['kind'].replace('_', ' ')} ({len(listing['entries'])}):"]
    for e in listing["entries"]:
        status = STATUS_WORDS.get(e.get("modelled", ""), "")
        lines.append(f"  {e['name']} [{e['id']}]" + (f": {status}" if status else ""))
        if e.get("missing"):
            lines.append(f"    missing: {e['missing']}")
    return "\n".join(lines) + "\n"


def _catalogue_value(key: str, value) -> str:
    """A catalogue value as words: lists joined, range bands as ``0-8 in +3``, each
    firing mode with its own values."""
    if key == "ranges":
        return ", ".join(f"{lo:g}-{hi:g} in {mod:+d}" for lo, hi, mod in value) or "none"
    if key == "modes":
        return "; ".join(m["name"] + ": " + ", ".join(f"{k} {_catalogue_value(k, v)}" for k, v in m.items() if k != "name")
                         for m in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)
