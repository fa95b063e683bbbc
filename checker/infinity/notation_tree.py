"""Reading the parse tree of a position: where a token stands, a token as a name, a node's
tokens and subtrees, and the base of the builder's statement groups (shared by
checker.infinity.notation and its statement groups).

Defines: Token, span, named, token, tokens, subtrees, extent, Statements.
"""

from __future__ import annotations

from lark import Tree
from lark_cython import (
    Token,  # the leaves of the parse tree (checker.infinity.notation._parser)
)

from ..engine.errors import Location
from .position import Named, Span


def span(token: Token) -> Span:
    """Where a token is (the parser gives every token of the position its place)."""
    return Span(token.line or 1, token.column or 1)


def named(token: Token, param: str | None = None) -> Named:
    return Named(str(token).strip(), span(token), param)


def token(child: Token | Tree) -> Token:
    """A child the grammar makes a token (a keyword, a name), typed as one."""
    assert isinstance(child, Token), child
    return child


def tokens(tree: Tree, kind: str) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token) and c.type == kind]


def subtrees(tree: Tree, data: str) -> list[Tree]:
    return [c for c in tree.children if isinstance(c, Tree) and c.data == data]


def extent(tree: Tree) -> tuple[int, int, int, int]:
    """The line and column where a node begins, and the line and column where it ends
    (exclusive), from its first and last tokens: the parser keeps no position of a node,
    since reading its tokens' costs less than giving every node the span of its tokens."""
    first: Token | Tree = tree
    while isinstance(first, Tree):
        first = first.children[0]
    last: Token | Tree = tree
    while isinstance(last, Tree):
        last = last.children[-1]
    return first.line or 1, first.column or 1, last.end_line or 1, last.end_column or 1


class Statements:
    """What checker.infinity.notation's builder and its statement groups share: the
    fields they fill, the file and its lines, and a located error's place."""

    fields: dict
    file: str
    lines: list[str]

    def _location(self, at: Span) -> Location:
        """The place of ``at`` in the file, with its line's text."""
        return Location(self.file, at.line, at.column, self.lines[at.line - 1])
