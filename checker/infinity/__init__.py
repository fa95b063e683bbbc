"""Infinity, N5 and N3, on the engine: notation, resolution, facts, reports, odds, cases.

A position of this game names no other game: it opens with ``edition n5`` or
``edition n3``.
"""

GAME_NAME = "infinity"
