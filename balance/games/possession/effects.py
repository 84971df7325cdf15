"""possession's card vocabulary (spec §6) and the code that resolves compiled effects.

A card has at most one effect per role: `possessed` (active while it is a Possessed), `wild`
(while it is a face-up Wild) and `defender` (while it is the Defender or the Support). An effect
is `{role, on, if, optional, do, <params>, then, value, text}`; `then` lists further `{do,
<params>}` steps of the same effect. Everything is checked here once, with file:line errors,
and compiled into `CardEffect` / `Step` objects of small ints that the rules read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypeAliasType

from balance.core import flow
from balance.core.codes import Names
from balance.core.config import fail, validate_value
from balance.core.contract import Decision
from balance.core.effects import Effect, Target, Vocabulary, compare
from balance.core.errors import did_you_mean
from balance.core.yamlio import LineList, LineMap, key_line, line_map
from balance.games.possession.spec import (
    DAMAGED,
    DESTINATIONS,
    HEALED,
    TO_DECK_BOTTOM,
    TO_HAND,
    TRIGGER_SHAPE,
    TRIGGER_WORDS,
    CardEffect,
    Step,
)
from balance.games.possession.state import (
    EMPTY,
    K_EFFECT_DAMAGE,
    K_EFFECT_HEALING,
    NO_CREATURE,
    POSSESSED,
    T_ACT,
    T_DISCARD,
    T_DO,
    T_ESCAPE_CHECK,
    WILD,
    Table,
    counter,
    draw_cards,
    draw_top,
    enter,
    flip,
    leave,
    record,
    ref,
    take,
    to_deck_bottom,
    to_discard,
    to_hand,
    trade,
)

# --------------------------------------------------------------------------------------------
# The words (spec §6): each word's code is its place in its section's declaration order (the
# triggers, whose codes the compiled spec holds, are declared in spec.py).


class EntryFields(BaseModel):
    """The keys of an effect entry besides `on`, `do`, `if`, `target` and the op's params."""

    model_config = ConfigDict(extra="forbid")
    role: Literal["possessed", "wild", "defender"] | None = None
    optional: bool = False
    then: list[Any] = []
    value: float | None = None
    text: str = ""


VOCABULARY = Vocabulary("possession", entry_fields=EntryFields, triggers=TRIGGER_WORDS)
TRIGGER_CODES = TRIGGER_WORDS.codes()

# creature selectors; `choose` (declared with the ops' models below) picks one of a group
_s = VOCABULARY.selectors
SELF = _s.add("self", "this card, wherever it now is")
ACTOR = _s.add("actor", "the bound event's actor")
SUBJECT = _s.add("subject", "the bound event's subject (both subjects of a two-subject event)")
DEFENDER_SEL = _s.add("defender", "the Defender")
SUPPORT_SEL = _s.add("support", "the Defender Support (nothing while it is empty)")
OWN_POSSESSED = _s.add("own_possessed", "the controller's Possessed")
TURN_POSSESSED = _s.add("turn_possessed", "the Turn Player's Possessed")
EACH_POSSESSED = _s.add("each_possessed", "every Possessed, from the Turn Player in turn order")
EACH_OTHER_POSSESSED = _s.add("each_other_possessed", "every Possessed but this card")
EACH_OPPONENT_POSSESSED = _s.add(
    "each_opponent_possessed", "every Possessed of another player than the controller"
)
EACH_WILD = _s.add("each_wild", "every face-up Wild, clockwise from the face-down Wild")
ADJACENT_WILDS = _s.add("adjacent_wilds", "the face-up ring neighbours of this card")
EACH_CREATURE = _s.add(
    "each_creature", "every face-up creature: Possessed, Wilds, Defender, Support"
)
FACE_DOWN_WILD = _s.add(
    "face_down_wild", "the face-down Wild: only for damage, heal, replace and escape (R5)"
)
CREATURES = tuple(word.name for word in _s)
GROUP_ONLY = {
    EACH_POSSESSED,
    EACH_OTHER_POSSESSED,
    EACH_OPPONENT_POSSESSED,
    EACH_WILD,
    ADJACENT_WILDS,
    EACH_CREATURE,
}
POOLS = tuple(name for name in CREATURES if name != "face_down_wild")  # what `choose` picks from

_players = VOCABULARY.kind("player")
CONTROLLER = _players.add(
    "controller", "the effect's controller: the owner of a Possessed, else the Turn Player"
)
TURN_PLAYER = _players.add("turn_player", "the Turn Player")
EACH_PLAYER = _players.add(
    "each_player", "every remaining player, from the Turn Player in turn order"
)
EACH_OPPONENT = _players.add("each_opponent", "every remaining player but the controller")
OWNER = _players.add("owner", "the owner of the subject Possessed")
PLAYERS = tuple(word.name for word in _players)
SINGLE_PLAYERS = {CONTROLLER, TURN_PLAYER, OWNER}

_match_words = VOCABULARY.kind("match (for actor: and subject:)")
M_SELF = _match_words.add("self", "this card")
M_OTHER = _match_words.add("other", "any creature but this card")
M_POSSESSED = _match_words.add("possessed", "a Possessed")
M_OWN_POSSESSED = _match_words.add("own_possessed", "the controller's Possessed")
M_OPPONENT_POSSESSED = _match_words.add("opponent_possessed", "another player's Possessed")
M_WILD = _match_words.add("wild", "a Wild")
M_ADJACENT_WILD = _match_words.add("adjacent_wild", "a Wild next to this card in the ring")
M_DEFENDER = _match_words.add("defender", "the Defender")
M_SUPPORT = _match_words.add("support", "the Defender Support")
M_ANY = _match_words.add("any", "any creature")
MATCHES = tuple(word.name for word in _match_words)

_roles = VOCABULARY.kind("role")
_roles.add("possessed", "active while the card is a Possessed; controller: its owner")
_roles.add("wild", "active while the card is a face-up Wild; controller: the Turn Player")
_roles.add(
    "defender", "active while the card is the Defender or the Support; controller: the Turn Player"
)
ROLES = tuple(word.name for word in _roles)
EFFECT_ROLE = (0, 1, 2, 2)  # position role (P, W, D, S) -> the role of the effect it runs

_stats = Names()  # what `modify`, `{stat, of}` amounts and `compare` conditions read
MIGHT = _stats.add("might")
ENDURE = _stats.add("endure")
NURTURE = _stats.add("nurture")
DAMAGE_STAT = _stats.add("damage")
REMAINING = _stats.add("remaining")
HAND = _stats.add("hand")
DECK = _stats.add("deck")
GLORY_STAT = _stats.add("glory")
STATS = _stats.names
CREATURE_STATS = {MIGHT, ENDURE, NURTURE, DAMAGE_STAT, REMAINING}
COMPARISONS = ("<", "<=", "==", ">=", ">")  # indexes: core.effects.compare's LT ... GT

_actions = Names()  # what `use_action` lets a creature do
ACT_ATTACK = _actions.add("attack")
ACT_COMMAND = _actions.add("command")
ACT_SOOTHE = _actions.add("soothe")
ACT_ANY = _actions.add("any")
ACTIONS = _actions.names


# Parameters checked by this module (with file:line errors of their own) rather than by pydantic;
# the aliases name them as a designer writes them, for `balance vocab`.
# mypy wants a TypeAliasType named after its variable: it reads the plain aliases instead.
if TYPE_CHECKING:
    AmountText = Any
    PlayerText = str
    CreatureText = Any
else:
    AmountText = TypeAliasType("int|{stat, of}", Any)  # stat: might|endure|nurture|damage
    PlayerText = TypeAliasType("<player>", str)
    CreatureText = TypeAliasType("<one creature>|{choose: <group>}", Any)


class Amounted(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: AmountText


class StatAmount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Literal["might", "endure", "nurture", "damage"]
    of: Literal[tuple(n for n in CREATURES if n not in {CREATURES[g] for g in GROUP_ONLY})]  # type: ignore[valid-type]


class Modify(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Literal["might", "endure", "nurture"]
    amount: int
    duration: Literal["turn", "stay"]


class Draw(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: PlayerText
    count: int = Field(ge=1)


class UseAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal[ACTIONS]  # type: ignore[valid-type]


class TradePlaces(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: CreatureText
    b: CreatureText


class Replace(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: Literal["deck", "hand"] = Field("deck", alias="from")
    to: Literal[DESTINATIONS] = "discard"  # type: ignore[valid-type]


class Compare(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Literal[STATS]  # type: ignore[valid-type]
    of: str | None = None
    op: Literal[COMPARISONS]  # type: ignore[valid-type]
    value: int


Match = Literal[MATCHES]  # type: ignore[valid-type]

_s.add("choose", "{choose: <group>}: one member, picked by the controller", Literal[POOLS])

_o = VOCABULARY.ops
DAMAGE = _o.add("damage", "ward absorbs first, then the damage is added: logs damaged", Amounted)
HEAL = _o.add("heal", "removes min(amount, damage): logs healed", Amounted)
WARD = _o.add("ward", "prevents the next `amount` damage, until it leaves or turns down", Amounted)
MODIFY = _o.add(
    "modify", "± a stat; floors might/nurture 0, endure 1; for the turn or to stay", Modify
)
DRAW = _o.add("draw", "the player draws, deck to hand one at a time, ignoring draw_below", Draw)
DISCARD = _o.add(
    "discard", "the player discards `count` cards of their choice (fewer if short)", Draw
)
USE_ACTION = _o.add(
    "use_action", "the target (a Possessed or face-up Wild) acts; its controller picks", UseAction
)
TRADE_PLACES = _o.add(
    "trade_places", "a and b trade positions; damage, ward and modifiers travel", TradePlaces
)
TURN_FACE_DOWN = _o.add(
    "turn_face_down", "the target Wild turns face down and the face-down Wild turns up"
)
REPLACE = _o.add(
    "replace", "a new card enters the target's position at 0 damage; the old goes `to`", Replace
)
ESCAPE = _o.add("escape", "the target escapes now and is replaced (§4.3-4.4)")
OPS = tuple(word.name for word in _o)
TARGETED = {DAMAGE, HEAL, WARD, MODIFY, USE_ACTION, TURN_FACE_DOWN, REPLACE, ESCAPE}
SINGLE_TARGET = {USE_ACTION, TURN_FACE_DOWN, REPLACE}
FACE_DOWN_OK = {DAMAGE, HEAL, REPLACE, ESCAPE}

# the compiled conditions' kinds are the condition words' codes
_c = VOCABULARY.conditions
C_ACTOR = _c.add("actor", "the event's actor matches (a match word)", Match)
C_SUBJECT = _c.add("subject", "a subject of the event matches (a match word)", Match)
C_PLAYER = _c.add(
    "player",
    "the event's player: controller | opponent | any",
    Literal["controller", "opponent", "any"],
)
C_TURN = _c.add(
    "turn", "whose turn: mine | not_mine (the controller's)", Literal["mine", "not_mine"]
)
C_AMOUNT = _c.add("amount_at_least", "the event's amount is at least n", int)
C_COMPARE = _c.add("compare", "{stat, of, op, value}: a stat of a creature or player", Compare)


# --------------------------------------------------------------------------------------------
# The compiled form (the `CardEffect` / `Step` dataclasses live in spec.py)


def compile_effect(
    raw: Any, card: int, card_id: str, file: str | None, line: int | None
) -> CardEffect:
    """Check one effect entry of card `card_id` and compile it (errors name file:line)."""
    context = f"card '{card_id}'"
    parsed = VOCABULARY.parse_effect(raw, context, file, line)
    assert parsed.trigger is not None  # parse_effect reads a top-level entry: it has `on:`
    entry = raw if isinstance(raw, LineMap) else line_map(raw, file, line)
    fields = parsed.fields
    if fields.role is None:
        raise fail(
            entry, (), f"{context}: the effect has no role", "add role: possessed | wild | defender"
        )
    trigger = TRIGGER_CODES[parsed.trigger]
    shape = TRIGGER_SHAPE[trigger]
    conditions = _conditions(parsed.conditions, entry, context, parsed.trigger, shape)
    steps = [_step(parsed, entry, context, parsed.trigger, shape)]
    then = entry.get("then")
    for k, item in enumerate(fields.then):
        item_line = then.item_lines[k] if isinstance(then, LineList) else entry.line
        if isinstance(item, dict):
            for key in ("on", "if", "role", "optional", "then"):
                if key in item:
                    node = (
                        item if isinstance(item, LineMap) else line_map(item, entry.file, item_line)
                    )
                    raise fail(
                        node,
                        (key,),
                        f"{context}: a 'then' step takes no '{key}'",
                        "write only do: <op> and its params",
                    )
        step = VOCABULARY.parse_step(item, context, entry.file, item_line)
        node = item if isinstance(item, LineMap) else line_map(item, entry.file, item_line)
        steps.append(_step(step, node, context, parsed.trigger, shape))
    return CardEffect(
        card=card,
        role=ROLES.index(fields.role),
        trigger=trigger,
        conditions=conditions,
        optional=fields.optional,
        steps=tuple(steps),
        value=0.0 if fields.value is None else float(fields.value),
        text=fields.text,
    )


def _conditions(
    checked: Mapping[str, Any], entry: LineMap, context: str, trigger: str, shape: tuple[Any, ...]
) -> tuple[tuple[int, ...], ...]:
    has_actor, subjects, has_player, has_amount = shape
    compiled: list[tuple[int, ...]] = []
    for name, value in checked.items():
        where = ("if", name)
        if name == "actor":
            if not has_actor:
                raise fail(
                    entry, where, f"{context}: trigger '{trigger}' has no actor", _lacking(trigger)
                )
            compiled.append((C_ACTOR, MATCHES.index(value)))
        elif name == "subject":
            if not subjects:
                raise fail(
                    entry,
                    where,
                    f"{context}: trigger '{trigger}' has no subject",
                    _lacking(trigger),
                )
            compiled.append((C_SUBJECT, MATCHES.index(value)))
        elif name == "player":
            if not has_player:
                raise fail(
                    entry, where, f"{context}: trigger '{trigger}' has no player", _lacking(trigger)
                )
            compiled.append((C_PLAYER, ("controller", "opponent", "any").index(value)))
        elif name == "turn":
            compiled.append((C_TURN, int(value == "mine")))
        elif name == "amount_at_least":
            if not has_amount:
                raise fail(
                    entry, where, f"{context}: trigger '{trigger}' has no amount", _lacking(trigger)
                )
            compiled.append((C_AMOUNT, int(value)))
        else:  # compare
            stat = STATS.index(value.stat)
            of = -1
            if stat in CREATURE_STATS:
                of = _single_creature(value.of, entry, (*where, "of"), context, trigger, shape)
            elif stat != DECK:
                of = _single_player(value.of, entry, (*where, "of"), context, shape)
            compiled.append((C_COMPARE, stat, of, COMPARISONS.index(value.op), value.value))
    return tuple(compiled)


def _step(
    parsed: Effect, entry: LineMap, context: str, trigger: str, shape: tuple[Any, ...]
) -> Step:
    op = OPS.index(parsed.op)
    params = parsed.params
    fields: dict[str, Any] = {"op": op}
    target = parsed.target
    if op in TARGETED:
        if target is None:
            raise fail(
                entry,
                ("do",),
                f"{context}: op '{parsed.op}' needs a target",
                "add target: <selector>",
            )
        code, choose = _creature_target(target, entry, "target", context, trigger, shape, op)
        fields["target"], fields["choose"] = code, choose
    elif target is not None:
        raise fail(entry, ("target",), f"{context}: op '{parsed.op}' takes no target", _op_hint(op))
    if op in (DAMAGE, HEAL, WARD):
        fields.update(_amount(params.amount, entry, context, trigger, shape))
    elif op == MODIFY:
        fields.update(
            stat=STATS.index(params.stat), amount=params.amount, stay=params.duration == "stay"
        )
    elif op in (DRAW, DISCARD):
        word = VOCABULARY.kind("player").resolve(
            params.player, entry.file, key_line(entry, "player"), context
        )
        player = PLAYERS.index(word.name)
        if player == OWNER and not shape[1]:
            raise fail(
                entry,
                ("player",),
                f"{context}: 'owner' needs a trigger with a subject",
                _lacking(trigger),
            )
        fields.update(player=player, count=params.count)
    elif op == USE_ACTION:
        fields["action"] = ACTIONS.index(params.action)
    elif op == TRADE_PLACES:
        a = VOCABULARY.parse_target(entry["a"], context, entry, "a")
        b = VOCABULARY.parse_target(entry["b"], context, entry, "b")
        fields["target"], fields["choose"] = _creature_target(
            a, entry, "a", context, trigger, shape, op
        )
        fields["b"], fields["b_choose"] = _creature_target(
            b, entry, "b", context, trigger, shape, op
        )
    elif op == REPLACE:
        fields.update(from_hand=params.source == "hand", to=DESTINATIONS.index(params.to))
    return Step(**fields)


def _creature_target(
    target: Target,
    entry: LineMap,
    key: str,
    context: str,
    trigger: str,
    shape: tuple[Any, ...],
    op: int,
) -> tuple[int, bool]:
    """(selector code, choose) for a creature param; single-target params refuse groups."""
    single = op in SINGLE_TARGET or op == TRADE_PLACES
    if target.selector == "choose":
        return CREATURES.index(target.params), True
    code = CREATURES.index(target.selector)
    if single and code in GROUP_ONLY:
        raise fail(
            entry,
            (key,),
            f"{context}: '{target.selector}' is a group, "
            f"but '{key}' of '{OPS[op]}' takes one creature",
            f"write {{choose: {target.selector}}}",
        )
    if code == FACE_DOWN_WILD and op not in FACE_DOWN_OK:
        raise fail(
            entry,
            (key,),
            f"{context}: 'face_down_wild' can only be damaged, healed, replaced "
            "or made to escape (R5)",
            "use another target",
        )
    _check_event_word(code, entry, (key,), context, trigger, shape, single)
    return code, False


def _check_event_word(
    code: int,
    entry: LineMap,
    where: tuple[Any, ...],
    context: str,
    trigger: str,
    shape: tuple[Any, ...],
    single: bool,
) -> None:
    if code == ACTOR and not shape[0]:
        raise fail(entry, where, f"{context}: trigger '{trigger}' has no actor", _lacking(trigger))
    if code == SUBJECT and not shape[1]:
        raise fail(
            entry, where, f"{context}: trigger '{trigger}' has no subject", _lacking(trigger)
        )
    if code == SUBJECT and single and shape[1] > 1:
        raise fail(
            entry,
            where,
            f"{context}: trigger '{trigger}' has two subjects, so 'subject' is not one creature",
            "write {choose: subject}",
        )


def _single_creature(
    word: str | None,
    entry: LineMap,
    where: tuple[Any, ...],
    context: str,
    trigger: str,
    shape: tuple[Any, ...],
) -> int:
    singles = [n for i, n in enumerate(CREATURES) if i not in GROUP_ONLY and i != FACE_DOWN_WILD]
    if word not in singles:
        raise fail(
            entry,
            where,
            f"{context}: 'of' must name one creature, not '{word}'",
            did_you_mean(str(word), singles),
        )
    code = CREATURES.index(word)
    _check_event_word(code, entry, where, context, trigger, shape, True)
    return code


def _single_player(
    word: str | None, entry: LineMap, where: tuple[Any, ...], context: str, shape: tuple[Any, ...]
) -> int:
    singles = [PLAYERS[i] for i in sorted(SINGLE_PLAYERS)]
    if word not in singles:
        raise fail(
            entry,
            where,
            f"{context}: 'of' must name one player, not '{word}'",
            did_you_mean(str(word), singles),
        )
    code = PLAYERS.index(word)
    if code == OWNER and not shape[1]:
        raise fail(
            entry,
            where,
            f"{context}: 'owner' needs a trigger with a subject",
            "use controller or turn_player",
        )
    return code


_STAT_AMOUNT = TypeAdapter(StatAmount)


def _amount(
    value: Any, entry: LineMap, context: str, trigger: str, shape: tuple[Any, ...]
) -> dict[str, Any]:
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise fail(
                entry,
                ("amount",),
                f"{context}: amount: must be 0 or more (got {value})",
                "raise the number",
            )
        return {"amount": value}
    if isinstance(value, dict):
        checked = validate_value(_STAT_AMOUNT, value, entry, "amount")
        of = CREATURES.index(checked.of)
        _check_event_word(of, entry, ("amount", "of"), context, trigger, shape, True)
        return {"amount_stat": STATS.index(checked.stat), "amount_of": of}
    raise fail(
        entry,
        ("amount",),
        f"{context}: amount: write a whole number or {{stat, of}} (got {value!r})",
        "e.g. amount: 2",
    )


def _lacking(trigger: str) -> str:
    has_actor, subjects, has_player, has_amount = TRIGGER_SHAPE[TRIGGER_CODES[trigger]]
    parts = [
        name
        for name, has in (
            ("actor", has_actor),
            ("subject", subjects),
            ("player", has_player),
            ("amount", has_amount),
        )
        if has
    ]
    return f"'{trigger}' has: {', '.join(parts) or 'no actor, subject, player or amount'}"


def _op_hint(op: int) -> str:
    return (
        "use player: <player>"
        if op in (DRAW, DISCARD)
        else "use a: and b:"
        if op == TRADE_PLACES
        else "remove it"
    )


# --------------------------------------------------------------------------------------------
# Reading the table: stats, positions, selectors, conditions


def might(t: Table, c: int) -> int:
    value = t.spec.might[t.kind[c]] + t.mod_might[c]
    return max(0, value)


def endure(t: Table, c: int) -> int:
    value = t.spec.endure[t.kind[c]] + t.mod_endure[c]
    return max(1, value)


def nurture(t: Table, c: int) -> int:
    value = t.spec.nurture[t.kind[c]] + t.mod_nurture[c]
    return max(0, value)


def live(t: Table, c: int, epoch: int) -> int:
    """The position of face-up creature `c` if it is still the same creature, else EMPTY."""
    if c < 0 or t.epoch[c] != epoch:
        return EMPTY
    try:
        pos = t.occ.index(c)
    except ValueError:
        return EMPTY
    return EMPTY if pos == t.ring_base + t.face_down else pos


def turn_order(t: Table) -> list[int]:
    """Remaining seats from the Turn Player on, in turn order."""
    n = t.seats
    start = t.turn_player
    removed = t.removed
    return [s % n for s in range(start, start + n) if not removed[s % n]]


def face_up_wilds(t: Table) -> list[int]:
    """Positions of the face-up Wilds, clockwise from the face-down Wild (R7 b)."""
    base, n, fd, occ = t.ring_base, t.ring, t.face_down, t.occ
    return [base + (fd + k) % n for k in range(1, n) if occ[base + (fd + k) % n] != EMPTY]


def scan_positions(t: Table) -> tuple[int, ...]:
    """The positions of the scan order (R7): the Possessed from the Turn Player in turn order,
    the face-up Wilds clockwise from the face-down one, the Defender, the Support. A position
    may be empty (the Support, a Possessed being refilled): callers skip those. Cached: it
    changes only with the Turn Player, the face-down Wild and the removals."""
    if t.face_down << 6 | t.turn_player << 3 | len(t.removal_order) != t.order_key:
        _reorder(t)
    return t.order


def scan_watchers(t: Table, mask: int) -> tuple[int, ...]:
    """The positions of the scan order whose role has some card with an effect on a trigger in
    `mask` (`Table.wakes`), in scan order: what a scan of a step with those triggers must look
    at. Most steps wake only one role (a turn's start only the Possessed, its end only the
    Defender), so the scan skips most of the table without looking."""
    if t.face_down << 6 | t.turn_player << 3 | len(t.removal_order) != t.order_key:
        _reorder(t)
    watchers = _WATCHERS[t.order_slot]
    found = watchers.get(mask)
    if found is None:
        woken = t.wakes
        role_of = t.role_of
        found = watchers[mask] = tuple(
            pos for pos in t.order if woken[EFFECT_ROLE[role_of[pos]]] & mask
        )
    return found


def _reorder(t: Table) -> None:
    """Set the scan order and its watchers' slot for the table's key (see scan_positions): the
    face-down Wild, the Turn Player (below 8) and the removals (at most 4) in one int; the
    removed seats join it after a removal."""
    key = t.face_down << 6 | t.turn_player << 3 | len(t.removal_order)
    memo: Any = key if not t.removal_order else (key, tuple(t.removed))
    orders = SHAPES[t.shape]
    known = orders.get(memo)
    if known is None:
        base, n, fd = t.ring_base, t.ring, t.face_down
        wilds = [base + (fd + k) % n for k in range(1, n)]
        known = orders[memo] = ((*turn_order(t), *wilds, t.defender, t.support), len(_WATCHERS))
        _WATCHERS.append({})
    t.order, t.order_slot = known
    t.order_key = key


# Pure functions' memos, shared by every game of a layout (rules.layout: a spec, a deck and a
# seat count give `Table.shape`), kept out of the table so that no copy ever writes into them:
# per shape, the scan orders met so far by order key, with their slot in _WATCHERS; per slot,
# a step's trigger mask -> the positions of that order whose role wakes on one of them.
SHAPES: list[dict[Any, tuple[tuple[int, ...], int]]] = []
_WATCHERS: list[dict[int, tuple[int, ...]]] = []


def role_wakes(effects: tuple[tuple[CardEffect | None, ...], ...]) -> tuple[int, int, int]:
    """Per effect role (Possessed, Wild, Defender), the bit mask of the triggers some card's
    effect in that role has (`Table.wakes`)."""
    wakes = [0, 0, 0]
    for card in effects:
        for role, effect in enumerate(card):
            if effect is not None:
                wakes[role] |= 1 << effect.trigger
    return wakes[0], wakes[1], wakes[2]


def creatures(
    t: Table, sel: int, me: int, my_epoch: int, ctrl: int, ev: tuple[Any, ...] | None
) -> list[int]:
    """The positions a creature selector names, face-up only but for face_down_wild (R5)."""
    occ = t.occ
    if sel == SELF:
        pos = live(t, me, my_epoch)
        return [pos] if pos != EMPTY else []
    if sel == EACH_WILD:
        return face_up_wilds(t)
    if sel == DEFENDER_SEL:
        return [t.defender]
    if sel == SUPPORT_SEL:
        return [t.support] if occ[t.support] != EMPTY else []
    if sel == OWN_POSSESSED:
        return [ctrl] if ctrl >= 0 and not t.removed[ctrl] and occ[ctrl] != EMPTY else []
    if sel == TURN_POSSESSED:
        return [t.turn_player] if occ[t.turn_player] != EMPTY else []
    if sel == ACTOR:
        if ev is None:
            return []
        actor = ev[3]
        pos = live(t, actor[0], actor[1])
        return [pos] if pos != EMPTY else []
    if sel == SUBJECT:
        if ev is None:
            return []
        out = []
        for who in (ev[4], ev[5]):
            pos = live(t, who[0], who[1])
            if pos != EMPTY:
                out.append(pos)
        return out
    if sel == EACH_POSSESSED:
        return [s for s in turn_order(t) if occ[s] != EMPTY]
    if sel == EACH_OTHER_POSSESSED:
        return [s for s in turn_order(t) if occ[s] != EMPTY and occ[s] != me]
    if sel == EACH_OPPONENT_POSSESSED:
        return [s for s in turn_order(t) if occ[s] != EMPTY and s != ctrl]
    if sel == ADJACENT_WILDS:
        pos = live(t, me, my_epoch)
        base, n = t.ring_base, t.ring
        if pos < base or pos >= base + n:
            return []
        i = pos - base
        near = {base + (i - 1) % n, base + (i + 1) % n}
        return [w for w in face_up_wilds(t) if w in near]
    if sel == EACH_CREATURE:
        return [pos for pos in scan_positions(t) if occ[pos] != EMPTY]
    if sel == FACE_DOWN_WILD:
        pos = t.ring_base + t.face_down
        return [pos] if occ[pos] != EMPTY else []
    raise ValueError(f"no creature selector {sel}")


def players(t: Table, sel: int, ctrl: int, ev: tuple[Any, ...] | None) -> list[int]:
    """The remaining seats a player selector names."""
    removed = t.removed
    if sel == CONTROLLER:
        return [ctrl] if ctrl >= 0 and not removed[ctrl] else []
    if sel == TURN_PLAYER:
        return [t.turn_player]
    if sel == EACH_PLAYER:
        return turn_order(t)
    if sel == EACH_OPPONENT:
        return [s for s in turn_order(t) if s != ctrl]
    # OWNER: of the subject Possessed
    if ev is None:
        return []
    for who in (ev[4], ev[5]):
        if who[2] == POSSESSED and who[3] >= 0 and not removed[who[3]]:
            return [who[3]]
    return []


def stat_of(
    t: Table, stat: int, of: int, me: int, my_epoch: int, ctrl: int, ev: tuple[Any, ...] | None
) -> int | None:
    """A creature's or player's stat for `compare` and `{stat, of}` amounts; None if absent."""
    if stat == DECK:
        return len(t.deck)
    if stat == HAND or stat == GLORY_STAT:
        seats = players(t, of, ctrl, ev)
        if not seats:
            return None
        return len(t.hands[seats[0]]) if stat == HAND else len(t.glory[seats[0]])
    found = creatures(t, of, me, my_epoch, ctrl, ev)
    if not found:
        return None
    c = t.occ[found[0]]
    if stat == MIGHT:
        return might(t, c)
    if stat == ENDURE:
        return endure(t, c)
    if stat == NURTURE:
        return nurture(t, c)
    if stat == DAMAGE_STAT:
        return t.damage[c]
    return endure(t, c) - t.damage[c]


def _matches(t: Table, word: int, who: tuple[int, int, int, int], me: int, ctrl: int) -> bool:
    c, epoch, role, owner = who
    if c < 0:
        return False
    if word == M_ANY:
        return True
    if word == M_SELF:
        return c == me and epoch == t.epoch[me]
    if word == M_OTHER:
        return not (c == me and epoch == t.epoch[me])
    if word == M_POSSESSED:
        return role == POSSESSED
    if word == M_OWN_POSSESSED:
        return role == POSSESSED and owner == ctrl
    if word == M_OPPONENT_POSSESSED:
        return role == POSSESSED and owner != ctrl
    if word == M_WILD:
        return role == WILD
    if word == M_ADJACENT_WILD:
        if role != WILD:
            return False
        a, b = live(t, c, epoch), live(t, me, t.epoch[me])
        base, n = t.ring_base, t.ring
        if not (base <= a < base + n and base <= b < base + n):
            return False
        return (a - b) % n in (1, n - 1)
    if word == M_DEFENDER:
        return role == 2
    return role == 3  # M_SUPPORT


def holds(
    t: Table, conditions: tuple[tuple[int, ...], ...], me: int, ctrl: int, ev: tuple[Any, ...]
) -> bool:
    """All of an effect's `if:` conditions hold for event `ev`, evaluated now (G7)."""
    for cond in conditions:
        kind = cond[0]
        if kind == C_ACTOR:
            if not _matches(t, cond[1], ev[3], me, ctrl):
                return False
        elif kind == C_SUBJECT:
            if not (_matches(t, cond[1], ev[4], me, ctrl) or _matches(t, cond[1], ev[5], me, ctrl)):
                return False
        elif kind == C_PLAYER:
            player = ev[1]
            if cond[1] == 0 and player != ctrl:
                return False
            if cond[1] == 1 and (player < 0 or player == ctrl):
                return False
        elif kind == C_TURN:
            if (ctrl == t.turn_player) != bool(cond[1]):
                return False
        elif kind == C_AMOUNT:
            if ev[2] < cond[1]:
                return False
        else:
            value = stat_of(t, cond[1], cond[2], me, t.epoch[me], ctrl, ev)
            if value is None or not compare(value, cond[3], cond[4]):
                return False
    return True


# --------------------------------------------------------------------------------------------
# The creature verbs every op and action is made of


def deal_damage(t: Table, pos: int, amount: int, source: int) -> int:
    """`amount` damage to the creature at `pos` from the creature at `source` (or EMPTY):
    ward absorbs first (§6.4); logs `damaged` when more than 0 lands. Returns what landed."""
    c = t.occ[pos]
    ward = t.ward[c]
    if ward:
        absorbed = min(amount, ward)
        t.own_rare()
        t.ward[c] = ward - absorbed
        amount -= absorbed
    if amount <= 0:
        return 0
    hurt = t.damage[c] = t.damage[c] + amount
    # it may escape: the next escape check looks (Table.dirty); `endure` written out (hurt > 0)
    if hurt >= t.spec.endure[t.kind[c]] + t.mod_endure[c]:
        t.dirty = True
    seat = source if 0 <= source < t.seats else -1  # only a Possessed is a player's creature
    t.last_hit[c] = seat
    if pos == t.defender and seat >= 0:  # G16: a seat's work on the Defender
        work = t.work
        t.work = (*work[:seat], work[seat] + amount, *work[seat + 1 :])
    record(t, DAMAGED, -1, amount, ref(t, source) if source != EMPTY else NO_CREATURE, ref(t, pos))
    return amount


def heal(t: Table, pos: int, amount: int, healer: int) -> int:
    """Remove min(amount, damage) from the creature at `pos`; logs `healed` when more than 0."""
    c = t.occ[pos]
    removed = min(amount, t.damage[c])
    if removed <= 0:
        return 0
    t.damage[c] -= removed
    record(t, HEALED, -1, removed, ref(t, healer) if healer != EMPTY else NO_CREATURE, ref(t, pos))
    return removed


def hand_cards(t: Table, seat: int) -> tuple[int, ...]:
    """The card ids in `seat`'s hand, each once, in hand order (copies are one choice)."""
    kind = t.kind
    cards = tuple([kind[c] for c in t.hands[seat]])
    if len(cards) > 1 and len(set(cards)) < len(cards):
        return tuple(dict.fromkeys(cards))
    return cards


def action_options(t: Table, pos: int, which: int = ACT_ANY) -> tuple[tuple[Any, ...], ...]:
    """The actions of the creature at `pos` (§4.2): attack; command of two neighbouring
    face-up Wilds (the face-down Wild breaks adjacency); soothe of itself or a face-up Wild."""
    options: list[tuple[Any, ...]] = []
    if which == ACT_ANY or which == ACT_ATTACK:
        options.append(("attack",))
    n, fd = t.ring, t.face_down
    if which == ACT_ANY or which == ACT_COMMAND:
        for i in range(n):
            j = (i + 1) % n
            if i != fd and j != fd:
                options.append(("command", i, j))
    if which == ACT_ANY or which == ACT_SOOTHE:
        options.append(("soothe", pos))
        base = t.ring_base
        for i in range(n):
            if i != fd and base + i != pos:
                options.append(("soothe", base + i))
    return tuple(options)


# --------------------------------------------------------------------------------------------
# Resolving a compiled step


def do_step(t: Table, index: int, chosen: tuple[int, ...]) -> None:
    """Run step `index` of the effect being resolved (`t.eff`). `chosen` holds the answers given
    so far to its choices, in order (a `choose` target, trade_places' b, replace's hand card); a
    missing one is asked for, with this step as the continuation. Empty selections skip (R2)."""
    me, my_epoch, effect, ev, fixed = t.eff  # type: ignore[misc]
    ctrl = fixed if fixed >= 0 else t.turn_player
    step = effect.steps[index]
    op = step.op
    given = iter(chosen)
    cont = (T_DO, index, chosen)
    defender = t.defender

    if op == TRADE_PLACES:
        if step.choose:
            a = next(given, None)
            if a is None:
                pool = [
                    p for p in creatures(t, step.target, me, my_epoch, ctrl, ev) if p < defender
                ]
                _choose(t, ctrl, pool, cont)
                return
        else:
            found = creatures(t, step.target, me, my_epoch, ctrl, ev)
            if not found:
                return
            a = found[0]
        if step.b_choose:
            b = next(given, None)
            if b is None:
                pool = [
                    p
                    for p in creatures(t, step.b, me, my_epoch, ctrl, ev)
                    if p != a and p < defender
                ]
                _choose(t, ctrl, pool, cont)
                return
        else:
            found = creatures(t, step.b, me, my_epoch, ctrl, ev)
            if not found:
                return
            b = found[0]
        if a != b and a < defender and b < defender:
            trade(t, a, b)
        return

    if op == DRAW:
        for seat in players(t, step.player, ctrl, ev):
            draw_cards(t, seat, step.count)
        return
    if op == DISCARD:
        for seat in reversed(players(t, step.player, ctrl, ev)):
            t.todo.append((T_DISCARD, seat, step.count))
        return

    if step.choose:
        target = next(given, None)
        if target is None:
            pool = creatures(t, step.target, me, my_epoch, ctrl, ev)
            if op == USE_ACTION:
                pool = [p for p in pool if p < defender]
            elif op == TURN_FACE_DOWN:
                pool = [p for p in pool if t.ring_base <= p < defender]
            _choose(t, ctrl, pool, cont)
            return
        targets = [target]
    else:
        targets = creatures(t, step.target, me, my_epoch, ctrl, ev)
        if not targets:
            return

    if op == DAMAGE or op == HEAL or op == WARD:
        amount = step.amount
        if step.amount_stat >= 0:
            value = stat_of(t, step.amount_stat, step.amount_of, me, my_epoch, ctrl, ev)
            if value is None:
                return
            amount = value
        source = live(t, me, my_epoch)
        card = t.kind[me]
        for pos in targets:
            if t.occ[pos] == EMPTY:
                continue
            if op == DAMAGE:
                landed = deal_damage(t, pos, amount, source)
                if landed:
                    counter(t, ctrl, card, K_EFFECT_DAMAGE, landed)
            elif op == HEAL:
                healed = heal(t, pos, amount, source)
                if healed:
                    counter(t, ctrl, card, K_EFFECT_HEALING, healed)
            elif amount > 0:
                t.own_rare()
                t.ward[t.occ[pos]] += amount
        return
    if op == MODIFY:
        t.own_rare()
        mods = (t.mod_might, t.mod_endure, t.mod_nurture)[step.stat]
        for pos in targets:
            c = t.occ[pos]
            mods[c] += step.amount
            if not step.stay:
                t.turn_mods.append((c, t.epoch[c], step.stat, step.amount))
        t.dirty = True
        return
    if op == ESCAPE:
        # the escape check collects these whatever their damage
        forced = tuple(p for p in targets if p != defender or t.spec.defender_escapes)
        if forced:
            t.todo.append((T_ESCAPE_CHECK, forced))
        return

    pos = targets[0]  # the single-target ops
    if op == USE_ACTION:
        if pos >= defender:
            return  # the Defender and the Support never act (G11)
        c = t.occ[pos]
        if step.action == ACT_ATTACK:
            t.todo.append((T_ACT, c, t.epoch[c], ("attack",)))
            return
        options = action_options(t, pos, step.action)
        if options:
            decider = pos if pos < t.seats else t.turn_player
            ask(t, decider, "effect_action", options, (T_ACT, c, t.epoch[c]))
        return
    if op == TURN_FACE_DOWN:
        if t.ring_base <= pos < defender and pos != t.ring_base + t.face_down:
            flip(t, pos - t.ring_base)
        return
    # REPLACE
    if step.from_hand:
        card = next(given, None)
        if card is None:
            options = tuple(("hand", k) for k in hand_cards(t, ctrl))
            if options:
                ask(t, ctrl, "effect_choice", options, cont)
            return
        new = take(t, ctrl, card)
    else:
        if not t.deck:
            return
        new = draw_top(t)
        if pos == t.ring_base + t.face_down:
            t.known[new] = 0  # enters face down, unseen (§3)
    old = leave(t, pos)
    if step.to == TO_HAND:
        to_hand(t, ctrl, old)
    elif step.to == TO_DECK_BOTTOM:
        to_deck_bottom(t, old)
    else:
        to_discard(t, old)
    enter(t, pos, new)


def _choose(t: Table, ctrl: int, pool: list[int], cont: tuple[Any, ...]) -> None:
    if pool:
        ask(t, ctrl, "effect_choice", tuple(("choose", p) for p in pool), cont)


def ask(t: Table, seat: int, kind: str, options: tuple[Any, ...], cont: tuple[Any, ...]) -> None:
    """Pose a decision whose answer is appended to `cont`; one option is taken at once (§4.6)."""
    if len(options) == 1:
        t.todo.append((*cont, options[0]))
        return
    flow.ask(t, Decision(seat, kind, options), cont)
