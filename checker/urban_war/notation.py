"""Parse the Urban War notation (``grammar/urban_war.lark``) into a :class:`Position`.

Inputs: a position text. Defines: :func:`parse`. The Urban War module that knows lark.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import lru_cache

import lark
from lark import Token, Tree

from ..engine.catalogue import normalize
from ..engine.errors import Location, NotationError, PositionError
from ..engine.numbers import shown, whole
from ..engine.resources import grammar_file
from ..infinity.notation import error_location
from ..infinity.position import Span, lines_of
from .position import (
    ORDERS,
    RANGES,
    Band,
    Declaration,
    Dice,
    Distance,
    Los,
    Model,
    Named,
    Position,
    Step,
    Unverified,
)

TERMINAL_WORDS = {
    "GAME_KW": "'game'", "ACTIVE_KW": "'active'", "MODEL_KW": "'model'", "ORDER_KW": "'order'",
    "SKILLS_KW": "'skills:'", "STATE_KW": "'state:'", "LOS_KW": "'los'", "RANGE_KW": "'range'",
    "ACTION_KW": "'action'", "REACT_KW": "'react'", "WOUNDS_KW": "'wounds'", "DICE_KW": "'dice'",
    "DISTANCE_KW": "'distance'", "NEED_KW": "'need'", "MOD_KW": "'mod'", "UNVERIFIED_KW": "'unverified'", "FROM_KW": "'from'",
    "QUOTED": "a value in double quotes", "SOURCE": "the address of the report or summary",
    "SIGNED_INT": "a signed number (+2, -1)",
    "GAME_NAME": "'urban-war'", "ORDER_NAME": "an order ('overwatch', 'snap-fire' or 'lock-fire')",
    "ATTRIBUTE": "an attribute (cal, cd, w, sz, mv, lost)", "BAND": "a range band ('short', 'medium' or 'long')",
    "DICE_KIND": "a kind of dice (hit, damage, cover, dodge, armour, command, morale)", "INT": "a whole number", "NAME": "a name (letters, digits, '_' or '-')",
    "WORD": "a name", "ONE_WAY": "'->'", "BOTH_WAYS": "'<->'", "COLON": "':'", "COMMA": "','",
    "SEMI": "';'", "PLUS": "'+'", "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'",
    "_NL": "the end of the line", "$END": "the end of the file",
}


@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    logging.getLogger("lark").setLevel(logging.CRITICAL)
    grammar = grammar_file().with_name("urban_war.lark").read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse(text: str, file: str = "<position>") -> Position:
    """Parse an Urban War position.

    Raises
    ------
    NotationError
        With file, line, column, the line and a caret, and what was expected.
    PositionError
        For a number out of its range, a statement written twice, or a first statement
        other than ``game urban-war``.
    """
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(source)
    except lark.exceptions.UnexpectedInput as exc:
        raise _notation_error(exc, source, file) from None
    return _Builder(file, text).build(tree)


def _notation_error(exc: lark.exceptions.UnexpectedInput, source: str, file: str) -> NotationError:
    names = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ()
    expected = tuple(sorted({TERMINAL_WORDS.get(n, n) for n in names if not n.startswith("__")}))
    if isinstance(exc, lark.exceptions.UnexpectedCharacters):
        at = exc.pos_in_stream
        message = f"unexpected character {source[at]!r}" if at is not None and at < len(source) else "unexpected end of the file"
    elif isinstance(exc, lark.exceptions.UnexpectedToken):
        token = exc.token
        message = ("unexpected end of the file" if token.type == "$END" else "unexpected end of the line"
                   if token.type == "_NL" else f"unexpected {str(token).strip()!r}")
    else:
        message = "unexpected end of the file"
    return NotationError(message, error_location(exc, source, file), expected)


def _one_spelling(models: list[Model], active: Named | None) -> tuple[list[Model], Named | None]:
    """Sides compare as catalogue names do (case aside): each side is the spelling of the
    first model written on it, for every model and for the active side."""
    first: dict[str, str] = {}
    for m in models:
        first.setdefault(normalize(m.side), m.side)
    models = [replace(m, side=first[normalize(m.side)]) for m in models]
    if active is not None and normalize(active.text) in first:
        active = replace(active, text=first[normalize(active.text)])
    return models, active


def _span(token: Token) -> Span:
    return Span(token.line or 1, token.column or 1)


class _Builder:
    """Walks the parse tree into a Position, checking numbers against RANGES."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.lines = lines_of(text)

    def error(self, message: str, span: Span) -> PositionError:
        line = self.lines[span.line - 1] if span.line <= len(self.lines) else ""
        return PositionError(message, Location(self.file, span.line, span.column, line))

    def number(self, token: Token, kind: str) -> int:
        """The number ``token`` writes, if it lies in ``RANGES[kind]``; a PositionError at it
        otherwise (the bounded reader: a number of any length is refused, never converted)."""
        low, high, why = RANGES[kind]
        value = whole(str(token), low, high)
        if value is None:
            written = str(token) if len(str(token)) <= 12 else shown(str(token))
            raise self.error(f"{kind} {written} is out of range: {low} to {high} ({why})", _span(token))
        return value

    def build(self, tree: Tree) -> Position:
        statements = [s for s in tree.children if isinstance(s, Tree)]
        if not statements or statements[0].data != "game":
            head = statements[0].children[0] if statements else None
            where = _span(head) if isinstance(head, Token) else Span(1, 1)
            raise self.error("an Urban War position opens with 'game urban-war'", where)
        active: Named | None = None
        models: list[Model] = []
        los: list[Los] = []
        bands: list[Band] = []
        distances: list[Distance] = []
        unverified: list[Unverified] = []
        action: Declaration | None = None
        reactions: list[Declaration] = []
        wounds: list[tuple[Named, int]] = []
        dice: list[Dice] = []
        for st in statements[1:]:
            toks = [c for c in st.children if isinstance(c, Token)]
            if st.data == "game":
                raise self.error("the game is stated once, on the first line", _span(toks[0]))
            if st.data == "active":
                if active is not None:
                    raise self.error("the active side is stated once", _span(toks[0]))
                active = Named(str(toks[1]), _span(toks[1]))
            elif st.data == "model":
                models.append(self.model(st, toks))
            elif st.data == "los":
                a, arrow, b = toks[1], toks[2], toks[3]
                los.append(Los(str(a), str(b), _span(a)))
                if arrow.type == "BOTH_WAYS":
                    los.append(Los(str(b), str(a), _span(b)))
            elif st.data == "range":
                bands.append(Band(str(toks[1]), str(toks[2]), str(toks[3]), _span(toks[1])))
            elif st.data == "distance":
                inches = self.number(toks[3], "distance")
                distances.append(Distance(str(toks[1]), str(toks[2]), inches, _span(toks[1])))
                distances.append(Distance(str(toks[2]), str(toks[1]), inches, _span(toks[1])))
            elif st.data == "unverified":
                unverified.append(Unverified(str(toks[1]).strip('"'), str(toks[3]), _span(toks[0])))
            elif st.data == "action":
                if action is not None:
                    raise self.error("one model is activated: one 'action' line", _span(toks[0]))
                action = Declaration(Named(str(toks[1]), _span(toks[1])), self.steps(st))
            elif st.data == "react":
                reactions.append(Declaration(Named(str(toks[1]), _span(toks[1])), self.steps(st)))
            elif st.data == "wounds":
                wounds.append((Named(str(toks[1]), _span(toks[1])), self.number(toks[2], "wounds")))
            elif st.data == "dice":
                kinds = {t.type: i for i, t in enumerate(toks)}
                need = self.number(toks[kinds["NEED_KW"] + 1], "need") if "NEED_KW" in kinds else None
                mod = self.number(toks[kinds["MOD_KW"] + 1], "mod") if "MOD_KW" in kinds else None
                values = tuple(self.number(t, "die") for t in toks[kinds["COLON"] + 1:])
                dice.append(Dice(Named(str(toks[1]), _span(toks[1])), str(toks[2]), values, _span(toks[0]), need, mod))
        models, active = _one_spelling(models, active)
        return Position(self.file, "\n".join(self.lines), active, tuple(models), tuple(los), tuple(bands),
                        action, tuple(reactions), tuple(wounds), tuple(dice), tuple(distances),
                        tuple(unverified))

    def model(self, st: Tree, toks: list[Token]) -> Model:
        order: str | None = None
        attributes: list[tuple[str, int, Span]] = []
        skills: list[Named] = []
        states: list[Named] = []
        for block in (c for c in st.children if isinstance(c, Tree)):
            for detail in (c for c in block.children if isinstance(c, Tree)):
                first = detail.children[0]
                assert isinstance(first, Token)
                if detail.data == "order_detail":
                    order = ORDERS[str(detail.children[1])]
                elif detail.data == "attribute":
                    name = str(first).lower()
                    value = detail.children[1]
                    assert isinstance(value, Token)
                    attributes.append((name, self.number(value, name), _span(first)))
                else:
                    items = [self.item(i) for i in detail.children if isinstance(i, Tree)]
                    (skills if detail.data == "skills_list" else states).extend(items)
        return Model(str(toks[1]), str(toks[2]), _span(toks[1]), order, tuple(attributes), tuple(skills),
                     tuple(states))

    def item(self, tree: Tree) -> Named:
        words = [t for t in tree.children if isinstance(t, Token) and t.type == "WORD"]
        ints = [t for t in tree.children if isinstance(t, Token) and t.type == "INT"]
        value = self.number(ints[0], "value") if ints else None
        return Named(" ".join(str(w) for w in words), _span(words[0]), value)

    def steps(self, st: Tree) -> tuple[Step, ...]:
        found = []
        for step in (c for c in st.children if isinstance(c, Tree)):
            words = [t for t in step.children if isinstance(t, Token) and t.type == "WORD"]
            names = [t for t in step.children if isinstance(t, Token) and t.type == "NAME"]
            target = Named(str(names[0]), _span(names[0])) if names else None
            found.append(Step(Named(" ".join(str(w) for w in words), _span(words[0])), target))
        return tuple(found)
