"""Special skill parameters: the value in a skill's brackets, read by its catalogue type.

A special skill with a parameter names its type in the catalogue (``param = "mod"``);
this module reads what a position writes into a typed value, so no rule of the rule
base parses a string:

``mod``            a signed MOD in the MOD range: ``Mimetism (-6)`` -> ``-6``
``attribute_mod``  a MOD, optionally to one attribute: ``Surprise Attack (CC-3)`` ->
                   ``mod(cc, -3)``; ``Surprise Attack (-3)`` -> ``mod(all, -3)``
``medical``        a Doctor's or Engineer's variant: ``Doctor (2W)`` -> ``wounds(2)``,
                   ``Doctor (Reroll -3)`` -> ``reroll(-3)``
``immunity``       what the Immunity covers: ``ARM``, ``BTS``, ``Enhanced`` (both),
                   ``Critical``, an ammunition (``ammo(shock)``), a trait
                   (``trait(continuous_damage)``) or a state (``state(stunned)``),
                   each looked up in the edition's catalogue
``attribute_value`` an attribute's own value for the skill: ``Infiltration (PH=18)`` ->
                   ``value(ph, 18)``, in that attribute's range
``choice``         one of the entry's ``param_values`` (``Terrain (Mountain)`` ->
                   ``mountain``; ``Decoy (2)`` -> ``2``)
``lieutenant``     a Lieutenant's extra (seed 002 Lieutenant): ``Lieutenant (+1 Order)`` ->
                   ``extra(order)``, ``Lieutenant (+1 Command Token)`` -> ``extra(command_token)``
``text``           a value no rule reads; allowed only on entries that are not fully
                   modelled (their ``missing`` names it), so it never hides a rule

An entry whose MOD is always a penalty says ``param_sign = "negative"`` (``Mimetism (-3)``):
a MOD of 0 or more is refused, never read as nothing.

The values reach clingo through :mod:`checker.infinity.facts` (:class:`Term` as a function).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.catalogue import Catalogue, Entry, atom_text, normalize
from .position import RANGES

KINDS = ("mod", "attribute_mod", "attribute_value", "medical", "lieutenant", "immunity", "choice", "text")
ATTRIBUTES = ("CC", "BS", "PH", "WIP")  # the attributes a MOD in brackets names (seed 002 Surprise Attack)
# Immunity's own words (seed 002, Immunity: "(ARM) / (BTS)", "(인핸스드)" Enhanced, "(크리티컬)" Critical)
IMMUNITY_WORDS = {"arm": "arm", "bts": "bts", "enhanced": "enhanced", "critical": "critical"}


@dataclass(frozen=True)
class Term:
    """A typed parameter with arguments: ``mod(cc, -3)``, ``ammo(shock)``, ``state(stunned)``."""

    name: str
    args: tuple[int | str, ...]

    def __str__(self) -> str:
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


Value = int | str | Term  # str: a constant id


class ParamError(ValueError):
    """A parameter its type does not accept; ``expected`` says what would be."""

    def __init__(self, message: str, expected: str):
        super().__init__(message)
        self.expected = expected


def kind_of(entry: Entry) -> str | None:
    """The parameter type of a special skill entry, None if it takes none."""
    kind = entry.get("param")
    return kind if isinstance(kind, str) else None


def read(entry: Entry, text: str, catalogue: Catalogue) -> Value | None:
    """The typed value of ``text`` written in the brackets of ``entry``; None for a
    ``text`` parameter (no rule reads it).

    Raises
    ------
    ParamError
        If the entry takes no parameter or ``text`` is not a value of its type.
    """
    kind = kind_of(entry)
    if kind is None:
        raise ParamError(f"{entry.name} takes no value in brackets", f"{entry.name} without brackets")
    if kind == "text":
        return None
    if kind == "mod":
        return _signed(entry, _mod(text), text)
    if kind == "attribute_mod":
        value = _attribute_mod(text)
        _signed(entry, int(value.args[1]), text)
        return value
    if kind == "attribute_value":
        return _attribute_value(text)
    if kind == "medical":
        return _medical(text)
    if kind == "lieutenant":
        return _lieutenant(text)
    if kind == "immunity":
        return _immunity(text, catalogue)
    return _choice(entry, text)


def _mod(text: str) -> int:
    bound = RANGES["param"]
    value = bound.read(text.strip())
    if value is None:
        raise ParamError(bound.out_of_range(text.strip()), bound.expected())
    return value


def _signed(entry: Entry, value: int, text: str) -> int:
    """``value``, if the entry's ``param_sign`` allows it."""
    if entry.get("param_sign") == "negative" and value >= 0:
        raise ParamError(f"{entry.name} ({text}): its MOD is a penalty, below 0",
                         f"a MOD from {RANGES['param'].low} to -1")
    return value


def _attribute_mod(text: str) -> Term:
    found = re.fullmatch(r"\s*([A-Za-z]*)\s*([+-]?[0-9]+)\s*", text)
    attribute = found.group(1).upper() if found else ""
    expected = f"a MOD ({RANGES['param'].expected()}), optionally after an attribute: {', '.join(ATTRIBUTES)} (CC-3)"
    if found is None or (attribute and attribute not in ATTRIBUTES):
        raise ParamError(f"{text!r} is not a MOD, or a MOD to an attribute", expected)
    try:
        value = _mod(found.group(2))
    except ParamError:
        raise ParamError(f"{text!r}: its MOD is out of range", expected) from None
    return Term("mod", (attribute.lower() if attribute else "all", value))


def _attribute_value(text: str) -> Term:
    found = re.fullmatch(r"\s*([A-Za-z]+)\s*=\s*([0-9]+)\s*", text)
    attribute = found.group(1).upper() if found else ""
    expected = f"an attribute and its value: {', '.join(ATTRIBUTES)} (PH=18)"
    if found is None or attribute not in ATTRIBUTES:
        raise ParamError(f"{text!r} is not an attribute with its value", expected)
    bound = RANGES[attribute]
    value = bound.read(found.group(2))
    if value is None:
        raise ParamError(bound.out_of_range(found.group(2)), bound.expected())
    return Term("value", (attribute.lower(), value))


def _medical(text: str) -> Term:
    """Seed 002, Doctor and Engineer: ``2W`` (two Wounds removed), ``Reroll -X``."""
    if re.fullmatch(r"\s*2\s*W\s*", text, re.IGNORECASE):  # the only such variant seed 002 names
        return Term("wounds", (2,))
    reroll = re.fullmatch(r"\s*Reroll\s*(-?[0-9]+)\s*", text, re.IGNORECASE)
    if reroll:
        return Term("reroll", (_mod(reroll.group(1) if reroll.group(1).startswith("-") else "-" + reroll.group(1)),))
    raise ParamError(f"{text!r} is not a variant of the skill", "2W, or Reroll -X with X a MOD (Reroll -3)")


# Seed 002 Lieutenant: "+1 커맨드 토큰" (one more Command Token for the game), "+1 오더" (one
# more Lieutenant Order each turn), the extras a Unit Profile lists in brackets.
LIEUTENANT_EXTRAS = {"+1 order": "order", "+1 command token": "command_token"}


def _lieutenant(text: str) -> Term:
    """Seed 002, Lieutenant: ``+1 Order``, ``+1 Command Token``."""
    extra = LIEUTENANT_EXTRAS.get(" ".join(text.split()).lower())
    if extra is None:
        raise ParamError(f"{text!r} is not an extra of the Lieutenant", "+1 Order, or +1 Command Token")
    return Term("extra", (extra,))


def _immunity(text: str, catalogue: Catalogue) -> Value:
    key = normalize(text)
    if key in IMMUNITY_WORDS:
        return IMMUNITY_WORDS[key]
    for kind, name in (("ammunition", "ammo"), ("traits", "trait"), ("states", "state")):
        entry = catalogue.find(kind, text)
        if entry is not None:
            return Term(name, (entry.id,))
    raise ParamError(f"Immunity ({text}) names no attribute, ammunition, trait or state of edition "
                     f"{catalogue.edition}",
                     "ARM, BTS, Enhanced, Critical, or an ammunition, trait or state of the edition")


def _choice(entry: Entry, text: str) -> int | str:
    values = [str(v) for v in entry.get("param_values", [])]
    for v in values:
        if normalize(v) == normalize(text):
            return int(v) if v.isdigit() else atom_text(v)
    raise ParamError(f"{entry.name} ({text}): not one of its values", "one of: " + ", ".join(values))
