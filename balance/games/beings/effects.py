"""beings' card vocabulary (spec §6) and the resolution of compiled skills.

A skill is a YAML entry `{on: <trigger>, timing?, cost?, do: <op>, target?, filter?, if?,
optional?, <op params>}`. `VOCABULARY` declares every word; cards.py compiles each entry once into
a `Skill`. A skill resolves as tasks on the kit's flow stack (the match's `todo`), so that a skill
that needs a choice (a target, yes/no, a card to pick, a location) waits as a pending decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from balance.core.contract import DRAWN
from balance.core.effects import Vocabulary
from balance.core.flow import Task
from balance.games.beings.spec import Skill
from balance.games.beings.state import (
    A_OPTIONAL,
    A_ORDER,
    A_PICK,
    A_REVIVE_LOC,
    A_TARGET,
    EFFECT,
    K_SKILLS,
    K_TIMES_DEFEATED,
    S_LOST,
    T_EFFECT,
    T_ORDER,
    T_PICK,
    T_REVIVE_LOC,
    TASKS,
    Being,
    Match,
    draw,
    from_hand,
    from_hand_at,
    gain_gems,
    leave_play,
    offer,
    own_abysses,
    own_being,
    power,
    to_hand,
)

if TYPE_CHECKING:
    from balance.games.beings.spec import BeingsSpec


class Filter(BaseModel):
    """Which Beings (or, for recover and revive, which cards) a skill may touch; every key must
    hold. Each field's description is what `balance vocab beings` prints."""

    model_config = ConfigDict(extra="forbid")
    level: int | None = Field(None, ge=1, description="the top card (or the card) has this level")
    max_level: int | None = Field(None, ge=1, description="level at most this")
    type: str | None = Field(None, description="the Being (or card) has this type")
    max_power: int | None = Field(
        None, description="power at most this (a Being: base + mods, unmultiplied; a card: printed)"
    )
    min_power: int | None = Field(None, description="power at least this")
    rested: bool | None = Field(None, description="Beings only: rested (true) or active (false)")
    in_reach: bool | None = Field(
        None, description="Beings only: its location is in reach of this Being's location"
    )


class EntryFields(BaseModel):
    """The keys of a skill entry besides on/do/target/if and the op's parameters."""

    model_config = ConfigDict(extra="forbid")
    timing: Literal["start", "end", "main"] | None = Field(
        None, description="turn skills: start (after refresh), end (when passing) or main"
    )
    cost: int | None = Field(None, ge=0, description="turn/main skills: gems paid on activation")
    optional: bool = Field(False, description="the controller is asked yes/no first")
    filter: Filter | None = Field(
        None, description="which Beings (or cards) the op may touch: see filters"
    )


class Amount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(1, ge=1)


class DiscardParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(1, ge=1)
    pick: Literal["owner", "random"] = "owner"


class GemParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(1, ge=1)
    state: Literal["active", "rested"] = "active"


class PowerParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int
    until: Literal["attack", "turn", "your_next_turn"] = "attack"


VOCABULARY = Vocabulary("beings", entry_fields=EntryFields)

_t = VOCABULARY.triggers
_t.add("play", "the card entered the field from hand (summoned, or evolved onto: see `via`)")
_t.add(
    "turn",
    "during its owner's turn while in play; timing: start (after refresh), end "
    "(when passing) or main (activated once per turn, optional gem cost)",
)
_t.add("attack", "this Being declared an attack (before the block)")
_t.add("block", "this Being was declared as the blocker")

_o = VOCABULARY.ops
DRAW = _o.add("draw", "target player draws n Being cards (fewer if the deck runs out)", Amount)
DISCARD = _o.add(
    "discard",
    "target player discards n hand cards to their Abyss (the owner picks, or at random)",
    DiscardParams,
)
GAIN_GEMS = _o.add("gain_gems", "target player moves n gems from gem deck to gem zone", GemParams)
READY_GEMS = _o.add("ready_gems", "target player turns up to n rested gems active", Amount)
POWER = _o.add(
    "power",
    "each target Being gets +n (or -n) power after the type multiplier, until the "
    "attack ends (outside an attack: the turn), the turn, or your next turn",
    PowerParams,
)
READY = _o.add("ready", "target Being becomes active (it still cannot attack twice in a turn)")
REST = _o.add("rest", "target Being becomes rested")
DEFEAT = _o.add(
    "defeat", "target Being's stack goes to its owner's Abyss; equipped gems return rested"
)
RECOVER = _o.add(
    "recover", "target player picks n cards matching `filter` from their Abyss into hand", Amount
)
REVIVE = _o.add(
    "revive",
    "controller picks a card matching `filter` from their Abyss and an empty own "
    "location: it enters as a one-card Being, active, with no play skill",
)

_s = VOCABULARY.selectors
SELF = _s.add("self", "this Being")
ME = _s.add("me", "this Being's owner (player ops)")
OPPONENT = _s.add("opponent", "the other player (player ops)")
ATTACKER = _s.add("attacker", "the attacking Being of the current attack")
DEFENDER = _s.add(
    "defender",
    "the defending Being of the current attack: the blocker, else the target "
    "Being (none for an unblocked life attack)",
)
ACROSS = _s.add("across", "the opposing Being at this location")
CHOOSE_OWN = _s.add("choose_own", "one own Being the controller picks (matching the filter)")
CHOOSE_OPP = _s.add("choose_opp", "one opposing Being the controller picks (matching the filter)")
ALL_OWN = _s.add("all_own", "every own Being (matching the filter)")
ALL_OPP = _s.add("all_opp", "every opposing Being (matching the filter)")

_c = VOCABULARY.conditions
C_MY_LIFE = _c.add("my_life_at_most", "the controller has at most n life cards", int)
C_OPP_LIFE = _c.add("opp_life_at_most", "the opponent has at most n life cards", int)
C_VIA = _c.add(
    "via",
    "play skills: the card came by summon (full cost) or by evolve",
    Literal["summon", "evolve"],
)
C_TARGET_KIND = _c.add(
    "target_kind",
    "attack and block skills: the attack targets life or a Being",
    Literal["life", "being"],
)
C_TYPE_ADVANTAGE = _c.add(
    "type_advantage", "the attacker's + contains the defending Being's type (false with none)", bool
)
C_DECK_EMPTY = _c.add("deck_empty", "the controller's Being deck is empty", bool)
C_ABYSS = _c.add("abyss_at_least", "the controller's Abyss holds at least n cards", int)
C_STACK = _c.add("stack_at_least", "this Being's stack holds at least n cards", int)
C_HAND = _c.add("hand_at_most", "the controller holds at most n cards", int)


def _declared(annotation: Any) -> Any:
    """`int | None` -> `int`: an optional key's type as a designer writes its value."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    return args[0] if len(args) == 1 else annotation


_e = VOCABULARY.kind("entry key")
for _name, _info in EntryFields.model_fields.items():
    _e.add(
        _name, _info.description or "", None if _name == "filter" else _declared(_info.annotation)
    )
_f = VOCABULARY.kind("filter")
for _name, _info in Filter.model_fields.items():
    _f.add(_name, _info.description or "", _declared(_info.annotation))

# -- compiled codes ------------------------------------------------------------------------------
PLAY, TURN_START, TURN_END, TURN_MAIN, ATTACK, BLOCK = range(6)
TRIGGER_CODES = {
    "play": PLAY,
    "start": TURN_START,
    "end": TURN_END,
    "main": TURN_MAIN,
    "attack": ATTACK,
    "block": BLOCK,
}
OP_CODES = _o.codes()
PLAYER_OPS = frozenset({DRAW, DISCARD, GAIN_GEMS, READY_GEMS, RECOVER})
BEING_OPS = frozenset({POWER, READY, REST, DEFEAT})
CARD_FILTER_OPS = frozenset({RECOVER, REVIVE})  # ops whose filter reads cards, not Beings
SELECTOR_CODES = _s.codes()
PLAYER_SELECTORS = frozenset({ME, OPPONENT})
UNTIL_ATTACK, UNTIL_TURN, UNTIL_NEXT = range(3)
UNTIL_CODES = {"attack": UNTIL_ATTACK, "turn": UNTIL_TURN, "your_next_turn": UNTIL_NEXT}
F_LEVEL, F_MAX_LEVEL, F_TYPE, F_MAX_POWER, F_MIN_POWER, F_RESTED, F_IN_REACH = range(7)
FILTER_CODES = {
    "level": F_LEVEL,
    "max_level": F_MAX_LEVEL,
    "type": F_TYPE,
    "max_power": F_MAX_POWER,
    "min_power": F_MIN_POWER,
    "rested": F_RESTED,
    "in_reach": F_IN_REACH,
}
CARD_FILTERS = frozenset({F_LEVEL, F_MAX_LEVEL, F_TYPE, F_MAX_POWER, F_MIN_POWER})
CONDITION_CODES = _c.codes()
VIA_NONE, VIA_SUMMON, VIA_EVOLVE = -1, 0, 1
KIND_LIFE, KIND_BEING = 0, 1


# -- the card effects on the flow's stack -----------------------------------------------------------
# A skill to resolve is a task (T_EFFECT, seat, loc, uid, skill, via); the choices it needs are
# asked with the task that takes the answer (state.A_*), which carries what the skill needs next.
YES_NO = (("yes",), ("no",))


def push_skills(m: Match, seat: int, loc: int, trigger: int, via: int = VIA_NONE) -> None:
    """Queue the top card's skills of `trigger` on the Being at (seat, loc), in listed order."""
    being = m.field[seat][loc]
    assert being is not None  # callers name the Being whose trigger fired
    skills = m.spec.triggers[being.stack[-1]][trigger]
    uid = being.uid
    todo = m.todo
    for skill in reversed(skills):
        todo.append((T_EFFECT, seat, loc, uid, skill, via))


def push_activation(m: Match, seat: int, loc: int, skill: Skill) -> None:
    """Queue one activated `turn/main` skill of the Being at (seat, loc)."""
    being = m.field[seat][loc]
    assert being is not None  # an activation comes from a Being in play
    m.todo.append((T_EFFECT, seat, loc, being.uid, skill, VIA_NONE))


def push_simultaneous(m: Match, seat: int, trigger: int) -> None:
    """G8: one player's simultaneous triggers resolve Left, Center, Right, or in the owner's
    chosen order (`trigger_order: choose`)."""
    spec = m.spec
    side = m.field[seat]
    sources = [
        (loc, b.uid)
        for loc, b in enumerate(side)
        if b is not None and spec.triggers[b.stack[-1]][trigger]
    ]
    if not sources:
        return
    if spec.trigger_order == "choose" and len(sources) > 1:
        m.todo.append((T_ORDER, seat, trigger, tuple(sources)))
        return
    for loc, _ in reversed(sources):
        push_skills(m, seat, loc, trigger)


def resolve_effect(m: Match, task: Task) -> None:
    """T_EFFECT: the skill resolves, or asks for the choice it needs first."""
    _, seat, loc, uid, skill, via = task
    being = m.field[seat][loc]
    if being is None or being.uid != uid:
        return  # a removed Being's pending entries are skipped
    if skill.conditions and not conditions_hold(m, seat, skill, via, being):
        return
    if skill.optional:
        offer(m, seat, "optional", EFFECT, YES_NO, (A_OPTIONAL, skill, seat, loc))
        return
    _perform(m, seat, loc, skill)


def answer_optional(m: Match, task: Task) -> None:
    _, skill, seat, loc, option = task
    if option[0] == "yes":
        _perform(m, seat, loc, skill)


def answer_target(m: Match, task: Task) -> None:
    _, skill, seat, option = task
    _count(m, seat, skill)
    _apply_to_being(m, seat, skill, option[1], m.spec.loc_index[option[2]])


def next_pick(m: Match, task: Task) -> None:
    """T_PICK: `who` picks the next card (DISCARD from the hand, RECOVER or REVIVE from the
    Abyss), while any is left to pick and any is eligible."""
    _, skill, who, left, seat = task
    if left <= 0:
        return
    if skill.op == DISCARD:
        pool = m.hands[who]
        eligible = pool
    else:
        pool = m.abysses[who]
        flt = skill.filter
        eligible = [c for c in pool if card_matches(m.spec, flt, c)] if flt else pool
    if not eligible:
        return
    # Abyss cards of one seat are distinct (one copy of each card per deck), hands too.
    options = tuple(("pick", card) for card in dict.fromkeys(eligible))
    offer(m, who, "pick_card", EFFECT, options, (A_PICK, skill, who, left, seat))


def answer_pick(m: Match, task: Task) -> None:
    _, skill, who, left, seat, option = task
    card = option[1]
    if skill.op == DISCARD:
        from_hand(m, who, card)
        own_abysses(m)[who].append(card)
    elif skill.op == RECOVER:
        own_abysses(m)[who].remove(card)
        to_hand(m, who, card)
        m.log.append((m.turn, who, card, DRAWN, 1))
    else:  # REVIVE: the card is chosen; the location comes next
        m.todo.append((T_REVIVE_LOC, seat, card))
        return
    m.todo.append((T_PICK, skill, who, left - 1, seat))


def ask_revive_loc(m: Match, task: Task) -> None:
    _, seat, card = task
    empty = _empty_locations(m, seat)
    if not empty:
        return
    names = m.spec.locations
    options = tuple(("revive_at", names[loc]) for loc in empty)
    offer(m, seat, "revive_loc", EFFECT, options, (A_REVIVE_LOC, seat, card))


def answer_revive_loc(m: Match, task: Task) -> None:
    _, seat, card, option = task
    revive(m, seat, card, m.spec.loc_index[option[1]])


def order_next(m: Match, task: Task) -> None:
    """T_ORDER: the owner picks which of the triggered Beings still in play resolves next."""
    _, seat, trigger, sources = task
    sources = tuple(
        [
            (loc, uid)
            for loc, uid in sources
            if (b := m.field[seat][loc]) is not None and b.uid == uid
        ]
    )
    if len(sources) <= 1:
        if sources:
            push_skills(m, seat, sources[0][0], trigger)
        return
    names = m.spec.locations
    options = tuple(("first", names[loc]) for loc, _ in sources)
    offer(m, seat, "order_triggers", EFFECT, options, (A_ORDER, seat, trigger, sources))


def answer_order(m: Match, task: Task) -> None:
    """The chosen Being's skills resolve, then the owner orders the rest."""
    _, seat, trigger, sources, option = task
    loc = m.spec.loc_index[option[1]]
    m.todo.append((T_ORDER, seat, trigger, tuple(s for s in sources if s[0] != loc)))
    if m.field[seat][loc] is not None:
        push_skills(m, seat, loc, trigger)


def _count(m: Match, seat: int, skill: Skill) -> None:
    m.log.append((m.turn, seat, skill.card, K_SKILLS, 1))


def _perform(m: Match, seat: int, here: int, skill: Skill) -> None:
    """Resolve the skill's op now, or ask for the choice it needs first."""
    op = skill.op
    if op in PLAYER_OPS:
        who = seat if skill.target == ME else 1 - seat
        if op == DRAW:
            _count(m, seat, skill)
            draw(m, who, skill.n)
        elif op == GAIN_GEMS:
            _count(m, seat, skill)
            gain_gems(m, who, skill.n, skill.active)
        elif op == READY_GEMS:
            _count(m, seat, skill)
            k = min(skill.n, m.gems_rested[who])
            m.gems_rested[who] -= k
            m.gems_active[who] += k
        elif op == DISCARD and skill.pick_random:
            _count(m, seat, skill)
            hand = m.hands[who]
            for _ in range(skill.n):
                if not hand:
                    break
                card = from_hand_at(m, who, m.rng.stream().randrange(len(hand)))
                own_abysses(m)[who].append(card)
        else:  # DISCARD picked by its owner, RECOVER: `who` picks n cards one at a time
            _count(m, seat, skill)
            next_pick(m, (T_PICK, skill, who, skill.n, seat))
        return
    if op == REVIVE:
        if not _empty_locations(m, seat):
            return
        _count(m, seat, skill)
        next_pick(m, (T_PICK, skill, seat, 1, seat))
        return
    target = skill.target
    if target == CHOOSE_OWN or target == CHOOSE_OPP:
        side = seat if target == CHOOSE_OWN else 1 - seat
        names = m.spec.locations
        options = tuple(
            ("target", side, names[loc])
            for loc, b in enumerate(m.field[side])
            if b is not None and being_matches(m, skill.filter, b, loc, here)
        )
        if not options:
            return
        offer(m, seat, "target", EFFECT, options, (A_TARGET, skill, seat))
        return
    targets = _chosen_targets(m, seat, here, skill)
    if targets:
        _count(m, seat, skill)
        for side, loc in targets:
            _apply_to_being(m, seat, skill, side, loc)


def _chosen_targets(m: Match, seat: int, here: int, skill: Skill) -> list[tuple[int, int]]:
    """The Beings a fixed selector names, filtered (a single target failing it: nothing)."""
    target = skill.target
    field = m.field
    found: list[tuple[int, int]] = []
    if target == SELF:
        found.append((seat, here))
    elif target == ACROSS:
        found.append((1 - seat, here))
    elif target == ATTACKER:
        a = m.attack
        if a is not None:
            found.append((a.seat, a.loc))
    elif target == DEFENDER:
        a = m.attack
        if a is not None and a.defending >= 0:
            found.append((1 - a.seat, a.defending))
    else:  # ALL_OWN, ALL_OPP
        side = seat if target == ALL_OWN else 1 - seat
        found.extend((side, loc) for loc in range(len(field[side])))
    a = m.attack
    kept = []
    for side, loc in found:
        being = field[side][loc]
        if being is None:
            continue
        if a is not None and target == ATTACKER and being.uid != a.uid:
            continue
        if a is not None and target == DEFENDER and being.uid != a.defending_uid:
            continue
        if skill.filter and not being_matches(m, skill.filter, being, loc, here):
            continue
        kept.append((side, loc))
    return kept


def _apply_to_being(m: Match, seat: int, skill: Skill, side: int, loc: int) -> None:
    being = m.field[side][loc]
    if being is None:
        return
    op = skill.op
    if op == POWER:
        until = skill.until
        if until == UNTIL_ATTACK and m.attack is None:
            until = UNTIL_TURN  # `attack` falls back to `turn` outside an attack
        own_being(m, side, loc).mods.append((skill.n, until, seat))
    elif op == READY:
        own_being(m, side, loc).rested = False
    elif op == REST:
        own_being(m, side, loc).rested = True
    elif op == DEFEAT:
        m.log.append((m.turn, side, being.stack[-1], K_TIMES_DEFEATED, 1))
        m.tally[side][S_LOST] += 1
        leave_play(m, side, loc)


def revive(m: Match, seat: int, card: int, loc: int) -> None:
    """The card leaves the Abyss as a one-card Being, active, `entered_turn` now; no play skill."""
    own_abysses(m)[seat].remove(card)
    being = Being(m.next_uid, card, m.spec.power[card], m.turn, m.token)
    m.next_uid += 1
    m.field[seat][loc] = being


def _empty_locations(m: Match, seat: int) -> list[int]:
    return [loc for loc, b in enumerate(m.field[seat]) if b is None]


# -- conditions and filters ----------------------------------------------------------------------


def conditions_hold(m: Match, seat: int, skill: Skill, via: int, being: Being) -> bool:
    """`if:` checked as the entry resolves: every condition must hold."""
    for code, value in skill.conditions:
        if code == C_MY_LIFE:
            ok = len(m.lives[seat]) <= value
        elif code == C_OPP_LIFE:
            ok = len(m.lives[1 - seat]) <= value
        elif code == C_VIA:
            ok = via == value
        elif code == C_TARGET_KIND:
            a = m.attack
            ok = a is not None and (KIND_LIFE if a.target < 0 else KIND_BEING) == value
        elif code == C_TYPE_ADVANTAGE:
            ok = type_advantage(m) == value
        elif code == C_DECK_EMPTY:
            ok = (not m.decks[seat]) == value
        elif code == C_ABYSS:
            ok = len(m.abysses[seat]) >= value
        elif code == C_STACK:
            ok = len(being.stack) >= value
        else:  # C_HAND
            ok = len(m.hands[seat]) <= value
        if not ok:
            return False
    return True


def type_advantage(m: Match) -> bool:
    """The attacker's + contains the current defending Being's type (false with none)."""
    a = m.attack
    if a is None or a.defending < 0:
        return False
    attacker = m.field[a.seat][a.loc]
    defending = m.field[1 - a.seat][a.defending]
    if attacker is None or defending is None:
        return False
    spec = m.spec
    return spec.type_of[defending.stack[-1]] in spec.strong[spec.type_of[attacker.stack[-1]]]


def being_matches(m: Match, flt: tuple[Any, ...], being: Being, loc: int, here: int) -> bool:
    spec = m.spec
    top = being.stack[-1]
    for code, value in flt:
        if code == F_LEVEL:
            ok = spec.level[top] == value
        elif code == F_MAX_LEVEL:
            ok = spec.level[top] <= value
        elif code == F_TYPE:
            ok = spec.type_of[top] == value
        elif code == F_MAX_POWER:
            ok = power(spec, being) <= value
        elif code == F_MIN_POWER:
            ok = power(spec, being) >= value
        elif code == F_RESTED:
            ok = being.rested == value
        else:  # F_IN_REACH
            ok = (loc in spec.reach[here]) == value
        if not ok:
            return False
    return True


def card_matches(spec: BeingsSpec, flt: tuple[Any, ...], card: int) -> bool:
    for code, value in flt:
        if code == F_LEVEL:
            ok = spec.level[card] == value
        elif code == F_MAX_LEVEL:
            ok = spec.level[card] <= value
        elif code == F_TYPE:
            ok = spec.type_of[card] == value
        elif code == F_MAX_POWER:
            ok = spec.power[card] <= value
        else:  # F_MIN_POWER (cards.py refuses Being-only filters on card ops)
            ok = spec.power[card] >= value
        if not ok:
            return False
    return True


TASKS.bind(T_EFFECT, resolve_effect)
TASKS.bind(A_OPTIONAL, answer_optional)
TASKS.bind(A_TARGET, answer_target)
TASKS.bind(T_PICK, next_pick)
TASKS.bind(A_PICK, answer_pick)
TASKS.bind(T_REVIVE_LOC, ask_revive_loc)
TASKS.bind(A_REVIVE_LOC, answer_revive_loc)
TASKS.bind(T_ORDER, order_next)
TASKS.bind(A_ORDER, answer_order)
