"""Write docs/faq.md from the FAQ registries in docs/faq/*.toml.

A registry lists every question of one FAQ document (or of one wiki's FAQ boxes) with
its status in ruling::

    title = "Infinity N3 FAQ, ENGLISH. FAQs V1.6"
    edition = "n3"
    source = "https://... (where the text was read)"
    coverage = "what of the document could be read, and what could not"

    [[question]]
    id = "orders-1"                       # section + number, unique in the registry
    section = "Orders and Order Pool"
    version = "1.6"                       # the FAQ version that gives the answer (the
                                          # version the wiki names, or the document read)
    url = "https://..."                   # the page the question was read from
    question = "Is it obligatory to ..."  # verbatim, trimmed if very long
    answer = "Yes, it is obligatory."     # short
    status = "case"                       # see STATUSES; "not read": the question was found
                                          # but its answer (or text) is in no stored copy
    cases = ["cases/faq/n3/....toml"]     # status "case": the cases pinning the answer;
                                          # "needs rule" / "needs notation": the part ruling
                                          # already decides right, if any
    reason = "..."                        # any other status: why, or the exact discrepancy

Run ``python docs/faq/generate.py`` from the repository root after editing a registry;
``tests/test_faq.py`` fails while docs/faq.md is stale.
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = ROOT / "docs" / "faq"
OUTPUT = ROOT / "docs" / "faq.md"

STATUSES = ("case", "out of scope", "needs rule", "needs notation", "not read")
TOP_KEYS = {"title", "edition", "source", "coverage", "question"}
QUESTION_KEYS = {"id", "section", "version", "url", "question", "answer", "status", "cases", "reason"}
REQUIRED_KEYS = {"id", "section", "version", "url", "question", "answer", "status"}


class RegistryError(ValueError):
    """A registry that does not follow the format above."""


@dataclass(frozen=True)
class Question:
    id: str
    section: str
    version: str
    url: str
    question: str
    answer: str
    status: str
    cases: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Registry:
    path: Path
    title: str
    edition: str
    source: str
    coverage: str
    questions: tuple[Question, ...]


def _question(path: Path, n: int, entry: dict) -> Question:
    where = f"{path.name}: question {n}"
    unknown = sorted(set(entry) - QUESTION_KEYS)
    if unknown:
        raise RegistryError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(QUESTION_KEYS))}")
    missing = sorted(REQUIRED_KEYS - set(entry))
    if missing:
        raise RegistryError(f"{where}: missing key(s) {', '.join(missing)}")
    for key, value in entry.items():
        if key == "cases":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise RegistryError(f"{where} ({entry['id']}): 'cases' must be a list of paths")
        elif not isinstance(value, str) or not value.strip():
            raise RegistryError(f"{where} ({entry.get('id')}): '{key}' must be a non-empty string")
    status = entry["status"]
    if status not in STATUSES:
        raise RegistryError(f"{where} ({entry['id']}): unknown status '{status}'; known: {', '.join(STATUSES)}")
    cases = tuple(entry.get("cases", ()))
    reason = entry.get("reason", "")
    if status == "case" and (not cases or reason):
        raise RegistryError(f"{where} ({entry['id']}): status 'case' needs 'cases' and no 'reason'")
    if status != "case" and not reason:
        raise RegistryError(f"{where} ({entry['id']}): status '{status}' needs a 'reason'")
    if status == "out of scope" and cases:
        raise RegistryError(f"{where} ({entry['id']}): status 'out of scope' takes no 'cases'")
    return Question(entry["id"], entry["section"], entry["version"], entry["url"], entry["question"],
                    entry["answer"], status, cases, reason)


def load(path: Path) -> Registry:
    """Read and check one registry.

    Raises
    ------
    RegistryError
        On an unknown or missing key, an unknown status, or a repeated question id.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise RegistryError(f"{path.name}: unknown top-level key(s) {', '.join(unknown)}; known: {', '.join(sorted(TOP_KEYS))}")
    for key in ("title", "edition", "source", "coverage"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise RegistryError(f"{path.name}: '{key}' must be a non-empty string")
    questions = tuple(_question(path, n, e) for n, e in enumerate(data.get("question", []), 1))
    ids = [q.id for q in questions]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise RegistryError(f"{path.name}: repeated question id(s) {', '.join(repeated)}")
    return Registry(path, data["title"], data["edition"], data["source"], data["coverage"], questions)


def registries() -> list[Registry]:
    return [load(p) for p in sorted(REGISTRIES.glob("*.toml"))]


def _cell(text: str, limit: int = 0) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if not limit or len(text) <= limit else text[: limit - 3].rstrip() + "..."


def render(regs: list[Registry]) -> str:
    """docs/faq.md: per registry, the counts by status, then every question."""
    lines = [
        "# FAQ rulings in ruling",
        "",
        "Generated by `python docs/faq/generate.py` from the registries in `docs/faq/`; do not edit.",
        "Each question of each FAQ is a passing case under `cases/faq/` (run them with",
        "`ruling verify cases/faq/`), out of scope (with the reason), waiting for a rule or",
        "for notation (with the exact discrepancy), or not read (found, but its answer is in no",
        "stored copy).",
        "",
        "| FAQ | questions | " + " | ".join(STATUSES) + " |",
        "| --- | --- | " + " | ".join("---" for _ in STATUSES) + " |",
    ]
    for reg in regs:
        counts = [sum(q.status == s for q in reg.questions) for s in STATUSES]
        lines.append(f"| {reg.title} | {len(reg.questions)} | " + " | ".join(map(str, counts)) + " |")
    for reg in regs:
        lines += ["", f"## {reg.title}", "", f"Edition {reg.edition}; registry `{reg.path.relative_to(ROOT).as_posix()}`.",
                  f"Read from: {_cell(reg.source)}", "", _cell(reg.coverage), "",
                  "| id | FAQ version | question | status | case or reason |", "| --- | --- | --- | --- | --- |"]
        for q in reg.questions:
            cases = ", ".join(f"`{c}`" for c in q.cases)
            detail = f"{_cell(q.reason)} Pinned so far: {cases}" if q.reason and cases else _cell(q.reason) or cases
            lines.append(f"| {q.id} | {_cell(q.version)} | {_cell(q.question, 140)} | {q.status} | {detail} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    try:
        text = render(registries())
    except RegistryError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
