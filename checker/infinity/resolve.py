"""Check a parsed position against its edition's catalogue and build the :class:`Game`.

Unknown ids and names, a number outside the range the rules give it
(``checker.infinity.position.RANGES``) and an id the rule base uses for a name of its own are
:class:`PositionError` with the place they were written; anything that is a breach of
the game's rules is left to the rule base.
"""

from __future__ import annotations

from ..engine import catalogue as cat
from ..engine.errors import Location, PositionError
from ..engine.gc_hold import gc_held
from . import deploy_resolve, editions, params, turn
from .game import (
    Activation,
    Aro,
    Delay,
    Fireteam,
    Game,
    Relation,
    SkillHeld,
    SkillUse,
    TargetUse,
    Trooper,
)
from .position import (
    RANGES,
    FireteamDecl,
    Named,
    OrderDecl,
    Position,
    Range,
    SkillDecl,
    Span,
    Target,
    TrooperDecl,
    lines_of,
)

ATTRIBUTES = ("cc", "bs", "ph", "wip", "arm", "bts", "w", "vita", "str", "s")
WEAPON_NEEDS = ("bs_weapon", "cc_weapon", "deployable")
TRAININGS = ("regular", "irregular")  # the characteristics that are a Training
LIST_KINDS = {  # notation list -> catalogue kind
    "skills": "special_skills",
    "weapons": "weapons",
    "equipment": "weapons",
    "states": "states",
    "characteristics": "characteristics",
}
AMMUNITION_ALIASES = {"normal": "n"}  # "Normal" ammunition is written N in the weapon charts
# The Automatic Skills whose declaration a rule reads, by edition (N5 Stealth and NCO:
# asp/infinity/n5/skills/stealth.lp, nco.lp): declaring any other is refused, not ignored.
DECLARATIONS_READ = {"n5": frozenset({"stealth", "nco"})}
# The editions whose rule base reads a Targetless weapon and Smoke Ammunition (N5:
# asp/infinity/n5/smoke_ammunition.lp): there a Targetless Attack names no target, and the
# 'smoke' lines say where its template lands and which LoF it crosses.
SMOKE_READ = frozenset({"n5"})
# The words of an order line that come before ``declares`` (grammar rule ``order``).
ORDER_WORDS = frozenset(("impetuous", "irregular", "lieutenant", "tactical", "from", "group", "coordinated",
                         "spearhead", "fireteam", "leader"))
KIND_WORDS = {
    "special_skills": "special skill",
    "weapons": "weapon or piece of equipment",
    "states": "state",
    "characteristics": "characteristic",
    "skills": "skill",
    "profiles": "profile",
    "troop_types": "troop type",
    "fireteams": "Fireteam type",
}
SHORT_LIST = 12  # a catalogue kind with at most this many entries names them all in an error


@gc_held()
def resolve(position: Position) -> Game:
    """Resolve every name of ``position``; raise PositionError on the first unknown one."""
    return _Resolver(position).game()


class _Resolver:
    def __init__(self, position: Position):
        self.pos = position
        self.lines = lines_of(position.text)
        self.items: dict[tuple[str, str, str | None], object] = {}  # _list_item's answers
        # each side by its key: sides compare as catalogue names do (case and spaces aside),
        # and a side is the spelling its first trooper writes
        self.sides: dict[str, str] = {}
        self.element_kinds: dict[str, str] = {}  # objectives and neutral elements by id (deploy_resolve)

    def error(self, message: str, named: Named | None, expected: tuple[str, ...] = ()) -> PositionError:
        line, column = (named.span.line, named.span.column) if named else (1, 1)
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return PositionError(message, Location(self.pos.file, line, column, source), expected)

    def number(self, key: str, named: Named, base: int = 0, detail: str = "") -> int:
        """The number ``named`` writes, if it lies in ``RANGES[key]`` (over ``base``, the
        value the range's margin is added to); a PositionError saying the range if not."""
        bound: Range = RANGES[key]
        high = base + bound.high if bound.over else None
        value = bound.read(named.text, high)
        if value is None:
            raise self.error(bound.out_of_range(named.text), named, (bound.expected(high, detail),))
        return value

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
        self.by_id = {t.id: t for t in troopers}
        self._controllers()
        sides = {t.side for t in troopers}
        active = self.sides.get(cat.normalize(pos.active.text), pos.active.text)
        if active not in sides:
            raise self.error(
                f"no trooper is on the active side {pos.active.text!r}; sides here: "
                f"{', '.join(sorted(sides)) or 'none'}",
                pos.active,
            )
        measured = None
        if pos.table is not None:  # relations measured from 'at' and 'terrain' (shapely: imported only then)
            from . import table_check

            measured = table_check.apply(pos, troopers, self.error)
            if measured is not None:
                pos = self.pos = measured.position
        self._brackets()
        elements = deploy_resolve.elements(self)
        relations = tuple(r for r in pos.relations if not deploy_resolve.touches_element(self, r))
        return Game(
            edition=self.cat.edition,
            active_side=active,
            troopers=troopers,
            relations=tuple(self._relation(r) for r in relations),
            orders=tuple(self._activation(o, troopers) for o in pos.orders),
            aros=tuple(
                Aro(self._id(a.trooper), self._use(a.skill), a.step, a.trooper.span.line)
                for a in pos.aros
            ),
            dice=tuple((self._id(d.trooper), d.kind, d.rolls) for d in pos.dice),
            discards=tuple((self._id(d.trooper), d.discards) for d in pos.dice if d.discards),
            deployments=self._deployments(),
            deploy_entries=tuple((self._id(d.trooper), d.entry.text) for d in pos.deployments if d.entry),
            deploy_places=self._deploy_places(),
            deploy_places_in=self._deploy_places_in(),
            elements=elements,
            element_contacts=tuple(deploy_resolve.element_contact(self, r) for r in pos.relations
                                   if deploy_resolve.touches_element(self, r)),
            dispersions=deploy_resolve.dispersions(self),
            delays=tuple(
                Delay(self._id(d.trooper), self._id(d.target) if d.target else None, d.trooper.span.line)
                for d in pos.delays
            ),
            fireteams=self._fireteams(troopers),
            army=turn.resolve_army(self, pos.army) if pos.army else (),
            table=measured.lines if measured else (),
            table_unverified=measured.unverified if measured else (),
        )

    def _fireteams(self, troopers: tuple[Trooper, ...]) -> tuple[Fireteam, ...]:
        """The ``fireteam`` statements: a type of the edition, troopers of one side, each
        in one Fireteam at most. What the game's rules say of its members (how many, in
        which states, of which Combat Group) is left to the rule base."""
        result: list[Fireteam] = []
        team_of: dict[str, FireteamDecl] = {}
        by_id = {t.id: t for t in troopers} if self.pos.fireteams else {}
        for decl in self.pos.fireteams:
            if decl.id.text in self.ids or any(f.id == decl.id.text for f in result):
                raise self.error(f"the name {decl.id.text!r} is already used by a trooper or a Fireteam", decl.id,
                                 ("a name of its own for the Fireteam",))
            members = []
            first = by_id[self._id(decl.members[0])]
            for named in decl.members:
                member = by_id[self._id(named)]
                if member.deployable:
                    raise self.error(f"{named.text!r} is a Deployable, not a trooper: it cannot be a Fireteam member",
                                     named, ("the ids of troopers",))
                if named.text in team_of:
                    other = team_of[named.text]
                    if other is decl:
                        raise self.error(f"{named.text!r} is listed twice in this Fireteam", named,
                                         ("another member",))
                    raise self.error(f"{named.text!r} is already a member of Fireteam {other.id.text!r} (line "
                                     f"{other.id.span.line}): a trooper belongs to one Fireteam at most", named,
                                     ("a trooper of no other Fireteam",))
                team_of[named.text] = decl
                if member.side != first.side:
                    raise self.error(f"{named.text!r} (side {member.side}) and {first.id!r} (side {first.side}) are "
                                     "on different sides: a Fireteam is one player's", named,
                                     (f"a trooper of side {first.side}",))
                members.append(member.id)
            kind = self._find("fireteams", decl.type)
            result.append(Fireteam(decl.id.text, kind.id, tuple(members), self._fireteam_level(decl, kind)))
        return tuple(result)

    def _fireteam_level(self, decl: FireteamDecl, kind: cat.Entry) -> int | None:
        """A Fireteam's written Level: one its type has (its catalogue ``levels``; N3 types
        have none), and at most its number of members, since the Level counts the members
        who belong to the same Unit."""
        if decl.level is None:
            return None
        levels = kind.get("levels", [])
        if not levels:
            raise self.error(f"an {self.cat.edition.upper()} Fireteam has no Level: its bonuses follow its number of "
                             "members", decl.level, (f"'fireteam {decl.id.text} {decl.type.text}: ...', with no 'level'",))
        top = min(max(levels), len(decl.members))
        text = decl.level.text
        value = int(text) if len(text) <= 3 else 0
        if value not in levels or value > top:
            shown = repr(text) if len(text) <= 12 else f"'{text[:9]}...'"
            expected = (f"a Fireteam Level from {min(levels)} to {top} (the Level counts its members who belong to "
                        f"the same Unit: at most its {len(decl.members)} members, and {max(levels)} at most)")
            raise self.error(f"a Fireteam Level {shown} is out of range", decl.level, (expected,))
        return value

    def _deployments(self) -> tuple[tuple[str, str], ...]:
        """The ``deploy`` statement: a deployment, never beside an Order or AROs."""
        pos = self.pos
        deploy_resolve.one_deployment(self)
        # an Airborne Deployment's landing is an Order, with AROs against the landing trooper
        landing = deploy_resolve.airborne_order(self)
        if not landing and pos.deployments and (pos.orders or pos.aros or pos.delays):
            other = (pos.orders[0].trooper if pos.orders else pos.aros[0].trooper if pos.aros
                     else pos.delays[0].trooper)
            raise self.error("a position states a deployment or an Order with its AROs, not both", other,
                             ("either a 'deploy' line or 'order' and 'aro' lines",))
        for d in pos.deployments:
            if d.zone.text == "off table" and (d.entry or d.places):
                named = d.entry or d.places[0]
                raise self.error("a trooper kept off the table enters nowhere and places nothing", named,
                                 ("'deploy T off table' alone, or an entry with a zone ('deploy T jump enemy half')",))
        return tuple((self._id(d.trooper), "_".join(d.zone.text.split())) for d in pos.deployments)

    def _deploy_places(self) -> tuple[tuple[str, str], ...]:
        """``deploy ml own half places m1``: each name a ``deployable`` of the deploying
        trooper's side, placed once; a position error at the first that is not."""
        placed: list[tuple[str, str]] = []
        for d in self.pos.deployments:
            trooper = self.by_id[self._id(d.trooper)]
            for named in d.places:
                item = self.by_id[self._id(named)]
                if not item.deployable:
                    raise self.error(f"{item.id!r} is not a Deployable: 'places' names 'deployable' lines", named,
                                     ("the id of a 'deployable' of the deploying trooper's side",))
                if item.side != trooper.side:
                    raise self.error(f"deployable {item.id!r} is on side {item.side}, not {trooper.side}: a trooper "
                                     "places its own Deployables", named, (f"a 'deployable' of side {trooper.side}",))
                if any(p == item.id for _, p in placed):
                    raise self.error(f"deployable {item.id!r} is placed twice", named,
                                     ("each Deployable named once",))
                placed.append((trooper.id, item.id))
        return tuple(placed)

    def _deploy_places_in(self) -> tuple[tuple[str, str, str], ...]:
        """``places m1 own zone``: the zone a placed Deployable stands in, where written; on
        the table (a zone, never ``off table``)."""
        out: list[tuple[str, str, str]] = []
        for d in self.pos.deployments:
            for named, zone in zip(d.places, d.place_zones):
                if zone is None:
                    continue
                if zone.text == "off table":
                    raise self.error("a placed Deployable stands on the table", zone,
                                     ("'own zone', 'own half', 'enemy half' or 'enemy zone'",))
                out.append((self._id(d.trooper), self._id(named), "_".join(zone.text.split())))
        return tuple(out)

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
            # a short list is given whole: a troop type is one of a handful
            known = [e.name for e in self.cat.all(kind)]
            expected = (f"one of {', '.join(known)}",) if len(known) <= SHORT_LIST else ()
            raise self.error(message + (f"; did you mean {hint!r}?" if hint else ""), named, expected)
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

    def _brackets(self) -> None:
        """A template's brackets list the troopers it affects besides its main target
        (seed 003 pp.36-37; core/templates.lp, under/2): not the main target, which it is
        placed on, nor its attacker (or Mine), which its own template does not affect
        (seed 003 p.37), nor one trooper twice; a position error at the first such name."""
        placed = [(o.trooper, t) for o in self.pos.orders for s in o.skills for t in s.targets]
        placed += [(a.trooper, t) for a in self.pos.aros for t in a.skill.targets]
        placed += [(r.subject, Target(r.object, covered=r.covered)) for r in self.pos.relations if r.kind == "trigger"]
        for attacker, target in placed:
            seen: dict[str, Named] = {}
            for named in target.covered:
                wrong = None
                if named.text == attacker.text:
                    wrong = "places this template, and its own template does not affect it (seed 003 p.37)"
                elif named.text == target.id.text:
                    wrong = "is the template's main target: the brackets list the troopers it affects besides"
                elif named.text in seen:
                    wrong = (f"is listed twice in the brackets (first at column {seen[named.text].span.column}): "
                             "a template affects a trooper once")
                if wrong:
                    expected = (f"each trooper the template on {target.id.text} affects besides, once, "
                                f"without {target.id.text} or {attacker.text}")
                    raise self.error(f"{named.text!r} {wrong}", named, (expected,))
                seen[named.text] = named

    def _trooper(self, decl: TrooperDecl) -> Trooper:
        if decl.deployable is not None:
            self._check_deployable(decl)
        profile = self._find("profiles", decl.profile) if decl.profile else None
        base = profile.data if profile else {}
        attributes = {k: base[k] for k in ATTRIBUTES if k in base}
        if "mov" in base:
            first, _, second = str(base["mov"]).partition("-")
            attributes["mov1"], attributes["mov2"] = int(first), int(second or 0)
        for name, value in decl.attributes:
            key = name.text.lower()
            if key == "mov":
                first, _, second = value.text.partition("-")
                at = value.span.column + len(first) + 1
                attributes["mov1"] = self.number("MOV", Named(first, value.span))
                attributes["mov2"] = self.number("MOV", Named(second, Span(value.span.line, at))) if second else 0
            elif "-" in value.text:
                raise self.error(f"{name.text} takes one number, not {value.text!r}", name)
            else:
                bound = "deployable S" if key == "s" and decl.deployable is not None else name.text.upper()
                attributes[key] = self.number(bound, value)
        lists = self._lists(decl, base)
        life = [attributes[k] for k in ("w", "vita", "str") if k in attributes]
        if decl.wounds is not None and not life:
            raise self.error(
                f"'wounds {decl.wounds.text}' needs the W, VITA or STR the Wounds were lost from: "
                f"write it in {decl.id.text}'s details ('W 2; wounds 1')",
                decl.wounds,
            )
        if decl.species is not None:
            deploy_resolve.species_read(self, decl.species)
        return Trooper(
            id=decl.id.text,
            side=self.sides.setdefault(cat.normalize(decl.side.text), decl.side.text),
            profile=profile.id if profile else None,
            attributes=tuple(sorted(attributes.items())),
            troop_type=self._troop_type(decl, base),
            training=self._training(decl, base, lists["characteristics"]),
            lieutenant=decl.lieutenant,
            group=self.number("group", decl.group) if decl.group else None,
            skills=tuple(lists["skills"]),
            weapons=tuple(lists["weapons"]),
            equipment=tuple(lists["equipment"]),
            characteristics=tuple(lists["characteristics"]),
            states=tuple(lists["states"]),
            wounds_before=(self.number("wounds", decl.wounds, max(life), f"{max(life)}: its W, VITA or STR, "
                                       f"+ {RANGES['wounds'].high}: a Dead trooper may show more")
                           if decl.wounds is not None else None),
            deployable=decl.deployable is not None,
            points=self.number("points", decl.points) if decl.points is not None else None,
            species=decl.species.text.lower() if decl.species is not None else None,
            controller=decl.controller.text if decl.controller else None,
        )

    def _controllers(self) -> None:
        """``controller NAME`` in a Peripheral's block names its Controller (N5 Peripheral,
        seed 002): a trooper of the position, of its side, other than itself; the trooper
        writing it must have the Peripheral Special Skill. A position error at the name
        otherwise."""
        for decl in self.pos.troopers:
            named = decl.controller
            if named is None:
                continue
            me = self.by_id[decl.id.text]
            boss = self.by_id[self._id(named)]
            expected = (f"the id of the trooper of side {me.side} whose Peripheral {me.id} is",)
            if boss.id == me.id:
                raise self.error(f"{me.id} is not its own Controller", named, expected)
            if boss.side != me.side:
                raise self.error(f"{me.id}'s Controller {boss.id} is on side {boss.side}, not {me.side}",
                                 named, expected)
            if not any(s.id == "peripheral" for s in me.skills):
                raise self.error(f"'controller {named.text}': {me.id} has no Peripheral Special Skill, and only a "
                                 f"Peripheral has a Controller", named,
                                 ("'skills: Peripheral (Servant)' (or Control) in its block",))

    def _check_deployable(self, decl: TrooperDecl) -> None:
        """A placed Deployable is a Game Element with a profile (ARM, BTS, STR, S), its
        weapon or equipment and its states; it has no troop details: a position error at
        the first one written."""
        written = [(n, what) for n, what in ((decl.troop_type, "a Troop Type"), (decl.training, "a Training"),
                                              (decl.group, "a Combat Group"), (decl.controller, "a Controller"))
                   if n is not None]
        written += [(items[0], f"{kind} ({items[0].text})") for kind, items in decl.lists
                    if kind in ("skills", "characteristics") and items]
        if decl.lieutenant:
            written.append((decl.id, "the Lieutenant"))
        if written:
            named, what = min(written, key=lambda w: (w[0].span.line, w[0].span.column))
            raise self.error(f"deployable {decl.id.text!r} is not a trooper: it has no {what}", named,
                             ("its ARM, BTS, STR and S, its weapons or equipment and its states",))

    def _troop_type(self, decl: TrooperDecl, base) -> str | None:
        """The catalogue id of the trooper's ``type`` line, else of its profile's type."""
        if decl.troop_type:
            return self._find("troop_types", decl.troop_type).id
        written = base.get("type")
        return self._find("troop_types", Named(written, (decl.profile or decl.id).span)).id if written else None

    def _training(self, decl: TrooperDecl, base, characteristics: list[str]) -> str | None:
        """The trooper's ``training`` line, else its profile's; a PositionError when the line
        and a Training characteristic of its list (``characteristics: Irregular``, which
        the rule base reads as its Training: core/order_pool.lp), or two of them, disagree."""
        listed = [c for c in characteristics if c in TRAININGS]
        if len(listed) > 1:
            raise self.error(f"{decl.id.text} has one Training, not both Regular and Irregular", decl.id,
                             ("one of the characteristics Regular and Irregular",))
        line = decl.training
        if line and listed and line.text.lower() != listed[0]:
            raise self.error(f"'training {line.text}' disagrees with {decl.id.text}'s characteristic "
                             f"{listed[0].capitalize()}", line, (f"training {listed[0]}",))
        return line.text.lower() if line else base.get("training")

    def _lists(self, decl: TrooperDecl, base) -> dict[str, list]:
        """Profile lists, each replaced by the position's list of that kind if written."""
        written = dict(decl.lists)
        result: dict[str, list] = {}
        for kind, catalogue_kind in LIST_KINDS.items():
            if kind in written:
                items = [(n, n.text, n.param) for n in written[kind]]
            else:
                # a profile's own list: errors point at the profile name
                items = [(decl.profile or decl.id, *cat.split_param(text)) for text in base.get(kind, [])]
            result[kind] = [self._list_item(kind, catalogue_kind, *i) for i in items]
        return result

    def _list_item(self, kind: str, catalogue_kind: str, named: Named, text: str, param):
        """A list item's catalogue id (a special skill: a SkillHeld), the same for every
        trooper writing it (kept by its text: ``named`` only places an error)."""
        key = (kind, text, param)
        found = self.items.get(key)
        if found is None:
            found = self.items[key] = self._new_list_item(kind, catalogue_kind, named, text, param)
        return found

    def _new_list_item(self, kind: str, catalogue_kind: str, named: Named, text: str, param):
        if kind != "skills":
            return self._find(catalogue_kind, named, text).id
        entry = self.cat.find(catalogue_kind, text)
        name, level = (text, None) if entry else cat.split_level(text)
        entry = entry or self._find(catalogue_kind, named, name)
        levels = entry.get("levels", [])
        number: int | str | None = level
        if level is not None and levels:
            number = level if level == "X" else RANGES["level"].read(level)
            if number not in levels:
                raise self.error(f"{entry.name} has no level {level}; levels: {levels}", named)
        elif level not in (None, "X"):
            number = self.number("level", Named(level, named.span))
        return SkillHeld(entry.id, number, self._param(entry, param, named) if param else None)

    def _param(self, entry: cat.Entry, text: str, named: Named) -> params.Value | None:
        """A skill's parameter, read by the type its catalogue entry gives (checker/infinity/params.py)."""
        at = Named(text, named.param_span or named.span)
        if any(c.isdigit() and not c.isascii() for c in text):
            raise self.error(f"{text!r} writes a number with digits other than 0-9", at,
                             (RANGES["param"].expected() + ", in the digits 0-9",))
        try:
            return params.read(entry, text, self.cat)
        except params.ParamError as exc:
            raise self.error(str(exc), at, (exc.expected,)) from None

    def _activation(self, o: OrderDecl, troopers: tuple[Trooper, ...]) -> Activation:
        trooper = self._id(o.trooper)
        me = next(t for t in troopers if t.id == trooper)
        pool = self.number("group", o.pool) if o.pool else None
        if pool is not None and me.group is None:
            raise self.error(f"an Order from the pool of Combat Group {pool}: write {trooper}'s own Combat Group "
                             f"('group N' in its block) to check it", o.pool,
                             (f"'group N' in the block of trooper {trooper}",))
        # a trooper written `began T isolated` is Irregular for its Isolated State (its edition's
        # states/isolated.lp), whatever its army's Lieutenant
        began = {self._id(d.subject) for d in self.pos.army if d.kind == "began_isolated"}
        if o.kind == "irregular" and "irregular" not in (me.training, *me.characteristics) and not any(
                t.lieutenant and t.side == me.side for t in troopers) and trooper not in began:
            raise self.error(f"an Irregular Order by {trooper}, whose Training is not Irregular, is legal only in "
                             f"Loss of Lieutenant: write its army's Lieutenant (with its Null or Isolated state, "
                             f"if it has one) to check it", o.trooper,
                             (f"a trooper of side {me.side} with 'lieutenant' in its block",))
        return Activation(trooper, tuple(self._use(s) for s in o.skills), o.impetuous, o.coordinated,
                          o.spearhead, o.kind, pool, o.fireteam, o.leader, self._declares(o.declares, me))

    def _declares(self, names: tuple[Named, ...], me: Trooper) -> tuple[str, ...]:
        """The catalogue ids of the Automatic Skills and Equipment an ``order`` line
        declares (``declares Stealth``): special skills (a level may be written) or pieces
        of equipment of the edition, each one the trooper has, each named once."""
        held = {s.id for s in me.skills} | set(me.weapons) | set(me.equipment)
        found: list[str] = []
        shown: list[str] = []
        for named in names:
            entry = self.cat.find("special_skills", named.text) or self.cat.find(
                "special_skills", cat.split_level(named.text)[0])
            if entry is None:
                entry = self.cat.find("weapons", named.text)
                if entry is not None and entry.get("kind") != "equipment":
                    raise self.error(f"{entry.name} is a weapon: an Order declares Automatic Skills and "
                                     "Equipment only", named, ("a special skill or a piece of equipment",))
            if entry is None:
                hint = self.cat.suggest("special_skills", named.text) or self.cat.suggest("weapons", named.text)
                late = set(named.text.lower().split()) & ORDER_WORDS  # `declares Stealth coordinated:`
                where = tuple(f"'{w}' before 'declares': 'order camo coordinated declares Stealth: Move'"
                              for w in sorted(late)[:1])
                raise self.error(f"unknown special skill or piece of equipment {named.text!r} in edition "
                                 f"{self.cat.edition}" + (f"; did you mean {hint!r}?" if hint else ""), named, where)
            if entry.id not in held:
                raise self.error(f"{me.id} does not have {entry.name}: an Order declares only its trooper's "
                                 "own Automatic Skills and Equipment", named,
                                 (f"a special skill or piece of equipment of {me.id}",))
            if entry.id in found:
                raise self.error(f"{entry.name} is declared twice", named, ("each skill named once",))
            found.append(entry.id)
            shown.append(entry.name)
        read = DECLARATIONS_READ.get(self.cat.edition, frozenset())
        for named, skill, name in zip(names, found, shown, strict=True):
            if skill not in read:
                raise self.error(f"no rule reads a declared {name} in edition {self.cat.edition}: "
                                 "only a Marker's declared Stealth or NCO is encoded (N5)", named,
                                 (f"a declaration the rules read ({', '.join(sorted(read)) or 'none'})",))
        return tuple(found)

    def _relation(self, rel) -> Relation:
        subject, obj = self._id(rel.subject), self._id(rel.object)
        if rel.kind == "trigger":
            return self._trigger(rel)
        if rel.kind in ("smoke_at", "smoke_across"):
            return self._smoke(rel)
        value = rel.value.text if rel.value else None
        if rel.kind == "distance" and rel.value:
            value = str(self._tenths(rel.value))
        return Relation(rel.kind, subject, obj, rel.step, value)

    def _trigger(self, rel) -> Relation:
        """``trigger mine fus [alg] from dodge``: a placed Mine (a Deployable carrying a
        Deployable Direct Template Weapon), an enemy trooper acting inside its Trigger Area,
        the troopers its template also affects and, with ``from dodge``, the trooper's own
        Dodge ARO bringing it there; a position error at the first name that is not so."""
        mine, trooper = self.by_id[rel.subject.text], self.by_id[rel.object.text]
        if not mine.deployable:
            raise self.error(f"{mine.id!r} is not a placed Deployable: 'trigger' names a Mine first", rel.subject,
                             ("the id of a 'deployable' carrying a Mine ('weapons: AP Mine')",))
        weapons = self.cat.entries["weapons"]
        if not any(weapons[w].get("kind") == "deployable" and weapons[w].get("template_type") == "direct"
                   for w in mine.weapons if w in weapons):
            raise self.error(f"deployable {mine.id!r} is not a Mine: it carries no Deployable Direct Template "
                             "Weapon", rel.subject, ("a Mine among its weapons ('weapons: AP Mine')",))
        if trooper.deployable:
            raise self.error(f"{trooper.id!r} is a Deployable, not a trooper: only an enemy Model or Marker "
                             "triggers a Mine", rel.object, ("the id of a trooper of another side",))
        if trooper.side == mine.side:
            raise self.error(f"{trooper.id!r} is on the Mine's side ({mine.side}): a Mine triggers only for an "
                             "enemy", rel.object, (f"a trooper of a side other than {mine.side}",))
        first = next(r for r in self.pos.relations if r.kind == "trigger" and r.subject.text == mine.id)
        if first is not rel:
            raise self.error(f"a second 'trigger' for Mine {mine.id!r} (the first is on line {first.subject.span.line}):"
                             " a Mine triggers once and is removed", rel.subject,
                             ("one 'trigger' line per Mine, the others its template affects in brackets",))
        covered = tuple(self._id(c) for c in rel.covered)
        if rel.value is not None and not any(
                a.trooper.text == trooper.id and self._find("skills", a.skill.name).id == "dodge"
                for a in self.pos.aros):
            raise self.error(f"'from dodge': {trooper.id} declares no Dodge ARO to end in the Trigger Area",
                             rel.value, (f"an 'aro {trooper.id}: Dodge' line, or no 'from dodge'",))
        return Relation("trigger", mine.id, trooper.id, 0, "dodge" if rel.value is not None else None, covered)

    def _smoke(self, rel) -> Relation:
        """``smoke fus at 4`` (where the Smoke fus throws lands) and ``smoke fus across alg
        -> fus2`` (the LoF of alg's Attack on fus2 crosses it): fus declares an Attack with
        Smoke Ammunition this Order, alg is its enemy; a position error at the first name
        that is not so, and for a second line saying the same."""
        thrower, value = self.by_id[self._id(rel.subject)], rel.value
        assert value is not None  # the grammar's smoke_at and smoke_across both write it
        if self.cat.edition not in SMOKE_READ:
            raise self.error(f"no rule reads a 'smoke' line in edition {self.cat.edition}: Smoke Ammunition is "
                             "encoded for N5 only", rel.subject, ("no 'smoke' line",))
        weapon = self._smoke_weapon(thrower.id)
        if weapon is None:
            raise self.error(f"{thrower.id} declares no Attack with Smoke Ammunition this Order: 'smoke' names "
                             "its thrower first", rel.subject,
                             ((f"an 'order {thrower.id}' or 'aro {thrower.id}' line with a Smoke weapon "
                               "('BS Attack (Smoke Grenades)')"),))
        same = [r for r in self.pos.relations if r.kind == rel.kind and r.subject.text == rel.subject.text
                and (rel.kind == "smoke_at" or (r.object.text, r.value and r.value.text) == (rel.object.text, value.text))]
        if same[0] is not rel:
            raise self.error(f"a second 'smoke' line saying the same (the first is on line "
                             f"{same[0].subject.span.line})", rel.subject, ("one line per Smoke and LoF",))
        if rel.kind == "smoke_at":
            tenths = self._tenths(value)
            reach = max((high for _low, high, _mod in weapon.get("ranges", [])), default=0)
            if tenths > round(reach * 10):
                raise self.error(f"{weapon.name} reaches {reach:g} inches: its template cannot land "
                                 f"{value.text} inches away", value, (f"a distance of 0 to {reach:g}",))
            return Relation("smoke_at", thrower.id, thrower.id, 0, str(tenths))
        attacker, target = self.by_id[self._id(rel.object)], self.by_id[self._id(value)]
        if attacker.side == thrower.side:
            raise self.error(f"{attacker.id!r} is on the side of the Smoke's thrower ({thrower.side}): Smoke "
                             "faces enemy Attacks", rel.object, (f"a trooper of a side other than {thrower.side}",))
        if attacker.id == target.id:
            raise self.error("an Attack's LoF runs from its attacker to another trooper", value,
                             (f"the target of {attacker.id}'s Attack",))
        if not self._declares_at(attacker.id, target.id):
            raise self.error(f"{attacker.id} declares no skill at {target.id} this Order: 'smoke ... across' names "
                             "the attacker and the target of an Attack", rel.object,
                             (f"an 'order {attacker.id}: ... -> {target.id}' or 'aro {attacker.id}: ...' line",))
        return Relation("smoke_across", thrower.id, attacker.id, 0, target.id)

    def _declares_at(self, trooper: str, target: str) -> bool:
        """The trooper's Order names the target, or its ARO does (or names none, the
        target then being an activated trooper)."""
        if any(t.id.text == target for o in self.pos.orders if o.trooper.text == trooper for s in o.skills
               for t in s.targets):
            return True
        activated = {o.trooper.text for o in self.pos.orders}
        return any((not a.skill.targets and target in activated) or any(t.id.text == target for t in a.skill.targets)
                   for a in self.pos.aros if a.trooper.text == trooper)

    def _smoke_weapon(self, trooper: str) -> cat.Entry | None:
        """The weapon with Smoke (or Eclipse) Ammunition the trooper declares an Attack with, if any."""
        skills = [s for o in self.pos.orders if o.trooper.text == trooper for s in o.skills]
        skills += [a.skill for a in self.pos.aros if a.trooper.text == trooper]
        for s in skills:
            if s.arguments:
                weapon = self._find("weapons", s.arguments[0])
                if {"Smoke", "Eclipse"} & set(weapon.get("ammunition", [])):
                    return weapon
        return None

    def _tenths(self, named: Named) -> int:
        """A distance in inches (``7.5``), in its range, as tenths of an inch."""
        bound = RANGES["distance"]
        whole, _, decimals = named.text.partition(".")
        inches = bound.read(whole)
        if inches is None or (inches == bound.high and decimals.strip("0")):
            raise self.error(bound.out_of_range(named.text), named, (bound.expected(),))
        return round(float(named.text) * 10)

    def _use(self, decl: SkillDecl) -> SkillUse:
        skill = self._find("skills", decl.name)
        takes_weapon = bool(set(skill.get("needs", [])) & set(WEAPON_NEEDS)) or any(
            n.startswith(("weapon_trait:", "template:")) for n in skill.get("needs", [])
        )
        weapon = ammunition = None
        weapon_entry = None
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
        if weapon_entry is not None and decl.targets and self.cat.edition in SMOKE_READ and any(
                cat.normalize(t) == "targetless" for t in weapon_entry.get("traits", [])):
            raise self.error(f"{weapon_entry.name} is Targetless: its Attack names no target (write where its "
                             "template lands with 'smoke <trooper> at N')", decl.targets[0].id,
                             (f"'{skill.name} ({weapon_entry.name})' without '->'",))
        targets = tuple(
            TargetUse(self._id(t.id), self._share(t, skill, weapon_entry), tuple(self._id(c) for c in t.covered))
            for t in decl.targets
        )
        return SkillUse(skill.id, weapon, ammunition, targets)

    def _share(self, target: Target, skill: cat.Entry, weapon: cat.Entry | None) -> int | None:
        """A target's Burst share, at most one more than the Burst it is a share of."""
        if target.burst is None:
            return None
        if weapon is not None:
            burst = weapon.get("burst") if isinstance(weapon.get("burst"), int) else 1
            whose = f"the Burst of {weapon.name}"
        elif isinstance(skill.get("burst"), int):
            burst, whose = skill.get("burst"), f"{skill.name}'s own Burst"
        else:
            burst = max((w.get("burst") for w in self.cat.all("weapons") if isinstance(w.get("burst"), int)),
                        default=1)
            whose = f"with no weapon declared, the largest Burst of an {self.cat.edition.upper()} weapon"
        return self.number("burst", target.burst, burst,
                           f"{whose} is {burst}, + 1 that a rule may add (Twin Weapons) or deny ([burst_split])")

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
