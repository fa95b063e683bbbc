"""The d20 and what each face does: the per-die rules of the resolution restated over
all 20 faces, and the exact number of rolls giving each outcome.

The rules are the resolution's own (asp/infinity/core/rolls.lp ``result/4``, ``beats/3``; the
editions' ``slot_result/5`` in asp/infinity/n5/damage.lp and asp/infinity/n3/damage.lp);
tests/test_odds_enumeration.py runs ``check`` on every class of dice outcome of small
positions and compares its counts with these, so the two cannot drift apart.

Counts, not probabilities: a roll of ``n`` dice has ``20 ** n`` equally likely outcomes,
and each function returns how many of them give each result (exact integers).

Extra dice (N5 "+1 SD", core/rolls.lp ``group_extra/2``): a roll of ``n`` dice with ``e``
extra rolls ``n + e`` dice (``20 ** (n + e)`` outcomes) and discards ``e``: the resolution
discards, unless the position writes another choice, the dice never better to keep (a
failure, then the lowest success, a Critical last), and the counts here keep the same
best ``n`` (:func:`keep_best`, :func:`kept_counts`). Those kept dice are, die for die, at
least as good as any other choice, and they keep the roll's best success and Criticals:
what cancels the opponent's dice in a Face to Face Roll is the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial

FACES = tuple(range(1, 21))
FAIL, SUCCESS, CRITICAL = "fail", "success", "critical"


@dataclass(frozen=True, order=True)
class Face:
    """What one die shows once judged: ``kind`` (fail, success, critical) and
    ``compare``, the value that decides a Face to Face Roll (the die itself, or the
    die plus the Success Value's excess over 20)."""

    kind: str
    compare: int

    @property
    def succeeds(self) -> bool:
        return self.kind != FAIL


def face(sv: int, die: int, edition: str) -> Face:
    """The result of ``die`` against Success Value ``sv`` (rolls.lp ``result/4``).

    An SV of 0 or less fails; up to 20, a die below the SV succeeds, equal to it is a
    Critical, above it fails. Above 20 each edition reads the die its own way (the
    edition's ``above_20/1``): N3 adds the excess to the die and a total of 20 or more is
    a Critical (http://infinitythewiki.com/en/Rolls); N5 leaves the die as rolled, a 20
    and every die up to the excess being Criticals (``result_above_20`` in
    asp/infinity/n5/rules.lp).
    """
    if sv <= 0:
        return Face(FAIL, die)
    if sv <= 20:
        if die == sv:
            return Face(CRITICAL, die)
        return Face(SUCCESS, die) if die < sv else Face(FAIL, die)
    if edition == "n5":
        return Face(CRITICAL if die == 20 or die <= sv - 20 else SUCCESS, die)
    total = die + sv - 20
    return Face(CRITICAL if total >= 20 else SUCCESS, total)


def faces(sv: int, edition: str) -> tuple[Face, ...]:
    """The 20 faces of a die rolled against ``sv``, face 1 first."""
    return tuple(face(sv, d, edition) for d in FACES)


def classes(table: Sequence[Face]) -> tuple[tuple[Face, int], ...]:
    """The faces that act alike in every roll, with how many faces each stands for:
    every failure is one class, every Critical one (a Critical's value never decides:
    it beats any success and ties any Critical), each success value its own."""
    counts: Counter[Face] = Counter()
    for f in table:
        counts[Face(f.kind, 0) if f.kind != SUCCESS else f] += 1
    return tuple(sorted(counts.items()))


# ---- One roll's dice against its opponents: the literal rule -----------------------

def scores(own: Iterable[Face], opposing: Iterable[Face]) -> tuple[int, int]:
    """(successes, Criticals) of ``own`` that stand against the ``opposing`` dice
    (rolls.lp ``beats/3``): a success is cancelled by an opposing success as high or
    higher, or by any opposing Critical; a Critical only by an opposing Critical."""
    opposing = list(opposing)
    crit = any(f.kind == CRITICAL for f in opposing)
    best = max((f.compare for f in opposing if f.kind == SUCCESS), default=0)
    hits = crits = 0
    for f in own:
        if f.kind == CRITICAL and not crit:
            crits += 1
        elif f.kind == SUCCESS and not crit and f.compare > best:
            hits += 1
    return hits, crits


def worth(f: Face) -> tuple[int, int]:
    """How good a die is to keep (rolls.lp ``worth/3``): a failure least, then each
    success by its value, a Critical most."""
    return (0, 0) if f.kind == FAIL else (2, 0) if f.kind == CRITICAL else (1, f.compare)


def keep_best(rolled: Sequence[Face], n: int) -> tuple[Face, ...]:
    """The ``n`` dice kept of a roll with extra dice: the discarded ones are the worst."""
    return tuple(sorted(rolled, key=worth, reverse=True)[:n])


def kept_counts(h: int, k: int, rest: int, extra: int) -> Outcome:
    """(successes, Criticals) that stand once ``extra`` dice are discarded from a roll
    with ``h`` standing successes, ``k`` Criticals and ``rest`` dice that score nothing:
    those first, then successes, then Criticals (every standing success ranks above every
    die that scores nothing: against the same opposing dice, a higher success stands
    wherever a lower one does)."""
    drop = extra - min(extra, rest)
    return h - min(drop, h), k - max(0, drop - h)


# ---- Exact counts -------------------------------------------------------------------

Outcome = tuple[int, int]  # (successes, Criticals) that stand


def _multinomial(n: int, parts: Sequence[int]) -> int:
    result = factorial(n)
    for p in parts:
        result //= factorial(p)
    return result


def normal_roll(table: Sequence[Face], n: int, extra: int = 0) -> dict[Outcome, int]:
    """A Normal Roll of ``n`` dice (and ``extra`` dice rolled and discarded): how many
    of the ``20 ** (n + extra)`` rolls give each (successes, Criticals)."""
    s = sum(1 for f in table if f.kind == SUCCESS)
    c = sum(1 for f in table if f.kind == CRITICAL)
    return _split(n, s, c, 20 - s - c, extra)


def _split(n: int, s: int, c: int, rest: int, extra: int = 0) -> dict[Outcome, int]:
    """Rolls of ``n + extra`` dice where each die scores a success on ``s`` faces, a
    Critical on ``c`` and nothing on ``rest``, by the (successes, Criticals) of the
    ``n`` kept."""
    out: Counter[Outcome] = Counter()
    m = n + extra
    for h in range(m + 1):
        for k in range(m + 1 - h):
            count = _multinomial(m, (h, k, m - h - k)) * s ** h * c ** k * rest ** (m - h - k)
            if count:
                out[kept_counts(h, k, m - h - k, extra)] += count
    return dict(out)


def _no_crit_max(table: Sequence[Face], n: int) -> dict[int, int]:
    """Rolls of ``n`` dice with no Critical, by their best success value (0: none)."""
    values = sorted({f.compare for f in table if f.kind == SUCCESS})
    fails = sum(1 for f in table if f.kind == FAIL)
    out = {0: fails ** n} if fails ** n else {}
    below = fails
    for v in values:
        at_most = below + sum(1 for f in table if f.kind == SUCCESS and f.compare == v)
        count = at_most ** n - below ** n
        if count:
            out[v] = count
        below = at_most
    return out


def _scoring_side(mine: Sequence[Face], n: int, theirs: Sequence[Face], m: int,
                  extra: int = 0, their_extra: int = 0) -> dict[Outcome, int]:
    """Counts of (mine's standing successes and Criticals, for each way the opponent's
    ``m`` dice fall with no Critical), summed over the opponent's best value: only
    outcomes where ``mine`` scores something. The opponent's discarded dice never hold
    its best success (:func:`keep_best`): its ``m + their_extra`` dice decide it."""
    out: Counter[Outcome] = Counter()
    crits = sum(1 for f in mine if f.kind == CRITICAL)
    for best, ways in _no_crit_max(theirs, m + their_extra).items():
        above = sum(1 for f in mine if f.kind == SUCCESS and f.compare > best)
        for outcome, count in _split(n, above, crits, 20 - above - crits, extra).items():
            if outcome != (0, 0):
                out[outcome] += ways * count
    return dict(out)


def face_to_face(a: Sequence[Face], na: int, b: Sequence[Face], nb: int,
                 ea: int = 0, eb: int = 0) -> dict[tuple[Outcome, Outcome], int]:
    """A Face to Face Roll of ``na`` dice on ``a``'s faces against ``nb`` on ``b``'s
    (each with ``ea``, ``eb`` extra dice rolled and discarded): how many of the
    ``20 ** (na + ea + nb + eb)`` rolls leave each pair of (successes, Criticals)
    standing, ``a``'s first.

    At most one side scores: a side scores only if the other rolled no Critical and the
    side rolled a Critical or a success above the other's best. So, conditioning on the
    side that does not score (no Critical, best success ``v``: ``N(v)`` ways), the
    scoring side's dice are independent: each scores a Critical, a success above ``v``,
    or nothing. A sum over at most 20 values of ``v`` per side, whatever the Burst.
    """
    out: dict[tuple[Outcome, Outcome], int] = {}
    for outcome, count in _scoring_side(a, na, b, nb, ea, eb).items():
        out[(outcome, (0, 0))] = count
    for outcome, count in _scoring_side(b, nb, a, na, eb, ea).items():
        out[((0, 0), outcome)] = count
    nobody = 20 ** (na + ea + nb + eb) - sum(out.values())
    if nobody:
        out[((0, 0), (0, 0))] = nobody
    return out


def dice_classes(table: Sequence[Face], n: int) -> Iterable[tuple[tuple[Face, ...], int]]:
    """Every multiset of ``n`` dice over the classes of ``table``, with the number of
    the ``20 ** n`` ordered rolls it stands for."""
    cls = classes(table)
    for combo in combinations_with_replacement(range(len(cls)), n):
        counts = Counter(combo)
        ways = _multinomial(n, tuple(counts.values()))
        for i, k in counts.items():
            ways *= cls[i][1] ** k
        yield tuple(cls[i][0] for i in combo), ways


def multiset_count(n: int, table: Sequence[Face]) -> int:
    """How many multisets :func:`dice_classes` yields (the cost of enumerating them)."""
    return comb(len(classes(table)) + n - 1, n)


# ---- Saving rolls -------------------------------------------------------------------

@dataclass(frozen=True)
class SaveRoll:
    """One saving roll: the faces (of 20) that pass it, and how it was reached."""

    passes: int
    attribute: str  # arm | bts | ph
    value: int  # the attribute as saved with (halved where the ammunition says)
    cover: int  # Partial Cover's +3, or 0
    against: int  # N5: the weapon's PS (or the ammunition's MOD for a PH save); N3: DAM


def save_roll(edition: str, attribute: str, value: int, cover: int, against: int) -> SaveRoll:
    """A saving roll as each edition passes it: N5 (asp/infinity/n5/damage.lp) on a die equal to
    or below ARM / BTS + PS + cover (PH + the ammunition's MOD); N3 (asp/infinity/n3/damage.lp)
    when the die plus ARM / BTS plus cover beats the weapon's DAM."""
    if edition == "n5":
        sv = value + against + cover
        passed = sum(1 for d in FACES if d <= sv)
    else:
        passed = sum(1 for d in FACES if d + value + cover > against)
    return SaveRoll(passed, attribute, value, cover, against)


def halved(value: int) -> int:
    """Half an attribute, rounding up (core/damage.lp ``slot_value/5``)."""
    return (value + 1) // 2


# ---- Wounds ---------------------------------------------------------------------------

Wounds = dict[int, Fraction]  # Wounds lost -> chance; the cap stands for "the cap or more"


@dataclass(frozen=True)
class Slot:
    """One saving roll a hit calls for: the faces that pass it (None: no roll, an
    automatic failure), the Wounds a failure costs, whether a failure calls for the
    same roll again until one passes (Continuous Damage, N3 Fire), and whether a failure
    kills outright (Shock against a trooper with 1 VITA / W): it costs the cap."""

    passes: int | None
    wounds: int
    repeats: bool = False
    kills: bool = False


def slot_wounds(slot: Slot, cap: int) -> Wounds:
    """The Wounds one saving roll costs, at most ``cap`` (Dead)."""
    lost = cap if slot.kills else min(slot.wounds, cap)
    if slot.passes is None:
        return {lost: Fraction(1)}
    passed = Fraction(slot.passes, 20)
    failed = 1 - passed
    if not slot.repeats or slot.wounds == 0 or slot.kills:
        return _add({0: passed}, {lost: failed})
    out: Wounds = {}
    k = 0
    while slot.wounds * k < cap:  # k failures, then a pass
        out[slot.wounds * k] = failed ** k * passed
        k += 1
    out[cap] = failed ** k  # still failing when the cap is reached
    return {w: p for w, p in out.items() if p}


def _add(a: Wounds, b: Wounds) -> Wounds:
    out = dict(a)
    for w, p in b.items():
        out[w] = out.get(w, Fraction(0)) + p
    return {w: p for w, p in out.items() if p}


def convolve(a: Wounds, b: Wounds, cap: int) -> Wounds:
    """The Wounds of two independent causes together, at most ``cap``."""
    out: Wounds = {}
    for wa, pa in a.items():
        for wb, pb in b.items():
            w = min(wa + wb, cap)
            out[w] = out.get(w, Fraction(0)) + pa * pb
    return out


def total_wounds(parts: Iterable[Wounds], cap: int) -> Wounds:
    out: Wounds = {0: Fraction(1)}
    for part in parts:
        out = convolve(out, part, cap)
    return out
