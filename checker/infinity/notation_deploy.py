"""The Deployment Phase's statements of a position that are not a ``deploy`` line
(docs/deployment.md): mission objectives and neutral elements, where a Dispersion Roll put
a trooper, and a trooper still off the table, read from the parse tree.

Defines: DeployStatements.
"""

from __future__ import annotations

from lark import Tree

from .notation_tree import Statements
from .notation_tree import named as _named
from .notation_tree import tokens as _tokens
from .position import ArmyDecl, DispersionDecl, ElementDecl


class DeployStatements(Statements):
    """The builder methods of these statements (mixed into checker.infinity.notation's
    builder, whose fields they fill)."""

    def _objective(self, node: Tree) -> None:
        self.fields["elements"].append(ElementDecl("objective", _named(_tokens(node, "NAME")[0])))

    def _neutral(self, node: Tree) -> None:
        self.fields["elements"].append(ElementDecl("neutral", _named(_tokens(node, "NAME")[0])))

    def _dispersion(self, node: Tree) -> None:
        self.fields["dispersions"].append(DispersionDecl(
            _named(_tokens(node, "NAME")[0]), _named(_tokens(node, "DEPLOY_ZONE")[0]),
            bool(_tokens(node, "BLOCKED_KW"))))

    def _off_table(self, node: Tree) -> None:
        # carried like the turn's statements: the Order Count reads it (docs/turn.md)
        self.fields["army"].append(ArmyDecl("off_table", _named(_tokens(node, "NAME")[0])))
