"""Urban War verdicts as text for a person (JSON is each report's ``to_dict``).

Inputs: the reports of ``checker/urban_war/report.py``. Defines: :func:`declarations_text`,
:func:`reactions_text`, :func:`check_text`.
"""

from __future__ import annotations

from .report import TESTS, Check, Declarations, Option, Reactions, Verdict


def _name(o: Option) -> str:
    return o.skill + (f" -> {o.target}" if o.target else "")


def _line(o: Option) -> str:
    if o.conflicts:
        return f"{_name(o)}: conflict " + " ".join(f"[{p}] against [{d}]" for p, d in o.conflicts)
    if o.denied_by:
        return f"{_name(o)}: not allowed " + " ".join(f"[{r}]" for r in o.denied_by) + "".join(
            f"; {effect} [{rule}]" for effect, rule in o.effects if rule in o.denied_by)
    text = f"{_name(o)}: legal"
    for denial, by in o.lifted:
        text += f"; allowed by [{by}] over [{denial}]"
    for test, rule in o.tests:
        text += f"; needs {TESTS.get(test, test)} [{rule}]"
    for rule in o.no_test:
        text += f"; with no command check [{rule}]"
    for effect, rule in o.effects:
        text += f"; {effect} [{rule}]"
    return text


def _tail(v: Verdict) -> list[str]:
    lines = []
    if v.conflicts:
        lines.append("Conflicts (two rules disagree with no precedence between them):")
        for c in v.conflicts:
            lines += [f"  {c.subject}", f"    permits: [{c.permission}]", f"    forbids: [{c.denial}]"]
    lines += ["Rules:"] + [f"  [{i}] urban-war {s}: {t}" for i, s, t in v.citations]
    if v.unverified:
        lines.append("Unverified values (only a report or summary gives them):")
        lines += [f"  {value} ({source})" for value, source in v.unverified]
    if v.not_modelled:
        lines.append("Not modelled (the rule base does not fully encode these: check them by hand):")
        for n in v.not_modelled:
            who = f"; {', '.join(n.models)}" if n.models else ""
            lines.append(f"  {n.kind.rstrip('s').replace('_', ' ')} {n.name}: {n.status}{who}")
            if n.missing:
                lines.append(f"    missing: {n.missing}")
    return lines


def declarations_text(d: Declarations, show_denied: bool = True) -> str:
    order = d.order.replace("_", "-") if d.order else "no order"
    allowed = f"; at most {d.allowed} action(s)" if d.allowed is not None else ""
    lines = [f"{d.model} ({order}{allowed}): action {d.slot}"]
    lines += ["  " + _line(o) for o in d.options if show_denied or not o.denied_by]
    return "\n".join(lines + _tail(d)) + "\n"


def reactions_text(r: Reactions, show_denied: bool = True) -> str:
    lines = [f"Reactions to {r.active}'s activation:"]
    for model, options in r.by_model:
        legal = [o for o in options if not o.denied_by]
        lines.append(f"{model}: {'may react' if legal else 'no reaction'}")
        lines += ["  " + _line(o) for o in options if show_denied or not o.denied_by]
    return "\n".join(lines + _tail(r)) + "\n"


def check_text(c: Check) -> str:
    clashing = " (with conflicts)" if c.conflicts or c.state_clashes else ""
    lines = [f"Verdict: {'legal' if c.legal else 'illegal'}{clashing}"]
    lines += [f"  action {o.slot} {_line(o)}" for o in c.actions]
    lines += [f"  react {o.model}: {_line(o)}" for o in c.reactions]
    if c.damage:
        lines.append("Damage:")
        for d in c.damage:
            points = ", ".join(f"{i}: {r}" for i, r in d.points) or "none"
            lost = "unresolved" if d.wounds_lost is None else f"{d.wounds_lost}" + (f"/{d.wounds}" if d.wounds else "")
            extra = (f"; {d.excess} past its wounds left (not lost) [uw_wounds_cap]" if d.excess else "") + (
                f"; wounds left {d.left}" if d.left is not None else "")
            lines.append(f"  {d.model}: {points}; wounds lost {lost}{extra}")
    if c.rolls:
        lines.append("Rolls (die plus modifiers against the need written):")
        lines += [f"  {r.model} {r.kind} {r.index}: " + (f"{r.total} " if r.total is not None else "") + r.result
                  for r in c.rolls]
    if c.outcomes:
        lines.append("Outcomes:")
        lines += [f"  {m}: {w} [{r}]" for m, w, r in c.outcomes]
    if c.states or c.lost_states:
        lines.append("States:")
        lines += [f"  {m} gains {s} [{r}]" for m, s, r in c.states]
        lines += [f"  {m} loses {s} [{r}]" for m, s, r in c.lost_states]
    if c.state_clashes:
        lines.append("State clashes (states that exclude each other after the activation):")
        lines += [f"  {s.model}: " + " and ".join(f"{st} " + ("(as written)" if r == "position" else f"[{r}]") for st, r in s.states) for s in c.state_clashes]
    if c.applied:
        lines.append("Resolution order: " + " ".join(f"[{r}]" for r in c.applied))
    return "\n".join(lines + _tail(c)) + "\n"
