"""The coverage table (``docs/coverage.md``): per edition, every catalogue entry and every
cited rule, its source, its status and the cases that exercise it.

Inputs: the catalogue (``source``, ``modelled``, ``missing``), the rule book
(``checker/engine/rulebook.py``: every ``rule(Id, Edition, Source, Text)`` citation, in whatever
file it stands) and the case files (``cases/**/*.toml``), read statically (:data:`METHOD`).
Defines: :func:`ties` (what one case exercises), :func:`edition_coverage` (an edition's
rows), :func:`render` (the Markdown) (``python -m checker.games`` writes it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..engine import rulebook, solver
from ..engine.catalogue import NO, PARTIAL, YES, Catalogue
from ..engine.catalogue import load as load_catalogue
from ..engine.errors import RulingError
from . import case_schema, cases, editions, notation, resolve, sequence
from .game import Game
from .modelled import LIEUTENANT, in_play
from .position import Position

# The source checkout: cases/ and docs/ are not installed, so this is a development tool.
ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"

COMMAND = "python -m checker.games"  # writes every game's coverage page
RULES = "rules"  # the section of cited rules, beside the catalogue kinds
TURN = "turn"  # the Player Turn's rules (checker/catalogue/<edition>/turn.toml), tied by their rule ids
SECTIONS = {  # section -> title, in the order the document gives them
    "special_skills": "Special skills",
    "skills": "Common skills",
    "states": "States",
    "characteristics": "Characteristics",
    "troop_types": "Troop types",
    "fireteams": "Fireteam types",
    "ammunition": "Ammunition",
    "traits": "Weapon traits",
    "weapons": "Weapons and equipment",
    TURN: "The Player Turn",
    RULES: "Rules (every cited rule id)",
}
STATUS_WORDS = {YES: "modelled", PARTIAL: "partial", NO: "not modelled"}
ENOUGH = 2  # issue 12: a case where the entry changes the verdict, one where it does not apply
SHOWN = 4  # case files listed in a row; the rest are counted
METHOD = f"""\
How a case is tied to a row (statically: positions are parsed and resolved with ruling's own
notation and resolve code, never solved):

- A catalogue entry: the case's resolved position puts it in play, as a verdict's `Not modelled`
  section counts it (`checker/infinity/modelled.py`): a trooper's special skills, characteristics, troop type,
  states, weapons and equipment, written or given by its profile (and the Lieutenant special skill for a
  trooper written `lieutenant`, which that section leaves out); the common skills, weapons and
  ammunition its Order and AROs declare; the ammunition and traits of every weapon in play. A
  common skill also when the case's expectations name it as an option (`legal.fus1 = ["dodge"]`,
  a `denied` key, an odds row). *named*: of those, the cases whose file writes the entry itself
  (a trooper's list, a declared skill, weapon or ammunition, an expected option), not through a
  profile or a weapon's chart. Case files are listed named first, then in path order.
- A rule id: the case's expectations name it (`denied`, `verdicts`, `lifted`, `conflicts`,
  `breaches`, `may_delay`, `resolution.mods`, `resolution.rules`...: `checker/infinity/case_schema.py`
  knows which keys name rules), or it grants a trigger kind the case expects
  (`trigger_rule(Kind, Rule)` in the rule base).
- A Player Turn rule (`checker/catalogue/<edition>/turn.toml`): the case's expectations name one of
  the rule ids its `rules` key lists, as for a rule id above.
- A case whose position does not parse or resolve (most `error` cases) exercises no entry.

A count says how many cases put an entry in play, not whether one of them shows the entry
changing the verdict and another shows it not applying (issue 12 asks for both): that needs
reading the cases. Entries with fewer than {ENOUGH} cases are listed at the end of each edition."""


@dataclass(frozen=True)
class Ties:
    """What one case exercises: catalogue entries as ``(kind, id)``, and rule ids."""

    path: str
    edition: str
    in_play: frozenset[tuple[str, str]]
    named: frozenset[tuple[str, str]]
    rules: frozenset[str]
    resolved: bool = True  # False: the position does not resolve (an error case), no entry is in play


@dataclass(frozen=True)
class Row:
    """One entry or cited rule of an edition and the cases exercising it."""

    section: str
    id: str
    name: str
    source: str
    status: str  # yes, partial or no (a cited rule: yes)
    detail: str  # what is missing, why it is not modelled, a rule's note
    cases: tuple[str, ...]  # named first, then in path order
    named: int  # how many of ``cases`` name it themselves


@dataclass(frozen=True)
class EditionCoverage:
    edition: str
    rows: tuple[Row, ...]
    cases: int = 0  # the edition's cases read
    unresolved: int = 0  # of them, those whose position does not resolve

    def section(self, name: str) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.section == name)


@cache
def _trigger_rules(edition: str) -> dict[str, frozenset[str]]:
    """Trigger kind -> the rules granting it (``trigger_rule/2``, facts of the rule base)."""
    granted: dict[str, set[str]] = {}
    for kind, rule in solver.solve(edition, []).get("trigger_rule"):
        granted.setdefault(str(kind), set()).add(str(rule))
    return {k: frozenset(v) for k, v in granted.items()}


def expected_options(command: str, expect: dict) -> Iterator[str]:
    """The common skill ids a case's expectations name as options: ``skill[/weapon][>who]``
    in aros and declarations sets, ``option: missing...`` in pending, ``TROOPER OPTION`` rows."""
    options: list[str] = []
    if command in ("aros", "declarations"):
        for key in ("legal", "invalid", "denied", "pending"):
            for value in expect.get(key, {}).values():
                options += [o.split(": ")[0] if key == "pending" else o for o in value]
    elif command == "odds":
        options += [row.split(" ")[1] for row in expect.get("rows", []) if " " in row]
    for option in options:
        yield option.split(">")[0].split("/")[0]


def _named(position: Position, game: Game, catalogue: Catalogue) -> set[tuple[str, str]]:
    """The entries the position writes itself: a trooper's written lists (each replaces the
    profile's) and the declared skills, weapons and ammunition."""
    found: set[tuple[str, str]] = set()
    for decl, trooper in zip(position.troopers, game.troopers, strict=True):
        written = dict(decl.lists)
        lists = {"skills": [s.id for s in trooper.skills], "weapons": trooper.weapons,
                 "equipment": trooper.equipment, "states": trooper.states,
                 "characteristics": trooper.characteristics}
        found |= {(resolve.LIST_KINDS[k], i) for k, ids in lists.items() if k in written for i in ids}
        if trooper.lieutenant and LIEUTENANT in catalogue.entries["special_skills"]:
            found.add(("special_skills", LIEUTENANT))
    uses = [u for o in game.orders for u in o.skills] + [a.use for a in game.aros]
    for use in uses:
        found |= {("skills", use.skill), *((("weapons", use.weapon),) if use.weapon else ())}
        if use.ammunition in catalogue.entries["ammunition"]:
            found.add(("ammunition", str(use.ammunition)))
    return found


def _entries(position: Position, edition: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]]] | None:
    """The entries a position puts in play, and those it writes itself; None if it does not
    resolve."""
    try:
        game = resolve.resolve(position)
    except RulingError:
        return None
    catalogue = load_catalogue(edition)
    named = _named(position, game, catalogue)
    return set(in_play(game, catalogue, every_trait=True)) | named, named


def ties(case: cases.Case, root: Path = ROOT) -> Ties | None:
    """What ``case`` exercises; None when its position does not parse or names no edition."""
    try:
        positions = _positions(case)
    except RulingError:
        return None
    position = positions[0]
    if position.edition is None or position.edition.text not in editions():
        return None
    edition = position.edition.text
    rules = set(case_schema.rules_named(case.command, case.expect))
    if case.command == "aros":
        kinds = {k for ks in case.expect.get("triggers", {}).values() for k in ks}
        rules |= {r for k in kinds for r in _trigger_rules(edition).get(k, ())}
    found = [_entries(p, edition) for p in positions]
    entries = [e for e in found if e is not None] if all(e is not None for e in found) else None
    in_play = {x for e in entries or () for x in e[0]}
    named = {x for e in entries or () for x in e[1]}
    common = load_catalogue(edition).entries["skills"]
    named |= {("skills", s) for s in expected_options(case.command, case.expect) if s in common}
    path = case.path.resolve().relative_to(root.resolve()).as_posix()
    return Ties(path, edition, frozenset(in_play | named), frozenset(named), frozenset(rules),
                entries is not None)


def _positions(case: cases.Case) -> list[Position]:
    """The case's position, or each Order's of a sequence (checker/infinity/sequence.py)."""
    if not notation.is_sequence(case.position):
        return [notation.parse(case.position, str(case.path))]
    seq = sequence.split(case.position, str(case.path))
    return [notation.parse(sequence.order_text(seq, k), str(case.path)) for k in range(len(seq.steps))]


def collect(paths: Sequence[Path], root: Path = ROOT) -> list[Ties]:
    """The ties of every case under ``paths`` (``checker.infinity.cases.collect``)."""
    return [t for c in cases.collect(list(paths)) if (t := ties(c, root)) is not None]


def _row(section: str, entry_id: str, name: str, source: str, status: str, detail: str,
         found: Iterable[Ties], key: object) -> Row:
    if isinstance(key, frozenset):  # a Player Turn rule: the rule ids it lists
        hits = [t for t in found if t.rules & key]
    else:
        hits = [t for t in found if (key in t.rules if section == RULES else key in t.in_play)]
    named = sorted(t.path for t in hits if section not in (RULES, TURN) and key in t.named)
    rest = sorted(t.path for t in hits if t.path not in named)
    return Row(section, entry_id, name, source, status, detail, tuple(named + rest), len(named))


def edition_coverage(edition: str, found: Iterable[Ties]) -> EditionCoverage:
    """Every catalogue entry with a status and every rule the edition cites, with its cases."""
    mine = [t for t in found if t.edition == edition]
    catalogue = load_catalogue(edition)
    rows = []
    for kind in (k for k in SECTIONS if k not in (RULES, TURN)):
        for e in sorted(catalogue.all(kind), key=lambda e: (e.name.casefold(), e.id)):
            detail = e.missing or ("no rule reads it" if e.modelled == NO else "")
            rows.append(_row(kind, e.id, e.name, e.source, str(e.modelled), detail, mine, (kind, e.id)))
    for e in catalogue.all(TURN):  # in the order the file gives them, the turn's own
        detail = e.missing or ("no rule reads it" if e.modelled == NO else "")
        rows.append(_row(TURN, e.id, e.name, e.source, str(e.modelled), detail, mine, frozenset(e.get("rules", ()))))
    cited = {r.id: r for r in reversed(rulebook.load(edition).citations) if r.edition == edition}  # the first
    for rule in sorted(cited.values(), key=lambda r: r.id):
        notes = ["its citation says unverified"] if "unverified" in rule.text.casefold() else []
        notes += ["no statement uses it"] if not rule.used_at else []
        source = f"{rule.source} (cited in `{rule.cited_at.file}`)"
        rows.append(_row(RULES, rule.id, rule.id, source, YES, "; ".join(notes), mine, rule.id))
    return EditionCoverage(edition, tuple(rows), len(mine), sum(not t.resolved for t in mine))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _status(row: Row) -> str:
    word = STATUS_WORDS[row.status]
    return _cell(f"{word}: {row.detail}" if row.detail else word)


def _files(row: Row) -> str:
    shown = ", ".join(f"`{c}`" for c in row.cases[:SHOWN])
    more = len(row.cases) - SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _count(row: Row) -> str:
    return str(len(row.cases)) if row.section in (RULES, TURN) else f"{len(row.cases)} ({row.named} named)"


def _totals(coverages: Sequence[EditionCoverage]) -> list[str]:
    head = ["entries", *STATUS_WORDS.values(), f"fewer than {ENOUGH} cases"]
    lines = ["| edition | section | " + " | ".join(head) + " |", "| --- | --- | " + " | ".join("---" for _ in head) + " |"]
    for cov in coverages:
        for section, title in SECTIONS.items():
            rows = cov.section(section)
            counts = [len(rows), *(sum(r.status == s for r in rows) for s in STATUS_WORDS),
                      sum(len(r.cases) < ENOUGH for r in rows)]
            lines.append(f"| {cov.edition.upper()} | {title} | " + " | ".join(map(str, counts)) + " |")
    return lines


def _edition(cov: EditionCoverage) -> list[str]:
    lines = ["", f"## {cov.edition.upper()}", "",
             (f"{cov.cases} cases of this edition; {cov.unresolved} of them (error cases) do not resolve and "
              "exercise only the rules their expectations name.")]
    for section, title in SECTIONS.items():
        first = "rule id" if section == RULES else "entry"
        lines += ["", f"### {cov.edition.upper()}: {title}", "",
                  f"| {first} | source | status | cases | case files |", "| --- | --- | --- | --- | --- |"]
        for r in cov.section(section):
            entry = f"`{r.id}`" if section == RULES else f"{_cell(r.name)} (`{r.id}`)"
            lines.append(f"| {entry} | {_cell(r.source)} | {_status(r)} | {_count(r)} | {_files(r)} |")
    few = [r for r in cov.rows if len(r.cases) < ENOUGH]
    lines += ["", f"### {cov.edition.upper()}: fewer than {ENOUGH} cases ({len(few)})", ""]
    if not few:
        return lines + ["None."]
    lines += ["| section | entry | status | cases |", "| --- | --- | --- | --- |"]
    for r in few:
        lines.append(f"| {SECTIONS[r.section]} | `{r.id}` | {STATUS_WORDS[r.status]} | {_files(r) or 'none'} |")
    return lines


def render(coverages: Sequence[EditionCoverage]) -> str:
    """docs/coverage.md: the totals, then per edition every section's rows and the rows
    with fewer than ENOUGH cases."""
    lines = [
        "# Coverage: every entry and rule, its status and its cases",
        "",
        f"Generated by `{COMMAND}` from the catalogue (`checker/catalogue/<edition>/*.toml`), the",
        "rule book (every `rule(Id, Edition, Source, Text)` citation the edition's entry file reaches)",
        f"and the cases (`cases/**/*.toml`); do not edit. `{COMMAND} --check` exits 1 while it is",
        "stale, and so does `tests/test_coverage.py`.",
        "",
        "Status: *modelled* (every effect of the entry's text is encoded), *partial* (with what is",
        "missing) or *not modelled* (with why), as the catalogue's `modelled` and `missing` keys say",
        "(`checker/catalogue/FORMAT.md`); a cited rule is encoded by definition. A verdict lists what",
        "is in play and not modelled under `Not modelled`.",
        "",
        METHOD,
        "",
        "## Totals",
        "",
        *_totals(coverages),
    ]
    for cov in coverages:
        lines += _edition(cov)
    return "\n".join(lines) + "\n"


def build(paths: Sequence[Path] | None = None, root: Path = ROOT) -> str:
    """The text of docs/coverage.md for the cases under ``paths`` (all of ``cases/``), N5 first."""
    found = collect(paths or (CASES,), root)
    return render([edition_coverage(e, found) for e in sorted(editions(), reverse=True)])
