"""Infinity, N5 and N3, on the engine: notation, resolution, facts, reports, odds, cases.

A position of this game names no other game: it opens with ``edition n5`` or
``edition n3``.
"""

GAME_NAME = "infinity"

# The editions, each a rule set (asp/<edition>.lp) with a catalogue (checker/catalogue/<edition>/).
EDITIONS = ("n3", "n5")


def editions() -> tuple[str, ...]:
    """Infinity's editions, in name order."""
    return EDITIONS
