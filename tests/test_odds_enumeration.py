"""``ruling odds`` against ``ruling check``: every dice outcome of small positions,
resolved by the rule base, counted, and compared exactly with the odds.

Running ``check`` 20 ** n times per position is too slow (a solve takes ~0.1 s), so the
outcomes are enumerated by class, exactly:

- a roll's die faces fall in classes that the resolution treats alike: every failure,
  every Critical, and the successes whose value stands in the same order to every
  success value the opposing rolls can show (the rule base compares opposing values
  only by order: rolls.lp ``beats/3``). One face stands for its class, weighted by the
  class's size, so the weights of all classes sum to the 20 ** n rolls. That each face
  is what the rule base says it is (kind and value, for every Success Value in play) is
  checked face by face first (``test_faces_are_the_rule_base_s``);
- a saving roll's faces fall in two classes, pass and fail, at a threshold written by
  hand in each position below from the edition's rule; the face standing for each class
  is the one next to the threshold, so a threshold off by one in the rule base flips
  it and fails the test. Saves are enumerated as the resolution asks for them, round by
  round (a Continuous Damage chain asks for the next save only after a failed one).

Each position's weighted counts of every roll's standing successes and Criticals, and
of every trooper's end state, must equal the odds' fractions, both ways.

``pytest`` enumerates a fixed sample: each kind of roll and save once, the two editions
taking turns; the other positions (the +1 SD extra die, the Impact Template faced one by
one, the other edition of each kind) take minutes and are marked ``slow``
(``pytest -m slow``). The odds cases under cases/ pin the odds of those positions too.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest

from checker.engine import solver
from checker.infinity import analysis, dice, facts, report
from checker.infinity.odds import option_odds
from checker.infinity.resolution import resolution

GAINED = ("unconscious", "nwi", "dogged", "shasvastii_embryo")


def _solve(game, cat):
    atoms = solver.solve(game.edition, facts.build(game, cat))
    return atoms, resolution(game, atoms)


def _classes(faces: tuple[dice.Face, ...], opposing: set[int]) -> list[tuple[int, int]]:
    """(a face standing for the class, the class's size) for every class of ``faces``."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for die, f in enumerate(faces, start=1):
        if f.kind == dice.SUCCESS:
            key: tuple = (f.kind, tuple((f.compare > b) - (f.compare < b) for b in sorted(opposing)))
        else:
            key = (f.kind,)
        groups[key].append(die)
    return [(members[0], len(members)) for members in groups.values()]


def _state(change) -> str:
    """A trooper's end state as the odds name it, from ``check``'s state table."""
    gained = set(change.after) - set(change.before)
    if "dead" in gained:
        return "dead"
    for state in GAINED:
        if state in gained:
            return state
    return "wounded" if change.wounds_lost > 0 else "unharmed"


def enumerate_check(text: str, passes: dict[str, range]):
    """Weighted ``check`` outcomes of a position: each roll's (trooper, successes,
    Criticals) and each trooper's end state, with their exact chances; ``passes``: the
    faces that pass each trooper's saves (every save it makes)."""
    game, cat, _ = analysis.load(text)
    game = replace(game, dice=())
    atoms, base = _solve(game, cat)
    verdict = report.check_report(game, atoms, cat)
    assert all(j.status == "legal" for j in verdict.judgements), [(j.subject, j.status) for j in verdict.judgements]
    ordered = [r for r in base.rolls if not r.key.startswith("guts ")]  # a Guts Roll is not part of the odds
    rolls = [r for r in ordered if not r.automatic]
    by_key = {r.key: r for r in ordered}
    faces = {r.key: dice.faces(r.sv, game.edition) for r in rolls}
    slots = []  # (roll key, roller): one per die, in the order each roller's dice are read
    choices = []
    for r in rolls:
        opposing = {f.compare for k in r.face_to_face_with for f in faces[k] if f.kind == dice.SUCCESS}
        for _ in range(r.dice_rolled or 0):  # extra dice (N5 "+1 SD") too: the resolution discards
            slots.append(r.roller)
            choices.append(_classes(faces[r.key], opposing))
    assert len({r.roller for r in rolls}) == len(rolls), "one roll per roller: dice are read in its order"
    covered = {  # the troopers the Order's template covers besides its target, as written
        f"{o.trooper} skill {step} -> {t.trooper}": set(t.covered)
        for o in game.orders for step, use in enumerate(o.skills, start=1) for t in use.targets}
    scores: dict[str, Counter] = defaultdict(Counter)
    states: dict[str, Counter] = defaultdict(Counter)
    runs = 0
    for combo in itertools.product(*choices):
        lines: dict[str, list[int]] = defaultdict(list)
        weight = Fraction(1)
        for roller, (die, size) in zip(slots, combo, strict=True):
            lines[roller].append(die)
            weight *= Fraction(size, 20)
        stack: list[tuple[dict, Fraction]] = [({}, weight)]
        while stack:
            saves, w = stack.pop()
            dice_lines = tuple((t, "roll", tuple(v)) for t, v in lines.items())
            dice_lines += tuple((t, "save", tuple(v)) for t, v in saves.items() if v)
            atoms, res = _solve(replace(game, dice=dice_lines), cat)
            runs += 1
            missing = sorted(res.saves_missing) if res else []
            if missing:
                for pattern in itertools.product((True, False), repeat=len(missing)):
                    more = {t: list(v) for t, v in saves.items()}
                    p = w
                    for (t, i), passed in zip(missing, pattern, strict=True):
                        good = passes[t]
                        face = (max(good) if game.edition == "n5" else min(good)) if passed else (
                            max(good) + 1 if game.edition == "n5" else min(good) - 1)
                        assert i == len(more.get(t, [])) + 1
                        more.setdefault(t, []).append(face)
                        p *= Fraction(len(good) if passed else 20 - len(good), 20)
                    if p:
                        stack.append((more, p))
                continue
            _record(res, atoms, by_key, covered, w, scores, states)
    return game, cat, atoms, scores, states, runs


def _record(res, atoms, by_key, covered, w, scores, states) -> None:
    hits: dict[str, Counter] = defaultdict(Counter)
    for g, _k, t, kind in atoms.get("hit"):
        hits[_key(g)][(t, kind)] += 1
    for roll in res.rolls:
        if roll.key not in by_key:
            continue  # a Guts Roll: not part of the odds
        if roll.attack:
            troopers = {t for (t, _kind) in hits[roll.key]} | ({roll.target} if roll.target else set())
            troopers |= {t for t, _ in by_key[roll.key].hit_troopers} | covered.get(roll.key, set())
            for t in troopers:
                scores[roll.key][(t, hits[roll.key][(t, "success")], hits[roll.key][(t, "critical")])] += w
        else:
            s = sum(1 for d in roll.dice if d.scores and d.result == "success")
            c = sum(1 for d in roll.dice if d.scores and d.result == "critical")
            scores[roll.key][(roll.target, s, c)] += w
    changes = {c.trooper: c for c in res.states}
    for t in {c.trooper for c in res.states} | set(states):
        states[t][_state(changes[t]) if t in changes else "unharmed"] += w


def _key(g) -> str:
    from checker.infinity.resolution import roll_key

    return roll_key(g)


def check_agrees(text: str, passes: dict[str, range], max_runs: int = 80) -> int:
    """Enumerate ``text`` through check and compare with the odds; the number of runs."""
    game, cat, _atoms, scores, states, runs = enumerate_check(text, passes)
    assert runs <= max_runs, f"{runs} runs: make the position smaller"
    atoms = solver.solve(game.edition, facts.build(game, cat))
    odds = option_odds(game, cat, atoms)
    assert not odds.not_priced, odds.not_priced
    want_scores = {r.key: {(s.trooper, s.successes, s.criticals): s.chance for s in r.scores} for r in odds.rolls}
    got_scores = {k: {o: p for o, p in v.items() if p} for k, v in scores.items()}
    assert set(got_scores) == set(want_scores)
    for key, got in got_scores.items():
        want = want_scores[key]
        assert got == want, (key, "check only:", {o: got[o] for o in set(got) - set(want)},
                             "odds only:", {o: want[o] for o in set(want) - set(got)},
                             "differ:", {o: (got[o], want[o]) for o in set(got) & set(want) if got[o] != want[o]})
    want_states: dict[str, dict[str, Fraction]] = defaultdict(dict)
    for e in odds.end_states:
        want_states[e.trooper][e.state] = e.chance
    got_states = {t: {s: p for s, p in c.items() if p} for t, c in states.items()}
    for t in set(got_states) | set(want_states):
        assert got_states.get(t, {"unharmed": Fraction(1)}) == want_states.get(t, {"unharmed": Fraction(1)}), t
    for key, got in got_scores.items():  # each roll's chances sum to 1 for each trooper it affects
        for t in {o[0] for o in got}:
            assert sum(p for o, p in got.items() if o[0] == t) == 1, (key, t)
    return runs


# ---- The faces of a roll, face by face ---------------------------------------------

CLASSIFIED = (0, 1, 2, 3, 4, 5, 12, 20, 21, 22, 25)


def _dodgers(edition: str) -> str:
    """A position where one trooper per Success Value in CLASSIFIED dodges a Move: a
    Normal PH Roll each, its SV its PH."""
    lines = [f"edition {edition}", "active nomads", "trooper a nomads Alguacil { CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }"]
    for i, ph in enumerate(CLASSIFIED):
        lines += [f"trooper r{i} panoceania Fusilier {{ PH {ph} }}", f"lof r{i} <-> a", f"aro r{i}: Dodge"]
    lines.append("order a: Move")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("edition", ["n5", pytest.param("n3", marks=pytest.mark.slow)])
def test_faces_are_the_rule_base_s(edition):
    """Every face of every Success Value the positions below use, as rolls.lp judges it
    (kind and Face to Face value), is what checker.infinity.dice says."""
    game, cat, _ = analysis.load(_dodgers(edition))
    _, base = _solve(replace(game, dice=()), cat)
    svs = {r.roller: r.sv for r in base.rolls}
    assert sorted(svs.values()) == sorted(CLASSIFIED)
    for die in dice.FACES:
        dice_lines = tuple((r, "roll", (die,)) for r in svs)
        atoms, _ = _solve(replace(game, dice=dice_lines), cat)
        found = {g[1]: dice.Face(kind, compare) for g, _k, kind, compare in atoms.get("result")}
        for roller, sv in svs.items():
            assert found[roller] == dice.face(sv, die, edition), (sv, die)


# ---- Positions --------------------------------------------------------------------

FACE_TO_FACE = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ BS {a}; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
trooper b panoceania Fusilier {{ BS {b}; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
lof a <-> b
distance a b {dist}
order a: Move + BS Attack (Combi Rifle) -> b x1
aro b: BS Attack (Combi Rifle) -> a
"""


@pytest.mark.parametrize("ed, saves", [
    # SV 22 (BS 19, Combi Rifle +3 at 8 inches) against SV 5: ties, a lower and a higher
    # success, Criticals on both sides, the excess over 20 added to the die. Saves: N5
    # ARM 1 + PS 7, pass on 8 or less; N3 ARM 1 against DAM 13, pass when die + 1 > 13.
    pytest.param("n5", {"a": range(1, 9), "b": range(1, 9)}, marks=pytest.mark.slow),
    ("n3", {"a": range(13, 21), "b": range(13, 21)}),
])
def test_face_to_face(ed, saves):
    check_agrees(FACE_TO_FACE.format(ed=ed, a=19, b=2, dist=6), saves)


EXTRA_DIE_FACE_TO_FACE = """
edition n5
active nomads
trooper a nomads Alguacil {{ BS {a}; CC 13; PH 10; WIP 12; ARM 13; BTS 0; W 1; weapons: Combi Rifle }}
trooper b panoceania Fusilier {{ group 1; BS {b}; CC 13; PH 10; WIP 12; ARM 13; BTS 0; W 1; weapons: Combi Rifle }}
trooper c panoceania Fusilier {{ group 1; weapons: Combi Rifle }}
fireteam alpha duo level 2: b, c
lof a <-> b
distance a b 6
order a: Move + BS Attack (Combi Rifle) -> b x1
aro b: BS Attack (Combi Rifle) -> a
"""


@pytest.mark.slow
def test_extra_die_face_to_face():
    """N5 Fireteam Level 2 (+1 SD) in ARO: b rolls 2 dice at SV 5 and keeps the better
    (failures, ties, a lower and a higher success, Criticals) against a's SV 22. ARM 13
    + PS 7: every save passes, which keeps the enumeration short."""
    check_agrees(EXTRA_DIE_FACE_TO_FACE.format(a=19, b=2), {"a": range(1, 21), "b": range(1, 21)}, max_runs=200)


EXTRA_DIE_NORMAL_ROLL = """
edition n5
active nomads
trooper a nomads Alguacil { group 1; CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
trooper d nomads Alguacil { group 1; weapons: Combi Rifle }
trooper b panoceania Fusilier { CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }
fireteam alpha duo level 2: a, d
lof a -> b
distance a b 6
order a fireteam leader: Move + BS Attack (Combi Rifle) -> b x1
order d fireteam: Move + Idle
"""


@pytest.mark.slow
def test_extra_die_normal_roll():
    """N5 Fireteam Level 2 (+1 SD): the Leader rolls 2 dice for its one die and keeps
    the better (a failure discarded before a success, a success before a Critical)."""
    check_agrees(EXTRA_DIE_NORMAL_ROLL, {"b": range(1, 9)})


NORMAL_ROLL = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
trooper b panoceania Fusilier {{ CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
lof a -> b
distance a b 6
order a: Move + BS Attack (Combi Rifle) -> b x{burst}
"""


@pytest.mark.parametrize("ed, burst, saves", [
    ("n5", 1, {"b": range(1, 9)}),  # one die: a Critical adds a save
    pytest.param("n3", 2, {"b": range(13, 21)}, marks=pytest.mark.slow),  # two dice; a Critical is a Wound with no save
])
def test_normal_roll(ed, burst, saves):
    """b cannot see a: no ARO, a Normal Roll."""
    check_agrees(NORMAL_ROLL.format(ed=ed, burst=burst), saves)


DIRECT_TEMPLATE = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ weapons: Chain Rifle; CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1 }}
trooper b panoceania Fusilier {{ PH 3; CC 13; BS 12; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
trooper c panoceania Fusilier {{ CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
lof a <-> b
order a: Move + BS Attack (Chain Rifle) -> b [c]
aro b: Dodge
"""


@pytest.mark.parametrize("ed, saves", [
    ("n5", {"b": range(1, 9), "c": range(1, 9)}),  # ARM 1 + PS 7
    pytest.param("n3", {"b": range(13, 21), "c": range(13, 21)}, marks=pytest.mark.slow),  # ARM 1 against DAM 13
])
def test_direct_template_and_dodge(ed, saves):
    """A Direct Template hits without a roll; b dodges it (a Normal PH Roll), c, under
    it too, does not react."""
    check_agrees(DIRECT_TEMPLATE.format(ed=ed), saves)


SEVERAL_SAVES = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ BS 10; weapons: {weapon}; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1 }}
trooper b panoceania Fusilier {{ {life} 2; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; weapons: Combi Rifle }}
lof a -> b
distance a b 10
order a: Move + BS Attack ({weapon}{ammo}) -> b x1
"""


@pytest.mark.parametrize("ed, weapon, ammo, life, saves", [
    # N5 T2: a failed save costs 2 Wounds; a Critical's extra save only 1 (VITA 2:
    # wounded, Unconscious, Dead). ARM 1 + PS 7.
    pytest.param("n5", "T2 Rifle", "", "VITA", {"b": range(1, 9)}, marks=pytest.mark.slow),
    # N3 EXP: three saves per hit, each failure a Wound; a Critical's first is lost with
    # no roll. W 2; ARM 1 against DAM 14.
    ("n3", "Panzerfaust", ", EXP", "W", {"b": range(14, 21)}),
])
def test_several_saves(ed, weapon, ammo, life, saves):
    check_agrees(SEVERAL_SAVES.format(ed=ed, weapon=weapon, ammo=ammo, life=life), saves)


CONTINUOUS = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ weapons: Light Flamethrower; CC 13; BS 11; PH 10; WIP 12; ARM 1; BTS 0; W 1 }}
trooper b panoceania Fusilier {{ {life} 2; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; weapons: Combi Rifle }}
lof a -> b
order a: Move + BS Attack (Light Flamethrower) -> b
"""


@pytest.mark.parametrize("ed, life, saves", [
    ("n5", "VITA", {"b": range(1, 9)}),  # Continuous Damage: ARM 1 + PS 7
    pytest.param("n3", "W", {"b": range(13, 21)}, marks=pytest.mark.slow),  # Fire: ARM 1 against DAM 13
])
def test_continuous_damage_and_fire(ed, life, saves):
    """A failed save is made again until it passes or the trooper is Dead."""
    check_agrees(CONTINUOUS.format(ed=ed, life=life), saves)


TOKEN = """
edition {ed}
active nomads
trooper a nomads Alguacil {{ BS 10; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
trooper b panoceania Fusilier {{ skills: {skill}; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
lof a -> b
distance a b 6
order a: Move + BS Attack (Combi Rifle) -> b x1
"""


@pytest.mark.parametrize("ed, skill, saves", [
    pytest.param("n5", "No Wound Incapacitation", {"b": range(1, 9)}, marks=pytest.mark.slow),
    ("n3", "V: Dogged", {"b": range(13, 21)}),
])
def test_token_instead_of_unconscious(ed, skill, saves):
    """The Wound that would leave b Unconscious places the skill's token instead; one
    more is Dead."""
    check_agrees(TOKEN.format(ed=ed, skill=skill), saves)


TEMPLATE_ROLL = """
edition n3
active nomads
trooper a nomads Hellcat {{ BS 2; ARM 20; CC 15; PH 11; WIP 13; BTS 3; W 1; weapons: Boarding Shotgun }}
trooper b panoceania Fusilier {{ BS 2; ARM 20; CC 13; PH 10; WIP 12; BTS 0; W 1; weapons: Combi Rifle }}
trooper c panoceania Fusilier {{ PH 5; ARM 20; CC 13; BS 12; WIP 12; BTS 0; W 1; weapons: Combi Rifle }}
trooper d panoceania Fusilier {{ ARM 20; CC 13; BS 12; PH 10; WIP 12; BTS 0; W 1; weapons: Combi Rifle }}
lof a <-> b
distance a b 10
order a: Move + BS Attack (Boarding Shotgun) -> b x1 [c d]
aro b: BS Attack (Combi Rifle) -> a
aro c after second: Dodge
"""


@pytest.mark.slow
def test_template_roll_faced_one_by_one():
    """N3 Impact Template: its roll faces b's shot and c's Dodge (PH-3, no LoF) each on
    its own; d, under it too, is hit by every success; a Critical is a Critical only
    for b, the target (seed 003 p.37). ARM 20: every save passes, a Critical still
    costs a Wound."""
    check_agrees(TEMPLATE_ROLL.format(), {t: range(1, 21) for t in "abcd"}, max_runs=80)


SAVE_MODIFIERS = """
edition n5
active nomads
trooper a nomads Alguacil {{ BS 10; weapons: {weapon}; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1 }}
trooper b panoceania Fusilier {{ ARM 3; BTS 3; CC 13; BS 12; PH 10; WIP 12; W 1; weapons: Combi Rifle }}
lof a -> b
distance a b 6
cover b partial from a
order a: Move + BS Attack ({weapon}) -> b x1
"""


@pytest.mark.parametrize("weapon, saves", [
    # AP halves ARM 3 to 2 (rounding up); Boarding Shotgun PS 6; Partial Cover +3
    # (and -3 to the BS Roll): pass on 11 or less
    ("Boarding Shotgun", {"b": range(1, 12)}),
    # Plasma Carbine: a Combined Saving Roll, ARM and BTS (3 each) + PS 6 + 3; a
    # Critical adds an ARM save
    pytest.param("Plasma Carbine", {"b": range(1, 13)}, marks=pytest.mark.slow),
])
def test_save_modifiers(weapon, saves):
    check_agrees(SAVE_MODIFIERS.format(weapon=weapon), saves)


SHOCK = """
edition n3
active nomads
trooper a nomads Alguacil {{ BS 10; weapons: Sniper Rifle; CC 13; PH 10; WIP 12; ARM 1; BTS 0; W 1 }}
trooper b panoceania Fusilier {{ skills: {skill}; CC 13; BS 12; PH 10; WIP 12; ARM 1; BTS 0; W 1; weapons: Combi Rifle }}
lof a -> b
distance a b 30
order a: Move + BS Attack (Sniper Rifle) -> b x1
"""


@pytest.mark.parametrize("skill", ["CH: Mimetism", pytest.param("V: Dogged", marks=pytest.mark.slow)])
def test_shock(skill):
    """N3 Shock: a trooper with W 1 that fails its ARM Roll (or loses a Wound to a
    Critical) is Dead, not Unconscious, and not in the Dogged state either. ARM 1
    against DAM 15: pass on 15 or more."""
    check_agrees(SHOCK.format(skill=skill), {"b": range(15, 21)})
