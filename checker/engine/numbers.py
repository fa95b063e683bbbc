"""The whole numbers a position may write, read with a bound: one reader for every game.

A number outside its range is bad input (exit 2, located, saying the range), never a
question for a rule base. The reader never converts a number too long to lie in any range,
so a number of thousands of digits costs no more than a short one and is refused the same
way (Python's ``int()`` refuses strings past 4,300 digits with a ValueError).

Inputs: the text of a number as written. Defines: :func:`whole`, :func:`shown`, :class:`Range`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WHOLE = re.compile(r"[+-]?[0-9]+")
DIGITS = 9  # the most significant digits a number of any range has: every range fits 32 bits


def whole(text: str, low: int, high: int) -> int | None:
    """``text`` (ASCII digits after an optional sign) as an int if it lies in ``low`` to ``high``.

    Parameters
    ----------
    text:
        The number as written.
    low, high:
        The range, both ends included; each within ``DIGITS`` digits.

    Returns
    -------
    int or None
        The value, or None for text that is not a whole number or lies outside the range
        (a number of more than ``DIGITS`` digits after its leading zeros is never
        converted).
    """
    if not _WHOLE.fullmatch(text):
        return None
    digits = text.lstrip("+-").lstrip("0") or "0"  # int() counts leading zeros against its limit
    if len(digits) > DIGITS:
        return None
    value = -int(digits) if text.startswith("-") else int(digits)
    return value if low <= value <= high else None


def shown(text: str) -> str:
    """A number as written, quoted for a message, a long one cut short:
    ``'2147483648'`` or ``'123456789...' (4400 characters)``."""
    return repr(text) if len(text) <= 12 else f"'{text[:9]}...' ({len(text)} characters)"


@dataclass(frozen=True)
class Range:
    """The whole numbers a number of the notation may take, and the reason."""

    what: str  # "a die", "a Burst share", "CC"...
    low: int
    high: int
    reason: str
    unit: str = ""  # " inches"
    over: str = ""  # "the Burst": ``high`` is a margin over that value of the position

    def read(self, text: str, high: int | None = None) -> int | None:
        """``text`` (ASCII digits, an optional sign) as an int if it lies in the range
        (up to ``high`` when given: the margin added to the value ``over`` names); None
        otherwise, without converting a number too long to be in any range."""
        return whole(text, self.low, self.high if high is None else high)

    def out_of_range(self, text: str) -> str:
        """``"a MOD '-13' is out of range"``: a number as written, a long one cut short."""
        return f"{self.what} {shown(text)} is out of range"

    def expected(self, high: int | None = None, detail: str = "") -> str:
        """``'a distance from 0 to 96 inches (the longest range band...)'``."""
        top = self.high if high is None else high
        return f"{self.what} from {self.low} to {top}{self.unit} ({detail or self.reason})"
