"""Run the rule base on a position's facts; its shown atoms are read into plain Python
values by checker/engine/reading.py. clingo is known only here and in the engine's
reading.py, solver_many.py, solver_copies.py, rulebook.py and rule_places.py (which
only parse the rule base), and in each game's facts.py, which builds its symbols (the
plugins name clingo's Symbol in type hints alone)."""

from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import clingo

if TYPE_CHECKING:  # imported where used: a run that does not parse skips its import
    from clingo import ast

from . import slicing
from .answers import A, build
from .errors import RuleBaseError, SolveTimeout
from .gc_hold import gc_held
from .reading import Unread, read
from .resources import asp_dir, cache_dir, store_cache
from .slicing import Slicer

# Solving is bounded (grounding cannot be interrupted: the ranges of the numbers a
# position may write, checker.infinity.position.RANGES, keep it small). A position of two full
# armies solves in well under a second.
SOLVE_SECONDS = 20.0


@dataclass(frozen=True)
class Atoms:
    """The shown atoms of the answer set, grouped by predicate, as plain Python values."""

    by_name: dict[str, list[tuple]]
    timings: dict[str, float] = field(default_factory=dict, compare=False)
    ground_atoms: int = 0
    typed: dict[type, list] = field(default_factory=dict, compare=False, repr=False)

    def get(self, name: str) -> list[tuple]:
        return self.by_name.get(name, [])

    def of(self, kind: type[A]) -> list[A]:
        """The atoms of the predicate ``kind`` declares, as ``kind`` objects (built once)."""
        found = self.typed.get(kind)
        if found is None:
            found = self.typed[kind] = build(kind, self.by_name.get(kind.predicate, ()))
        return found


def entry_file(edition: str):
    """The ``asp/<edition>.lp`` file that ``#include``s the whole rule base of an edition."""
    return asp_dir() / f"{edition}.lp"


# ---- The rule base, parsed once per process ------------------------------------------
# The first runs of an edition load its entry file (parsing it as the clingo command
# does); from the third on (or after ``prepare``), each Control is built from the
# statements clingo's parser made of the same files, in the same order, which skips
# the parse: building costs about a third of a load, parsing into statements two loads,
# so a process solving an edition once or twice never pays for it. The statements are
# kept with the modification times and sizes of every rule file: a changed rule base
# is parsed again.

LOADS_BEFORE_PARSING = 2

_parsed: dict[str, tuple[tuple, list[ast.AST]]] = {}  # entry file -> (fingerprint, statements)
_loads: dict[str, int] = {}  # entry file -> loads so far
# Released before the interpreter tears clingo down (a statement freed after that fails).
atexit.register(_parsed.clear)


def _fingerprint(entry: str) -> tuple:
    stat = os.stat(entry)
    found = [(entry, stat.st_mtime_ns, stat.st_size)]
    for folder, _dirs, files in os.walk(asp_dir()):
        for name in files:
            if name.endswith(".lp"):
                path = os.path.join(folder, name)
                stat = os.stat(path)
                found.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


def prepare(edition: str) -> None:
    """Parse the edition's rule base now, so every later ``solve`` skips the parse
    (before forking workers, or before solving many positions).

    Raises
    ------
    RuleBaseError
        If clingo cannot parse the rule base.
    """
    _statements(edition, str(entry_file(edition)))


def _statements(edition: str, entry: str, fingerprint: tuple | None = None) -> list[ast.AST]:
    """The statements of the rule base ``entry`` includes, parsed again if a rule file
    changed since (``fingerprint``: the rule files' as the caller just read them)."""
    fingerprint = _fingerprint(entry) if fingerprint is None else fingerprint
    cached = _parsed.get(entry)
    if cached is not None and cached[0] == fingerprint:
        return cached[1]
    from clingo import ast

    messages: list[str] = []
    statements: list[ast.AST] = []
    try:
        ast.parse_files([entry], statements.append,
                        logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20)
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo failed on the {edition} rule base: {exc}", tuple(messages)) from None
    _parsed[entry] = (fingerprint, statements)
    return statements


def _add_rule_base(ctl: clingo.Control, edition: str, parsed: bool | None = None,
                   facts: list[clingo.Symbol] | None = None) -> None:
    """Give ``ctl`` the edition's rule base: with ``facts``, only the rules they can fire
    (``checker/engine/slicing.py``)."""
    entry = str(entry_file(edition))
    if parsed is None:
        parsed = entry in _parsed or _loads.get(entry, 0) >= LOADS_BEFORE_PARSING
    fingerprint = _fingerprint(entry)  # read once for both caches
    sliced = _sliced(edition, entry, fingerprint) if facts is not None else None
    if not parsed:
        _loads[entry] = _loads.get(entry, 0) + 1
        if sliced is None:
            ctl.load(entry)
        else:
            slicer, texts = sliced
            ctl.add("base", [], "\n".join(texts[i] for i in slicer.kept(facts or ())))
        return
    from clingo import ast

    statements = _statements(edition, entry, fingerprint)
    if sliced is not None and len(sliced[1]) == len(statements):
        statements = [statements[i] for i in sliced[0].kept(facts or ())]
    with ast.ProgramBuilder(ctl) as builder:
        for statement in statements:
            builder.add(statement)


# ---- The rules a position can fire -----------------------------------------------------
# Each rule base's slicer (checker/engine/slicing.py) and the text of each of its
# statements, kept in this process and in the user's cache folder under a digest of the
# rule files' paths, sizes and modification times (``_fingerprint``: digesting their
# content would take longer than the rest). Reading the rule base's statements to build
# it takes a fifth of a second, reading the cache back (marshal) a few milliseconds. A
# rule base the slicer cannot read, or that clingo does not ground with no facts at all
# (its errors are then met, located in the rule files, by the whole rule base), is
# given whole.

_SLICES_VERSION = 3
_slices: dict[str, tuple[tuple, tuple[Slicer, list[str]] | None]] = {}  # entry -> (fingerprint, slicer and texts)


def _sliced(edition: str, entry: str, fingerprint: tuple) -> tuple[Slicer, list[str]] | None:
    cached = _slices.get(entry)
    if cached is None or cached[0] != fingerprint:
        cached = _slices[entry] = (fingerprint, _read_slices(edition, entry, fingerprint))
    return cached[1]


def _read_slices(edition: str, entry: str, fingerprint: tuple) -> tuple[Slicer, list[str]] | None:
    digest = hashlib.sha256(repr((_SLICES_VERSION, edition, fingerprint)).encode())
    file = cache_dir() / f"slices-{edition}-{digest.hexdigest()[:32]}.marshal"
    try:
        slicer, texts = marshal.loads(file.read_bytes())
        return Slicer(slicer), texts
    except (OSError, ValueError, EOFError, TypeError):
        pass
    from clingo import ast

    statements = _statements(edition, entry, fingerprint)
    slicer = slicing.analyse(statements)
    if slicer is None or not _grounds(statements):
        return None
    texts = ["" if s.ast_type == ast.ASTType.Comment else str(s) for s in statements]
    store_cache(file, marshal.dumps((slicer.data(), texts)), f"slices-{edition}-*.marshal")
    return slicer, texts


def _grounds(statements: list[ast.AST]) -> bool:
    """Whether clingo grounds the whole rule base with no facts."""
    from clingo import ast

    ctl = clingo.Control(logger=lambda _code, _msg: None, message_limit=0)
    try:
        with ast.ProgramBuilder(ctl) as builder:
            for statement in statements:
                builder.add(statement)
        ctl.ground([("base", [])])
    except RuntimeError:
        return False
    return True


@gc_held()
def solve(edition: str, facts: list[clingo.Symbol], seconds: float | None = None,
          unread: Unread | None = None) -> Atoms:
    """Ground and solve the edition's rule base with ``facts``, for at most ``seconds``
    of solving (default ``SOLVE_SECONDS``); the atoms ``unread`` names may be left out.

    Raises
    ------
    SolveTimeout
        If solving takes longer.
    RuleBaseError
        If clingo fails, the program has no answer set, or a rule is used without a
        citation for this edition.
    """
    seconds = SOLVE_SECONDS if seconds is None else seconds
    solved = _solved.pop((edition, tuple(facts)), None) if _solved else None
    if solved is not None:
        return checked(edition, solved)
    shown, timings, ground = _shown(edition, facts, seconds)
    start = time.perf_counter()
    by_name = read(shown, unread)
    timings["read"] = time.perf_counter() - start
    return checked(edition, Atoms(by_name, timings, ground))


# Answers solved ahead, together with other positions (``solver_many.prefetch``), each
# taken once by the ``solve`` of the same edition and facts.
_solved: dict[tuple[str, tuple[clingo.Symbol, ...]], Atoms] = {}


def remember(edition: str, facts: list[clingo.Symbol], atoms: Atoms) -> None:
    """Keep ``atoms`` as the answer of the next ``solve(edition, facts)``."""
    _solved[(edition, tuple(facts))] = atoms


def forget() -> None:
    """Drop the answers solved ahead and not taken."""
    _solved.clear()


def checked(edition: str, atoms: Atoms) -> Atoms:
    """``atoms``, unless a rule it used has no citation for the edition.

    Raises
    ------
    RuleBaseError
        If a rule is used without a citation for this edition.
    """
    if atoms.get("uncited"):
        names = ", ".join(sorted(str(a[0]) for a in atoms.get("uncited")))
        raise RuleBaseError(f"rules used without a citation for {edition}: {names}")
    return atoms


def _shown(
    edition: str, facts: list[clingo.Symbol], seconds: float, parsed: bool | None = None
) -> tuple[Sequence[clingo.Symbol], dict[str, float], int]:
    """The shown atoms of the answer set, in clingo's order (its model's sequence of
    them, which ``reading.read`` reads without a Symbol object for each), the timings and the number
    of ground atoms. ``parsed`` True builds the Control from the parsed rule base, False
    loads the entry file, None chooses (``_add_rule_base``)."""
    messages: list[str] = []
    timings: dict[str, float] = {}
    ctl = clingo.Control(
        ["--models=1"], logger=lambda _code, msg: messages.append(msg.strip()), message_limit=20
    )
    start = time.perf_counter()
    try:
        _add_rule_base(ctl, edition, parsed, facts)
        with ctl.backend() as backend:
            for symbol in facts:
                backend.add_rule([backend.add_atom(symbol)])
        ctl.ground([("base", [])])
        timings["ground"] = time.perf_counter() - start
        start = time.perf_counter()
        models: list[Sequence[clingo.Symbol]] = []  # one: --models=1
        with ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)), async_=True) as handle:
            if not handle.wait(seconds):
                handle.cancel()
                raise SolveTimeout(
                    f"the {edition} rule base found no verdict within {seconds:g} seconds: the position "
                    "is too large to judge; write fewer troopers, relations or declarations"
                )
            result = handle.get()
        timings["solve"] = time.perf_counter() - start
    except RuntimeError as exc:
        raise RuleBaseError(f"clingo failed on the {edition} rule base: {exc}", tuple(messages)) from None
    if not result.satisfiable:
        raise RuleBaseError(f"the {edition} rule base has no answer set for this position", tuple(messages))
    return models[-1], timings, int(ctl.statistics["problem"]["lpStep"]["atoms"])


def program_text(facts: list[clingo.Symbol]) -> str:
    """The facts as an ASP program, to reproduce a run with the clingo command."""
    return "".join(f"{symbol}.\n" for symbol in facts)

