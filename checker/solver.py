"""Run the rule base on a position's facts. With facts.py, the only module that knows clingo."""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

import clingo

from .errors import RuleBaseError
from .resources import asp_dir


@dataclass(frozen=True)
class Atoms:
    """The shown atoms of the answer set, grouped by predicate, as plain Python values."""

    by_name: dict[str, list[tuple]]
    timings: dict[str, float] = field(default_factory=dict, compare=False)
    ground_atoms: int = 0

    def get(self, name: str) -> list[tuple]:
        return self.by_name.get(name, [])


def entry_file(edition: str):
    """The ``asp/<edition>.lp`` file that ``#include``s the whole rule base of an edition."""
    return asp_dir() / f"{edition}.lp"


def solve(edition: str, facts: list[clingo.Symbol]) -> Atoms:
    """Ground and solve the edition's rule base with ``facts``.

    Raises
    ------
    RuleBaseError
        If clingo fails, the program has no answer set, or a rule is used without a
        citation for this edition.
    """
    messages: list[str] = []
    timings: dict[str, float] = {}
    ctl = clingo.Control(
        ["--models=1"], logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20
    )
    start = time.perf_counter()
    try:
        ctl.load(str(entry_file(edition)))
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        ctl.ground([("base", [])])
        timings["ground"] = time.perf_counter() - start
        start = time.perf_counter()
        shown: list[clingo.Symbol] = []
        result = ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
        timings["solve"] = time.perf_counter() - start
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo failed on the {edition} rule base: {exc}", tuple(messages)) from None
    if not result.satisfiable:
        raise RuleBaseError(f"the {edition} rule base has no answer set for this position", tuple(messages))
    atoms = _group(shown)
    if atoms.get("uncited"):
        names = ", ".join(sorted(str(a[0]) for a in atoms.get("uncited")))
        raise RuleBaseError(f"rules used without a citation for {edition}: {names}")
    ground = int(ctl.statistics["problem"]["lpStep"]["atoms"])
    return Atoms(atoms.by_name, timings, ground)


def _group(symbols: list[clingo.Symbol]) -> Atoms:
    # One C call per atom (str) and a Python tokenizer: much faster than walking
    # every argument through the clingo API.
    by_name: dict[str, list[tuple]] = defaultdict(list)
    for symbol in symbols:
        name, args = _parse_term(str(symbol))
        by_name[name].append(args)
    return Atoms(dict(by_name))


_TOKEN = re.compile(r'\s*(?:(-?\d+)|"((?:[^"\\]|\\.)*)"|([a-z_][A-Za-z0-9_\']*)|([(),]))')
_ESCAPES = {"\\n": "\n", '\\"': '"', "\\\\": "\\"}


def _parse_term(text: str) -> tuple[str, tuple]:
    """``'denied(aro(fus1,dodge,none),aro_lof)'`` -> ``('denied', (('aro', 'fus1', 'dodge', 'none'), 'aro_lof'))``.

    Numbers are int, strings and constants str, compound terms tuples headed by
    their name."""
    tokens = _TOKEN.findall(text)
    pos = 0

    def term():
        nonlocal pos
        number, string, name, punct = tokens[pos]
        pos += 1
        if number:
            return int(number)
        if not (name or punct):  # a string literal
            return re.sub(r'\\[n"\\]', lambda m: _ESCAPES[m.group(0)], string)
        if pos < len(tokens) and tokens[pos][3] == "(":
            pos += 1
            args = [term()]
            while tokens[pos][3] == ",":
                pos += 1
                args.append(term())
            pos += 1  # ")"
            return (name, *args)
        return name

    head = term()
    return (head, ()) if isinstance(head, str) else (head[0], tuple(head[1:]))


def program_text(facts: list[clingo.Symbol]) -> str:
    """The facts as an ASP program, to reproduce a run with the clingo command."""
    return "".join(f"{symbol}.\n" for symbol in facts)
