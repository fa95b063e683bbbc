"""Python's cyclic garbage collector held off while a stage builds its objects.

Each stage of a run (parse, resolve, facts, solve, report, render) makes objects that
live as long as its result: hundreds of thousands for a large position. The collector
passes triggered meanwhile walk every one of them again and again and free nothing
(a run of 2,000 troopers a side spent over a second in them). Holding it off for the
stage leaves freeing to reference counts; a cycle made meanwhile is collected by the
next full pass after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_held() -> Iterator[None]:
    """No cyclic collection inside the ``with`` block (or the decorated function); the
    collector is enabled again after it, if it was before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                # Freezing and unfreezing moves every object to the oldest generation
                # without walking any: the first allocation after enabling would
                # otherwise walk all those the block made, as young ones.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
