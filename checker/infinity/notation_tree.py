"""Reading the parse tree of a position: where a token stands, a token as a name, a node's
tokens and subtrees (shared by checker.infinity.notation and its statement groups).

Defines: span, named, token, tokens, subtrees.
"""

from __future__ import annotations

from lark import Token, Tree

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
