"""Parse the position notation (``grammar/position.lark``) into a :class:`Position`.

This module and its parts (notation_tree.py: reading the tree; notation_turn.py and
notation_table.py: the Player Turn's and the table's statements, mixed into the builder)
are the only ones that know lark.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

import lark
import lark_cython
from lark import Tree

from ..engine.errors import Location, NotationError, PositionError
from ..engine.gc_hold import gc_held
from ..engine.resources import grammar_file
from ..engine.text import decode as decode_bytes
from .notation_deploy import DeployStatements
from .notation_table import TableStatements
from .notation_tree import Token
from .notation_tree import extent as _extent
from .notation_tree import named as _named
from .notation_tree import span as _span
from .notation_tree import subtrees as _subtrees
from .notation_tree import token as _token
from .notation_tree import tokens as _tokens
from .notation_turn import ARMY_KINDS, TurnStatements
from .position import (
    RANGES,
    AroDecl,
    DelayDecl,
    DeployDecl,
    Dice,
    FireteamDecl,
    Named,
    OrderDecl,
    Position,
    Relation,
    SkillDecl,
    Span,
    Target,
    TrooperDecl,
    lines_of,
)

# What each terminal is called in an error message.
TERMINAL_WORDS = {
    "EDITION_KW": "'edition'",
    "ACTIVE_KW": "'active'",
    "TROOPER_KW": "'trooper'",
    "DEPLOYABLE_KW": "'deployable'",
    "LIEUTENANT_KW": "'lieutenant'",
    "GROUP_KW": "'group'",
    "CONTROLLER_KW": "'controller'",
    "TYPE_KW": "'type'",
    "TRAINING_KW": "'training'",
    "WOUNDS_KW": "'wounds'",
    "LIST_KW": "a list ('skills:', 'weapons:', 'equipment:', 'characteristics:', 'state:')",
    "LOF_KW": "'lof'",
    "ZOC_KW": "'zoc'",
    "HACKING_KW": "'hacking'",
    "DISTANCE_KW": "'distance'",
    "CONTACT_KW": "'contact'",
    "COVER_KW": "'cover'",
    "VISIBILITY_KW": "'visibility'",
    "TRIGGER_KW": "'trigger'",
    "SMOKE_KW": "'smoke'",
    "NEAREST_KW": "'nearest'",
    "TOWARD_KW": "'toward'",
    "REACH_KW": "'reach'",
    "AT_KW": "'at'",
    "ACROSS_KW": "'across'",
    "DODGE_KW": "'dodge'",
    "INSIDE_KW": "'inside'",
    "FROM_KW": "'from'",
    "FIRST_KW": "'first'",
    "SECOND_KW": "'second'",
    "AFTER_KW": "'after'",
    "ORDER_KW": "'order'",
    "IMPETUOUS_KW": "'impetuous'",
    "IRREGULAR_KW": "'irregular'",
    "TACTICAL_KW": "'tactical'",
    "COORDINATED_KW": "'coordinated'",
    "SPEARHEAD_KW": "'spearhead'",
    "FIRETEAM_KW": "'fireteam'",
    "LEADER_KW": "'leader'",
    "LEVEL_KW": "'level'",
    "DECLARES_KW": "'declares'",
    "ARO_KW": "'aro'",
    "DELAYS_KW": "'delays'",
    "DEPLOY_KW": "'deploy'",
    "DEPLOY_ZONE": "a zone ('own zone', 'own half', 'enemy half', 'enemy zone' or 'off table')",
    "DEPLOY_ENTRY": "an entry ('jump' or 'edge')",
    "PLACES_KW": "'places'",
    "OBJECTIVE_KW": "'objective'",
    "NEUTRAL_KW": "'neutral'",
    "DISPERSION_KW": "'dispersion'",
    "BLOCKED_KW": "'blocked'",
    "OFF_TABLE_KW": "'off table'",
    "DICE_KW": "'dice'",
    "DICE_KIND": "'save', 'guts' or 'reroll'",
    "DISCARD_KW": "'discard'",
    "TOKENS_KW": "'tokens'",
    "TOKEN_KW": "'token'",
    "UNAFFECTED_KW": "'unaffected'",
    "TOKEN_USE": "a use ('regular', 'unaffected' or 'guts')",
    "TOKEN_ORDER_USE": "a use ('regular', 'unaffected' or 'guts')",
    "POOL_KW": "'pool'",
    "SPENT_KW": "'spent'",
    "RETREAT_KW": "'retreat'",
    "LED_KW": "'led'",
    "POINTS_KW": "'points'",
    "COUNTED_KW": "'counted'",
    "STEP_KW": "'step'",
    "SPECIES_KW": "'species'",
    "AIRBORNE_KW": "'airborne'",
    "ANEW_KW": "'anew'",
    "END_KW": "'end'",
    "CANCEL_KW": "'cancel'",
    "NULLIFIED_KW": "'nullified'",
    "EDITION": "an edition ('n5' or 'n3')",
    "COVER_KIND": "'partial' or 'total'",
    "VISIBILITY_ZONE": "a Visibility Zone ('low', 'poor', 'zero' or 'white noise')",
    "ATTRIBUTE": "an attribute (MOV, CC, BS, PH, WIP, ARM, BTS, W, VITA, STR, S)",
    "VALUE": "a value (13, or 4-4 for MOV)",
    "INT": "a whole number",
    "NUMBER": "a distance in inches",
    "BURST": "a Burst share like 'x2'",
    "NAME": "a name (letters, digits, '_' or '-')",
    "PROFILE_NAME": "a profile name",
    "ITEM": "a name",
    "ARG": "a detail (weapon, ammunition...)",
    "SKILL_NAME": "a skill name",
    "ONE_WAY": "'->'",
    "BOTH_WAYS": "'<->'",
    "COLON": "':'",
    "COMMA": "','",
    "SEMI": "';'",
    "PLUS": "'+'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "FACING_KW": "'facing'",
    "ELEVATION_KW": "'elevation'",
    "TERRAIN_KW": "'terrain'",
    "HEIGHT_KW": "'height'",
    "SOLID_KW": "'solid'",
    "DIFFICULT_KW": "'difficult'",
    "ZONE_KW": "'zone'",
    "TEMPLATE_KW": "'template'",
    "ON_KW": "'on'",
    "TEMPLATE_SHAPE": "a template ('circular', 'small teardrop' or 'large teardrop')",
    "MOVE_KW": "'move'",
    "VIA_KW": "'via'",
    "DEPLOYMENT_KW": "'deployment'",
    "_NL": "the end of the line",
    "$END": "the end of the file",
}

# The source of an Order (grammar rule order_kind) -> OrderDecl.kind; impetuous is its own flag.
ORDER_KINDS = {"impetuous": "impetuous", "irregular": "irregular", "lieutenant_order": "lieutenant",
               "tactical": "tactical", "pool": "regular"}

# Common mistakes, each with its own message (lark's match_examples).
MISTAKES = {
    "an order names its skills after a colon: 'order hellcat: Move + BS Attack (...)'": [
        "order hellcat Move\n",
        "order hellcat Move + Dodge\n",
    ],
    "an ARO names its skill after a colon: 'aro fus1: Dodge'": [
        "aro fus1 Dodge\n",
        "aro fus1 BS Attack\n",
    ],
    "a trooper needs an id and a side: 'trooper fus1 panoceania Fusilier'": [
        "trooper fus1\n",
    ],
    "Line of Fire needs a direction: 'lof fus1 -> hellcat' or 'lof fus1 <-> hellcat'": [
        "lof fus1 hellcat\n",
    ],
    "a Zone of Control needs a direction: 'zoc fus1 -> hellcat' (hellcat is inside fus1's ZoC)": [
        "zoc fus1 hellcat\n",
        "zoc fus1 <-> hellcat\n",
    ],
    "cover names its attacker after 'from': 'cover fus1 partial from hellcat'": [
        "cover fus1 partial hellcat\n",
        "cover fus1 hellcat\n",
    ],
    "dice are whole numbers after a colon: 'dice fus1: 12 7'": [
        "dice fus1 12\n",
        "dice fus1: a\n",
    ],
    "wounds lost before the Order are a whole number, 0 or more: '{ W 2; wounds 1 }'": [
        "trooper x a { wounds -1 }\n",
        "trooper x a { wounds one }\n",
        "trooper x a { wounds }\n",
        "trooper x a { wounds\n}\n",
        "trooper x a { wounds 1.5 }\n",
        "trooper x a { wounds 1 1 }\n",
    ],
    "a distance is two trooper ids and inches: 'distance fus1 hellcat 12'": [
        "distance fus1 12\n",
        "distance fus1 hellcat\n",
    ],
}


_STEP_LINE = re.compile(r"^[ \t]*step\b", re.MULTILINE)


def is_sequence(text: str) -> bool:
    """Whether the text has a ``step`` line: a sequence of Orders (docs/turn.md,
    checker/infinity/sequence.py), which a position of one Order pays no more for than
    this search."""
    return _STEP_LINE.search(text) is not None


@lru_cache(maxsize=2)
def _parser(compiled: bool = True) -> lark.Lark:
    """The position grammar's LALR parser: ``compiled``, with lark's Cython lexer and
    parser (lark_cython), the one that reads positions; else lark's own, whose errors
    carry the parser state that names what was expected (``_tree`` asks it to describe a
    position the compiled one refused). The two share the grammar's tables."""
    # A cache file that cannot be written is not an error for the user: lark would log
    # it with a traceback, so its logger only speaks up for critical problems.
    logging.getLogger("lark").setLevel(logging.CRITICAL)
    return lark.Lark(
        grammar_file().read_text(encoding="utf-8"),
        parser="lalr",
        maybe_placeholders=False,
        cache=True,  # the LALR tables are rebuilt only when the grammar changes
        _plugins=lark_cython.plugins if compiled else {},
    )


def decode(data: bytes, file: str = "<position>") -> str:
    """The text of a position file's bytes (:func:`checker.engine.text.decode`: UTF-8, a
    leading byte order mark set aside, CR LF and lone CR line ends read as newlines).

    Raises
    ------
    NotationError
        At the line and column of the first byte that is not UTF-8.
    """
    return decode_bytes(data, file)


@gc_held()
def parse(text: str, file: str = "<position>") -> Position:
    """Parse a position text.

    Parameters
    ----------
    text:
        The position in the notation.
    file:
        The name used in error messages.

    Raises
    ------
    NotationError
        With file, line, column, the line and a caret, and what was expected.
    """
    return _Builder(file, text).build(_tree(text, file)[0])


def _tree(text: str, file: str) -> tuple[Tree, str]:
    """The parse tree of a position text and the text it parsed (ending with a newline).

    Raises
    ------
    NotationError
        At the first place the grammar does not accept.
    """
    source = text if text.endswith("\n") else text + "\n"
    try:
        return _parser().parse(source), source
    except lark.exceptions.UnexpectedInput:
        pass
    try:
        _parser(compiled=False).parse(source)
    except lark.exceptions.UnexpectedInput as exc:
        raise _notation_error(exc, source, file) from None
    raise AssertionError("the compiled parser refused a position lark's own accepts")


def error_location(exc: lark.exceptions.UnexpectedInput, source: str, file: str) -> Location:
    """Where a lark parse error stands in ``source`` (which ends with a newline): its line
    and column, or the end of the last line for an error at the end of the file."""
    lines = lines_of(source)[:-1]
    line = max(getattr(exc, "line", 1) or 1, 1)
    column = max(getattr(exc, "column", 1) or 1, 1)
    if isinstance(exc, lark.exceptions.UnexpectedEOF) or line > len(lines):
        line, column = len(lines), len(lines[-1]) + 1 if lines else 1
    return Location(file, line, column, lines[line - 1] if lines else "")


def _notation_error(exc: lark.exceptions.UnexpectedInput, source: str, file: str) -> NotationError:
    location = error_location(exc, source, file)
    expected = _expected_words(exc)
    hint = _matching_mistake(exc)
    if isinstance(exc, lark.exceptions.UnexpectedCharacters):
        at = exc.pos_in_stream
        found = repr(source[at]) if at is not None and at < len(source) else "end of file"
        message = f"unexpected character {found}"
    elif isinstance(exc, lark.exceptions.UnexpectedToken):
        message = f"unexpected {_describe(exc.token)}"
    else:
        message = "unexpected end of the file"
    if hint:
        message += f" ({hint})"
    return NotationError(message, location, expected)


def _describe(token: lark.Token) -> str:
    if token.type == "$END":
        return "end of the file"
    if token.type == "_NL":
        return "end of the line"
    # The fallback lexer may have named the token after any terminal: show its text only.
    return repr(str(token).strip())


def _expected_words(exc: lark.exceptions.UnexpectedInput) -> tuple[str, ...]:
    names = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ()
    words = sorted({TERMINAL_WORDS.get(n, n) for n in names if not n.startswith("__")})
    return tuple(words)


def _matching_mistake(exc: lark.exceptions.UnexpectedInput) -> str | None:
    """The message of the MISTAKES example that fails in the same parser state on the
    same kind of token. (lark's match_examples also compares stack depth, which differs
    between the first statement of a file and a later one.)"""
    if not isinstance(exc, lark.exceptions.UnexpectedToken):
        return None
    for message, examples in _mistake_states().items():
        if (exc.state.position, exc.token.type) in examples:
            return message
    return None


@lru_cache(maxsize=1)
def _mistake_states() -> dict[str, set[tuple[int, str]]]:
    states: dict[str, set[tuple[int, str]]] = {}
    for message, examples in MISTAKES.items():
        for example in examples:
            try:
                _parser(compiled=False).parse(example)
            except lark.exceptions.UnexpectedToken as exc:
                states.setdefault(message, set()).add((exc.state.position, exc.token.type))
    return states


# The grammar's relation rules read as a relation of one kind from two troopers: the
# kind, and the token that holds the relation's value (``distance a b 7.5``), if any.
RELATIONS: dict[str, tuple[str, str | None]] = {
    "lof": ("lof", None), "zoc": ("zoc", None), "hacking": ("hacking", None), "contact": ("contact", None),
    "distance": ("distance", "NUMBER"), "cover": ("cover", "COVER_KIND"), "nearest": ("nearest", None),
    "toward": ("toward", None), "reach": ("reach", None), "visibility": ("visibility", "VISIBILITY_ZONE"),
}


class _Builder(TurnStatements, TableStatements, DeployStatements):
    """Turns a parse tree into a Position, rejecting repeated singleton statements."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.lines = lines_of(text)
        self.fields: dict = {"troopers": [], "relations": [], "orders": [], "deployments": [], "aros": [], "delays": [],
                             "dice": [], "fireteams": [], "army": [], "elements": [], "dispersions": []}
        self.seen: dict[str, Span] = {}

    def build(self, tree: Tree) -> Position:
        """The Position of the parsed statements, taken in the order of their lines."""
        for node in tree.children:
            if not isinstance(node, Tree):
                continue
            if node.data in RELATIONS:
                self._relation(node, *RELATIONS[node.data])
            elif node.data in ARMY_KINDS:
                self._army(node, ARMY_KINDS[node.data])
            else:
                getattr(self, "_" + node.data)(node)
        f = self.fields
        return Position(
            file=self.file,
            text="\n".join(self.lines),
            edition=f.get("edition"),
            active=f.get("active"),
            troopers=tuple(f["troopers"]),
            relations=tuple(f["relations"]),
            orders=tuple(f["orders"]),
            deployments=tuple(f["deployments"]),
            aros=tuple(f["aros"]),
            delays=tuple(f["delays"]),
            fireteams=tuple(f["fireteams"]),
            dice=tuple(f["dice"]),
            army=tuple(f["army"]),
            elements=tuple(f["elements"]),
            dispersions=tuple(f["dispersions"]),
            statements=dict(self.seen),
            table=self._table(),
        )

    def _once(self, name: str, token: Token | Tree) -> None:
        span = _span(_token(token))
        if name in self.seen:
            first = self.seen[name]
            raise NotationError(
                f"a second '{name}' statement (the first is on line {first.line}); "
                f"a position has one",
                self._location(span),
            )
        self.seen[name] = span

    def _edition(self, node: Tree) -> None:
        self._once("edition", node.children[0])
        self.fields["edition"] = _named(_token(node.children[1]))

    def _active(self, node: Tree) -> None:
        self._once("active", node.children[0])
        self.fields["active"] = _named(_token(node.children[1]))

    def _deployable(self, node: Tree) -> None:
        self._trooper(node, deployable=True)

    def _trooper(self, node: Tree, deployable: bool = False) -> None:
        names = _tokens(node, "NAME")
        profile = _tokens(node, "PROFILE_NAME")
        decl: dict = {"lieutenant": False, "group": None, "attributes": [], "lists": []}
        for block in _subtrees(node, "block"):
            for entry in block.children:
                if isinstance(entry, Tree):
                    self._entry(entry, decl)
        self.fields["troopers"].append(
            TrooperDecl(
                id=_named(names[0]),
                side=_named(names[1]),
                profile=_named(profile[0]) if profile else None,
                lieutenant=decl["lieutenant"],
                group=decl["group"],
                controller=decl.get("controller"),
                attributes=tuple(decl["attributes"]),
                troop_type=decl.get("troop_type"),
                training=decl.get("training"),
                lists=tuple(decl["lists"]),
                wounds=decl.get("wounds"),
                points=decl.get("points"),
                species=decl.get("species"),
                deployable=_named(_token(node.children[0])) if deployable else None,
            )
        )

    def _entry(self, entry: Tree, decl: dict) -> None:
        kids: list = entry.children
        if entry.data == "lieutenant":
            decl["lieutenant"] = True
        elif entry.data == "group":
            decl["group"] = _named(kids[1])
        elif entry.data == "controller":
            decl["controller"] = _named(kids[1])
        elif entry.data == "attribute":
            decl["attributes"].append((_named(kids[0]), _named(kids[1])))
        elif entry.data == "wounds":
            decl["wounds"] = _named(kids[1])
        elif entry.data == "points":
            decl["points"] = _named(kids[1])
        elif entry.data == "trooper_species":  # `species human`: its own, not its army's
            decl["species"] = _named(kids[1])
        elif entry.data in ("troop_type", "training"):
            decl[entry.data] = _named(kids[1])
        elif entry.data == "listing":
            kind = str(kids[0])
            kind = "states" if kind == "state" else kind
            items = tuple(self._item(i) for i in _subtrees(entry, "item"))
            decl["lists"].append((kind, items))

    @staticmethod
    def _item(item: Tree) -> Named:
        args = _tokens(item, "ARG")
        if not args:
            return _named(_tokens(item, "ITEM")[0])
        arg = args[0]
        text = str(arg)
        offset = len(text) - len(text.lstrip())  # the parameter's own column, past spaces
        name = _named(_tokens(item, "ITEM")[0], text.strip())
        return Named(name.text, name.span, name.param, Span(name.span.line, _span(arg).column + offset))

    def _relation(self, node: Tree, kind: str, value_token: str | None = None) -> None:
        subject, obj = _tokens(node, "NAME")
        phase = [str(t) for p in _subtrees(node, "phase") for t in p.children if _token(t).type != "FROM_KW"]
        step = {"first": 1, "second": 2}[phase[0]] if phase else 0
        value = _named(_tokens(node, value_token)[0]) if value_token else None
        self.fields["relations"].append(Relation(kind, _named(subject), _named(obj), step, value))

    def _lof_both(self, node: Tree) -> None:
        self._relation(node, "lof")
        self._relation(Tree(node.data, list(reversed(node.children))), "lof")

    def _toward_zone(self, node: Tree) -> None:
        self._zone_relation(node, "toward_zone")

    def _inside_zone(self, node: Tree) -> None:
        self._zone_relation(node, "inside_zone")

    def _zone_relation(self, node: Tree, kind: str) -> None:
        # one trooper and the enemy Deployment Zone: the trooper is both subject and object
        trooper = _named(_tokens(node, "NAME")[0])
        phase = [str(t) for p in _subtrees(node, "phase") for t in p.children if _token(t).type != "FROM_KW"]
        step = {"first": 1, "second": 2}[phase[0]] if phase else 0
        self.fields["relations"].append(Relation(kind, trooper, trooper, step))

    def _visibility_inside(self, node: Tree) -> None:
        # one trooper: it is both the subject and the object of the relation
        trooper = _tokens(node, "NAME")[0]
        zone = _named(_tokens(node, "VISIBILITY_ZONE")[0])
        self.fields["relations"].append(Relation("visibility_inside", _named(trooper), _named(trooper), 0, zone))

    def _trigger(self, node: Tree) -> None:
        # the Mine, then the trooper in its Trigger Area; the troopers its template also
        # affects, and 'from dodge' (value "dodge": it enters the area at the end of its Dodge)
        mine, trooper = (_named(t) for t in _tokens(node, "NAME")[:2])
        covered = tuple(_named(t) for c in _subtrees(node, "covered") for t in _tokens(c, "NAME"))
        moves = [_named(t) for m in _subtrees(node, "entry_move") for t in _tokens(m, "DODGE_KW")]
        self.fields["relations"].append(Relation("trigger", mine, trooper, 0, moves[0] if moves else None, covered))

    def _smoke_at(self, node: Tree) -> None:
        # the thrower, both subject and object; the inches to where its template lands
        thrower = _named(_tokens(node, "NAME")[0])
        inches = _named(_tokens(node, "NUMBER")[0])
        self.fields["relations"].append(Relation("smoke_at", thrower, thrower, 0, inches))

    def _smoke_across(self, node: Tree) -> None:
        # the thrower, then the attacker and the target of the Attack whose LoF crosses it
        thrower, attacker, target = (_named(t) for t in _tokens(node, "NAME")[:3])
        self.fields["relations"].append(Relation("smoke_across", thrower, attacker, 0, target))

    def _order(self, node: Tree) -> None:
        trooper = _named(_tokens(node, "NAME")[0])
        for earlier in self.fields["orders"]:
            if earlier.trooper.text == trooper.text:
                raise NotationError(
                    f"a second 'order' for {trooper.text!r} (the first is on line "
                    f"{earlier.trooper.span.line}); one Order per position",
                    self._location(trooper.span),
                )
        self.seen.setdefault("order", trooper.span)
        skills = tuple(self._skill(s) for s in _subtrees(node, "skill"))
        coordination = _subtrees(node, "coordination")
        team = _subtrees(node, "team")
        kind = next((c for c in node.children if isinstance(c, Tree) and c.data in ORDER_KINDS), None)
        pool = _tokens(kind, "INT") if kind is not None and kind.data == "pool" else []
        declares = tuple(_named(t) for d in _subtrees(node, "declares") for t in _tokens(d, "SKILL_NAME"))
        self.fields["orders"].append(OrderDecl(
            trooper, skills, kind is not None and kind.data == "impetuous", bool(coordination),
            bool(coordination and _tokens(coordination[0], "SPEARHEAD_KW")),
            ORDER_KINDS[kind.data] if kind is not None else None, _named(pool[0]) if pool else None,
            bool(team), bool(team and _tokens(team[0], "LEADER_KW")), declares,
        ))

    def _fireteam(self, node: Tree) -> None:
        names = [_named(t) for t in _tokens(node, "NAME")]
        level = _tokens(node, "INT")
        self.fields["fireteams"].append(FireteamDecl(names[0], names[1], tuple(names[2:]),
                                                     _named(level[0]) if level else None))

    def _deploy(self, node: Tree) -> None:
        # one deployment a position; several only for a Coordinated Order's landings
        # (checker/infinity/deploy_resolve.py, airborne_order, judges them)
        zone = _tokens(node, "DEPLOY_ZONE")[0]
        entry = _tokens(node, "DEPLOY_ENTRY")
        placed = [p for tree in _subtrees(node, "deploy_places") for p in _subtrees(tree, "placed")]
        places = tuple(_named(_tokens(p, "NAME")[0]) for p in placed)
        zones = tuple(_named(z[0]) if (z := _tokens(p, "DEPLOY_ZONE")) else None for p in placed)
        self.fields["deployments"].append(DeployDecl(_named(_tokens(node, "NAME")[0]), _named(zone),
                                                     _named(entry[0]) if entry else None, places, zones))

    def _aro(self, node: Tree) -> None:
        step = 2 if _subtrees(node, "timing") else 1
        skill = self._skill(_subtrees(node, "skill")[0])
        self.fields["aros"].append(AroDecl(_named(_tokens(node, "NAME")[0]), skill, step))

    def _aro_delay(self, node: Tree) -> None:
        names = _tokens(node, "NAME")
        self.fields["delays"].append(DelayDecl(_named(names[0]), _named(names[1]) if len(names) > 1 else None))

    def _skill(self, node: Tree) -> SkillDecl:
        args: tuple[Named, ...] = ()
        for arguments in _subtrees(node, "arguments"):
            args = tuple(_named(t) for t in _tokens(arguments, "ARG"))
        targets: list[Target] = []
        for group in _subtrees(node, "targets"):
            for target in _subtrees(group, "target"):
                burst = _tokens(target, "BURST")
                covered = [
                    _named(t) for c in _subtrees(target, "covered") for t in _tokens(c, "NAME")
                ]
                targets.append(
                    Target(
                        _named(_tokens(target, "NAME")[0]),
                        Named(str(burst[0])[1:], _span(burst[0])) if burst else None,
                        tuple(covered),
                    )
                )
        return SkillDecl(_named(_tokens(node, "SKILL_NAME")[0]), args, tuple(targets))

    def _dice(self, node: Tree) -> None:
        trooper = _named(_tokens(node, "NAME")[0])
        kind = str(_tokens(node, "DICE_KIND")[0]) if _tokens(node, "DICE_KIND") else "roll"
        for earlier in self.fields["dice"]:
            if (earlier.trooper.text, earlier.kind) == (trooper.text, kind):
                raise NotationError(
                    f"a second 'dice {trooper.text}{'' if kind == 'roll' else ' ' + kind}' line "
                    f"(the first is on line {earlier.trooper.span.line}): write all of them on one line, "
                    "in the order rolled",
                    self._location(trooper.span),
                )
        ints = _tokens(node, "INT")
        spans = tuple(_span(t) for t in ints)
        discards = [t for sub in _subtrees(node, "discards") for t in _tokens(sub, "INT")]
        self.fields["dice"].append(Dice(trooper, tuple(self._die(t) for t in ints), kind, spans,
                                        tuple(self._die(t) for t in discards), tuple(_span(t) for t in discards)))

    def _die(self, token: Token) -> int:
        """A die as an int, if a d20 can show it. (The Dice keep ints, so the range is
        checked here rather than with the other numbers in checker.infinity.resolve.)"""
        die = RANGES["die"]
        text = str(token)
        value = die.read(text)
        if value is None:
            shown = text if len(text) <= 12 else f"{text[:9]}... ({len(text)} digits)"
            at = _span(token)
            raise PositionError(
                f"a die reads {die.low} to {die.high}, not {shown}",
                self._location(at),
                (die.expected(),),
            )
        return value


@dataclass(frozen=True)
class Statement:
    """One statement of a position as written, for checker/infinity/sequence.py: its kind
    (the grammar rule: ``trooper``, ``lof``, ``order``, ``step``...), its first and last
    lines, a ``step``'s number, ``anew`` and ``end`` (the States Phase), and a relation's ``from first`` / ``from
    second`` as the columns it spans on its line (1-based, end exclusive)."""

    kind: str
    line: int
    end_line: int
    number: int | None = None
    anew: bool = False
    phase: tuple[int, int] | None = None
    end: bool = False


def _step_number(token: Token, source: str, file: str) -> int:
    """A ``step`` line's number, if a Player Turn can hold that many Orders."""
    bound = RANGES["step"]
    number = bound.read(str(token))
    if number is None:
        at = _span(token)
        raise PositionError(bound.out_of_range(str(token)),
                            Location(file, at.line, at.column, lines_of(source)[at.line - 1]), (bound.expected(),))
    return number


def statements(text: str, file: str = "<position>") -> tuple[Statement, ...]:
    """The statements of ``text`` in order, each with its lines (a sequence of Orders is
    split by them before each Order is read by :func:`parse`).

    Raises
    ------
    NotationError
        As :func:`parse`, for a text that does not parse.
    """
    tree, source = _tree(text, file)
    found = []
    for node in tree.children:
        if not isinstance(node, Tree):
            continue
        line, _column, end_line, _end = _extent(node)
        number = anew = end = None
        if node.data == "step":
            number = _step_number(_tokens(node, "INT")[0], source, file)
            anew = bool(_tokens(node, "ANEW_KW"))
            end = bool(_tokens(node, "END_KW"))
        phases = _subtrees(node, "phase")
        phase = (_extent(phases[0])[1], _extent(phases[0])[3]) if phases else None
        found.append(Statement(str(node.data), line, end_line, number, bool(anew), phase, bool(end)))
    return tuple(found)
