"""Check a parsed position against its edition's catalogue and build the :class:`Game`.

Unknown ids and names are :class:`PositionError` with the place they were written;
anything that is a breach of the game's rules is left to the rule base.
"""

from __future__ import annotations

from . import catalogue as cat
from .errors import Location, PositionError
from .game import Activation, Aro, Game, Relation, SkillHeld, SkillUse, TargetUse, Trooper
from .position import Named, Position, SkillDecl, TrooperDecl
from .resources import editions

ATTRIBUTES = ("cc", "bs", "ph", "wip", "arm", "bts", "w", "vita", "str", "s")
WEAPON_NEEDS = ("bs_weapon", "cc_weapon", "deployable")
LIST_KINDS = {  # notation list -> catalogue kind
    "skills": "special_skills",
    "weapons": "weapons",
    "equipment": "weapons",
    "states": "states",
    "characteristics": "characteristics",
}
AMMUNITION_ALIASES = {"normal": "n"}  # "Normal" ammunition is written N in the weapon charts
KIND_WORDS = {
    "special_skills": "special skill",
    "weapons": "weapon or piece of equipment",
    "states": "state",
    "characteristics": "characteristic",
    "skills": "skill",
    "profiles": "profile",
}


def resolve(position: Position) -> Game:
    """Resolve every name of ``position``; raise PositionError on the first unknown one."""
    return _Resolver(position).game()


class _Resolver:
    def __init__(self, position: Position):
        self.pos = position
        self.lines = position.text.splitlines()

    def error(self, message: str, named: Named | None) -> PositionError:
        line, column = (named.span.line, named.span.column) if named else (1, 1)
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return PositionError(message, Location(self.pos.file, line, column, source))

    def game(self) -> Game:
        pos = self.pos
        if pos.edition is None:
            raise self.error("the position does not say its edition: add 'edition n5' or 'edition n3'", None)
        if pos.edition.text not in editions():
            raise self.error(
                f"unknown edition {pos.edition.text!r}; known: {', '.join(editions())}", pos.edition
            )
        self.cat = cat.load(pos.edition.text)
        if pos.active is None:
            raise self.error("the position does not say which player is active: add 'active <side>'", None)
        troopers = self._troopers()
        self.ids = {t.id for t in troopers}
        sides = {t.side for t in troopers}
        if pos.active.text not in sides:
            raise self.error(
                f"no trooper is on the active side {pos.active.text!r}; sides here: "
                f"{', '.join(sorted(sides)) or 'none'}",
                pos.active,
            )
        return Game(
            edition=pos.edition.text,
            active_side=pos.active.text,
            troopers=troopers,
            relations=tuple(self._relation(r) for r in pos.relations),
            orders=tuple(
                Activation(self._id(o.trooper), tuple(self._use(s) for s in o.skills),
                           o.impetuous, o.coordinated, o.spearhead)
                for o in pos.orders
            ),
            aros=tuple(
                Aro(self._id(a.trooper), self._use(a.skill), a.step, a.trooper.span.line)
                for a in pos.aros
            ),
            dice=tuple((self._id(d.trooper), d.kind, self._dice(d)) for d in pos.dice),
        )

    def _dice(self, dice) -> tuple[int, ...]:
        for value, span in zip(dice.rolls, dice.values):
            if not 1 <= value <= 20:
                raise self.error(f"a die reads 1 to 20, not {value}", Named(str(value), span))
        return dice.rolls

    def _id(self, named: Named) -> str:
        if named.text not in self.ids:
            raise self.error(
                f"unknown trooper id {named.text!r}; troopers here: {', '.join(sorted(self.ids))}", named
            )
        return named.text

    def _find(self, kind: str, named: Named, text: str | None = None) -> cat.Entry:
        entry = self.cat.find(kind, text if text is not None else named.text)
        if entry is None:
            hint = self.cat.suggest(kind, text if text is not None else named.text)
            words = KIND_WORDS[kind]
            message = f"unknown {words} {named.text!r} in edition {self.cat.edition}"
            raise self.error(message + (f"; did you mean {hint!r}?" if hint else ""), named)
        return entry

    def _troopers(self) -> tuple[Trooper, ...]:
        seen: dict[str, Named] = {}
        result = []
        for decl in self.pos.troopers:
            if decl.id.text in seen:
                first = seen[decl.id.text].span.line
                raise self.error(f"trooper id {decl.id.text!r} is already used on line {first}", decl.id)
            seen[decl.id.text] = decl.id
            result.append(self._trooper(decl))
        return tuple(result)

    def _trooper(self, decl: TrooperDecl) -> Trooper:
        profile = self._find("profiles", decl.profile) if decl.profile else None
        base = profile.data if profile else {}
        attributes = {k: base[k] for k in ATTRIBUTES if k in base}
        mov = base.get("mov")
        for name, value in decl.attributes:
            key = name.text.lower()
            if key == "mov":
                mov = value
            elif "-" in value:
                raise self.error(f"{name.text} takes one number, not {value!r}", name)
            else:
                attributes[key] = int(value)
        if mov is not None:
            first, _, second = str(mov).partition("-")
            attributes["mov1"], attributes["mov2"] = int(first), int(second or 0)
        lists = self._lists(decl, base)
        if decl.wounds is not None and not {"w", "vita", "str"} & attributes.keys():
            raise self.error(
                f"'wounds {decl.wounds.text}' needs the W, VITA or STR the Wounds were lost from: "
                f"write it in {decl.id.text}'s details ('W 2; wounds 1')",
                decl.wounds,
            )
        return Trooper(
            id=decl.id.text,
            side=decl.side.text,
            profile=profile.id if profile else None,
            attributes=tuple(sorted(attributes.items())),
            troop_type=(decl.troop_type.text if decl.troop_type else base.get("type")),
            training=(decl.training.text.lower() if decl.training else base.get("training")),
            lieutenant=decl.lieutenant,
            group=decl.group,
            skills=tuple(lists["skills"]),
            weapons=tuple(lists["weapons"]),
            equipment=tuple(lists["equipment"]),
            characteristics=tuple(lists["characteristics"]),
            states=tuple(lists["states"]),
            wounds_before=int(decl.wounds.text) if decl.wounds is not None else None,
        )

    def _lists(self, decl: TrooperDecl, base) -> dict[str, list]:
        """Profile lists, each replaced by the position's list of that kind if written."""
        written = dict(decl.lists)
        result: dict[str, list] = {}
        for kind, catalogue_kind in LIST_KINDS.items():
            if kind in written:
                items = [(n, n.text, n.param) for n in written[kind]]
            else:
                items = [(decl.profile, *cat.split_param(text)) for text in base.get(kind, [])]
            result[kind] = [self._list_item(kind, catalogue_kind, *i) for i in items]
        return result

    def _list_item(self, kind: str, catalogue_kind: str, named: Named, text: str, param):
        if kind != "skills":
            return self._find(catalogue_kind, named, text).id
        entry = self.cat.find(catalogue_kind, text)
        name, level = (text, None) if entry else cat.split_level(text)
        entry = entry or self._find(catalogue_kind, named, name)
        levels = entry.get("levels", [])
        if level is not None and levels and _number(level) not in levels:
            raise self.error(f"{entry.name} has no level {level}; levels: {levels}", named)
        return SkillHeld(entry.id, _number(level) if level else None, _number(param) if param else None)

    def _relation(self, rel) -> Relation:
        subject, obj = self._id(rel.subject), self._id(rel.object)
        value = rel.value
        if rel.kind == "distance":
            value = str(round(float(rel.value) * 10))
        return Relation(rel.kind, subject, obj, rel.step, value)

    def _use(self, decl: SkillDecl) -> SkillUse:
        skill = self._find("skills", decl.name)
        takes_weapon = bool(set(skill.get("needs", [])) & set(WEAPON_NEEDS)) or any(
            n.startswith(("weapon_trait:", "template:")) for n in skill.get("needs", [])
        )
        weapon = ammunition = None
        args = list(decl.arguments)
        if args and not takes_weapon:
            raise self.error(f"{skill.name} takes no details in parentheses", args[0])
        if args:
            weapon_entry = self._find("weapons", args[0])
            weapon = weapon_entry.id
            if len(args) > 1:
                ammunition = self._ammunition(weapon_entry, args[1])
            if len(args) > 2:
                raise self.error("a skill takes at most a weapon and an ammunition or mode", args[2])
        targets = tuple(
            TargetUse(self._id(t.id), t.burst, tuple(self._id(c) for c in t.covered))
            for t in decl.targets
        )
        return SkillUse(skill.id, weapon, ammunition, targets)

    def _ammunition(self, weapon: cat.Entry, named: Named) -> str:
        choices = list(dict.fromkeys(
            list(weapon.get("ammunition", [])) + [m["name"] for m in weapon.get("modes", [])]
        ))
        wanted = AMMUNITION_ALIASES.get(cat.normalize(named.text), cat.normalize(named.text))
        for choice in choices:
            if cat.normalize(choice) == wanted:
                return cat.atom_text(choice)
        raise self.error(
            f"{weapon.name} has no ammunition or mode {named.text!r}; it has: {', '.join(choices)}",
            named,
        )


def _number(text: str | None):
    try:
        return int(text)
    except (TypeError, ValueError):
        return text
