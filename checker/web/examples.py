"""The bundled example positions (``examples/*.pos``), offered on the page.

Installed, they live inside the package (``checker/examples``); in a source checkout,
``examples/`` sits beside ``checker/``. A request never names a file: the page and the
API name an example by its stem, looked up in this fixed list.

Defines: :class:`Example`, :func:`bundled`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .. import games
from ..engine.errors import RulingError
from ..engine.text import decode

_PACKAGE = Path(__file__).resolve().parent.parent  # checker/


@dataclass(frozen=True)
class Example:
    """One bundled position: its name (the file's stem), its game's title, the first
    line of its comment and its text."""

    name: str
    game: str
    summary: str
    text: str

    def to_dict(self) -> dict:
        return {"name": self.name, "game": self.game, "summary": self.summary, "text": self.text}


def _folder() -> Path:
    installed = _PACKAGE / "examples"
    return installed if installed.is_dir() else _PACKAGE.parent / "examples"


@cache
def bundled() -> tuple[Example, ...]:
    """Every bundled example, Infinity's first, each game's by name."""
    found = []
    for path in sorted(_folder().glob("*.pos")):
        text = decode(path.read_bytes(), path.name)
        try:
            title = games.for_text(text, path.name).title
        except RulingError:
            continue  # an example naming an unknown game is not offered
        comment = next((line.lstrip("# ").strip() for line in text.split("\n") if line.startswith("#")), "")
        found.append(Example(path.stem, title, comment, text))
    order = [game.title for game in games.GAMES]
    return tuple(sorted(found, key=lambda e: (order.index(e.game), e.name)))
