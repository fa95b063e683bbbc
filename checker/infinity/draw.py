"""A picture of a position's table as SVG text (``ruling draw``).

Bases to scale with their ids and front 180-degree arcs, the scenery (solid, Visibility
Zones, difficult terrain), the Deployment Zones placed, moves (a dashed path to a dashed
base, a second skill's from where the first ended), Zones of Control on request, the Lines of Fire measured
between the activated trooper and every other (green: LoF; red: none, blocked or out of
its arc; grey dashes: not measured, no facing written) and the templates placed. The
drawing's y axis points up the table, as the notation's does.
"""

from __future__ import annotations

import math
from dataclasses import replace
from xml.sax.saxutils import escape, quoteattr

from .game import Game
from .measure import Body
from .position import Position
from .table import ZOC_INCHES
from .table_check import Measured

SCALE = 20.0  # pixels per inch
MARGIN = 2.0  # inches around what is drawn
MIN_WIDTH = 24.0  # inches: the legend's room
SIDE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
TERRAIN_STYLE = {
    "solid": 'fill="#8c8c8c" fill-opacity="0.8" stroke="#404040"',
    "zone": 'fill="#c7b8ea" fill-opacity="0.45" stroke="#7a5fc0" stroke-dasharray="4 3"',
    "difficult": 'fill="#d9c27a" fill-opacity="0.45" stroke="#8a7630" stroke-dasharray="2 2"',
}
LOF_STYLE = {
    True: ("lof-yes", 'stroke="#2ca02c"'),
    False: ("lof-no", 'stroke="#d62728"'),
    None: ("lof-pending", 'stroke="#7f7f7f" stroke-dasharray="5 4"'),
}


def svg(position: Position, game: Game, measured: Measured, zoc: bool = False) -> str:
    """The SVG text of ``position``'s table (``measured`` is what table_check gave)."""
    table = measured.table
    bodies = list(table.bodies.values())
    decl = position.table
    assert decl is not None
    templates = [(placed, table.template(placed.shape, placed.placement, table.bodies[placed.attacker.text],
                                         table.bodies[placed.target.text])[0]) for placed in decl.templates]
    corners = [(x, y) for _placed, area in templates for x, y in area.exterior.coords]
    corners += [p for m in decl.moves for p in m.points]
    corners += [p for z in decl.zones for p in z.points]
    xs = [b.x for b in bodies] + [x for t in decl.terrain for x, _ in t.points] + [x for x, _ in corners]
    ys = [b.y for b in bodies] + [y for t in decl.terrain for _, y in t.points] + [y for _, y in corners]
    reach = MARGIN + (ZOC_INCHES + 1 if zoc else 0)
    left, right = min(xs) - reach, max(xs) + reach
    right = max(right, left + MIN_WIDTH)  # room for the legend
    bottom, top = min(ys) - reach - 1, max(ys) + reach
    width, height = (right - left) * SCALE, (top - bottom) * SCALE

    def px(x: float, y: float) -> tuple[float, float]:
        return round((x - left) * SCALE, 2), round((top - y) * SCALE, 2)

    sides = list(dict.fromkeys(t.side for t in game.troopers))
    colour = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.2f} {height:.2f}" font-family="sans-serif">'),
           f"<title>{escape(position.file)}</title>",
           f'<rect class="table" x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#f4f1e8"/>']
    out.append('<g id="terrain">')
    for t in decl.terrain:
        points = " ".join("{},{}".format(*px(x, y)) for x, y in t.points)
        label = t.id.text + (f" h{t.height:g}" if t.height is not None else "") + (f" {t.zone}" if t.zone else "")
        # below the piece's lowest corner, where no base stands on it
        cx = sum(x for x, _ in t.points) / len(t.points)
        lx, ly = px(cx, min(y for _, y in t.points))
        ly += 11
        out.append(f'<polygon class="terrain {t.kind}" data-id={quoteattr(t.id.text)} points="{points}" '
                   f'{TERRAIN_STYLE[t.kind]}><title>{escape(label)}</title></polygon>')
        out.append(f'<text class="terrain-label" x="{lx}" y="{ly}" font-size="10" text-anchor="middle">'
                   f"{escape(label)}</text>")
    for z in decl.zones:
        points = " ".join("{},{}".format(*px(x, y)) for x, y in z.points)
        side = z.side.text
        out.append(f'<polygon class="deployment-zone" data-side={quoteattr(side)} points="{points}" '
                   f'fill="{colour.get(side, "#000")}" fill-opacity="0.08" stroke="{colour.get(side, "#000")}" '
                   f'stroke-dasharray="8 4"><title>{escape(side)} Deployment Zone</title></polygon>')
    out.append("</g>")
    if zoc:
        out.append('<g id="zoc">')
        for b in bodies:
            cx, cy = px(b.x, b.y)
            out.append(f'<circle class="zoc" data-id={quoteattr(b.id)} cx="{cx}" cy="{cy}" '
                       f'r="{(b.r + ZOC_INCHES) * SCALE:.2f}" fill="none" stroke="{colour.get(b.side, "#000")}" '
                       'stroke-opacity="0.5" stroke-dasharray="6 4"/>')
        out.append("</g>")
    out.append('<g id="templates">')
    for placed, area in templates:
        points = " ".join("{},{}".format(*px(x, y)) for x, y in area.exterior.coords)
        out.append(f'<polygon class="template" data-attacker={quoteattr(placed.attacker.text)} '
                   f'data-target={quoteattr(placed.target.text)} data-shape={quoteattr(placed.shape)} '
                   f'points="{points}" fill="#ff7f0e" fill-opacity="0.3" stroke="#ff7f0e"/>')
    out.append("</g>")
    out.append('<g id="lof">')
    for (viewer, seen_one), seen in measured.lof.items():
        css, style = LOF_STYLE[seen]
        # each way its own line, set 2 px to its right, so a pair's two verdicts both show
        (x1, y1), (x2, y2) = px(table.bodies[viewer].x, table.bodies[viewer].y), px(table.bodies[seen_one].x, table.bodies[seen_one].y)
        norm = math.hypot(x2 - x1, y2 - y1) or 1.0
        ox, oy = -(y2 - y1) / norm * 2, (x2 - x1) / norm * 2
        out.append(f'<line class="lof {css}" data-from={quoteattr(viewer)} data-to={quoteattr(seen_one)} '
                   f'x1="{x1 + ox:.2f}" y1="{y1 + oy:.2f}" x2="{x2 + ox:.2f}" y2="{y2 + oy:.2f}" {style} '
                   'stroke-width="1.5" stroke-opacity="0.8"/>')
    out.append("</g>")
    out.append('<g id="moves">')
    for m in decl.moves:
        start = table.bodies[m.trooper.text] if m.skill == 1 else measured.ends[m.trooper.text]
        points = " ".join("{},{}".format(*px(x, y)) for x, y in ((start.x, start.y), *m.points))
        out.append(f'<polyline class="move" data-id={quoteattr(m.trooper.text)} points="{points}" fill="none" '
                   'stroke="#555555" stroke-width="1.5" stroke-dasharray="6 3"/>')
        end = measured.ends.get(m.trooper.text)
        if end is not None and m.skill == 2:
            end = replace(end, x=m.points[-1][0], y=m.points[-1][1])
        if end is not None:
            ex, ey = px(end.x, end.y)
            out.append(f'<circle class="move-end" data-id={quoteattr(end.id)} cx="{ex}" cy="{ey}" '
                       f'r="{end.r * SCALE:.2f}" fill="none" stroke="#555555" stroke-dasharray="3 2"/>')
    out.append("</g>")
    out.append('<g id="troopers">')
    for b in bodies:
        out.extend(_trooper(b, colour.get(b.side, "#000"), px))
    out.append("</g>")
    out.append(_legend(height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _trooper(b: Body, colour: str, px) -> list[str]:
    cx, cy = px(b.x, b.y)
    r = b.r * SCALE
    lines = [f'<g class="trooper" data-id={quoteattr(b.id)} data-side={quoteattr(b.side)}>',
             (f'<circle class="base" cx="{cx}" cy="{cy}" r="{r:.2f}" fill="{colour}" fill-opacity="0.35" '
             f'stroke="{colour}" stroke-width="1.5"/>')]
    if b.facing is not None:
        # the front half of the base: from 90 degrees left of the facing to 90 degrees right
        bearing = math.radians(b.facing)
        ends = [(b.x + b.r * math.sin(bearing + d), b.y + b.r * math.cos(bearing + d)) for d in (-math.pi / 2, math.pi / 2)]
        (sx, sy), (ex, ey) = px(*ends[0]), px(*ends[1])
        lines.append(f'<path class="arc" d="M {sx} {sy} A {r:.2f} {r:.2f} 0 0 1 {ex} {ey} Z" fill="{colour}" '
                     'fill-opacity="0.6"/>')
    label = b.id + (f" (up {b.z:g})" if b.z else "")
    lines.append(f'<text class="id" x="{cx}" y="{cy - r - 3:.2f}" font-size="11" text-anchor="middle">'
                 f"{escape(label)}</text>")
    lines.append("</g>")
    return lines


def _legend(height: float) -> str:
    return (f'<g id="legend" font-size="10"><text x="6" y="{height - 20:.2f}">1 inch = {SCALE:g} px; darker half '
            "of a base: its front arc; orange: a template</text>"
            f'<text x="6" y="{height - 7:.2f}">LoF, each way (set to the right of its direction): green, LoF; '
            "red, none; grey dashes, not measured</text></g>")


def picture(text: str, file: str, zoc: bool = False) -> str | None:
    """The SVG of the position in ``text``, or None when it places no trooper.

    Raises
    ------
    NotationError, PositionError
        As ``ruling check`` does on the same position.
    """
    from . import notation, resolve, table_check

    position = notation.parse(text, file)
    game = resolve.resolve(position)
    if position.table is None or not position.table.placements:
        return None
    measured = table_check.apply(position, game.troopers, _raise_at(position))
    assert measured is not None
    return svg(position, game, measured, zoc)


def _raise_at(position: Position):
    """table_check's error maker: a PositionError at a name of ``position`` (resolve has
    read the same position, so table_check finds nothing more to refuse)."""
    from ..engine.errors import Location, PositionError
    from .position import lines_of

    lines = lines_of(position.text)

    def error(message: str, named, expected: tuple[str, ...] = ()) -> PositionError:
        line, column = (named.span.line, named.span.column) if named else (1, 1)
        return PositionError(message, Location(position.file, line, column, lines[line - 1]), expected)

    return error
