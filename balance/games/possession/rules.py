"""possession's rules: setup (§3), the turn (§4.1), actions (§4.2), escapes, refills and removal
(§4.3-4.5), the trigger queue (§6.5) and the end of the game (§8).

The game runs as tasks on `Table.todo` (see state.py). Each **step** (G6) is run by
`begin_chain`: the step's work, an escape check, a scan of the step's events into the queue, and
then `chain_next` resolves the queue's effects one by one, each a step of its own. Every decision
is posed by `ask` with the task that takes its answer, so play stops and resumes at any point.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from balance.core import flow
from balance.core.contract import OPENING, PLAYED, Decision, Result
from balance.core.errors import ConfigError
from balance.core.eventchain import EventLog
from balance.core.gamerng import GameRng
from balance.games.possession import heuristics
from balance.games.possession.effects import (
    EFFECT_ROLE,
    SHAPES,
    action_options,
    ask,
    deal_damage,
    do_step,
    endure,
    hand_cards,
    heal,
    holds,
    live,
    might,
    nurture,
    role_wakes,
    scan_watchers,
    turn_order,
)
from balance.games.possession.spec import (
    ATTACK,
    COMMAND,
    DAMAGED,
    DISCARDED,
    ESCAPED,
    GLORY,
    MAX_SEATS,
    MIN_SEATS,
    REMOVED,
    REPLACED,
    SOOTHE,
    TURN_END,
    TURN_START,
    PossessionSpec,
)
from balance.games.possession.spec import (
    PLAYED as PLAYED_TRIGGER,
)
from balance.games.possession.state import (
    CHECK,
    DEFENDER,
    EMPTY,
    G_CANCELLED,
    G_CHAIN_CAPPED,
    G_CHAINS,
    G_DEFENDER_ESCAPES,
    G_DROPPED,
    G_ESCAPES_POSSESSED,
    G_ESCAPES_SUPPORT,
    G_ESCAPES_WILD,
    G_MAX_CHAIN,
    G_REMOVALS,
    G_RETRIGGERED,
    G_ROUNDS,
    GAME_STATS,
    K_ATTACKS_SURVIVED,
    K_CANCELLED,
    K_ESCAPES,
    K_GLORY_YIELDED,
    K_RESOLVED,
    K_RETRIGGERED,
    K_TURNS_POSSESSED,
    NO_CREATURE,
    NS,
    POSSESSED,
    S_ATTACKS,
    S_COMMANDS,
    S_DAMAGE_TAKEN,
    S_DAMAGE_TO_DEFENDER,
    S_DISCARDS,
    S_DRAWS,
    S_DRAWS_SKIPPED,
    S_EXHAUSTION_DAMAGE,
    S_FINAL_HAND,
    S_FIRST_PLAYER,
    S_GLORY,
    S_PLACEMENT,
    S_PLAYS_POSSESSED,
    S_PLAYS_SUPPORT,
    S_PLAYS_WILD,
    S_POSSESSED_ESCAPES,
    S_POSSESSES,
    S_REFILL_CARDS,
    S_REMOVED_TURN,
    S_SOOTHES,
    SEAT_STATS,
    SUPPORT,
    T_ACT,
    T_ACTION_DO,
    T_ACTION_PHASE,
    T_CHAIN_NEXT,
    T_COUNTER,
    T_DISCARD,
    T_DISCARD_PICK,
    T_DO,
    T_DRAW_DO,
    T_DRAW_PHASE,
    T_EFFECT_GO,
    T_END_TURN,
    T_ENTER_P,
    T_ENTER_W,
    T_ESCAPE_CHECK,
    T_ESCAPE_GO,
    T_HAND_REPLACEMENT,
    T_OP,
    T_PLAY_DO,
    T_PLAY_PHASE,
    T_REFILL_D,
    T_REFILL_P,
    T_REFILL_S,
    T_REFILL_W,
    T_SCAN,
    T_STEP_END,
    T_SWAP_DO,
    T_SWAP_PHASE,
    T_TURN_END_STEP,
    T_TURN_START,
    TASKS,
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
    to_discard,
    to_hand,
    trade,
)

# The decisions of the turn itself (§4.6); every other kind is nested inside a step.
TURN_DECISIONS = frozenset({"draw", "play", "action", "swap"})
PHASES = ("turn_start", "draw", "play", "action", "swap", "turn_end")

DRAW_OR_SKIP = (("draw",), ("skip",))
USE_OR_SKIP = (("use",), ("skip",))
PASS = ("pass",)
DECK = ("deck",)
DECLINE = ("decline",)
DRAW_DO = (T_DRAW_DO,)
DRAWS = tuple(Decision(seat, "draw", DRAW_OR_SKIP) for seat in range(MAX_SEATS))  # per seat
PLAY_DO = (T_PLAY_DO,)
SWAP_DO = (T_SWAP_DO,)

# The phases of a turn as tasks, bottom of the stack first, so Draw runs first (§4.1).
TURN_TASKS = (
    (T_END_TURN,),
    (T_TURN_END_STEP,),
    (T_SWAP_PHASE,),
    (T_ACTION_PHASE,),
    (T_PLAY_PHASE,),
    (T_DRAW_PHASE,),
)
STEP_END = (T_STEP_END,)  # the escape check, scan and queue that end every step (§6.5)
TURN_START_TASKS = (*TURN_TASKS, STEP_END)  # a turn's phases, then its turn_start step's end
SCAN = (T_SCAN,)
CHAIN_NEXT = (T_CHAIN_NEXT,)


class Possession(Table):
    """A game of possession: the table plus the contract (balance.core.contract.State)."""

    __slots__ = ()

    def decision(self) -> Any:
        return self.asking

    def apply(self, option: int) -> None:
        flow.resume(self, option, TASKS)

    def result(self) -> Result:
        return result_of(self)

    # the heuristic itself, not a method calling it: a search evaluates every copy it makes
    evaluate = heuristics.evaluate

    def describe(self, option: int) -> str:
        if self.asking is None:
            raise ValueError("no decision is pending")
        return describe_option(self, self.asking.options[option])

    def public_summary(self) -> str:
        return public_line(self)

    def option_twins(self) -> list[int] | None:
        """Per option of the pending decision, an earlier option sure to score the same once
        applied, else itself; None where none has a twin (soothe_twins: an action's Soothes
        of unhurt creatures; discard_twins: a Swap's discards that keep the same reach). A
        hint for the bots (balance/bots/greedy.py)."""
        asking = self.asking
        if asking is not None and asking.kind == "swap":
            return discard_twins(self)
        return soothe_twins(self)

    def preview(self, option: int) -> Possession:
        """A copy after `option`, with the nested choices that follow in this turn answered by
        the default policy (heuristics.default_option), up to the next turn decision."""
        copy = self.clone()
        copy.apply(option)
        turn = self.turn
        while (d := copy.asking) is not None and copy.turn == turn and d.kind not in TURN_DECISIONS:
            copy.apply(heuristics.default_option(copy, d))
        return copy


# --------------------------------------------------------------------------------------------
# Setup (§3)


def new_game(spec: PossessionSpec, lineup: Sequence[str], seed: int) -> Possession:
    """A game for `len(lineup)` players on the shared deck the lineup names, at its first
    decision."""
    t = deal(spec, lineup, seed)
    begin(t)
    return t


def deck_for(spec: PossessionSpec, lineup: Sequence[str]) -> str:
    """The shared deck of a lineup: the one name it repeats per seat, or `auto`, which is
    rules.deck, or default_deck[players] when that is `auto` too."""
    names = set(lineup)
    if len(names) != 1:
        raise ConfigError(
            None,
            None,
            f"possession's decks are shared, but the lineup names {sorted(names)}",
            "name one deck for every seat",
        )
    (name,) = names
    seats = len(lineup)
    if name == "auto":
        name = spec.deck if spec.deck != "auto" else spec.default_deck.get(seats, "")
        if not name:
            raise ConfigError(
                None, None, f"no default_deck for {seats} players", "add it to decks.yaml"
            )
    if name not in spec.catalog.decks:
        raise ConfigError(
            None, None, f"unknown deck '{name}'", f"known: {', '.join(sorted(spec.catalog.decks))}"
        )
    if seats not in spec.catalog.deck_seats.get(name, (seats,)):
        raise ConfigError(
            None,
            None,
            f"deck '{name}' is made for {spec.catalog.deck_seats[name]} players, not {seats}",
            "choose another deck or --seats",
        )
    return name


def deal(spec: PossessionSpec, lineup: Sequence[str], seed: int) -> Possession:
    """Setup (§3): shuffle the deck once, deal D, S, W0 face down, W1.., P0.., then the hands.
    The game is not started: `begin` runs it to its first decision."""
    seats = len(lineup)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ConfigError(
            None,
            None,
            f"possession is played by {MIN_SEATS}-{MAX_SEATS} players, not {seats}",
            "use --seats 2, 3 or 4",
        )
    cards, role_of, pos_effects, pos_wakes, wakes, weaker, shape = layout(
        spec, deck_for(spec, lineup), seats
    )
    kind = list(cards)
    rng = GameRng(seed)
    deck = list(range(len(kind)))
    rng.shuffle(deck)
    first = 0 if spec.first_player == "seat0" else rng.stream().randrange(seats)
    n = spec.wild_count
    defender = seats + n
    copies = len(kind)
    every = (1 << seats) - 1
    t = Possession(
        spec=spec,
        rng=rng,
        seats=seats,
        ring=n,
        ring_base=seats,
        defender=defender,
        support=defender + 1,
        role_of=role_of,
        every_seat=every,
        pos_effects=pos_effects,
        pos_wakes=pos_wakes,
        wakes=wakes,
        deck_size=len(kind) - spec.setup_size(seats),
        weaker=weaker,
        kind=kind,
        known=[0] * copies,
        deck=deck,
        hands=[[] for _ in range(seats)],
        occ=[EMPTY] * (defender + 2),
        face_down=0,
        discard=[],
        glory=[[] for _ in range(seats)],
        limbo=EMPTY,
        damage=[0] * copies,
        ward=[0] * copies,
        mod_might=[0] * copies,
        mod_endure=[0] * copies,
        mod_nurture=[0] * copies,
        epoch=[0] * copies,
        last_hit=[-1] * copies,
        work=(0,) * seats,
        turn_mods=[],
        rare_shared=False,
        removed=[False] * seats,
        removal_order=[],
        first_seat=first,
        turn_seat=first,
        turn_player=first,
        turn_cut=False,
        round=1,
        turn=0,
        exhausted=(0,) * seats,
        todo=[],
        asking=None,
        cont=(),
        step_events=[],
        step_mask=0,
        queue=[],
        chain_n=0,
        dirty=False,
        eff=None,
        order_key=-1,
        order=(),
        order_slot=-1,
        shape=shape,
        over=False,
        winners=(),
        end_reason="",
        capped=False,
        game_stats=[0] * len(GAME_STATS),
        seat_stats=[0] * (seats * NS),
        log=EventLog(),
        watch=None,
    )
    if len(deck) < spec.setup_size(seats):
        raise ConfigError(
            None,
            None,
            f"the deck holds {len(deck)} cards, setup deals {spec.setup_size(seats)}",
            "use a bigger deck",
        )
    for pos in (defender, defender + 1, *range(seats, seats + n), *range(seats)):
        c = deck.pop()
        t.occ[pos] = c
        t.known[c] = 0 if pos == seats else every  # W0 enters face down, unseen
    for seat in range(seats):
        for _ in range(spec.starting_hand):
            c = deck.pop()
            t.hands[seat].append(c)
            t.known[c] = 1 << seat
            t.log.append((0, seat, kind[c], OPENING, 1))
    t.seat_stats[first * NS + S_FIRST_PLAYER] = 1
    return t


Layout = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[Any, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[int, int, int],
    tuple[float, ...],
    int,
]

# What setup derives from the spec, the deck and the seat count alone, by (spec's id, deck,
# seats): a pure function's memo (each entry keeps its spec, so the id is never reused).
_LAYOUTS: dict[tuple[int, str, int], tuple[PossessionSpec, Layout]] = {}


def layout(spec: PossessionSpec, deck: str, seats: int) -> Layout:
    """The deck's card ids in copy order (copy -> card id, before the shuffle), the positions'
    roles, per position and card id its effect there (or None) and the bit of that effect's
    trigger (or 0), per effect role the triggers it wakes on (effects.role_wakes), per Might x
    the share of the deck's cards below x (Table.weaker), and its number for the memo of scan
    orders its games share (Table.shape)."""
    key = (id(spec), deck, seats)
    known = _LAYOUTS.get(key)
    if known is not None and known[0] is spec:
        return known[1]
    contents = spec.catalog.decks[deck]
    kind = tuple(card for card, copies in sorted(contents.items()) for _ in range(copies))
    role_of = (POSSESSED,) * seats + (WILD,) * spec.wild_count + (DEFENDER, SUPPORT)
    pos_effects = tuple(tuple(card[EFFECT_ROLE[role]] for card in spec.effects) for role in role_of)
    pos_wakes = tuple(
        tuple(0 if effect is None else 1 << effect.trigger for effect in effects)
        for effects in pos_effects
    )
    mights = sorted(spec.might[k] for k in kind)
    weaker = tuple(bisect_left(mights, x) / len(kind) for x in range(11))
    if len(_LAYOUTS) >= 64:
        _LAYOUTS.clear()
    SHAPES.append({})  # this layout's scan orders, filled as its games meet them
    made = _LAYOUTS[key] = (
        spec,
        (kind, role_of, pos_effects, pos_wakes, role_wakes(spec.effects), weaker, len(SHAPES) - 1),
    )
    return made[1]


def begin(t: Possession, phase: str = "turn_start") -> Possession:
    """Start the Turn Player's turn at `phase` (tests start later phases on a set-up table)."""
    if phase == "turn_start":
        t.todo.append((T_TURN_START,))
    else:
        new_turn(t)
        t.todo.extend(TURN_TASKS[: len(PHASES) + 1 - PHASES.index(phase)])
    flow.run(t, TASKS)  # to the first decision
    return t


# --------------------------------------------------------------------------------------------
# The turn (§4.1): turn_start, Draw, Play, Action, Swap, turn_end


def new_turn(t: Table) -> None:
    t.turn += 1
    t.turn_player = t.turn_seat
    t.turn_cut = False


def begin_chain(t: Table) -> None:
    """A new step whose trigger chain must resolve before the game moves on (§6.5)."""
    t.chain_n = 0
    t.todo.append(STEP_END)


def turn_start(t: Table, task: tuple[Any, ...]) -> None:
    new_turn(t)
    t.chain_n = 0  # begin_chain, its STEP_END pushed with the phases in one extend
    t.todo.extend(TURN_START_TASKS)
    record(t, TURN_START, t.turn_player)
    if not t.deck and t.spec.exhaustion:
        exhaust(t, t.turn_player)


def exhaust(t: Table, seat: int) -> None:
    """G15: a turn started with an empty deck costs the player's Possessed `exhaustion` times
    the number of that player's turns started so (1, 2, 3, ...); the damage has no source."""
    count = t.exhausted[seat] + 1
    t.exhausted = (*t.exhausted[:seat], count, *t.exhausted[seat + 1 :])
    if t.occ[seat] != EMPTY:
        landed = deal_damage(t, seat, t.spec.exhaustion * count, EMPTY)
        t.seat_stats[seat * NS + S_EXHAUSTION_DAMAGE] += landed


def draw_phase(t: Table, task: tuple[Any, ...]) -> None:
    """R20: with fewer than `draw_below` cards and a deck, the player may draw."""
    seat = t.turn_player
    if not t.turn_cut and len(t.hands[seat]) < t.spec.draw_below and t.deck:
        flow.ask(t, DRAWS[seat], DRAW_DO)


def draw_do(t: Table, task: tuple[Any, ...]) -> None:
    seat = t.turn_player
    if task[1][0] == "draw":
        t.seat_stats[seat * NS + S_DRAWS] += 1
        begin_chain(t)
        draw_cards(t, seat, t.spec.draw_count)
    else:
        t.seat_stats[seat * NS + S_DRAWS_SKIPPED] += 1


# The turn's decisions depend only on the table's shape, the seat, the face-down Wild and the
# card ids in hand, so each is built once and shared by every game and copy that meets it again
# (a pure function's memo: what it holds never depends on a game's history).
_DECISIONS: dict[tuple[Any, ...], Decision] = {}
_MEMO_LIMIT = 200_000


def _remember(key: tuple[Any, ...], decision: Decision) -> Decision:
    if len(_DECISIONS) >= _MEMO_LIMIT:
        _DECISIONS.clear()
    _DECISIONS[key] = decision
    return decision


def play_phase(t: Table, task: tuple[Any, ...]) -> None:
    """R21: with a card in hand, the player may play it over S, a face-up Wild or their P."""
    seat = t.turn_player
    if not t.turn_cut and t.hands[seat]:
        cards = hand_cards(t, seat)
        key = ("play", seat, t.face_down, t.ring, t.ring_base, cards)
        decision = _DECISIONS.get(key)
        if decision is None:  # pass + at least 3 places: always a choice
            decision = _remember(key, Decision(seat, "play", play_options(t, seat, cards)))
        flow.ask(t, decision, PLAY_DO)


def play_options(
    t: Table, seat: int, cards: tuple[int, ...] | None = None
) -> tuple[tuple[Any, ...], ...]:
    if cards is None:
        cards = hand_cards(t, seat)
    base, fd = t.ring_base, t.face_down
    places = [seat, *(base + i for i in range(t.ring) if i != fd), t.support]
    return (PASS, *(("play", pos, card) for pos in places for card in cards))


def play_do(t: Table, task: tuple[Any, ...]) -> None:
    option = task[1]
    if option[0] == "play":
        begin_chain(t)
        play(t, t.turn_player, option[1], option[2])


def play(t: Table, seat: int, pos: int, card: int) -> None:
    """The card enters `pos` face up at 0 damage; the old one follows `replaced_card_to`."""
    c = take(t, seat, card)
    if t.occ[pos] != EMPTY:
        old = leave(t, pos)
        if t.spec.replaced_card_to == "hand":
            to_hand(t, seat, old)
        else:
            to_discard(t, old)
    t.occ[pos] = c
    t.known[c] = t.every_seat
    t.log.append((t.turn, seat, t.kind[c], PLAYED, 1))
    role = t.role_of[pos]
    stat = (
        S_PLAYS_POSSESSED
        if role == POSSESSED
        else S_PLAYS_WILD
        if role == WILD
        else S_PLAYS_SUPPORT
    )
    t.seat_stats[seat * NS + stat] += 1
    subject = ref(t, pos)
    record(t, PLAYED_TRIGGER, seat, 0, NO_CREATURE, subject)
    record(t, REPLACED, -1, 0, NO_CREATURE, subject)


def action_phase(t: Table, task: tuple[Any, ...]) -> None:
    """R22: the Turn Player's Possessed uses an action of their choice."""
    if t.turn_cut:
        return
    seat = t.turn_player
    c = t.occ[seat]
    key = ("action", seat, t.face_down, t.ring, t.ring_base)
    decision = _DECISIONS.get(key)
    if decision is None:  # attack and soothe itself at least: always a choice
        decision = _remember(key, Decision(seat, "action", action_options(t, seat)))
    flow.ask(t, decision, (T_ACTION_DO, c, t.epoch[c]))


def action_do(t: Table, task: tuple[Any, ...]) -> None:
    option = task[3]
    verb = option[0]
    stat = S_ATTACKS if verb == "attack" else S_COMMANDS if verb == "command" else S_SOOTHES
    t.seat_stats[t.turn_player * NS + stat] += 1
    begin_chain(t)
    act(t, task)


def swap_phase(t: Table, task: tuple[Any, ...]) -> None:
    """R23: discard a hand card, or possess a Wild not adjacent to the face-down Wild."""
    if not t.turn_cut:
        seat = t.turn_player
        cards = hand_cards(t, seat)
        key = ("swap", seat, t.face_down, t.ring, cards)
        decision = _DECISIONS.get(key)
        if decision is None:
            decision = _remember(key, Decision(seat, "swap", swap_options(t, seat, cards)))
        if len(decision.options) == 1:
            ask(t, seat, "swap", decision.options, SWAP_DO)
        else:
            flow.ask(t, decision, SWAP_DO)


def swap_options(
    t: Table, seat: int, cards: tuple[int, ...] | None = None
) -> tuple[tuple[Any, ...], ...]:
    if cards is None:
        cards = hand_cards(t, seat)
    n, fd = t.ring, t.face_down
    possess = [("possess", i) for i in range(n) if i != fd and (i - fd) % n not in (1, n - 1)]
    return (*(("discard", card) for card in cards), *possess)


def swap_do(t: Table, task: tuple[Any, ...]) -> None:
    option = task[1]
    seat = t.turn_player
    begin_chain(t)
    if option[0] == "discard":
        to_discard(t, take(t, seat, option[1]))
        t.seat_stats[seat * NS + S_DISCARDS] += 1
        record(t, DISCARDED, seat)
    else:
        possess(t, seat, option[1])


def possess(t: Table, seat: int, i: int) -> None:
    """The Possessed and Wild i trade places, then the former Possessed turns face down at i
    as the face-down Wild turns up (R23, G10); the new Possessed keeps its damage."""
    t.seat_stats[seat * NS + S_POSSESSES] += 1
    trade(t, seat, t.ring_base + i)
    flip(t, i)


def turn_end_step(t: Table, task: tuple[Any, ...]) -> None:
    """The turn_end step; in it the Defender wears (G17): it takes `defender_wear` damage,
    without a source."""
    if not t.turn_cut:
        begin_chain(t)
        record(t, TURN_END, t.turn_player)
        if t.spec.defender_wear:
            deal_damage(t, t.defender, t.spec.defender_wear, EMPTY)


def end_turn(t: Table, task: tuple[Any, ...]) -> None:
    """`turn` modifiers expire, the round cap is checked (§8), the next remaining seat plays."""
    if t.turn_mods:
        t.own_rare()
        epoch = t.epoch
        mods = (t.mod_might, t.mod_endure, t.mod_nurture)
        for c, when, stat, amount in t.turn_mods:
            if epoch[c] == when:
                mods[stat][c] -= amount
                t.dirty = True
        t.turn_mods.clear()
    occ, kind = t.occ, t.kind
    for seat in range(t.seats):
        if not t.removed[seat] and occ[seat] != EMPTY:
            counter(t, seat, kind[occ[seat]], K_TURNS_POSSESSED)
    following = t.turn_player if t.turn_cut else next_remaining(t, t.turn_seat)
    first, n = t.first_seat, t.seats
    if (following - first) % n <= (t.turn_seat - first) % n:  # the turn passes back: a round ends
        if t.round >= t.spec.max_rounds:
            finish_by_cap(t)
            return
        t.round += 1
    t.turn_seat = following
    t.todo.append((T_TURN_START,))


def next_remaining(t: Table, seat: int) -> int:
    n = t.seats
    for k in range(1, n + 1):
        s = (seat + k) % n
        if not t.removed[s]:
            return s
    return seat


# --------------------------------------------------------------------------------------------
# Actions (§4.2)


def act(t: Table, task: tuple[Any, ...]) -> None:
    """(T_ACT, copy, epoch, option): that creature acts, if it is still a P or face-up Wild."""
    pos = live(t, task[1], task[2])
    if pos == EMPTY or pos >= t.defender:
        return
    option = task[3]
    verb = option[0]
    if verb == "attack":
        attack(t, pos)
    elif verb == "command":
        command(t, pos, option[1], option[2])
    else:
        soothe(t, pos, option[1])


def attack(t: Table, pos: int) -> None:
    """R16: the actor deals its Might to D; after the escape check, D strikes back (G9)."""
    defender = t.defender
    d = t.occ[defender]
    c = t.occ[pos]
    record(t, ATTACK, -1, 0, ref(t, pos), ref(t, defender))
    t.todo.append((T_COUNTER, c, t.epoch[c], d, t.epoch[d]))
    t.todo.append(CHECK)
    landed = deal_damage(t, defender, might(t, c), pos)
    if pos < t.seats:
        t.seat_stats[pos * NS + S_DAMAGE_TO_DEFENDER] += landed


def strike_back(t: Table, task: tuple[Any, ...]) -> None:
    """Only the attacked card strikes back, and only if it is still the Defender (G9, R2)."""
    _, c, epoch, d, d_epoch = task
    defender = t.defender
    if t.occ[defender] != d or t.epoch[d] != d_epoch:
        return
    counter(t, t.turn_player, t.kind[d], K_ATTACKS_SURVIVED)
    pos = live(t, c, epoch)
    if pos == EMPTY:
        return
    landed = deal_damage(t, pos, might(t, d), defender)
    if pos < t.seats:
        t.seat_stats[pos * NS + S_DAMAGE_TAKEN] += landed
    t.todo.append(CHECK)


def command(t: Table, pos: int, i: int, j: int) -> None:
    """R17: two adjacent face-up Wilds trade places."""
    base = t.ring_base
    record(t, COMMAND, -1, 0, ref(t, pos), ref(t, base + i), ref(t, base + j))
    trade(t, base + i, base + j)


def soothe(t: Table, pos: int, target: int) -> None:
    """R18: heal the target by the actor's Nurture, then D heals its own Nurture (G11)."""
    record(t, SOOTHE, -1, 0, ref(t, pos), ref(t, target))
    heal(t, target, nurture(t, t.occ[pos]), pos)
    defender = t.defender
    heal(t, defender, nurture(t, t.occ[defender]), defender)


def soothe_twins(t: Table) -> list[int] | None:
    """For an action decision: each Soothe of an unhurt creature as the twin of the first one.

    The target heals nothing (`heal` logs nothing either), and the Defender's own heal is the
    same whichever the target, so the tables after two such Soothes differ only in the SOOTHE
    event naming the target; that event is read only by a creature whose effect triggers on
    Soothes (scan binds each effect to events of its own trigger). With none of them in the
    scan order, the game goes on identically, and the seat's values once applied are equal.
    None elsewhere, and where fewer than two Soothes are of unhurt creatures."""
    asking = t.asking
    if asking is None or asking.kind != "action":
        return None
    options = asking.options
    occ, damage = t.occ, t.damage
    first = -1
    twins: list[int] | None = None
    for k, option in enumerate(options):
        if option[0] != "soothe":
            continue
        c = occ[option[1]]
        if c == EMPTY or damage[c]:
            continue
        if first < 0:
            first = k
            continue
        if twins is None:
            if soothes_watched(t):
                return None
            twins = list(range(len(options)))
        twins[k] = first
    return twins


# The events between a discard and the next seat's first decision, where the Defender outlives
# its wear and nobody is exhausted: the discard, the turn's end, the wear's damage, the next
# turn's start.
AFTER_DISCARD = frozenset({DISCARDED, TURN_END, DAMAGED, TURN_START})
AFTER_DISCARD_MASK = sum(1 << trigger for trigger in AFTER_DISCARD)  # as a step mask


def discard_twins(t: Table) -> list[int] | None:
    """For a Swap decision: each discard as the twin of the first one that keeps the same
    highest Might in hand.

    After a discard the turn ends: the Defender wears (G17), the next seat's turn begins, and it
    decides next. On that way nothing reads which card went where the Defender outlives its
    wear (no escape, so no replacement from the hand), the deck is not empty (no exhaustion,
    G15) and no creature in the scan order has an effect on the events met (`AFTER_DISCARD`),
    so that no effect runs: the tables then differ only in the hand kept and the discard pile, and
    `evaluate` reads of the hand its size and, for its own seat, whether a card in it reaches
    the Defender (heuristics.glory_chances): the highest Might kept decides.

    Nor does that highest Might where the seat's Glory chances come out the same with either
    (heuristics.best_might_counts), read on this table: its look at the coming round is the
    one the table after the discard takes (the same seats in the same order, the next one to
    act first, from the same Defender's Endure left once worn), as long as nothing else of
    this turn's end changes what it reads: no `turn` modifier expires, and no ward on the
    Defender takes part of the wear (the damage it counts). Then every discard is the first's
    twin. None elsewhere, and where no two discards are twins."""
    asking = t.asking
    if asking is None or asking.kind != "swap":
        return None
    options = asking.options
    if len(options) < 3 or options[1][0] != "discard":  # fewer than two discards
        return None
    spec, occ, kind = t.spec, t.occ, t.kind
    d = occ[t.defender]
    if spec.defender_wear and endure(t, d) - t.damage[d] <= spec.defender_wear:
        return None
    if spec.exhaustion and not t.deck:
        return None
    wakes = t.pos_wakes
    for pos in scan_watchers(t, AFTER_DISCARD_MASK):
        c = occ[pos]
        if c >= 0 and wakes[pos][kind[c]] & AFTER_DISCARD_MASK:
            return None
    might = spec.might
    seat = asking.seat
    mights = sorted((might[kind[c]] for c in t.hands[seat]), reverse=True)
    top = mights[0]
    after_top = mights[1]  # two discards: two cards in hand at least
    if (
        after_top < top
        and not t.turn_mods
        and not t.ward[d]
        and not heuristics.best_might_counts(t, seat, top, after_top)
    ):
        after_top = top  # either best kept reads the same: every discard is the first's twin
    first: dict[int, int] = {}  # the highest Might kept -> the first discard keeping it
    twins = list(range(len(options)))
    discards = 0
    for k, option in enumerate(options):
        if option[0] != "discard":
            break  # the discards come first (swap_options)
        kept = after_top if might[option[1]] == top else top
        twins[k] = first.setdefault(kept, k)
        discards += 1
    return twins if len(first) < discards else None


SOOTHED = 1 << SOOTHE  # as a step mask


def soothes_watched(t: Table) -> bool:
    """Whether a creature in the scan order has an effect that triggers on Soothes."""
    kind, occ, wakes = t.kind, t.occ, t.pos_wakes
    for pos in scan_watchers(t, SOOTHED):
        c = occ[pos]
        if c >= 0 and wakes[pos][kind[c]] & SOOTHED:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Escapes (§4.3), refills (§4.4) and removal (§4.5)


def escape_check(t: Table, task: tuple[Any, ...]) -> None:
    """Collect every face-up creature at damage >= Endure (and those an `escape` op names);
    ask for a Defender replacement if none is sure to be left (§4.3 step 2); escape them."""
    forced = task[1]
    if not forced:
        if not t.dirty:
            return
        t.dirty = False
        if not _worn_out(t):
            return
    t.dirty = False
    occ, damage = t.occ, t.damage
    collected = []
    for seat in turn_order(t):
        c = occ[seat]
        if c != EMPTY and (damage[c] >= endure(t, c) or seat in forced):
            collected.append(seat)
    base, n, fd = t.ring_base, t.ring, t.face_down
    for k in range(n):
        pos = base + (fd + k) % n
        c = occ[pos]
        if c == EMPTY:
            continue
        if pos in forced or (k and damage[c] >= endure(t, c)):  # the face-down one only if named
            collected.append(pos)
    defender, support = t.defender, t.support
    c = occ[defender]
    if t.spec.defender_escapes and (damage[c] >= endure(t, c) or defender in forced):
        collected.append(defender)
    c = occ[support]
    if c != EMPTY and (damage[c] >= endure(t, c) or support in forced):
        collected.append(support)
    if not collected:
        return
    if defender in collected and (occ[support] == EMPTY or support in collected):
        lives = sum(1 for pos in collected if pos < defender)
        if len(t.deck) <= lives:  # no deck card is sure to be left for the Defender
            seat = t.turn_player
            cards = hand_cards(t, seat)
            if cards:
                options = (*(("hand", card) for card in cards), DECLINE)
                ask(t, seat, "defender_replacement", options, (T_ESCAPE_GO, tuple(collected)))
                return
            damage[occ[defender]] = 0  # no hand: the Defender drops to 0 damage and stays
            collected.remove(defender)
            if not collected:
                return
    escape(t, collected)


def _worn_out(t: Table) -> bool:
    """Whether any face-up creature's damage has reached its Endure: the quick look that spares
    the check its work when (as after most hits) nothing escapes."""
    occ, damage, kind, mod_endure = t.occ, t.damage, t.kind, t.mod_endure
    spec_endure = t.spec.endure
    down = occ[t.ring_base + t.face_down]  # a copy is at one position only: skip it by copy
    for c in occ:
        if (
            c >= 0
            and damage[c]
            and c != down
            and damage[c] >= max(1, spec_endure[kind[c]] + mod_endure[c])
        ):
            return True
    return False


def escape_go(t: Table, task: tuple[Any, ...]) -> None:
    collected = list(task[1])
    answer = task[2]
    if answer[0] == "decline":
        t.damage[t.occ[t.defender]] = 0
        collected.remove(t.defender)
        if not collected:
            return
    else:
        seat = t.turn_player
        t.limbo = take(t, seat, answer[1])
        t.seat_stats[seat * NS + S_REFILL_CARDS] += 1
    escape(t, collected)


def escape(t: Table, collected: list[int]) -> None:
    """All collected creatures escape together (§4.3 step 3), then refill in order (§4.4)."""
    gs = t.game_stats
    defender, support, base = t.defender, t.support, t.ring_base
    glory_seat, glory_card, glory_ref = -1, EMPTY, NO_CREATURE
    for pos in collected:
        c = t.occ[pos]
        who = ref(t, pos)
        record(t, ESCAPED, -1, 0, NO_CREATURE, who)
        owner = pos if pos < t.seats else t.turn_player
        counter(t, owner, t.kind[c], K_ESCAPES)
        if pos < base:
            gs[G_ESCAPES_POSSESSED] += 1
            t.seat_stats[pos * NS + S_POSSESSED_ESCAPES] += 1
        elif pos < defender:
            gs[G_ESCAPES_WILD] += 1
        elif pos == support:
            gs[G_ESCAPES_SUPPORT] += 1
        if pos == defender:
            glory_seat, glory_card, glory_ref = credited(t, c), c, who
        leave(t, pos)
        if pos == defender:
            t.own_rare()
            t.known[c] = t.every_seat
            t.glory[glory_seat].append(c)
        else:
            to_discard(t, c)
    if glory_seat >= 0:
        gs[G_DEFENDER_ESCAPES] += 1
        counter(t, glory_seat, t.kind[glory_card], K_GLORY_YIELDED)
        record(t, GLORY, glory_seat, 0, NO_CREATURE, glory_ref)
        goal = t.spec.glory_to_win
        if goal and len(t.glory[glory_seat]) >= goal:
            finish(t, (glory_seat,), "glory")
            return
    todo = t.todo
    t.dirty = True
    todo.append(CHECK)  # after the refills the check repeats (§4.4)
    if defender in collected or support in collected:
        todo.append((T_REFILL_S,))
    if defender in collected:
        todo.append((T_REFILL_D,))
    for pos in reversed(collected):
        if base <= pos < defender:
            todo.append((T_REFILL_W, pos - base))
    for pos in reversed(collected):
        if pos < base:
            todo.append((T_REFILL_P, pos))


def credited(t: Table, d: int) -> int:
    """Who gains the Glory for Defender `d`: under `most_damage` (G16) the remaining player
    whose Possessed dealt it the most damage since it became the Defender, a tie going to the
    one who dealt the final damage, else to the Turn Player, else to the first of the tied in
    turn order; under `damage_source` (G2) the owner of the Possessed that dealt the final
    damage; else, and under `turn_player`, the Turn Player."""
    rule = t.spec.glory_credit
    if rule == "turn_player":
        return t.turn_player
    final = t.last_hit[d]
    if final >= 0 and t.removed[final]:
        final = -1
    if rule == "damage_source":
        return final if final >= 0 else t.turn_player
    work = t.work
    seats = turn_order(t)  # the remaining players, from the Turn Player on
    most = max(work[s] for s in seats)
    tied = [s for s in seats if work[s] == most]
    if len(tied) == 1:
        return tied[0]
    return final if final in tied else tied[0]  # the Turn Player is first of turn_order


def refill_possessed(t: Table, task: tuple[Any, ...]) -> None:
    """R12, R13: the owner refills from the deck or a hand card; with neither they are removed."""
    seat = task[1]
    if t.removed[seat] or t.occ[seat] != EMPTY:
        return
    options = (*((DECK,) if t.deck else ()), *(("hand", card) for card in hand_cards(t, seat)))
    if not options:
        remove(t, seat)
        return
    ask(t, seat, "possessed_replacement", options, (T_ENTER_P, seat))


def enter_possessed(t: Table, task: tuple[Any, ...]) -> None:
    seat, option = task[1], task[2]
    if option[0] == "deck":
        c = draw_top(t)
    else:
        c = take(t, seat, option[1])
        t.seat_stats[seat * NS + S_REFILL_CARDS] += 1
    enter(t, seat, c)


def refill_wild(t: Table, task: tuple[Any, ...]) -> None:
    """The deck top refills a Wild (face down, unseen, in the face-down slot); with an empty deck
    the Turn Player must place a hand card (R13, G5), then the next players (R14)."""
    i = task[1]
    pos = t.ring_base + i
    if t.occ[pos] != EMPTY:
        return
    if t.deck:
        c = draw_top(t)
        if i == t.face_down:
            t.known[c] = 0
        enter(t, pos, c)
        return
    t.todo.append((T_HAND_REPLACEMENT, i, t.turn_player))


def hand_replacement(t: Table, task: tuple[Any, ...]) -> None:
    i, seat = task[1], task[2]
    if t.removed[seat]:
        seat = next_remaining(t, seat)
    cards = hand_cards(t, seat)
    if cards:
        ask(
            t,
            seat,
            "hand_replacement",
            tuple(("hand", card) for card in cards),
            (T_ENTER_W, i, seat),
        )
        return
    following = next_remaining(t, seat)
    remove(t, seat)
    if not t.over:
        t.todo.append((T_HAND_REPLACEMENT, i, following))


def enter_wild(t: Table, task: tuple[Any, ...]) -> None:
    i, seat, option = task[1], task[2], task[3]
    c = take(t, seat, option[1])
    t.seat_stats[seat * NS + S_REFILL_CARDS] += 1
    enter(t, t.ring_base + i, c)


def refill_defender(t: Table, task: tuple[Any, ...]) -> None:
    """S moves up, keeping its damage (G2); else the hand card chosen in §4.3 step 2; else the
    deck top (§4.3 step 2 makes sure one of them is there)."""
    defender, support = t.defender, t.support
    if t.occ[defender] != EMPTY:
        return
    if t.occ[support] != EMPTY:
        t.occ[defender] = t.occ[support]  # moving up cancels nothing (G8)
        t.occ[support] = EMPTY
        record(t, REPLACED, -1, 0, NO_CREATURE, ref(t, defender))
    elif t.limbo != EMPTY:
        c, t.limbo = t.limbo, EMPTY
        enter(t, defender, c)
    elif t.deck:
        enter(t, defender, draw_top(t))
    else:
        raise RuntimeError("no card is left to become the Defender")


def refill_support(t: Table, task: tuple[Any, ...]) -> None:
    """The deck top, or S stays empty until a Play fills it (G2)."""
    if t.occ[t.support] == EMPTY and t.deck:
        enter(t, t.support, draw_top(t))


def remove(t: Table, seat: int) -> None:
    """§4.5, G12: the player's hand and Possessed go to the discard pile, their pending triggers
    are cancelled (at their turn in the queue), and the last player left wins."""
    t.own_rare()
    t.removed[seat] = True
    t.removal_order.append(seat)
    t.game_stats[G_REMOVALS] += 1
    t.seat_stats[seat * NS + S_REMOVED_TURN] = t.turn
    record(t, REMOVED, seat)
    hand = t.hands[seat]
    for c in hand:
        to_discard(t, c)
    hand.clear()
    if t.occ[seat] != EMPTY:
        to_discard(t, leave(t, seat))
    remaining = [s for s in range(t.seats) if not t.removed[s]]
    if len(remaining) == 1:
        finish(t, (remaining[0],), "elimination")
        return
    if seat == t.turn_player:
        t.turn_player = next_remaining(t, seat)
        t.turn_cut = True


# --------------------------------------------------------------------------------------------
# The trigger queue (§6.5)


def scan(t: Table, task: tuple[Any, ...]) -> None:
    """After a step: each creature in scan order (R7) binds its active effect to the last event
    of the step that matches its trigger and conditions (G7); a creature already waiting is
    re-queued (R10, `retrigger_position`). Most steps wake nobody: the loop only looks."""
    events = t.step_events
    if not events:
        return
    watch = t.watch
    if watch is not None:
        watch.append(("log", tuple(events)))
    mask = t.step_mask
    kind, occ, wakes = t.kind, t.occ, t.pos_wakes
    for pos in scan_watchers(t, mask):
        c = occ[pos]
        if c >= 0 and wakes[pos][kind[c]] & mask:  # c >= 0: not EMPTY
            bind(t, pos, c, t.pos_effects[pos][kind[c]], events)
    events.clear()
    t.step_mask = 0
    if watch is not None:
        watch.append(("queue", tuple((p[0], p[3]) for p in t.queue)))


def bind(t: Table, pos: int, c: int, effect: Any, events: list[tuple[Any, ...]]) -> None:
    """Creature `c` at `pos` binds `effect` to the step's last event that matches (G7), if any:
    queued, or re-queued if it is already waiting (R10)."""
    trigger, conditions = effect.trigger, effect.conditions
    ctrl = pos if pos < t.seats else t.turn_player
    bound = None
    for event in reversed(events):
        if event[0] == trigger and (not conditions or holds(t, conditions, c, ctrl, event)):
            bound = event
            break
    if bound is None:
        return
    now = t.epoch[c]
    pending = (c, now, effect, bound, pos if pos < t.seats else -1)
    queue = t.queue
    for k, waiting in enumerate(queue):
        if waiting[0] == c and waiting[1] == now:
            t.game_stats[G_RETRIGGERED] += 1
            counter(t, ctrl, effect.card, K_RETRIGGERED)
            if t.spec.retrigger_position == "keep":
                queue[k] = pending
            else:
                del queue[k]
                queue.append(pending)
            return
    queue.append(pending)


def chain_next(t: Table, task: tuple[Any, ...]) -> None:
    """Resolve the queue's next effect as a step of its own, unless its creature escaped, was
    replaced or turned face down since (R9), or the chain reached `max_chain` (G14)."""
    queue = t.queue
    if not queue:
        chain_done(t)
        return
    gs = t.game_stats
    if t.chain_n >= t.spec.max_chain:
        gs[G_CHAIN_CAPPED] += 1
        gs[G_DROPPED] += len(queue)
        queue.clear()
        chain_done(t)
        return
    pending = queue.pop(0)
    t.chain_n += 1
    todo = t.todo
    c, epoch, effect, _, owner = pending
    if t.epoch[c] != epoch or (owner >= 0 and t.removed[owner]):
        todo.append(CHAIN_NEXT)
        gs[G_CANCELLED] += 1
        counter(t, owner if owner >= 0 else t.turn_player, effect.card, K_CANCELLED)
        return
    todo.append(STEP_END)  # the resolution is a step of its own
    t.eff = pending
    if effect.optional:
        ask(
            t,
            owner if owner >= 0 else t.turn_player,
            "effect_optional",
            USE_OR_SKIP,
            (T_EFFECT_GO,),
        )
    else:
        resolve(t)


def step_end(t: Table, task: tuple[Any, ...]) -> None:
    """The end of a step: an escape check, a scan of the step's events into the queue, then the
    queue's next effect (§6.5), in that order. When the check has nothing to do (the common
    case) the three run here at once instead of as three tasks."""
    if t.dirty:
        todo = t.todo
        todo.append(CHAIN_NEXT)
        todo.append(SCAN)
        escape_check(t, CHECK)
        if t.asking is not None or t.over or todo[-1] is not SCAN:
            return  # escapes to resolve first: the scan and the queue wait on the stack
        todo.pop()
        todo.pop()
    if t.step_events:
        scan(t, task)
    if t.queue:
        chain_next(t, task)
    elif t.chain_n:  # chain_next's path for an empty queue (chain_done), without its calls
        chain_done(t)


def chain_done(t: Table) -> None:
    n = t.chain_n
    if n:
        gs = t.game_stats
        gs[G_CHAINS] += 1
        gs[G_MAX_CHAIN] = max(gs[G_MAX_CHAIN], n)
        t.chain_n = 0


def effect_go(t: Table, task: tuple[Any, ...]) -> None:
    if task[1][0] == "use":
        resolve(t)


def resolve(t: Table) -> None:
    _, _, effect, _, owner = t.eff  # type: ignore[misc]
    counter(t, owner if owner >= 0 else t.turn_player, effect.card, K_RESOLVED)
    op(t, (T_OP, 0))


def op(t: Table, task: tuple[Any, ...]) -> None:
    """Step `task[1]` of the resolving effect, then an escape check, then the next step."""
    index = task[1]
    _, _, effect, _, owner = t.eff  # type: ignore[misc]
    if owner >= 0 and t.removed[owner]:
        return  # its owner left the game: nobody is there to finish the effect (G12)
    todo = t.todo
    if index + 1 < len(effect.steps):
        todo.append((T_OP, index + 1))
    todo.append(CHECK)
    do_step(t, index, ())


def do(t: Table, task: tuple[Any, ...]) -> None:
    """(T_DO, index, chosen[, answer]): a step resumed with one more answer."""
    chosen = task[2]
    if len(task) > 3:
        chosen = (*chosen, task[3][1])
    do_step(t, task[1], chosen)


def discard_ask(t: Table, task: tuple[Any, ...]) -> None:
    """The `discard` op: the player picks each card (fewer if the hand is short)."""
    seat, count = task[1], task[2]
    if count <= 0 or t.removed[seat] or not t.hands[seat]:
        return
    options = tuple(("discard", card) for card in hand_cards(t, seat))
    ask(t, seat, "effect_discard", options, (T_DISCARD_PICK, seat, count))


def discard_pick(t: Table, task: tuple[Any, ...]) -> None:
    seat, count, option = task[1], task[2], task[3]
    to_discard(t, take(t, seat, option[1]))
    record(t, DISCARDED, seat)
    t.todo.append((T_DISCARD, seat, count - 1))


# --------------------------------------------------------------------------------------------
# The end (§8)


def finish(t: Table, winners: tuple[int, ...], reason: str, capped: bool = False) -> None:
    """The game ends now: pending decisions and the queue are dropped."""
    chain_done(t)
    t.over = True
    t.winners = winners
    t.end_reason = reason
    t.capped = capped
    t.todo.clear()
    t.queue.clear()
    t.asking = None


def finish_by_cap(t: Table) -> None:
    remaining = [s for s in range(t.seats) if not t.removed[s]]
    if t.spec.cap_result == "draw":
        finish(t, tuple(remaining), "cap", capped=True)
    else:
        finish(t, leaders(t, remaining), "cap", capped=True)


def tiebreak(t: Table, seat: int) -> tuple[int, int, int]:
    """§8: Glory, then hand size, then the Possessed's remaining Endure; higher ranks first."""
    c = t.occ[seat]
    left = endure(t, c) - t.damage[c] if c != EMPTY else 0
    return (len(t.glory[seat]), len(t.hands[seat]), left)


def leaders(t: Table, seats: list[int]) -> tuple[int, ...]:
    best = max(tiebreak(t, s) for s in seats)
    return tuple(s for s in seats if tiebreak(t, s) == best)


def placements(t: Table, winners: tuple[int, ...]) -> list[int]:
    """Winners first; the other remaining players by the tiebreak; then the removed players,
    a later removal ranking higher (§8)."""
    place = [0] * t.seats
    for s in winners:
        place[s] = 1
    rest = sorted(
        (s for s in range(t.seats) if not t.removed[s] and s not in winners),
        key=lambda s: tiebreak(t, s),
        reverse=True,
    )
    previous, rank = None, 0
    for k, s in enumerate(rest):
        key = tiebreak(t, s)
        if key != previous:
            previous, rank = key, len(winners) + 1 + k
        place[s] = rank
    following = len(winners) + len(rest) + 1
    for s in reversed(t.removal_order):
        place[s] = following
        following += 1
    return place


# Per seat, its statistics' names in Result.stats (`<name>_<seat>`), in SEAT_STATS order.
SEAT_KEYS = tuple(tuple(f"{name}_{seat}" for name in SEAT_STATS) for seat in range(MAX_SEATS))


def result_of(t: Table) -> Result:
    if t.over:
        winners, reason, capped = t.winners, t.end_reason, t.capped
    else:  # a game asked before its end: the standing as the cap would read it
        winners = leaders(t, [s for s in range(t.seats) if not t.removed[s]])
        reason, capped = "unfinished", False
    stats = {name: float(value) for name, value in zip(GAME_STATS, t.game_stats, strict=True)}
    stats[GAME_STATS.names[G_ROUNDS]] = float(t.round)
    place = placements(t, winners)
    for seat in range(t.seats):
        row = t.seat_stats[seat * NS : (seat + 1) * NS]
        row[S_GLORY] = len(t.glory[seat])
        row[S_PLACEMENT] = place[seat]
        row[S_FINAL_HAND] = len(t.hands[seat])
        for name, value in zip(SEAT_KEYS[seat], row, strict=True):
            stats[name] = float(value)
    return Result.shared(list(winners), t.seats, reason, t.turn, capped=capped, stats=stats)


# --------------------------------------------------------------------------------------------
# Words


def position_name(t: Table, pos: int) -> str:
    if pos < t.seats:
        return f"P{pos}"
    if pos < t.defender:
        return f"W{pos - t.ring_base}"
    return "D" if pos == t.defender else "S"


def describe_option(t: Table, option: tuple[Any, ...]) -> str:
    """An option in the game's words: `attack`, `soothe W3`, `play ember_imp on S`, ..."""
    names = t.spec.catalog.cards
    verb: str = option[0]
    if verb == "play":
        return f"play {names[option[2]]} on {position_name(t, option[1])}"
    if verb == "command":
        return f"command W{option[1]} W{option[2]}"
    if verb == "soothe" or verb == "choose":
        return f"{verb} {position_name(t, option[1])}"
    if verb == "possess":
        return f"possess W{option[1]}"
    if verb == "discard" or verb == "hand":
        return f"{verb} {names[option[1]]}"
    return verb


TASKS.bind(T_TURN_START, turn_start)
TASKS.bind(T_DRAW_PHASE, draw_phase)
TASKS.bind(T_DRAW_DO, draw_do)
TASKS.bind(T_PLAY_PHASE, play_phase)
TASKS.bind(T_PLAY_DO, play_do)
TASKS.bind(T_ACTION_PHASE, action_phase)
TASKS.bind(T_ACTION_DO, action_do)
TASKS.bind(T_SWAP_PHASE, swap_phase)
TASKS.bind(T_SWAP_DO, swap_do)
TASKS.bind(T_TURN_END_STEP, turn_end_step)
TASKS.bind(T_END_TURN, end_turn)
TASKS.bind(T_CHAIN_NEXT, chain_next)
TASKS.bind(T_SCAN, scan)
TASKS.bind(T_ESCAPE_CHECK, escape_check)
TASKS.bind(T_ESCAPE_GO, escape_go)
TASKS.bind(T_REFILL_P, refill_possessed)
TASKS.bind(T_ENTER_P, enter_possessed)
TASKS.bind(T_REFILL_W, refill_wild)
TASKS.bind(T_HAND_REPLACEMENT, hand_replacement)
TASKS.bind(T_ENTER_W, enter_wild)
TASKS.bind(T_REFILL_D, refill_defender)
TASKS.bind(T_REFILL_S, refill_support)
TASKS.bind(T_EFFECT_GO, effect_go)
TASKS.bind(T_OP, op)
TASKS.bind(T_DO, do)
TASKS.bind(T_ACT, act)
TASKS.bind(T_COUNTER, strike_back)
TASKS.bind(T_DISCARD, discard_ask)
TASKS.bind(T_DISCARD_PICK, discard_pick)
TASKS.bind(T_STEP_END, step_end)
TASKS.check()


ROLE_MARKS = {POSSESSED: "P", WILD: "W", DEFENDER: "D", SUPPORT: "S"}


def public_line(t: Table) -> str:
    """Whose turn; per seat its hand size, Glory and turns on an empty deck; the deck and discard
    sizes; then the ring, position by position: its role, its card (`?` while some seat does
    not know it) and the damage on it."""
    names = t.spec.catalog.cards
    seats = "; ".join(
        f"seat {s}: hand {len(t.hands[s])}, glory {len(t.glory[s])}, exhausted {t.exhausted[s]}"
        for s in range(t.seats)
    )
    ring = []
    for position, copy in enumerate(t.occ):
        role = ROLE_MARKS.get(t.role_of[position], "?")
        if copy == EMPTY:
            ring.append(f"{role}:-")
            continue
        card = names[t.kind[copy]] if t.known[copy] == t.every_seat else "?"
        hurt = f"-{t.damage[copy]}" if t.damage[copy] else ""
        ring.append(f"{role}:{card}{hurt}")
    return (
        f"seat {t.turn_seat}'s turn; {seats}; deck {len(t.deck)}, discard "
        f"{len(t.discard)}; ring [{' '.join(ring)}]"
    )
