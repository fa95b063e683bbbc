"""The notation: the grammar's own example parses; mistakes get located, worded errors."""

from __future__ import annotations

import random

import pytest

from checker.engine.errors import NotationError, RulingError
from checker.engine.resources import grammar_file
from checker.infinity import notation, resolve


def grammar_example() -> str:
    lines = grammar_file().read_text(encoding="utf-8").splitlines()
    return "\n".join(line[7:] for line in lines if line.startswith("//     "))


def test_grammar_example_parses_into_every_construct():
    pos = notation.parse(grammar_example(), "example.pos")
    assert pos.edition.text == "n3" and pos.active.text == "nomads"
    assert [t.id.text for t in pos.troopers] == ["hellcat", "fus1", "fus2", "ghost"]
    ghost = pos.troopers[3]
    assert ghost.profile is None and ghost.troop_type.text == "LI"
    assert {n.text: v.text for n, v in ghost.attributes}["MOV"] == "4-4"
    skills = dict(ghost.lists)["skills"]
    assert [(s.text, s.param) for s in skills] == [("Sixth Sense L2", None), ("Surprise Attack", "-3")]
    kinds = sorted({r.kind for r in pos.relations})
    assert kinds == ["contact", "cover", "distance", "hacking", "lof", "visibility", "zoc"]
    assert [(r.subject.text, r.object.text, r.value.text) for r in pos.relations if r.kind == "visibility"] == [
        ("fus2", "hellcat", "poor")
    ]
    assert [r.step for r in pos.relations if r.kind == "lof"] == [0, 0, 2]
    assert [r.step for r in pos.relations if r.kind == "contact"] == [0, 1]
    attack = pos.orders[0].skills[1]
    assert attack.name.text == "BS Attack"
    assert [a.text for a in attack.arguments] == ["Boarding Shotgun", "Normal"]
    assert [(t.id.text, t.burst.text, [c.text for c in t.covered]) for t in attack.targets] == [
        ("fus1", "2", ["fus2"])
    ]
    assert [(a.trooper.text, a.step) for a in pos.aros] == [("fus1", 1), ("fus2", 2)]
    assert [(d.trooper.text, d.kind, d.rolls) for d in pos.dice] == [
        ("hellcat", "roll", (7, 15)), ("fus1", "roll", (11,)), ("fus1", "save", (4, 18)),
        ("fus2", "guts", (12,)),
    ]


def test_delay_is_declared_with_or_without_its_marker():
    pos = notation.parse(
        "edition n3\nactive a\ntrooper x a\ntrooper y a\ntrooper r b\ntrooper s b\n"
        "order x coordinated spearhead: Move + Move\norder y coordinated: Move + Move\n"
        "aro r delays -> y\naro s delays\naro r after second: Discover -> y\n"
    )
    assert [(d.trooper.text, d.target.text if d.target else None) for d in pos.delays] == [("r", "y"), ("s", None)]
    assert [(a.trooper.text, a.step) for a in pos.aros] == [("r", 2)]


def test_visibility_zone_names_one_of_the_four_zones():
    pos = notation.parse("edition n5\nactive a\ntrooper x a\ntrooper y b\nvisibility x y white noise\n")
    assert [(r.kind, r.value.text) for r in pos.relations] == [("visibility", "white noise")]
    with pytest.raises(NotationError) as raised:
        notation.parse("edition n5\nactive a\ntrooper x a\ntrooper y b\nvisibility x y foggy\n", "v.pos")
    assert "a Visibility Zone ('low', 'poor', 'zero' or 'white noise')" in str(raised.value)


def test_coordinated_order_has_one_line_per_participant():
    pos = notation.parse(
        "edition n5\nactive a\ntrooper x a\ntrooper y a\n"
        "order x coordinated spearhead: Move\norder y coordinated: Move\n"
    )
    assert [(o.trooper.text, o.coordinated, o.spearhead) for o in pos.orders] == [
        ("x", True, True), ("y", True, False)
    ]


def test_declares_follows_the_order_kind_coordination_or_fireteam():
    pos = notation.parse(
        "edition n5\nactive a\ntrooper x a\ntrooper y a\ntrooper z a\n"
        "order x lieutenant coordinated spearhead declares Stealth, Sixth Sense L1: Move\n"
        "order y fireteam leader declares Stealth: Move\norder z declares Stealth\n"
    )
    assert [([d.text for d in o.declares], o.kind, o.coordinated, o.fireteam, len(o.skills))
            for o in pos.orders] == [
        (["Stealth", "Sixth Sense L1"], "lieutenant", True, False, 1),
        (["Stealth"], None, False, True, 1),
        (["Stealth"], None, False, False, 0),
    ]
    assert pos.orders[0].declares[1].span.column == 60


def test_a_second_order_for_one_trooper_is_an_error():
    with pytest.raises(NotationError, match="a second 'order' for 'x'") as err:
        notation.parse("edition n5\nactive a\ntrooper x a\norder x: Move\norder x: Idle\n")
    assert err.value.location.line == 5


def test_activation_without_skills():
    pos = notation.parse("edition n5\nactive a\ntrooper x a\norder x\n")
    assert pos.orders[0].trooper.text == "x" and pos.orders[0].skills == ()


def test_the_common_mistakes_table_is_not_empty():
    # the parametrized test below runs one test per example: none if the table were empty
    assert len(notation.MISTAKES) >= 8 and all(notation.MISTAKES.values())


@pytest.mark.parametrize("message, example", [
    (msg, ex) for msg, examples in notation.MISTAKES.items() for ex in examples
])
def test_common_mistakes_have_their_own_message(message, example):
    with pytest.raises(NotationError) as err:
        notation.parse("edition n3\n" + example, "bad.pos")
    assert message in str(err.value)
    assert err.value.location.line == 2


def test_error_names_file_line_column_caret_and_expected_words():
    with pytest.raises(NotationError) as err:
        notation.parse("edition n5\nactive a\ncover x partial y\n", "f.pos")
    text = str(err.value)
    assert text.splitlines()[0].startswith("f.pos:3:17: error: unexpected 'y'")
    assert "    cover x partial y\n                    ^" in text
    assert "expected 'from'" in text


def test_second_edition_statement_is_rejected_with_first_line():
    with pytest.raises(NotationError, match="the first is on line 1") as err:
        notation.parse("edition n5\nedition n3\n")
    assert (err.value.location.line, err.value.location.column) == (2, 1)


def test_random_input_never_escapes_as_anything_but_a_ruling_error():
    rng = random.Random(7)
    alphabet = "abc xyz->:+,()[]{}#;\n\t0123456789\x00é☃"
    outcomes = {"parsed": 0, "refused": 0}
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        try:
            notation.parse(text)
            outcomes["parsed"] += 1
        except RulingError as exc:
            assert isinstance(exc, NotationError) and exc.location.line >= 1, exc
            outcomes["refused"] += 1
    # both sides were reached: some texts parse (comments, blank lines), most do not
    assert outcomes["parsed"] > 0 and outcomes["refused"] > 200, outcomes


def test_lines_are_counted_at_newlines_only():
    # str.splitlines would also split at U+2028 and form feeds, and show the wrong line
    text = "edition n5\n# a\u2028comment\x0c\nactive a\ncover x partial y\n"
    with pytest.raises(NotationError) as err:
        notation.parse(text, "f.pos")
    assert (err.value.location.line, err.value.location.source_line) == (4, "cover x partial y")
    with pytest.raises(RulingError) as err:
        resolve.resolve(notation.parse(text.replace("cover x partial y", "trooper x a\nlof x -> y"), "f.pos"))
    assert (err.value.location.line, err.value.location.source_line) == (5, "lof x -> y")


def test_decode_names_the_line_and_column_of_a_byte_that_is_not_utf8():
    assert notation.decode("é\n".encode()) == "é\n"
    with pytest.raises(NotationError) as err:
        notation.decode(b"edition n5\nactive \xc3\xa9\xff x\n", "f.pos")
    location = err.value.location
    assert (location.file, location.line, location.column) == ("f.pos", 2, 9)
    assert location.source_line == "active é\ufffd x"
    assert str(err.value).startswith("f.pos:2:9: error: the file is not UTF-8 text: byte 0xff (invalid start byte)")
