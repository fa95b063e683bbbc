"""What the catalogue says the rule base models agrees with what the rule base reads.

"Read" is derived from the rule files themselves (``asp/infinity/core/*.lp`` and the edition's
folder), parsed with clingo's AST, plus the catalogue facts ``checker/infinity/facts.py`` emits
for every common skill and state:

- A *carrier* is an argument position (an argument of an atom, or an argument of a
  function term inside one, such as ``X`` in ``skill_needs(S, special_skill(X))``) that
  holds ids of one catalogue kind. Each kind starts from the input predicates that carry
  its ids (``asp/infinity/core/inputs.lp``, ``checker/infinity/facts.py``):

  ============== ============================================================
  special skills has_skill/3 #2, skill_param/3 #2
  characteristics characteristic/2 #2
  states         state/2 #2
  weapons        carries/2 #2, declared_weapon/3 #3, aro_weapon/2 #2, twin_weapons/2 #2
  ammunition     weapon_ammo/2 #2, declared_ammo/3 #3, aro_ammo/2 #2
  traits         weapon_trait/2 #2, weapon_trait_param/3 #2
  ============== ============================================================

  A variable at a carrier makes every other position of that variable, in the same
  rule, a carrier too (``has_skill(T, S, _), fire_sensitive_skill(S, _)`` makes
  ``fire_sensitive_skill/2 #1`` one), up to a fixpoint.
- An entry is *read* when its id is a constant at a carrier in a rule or fact, or in a
  comparison with a carrier's variable. Per kind, also:

  - common skills: every one, since the generic rules derive an option, and its
    permissions, for each ``common_skill/1``;
  - special skills and traits: named in a common skill's ``needs``
    (``skill_needs(S, special_skill(X))``, ``skill_needs(S, weapon_trait(X))``, emitted
    for every common skill) at a carrier, that is when a rule reads that need;
  - states: flagged ``marker``, ``hidden`` or ``null`` when a rule reads that flag
    (``state_marker/1``...: the generic Marker, hidden and Null rules);
  - weapons: of a ``kind`` (bs, cc, deployable) that a rule names in ``weapon_kind/2``;
    equipment is read only by its id;
  - traits with ``encoded_as``: ``kind:K`` when a rule names K in ``weapon_kind/2``,
    ``template_type:T`` when a rule reads the type in ``weapon_template/3``,
    ``ammunition:X`` when that ammunition is read.

- the Player Turn's rules (``turn.toml``): an entry is read when it lists ``rules`` and
  each is cited in the edition's rule book (``rule(Id, Edition, Source, Text)``).

Then: an entry read by no rule is ``no``; an entry that is ``yes`` or ``partial`` is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from clingo import SymbolType, ast

from checker.cli import EXIT_ILLEGAL, EXIT_OK
from checker.engine import catalogue as cat
from checker.engine import rulebook
from checker.engine.catalogue import NO, PARTIAL, YES
from checker.engine.json_text import to_json
from checker.engine.resources import asp_dir
from checker.infinity import editions, render

SEEDS = {
    "special_skills": {("has_skill", 3, (1,)), ("skill_param", 3, (1,))},
    "characteristics": {("characteristic", 2, (1,))},
    "troop_types": {("troop_type", 2, (1,))},
    "fireteams": {("fireteam", 2, (1,))},
    "states": {("state", 2, (1,))},
    "weapons": {("carries", 2, (1,)), ("declared_weapon", 3, (2,)), ("aro_weapon", 2, (1,)),
                ("twin_weapons", 2, (1,))},
    "ammunition": {("weapon_ammo", 2, (1,)), ("declared_ammo", 3, (2,)), ("aro_ammo", 2, (1,))},
    "traits": {("weapon_trait", 2, (1,)), ("weapon_trait_param", 3, (1,))},
}
Position = tuple[str, int, tuple]


@dataclass(frozen=True)
class Atom:
    name: str  # "=" for a comparison
    args: tuple


def _atoms(node, out: list[Atom]) -> None:
    """Every atom of a statement (heads, bodies, conditions, aggregates) and every
    comparison, whose terms are its arguments."""
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicAtom:
            symbol = node.symbol
            for f in (symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]):
                if f.ast_type == ast.ASTType.Function:
                    out.append(Atom(f.name, tuple(f.arguments)))
            return
        if node.ast_type == ast.ASTType.Comparison:
            out.append(Atom("=", (node.term, *(g.term for g in node.guards))))
            return
        for key in node.child_keys:
            _atoms(getattr(node, key), out)
    elif node is not None and not isinstance(node, (str, int)) and hasattr(node, "__iter__"):
        for child in node:
            _atoms(child, out)


def _leaves(term, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """(path, 'var' | 'const', name) for every variable and constant in ``term``; a
    function term's arguments extend the path with its name, arity and index."""
    kind = term.ast_type
    if kind == ast.ASTType.Variable:
        if term.name != "_":
            yield path, "var", term.name
    elif kind == ast.ASTType.Pool:
        for t in term.arguments:
            yield from _leaves(t, path)
    elif kind == ast.ASTType.Function:
        if not term.arguments:
            yield path, "const", term.name
        for j, t in enumerate(term.arguments):
            yield from _leaves(t, path + (term.name, len(term.arguments), j))
    elif kind == ast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type == SymbolType.Function and not sym.arguments:
            yield path, "const", sym.name


def _positions(atom: Atom) -> Iterator[tuple[Position, str, str]]:
    for i, arg in enumerate(atom.args):
        for path, kind, name in _leaves(arg, (i,)):
            yield (atom.name, len(atom.args), path), kind, name


def parse(text: str) -> list[list[Atom]]:
    """The atoms of each rule or fact of a program."""
    statements: list = []
    ast.parse_string(text, statements.append)
    rules = []
    for s in statements:
        if s.ast_type == ast.ASTType.Rule:
            found: list[Atom] = []
            _atoms(s, found)
            rules.append(found)
    return rules


def read_constants(rules: list[list[Atom]], seeds: set[Position]) -> set[str]:
    """The constants a program reads at the carriers grown from ``seeds``."""
    carriers = set(seeds)
    changed = True
    while changed:
        changed = False
        for atoms in rules:
            carried = {n for a in atoms if a.name != "=" for p, k, n in _positions(a) if k == "var" and p in carriers}
            for a in atoms:
                if a.name == "=":
                    continue
                for p, k, n in _positions(a):
                    if k == "var" and n in carried and p not in carriers:
                        carriers.add(p)
                        changed = True
    found: set[str] = set()
    for atoms in rules:
        carried = set()
        for a in atoms:
            if a.name == "=":
                continue
            for p, k, n in _positions(a):
                if p in carriers:
                    (carried if k == "var" else found).add(n)
        for a in atoms:
            terms = [(k, n) for t in a.args for _, k, n in _leaves(t)] if a.name == "=" else []
            if any(k == "var" and n in carried for k, n in terms):
                found |= {n for k, n in terms if k == "const"}
    return found


def constants_at(rules: list[list[Atom]], position: Position) -> set[str]:
    return {n for atoms in rules for a in atoms if a.name != "=" for p, k, n in _positions(a)
            if p == position and k == "const"}


def reads_position(rules: list[list[Atom]], position: Position) -> set[str]:
    """Constants at ``position``, plus ``*`` when a rule reads it through a variable."""
    out = set()
    for atoms in rules:
        for a in atoms:
            if a.name != "=":
                out |= {n if k == "const" else "*" for p, k, n in _positions(a) if p == position}
    return out


def rule_files(edition: str) -> list:
    """The files the edition's entry file includes, itself left out (it holds no rules)."""
    return [asp_dir().parent / f for f in rulebook.load(edition).files][1:]


def catalogue_facts(c: cat.Catalogue) -> str:
    """The catalogue facts checker/infinity/facts.py emits for every common skill and state that
    can name another kind's id: skill needs and state flags."""
    lines = []
    for skill in c.all("skills"):
        for need in skill.get("needs", []):
            head, sep, arg = need.partition(":")
            if sep and head in ("special_skill", "weapon_trait"):
                lines.append(f"skill_needs({skill.id}, {head}({cat.atom_text(arg)})).")
    for state in c.all("states"):
        lines += [f"state_{flag}({state.id})." for flag in ("marker", "hidden", "null") if state.get(flag)]
    return "\n".join(lines)


@pytest.fixture(scope="module", params=editions())
def edition(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def program(edition) -> list[list[Atom]]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in rule_files(edition))
    return parse(text) + parse(catalogue_facts(cat.load(edition)))


def read_ids(edition: str, program: list[list[Atom]], kind: str) -> set[str]:
    """The ids of ``kind`` the rule base reads (see the module docstring)."""
    c = cat.load(edition)
    ids = set(c.entries[kind])
    if kind == "skills":
        assert "common_skill" in {a.name for atoms in program for a in atoms}
        return ids
    if kind == "turn":
        cited = {r.id for r in rulebook.load(edition).citations if r.edition == edition}
        return {e.id for e in c.all("turn") if e.get("rules") and set(e.get("rules")) <= cited}
    read = read_constants(program, SEEDS[kind]) & ids
    kinds_read = constants_at(program, ("weapon_kind", 2, (1,)))
    if kind == "weapons":
        read |= {w.id for w in c.all("weapons") if w.get("kind") in kinds_read}
    if kind == "traits":
        ammunition = read_ids(edition, program, "ammunition")
        template_types = reads_position(program, ("weapon_template", 3, (2,)))
        for trait in c.all("traits"):
            key, _, value = str(trait.get("encoded_as", "")).partition(":")
            if ((key == "kind" and value in kinds_read)
                    or (key == "template_type" and ({value, "*"} & template_types))
                    or (key == "ammunition" and value in ammunition)):
                read.add(trait.id)
    return read


STATUS_KINDS = [k for k in cat.KINDS if k not in cat.UNSTATUSED]


@pytest.mark.parametrize("kind", STATUS_KINDS)
def test_catalogue_claims_what_the_rule_base_reads(edition, program, kind):
    c = cat.load(edition)
    read = read_ids(edition, program, kind)
    claimed = {e.id for e in c.all(kind) if e.modelled in (YES, PARTIAL)}
    assert sorted(claimed - read) == [], f"{edition} {kind}: claimed modelled, read by no rule"
    assert sorted(read - claimed) == [], f"{edition} {kind}: read by a rule, claimed 'no'"


def test_the_issue_examples_have_their_statuses():
    """Issue 12's examples: Camouflage's bracketed MOD, Dodge (+X) and Martial Arts'
    MODs are encoded; Camouflage's Long Skill back to the Camouflaged State is too (issue
    27), Martial Arts misses effects; N3 Sensor is read by no rule."""
    n5 = cat.load("n5")
    assert n5.entries["special_skills"]["camouflage"].modelled == YES
    assert n5.entries["special_skills"]["mimetism"].modelled in (YES, PARTIAL)
    assert n5.entries["special_skills"]["dodge_mod"].modelled == YES
    assert n5.entries["special_skills"]["martial_arts"].modelled == PARTIAL
    assert cat.load("n3").entries["special_skills"]["sensor"].modelled == NO


def test_a_fully_modelled_skill_reads_the_value_it_takes(edition, program):
    """A typed value in a modelled skill's brackets is read by a rule (skill_param/3),
    so a position writing it never has it ignored."""
    read = constants_at(program, ("skill_param", 3, (1,)))
    takes = {e.id for e in cat.load(edition).all("special_skills")
             if e.modelled == YES and e.get("param") not in (False, "text")}
    assert takes - read == set()


def test_counts_of_special_skills_read(edition, program):
    """6 of the 56 N5 and 9 of the 44 N3 special skills are read by no rule."""
    c = cat.load(edition)
    unread = set(c.entries["special_skills"]) - read_ids(edition, program, "special_skills")
    assert (len(c.entries["special_skills"]), len(unread)) == {"n5": (56, 6), "n3": (44, 9)}[edition]


def test_carriers_grow_through_shared_variables_and_function_terms():
    rules = parse("""
        burns(T, S) :- hit(T), has_skill(T, S, _), sensitive(S, _).
        sensitive(ch_camouflage, reduced). sensitive(impersonation, disabled).
        lacks(T, S) :- trooper(T), skill_needs(S, special_skill(X)), not has_skill(T, X, _).
        skill_needs(berserk, special_skill(berserk)). skill_needs(move, bs_weapon).
        mod(T) :- skill_param(T, S, _), S = mimetism.
        other(a) :- unrelated(b, sixth_sense).
    """)
    found = read_constants(rules, SEEDS["special_skills"])
    assert found == {"ch_camouflage", "impersonation", "berserk", "mimetism"}


def test_weapons_of_a_kind_the_rules_never_name_are_not_read():
    rules = parse("unfit(S, W) :- skill_needs(S, bs_weapon), weapon_kind(W, _), not weapon_kind(W, bs).")
    assert constants_at(rules, ("weapon_kind", 2, (1,))) == {"bs"}
    assert reads_position(parse("t(G) :- weapon_template(W, _, Y), g(G, W, Y)."), ("weapon_template", 3, (2,))) == {"*"}


def test_every_ammunition_and_trait_of_a_weapon_has_an_entry(edition):
    c = cat.load(edition)
    ammunition, traits = set(), set()
    for w in c.all("weapons"):
        modes = w.get("modes", [])
        ammunition |= {cat.atom_text(a) for a in [*w.get("ammunition", []), *(a for m in modes for a in m.get("ammunition", []))]}
        traits |= {cat.trait_id(t) for t in [*w.get("traits", []), *(t for m in modes for t in m.get("traits", []))]}
    traits |= {cat.atom_text(n.partition(":")[2]) for s in c.all("skills") for n in s.get("needs", [])
               if n.startswith("weapon_trait:")}
    assert sorted(ammunition ^ set(c.entries["ammunition"])) == []
    assert sorted(traits ^ set(c.entries["traits"])) == []


def test_a_trait_modelled_through_a_weapon_value_holds_for_every_weapon_with_it(edition):
    """``encoded_as`` on a trait that is ``yes``: every weapon with the trait has that
    kind, template type or ammunition, so the rule base reads it for each of them."""
    c = cat.load(edition)
    wrong = []
    for trait in c.all("traits"):
        key, _, value = str(trait.get("encoded_as", "")).partition(":")
        if not key or trait.modelled != YES:
            continue
        for w in c.all("weapons"):
            if trait in c.traits_of(w):
                has = {"kind": [w.get("kind")], "template_type": [w.get("template_type")],
                       "ammunition": [a.id for a in c.ammunition_of(w)]}[key]
                if value not in has:
                    wrong.append(f"{trait.id}: {w.id} {key} {has}")
    assert wrong == []


@pytest.mark.parametrize("row, words", [
    ({"modelled": "maybe"}, "'modelled' must be one of yes, partial, no"),
    ({}, "'modelled' must be one of"),
    ({"modelled": "partial"}, "needs 'missing'"),
    ({"modelled": "partial", "missing": "  "}, "needs 'missing'"),
    ({"modelled": "yes", "missing": "x"}, "takes no 'missing'"),
])
def test_a_bad_status_is_a_rule_base_error(row, words):
    with pytest.raises(cat.RuleBaseError, match=words):
        cat._entries("x.toml", "skills", [{"id": "move", "name": "Move", "source": "s", **row}])


def test_profiles_need_no_status():
    entries, _ = cat._entries("x.toml", "profiles", [{"id": "fus", "name": "Fusilier", "source": "s"}])
    assert entries["fus"].modelled is None


# ---- The Not modelled section of a verdict ------------------------------------------------

UNMODELLED = """edition n5
active nomads
trooper ghost nomads { BS 12; skills: G: Jumper; weapons: Combi Rifle; state: Camouflaged }
trooper fus panoceania { BS 12; skills: Mimetism (-3); weapons: Combi Rifle, Knife; equipment: MediKit }
lof fus <-> ghost
order ghost: BS Attack (Combi Rifle) -> fus
"""
MODELLED = """edition n5
active nomads
trooper a nomads { BS 12; weapons: Combi Rifle }
trooper b panoceania { BS 11; weapons: Combi Rifle }
lof a <-> b
order a: BS Attack (Combi Rifle) -> b
"""


def _items(report) -> set[tuple]:
    return {(i.kind, i.id, i.status, i.troopers, i.weapons) for i in report.not_modelled}


def test_items_in_play_that_are_not_fully_modelled():
    """G: Jumper is read by no rule, Mimetism only for BS Attack and Discover, the
    Knife's Silent trait by none, MediKit by none; the Camouflaged state, the weapons,
    their ammunition, Suppressive Fire and the Knife's CC trait (its kind) are modelled."""
    expected = {
        ("special_skills", "g_jumper", NO, ("ghost",), ()),
        ("special_skills", "mimetism", PARTIAL, ("fus",), ()),
        ("weapons", "medikit", NO, ("fus",), ()),
        ("traits", "non_lethal", NO, ("fus",), ("medikit",)),
        ("traits", "silent", NO, ("fus",), ("knife",)),
    }
    analysis = _analyse(UNMODELLED)
    for report in (analysis.aros(), analysis.declarations(), analysis.check()):
        assert _items(report) == expected
    first = analysis.check().not_modelled[0]
    assert (first.kind, first.name, first.source) == ("special_skills", "G: Jumper", "seed 002")
    assert first.missing == cat.load("n5").entries["special_skills"]["g_jumper"].missing


def test_declared_skills_ammunition_and_modes_are_in_play():
    """A weapon with firing modes and the trait of one of its modes; the declared Shock
    Mode is the weapon's; the declared CC Attack is fully modelled."""
    text = """edition n5
active nomads
trooper a nomads { CC 15; weapons: MULTI Rifle, Knife }
trooper b panoceania { CC 13; weapons: Pistol }
contact a b
order a: CC Attack (Knife) -> b
aro b: BS Attack (Pistol, N) -> a
"""
    assert _items(_analyse(text).check()) == {
        ("weapons", "multi_rifle", PARTIAL, ("a",), ()),
        ("traits", "anti_materiel", NO, ("a",), ("multi_rifle",)),
        ("traits", "silent", NO, ("a",), ("knife",)),
    }


def test_a_trait_read_through_a_weapon_value_is_listed_only_for_weapons_without_it():
    """N3 CC is partial: a Pistol (kind bs) with it is listed, the Knife (kind cc) is not."""
    text = """edition n3
active nomads
trooper a nomads { weapons: Pistol }
trooper b panoceania { weapons: Knife }
order a: Move
"""
    cc = next(i for i in _analyse(text).aros().not_modelled if i.id == "cc")
    assert (cc.status, cc.troopers, cc.weapons, cc.weapon_names) == (PARTIAL, ("a",), ("pistol",), ("Pistol",))


def test_nothing_unmodelled_in_play_renders_nothing_new():
    analysis = _analyse(MODELLED)
    for report, text in ((analysis.aros(), render.aros_text), (analysis.declarations(), render.declarations_text),
                         (analysis.check(), render.check_text)):
        assert report.not_modelled == ()
        assert json.loads(to_json(report.to_dict()))["not_modelled"] == []
        assert "Not modelled" not in text(report)


def test_the_section_closes_the_text_of_every_verdict():
    analysis = _analyse(UNMODELLED)
    section = [
        "Not modelled (the rule base does not fully encode these: check them by hand):",
        "  special skill G: Jumper: not modelled; ghost",
        "    missing: " + cat.load("n5").entries["special_skills"]["g_jumper"].missing,
        "    source: seed 002",
        "  special skill Mimetism: partly modelled; fus",
    ]
    for text in (render.aros_text(analysis.aros()), render.declarations_text(analysis.declarations()),
                 render.check_text(analysis.check())):
        lines = text.splitlines()
        start = lines.index(section[0])
        assert lines[start:start + len(section)] == section
        assert "  equipment MediKit: not modelled; fus" in lines[start:]
        assert "  trait Silent: not modelled; fus (with Knife)" in lines[start:]
        assert not any(line and not line.startswith(" ") for line in lines[start + 1:])  # nothing after it


def test_json_lists_items_by_id():
    item = json.loads(to_json(_analyse(UNMODELLED).aros().to_dict()))["not_modelled"][-1]
    assert item == {
        "kind": "traits", "id": "silent", "name": "Silent", "status": "no", "missing": "no rule reads it",
        "source": cat.load("n5").entries["traits"]["silent"].source, "troopers": ["fus"],
        "weapons": ["knife"], "weapon_names": ["Knife"], "equipment": False,
    }


@pytest.mark.parametrize("command", ["aros", "declarations", "check"])
def test_strict_exits_1_when_something_in_play_is_not_modelled(command, write):
    unmodelled, modelled = write(UNMODELLED, "u.pos"), write(MODELLED, "m.pos")
    assert _run(command, unmodelled).exit_code == EXIT_OK
    strict = _run(command, "--strict", unmodelled)
    assert strict.exit_code == EXIT_ILLEGAL
    assert "Not modelled" in strict.stdout
    assert _run(command, "--strict", modelled).exit_code == EXIT_OK
    assert _run(command, "--strict", "--format", "json", unmodelled).exit_code == EXIT_ILLEGAL
    assert "--strict" in _run(command, "--help").stdout


def _analyse(text: str):
    from checker.infinity import analysis

    return analysis.analyse(text)


def _run(*args):
    from click.testing import CliRunner

    from checker.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_declarations_without_an_order_still_list_what_is_not_modelled():
    text = render.declarations_text(_analyse(UNMODELLED.replace("order ghost: BS Attack (Combi Rifle) -> fus\n", "")).declarations())
    lines = text.splitlines()
    assert lines[0] == ("Edition N5: no activated trooper. Add 'order <trooper>' "
                        "(a 'deploy' line is judged by 'ruling check').")
    # the Knife's recalled N5 chart comes first, then what is not fully modelled
    assert lines[2] == "Unverified values (no stored source confirms them: check them against your rulebook):"
    assert "Not modelled (the rule base does not fully encode these: check them by hand):" in lines
    assert "  special skill G: Jumper: not modelled; ghost" in lines


def test_trait_and_ammunition_ids_are_the_ones_the_facts_carry():
    """``trait_id`` and ``atom_text`` name an entry as checker/infinity/facts.py names it in
    ``weapon_trait/2`` and ``weapon_ammo/2``, so the statuses above are about those atoms."""
    from checker.infinity import analysis

    text = """edition n5
active nomads
trooper a nomads { weapons: Light Riotstopper, Panzerfaust, Smoke Grenades }
trooper b panoceania { weapons: Stun Pistol }
"""
    _, c, symbols = analysis.load(text)
    facts = {(s.name, s.arguments[0].name, s.arguments[1].name) for s in symbols if s.name in ("weapon_trait", "weapon_ammo")}
    expected = set()
    for w in ("light_riotstopper", "panzerfaust", "smoke_grenades", "stun_pistol"):
        entry = c.entries["weapons"][w]
        expected |= {("weapon_trait", w, cat.trait_id(t)) for t in entry.get("traits")}
        expected |= {("weapon_ammo", w, cat.atom_text(a)) for a in entry.get("ammunition")}
    assert facts == expected
    assert ("weapon_trait", "light_riotstopper", "state__imm_a") in facts
    assert {t for _, _, t in facts} <= set(c.entries["traits"]) | set(c.entries["ammunition"])
