"""clans' card text: the vocabulary of spec §6, its compiled form, and the code that resolves it.

A card's effects are entries `{on: <trigger>, do: <op>, ...params, target?, if?, optional?}`.
`VOCABULARY` declares every word (`balance vocab clans` prints it); `compile_entry` turns a checked
entry into an immutable `Entry` of ints and tuples; the functions below resolve entries on a
game state: selectors find cards, conditions are tested when an entry would resolve, and an op
either acts at once or pushes a task whose choices are decisions (spec §4 D4-D9).

"Controller" is the owner of the source card. Military totals and per-player rule values read
the active cards' `ongoing` entries continuously (G9), from the army summary (`Table.board`,
kept up to date by every army move) and the active special cards; nothing else is cached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from balance.core.codes import Names
from balance.core.contract import DRAWN as DRAWN_EVENT
from balance.core.contract import FIRST_COUNTER
from balance.core.effects import EQ, GE, GT, LE, LT, Vocabulary, compare
from balance.core.flow import Task
from balance.games.clans.spec import (
    ANY,
    BOTH,
    OPP,
    SELF,
    CardFilter,
    Entry,
    Selector,
)
from balance.games.clans.state import (
    CLAN_N,
    DISCARD,
    EMPTY,
    ENTRIES,
    FETCH,
    FREE_PLAY,
    LOST_CAPTURE,
    LOST_DESTROY,
    LOST_FLIP,
    MODDERS,
    NOBODY,
    POWER,
    ROW_N,
    TARGET,
    TOKENS_GAINED,
    VETERAN_MILITARY,
    Table,
    bump,
    draw,
    is_exposed,
    leave_play,
    reveal,
    set_status,
    set_tokens,
    to_discard,
    to_hand,
)

if TYPE_CHECKING:
    from balance.games.clans.spec import ClansSpec

# -- the words ------------------------------------------------------------------------------

Who = Literal["self", "opp"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class SelectorText(_Strict):
    """A target selector (spec §6): every field optional."""

    side: Literal["self", "opp", "any"] = "opp"
    row: Literal["troop", "hero", "immortal", "any"] = "any"
    clan: str | None = None  # a clan id, `this` or `other`
    state: Literal["active", "face_down", "captured", "any"] | None = None  # default: active
    exposed: bool | None = None
    token: Literal["has", "none"] | None = None
    max_military: int | None = None
    not_self: bool = False
    count: int = Field(1, ge=1)
    up_to: bool = False
    chooser: Literal["controller", "owner"] = "controller"
    this: bool = False


class CardFilterText(_Strict):
    clan: str | None = None  # a clan id, `this` or `other`
    level: int | None = Field(default=None, ge=1, le=3)  # by keyword: mypy reads it as optional
    name: str | None = None


class Amount(_Strict):
    n: int = Field(1, ge=1)


class DiscardParams(_Strict):
    who: Who = "opp"
    n: int | None = Field(None, ge=1)
    down_to: int | Literal["your_hand"] | None = None


class FetchParams(_Strict):
    source: Literal["discard", "deck"] = Field(alias="from")
    filter: CardFilterText = CardFilterText()
    n: int = Field(1, ge=1)


class DrainParams(_Strict):
    who: Who = "opp"
    n: int = Field(1, ge=1)


class FlipParams(_Strict):
    face: Literal["down", "up"]


class FreePlayParams(_Strict):
    filter: CardFilterText = CardFilterText()
    ignore_requirements: bool = False


class AddMilitaryParams(_Strict):
    n: int
    per: SelectorText | None = None
    who: Who = "self"


class RuleModParams(_Strict):
    param: Literal["hand_limit", "offclan_troop_cost", "shift_discount", "extra_turns_after_pass"]
    add: int | None = None
    set: int | None = None
    who: Literal["self", "opp", "both"] = "self"


class EntryFields(_Strict):
    optional: bool = False


class CountCondition(_Strict):
    selector: SelectorText
    min: int | None = None
    max: int | None = None


class HandCondition(_Strict):
    who: Who = "self"
    cmp: Literal["lt", "le", "eq", "ge", "gt"]
    value: int | Literal["opp"]


class Bounds(_Strict):
    min: int | None = None
    max: int | None = None


class CountNeeded(_Strict):
    min: int | str  # a number, or the name of a rules.yaml parameter


class WinIfText(_Strict):
    """A drafted clan's extra win condition (G18), clan data in decks.yaml."""

    captured_by_self: CountNeeded | None = None
    rows_equal: CountNeeded | None = None
    check: Literal["immediate", "end_of_turn"] = "immediate"


VOCABULARY = Vocabulary("clans", entry_fields=EntryFields, target_fields=SelectorText)
_t = VOCABULARY.triggers
PLAY = _t.add("play", "the card enters the army by Play a Card, Shift or free_play (R15, R16)")
ACTIVATE = _t.add("activate", "a token is placed on it (R17), or a `trigger` op names it")
VETERAN = _t.add("veteran", "Great Battle step 2, first player's army first, rows bottom-up (G15)")
ONGOING = _t.add("ongoing", "continuously while the card is active; only add_military and rule_mod")
_o = VOCABULARY.ops
DRAW = _o.add(
    "draw", "the controller draws n cards (an empty deck reshuffles the discard, G13)", Amount
)
DISCARD_OP = _o.add(
    "discard",
    "that player discards n cards, or down to a size, by choice (D6); public",
    DiscardParams,
)
FETCH_OP = _o.add(
    "fetch",
    "the controller takes up to n matching cards from deck or discard (D9), revealed",
    FetchParams,
)
GAIN_TOKEN = _o.add(
    "gain_token", "the controller owns and holds n more Activation Tokens, for good (G4)", Amount
)
DRAIN_TOKEN = _o.add("drain_token", "n of that player's held tokens become spent", DrainParams)
READY = _o.add("ready", "remove the token from an own card (target); it returns to held")
TRIGGER = _o.add("trigger", "resolve the target's activate entries without placing a token")
DESTROY = _o.add("destroy", "an exposed card goes to its owner's discard pile; its token is spent")
RETURN_TO_HAND = _o.add(
    "return_to_hand", "an exposed card goes to its owner's hand; its token is spent"
)
CAPTURE = _o.add(
    "capture", "an opponent's card is captured by the controller: inert, still supporting (G8)"
)
RELEASE = _o.add("release", "a captured card becomes active again, without its play entries")
FLIP = _o.add("flip", "turn the target face down (G7) or face up (no trigger)", FlipParams)
FREE_PLAY_OP = _o.add(
    "free_play", "play a matching hand card into a supported space at no cost (D8)", FreePlayParams
)
EXTRA_TURN = _o.add("extra_turn", "the controller takes another turn after this one (G12)")
ADD_MILITARY = _o.add(
    "add_military",
    "n (times the count of `per`) to that player's total: ongoing or veteran",
    AddMilitaryParams,
)
TAKE_WONDER = _o.add(
    "take_wonder", "the controller takes the Wonder Token, from the supply or the opponent"
)
RULE_MOD = _o.add(
    "rule_mod", "ongoing: change a per-player rule value while the source is active", RuleModParams
)
_s = VOCABULARY.selectors
_s.add("side", "whose cards: self, opp or any (default opp)", Literal["self", "opp", "any"])
_s.add("row", "troop, hero, immortal or any", Literal["troop", "hero", "immortal", "any"])
_s.add("clan", "a clan id, `this` (the source's clan) or `other`", str)
_s.add(
    "state",
    "active, face_down, captured or any (default active)",
    Literal["active", "face_down", "captured", "any"],
)
_s.add("exposed", "no card directly above (forced for destroy and return_to_hand)", bool)
_s.add("token", "has or none: an Activation Token on the card", Literal["has", "none"])
_s.add("max_military", "printed military at most this", int)
_s.add("not_self", "never the source card", bool)
_s.add("count", "how many cards to choose, one at a time (default 1)", int)
_s.add("up_to", "the chooser may stop early (a `none` option)", bool)
_s.add(
    "chooser",
    "who chooses: controller (default) or owner of the cards",
    Literal["controller", "owner"],
)
_s.add("this", "the source card itself", bool)
_c = VOCABULARY.conditions
C_COUNT = _c.add(
    "count", "{selector, min?, max?}: the number of matching cards in play", CountCondition
)
C_HAND = _c.add(
    "hand", "{who, cmp: lt|le|eq|ge|gt, value: int|opp}: a hand size compared", HandCondition
)
C_MILITARY = _c.add(
    "military",
    "behind, tied or ahead on current totals without Veteran",
    Literal["behind", "tied", "ahead"],
)
C_WONDER = _c.add(
    "wonder", "who holds the Wonder Token: self, opp or supply", Literal["self", "opp", "supply"]
)
C_SUPREMACY = _c.add(
    "supremacy", "behind, tied or ahead in Supremacy tokens", Literal["behind", "tied", "ahead"]
)
C_OPP_PASSED = _c.add("opp_passed", "whether the opponent has passed this round", bool)
C_TOKENS = _c.add("tokens_held", "{min?, max?}: the controller's held tokens", Bounds)
_k = VOCABULARY.kind("keyword")
_k.add("veteran", "the card has `on: veteran` entries (exactly then)")
_w = VOCABULARY.kind("win condition")
_w.add(
    "captured_by_self",
    "{min}: win while holding at least min captured opponent cards (Goan Sul)",
    CountNeeded,
)
_w.add(
    "rows_equal",
    "{min}: every row holds the same number of active cards, at least min (Justice)",
    CountNeeded,
)
_w.add(
    "check",
    "immediate (after every op and action) or end_of_turn (the owner's turn)",
    Literal["immediate", "end_of_turn"],
)

# -- the compiled form ----------------------------------------------------------------------

TRIGGERS = tuple(word.name for word in _t)  # a compiled entry's trigger and op: their codes
OPS = tuple(word.name for word in _o)
TARGETED = frozenset({READY, TRIGGER, DESTROY, RETURN_TO_HAND, CAPTURE, RELEASE, FLIP})

ACTIVE, FACE_DOWN, CAPTURED, ANY_STATE = range(4)
ANY_CLAN, THIS_CLAN, OTHER_CLAN = -1, -2, -3
CONTROLLER, OWNER = 0, 1
YOUR_HAND = -2  # discard down_to: the controller's hand size
HAND_LIMIT_REASON, EFFECT_REASON = 0, 1  # why a DISCARD task discards
OFFCLAN_REASON, SHIFT_REASON = 0, 1  # why a PAY task pays
ROWS = ("troop", "hero", "immortal")

# a compiled condition's kind is its word's code (C_COUNT ... above)
CMP = {"lt": LT, "le": LE, "eq": EQ, "ge": GE, "gt": GT}  # codes for core.effects.compare
STANDING = {"behind": -1, "tied": 0, "ahead": 1}

# the game's per-card counters: event FIRST_COUNTER + k (Catalog.counters)
COUNTERS = Names(FIRST_COUNTER)
SHIFTED_IN = COUNTERS.add("shifted_in")
SHIFTED_OUT = COUNTERS.add("shifted_out")
ACTIVATED = COUNTERS.add("activated")
CAPTURED_EVT = COUNTERS.add("captured")
DESTROYED = COUNTERS.add("destroyed")
FLIPPED_DOWN = COUNTERS.add("flipped_down")
SACRIFICED = COUNTERS.add("sacrificed")
IN_BATTLE = COUNTERS.add("battles")
MILITARY_IN_BATTLE = COUNTERS.add("battle_military")
NO_LEGAL_PLAY = COUNTERS.add("no_legal_play")


def compile_selector(text: SelectorText, op: int, clan_index: dict[str, int]) -> Selector:
    """A checked selector as ints; the op's forced fields applied (exposure for destroy and
    return_to_hand, the source never a target of ready and trigger, sensible default states)."""
    state = text.state
    if state is None:
        state = "captured" if op == RELEASE else "active"
    exposed = bool(text.exposed) or op in (DESTROY, RETURN_TO_HAND)
    return Selector(
        side={"self": SELF, "opp": OPP, "any": ANY}[text.side],
        row=-1 if text.row == "any" else ROWS.index(text.row),
        clan=_clan_code(text.clan, clan_index),
        state={"active": ACTIVE, "face_down": FACE_DOWN, "captured": CAPTURED, "any": ANY_STATE}[
            state
        ],
        exposed=exposed,
        token={None: -1, "none": 0, "has": 1}[text.token],
        max_military=-1 if text.max_military is None else text.max_military,
        not_self=text.not_self or op in (READY, TRIGGER),
        count=text.count,
        up_to=text.up_to,
        chooser=CONTROLLER if text.chooser == "controller" else OWNER,
        this=text.this,
        simple=state == "active"
        and not exposed
        and text.token is None
        and text.max_military is None
        and not (text.not_self or op in (READY, TRIGGER))
        and not text.this,
    )


def compile_filter(
    text: CardFilterText, clan_index: dict[str, int], card_of_name: dict[str, int]
) -> CardFilter:
    card = -1 if text.name is None else card_of_name[text.name]
    return CardFilter(_clan_code(text.clan, clan_index), text.level or 0, card)


def _clan_code(clan: str | None, clan_index: dict[str, int]) -> int:
    if clan is None:
        return ANY_CLAN
    if clan == "this":
        return THIS_CLAN
    if clan == "other":
        return OTHER_CLAN
    return clan_index[clan]


# -- reading the board ----------------------------------------------------------------------


def matching(
    g: Table, sel: Selector, controller: int, src: tuple[int, int, int, int]
) -> list[tuple[int, int]]:
    """The (seat, slot) of every card in play that `sel` names, seat by seat, slot by slot.

    `src` is the source card as (seat, slot, serial, card); a face-down or captured card has no
    clan and no military (G7, G8), so a clan filter never names it.
    """
    spec = g.spec
    width = spec.row_spaces
    found: list[tuple[int, int]] = []
    src_seat, src_slot, src_serial, src_card = src
    if sel.this:
        still_there = (
            g.grid[src_seat][src_slot] == src_card and g.serial[src_seat][src_slot] == src_serial
        )
        if still_there and _fits(g, sel, src_seat, src_slot, src_card, src_card, spec):
            found.append((src_seat, src_slot))
        return found
    sides = (controller,) if sel.side == SELF else (1 - controller,) if sel.side == OPP else (0, 1)
    if sel.row < 0:
        lo, hi = 0, spec.rows * width
    else:
        lo, hi = sel.row * width, sel.row * width + width
    for seat in sides:
        grid = g.grid[seat]
        for slot in range(lo, hi):
            card = grid[slot]
            if card == EMPTY:
                continue
            if (
                sel.not_self
                and seat == src_seat
                and slot == src_slot
                and g.serial[seat][slot] == src_serial
            ):
                continue
            if _fits(g, sel, seat, slot, card, src_card, spec):
                found.append((seat, slot))
    return found


def count_matching(g: Table, sel: Selector, controller: int, src: tuple[int, int, int, int]) -> int:
    """len(matching(...)), from the army summary when the selector is simple."""
    if not sel.simple:
        return len(matching(g, sel, controller, src))
    spec = g.spec
    board, stride = g.board, spec.board_stride
    clans = len(spec.clans)
    row, clan = sel.row, sel.clan
    rows = range(spec.rows) if row < 0 else (row,)
    if clan == THIS_CLAN or clan == OTHER_CLAN:
        this = spec.card_clan[src[3]]
    sides = (controller,) if sel.side == SELF else (1 - controller,) if sel.side == OPP else (0, 1)
    total = 0
    for seat in sides:
        base = seat * stride
        for r in rows:
            if clan == ANY_CLAN:
                total += board[base + ROW_N + r]
            elif clan == THIS_CLAN:
                total += board[base + CLAN_N + r * clans + this]
            elif clan == OTHER_CLAN:
                total += board[base + ROW_N + r] - board[base + CLAN_N + r * clans + this]
            else:
                total += board[base + CLAN_N + r * clans + clan]
    return total


def _fits(
    g: Table, sel: Selector, seat: int, slot: int, card: int, src_card: int, spec: ClansSpec
) -> bool:
    up = g.face_up[seat][slot]
    captured = g.captor[seat][slot] != NOBODY
    active = up and not captured
    state = sel.state
    if state == ACTIVE and not active:
        return False
    if state == FACE_DOWN and up:
        return False
    if state == CAPTURED and not captured:
        return False
    if sel.exposed and not is_exposed(g, seat, slot):
        return False
    if sel.token >= 0 and (g.tokens[seat][slot] > 0) != (sel.token == 1):
        return False
    if sel.clan != ANY_CLAN:
        if not active:
            return False
        clan = spec.card_clan[card]
        if sel.clan == THIS_CLAN:
            if clan != spec.card_clan[src_card]:
                return False
        elif sel.clan == OTHER_CLAN:
            if clan == spec.card_clan[src_card]:
                return False
        elif clan != sel.clan:
            return False
    return not (sel.max_military >= 0 and active and spec.card_military[card] > sel.max_military)


def holds(
    g: Table,
    conditions: tuple[tuple[Any, ...], ...],
    controller: int,
    src: tuple[int, int, int, int],
) -> bool:
    """Whether every condition of an entry holds now, for its controller."""
    opp = 1 - controller
    for cond in conditions:
        kind = cond[0]
        if kind == C_COUNT:
            n = count_matching(g, cond[1], controller, src)
            if (cond[2] is not None and n < cond[2]) or (cond[3] is not None and n > cond[3]):
                return False
        elif kind == C_HAND:
            size = len(g.hand[controller if cond[1] == SELF else opp])
            value = len(g.hand[opp]) if cond[3] is None else cond[3]
            if not compare(size, cond[2], value):
                return False
        elif kind == C_MILITARY:
            if _sign(military(g, controller) - military(g, opp)) != cond[1]:
                return False
        elif kind == C_WONDER:
            holder = cond[1]
            if (
                (holder == SELF and g.wonder != controller)
                or (holder == OPP and g.wonder != opp)
                or (holder == ANY and g.wonder != NOBODY)
            ):
                return False
        elif kind == C_SUPREMACY:
            if _sign(g.supremacy[controller] - g.supremacy[opp]) != cond[1]:
                return False
        elif kind == C_OPP_PASSED:
            if g.passed[opp] != cond[1]:
                return False
        elif kind == C_TOKENS:
            held = g.held[controller]
            if (cond[1] is not None and held < cond[1]) or (cond[2] is not None and held > cond[2]):
                return False
    return True


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def military(g: Table, seat: int) -> int:
    """`seat`'s current military total without Veteran (spec §6 Military): its active cards'
    military, the Immortal bonus, and every active `ongoing` add_military naming it."""
    spec = g.spec
    board, stride = g.board, spec.board_stride
    total = board[seat * stride + POWER]  # printed military and the Immortal bonus
    ongoing = spec.ongoing_military
    for owner in (0, 1):
        grid = g.grid[owner]
        for slot in g.special_slots[owner]:
            card = grid[slot]
            for entry in ongoing[card]:
                if (owner if entry.who == SELF else 1 - owner) != seat:
                    continue
                src = (owner, slot, g.serial[owner][slot], card)
                if entry.conditions and not holds(g, entry.conditions, owner, src):
                    continue
                total += entry.n * (count_matching(g, entry.per, owner, src) if entry.per else 1)
    return total


def player_rule(g: Table, seat: int, param: int) -> int:
    """A per-player rule value (hand_limit, offclan_troop_cost, shift_discount,
    extra_turns_after_pass): the flipped value, then active `ongoing` rule_mods naming `seat`,
    every `set` before every `add`; below 0 counts as 0."""
    spec = g.spec
    value = spec.rule_mod_base[param]
    board, stride = g.board, spec.board_stride
    if not board[MODDERS] and not board[stride + MODDERS]:
        return value
    mods = spec.ongoing_rule_mods
    adds = 0
    for owner in (0, 1):
        if not board[owner * stride + MODDERS]:
            continue  # none of its active cards modifies a rule
        grid = g.grid[owner]
        for slot in g.actives[owner]:  # its active cards, in slot order
            card = grid[slot]
            if not mods[card]:
                continue
            for entry in mods[card]:
                if entry.param != param:
                    continue
                if entry.who != BOTH and (owner if entry.who == SELF else 1 - owner) != seat:
                    continue
                src = (owner, slot, g.serial[owner][slot], card)
                if entry.conditions and not holds(g, entry.conditions, owner, src):
                    continue
                if entry.set_value is not None:
                    value = entry.set_value
                else:
                    adds += entry.n
    value += adds
    return max(0, value)


def fits_filter(spec: ClansSpec, flt: CardFilter, card: int, src_card: int) -> bool:
    if flt.card >= 0 and card != flt.card:
        return False
    if flt.level and spec.card_level[card] != flt.level:
        return False
    if flt.clan != ANY_CLAN:
        clan = spec.card_clan[card]
        if flt.clan == THIS_CLAN:
            return clan == spec.card_clan[src_card]
        if flt.clan == OTHER_CLAN:
            return clan != spec.card_clan[src_card]
        return clan == flt.clan
    return True


# -- resolving ------------------------------------------------------------------------------


def resolve_next(g: Table, task: Task) -> None:
    """Resolve the next entry of an ENTRIES task (taken off the stack to run).

    An entry whose condition is false, or whose op finds no target, does nothing (G20). Ops
    that need choices push their own task on top, so the next entry waits for them.
    """
    _, controller, seat, slot, serial, card, entries, index = task
    if index >= len(entries):
        return
    if index + 1 < len(entries):
        # The rest of the entries wait under whatever this one pushes. After the last entry
        # nothing waits: two cards that `trigger` each other loop on a flat stack rather than
        # one task deeper per trigger.
        g.todo.append((ENTRIES, controller, seat, slot, serial, card, entries, index + 1))
    entry: Entry = entries[index]
    src = (seat, slot, serial, card)
    if entry.conditions and not holds(g, entry.conditions, controller, src):
        return
    op = entry.op
    if op in TARGETED:
        target = entry.target
        assert target is not None  # cards.py refuses a TARGETED op without a target
        g.todo.append((TARGET, controller, seat, slot, serial, card, entry, target.count))
    elif op == DRAW:
        draw(g, controller, entry.n)
    elif op == DISCARD_OP:
        who = controller if entry.who == SELF else 1 - controller
        if entry.down_to == -1:
            left = entry.n
        else:
            size = len(g.hand[controller]) if entry.down_to == YOUR_HAND else entry.down_to
            left = len(g.hand[who]) - size
        if left > 0 and g.hand[who]:
            g.todo.append((DISCARD, who, left, EFFECT_REASON))
    elif op == FETCH_OP:
        g.todo.append((FETCH, controller, seat, slot, serial, card, entry, entry.n))
    elif op == GAIN_TOKEN:
        g.owned = bump(g.owned, controller, entry.n)
        g.held = bump(g.held, controller, entry.n)
        g.tally[TOKENS_GAINED * 2 + controller] += entry.n
    elif op == DRAIN_TOKEN:
        who = controller if entry.who == SELF else 1 - controller
        g.held = bump(g.held, who, -min(entry.n, g.held[who]))
    elif op == FREE_PLAY_OP:
        g.todo.append((FREE_PLAY, controller, seat, slot, serial, card, entry))
    elif op == EXTRA_TURN:
        g.extra = bump(g.extra, controller, 1)
    elif op == ADD_MILITARY:
        # Veteran only (ongoing entries are read continuously by `military`): this battle
        who = controller if entry.who == SELF else 1 - controller
        n = entry.n * (count_matching(g, entry.per, controller, src) if entry.per else 1)
        g.veteran_bonus = bump(g.veteran_bonus, who, n)
        g.tally[VETERAN_MILITARY * 2 + who] += n
    elif op == TAKE_WONDER:
        g.wonder = controller


def target_options(g: Table, task: Task) -> tuple[int, tuple[Any, ...]]:
    """The chooser and the (seat, slot) options of a TARGET task (no `none` added here)."""
    _, controller, seat, slot, serial, card, entry, _left = task
    sel: Selector = entry.target
    found = matching(g, sel, controller, (seat, slot, serial, card))
    if entry.op == TRIGGER:  # only a card with activate entries has anything to trigger
        activate = g.spec.on_activate
        found = [(s, t) for s, t in found if activate[g.grid[s][t]]]
    chooser = controller
    if sel.chooser == OWNER:
        chooser = controller if sel.side == SELF else 1 - controller
    return chooser, tuple(found)


def hit(g: Table, task: Task, seat: int, slot: int) -> None:
    """Apply a TARGET task's op to the chosen card (one of `count`, one at a time: the task
    with one fewer left waits under whatever the op pushes)."""
    _, controller, src_seat, src_slot, serial, src_card, entry, left = task
    if left > 1:
        g.todo.append((TARGET, controller, src_seat, src_slot, serial, src_card, entry, left - 1))
    op = entry.op
    card = g.grid[seat][slot]
    turn = g.turn
    if op == DESTROY:
        leave_play(g, seat, slot)
        to_discard(g, seat, card)
        g.log.append((turn, seat, card, DESTROYED, 1))
        g.tally[LOST_DESTROY * 2 + seat] += 1
    elif op == RETURN_TO_HAND:
        leave_play(g, seat, slot)
        to_hand(g, seat, card)
        reveal(g, seat, card)
        g.log.append((turn, seat, card, DRAWN_EVENT, 1))
    elif op == CAPTURE:
        set_status(g, seat, slot, g.face_up[seat][slot], controller)
        g.log.append((turn, seat, card, CAPTURED_EVT, 1))
        g.tally[LOST_CAPTURE * 2 + seat] += 1
    elif op == RELEASE:
        set_status(g, seat, slot, g.face_up[seat][slot], NOBODY)
    elif op == FLIP:
        if entry.face_up:
            set_status(g, seat, slot, True, g.captor[seat][slot])
        elif g.face_up[seat][slot]:
            set_status(g, seat, slot, False, g.captor[seat][slot])
            g.log.append((turn, seat, card, FLIPPED_DOWN, 1))
            g.tally[LOST_FLIP * 2 + seat] += 1
    elif op == READY:
        g.held = bump(g.held, seat, g.tokens[seat][slot])
        set_tokens(g, seat, slot, 0)
    elif op == TRIGGER:
        activate_entries(g, seat, slot)


def activate_entries(g: Table, seat: int, slot: int) -> None:
    """Resolve the card's `activate` entries (a token was placed on it, or `trigger` named it)."""
    card = g.grid[seat][slot]
    g.log.append((g.turn, seat, card, ACTIVATED, 1))
    entries = g.spec.on_activate[card]
    if entries:
        g.todo.append((ENTRIES, seat, seat, slot, g.serial[seat][slot], card, entries, 0))


def push_entries(g: Table, seat: int, slot: int, entries: tuple[Any, ...]) -> None:
    if entries:
        card = g.grid[seat][slot]
        g.todo.append((ENTRIES, seat, seat, slot, g.serial[seat][slot], card, entries, 0))
