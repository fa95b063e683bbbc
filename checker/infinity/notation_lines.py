"""The common one-line statements of a position, read without the parser.

A large position is mostly ``trooper`` lines (with their details on the line) and
relations (``lof``, ``zoc``, ``hacking``, ``contact``, ``distance``, ``cover``); reading
them token by token through lark costs most of a parse. ``LineReader`` reads each such
line with one regular expression built from the grammar's own terminals, each token
matched as the parser's lexer matches it (an atomic group: no backtracking into it), and
gives the position objects the parser's tree would give; ``checker.infinity.notation`` blanks
those lines and parses the rest. A line it is unsure of is left to the parser: one
inside a ``{ ... }`` block spanning lines, one naming a keyword, any spelling it does not
know. Blanking a complete statement outside a block leaves the rest of the file as
valid (or invalid) as it was, so the parser's verdict on the rest stands; an error is
always reported from the whole text.

The rules these lines follow must be the grammar's (``RULES``): when the grammar
changes them, ``LineReader`` reads nothing and the parser reads every line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .position import Named, Relation, Span, TrooperDecl

# The grammar rules the lines read here follow, as lark lists them (origin, symbols,
# alias; the rules lark makes for a repetition named without their number): those of
# the origins in EXACT must be all of the grammar's, the others among them.
RULES = {
    ("start", ("_NL", "__start_star"), None), ("start", ("_NL",), None),
    ("start", ("__start_star",), None), ("start", (), None),
    ("__start_star", ("statement", "_NL"), None), ("__start_star", ("__start_star", "statement", "_NL"), None),
    ("statement", ("trooper",), None), ("statement", ("relation",), None),
    ("trooper", ("TROOPER_KW", "NAME", "NAME", "PROFILE_NAME", "block"), None),
    ("trooper", ("TROOPER_KW", "NAME", "NAME", "PROFILE_NAME"), None),
    ("trooper", ("TROOPER_KW", "NAME", "NAME", "block"), None),
    ("trooper", ("TROOPER_KW", "NAME", "NAME"), None),
    ("block", ("LBRACE", "_sep", "__block_star", "entry", "RBRACE"), None),
    ("block", ("LBRACE", "_sep", "__block_star", "RBRACE"), None),
    ("block", ("LBRACE", "_sep", "entry", "RBRACE"), None),
    ("block", ("LBRACE", "_sep", "RBRACE"), None),
    ("block", ("LBRACE", "__block_star", "entry", "RBRACE"), None),
    ("block", ("LBRACE", "__block_star", "RBRACE"), None),
    ("block", ("LBRACE", "entry", "RBRACE"), None),
    ("block", ("LBRACE", "RBRACE"), None),
    ("__block_star", ("entry", "_sep"), None), ("__block_star", ("__block_star", "entry", "_sep"), None),
    ("_sep", ("___sep_plus",), None),
    ("___sep_plus", ("_NL",), None), ("___sep_plus", ("SEMI",), None),
    ("___sep_plus", ("___sep_plus", "_NL"), None), ("___sep_plus", ("___sep_plus", "SEMI"), None),
    ("entry", ("LIEUTENANT_KW",), "lieutenant"), ("entry", ("GROUP_KW", "INT"), "group"),
    ("entry", ("ATTRIBUTE", "VALUE"), "attribute"), ("entry", ("TYPE_KW", "NAME"), "troop_type"),
    ("entry", ("TRAINING_KW", "NAME"), "training"), ("entry", ("WOUNDS_KW", "INT"), "wounds"),
    ("entry", ("LIST_KW", "COLON", "item", "__entry_star"), "listing"),
    ("entry", ("LIST_KW", "COLON", "item"), "listing"),
    ("__entry_star", ("COMMA", "item"), None), ("__entry_star", ("__entry_star", "COMMA", "item"), None),
    ("item", ("ITEM", "LPAR", "ARG", "RPAR"), None), ("item", ("ITEM",), None),
    ("relation", ("LOF_KW", "NAME", "ONE_WAY", "NAME", "phase"), "lof"),
    ("relation", ("LOF_KW", "NAME", "ONE_WAY", "NAME"), "lof"),
    ("relation", ("LOF_KW", "NAME", "BOTH_WAYS", "NAME", "phase"), "lof_both"),
    ("relation", ("LOF_KW", "NAME", "BOTH_WAYS", "NAME"), "lof_both"),
    ("relation", ("ZOC_KW", "NAME", "ONE_WAY", "NAME", "phase"), "zoc"),
    ("relation", ("ZOC_KW", "NAME", "ONE_WAY", "NAME"), "zoc"),
    ("relation", ("HACKING_KW", "NAME", "ONE_WAY", "NAME", "phase"), "hacking"),
    ("relation", ("HACKING_KW", "NAME", "ONE_WAY", "NAME"), "hacking"),
    ("relation", ("DISTANCE_KW", "NAME", "NAME", "NUMBER"), "distance"),
    ("relation", ("CONTACT_KW", "NAME", "NAME", "phase"), "contact"),
    ("relation", ("CONTACT_KW", "NAME", "NAME"), "contact"),
    ("relation", ("COVER_KW", "NAME", "COVER_KIND", "FROM_KW", "NAME"), "cover"),
    ("phase", ("FROM_KW", "FIRST_KW"), None), ("phase", ("FROM_KW", "SECOND_KW"), None),
}
EXACT = frozenset({"start", "__start_star", "trooper", "block", "__block_star", "_sep", "___sep_plus",
                   "__entry_star", "item", "phase"})
_REPEAT = re.compile(r"(_+\w+?_(?:star|plus))_\d+")  # a repetition's rule, as lark numbers it
# The terminals the lines are made of: the keywords must be these words exactly.
KEYWORDS = {
    "TROOPER_KW": "trooper", "LIEUTENANT_KW": "lieutenant", "GROUP_KW": "group", "TYPE_KW": "type",
    "TRAINING_KW": "training", "WOUNDS_KW": "wounds", "LOF_KW": "lof", "ZOC_KW": "zoc",
    "HACKING_KW": "hacking", "DISTANCE_KW": "distance", "CONTACT_KW": "contact", "COVER_KW": "cover",
    "FROM_KW": "from", "FIRST_KW": "first", "SECOND_KW": "second", "ONE_WAY": "->", "BOTH_WAYS": "<->",
    "COLON": ":", "COMMA": ",", "SEMI": ";", "LPAR": "(", "RPAR": ")", "LBRACE": "{", "RBRACE": "}",
}
PATTERNS = ("NAME", "PROFILE_NAME", "ITEM", "ARG", "ATTRIBUTE", "VALUE", "INT", "NUMBER", "LIST_KW",
            "COVER_KIND")
SPACE = "[\t \x0c]+"  # the whitespace the grammar ignores (tab, space, form feed)
STEPS = {"first": 1, "second": 2}

Statement = tuple[str, object]  # ("trooper", TrooperDecl) or ("relations", tuple[Relation, ...])


def _unnumbered(name: str) -> str:
    return _REPEAT.sub(r"\1", name) if name.startswith("_") else name


class LineReader:
    """Reads the common one-line statements of a position (``read``).

    Parameters
    ----------
    rules:
        The grammar's rules, as (origin, symbols, alias).
    terminals:
        Each terminal's name and its regular expression (a keyword: its word).
    ignored:
        The regular expressions of the terminals the grammar ignores, but comments.
    """

    def __init__(self, rules: Iterable[tuple[str, tuple[str, ...], str | None]],
                 terminals: dict[str, str], ignored: Iterable[str]):
        rules = {(_unnumbered(origin), tuple(map(_unnumbered, symbols)), alias) for origin, symbols, alias in rules}
        same = all(rule in rules for rule in RULES) and all(
            rule in RULES for rule in rules if rule[0] in EXACT)
        words = {name: re.escape(word) for name, word in KEYWORDS.items()}
        same = same and set(ignored) == {SPACE} and all(
            terminals.get(name) == word for name, word in words.items()) and all(p in terminals for p in PATTERNS)
        self.enabled = same
        # Every word a keyword or a fixed choice of the grammar can match: an id spelled
        # like one is left to the parser, whose lexer may take it for the keyword.
        self.reserved = frozenset(w for text in terminals.values() for w in re.findall(r"[a-z]+", text)
                                  if re.fullmatch(r"\(\?:[a-z\\ |]+\)|[a-z]+", text))
        if not same:
            return
        # Each token an atomic group, as the lexer takes it; named groups, since a
        # terminal's own expression may hold numbered ones.
        t = {name: f"(?>{terminals[name]})" for name in PATTERNS}
        ws, opt = SPACE, f"(?:{SPACE})?"
        tail = f"{opt}(?:#[^\\n]*)?\\r?"
        name, phase = t["NAME"], f"(?:{ws}from{ws}(?P<step>first|second))?"
        self.relation = re.compile(
            f"{opt}(?P<kind>lof|zoc|hacking){ws}(?P<a>{name}){opt}(?P<way>->|<->){opt}(?P<b>{name}){phase}{tail}")
        self.contact = re.compile(f"{opt}contact{ws}(?P<a>{name}){ws}(?P<b>{name}){phase}{tail}")
        self.distance = re.compile(f"{opt}distance{ws}(?P<a>{name}){ws}(?P<b>{name}){ws}(?P<value>{t['NUMBER']}){tail}")
        self.cover = re.compile(
            f"{opt}cover{ws}(?P<a>{name}){ws}(?P<value>{t['COVER_KIND']}){ws}from{ws}(?P<b>{name}){tail}")
        self.trooper = re.compile(
            f"{opt}trooper{ws}(?P<a>{name}){ws}(?P<b>{name})(?:{ws}(?P<profile>{t['PROFILE_NAME']}))?{opt}"
            f"(?:\\{{(?P<block>[^{{}}#\\n]*)\\}})?{tail}")
        self.blank = re.compile(opt)
        self.entries: tuple[tuple[re.Pattern[str], str], ...] = (
            (re.compile(f"{opt}lieutenant{opt}"), "lieutenant"),
            (re.compile(f"{opt}group{ws}(?P<value>{t['INT']}){opt}"), "group"),
            (re.compile(f"{opt}(?P<key>{t['ATTRIBUTE']}){opt}(?P<value>{t['VALUE']}){opt}"), "attribute"),
            (re.compile(f"{opt}type{ws}(?P<value>{name}){opt}"), "troop_type"),
            (re.compile(f"{opt}training{ws}(?P<value>{name}){opt}"), "training"),
            (re.compile(f"{opt}wounds{ws}(?P<value>{t['INT']}){opt}"), "wounds"),
            (re.compile(f"{opt}(?P<key>{t['LIST_KW']}){opt}:(?P<value>.*)"), "listing"),
        )
        self.item = re.compile(f"{opt}(?P<item>{t['ITEM']})(?:\\((?P<arg>{t['ARG']})\\){opt})?")
        self.readers: dict[str, Callable[[str, int], Statement | None]] = {
            "lof": self._relation, "zoc": self._relation, "hacking": self._relation,
            "contact": self._contact, "distance": self._distance, "cover": self._cover,
            "trooper": self._trooper,
        }

    def read(self, source: str) -> tuple[dict[int, Statement], str]:
        """The statements of the lines read here, by line number, and ``source`` with
        those lines blanked (their newlines kept, so every other line keeps its number)."""
        if not self.enabled:
            return {}, source
        lines = source.split("\n")
        found: dict[int, Statement] = {}
        depth = 0  # inside a { ... } block spanning lines
        readers = self.readers
        for index, line in enumerate(lines):
            if depth == 0:
                first = line.lstrip(" \t\x0c")
                reader = readers.get(first[:first.find(" ")] if " " in first else first)
                statement = reader(line, index + 1) if reader is not None else None
                if statement is not None:
                    found[index + 1] = statement
                    lines[index] = ""
                    continue
            code = line.split("#", 1)[0]
            if "{" in code or "}" in code:
                depth += code.count("{") - code.count("}")
        return found, "\n".join(lines) if found else source

    def _ids(self, m: re.Match[str], line: int) -> tuple[Named, Named] | None:
        """The two trooper ids (or id and side) of a line, unless one is spelled like a keyword."""
        a, b = m.group("a"), m.group("b")
        if a in self.reserved or b in self.reserved:
            return None
        return Named(a, Span(line, m.start("a") + 1)), Named(b, Span(line, m.start("b") + 1))

    @staticmethod
    def _value(m: re.Match[str], line: int) -> Named:
        return Named(m.group("value").strip(), Span(line, m.start("value") + 1))

    def _relation(self, text: str, line: int) -> Statement | None:
        m = self.relation.fullmatch(text)
        ids = self._ids(m, line) if m is not None else None
        if m is None or ids is None:
            return None
        (subject, obj), kind, step = ids, m.group("kind"), STEPS.get(m.group("step") or "", 0)
        if m.group("way") == "->":
            return "relations", (Relation(kind, subject, obj, step),)
        if kind != "lof":
            return None
        return "relations", (Relation(kind, subject, obj, step), Relation(kind, obj, subject, step))

    def _contact(self, text: str, line: int) -> Statement | None:
        m = self.contact.fullmatch(text)
        ids = self._ids(m, line) if m is not None else None
        if m is None or ids is None:
            return None
        return "relations", (Relation("contact", *ids, STEPS.get(m.group("step") or "", 0)),)

    def _distance(self, text: str, line: int) -> Statement | None:
        m = self.distance.fullmatch(text)
        ids = self._ids(m, line) if m is not None else None
        if m is None or ids is None:
            return None
        return "relations", (Relation("distance", *ids, 0, self._value(m, line)),)

    def _cover(self, text: str, line: int) -> Statement | None:
        m = self.cover.fullmatch(text)
        ids = self._ids(m, line) if m is not None else None
        if m is None or ids is None:
            return None
        return "relations", (Relation("cover", *ids, 0, self._value(m, line)),)

    def _trooper(self, text: str, line: int) -> Statement | None:
        m = self.trooper.fullmatch(text)
        ids = self._ids(m, line) if m is not None else None
        if m is None or ids is None:
            return None
        decl: dict = {"lieutenant": False, "group": None, "attributes": [], "lists": []}
        if m.group("block") is not None and not self._block(m.group("block"), line, m.start("block"), decl):
            return None
        profile = m.group("profile")
        return "trooper", TrooperDecl(
            id=ids[0], side=ids[1],
            profile=Named(profile.strip(), Span(line, m.start("profile") + 1)) if profile is not None else None,
            lieutenant=decl["lieutenant"], group=decl["group"], attributes=tuple(decl["attributes"]),
            troop_type=decl.get("troop_type"), training=decl.get("training"), lists=tuple(decl["lists"]),
            wounds=decl.get("wounds"),
        )

    def _block(self, block: str, line: int, at: int, decl: dict) -> bool:
        """The entries of a one-line block (``block``, from column ``at`` + 1) into
        ``decl``, as checker.infinity.notation's builder puts them; False for one it cannot read."""
        for piece in block.split(";"):
            start, at = at, at + len(piece) + 1
            if self.blank.fullmatch(piece):
                continue
            for pattern, kind in self.entries:
                m = pattern.fullmatch(piece)
                if m is not None:
                    break
            else:
                return False
            if kind == "lieutenant":
                decl["lieutenant"] = True
            elif kind == "listing":
                items = self._items(m.group("value"), line, start + m.start("value"))
                if items is None:
                    return False
                decl["lists"].append(("states" if m.group("key") == "state" else m.group("key"), items))
            else:
                value = Named(m.group("value").strip(), Span(line, start + m.start("value") + 1))
                if kind == "attribute":
                    decl["attributes"].append((Named(m.group("key").strip(), Span(line, start + m.start("key") + 1)),
                                               value))
                elif kind in ("troop_type", "training") and value.text in self.reserved:
                    return False
                else:
                    decl[kind] = value
        return True

    def _items(self, text: str, line: int, at: int) -> tuple[Named, ...] | None:
        """The items of a list (``text``, from column ``at`` + 1), as the builder reads them."""
        items = []
        for piece in text.split(","):
            start, at = at, at + len(piece) + 1
            m = self.item.fullmatch(piece)
            if m is None:
                return None
            span = Span(line, start + m.start("item") + 1)
            arg = m.group("arg")
            if arg is None:
                items.append(Named(m.group("item").strip(), span))
            else:
                offset = len(arg) - len(arg.lstrip())  # the parameter's own column, past spaces
                items.append(Named(m.group("item").strip(), span, arg.strip(),
                                   Span(line, start + m.start("arg") + 1 + offset)))
        return tuple(items)
