"""The Player Turn's statements of a position (docs/turn.md): the army's Orders, Command Tokens,
Retreat! and the steps of a sequence, read from the parse tree.

Defines: TurnStatements, ARMY_KINDS.
"""

from __future__ import annotations

from lark import Tree

from ..engine.errors import NotationError
from .notation_tree import Statements
from .notation_tree import named as _named
from .notation_tree import span as _span
from .notation_tree import subtrees as _subtrees
from .notation_tree import token as _token
from .notation_tree import tokens as _tokens
from .position import ArmyDecl, Named

# The grammar's Player Turn rules read as an army statement of one kind (``_army``): a
# side, then a Combat Group and a count where the rule writes them.
ARMY_KINDS = {
    "command_tokens": "tokens", "pool": "pool", "spent_regular": "spent_regular", "spent_tokens": "spent_tokens",
    "retreat": "retreat", "led": "led", "nullified": "nullified", "limited_tokens": "limited_tokens",
    "first_player": "first_player", "began_isolated": "began_isolated", "began_unaffected": "began_unaffected",
}


class TurnStatements(Statements):
    """The builder methods of these statements (mixed into checker.infinity.notation's
    builder, whose fields, file and lines they fill and read)."""

    def _army(self, node: Tree, kind: str, own: str | None = None) -> None:
        subject = _named(_tokens(node, "NAME")[0])
        ints: list[Named | None] = [_named(t) for t in _tokens(node, "INT")]
        if kind in ("pool", "spent_regular", "nullified"):
            ints.append(None)  # `pool nomads group 1` alone: no count, the pool generated
            group, count = ints[0], ints[1]
        else:
            group, count = None, ints[0] if ints else None
        self.fields["army"].append(ArmyDecl(kind, subject, group, count, own))

    def _spent_own(self, node: Tree) -> None:
        own = str(_subtrees(node, "own_order")[0].children[0])
        self._army(node, "spent_own", own)

    def _army_points(self, node: Tree) -> None:
        # `points nomads 300 counted`: the turn's Retreat! check already made
        counted = "counted" if _tokens(node, "COUNTED_KW") else None
        self._army(node, "army_points", counted)

    def _token_use(self, node: Tree) -> None:
        # `token alg regular`: an Operational Use of a Command Token on the trooper alg
        use = str((_tokens(node, "TOKEN_USE") or _tokens(node, "TOKEN_ORDER_USE"))[0])
        self.fields["army"].append(ArmyDecl("token_use", _named(_tokens(node, "NAME")[0]), own=use))

    def _token_order_use(self, node: Tree) -> None:
        # `token alg guts`: a use for this Order only (a sequence does not carry it)
        self._token_use(node)

    def _species(self, node: Tree) -> None:
        # `species ariadna human`: the side, then the species its army is formed by
        side, species = _tokens(node, "NAME")
        self.fields["army"].append(ArmyDecl("species", _named(side), own=str(species).lower()))

    def _game_round(self, node: Tree) -> None:
        # `round 2`: the game's, of no side; its subject is the keyword, for a place to point at
        number = _named(_tokens(node, "INT")[0])
        self.fields["army"].append(ArmyDecl("game_round", _named(_tokens(node, "ROUND_KW")[0]), None, number))

    def _cancel_impetuous(self, node: Tree) -> None:
        subject = _named(_tokens(node, "NAME")[0])
        groups = [_named(t) for t in _tokens(node, "INT")]
        self.fields["army"].append(ArmyDecl("cancel_impetuous", subject, groups[0] if groups else None))

    def _step(self, node: Tree) -> None:
        # checker/infinity/sequence.py splits a sequence into its Orders before they are
        # read; a 'step' reaching here stands in a text read as one Order
        at = _span(_token(node.children[0]))
        raise NotationError(
            "a 'step' line opens an Order of a sequence: 'ruling check' and 'ruling state' read sequences",
            self._location(at),
        )
