"""Urban War, a second game on ruling's engine: its notation, facts, verdicts and cases.

Inputs: a position text whose first statement is ``game urban-war``.
Defines: :func:`declares_game`, the game's name and the name of its rule base entry file.
"""

from __future__ import annotations

from ..engine.game import named_game

GAME = "urban-war"
# The rule base entry file, asp/urban_war.lp (see that file for why it is not urban-war.lp).
ENTRY = "urban_war"
# The catalogue folder, checker/catalogue/urban-war/.
CATALOGUE = "urban-war"


def declares_game(text: str) -> bool:
    """True when the position's first statement is ``game urban-war``."""
    return named_game(text) == GAME
