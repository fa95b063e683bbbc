"""What the rule base does not (fully) model, among what a position puts in play, and
the catalogue as data a person can read without opening its TOML files.

Each catalogue entry says what the rule base does with it (``modelled``: yes, partial or
no, FORMAT.md); ``tests/test_modelled.py`` checks that against the rule files. A verdict
lists every item in play that is not ``yes``, so a player knows which part of the
answer to check by hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.catalogue import (
    KINDS,
    STATUSES,
    UNSTATUSED,
    YES,
    Catalogue,
    Entry,
    kind_named,
)
from .game import Game, SkillUse

# The kinds in the order a verdict lists them.
LIEUTENANT = "lieutenant"  # the special skill a written 'lieutenant' gives
KIND_ORDER = ("skills", "special_skills", "characteristics", "troop_types", "fireteams", "states", "weapons",
              "ammunition", "traits")


@dataclass(frozen=True)
class NotModelled:
    """One catalogue entry in play that the rule base does not (fully) model."""

    kind: str  # the catalogue kind: skills, special_skills, states, weapons, ammunition...
    id: str
    name: str
    status: str  # partial or no
    missing: str | None  # what is not encoded
    source: str
    troopers: tuple[str, ...]  # the troopers that have it (or declare it), in position order
    weapons: tuple[str, ...] = ()  # ammunition and traits: the ids of the weapons in play that have it
    weapon_names: tuple[str, ...] = ()  # the same weapons' names, in the same order
    equipment: bool = False  # a weapons entry of kind equipment


RETREAT = "retreat"  # the Retreat! State's catalogue id


def in_play(game: Game, catalogue: Catalogue, every_trait: bool = False,
            granted: tuple[tuple[str, str], ...] = ()) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every catalogue item in play in ``game``, as (kind, id) -> (the troopers that have
    or declare it, in position order; the weapons in play that give it): the troopers'
    special skills (a written ``lieutenant`` included, and the ``granted`` (trooper,
    special skill) pairs a rule gives, MetaChemistry's result say), characteristics, troop type, states, weapons and
    equipment, the common skills, weapons and ammunition the Order and AROs declare, and
    the ammunition and traits of every weapon carried or declared (a trait the rule base
    reads through another of the weapon's values, ``encoded_as``, only with ``every_trait``)."""
    holders: dict[tuple[str, str], dict[str, None]] = {}
    via: dict[tuple[str, str], dict[str, None]] = {}

    def add(kind: str, entry_id: str, trooper: str, weapon: str | None = None) -> None:
        holders.setdefault((kind, entry_id), {})[trooper] = None
        if weapon is not None:
            via.setdefault((kind, entry_id), {})[weapon] = None

    armed: dict[tuple[str, str], None] = {}
    # an army in the Retreat! situation (`retreat SIDE`, or the active army's count from
    # `points SIDE N`, asp/infinity/core/retreat.lp): the rule base may put each of its
    # troopers in the Retreat! State (asp/infinity/n5/turn.lp), so the state is in play
    retreating = {f.subject for f in game.army if f.kind == "retreat" or f.kind == "army_points" and f.own is None
                  and f.subject == game.active_side} if game.army else set()
    for t in game.troopers:
        if t.side in retreating and RETREAT in catalogue.entries["states"]:
            add("states", RETREAT, t.id)
        for held in t.skills:
            add("special_skills", held.id, t.id)
        if t.lieutenant and LIEUTENANT in catalogue.entries["special_skills"]:
            add("special_skills", LIEUTENANT, t.id)
        for c in t.characteristics:
            add("characteristics", c, t.id)
        if t.troop_type is not None:
            add("troop_types", t.troop_type, t.id)
        for state in t.states:
            add("states", state, t.id)
        for w in (*t.weapons, *t.equipment):
            armed[(t.id, w)] = None
    for team in game.fireteams:
        for member in team.members:
            add("fireteams", team.type, member)
    for trooper, skill in granted:
        if skill in catalogue.entries["special_skills"]:
            add("special_skills", skill, trooper)
    uses: list[tuple[str, SkillUse]] = [(o.trooper, u) for o in game.orders for u in o.skills]
    uses += [(a.trooper, a.use) for a in game.aros]
    for trooper, use in uses:
        add("skills", use.skill, trooper)
        if use.weapon:
            armed[(trooper, use.weapon)] = None
            if use.ammunition is not None and use.ammunition in catalogue.entries["ammunition"]:
                add("ammunition", use.ammunition, trooper, use.weapon)
    gives: dict[str, list[tuple[str, str]]] = {}  # a weapon's ammunition and traits in play
    for trooper, weapon_id in armed:
        add("weapons", weapon_id, trooper)
        given = gives.get(weapon_id)
        if given is None:
            weapon = catalogue.entries["weapons"][weapon_id]
            given = gives[weapon_id] = [("ammunition", ammo.id) for ammo in catalogue.ammunition_of(weapon)]
            given += [("traits", trait.id) for trait in catalogue.traits_of(weapon)
                      if every_trait or not _encoded_by(catalogue, trait, weapon)]
        for kind, entry_id in given:
            add(kind, entry_id, trooper, weapon_id)
    order = {t.id: i for i, t in enumerate(game.troopers)}
    return {key: (tuple(sorted(troopers, key=lambda t: order.get(t, len(order)))), tuple(via.get(key, {})))
            for key, troopers in holders.items()}


def by_hand(game: Game, catalogue: Catalogue, granted: tuple[tuple[str, str], ...] = ()
            ) -> tuple[tuple[NotModelled, ...], tuple[NotModelled, ...]]:
    """What a verdict asks the player to check by hand among the items in play in
    ``game`` (see :func:`in_play`): those whose status is not yes, and those the rule
    base models (status yes) from values no stored source confirms (their ``source``
    says ``unverified``: a weapon chart's values recalled, say)."""
    found = in_play(game, catalogue, granted=granted)
    return (_items(found, catalogue, lambda entry: entry.modelled != YES),
            _items(found, catalogue, lambda entry: entry.modelled == YES and is_unverified(entry)))


UNVERIFIED = "unverified"  # how a catalogue source says that no stored source confirms it


def is_unverified(entry: Entry) -> bool:
    """The entry's values are confirmed by no stored source (its source says so)."""
    return entry.source.lower().startswith(UNVERIFIED)


def _items(found: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]], catalogue: Catalogue,
           keep) -> tuple[NotModelled, ...]:
    items = []
    for (kind, entry_id), (troopers, via) in found.items():
        entry = catalogue.entries[kind][entry_id]
        if not keep(entry):
            continue
        weapons = sorted((catalogue.entries["weapons"][w] for w in via), key=lambda w: w.name.casefold())
        items.append(NotModelled(
            kind, entry.id, entry.name, str(entry.modelled), entry.missing, entry.source, troopers,
            tuple(w.id for w in weapons), tuple(w.name for w in weapons),
            kind == "weapons" and entry.get("kind") == "equipment",
        ))
    return tuple(sorted(items, key=lambda i: (KIND_ORDER.index(i.kind), i.name.casefold(), i.id)))


def _encoded_by(catalogue: Catalogue, trait: Entry, weapon: Entry) -> bool:
    """The trait is read through this weapon's value its ``encoded_as`` names (``kind:cc``:
    the weapon is a CC weapon), so it is modelled for this weapon whatever its status
    says of the others (a Pistol with the N3 CC trait is of kind bs)."""
    key, _, value = str(trait.get("encoded_as", "")).partition(":")
    if key == "ammunition":
        return value in {a.id for a in catalogue.ammunition_of(weapon)}
    return bool(key) and weapon.get(key) == value


def catalogue_listing(catalogue: Catalogue, kind: str | None = None, name: str | None = None) -> dict:
    """The catalogue as data: with no ``kind``, each kind with its number of entries per
    status; with a ``kind``, every entry of it with all its values; with a ``name``
    too, that one entry.

    Raises
    ------
    UnknownEntryError
        For an unknown kind or name, with the closest one as a hint.
    """
    edition = catalogue.edition
    if kind is None:
        kinds = []
        for stem in KINDS:
            entries = catalogue.all(stem)
            counts = Counter(e.modelled for e in entries)
            row: dict = {"kind": stem, "entries": len(entries)}
            if stem not in UNSTATUSED:
                row["modelled"] = {s: counts.get(s, 0) for s in STATUSES}
            kinds.append(row)
        return {"edition": edition, "kinds": kinds}
    stem = kind_named(kind)
    if name is None:
        return {"edition": edition, "kind": stem, "entries": [_values(e) for e in catalogue.all(stem)]}
    return {"edition": edition, "kind": stem, "entry": _values(catalogue.lookup(stem, name))}


def _values(entry: Entry) -> dict:
    """An entry's values, id, name, status and source first."""
    data = dict(entry.data)
    head = {k: data.pop(k) for k in ("id", "name", "aliases", "modelled", "missing", "source") if k in data}
    return {**head, **data}
