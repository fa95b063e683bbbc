"""The Urban War coverage table: every seed 004 special skill (and every action and
state of the catalogue) with what the rule base does with it, as Markdown.

Inputs: the Urban War catalogue. Defines: :func:`coverage_markdown`, the text of
``docs/urban-war/coverage.md`` (a test keeps the file in step with the catalogue).
"""

from __future__ import annotations

from ..engine.catalogue import load
from . import CATALOGUE

_HEAD = {"special_skills": "Special skills (seed 004)", "skills": "Actions and reactions", "states": "States"}


def coverage_markdown() -> str:
    """The coverage page: one table per kind, one row per entry."""
    cat = load(CATALOGUE)
    lines = ["# Urban War coverage", "",
             "Generated from `checker/catalogue/urban-war/` by `python -m checker.games`;",
             "`tests/test_urban_war.py` fails when this file and the catalogue disagree. `yes`: every",
             "effect of the rule is encoded; `partial`: what is missing is named; `no`: out of scope,",
             "with the reason (the same words `ruling aros`, `declarations` and `check` show under",
             "`Not modelled`)."]
    for kind, title in _HEAD.items():
        entries = cat.all(kind)
        counts = {s: sum(e.modelled == s for e in entries) for s in ("yes", "partial", "no")}
        lines += ["", f"## {title}", "",
                  f"{len(entries)} entries: {counts['yes']} yes, {counts['partial']} partial, {counts['no']} no.", "",
                  "| entry | modelled | missing or reason | source |", "| --- | --- | --- | --- |"]
        for e in sorted(entries, key=lambda e: e.name.casefold()):
            lines.append(f"| {e.name} | {e.modelled} | {(e.missing or '').replace('|', '/')} | {e.source} |")
    return "\n".join(lines) + "\n"
