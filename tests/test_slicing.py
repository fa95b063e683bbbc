"""checker/engine/slicing.py: the rules given to clingo are those a position's facts can
fire (their body's atoms met by a fact or a kept rule's head, compared by the constants
written as arguments); whether the answer is the whole rule base's is checked on the
case positions by tests/test_solver.py."""

from __future__ import annotations

import marshal

from clingo import Function, Number, String, ast

from checker.engine import slicing

PROGRAM = """
#show kept/1.
#defined has_skill/3.
kept(1) :- has_skill(T, hacker, L).
kept(2) :- has_skill(T, camouflage, L).
kept(3) :- kept(1), trooper(T).
kept(4) :- not has_skill(T, dodge, L), trooper(T).
kept(5) :- #count { T: has_skill(T, mimetism, _) } = 0.
-kept(6) :- trooper(T), distance(T, U, 8).
kept(7) :- -kept(6).
kept(8; 9) :- kept(3).
kept(10) :- kept(9), distance(T, U, X), X > 4.
"""


def _statements(text: str) -> list[ast.AST]:
    found: list[ast.AST] = []
    ast.parse_string(text, found.append)
    return found


def _kept(facts: list) -> set[str]:
    statements = _statements(PROGRAM)
    slicer = slicing.analyse(statements)
    assert slicer is not None
    return {str(statements[i]).split(" :-")[0] for i in slicer.kept(facts)
            if statements[i].ast_type == ast.ASTType.Rule}


def test_a_rule_is_kept_when_the_facts_and_kept_heads_meet_its_body():
    facts = [Function("trooper", [String("a")]), Function("has_skill", [String("a"), Function("hacker"), Number(1)]),
             Function("distance", [String("a"), String("b"), Number(12)])]
    assert _kept(facts) == {"kept(1)", "kept(3)", "kept(4)", "kept(5)", "kept(8;9)", "kept(10)"}


def test_a_rule_needing_an_atom_nothing_gives_is_left_out():
    assert _kept([Function("trooper", [String("a")])]) == {"kept(4)", "kept(5)"}
    assert _kept([Function("trooper", [String("a")]), Function("distance", [String("a"), String("b"), Number(8)])]) == {
        "kept(4)", "kept(5)", "-kept(6)", "kept(7)"}


def test_a_rule_base_with_a_statement_it_does_not_read_is_given_whole():
    assert slicing.analyse(_statements("#const n = 2.\np(n).")) is None
    assert slicing.analyse(_statements("#external q.\np :- q.")) is None


def test_the_slicer_reads_back_from_its_json():
    slicer = slicing.analyse(_statements(PROGRAM))
    assert slicer is not None
    again = slicing.Slicer(marshal.loads(marshal.dumps(slicer.data())))
    facts = [Function("trooper", [String("a")]), Function("has_skill", [String("a"), Function("camouflage"), Number(1)])]
    assert again.kept(facts) == slicer.kept(facts)
