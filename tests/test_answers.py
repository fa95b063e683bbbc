"""Typed answers (checker/engine/answers.py): every declared type reads a predicate its
game's rule base shows, with its arity; every report reads the answer set through
declared types only; objects built from rows carry the row's values in their named
fields; and mypy sees those fields."""

from __future__ import annotations

import dataclasses
import pickle
import re
from pathlib import Path

import pytest

from checker.engine import answers as engine_answers
from checker.engine.answers import Answer, Denied, arity, build, predicates
from checker.engine.solver import Atoms
from checker.infinity import answers as infinity_answers
from checker.infinity import report, resolution
from checker.urban_war import answers as urban_war_answers

from .conftest import ROOT

ASP = ROOT / "asp"
SHOW = re.compile(r"^#show\s+([a-z_]+)/(\d+)\s*\.", re.MULTILINE)
TYPE_NAME = re.compile(r"\bans\.([A-Z][A-Za-z]*)\b")


def _shown(*folders: str) -> set[tuple[str, int]]:
    """Every ``#show name/arity.`` of the rule files under ``folders`` of asp/."""
    found = set()
    for folder in folders:
        for path in (ASP / folder).rglob("*.lp"):
            found |= {(name, int(n)) for name, n in SHOW.findall(path.read_text(encoding="utf-8"))}
    return found


def _declared(module) -> list[type[Answer]]:
    """The answer types a module declares (not those it imports)."""
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Answer) and value is not Answer
            and value.__module__ == module.__name__]


def _named(path: Path, module) -> set[type[Answer]]:
    """The answer types a consumer module names as ``ans.<Type>``."""
    named = (getattr(module, name) for name in TYPE_NAME.findall(path.read_text(encoding="utf-8")))
    return {value for value in named if isinstance(value, type) and issubclass(value, Answer)}


@pytest.mark.parametrize(("module", "folders"), [
    (engine_answers, ("engine",)),
    (infinity_answers, ("engine", "infinity")),
    (urban_war_answers, ("engine", "urban_war")),
], ids=["engine", "infinity", "urban_war"])
def test_every_declared_type_is_shown_by_its_rule_base(module, folders):
    shown = _shown(*folders)
    declared = _declared(module)
    assert declared
    missing = {(kind.__name__, kind.predicate, arity(kind)) for kind in declared
               if (kind.predicate, arity(kind)) not in shown}
    assert missing == set()


@pytest.mark.parametrize("module", [engine_answers, infinity_answers, urban_war_answers],
                         ids=["engine", "infinity", "urban_war"])
def test_every_declared_type_is_a_frozen_dataclass_with_slots(module):
    for kind in _declared(module):
        assert kind.__slots__ == kind._fields and arity(kind) >= 1, kind
        assert "predicate" not in kind._fields and isinstance(kind.predicate, str), kind
        values = tuple(range(arity(kind)))
        (built,) = build(kind, [values])
        assert not hasattr(built, "__dict__"), kind
        assert built == kind(*values) and hash(built) == hash(kind(*values)) and built != kind(*values[:-1], -1)
        assert repr(built).startswith(f"{kind.__name__}({kind._fields[0]}=0")
        assert pickle.loads(pickle.dumps(built)) == built
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(built, kind._fields[0], 1)


def test_one_type_per_predicate_of_a_game():
    for module in (infinity_answers, urban_war_answers):
        kinds = _declared(module) + _declared(engine_answers)
        names = [kind.predicate for kind in kinds]
        assert len(names) == len(set(names)), module.__name__


def test_the_infinity_reports_read_through_their_declared_types_only():
    report_path = ROOT / "checker" / "infinity" / "report.py"
    resolution_path = ROOT / "checker" / "infinity" / "resolution.py"
    for path in (report_path, resolution_path):
        text = path.read_text(encoding="utf-8")
        assert "atoms.get(" not in text and "by_name" not in text, path
    every = {kind for kinds in infinity_answers.REPORT_TYPES.values() for kind in kinds}
    assert _named(report_path, infinity_answers) <= every
    assert _named(resolution_path, infinity_answers) == set(infinity_answers.RESOLUTION_TYPES)
    assert resolution.READS == predicates(infinity_answers.RESOLUTION_TYPES)
    assert set(infinity_answers.RESOLUTION_TYPES) <= set(infinity_answers.REPORT_TYPES["check"])


def test_no_report_leaves_unread_what_it_reads():
    """``report.UNREAD`` drops the predicates of the option types a command's report does
    not read, and never one it reads."""
    for command, unread in report.UNREAD.items():
        reads = predicates(infinity_answers.REPORT_TYPES[command])
        assert not unread.names & reads, command
    assert report.UNREAD["check"].names == {"act", "option"}
    assert report.UNREAD["aros"].names == {"act"}
    assert report.UNREAD["declarations"].names == {"option"}


def test_the_urban_war_report_reads_through_its_declared_types_only():
    path = ROOT / "checker" / "urban_war" / "report.py"
    text = path.read_text(encoding="utf-8")
    assert "atoms.get(" not in text and "by_name" not in text
    every = {kind for kinds in urban_war_answers.REPORT_TYPES.values() for kind in kinds}
    assert {kind for kind, _ in urban_war_answers.RESULTS} <= every
    assert _named(path, urban_war_answers) <= every


def test_objects_built_from_rows_carry_the_fields():
    rows = [(("aro", "fus", "bs_attack", "combi_rifle", None), "rule_a"), ("order", "rule_b")]
    built = build(Denied, rows)
    assert [(d.subject, d.rule) for d in built] == rows
    assert built[0] == Denied(("aro", "fus", "bs_attack", "combi_rifle", None), "rule_a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        built[0].rule = "other"  # type: ignore[misc]
    group = build(infinity_answers.Group, [(("act", "fus", 1, "alg"), "fus", "bs_attack", None, "bs", "alg", 3)])[0]
    assert (group.group, group.roller, group.skill, group.weapon, group.attribute, group.target, group.dice) == (
        ("act", "fus", 1, "alg"), "fus", "bs_attack", None, "bs", "alg", 3)
    result = build(infinity_answers.Result, [(("aro", "alg"), 2, "critical", 12)])[0]  # a field named ``kind``
    assert (result.group, result.index, result.kind, result.compare) == (("aro", "alg"), 2, "critical", 12)
    assert Denied(rule="rule_a", subject="order") == Denied("order", "rule_a")
    with pytest.raises(ValueError):
        build(Denied, [("order",)])
    with pytest.raises(TypeError):
        Denied("order")


def test_atoms_of_builds_each_type_once():
    atoms = Atoms({"denied": [("order", "rule_a")], "cite": [("rule_a", "p. 1", "text")]})
    denied = atoms.of(Denied)
    assert denied is atoms.of(Denied)
    assert [(d.subject, d.rule) for d in denied] == [("order", "rule_a")]
    assert atoms.of(engine_answers.Cite)[0].source == "p. 1"
    assert atoms.of(engine_answers.Gains) == []
    assert atoms == Atoms({"denied": [("order", "rule_a")], "cite": [("rule_a", "p. 1", "text")]})


def test_mypy_sees_the_fields(tmp_path):
    api = pytest.importorskip("mypy.api")
    good = tmp_path / "good.py"
    good.write_text("from checker.engine.answers import Denied\n"
                    "from checker.engine.solver import Atoms\n"
                    "def rules(atoms: Atoms) -> list[str]:\n"
                    "    return [d.rule for d in atoms.of(Denied)]\n", encoding="utf-8")
    bad = tmp_path / "bad.py"
    bad.write_text("from checker.engine.answers import Denied\n"
                   "from checker.engine.solver import Atoms\n"
                   "def misspelt(atoms: Atoms) -> list[str]:\n"
                   "    return [d.rules for d in atoms.of(Denied)]\n"
                   "def numbers(atoms: Atoms) -> list[int]:\n"
                   "    return [d.rule for d in atoms.of(Denied)]\n",
                   encoding="utf-8")
    options = ["--cache-dir", str(tmp_path / "cache"), "--follow-imports", "silent", "--no-error-summary"]
    out, _err, status = api.run([*options, str(good)])
    assert status == 0, out
    out, _err, status = api.run([*options, str(bad)])
    assert status == 1
    assert 'bad.py:4: error: "Denied" has no attribute "rules"' in out, out
    assert 'bad.py:6: error: List comprehension has incompatible type List[str]; expected List[int]' in out, out
