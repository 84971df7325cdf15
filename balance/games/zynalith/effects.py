"""Zynalith's card vocabulary (spec section 6) and the code that resolves compiled effects.

A card's text is a list of `{on: <trigger>, do: <op>, <params>, target: <selector>, if: {...}}`.
The seed's German trigger and keyword names (Sofort, Kampf, Tod, Trauer, Gier, Sturmangriff,
Blutsaugen, Durchschlag, ...) are accepted beside the English ids. `compile_effect` turns a checked
entry into an `Fx`; `resolve_effect` runs one waiting trigger (a `Trigger` tuple) on a state.

An effect only changes the state and pushes steps (a state check after every op, a draw, a line
combat); the steps themselves are the rules' (rules.py), so this module never imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from balance.core import flow
from balance.core.codes import Names
from balance.core.contract import Decision
from balance.core.effects import Effect, Vocabulary
from balance.core.errors import ConfigError
from balance.games.zynalith.spec import (
    BY_ANY,
    BY_ENEMY,
    BY_OWN,
    BY_SELF,
    POS_ANY,
    POS_ATTACK,
    POS_DEFENCE,
    POS_TOGGLE,
    ROW_BOTH,
    ROW_CHOICE,
    ROW_CREATURE,
    ROW_EXTRA,
    SEL_NONE,
    SIDE_ANY,
    SIDE_ENEMY,
    SIDE_OWN,
    Fx,
)
from balance.games.zynalith.state import (
    CHECK_STEP,
    CREATURE_PILE,
    EV_DAMAGE,
    EV_TRIGGERS,
    EXTRA_PILE,
    HP,
    INIT,
    KIND_PILE,
    KIND_TARGET,
    S_DRAW_BEGIN,
    S_DRAW_END,
    S_LINE_COMBAT,
    S_REFRESH,
    S_TO_HAND,
    T_DEALT,
    T_LIFESTEAL,
    T_PREVENTED,
    T_TAKEN,
    Creature,
    Option,
    Table,
    Trigger,
)

STAT_NAMES = ("init", "atk", "def", "hp")

# -- the words ---------------------------------------------------------------------------------

KEYWORDS = (
    (
        "charge",
        "Sturmangriff",
        "an extra combat round for this creature's line, at once on entry (G10)",
    ),
    ("lifesteal", "Blutsaugen", "damage dealt to enemy players heals its own player"),
    ("pierce", "Durchschlag", "ignores players' defence; no Verteidigung"),
)
CHARGE, LIFESTEAL, PIERCE = 1, 2, 4
KEYWORD_BITS = {"charge": CHARGE, "lifesteal": LIFESTEAL, "pierce": PIERCE}

# Subject kinds (a card's kind for `kind:` conditions and counter subjects).
_kinds = Names()
K_CREATURE = _kinds.add("creature")
K_SPELL = _kinds.add("spell")
K_PROPERTY = _kinds.add("property")
K_EQUIPMENT = _kinds.add("equipment")
K_EVENT = _kinds.add("event")
KINDS = _kinds.names


class DamageParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int = Field(ge=0)
    keywords: list[str] = []


class HealParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int = Field(ge=0)
    overheal: bool = False


class ModifyParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Literal["init", "atk", "def", "hp"]
    amount: int
    duration: Literal["permanent", "round"] = "permanent"


class GainParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resource: Literal["silver", "zynalith", "vp"]
    amount: int


class DrawParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = Field(1, ge=1)
    pile: Literal["creature", "extra", "choice"] = "creature"


class GrantParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    keyword: str
    duration: Literal["permanent", "round"] = "permanent"


class PositionParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: Literal["attack", "defence", "toggle"]


class CopyParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: Literal["left_neighbour"] = "left_neighbour"
    stats: list[Literal["init", "atk", "def", "hp"]] = ["atk", "def", "hp"]


class RefreshParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    row: Literal["creature", "extra", "both", "choice"] = "both"


class Pick(BaseModel):
    """Which creatures a `choose` / `random` / `all` selector may pick, seen from the controller."""

    model_config = ConfigDict(extra="forbid")
    side: Literal["own", "enemy", "any"] = "any"
    position: Literal["attack", "defence", "any"] = "any"


class StatCondition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    of: Literal["self", "subject"] = "self"
    stat: Literal["init", "atk", "def", "hp"]
    min: int | None = None
    max: int | None = None


class ResourceCondition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    of: Literal["controller", "opponent"] = "controller"
    name: Literal["hp", "silver", "zynalith"]
    min: int | None = None
    max: int | None = None


class RoundCondition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    min: int | None = None
    max: int | None = None


class AttachmentsCondition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    min: int = Field(ge=0)


VOCABULARY = Vocabulary("zynalith")
_TRIGGERS = VOCABULARY.triggers  # each with its German name (the seed's) as an alias
T_INSTANT = _TRIGGERS.add(
    "instant",
    "the card is played (creature entered, extra card attached), or an event is drawn",
    aliases=("Sofort",),
)
T_COMBAT = _TRIGGERS.add(
    "combat",
    "its creature starts a contested combat round in attack position (Sturmangriff too)",
    aliases=("Kampf",),
)
T_GAME_END = _TRIGGERS.add(
    "game_end", "after round 5 (its combat and round end), before scoring", aliases=("Spielende",)
)
T_DEATH = _TRIGGERS.add("death", "its creature died (last known stats and line)", aliases=("Tod",))
T_MOURNING = _TRIGGERS.add(
    "mourning", "another creature died (subject = the dead creature)", aliases=("Trauer",)
)
T_EVENT = _TRIGGERS.add(
    "event", "an event finished executing (not when negated)", aliases=("Event",)
)
T_SPELL = _TRIGGERS.add(
    "spell", "a spell finished its play (subject = its host, if any)", aliases=("Zauber",)
)
T_EQUIPMENT = _TRIGGERS.add(
    "equipment",
    "an equipment finished its play (subject = its host)",
    aliases=("Ausrüstung", "Ausruestung"),
)
T_PROPERTY = _TRIGGERS.add(
    "property", "a property finished its play (subject = its host)", aliases=("Eigenschaft",)
)
T_GREED = _TRIGGERS.add(
    "greed",
    "a card costing at least greed_silver s or greed_zynalith Z was played, this one included",
    aliases=("Gier",),
)
T_DEFENCE = _TRIGGERS.add(
    "defence",
    "its creature defended its player against combat damage (not Durchschlag)",
    aliases=("Verteidigung",),
)
TRIGGER_IDS = tuple(word.name for word in _TRIGGERS)

_OPS = VOCABULARY.ops
O_DAMAGE = _OPS.add(
    "damage",
    "creature: loses HP, DEF ignored; player: reduced by defence unless pierce",
    DamageParams,
)
O_HEAL = _OPS.add("heal", "remove damage, at most up to max HP unless overheal", HealParams)
O_MODIFY = _OPS.add(
    "modify",
    "change a stat; hp moves max and current HP together; INIT re-sorts the front",
    ModifyParams,
)
O_GAIN = _OPS.add(
    "gain", "the target player gains a resource (negative = lose, floored at 0)", GainParams
)
O_DRAW = _OPS.add(
    "draw",
    "top cards of a pile into the target player's hand (choice: the controller picks)",
    DrawParams,
)
O_DESTROY = _OPS.add("destroy", "the target creature dies (death, mourning, refund)")
O_GRANT = _OPS.add(
    "grant_keyword",
    "the target creature gains a keyword; charge in attack fights at once",
    GrantParams,
)
O_SET_POSITION = _OPS.add(
    "set_position", "put the target creature in attack or defence (or toggle it)", PositionParams
)
O_LINE_COMBAT = _OPS.add("line_combat", "the target creature's line fights one combat round now")
O_NEGATE = _OPS.add(
    "negate", "counters only: cancel the window's subject (card, event or combat round)"
)
O_COPY = _OPS.add(
    "copy_stats",
    "self's base values := the left neighbour's without extra cards; damage cleared",
    CopyParams,
)
O_REFRESH = _OPS.add(
    "refresh_market", "discard the market row(s) and draw them full", RefreshParams
)

OP_IDS = tuple(word.name for word in _OPS)

_SEL = VOCABULARY.selectors
SEL_SELF = _SEL.add("self", "the creature this card is or is attached to", aliases=("host",))
SEL_LEFT = _SEL.add("left_neighbour", "the creature left of self in its front (any position)")
SEL_RIGHT = _SEL.add("right_neighbour", "the creature right of self in its front (any position)")
SEL_LINE_ENEMIES = _SEL.add("line_enemies", "the other players' members of self's line")
SEL_SUBJECT = _SEL.add(
    "subject", "the creature the trigger is about (the host of a played card, the dead one)"
)
SEL_CHOOSE = _SEL.add(
    "choose", "a creature the controller chooses (a target decision)", Pick | None
)
SEL_RANDOM = _SEL.add("random", "a random creature (the state's RNG)", Pick | None)
SEL_ALL = _SEL.add("all", "every creature that matches", Pick | None)
SEL_CONTROLLER = _SEL.add(
    "controller", "the player who played the card (for an event: the event player)"
)
SEL_OPPONENT = _SEL.add("opponent", "an opponent (chosen by the controller with 3+ players)")
SEL_EACH_OPPONENT = _SEL.add("each_opponent", "every living opponent")
SEL_EACH_PLAYER = _SEL.add("each_player", "every living player")
SEL_SUBJECT_PLAYER = _SEL.add(
    "subject_player", "the player the trigger is about (buyer, caster, event player, owner)"
)
SEL_HOST_OWNER = _SEL.add("host_owner", "the owner of the creature this card is or is attached to")

# compiled conditions (besides `by`, which compiles into Fx.by): (code, a, b, lo, hi), the code
# being the condition word's
_COND = VOCABULARY.conditions
_COND.add(
    "by",
    "the subject is this card or its host (self), own, enemy, or any",
    Literal["self", "own", "enemy", "any"],
)
C_POSITION = _COND.add(
    "position", "self is in attack or defence position", Literal["attack", "defence"]
)
C_STAT = _COND.add("stat", "a stat of self or of the subject lies in [min, max]", StatCondition)
C_RESOURCE = _COND.add(
    "resource",
    "the controller's (or an opponent's) hp / silver / zynalith lies in [min, max]",
    ResourceCondition,
)
C_ROUND = _COND.add("round", "the round lies in [min, max]", RoundCondition)
C_ATTACHMENTS = _COND.add(
    "attachments", "self carries at least min extra cards", AttachmentsCondition
)
C_KIND = _COND.add(
    "kind",
    "the subject card's kind is one of the list",
    list[Literal["creature", "spell", "property", "equipment", "event"]],
)

_KW = VOCABULARY.kind("keyword")
for _name, _alias, _doc in KEYWORDS:
    _KW.add(_name, _doc, aliases=(_alias,))

# -- compiled form -----------------------------------------------------------------------------


SELECTOR_CODES = _SEL.codes()
PLAYER_SELECTORS = frozenset(
    {
        SEL_CONTROLLER,
        SEL_OPPONENT,
        SEL_EACH_OPPONENT,
        SEL_EACH_PLAYER,
        SEL_SUBJECT_PLAYER,
        SEL_HOST_OWNER,
    }
)
SELF_RELATIVE = frozenset({SEL_SELF, SEL_LEFT, SEL_RIGHT, SEL_LINE_ENEMIES, SEL_HOST_OWNER})
# Ops whose target is a creature (default: self), a player (default: controller), either
# (target required), or nothing.
CREATURE_OPS = frozenset({O_MODIFY, O_DESTROY, O_GRANT, O_SET_POSITION, O_LINE_COMBAT, O_COPY})
PLAYER_OPS = frozenset({O_GAIN, O_DRAW})
EITHER_OPS = frozenset({O_DAMAGE, O_HEAL})
UNTARGETED_OPS = frozenset({O_NEGATE, O_REFRESH})

SIDES = {"any": SIDE_ANY, "own": SIDE_OWN, "enemy": SIDE_ENEMY}
POSITIONS = {"any": POS_ANY, "attack": POS_ATTACK, "defence": POS_DEFENCE, "toggle": POS_TOGGLE}
BYS = {"any": BY_ANY, "self": BY_SELF, "own": BY_OWN, "enemy": BY_ENEMY}
RESOURCES = {"silver": 0, "zynalith": 1, "vp": 2, "hp": 3}
ROWS = {"creature": ROW_CREATURE, "extra": ROW_EXTRA, "both": ROW_BOTH, "choice": ROW_CHOICE}

NO_MIN, NO_MAX = -(10**9), 10**9


def compile_effect(effect: Effect, card: str, is_event: bool) -> Fx:
    """The fast form of a checked effect entry; raises ConfigError (file:line) on a selector that
    cannot name what the op acts on."""
    file, line = effect.file, effect.line
    trigger = TRIGGER_IDS.index(effect.trigger) if effect.trigger else T_INSTANT
    op = OP_IDS.index(effect.op)
    sel, side, pick_position = SEL_NONE, SIDE_ANY, POS_ANY
    if effect.target is not None:
        sel = SELECTOR_CODES[effect.target.selector]
        pick = effect.target.params
        if pick is not None:
            side, pick_position = SIDES[pick.side], POSITIONS[pick.position]
    if op in UNTARGETED_OPS and sel != SEL_NONE:
        raise ConfigError(
            file, line, f"card '{card}': op '{effect.op}' takes no target", "remove target:"
        )
    if op in EITHER_OPS and sel == SEL_NONE:
        raise ConfigError(
            file, line, f"card '{card}': op '{effect.op}' needs a target", "add target: <selector>"
        )
    if op in CREATURE_OPS:
        if sel in PLAYER_SELECTORS:
            assert effect.target is not None  # sel is the target's (the defaults come below)
            raise ConfigError(
                file,
                line,
                f"card '{card}': op '{effect.op}' acts on creatures, "
                f"not on '{effect.target.selector}'",
                "use a creature selector such as self or {choose: {side: enemy}}",
            )
        sel = SEL_SELF if sel == SEL_NONE else sel
    if op in PLAYER_OPS:
        if sel != SEL_NONE and sel not in PLAYER_SELECTORS:
            assert effect.target is not None  # a player op has no default yet: sel is the target's
            raise ConfigError(
                file,
                line,
                f"card '{card}': op '{effect.op}' acts on players, "
                f"not on '{effect.target.selector}'",
                "use a player selector such as controller or each_opponent",
            )
        sel = SEL_CONTROLLER if sel == SEL_NONE else sel
    if is_event and sel in SELF_RELATIVE:
        raise ConfigError(
            file,
            line,
            f"card '{card}': an event has no creature of its own for "
            # no target written: a creature op's target defaulted to self
            f"'{effect.target.selector if effect.target is not None else 'self'}'",
            "use all, random, choose or a player selector",
        )
    fields: dict[str, Any] = {}
    p = effect.params
    if op == O_DAMAGE:
        fields.update(amount=p.amount, keywords=_keyword_mask(p.keywords, file, line, card))
    elif op == O_HEAL:
        fields.update(amount=p.amount, overheal=p.overheal)
    elif op == O_MODIFY:
        fields.update(
            stat=STAT_NAMES.index(p.stat), amount=p.amount, round_only=p.duration == "round"
        )
    elif op == O_GAIN:
        fields.update(resource=RESOURCES[p.resource], amount=p.amount)
    elif op == O_DRAW:
        pile = {"creature": CREATURE_PILE, "extra": EXTRA_PILE, "choice": ROW_CHOICE}[p.pile]
        fields.update(count=p.count, pile=pile)
    elif op == O_GRANT:
        fields.update(
            keywords=_keyword_mask([p.keyword], file, line, card), round_only=p.duration == "round"
        )
    elif op == O_SET_POSITION:
        fields.update(position=POSITIONS[p.position])
    elif op == O_COPY:
        fields.update(copy=tuple(STAT_NAMES.index(s) for s in p.stats))
    elif op == O_REFRESH:
        fields.update(row=ROWS[p.row])
    by = BY_ANY
    conds: list[tuple[int, int, int, int, int]] = []
    for name, value in effect.conditions.items():
        if name == "by":
            by = BYS[value]
        elif name == "position":
            conds.append((C_POSITION, POSITIONS[value], 0, 0, 0))
        elif name == "stat":
            conds.append(
                (
                    C_STAT,
                    value.of == "subject",
                    STAT_NAMES.index(value.stat),
                    _lo(value.min),
                    _hi(value.max),
                )
            )
        elif name == "resource":
            conds.append(
                (
                    C_RESOURCE,
                    value.of == "opponent",
                    RESOURCES[value.name],
                    _lo(value.min),
                    _hi(value.max),
                )
            )
        elif name == "round":
            conds.append((C_ROUND, 0, 0, _lo(value.min), _hi(value.max)))
        elif name == "attachments":
            conds.append((C_ATTACHMENTS, 0, 0, value.min, NO_MAX))
        elif name == "kind":
            mask = 0
            for kind in value:
                mask |= 1 << KINDS.index(kind)
            conds.append((C_KIND, mask, 0, 0, 0))
    text = f"{card}: on {effect.trigger or 'instant'} do {effect.op}"
    return Fx(trigger, op, sel, side, pick_position, by, tuple(conds), text=text, **fields)


def _keyword_mask(words: list[str], file: str | None, line: int | None, card: str) -> int:
    mask = 0
    for word in words:
        mask |= KEYWORD_BITS[_KW.resolve(word, file, line, f"card '{card}'").name]
    return mask


def _lo(value: int | None) -> int:
    return NO_MIN if value is None else value


def _hi(value: int | None) -> int:
    return NO_MAX if value is None else value


# -- resolving ---------------------------------------------------------------------------------

# A waiting trigger or an effect to run now, as a tuple:
# (fx, card, src_uid, self_uid, controller, subj_uid, subj_player, subj_inst, subj_kind, epoch,
#  check)
#   src_uid   the card's own instance (creature or attachment uid; -1: events, host-less cards)
#   self_uid  the creature the card is or is attached to (-1: none)
#   subj_*    what the trigger is about: creature, player, card instance, card kind (-1: none)
#   check     0: resolve regardless (instants, death); 1: the source must still be in play;
#             2: and its creature still a member of the line (attack position, same epoch)
FX, CARD, SRC, SELF, CONTROLLER, SUBJ, SUBJ_PLAYER, SUBJ_INST, SUBJ_KIND, EPOCH, CHECK = range(11)


def resolve_effect(g: Table, t: Trigger) -> None:
    """Run one effect now: skip it if its source has left (or left its line), check its
    conditions, pick its targets (a target decision may interrupt) and apply its op."""
    if not g.alive[t[CONTROLLER]]:
        return  # eliminated players are skipped everywhere
    check = t[CHECK]
    if check:
        creature = g.by_uid.get(t[SELF])
        if creature is None:
            return
        if check == 2 and (not creature.attack or creature.epoch != t[EPOCH]):
            return
    fx: Fx = t[FX]
    if (fx.by or fx.conds) and not conditions_hold(g, t, fx):
        return
    g.log.append((g.round, t[CONTROLLER], t[CARD], EV_TRIGGERS, 1))
    targets = select_targets(g, t, fx)
    if targets is None:
        return  # a target decision is pending; rules.apply_target applies the op
    g.todo.append(CHECK_STEP)
    apply_op(g, t, fx, targets)


def self_creature(g: Table, t: Trigger) -> Creature | None:
    """The creature the effect's card is or is attached to: in play, or its ghost when dead."""
    uid = t[SELF]
    if uid < 0:
        return None
    creature = g.by_uid.get(uid)
    if creature is not None:
        return creature
    ghost = g.ghosts.get(uid)
    return ghost.creature if ghost is not None else None


def conditions_hold(g: Table, t: Trigger, fx: Fx) -> bool:
    controller = t[CONTROLLER]
    by = fx.by
    if by == BY_SELF:
        if not (
            (t[SUBJ_INST] >= 0 and t[SUBJ_INST] == t[SRC]) or (t[SUBJ] >= 0 and t[SUBJ] == t[SELF])
        ):
            return False
    elif by == BY_OWN:
        if t[SUBJ_PLAYER] != controller:
            return False
    elif by == BY_ENEMY and (t[SUBJ_PLAYER] < 0 or t[SUBJ_PLAYER] == controller):
        return False
    for code, a, b, lo, hi in fx.conds:
        if code == C_POSITION:
            me = self_creature(g, t)
            if me is None or me.attack != (a == POS_ATTACK):
                return False
        elif code == C_STAT:
            who = subject_creature(g, t) if a else self_creature(g, t)
            if who is None:
                return False
            value = who.hp_left() if b == HP else who.stat(b)
            if not lo <= value <= hi:
                return False
        elif code == C_RESOURCE:
            seats = (
                [controller]
                if not a
                else [s for s in range(g.seats) if s != controller and g.alive[s]]
            )
            if not any(lo <= _resource(g, s, b) <= hi for s in seats):
                return False
        elif code == C_ROUND:
            if not lo <= g.round <= hi:
                return False
        elif code == C_ATTACHMENTS:
            me = self_creature(g, t)
            if me is None or len(me.attachments) < lo:
                return False
        elif code == C_KIND and (t[SUBJ_KIND] < 0 or not (a >> t[SUBJ_KIND]) & 1):
            return False
    return True


def _resource(g: Table, seat: int, which: int) -> int:
    if which == 0:
        return g.silver[seat]
    if which == 1:
        return g.zyn[seat]
    return g.hp[seat]


def subject_creature(g: Table, t: Trigger) -> Creature | None:
    uid = t[SUBJ]
    if uid < 0:
        return None
    creature = g.by_uid.get(uid)
    if creature is not None:
        return creature
    ghost = g.ghosts.get(uid)
    return ghost.creature if ghost is not None else None


def clockwise(g: Table, first: int) -> tuple[int, ...]:
    """Living seats clockwise (ascending) from `first`."""
    alive = g.alive
    order = ROTATIONS[g.seats][first]
    if False not in alive:
        return order
    return tuple(s for s in order if alive[s])


# ROTATIONS[n][first]: the seats of an n-player game clockwise from `first`.
ROTATIONS = tuple(
    tuple(tuple((first + i) % n for i in range(n)) for first in range(max(n, 1))) for n in range(8)
)


def pick_candidates(g: Table, controller: int, side: int, position: int) -> list[Creature]:
    """Creatures a choose/random/all selector may take, players clockwise from the controller,
    each front left to right."""
    found: list[Creature] = []
    for seat in clockwise(g, controller):
        if side == SIDE_OWN and seat != controller:
            continue
        if side == SIDE_ENEMY and seat == controller:
            continue
        for c in g.front[seat]:
            if position == POS_ANY or c.attack == (position == POS_ATTACK):
                found.append(c)
    return found


def select_targets(g: Table, t: Trigger, fx: Fx) -> Sequence[Any] | None:
    """The effect's targets (creatures or seats); None when a target decision was set instead."""
    sel = fx.sel
    controller = t[CONTROLLER]
    if sel == SEL_NONE:
        return []
    if sel == SEL_CONTROLLER:
        return [controller]
    if sel == SEL_SELF:
        c = g.by_uid.get(t[SELF])
        return [c] if c is not None else []
    if sel == SEL_ALL:
        return pick_candidates(g, controller, fx.side, fx.pick_position)
    if sel == SEL_EACH_OPPONENT:
        return [s for s in clockwise(g, controller) if s != controller]
    if sel == SEL_EACH_PLAYER:
        return clockwise(g, controller)
    if sel == SEL_LINE_ENEMIES:
        return [g.by_uid[u] for u in line_enemy_uids(g, t) if u in g.by_uid]
    if sel == SEL_LEFT or sel == SEL_RIGHT:
        uid = neighbour_uid(g, t[SELF], sel == SEL_LEFT)
        c = g.by_uid.get(uid) if uid >= 0 else None
        return [c] if c is not None else []
    if sel == SEL_SUBJECT:
        c = g.by_uid.get(t[SUBJ]) if t[SUBJ] >= 0 else None
        return [c] if c is not None else []
    if sel == SEL_SUBJECT_PLAYER:
        s = t[SUBJ_PLAYER]
        return [s] if s >= 0 and g.alive[s] else []
    if sel == SEL_HOST_OWNER:
        me = self_creature(g, t)
        return [me.owner] if me is not None and g.alive[me.owner] else []
    if sel == SEL_RANDOM:
        found = pick_candidates(g, controller, fx.side, fx.pick_position)
        return [found[g.rng.stream().randrange(len(found))]] if found else []
    if sel == SEL_OPPONENT:
        others = [s for s in clockwise(g, controller) if s != controller]
        if len(others) <= 1:
            return others
        ask_target(g, t, tuple((1, s, -1) for s in others))
        return None
    if sel == SEL_CHOOSE:
        found = pick_candidates(g, controller, fx.side, fx.pick_position)
        if not found:
            return []  # a target decision with no legal target is skipped
        options = tuple((0, c.owner, c.uid) for c in found)
        ask_target(g, t, options)
        return None
    raise AssertionError(f"unknown selector {sel}")


def ask_target(g: Table, t: Trigger, options: tuple[Option, ...]) -> None:
    """Set the `target` decision of the effect's controller (handled by rules.apply_target)."""
    flow.ask(g, Decision(t[CONTROLLER], "target", options), (KIND_TARGET, t))


def neighbour_uid(g: Table, uid: int, left: bool) -> int:
    """The uid of the creature left (or right) of `uid` in its front; for a dead one, its
    neighbour when it died."""
    creature = g.by_uid.get(uid)
    if creature is None:
        ghost = g.ghosts.get(uid)
        if ghost is None:
            return -1
        return ghost.left if left else ghost.right
    row = g.front[creature.owner]
    i = row.index(creature)
    j = i - 1 if left else i + 1
    return row[j].uid if 0 <= j < len(row) else -1


def line_enemy_uids(g: Table, t: Trigger) -> tuple[int, ...]:
    uid = t[SELF]
    creature = g.by_uid.get(uid)
    if creature is None:
        ghost = g.ghosts.get(uid)
        return ghost.line_enemies if ghost is not None else ()
    return tuple(u for u, _ in line_members(g, creature) if u != uid)


def line_members(g: Table, creature: Creature) -> tuple[tuple[int, int], ...]:
    """The (uid, epoch) members of `creature`'s line now: during combat its fixed line, else
    its index k among its owner's attack-position creatures with every other player's k-th.
    A creature in defence position has no line. Members in clockwise order from the start player."""
    if not creature.attack:
        return ()
    if g.lines is not None:
        for line in g.lines:
            for uid, epoch in line:
                if uid == creature.uid:
                    return tuple(
                        (u, e)
                        for u, e in line
                        if (c := g.by_uid.get(u)) is not None and c.attack and c.epoch == e
                    )
        return ()
    k = 0
    for c in g.front[creature.owner]:
        if c is creature:
            break
        if c.attack:
            k += 1
    members = []
    for seat in clockwise(g, g.start_player):
        attackers = [c for c in g.front[seat] if c.attack]
        if k < len(attackers):
            c = attackers[k]
            members.append((c.uid, c.epoch))
    return tuple(members)


def defence_of(g: Table, seat: int) -> int:
    """The player's defence D: per defence-position creature, 1 (defence_per_defender) or its
    cost bracket (open idea `open_defence_by_cost`)."""
    spec = g.spec
    total = 0
    for c in g.front[seat]:
        if not c.attack:
            if spec.open_defence_by_cost:
                value = 0
                for min_cost, defence in spec.defence_cost_brackets:
                    if c.cost >= min_cost:
                        value = defence
                total += value
            else:
                total += spec.defence_per_defender
    return total


def hurt_player(
    g: Table,
    seat: int,
    amount: int,
    pierce: bool,
    lifesteal: bool,
    source_seat: int,
    source_card: int,
    combat: bool,
) -> int:
    """Damage a player: reduced by their defence (effect damage only with defence_vs_effects)
    unless pierce; lifesteal heals the source's player by what was dealt. Returns D applied."""
    if not g.alive[seat]:
        return 0
    d = 0
    if not pierce and (combat or g.spec.defence_vs_effects):
        d = defence_of(g, seat)
    dealt = amount - d if amount > d else 0
    g.hp[seat] -= dealt
    g.tally[seat][T_TAKEN] += dealt
    g.tally[seat][T_PREVENTED] += amount - dealt
    if source_seat >= 0:
        g.tally[source_seat][T_DEALT] += dealt
        if dealt and source_card >= 0:
            g.log.append((g.round, source_seat, source_card, EV_DAMAGE, dealt))
        if lifesteal and dealt and source_seat != seat and g.alive[source_seat]:
            healed = heal_player(g, source_seat, dealt, False)
            g.tally[source_seat][T_LIFESTEAL] += healed
    return d


def own_lifesteal(g: Table, t: Trigger) -> bool:
    """Whether the effect's creature has Blutsaugen and the effect is its own (§6.2 as amended:
    R15 sets no combat-only limit, so a creature's lifesteal also heals for the damage its own
    effects deal to enemy players). Its own: the creature's, or an extra card's on it played by
    the creature's owner; an enemy's card on it heals nobody through it. A dead creature's
    `death` effects read its last keywords."""
    if t[SELF] < 0:
        return False  # an event or a host-less counter: no creature
    creature = self_creature(g, t)
    return (
        creature is not None
        and creature.owner == t[CONTROLLER]
        and bool(creature.keywords() & LIFESTEAL)
    )


def heal_player(g: Table, seat: int, amount: int, overheal: bool) -> int:
    before = g.hp[seat]
    after = before + amount
    cap = g.spec.start_hp
    if not overheal and after > cap:
        after = max(before, cap)
    g.hp[seat] = after
    return after - before


def modify(
    g: Table, c: Creature, stat: int, amount: int, from_extra: bool, round_only: bool
) -> None:
    c = g.own(c)
    # a creature's stat lists are shared with its copies: replaced, never changed in place
    c.cur = _plus(c.cur, stat, amount)
    if from_extra:
        c.modx = _plus(c.modx, stat, amount)
    if round_only:
        c.rnd = _plus(c.rnd, stat, amount)
        if from_extra:
            c.rndx = _plus(c.rndx, stat, amount)
    if stat == INIT and amount:
        resort(g, c.owner)


def _plus(stats: list[int], stat: int, amount: int) -> list[int]:
    stats = stats[:]
    stats[stat] += amount
    return stats


def resort(g: Table, seat: int) -> None:
    """Keep the front in INIT order (the value after effects), stably."""
    g.front[seat].sort(key=_neg_init)


def _neg_init(c: Creature) -> int:
    return -c.stat(INIT)


def apply_op(g: Table, t: Trigger, fx: Fx, targets: Sequence[Any]) -> None:
    """Apply the effect's op to its targets (creatures or seats)."""
    op = fx.op
    controller = t[CONTROLLER]
    card = t[CARD]
    if op == O_DAMAGE:
        amount = fx.amount
        pierce = bool(fx.keywords & PIERCE)
        lifesteal = bool(fx.keywords & LIFESTEAL) or own_lifesteal(g, t)
        for target in targets:
            if isinstance(target, Creature):
                if target.uid in g.by_uid and amount:
                    g.own(target).damage += amount
                    g.log.append((g.round, controller, card, EV_DAMAGE, amount))
            else:
                hurt_player(g, target, amount, pierce, lifesteal, controller, card, False)
    elif op == O_HEAL:
        for target in targets:
            if isinstance(target, Creature):
                if target.uid in g.by_uid:
                    target = g.own(target)
                    floor = target.damage - fx.amount
                    target.damage = floor if fx.overheal or floor > 0 else min(target.damage, 0)
            elif g.alive[target]:
                heal_player(g, target, fx.amount, fx.overheal)
    elif op == O_MODIFY:
        from_extra = g.spec.cards[card].is_extra
        for c in targets:
            if c.uid in g.by_uid:
                modify(g, c, fx.stat, fx.amount, from_extra, fx.round_only)
    elif op == O_GAIN:
        resource = fx.resource
        for seat in targets:
            if resource == 0:
                g.silver[seat] = max(0, g.silver[seat] + fx.amount)
            elif resource == 1:
                g.zyn[seat] = max(0, g.zyn[seat] + fx.amount)
            else:
                g.bonus_vp = g.bonus_vp[:]  # shared with clones: replaced, not changed
                g.bonus_vp[seat] = max(0, g.bonus_vp[seat] + fx.amount)
    elif op == O_DRAW:
        if fx.pile == ROW_CHOICE:
            flow.ask(
                g,
                Decision(controller, "pile", ((CREATURE_PILE,), (EXTRA_PILE,))),
                (KIND_PILE, (O_DRAW, fx.count, tuple(targets), controller)),
            )
            return
        push_draws(g, fx.pile, fx.count, targets)
    elif op == O_DESTROY:
        for c in targets:
            if c.uid in g.by_uid:
                g.own(c).doomed = True
    elif op == O_GRANT:
        mask = fx.keywords
        for c in targets:
            if c.uid not in g.by_uid:
                continue
            c = g.own(c)
            had = c.keywords()
            if fx.round_only:
                c.kw_round |= mask
            else:
                c.kw |= mask
            if mask & CHARGE and not had & CHARGE and c.attack and g.spec.charge_on_entry:
                g.todo.append((S_LINE_COMBAT, c.uid))
    elif op == O_SET_POSITION:
        for c in targets:
            if c.uid not in g.by_uid:
                continue
            attack = (not c.attack) if fx.position == POS_TOGGLE else fx.position == POS_ATTACK
            if attack != c.attack:
                c = g.own(c)
                c.attack = attack
                c.epoch += 1
    elif op == O_LINE_COMBAT:
        for c in reversed(targets):
            g.todo.append((S_LINE_COMBAT, c.uid))
    elif op == O_NEGATE:
        if g.windows:
            g.negated = g.negated | {g.windows[-1]}  # shared with clones: replaced
    elif op == O_COPY:
        for c in targets:
            if c.uid not in g.by_uid:
                continue
            left = g.by_uid.get(neighbour_uid(g, c.uid, True))
            if left is None:
                continue  # no left neighbour: it keeps its printed values
            c = g.own(c)
            cur, base = c.cur[:], c.base[:]
            for s in fx.copy:
                value = left.cur[s] - left.modx[s]
                cur[s] += value - base[s]
                base[s] = value
            c.cur, c.base = cur, base
            c.damage = 0
            if INIT in fx.copy:
                resort(g, c.owner)
    elif op == O_REFRESH:
        if fx.row == ROW_CHOICE:
            flow.ask(
                g,
                Decision(controller, "pile", ((CREATURE_PILE,), (EXTRA_PILE,))),
                (KIND_PILE, (O_REFRESH, 0, (), controller)),
            )
            return
        push_refresh(g, fx.row, controller)


def push_draws(g: Table, pile: int, count: int, seats: Sequence[int]) -> None:
    """Each target player draws `count` cards from `pile` into their hand, in target order."""
    for seat in reversed(seats):
        g.todo.append((S_DRAW_END,))
        g.todo.append((S_TO_HAND, pile, seat, count))
        g.todo.append((S_DRAW_BEGIN,))


def push_refresh(g: Table, row: int, event_player: int) -> None:
    if row == ROW_BOTH:
        g.todo.append((S_REFRESH, EXTRA_PILE, event_player))
        g.todo.append((S_REFRESH, CREATURE_PILE, event_player))
    else:
        g.todo.append((S_REFRESH, row, event_player))
