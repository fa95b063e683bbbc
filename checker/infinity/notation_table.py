"""The table's statements of a position (docs/table.md; grammar section "Table"): 'at',
'terrain', 'template' and 'move ... via', read from the parse tree.

Defines: TableStatements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Tree

from ..engine.errors import NotationError, PositionError
from ..engine.numbers import shown
from .notation_tree import Statements, Token
from .notation_tree import named as _named
from .notation_tree import span as _span
from .notation_tree import subtrees as _subtrees
from .notation_tree import token as _token
from .notation_tree import tokens as _tokens

if TYPE_CHECKING:  # checker.infinity.table loads with the first table statement (a position without one skips it)
    from .table import TableDecl


class TableStatements(Statements):
    """The builder methods of these statements (mixed into checker.infinity.notation's
    builder, whose fields, file and lines they fill and read)."""

    def _table(self) -> TableDecl | None:
        f = self.fields
        if not (f.get("placements") or f.get("terrain") or f.get("templates") or f.get("moves") or f.get("zones")):
            return None
        from .table import TableDecl

        return TableDecl(tuple(f.get("placements", ())), tuple(f.get("terrain", ())), tuple(f.get("templates", ())),
                         tuple(f.get("moves", ())), tuple(f.get("zones", ())))

    def _inches(self, token: Token) -> float:
        """A coordinate, height or elevation in inches, inside the table's bounds."""
        from .table import BOUNDS

        low, high = BOUNDS
        return self._within(token, low, high, f"{token} inches is off the table", f"{low:g} to {high:g} inches")

    def _degrees(self, token: Token) -> float:
        """A facing in degrees, 0 to 360 (a number past them, an infinite one above all,
        names no direction)."""
        return self._within(token, 0, 360, f"a facing of {shown(str(token))} degrees is out of range",
                            "a facing from 0 to 360 degrees") % 360

    def _within(self, token: Token, low: float, high: float, message: str, expected: str) -> float:
        """The number ``token`` if it lies from ``low`` to ``high``; a located error saying
        ``message`` and what was ``expected`` otherwise."""
        value = float(str(token))
        if not low <= value <= high:
            at = _span(token)
            raise PositionError(message, self._location(at), (expected,))
        return value

    def _point(self, node: Tree) -> tuple[float, float]:
        x, y = _tokens(node, "NUMBER")
        return self._inches(x), self._inches(y)

    def _at(self, node: Tree) -> None:
        trooper = _named(_tokens(node, "NAME")[0])
        for earlier in self.fields.setdefault("placements", []):
            if earlier.trooper.text == trooper.text:
                raise NotationError(
                    f"a second 'at' for {trooper.text!r} (the first is on line {earlier.trooper.span.line}): "
                    "a trooper stands in one place",
                    self._location(trooper.span))
        x, y = self._point(_subtrees(node, "point")[0])
        facing: float | None = None
        toward = None
        for f in _subtrees(node, "facing"):
            value = _token(f.children[1])
            if value.type == "NAME":
                toward = _named(value)
            else:
                facing = self._degrees(value)
        elevation = 0.0
        for e in _subtrees(node, "elevation"):
            elevation = self._inches(_token(e.children[1]))
        from .table import Placement

        self.fields["placements"].append(Placement(trooper, x, y, facing, toward, elevation))

    def _terrain(self, node: Tree) -> None:
        name = _named(_tokens(node, "NAME")[0])
        kind_node = _subtrees(node, "terrain_kind")[0]
        kind = str(kind_node.children[0])
        zone = str(kind_node.children[1]) if len(kind_node.children) > 1 else None
        heights = _tokens(node, "NUMBER")
        height = self._inches(heights[0]) if heights else None
        points = tuple(self._point(p) for p in _subtrees(node, "point"))
        if len(set(points)) < 3:
            raise NotationError(
                f"terrain {name.text!r} needs at least three different corners",
                self._location(name.span))
        if kind == "solid" and height is None:
            raise NotationError(
                f"solid terrain {name.text!r} needs its height: 'terrain {name.text} solid height 2: ...'",
                self._location(name.span))
        from .table import TerrainDecl

        self.fields.setdefault("terrain", []).append(TerrainDecl(name, kind, points, height, zone))

    def _template(self, node: Tree) -> None:
        attacker, target = (_named(t) for t in _tokens(node, "NAME"))
        shape = " ".join(str(_tokens(node, "TEMPLATE_SHAPE")[0]).split())
        placement = "impact" if _tokens(node, "ON_KW") else "direct"
        from .table import TemplateDecl

        self.fields.setdefault("templates", []).append(TemplateDecl(attacker, shape, placement, target))

    def _move_path(self, node: Tree) -> None:
        trooper = _named(_tokens(node, "NAME")[0])
        skill = 2 if _tokens(node, "SECOND_KW") else 1
        word = "move ... second" if skill == 2 else "move"
        for earlier in self.fields.setdefault("moves", []):
            if earlier.trooper.text == trooper.text and earlier.skill == skill:
                raise NotationError(
                    f"a second '{word}' for {trooper.text!r} (the first is on line {earlier.trooper.span.line}): "
                    "write the whole path of one skill on one line",
                    self._location(trooper.span))
        points = tuple(self._point(p) for p in _subtrees(node, "point"))
        from .table import MoveDecl

        self.fields["moves"].append(MoveDecl(trooper, points, skill))

    def _deployment_zone(self, node: Tree) -> None:
        side = _named(_tokens(node, "NAME")[0])
        for earlier in self.fields.setdefault("zones", []):
            if earlier.side.text.casefold() == side.text.casefold():
                raise NotationError(
                    f"a second Deployment Zone for {side.text!r} (the first is on line {earlier.side.span.line}): "
                    "a side deploys in one zone",
                    self._location(side.span))
        points = tuple(self._point(p) for p in _subtrees(node, "point"))
        if len(set(points)) < 3:
            raise NotationError(
                f"the Deployment Zone of {side.text!r} needs at least three different corners",
                self._location(side.span))
        from .table import ZoneDecl

        self.fields["zones"].append(ZoneDecl(side, points))
