"""possession's state: the table's zones and counters, and the continuation of the current step.

Cards are physical copies `0..n-1` (a deck holds several copies of one card id); `kind[copy]`
names the card id. Creature state (damage, ward, modifiers, epoch) belongs to the copy, so it
travels with the card when creatures trade places, and the epoch (spec §3) tells a pending
trigger whether its creature is still the one that triggered (R9, G8).

Positions are integers: the Possessed `P0..P(n-1)` are `0..n-1` (seat = position), the ring
`W0..W(N-1)` is `ring_base + i`, then the Defender `defender` and the Support `support`.

The game runs on the kit's flow engine (balance/core/flow.py): `todo` is a stack of small task
tuples `(task, *args)` (the codes below), run until a decision is needed. A decision keeps its
continuation in `cont`; the chosen option is appended to it and pushed back. So a
`clone()` is a copy of plain lists and tuples, and a game resumes exactly where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any, Self

from balance.core.codes import Names
from balance.core.contract import DRAWN, FIRST_COUNTER, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Tasks
from balance.core.gamerng import GameRng, fast_shuffle
from balance.games.possession.spec import (
    DREW,
    REPLACED,
    TRADED,
    TURNED_FACE_DOWN,
    TURNED_FACE_UP,
)

if TYPE_CHECKING:
    from balance.games.possession.spec import PossessionSpec

EMPTY = -1  # a position without a card

# Roles of a position (an event records its creature's role as of logging, spec §6.1).
NO_ROLE, POSSESSED, WILD, DEFENDER, SUPPORT = -1, 0, 1, 2, 3
NO_CREATURE: tuple[int, int, int, int] = (EMPTY, 0, NO_ROLE, -1)  # (copy, epoch, role, owner)

# The game's task kinds (the kit's flow engine, balance/core/flow.py); rules.py binds their
# handlers, and effects pushes a few of them.
TASKS: Tasks[Table] = Tasks("possession")
T_TURN_START = TASKS.declare("turn_start")
T_DRAW_PHASE = TASKS.declare("draw_phase")
T_DRAW_DO = TASKS.declare("draw_do")
T_PLAY_PHASE = TASKS.declare("play_phase")
T_PLAY_DO = TASKS.declare("play_do")
T_ACTION_PHASE = TASKS.declare("action_phase")
T_ACTION_DO = TASKS.declare("action_do")
T_SWAP_PHASE = TASKS.declare("swap_phase")
T_SWAP_DO = TASKS.declare("swap_do")
T_TURN_END_STEP = TASKS.declare("turn_end_step")
T_END_TURN = TASKS.declare("end_turn")
T_CHAIN_NEXT = TASKS.declare("chain_next")
T_SCAN = TASKS.declare("scan")
T_ESCAPE_CHECK = TASKS.declare("escape_check")
T_ESCAPE_GO = TASKS.declare("escape_go")
T_REFILL_P = TASKS.declare("refill_p")
T_ENTER_P = TASKS.declare("enter_p")
T_REFILL_W = TASKS.declare("refill_w")
T_HAND_REPLACEMENT = TASKS.declare("hand_replacement")
T_ENTER_W = TASKS.declare("enter_w")
T_REFILL_D = TASKS.declare("refill_d")
T_REFILL_S = TASKS.declare("refill_s")
T_EFFECT_GO = TASKS.declare("effect_go")
T_OP = TASKS.declare("op")
T_DO = TASKS.declare("do")
T_ACT = TASKS.declare("act")
T_COUNTER = TASKS.declare("counter")
T_DISCARD = TASKS.declare("discard")
T_DISCARD_PICK = TASKS.declare("discard_pick")
T_STEP_END = TASKS.declare("step_end")

CHECK = (T_ESCAPE_CHECK, ())  # the escape check that follows every op and every step (§4.3)

# Game-level statistics (spec §9), in Result.stats under these names.
GAME_STATS = Names()
G_ROUNDS = GAME_STATS.add("rounds")
G_DEFENDER_ESCAPES = GAME_STATS.add("defender_escapes")
G_ESCAPES_POSSESSED = GAME_STATS.add("escapes_possessed")
G_ESCAPES_WILD = GAME_STATS.add("escapes_wild")
G_ESCAPES_SUPPORT = GAME_STATS.add("escapes_support")
G_REMOVALS = GAME_STATS.add("removals")
G_EMPTY_DECK_TURN = GAME_STATS.add("empty_deck_turn")
G_CHAINS = GAME_STATS.add("chains")
G_MAX_CHAIN = GAME_STATS.add("max_chain")
G_CANCELLED = GAME_STATS.add("cancelled")
G_RETRIGGERED = GAME_STATS.add("retriggered")
G_CHAIN_CAPPED = GAME_STATS.add("chain_capped")
G_DROPPED = GAME_STATS.add("dropped_triggers")

# Per-seat statistics (spec §9), in Result.stats as `<name>_<seat>`.
SEAT_STATS = Names()
S_GLORY = SEAT_STATS.add("glory")
S_PLACEMENT = SEAT_STATS.add("placement")
S_FIRST_PLAYER = SEAT_STATS.add("first_player")
S_REMOVED_TURN = SEAT_STATS.add("removed_turn")
S_FINAL_HAND = SEAT_STATS.add("final_hand")
S_DRAWS = SEAT_STATS.add("draws")
S_DRAWS_SKIPPED = SEAT_STATS.add("draws_skipped")
S_PLAYS_POSSESSED = SEAT_STATS.add("plays_possessed")
S_PLAYS_WILD = SEAT_STATS.add("plays_wild")
S_PLAYS_SUPPORT = SEAT_STATS.add("plays_support")
S_ATTACKS = SEAT_STATS.add("attacks")
S_COMMANDS = SEAT_STATS.add("commands")
S_SOOTHES = SEAT_STATS.add("soothes")
S_POSSESSES = SEAT_STATS.add("possesses")
S_DISCARDS = SEAT_STATS.add("discards")
S_DAMAGE_TO_DEFENDER = SEAT_STATS.add("damage_to_defender")
S_DAMAGE_TAKEN = SEAT_STATS.add("damage_taken")
S_POSSESSED_ESCAPES = SEAT_STATS.add("possessed_escapes")
S_REFILL_CARDS = SEAT_STATS.add("refill_cards")
S_EXHAUSTION_DAMAGE = SEAT_STATS.add("exhaustion_damage")
NS = len(SEAT_STATS)

# Per-card counters (Catalog.counters; event FIRST_COUNTER + k).
COUNTERS = Names()
K_TURNS_POSSESSED = COUNTERS.add("turns_possessed")
K_ESCAPES = COUNTERS.add("escapes")
K_GLORY_YIELDED = COUNTERS.add("glory_yielded")
K_ATTACKS_SURVIVED = COUNTERS.add("attacks_survived")
K_RESOLVED = COUNTERS.add("triggers_resolved")
K_CANCELLED = COUNTERS.add("triggers_cancelled")
K_RETRIGGERED = COUNTERS.add("triggers_retriggered")
K_EFFECT_DAMAGE = COUNTERS.add("effect_damage")
K_EFFECT_HEALING = COUNTERS.add("effect_healing")


@dataclass(slots=True)
class Table(Logged):
    """Everything on the table. Lists are owned by one state; tuples are shared freely. The
    rarely written lists (Glory piles, ward, modifiers, removals: `own_rare`) are shared with
    clones until one of them writes: every write to them goes through `own_rare` first."""

    spec: PossessionSpec
    # The game's own stream (the kit's GameRng, copied on first draw): setup shuffles the deck
    # and may draw the first player; play after setup never draws (spec §3).
    rng: GameRng
    seats: int
    ring: int  # N, the number of Wilds
    ring_base: int  # position of W0
    defender: int  # position of D
    support: int  # position of S
    role_of: tuple[int, ...]  # position -> POSSESSED | WILD | DEFENDER | SUPPORT
    every_seat: int  # the bit mask of all seats (a public card's `known`)
    pos_effects: tuple[tuple[Any, ...], ...]  # position -> card id -> its effect there, or None
    pos_wakes: tuple[tuple[int, ...], ...]  # position -> card id -> 1 << its effect's trigger, or 0
    # per effect role (Possessed, Wild, Defender): the triggers some card's effect there has
    # (effects.role_wakes), so a scan looks only at the roles a step's events can wake
    wakes: tuple[int, int, int]
    deck_size: int  # the deck after setup, for the bots' sense of how late it is
    weaker: tuple[float, ...]  # [x]: the share of the game's cards with Might below x (bots)

    # cards
    kind: list[int]  # copy -> card id; replaced (never changed in place) by determinize
    known: list[int]  # copy -> bit mask of the seats that know which card it is (§3)
    deck: list[int]  # top last; shuffled once, never reshuffled (G4)
    hands: list[list[int]]
    occ: list[int]  # position -> copy or EMPTY
    face_down: int  # ring index of the face-down Wild
    discard: list[int]
    glory: list[list[int]]  # per seat: the glory pile (escaped Defenders) (rare)
    limbo: int  # a hand card chosen to become the Defender (§4.3 step 2) until it enters

    # creatures, per copy
    damage: list[int]
    ward: list[int]  # (rare)
    mod_might: list[int]  # (rare)
    mod_endure: list[int]  # (rare)
    mod_nurture: list[int]  # (rare)
    epoch: list[int]
    last_hit: list[int]  # owner of the Possessed that dealt its latest damage, or -1
    # per seat: the damage its Possessed dealt the Defender since that card became the Defender
    # (G16, before heals); replaced, never changed in place, so clones share it
    work: tuple[int, ...]
    turn_mods: list[
        tuple[int, int, int, int]
    ]  # (copy, epoch, stat, amount) to undo at turn end (rare)
    rare_shared: bool  # the rare lists may be shared with a clone: copy them before writing

    # players and turns
    removed: list[bool]  # (rare)
    removal_order: list[int]  # (rare)
    first_seat: int
    turn_seat: int  # whose turn it is
    turn_player: int  # who makes the Turn Player's choices (G12: the next one after a removal)
    turn_cut: bool  # the Turn Player was removed: the turn ends with the current chain
    round: int
    turn: int
    # per seat: its turns started with an empty deck (G15); replaced, never changed in place
    exhausted: tuple[int, ...]

    # the continuation
    todo: list[tuple[Any, ...]]
    asking: Decision | None
    cont: tuple[Any, ...]  # the task that takes the answer to `asking`

    # the trigger queue (§6.5)
    step_events: list[tuple[Any, ...]]  # the current step's events
    step_mask: int  # bit per trigger present in `step_events`
    queue: list[tuple[Any, ...]]  # Pending(copy, epoch, effect, event, possessed owner or -1)
    chain_n: int  # effect resolutions in the current chain
    # A face-up creature may have reached its Endure since the last escape check: a hit that
    # reached the Endure of the creature it landed on, a change of Endure, a hurt Wild turning
    # up. Nothing else can bring a face-up creature there (a trade never moves the face-down
    # Wild: the loader keeps `face_down_wild` out of trade_places), so a check without it has
    # nothing to collect and returns at once.
    dirty: bool
    eff: tuple[Any, ...] | None  # the Pending being resolved
    order_key: int  # the Turn Player, face-down Wild and removals of `order` (effects._reorder)
    order: tuple[int, ...]  # the scan order's positions for that key (effects.scan_positions)
    order_slot: int  # where effects.scan_watchers keeps the watchers of `order`
    shape: int  # the layout's number (rules.layout): its scan orders' memo (effects.SHAPES)

    # the end
    over: bool
    winners: tuple[int, ...]
    end_reason: str
    capped: bool

    # statistics
    game_stats: list[int]
    seat_stats: list[int]  # seat * NS + k
    # The card events (contract.Event): log with `log.append`; a clone shares the
    # earlier ones as a frozen chain (the kit's EventLog), so copying costs nothing per event.
    log: EventLog
    watch: list[Any] | None  # tests set a list: each scan records ("log", events), ("queue", ...)

    def clone(self) -> Self:
        """An exact copy: lists copied, tuples shared, the RNG shared until one of them draws
        (`GameRng.fork`). `kind` is shared too: it is replaced, never changed in place, after setup."""
        copy = object.__new__(type(self))
        copy.spec = self.spec
        copy.rng = self.rng.fork()
        copy.seats = self.seats
        copy.ring = self.ring
        copy.ring_base = self.ring_base
        copy.defender = self.defender
        copy.support = self.support
        copy.role_of = self.role_of
        copy.every_seat = self.every_seat
        copy.pos_effects = self.pos_effects
        copy.pos_wakes = self.pos_wakes
        copy.wakes = self.wakes
        copy.deck_size = self.deck_size
        copy.weaker = self.weaker
        copy.kind = self.kind
        copy.known = self.known[:]
        copy.deck = self.deck[:]
        copy.hands = list(map(list.copy, self.hands))  # no comprehension frame (3.11)
        copy.occ = self.occ[:]
        copy.face_down = self.face_down
        copy.discard = self.discard[:]
        copy.glory = self.glory  # and the other rare lists: shared until written (own_rare)
        copy.limbo = self.limbo
        copy.damage = self.damage[:]
        copy.ward = self.ward
        copy.mod_might = self.mod_might
        copy.mod_endure = self.mod_endure
        copy.mod_nurture = self.mod_nurture
        copy.epoch = self.epoch[:]
        copy.last_hit = self.last_hit[:]
        copy.work = self.work
        copy.turn_mods = self.turn_mods
        self.rare_shared = copy.rare_shared = True
        copy.removed = self.removed
        copy.removal_order = self.removal_order
        copy.first_seat = self.first_seat
        copy.turn_seat = self.turn_seat
        copy.turn_player = self.turn_player
        copy.turn_cut = self.turn_cut
        copy.round = self.round
        copy.turn = self.turn
        copy.exhausted = self.exhausted
        copy.todo = self.todo[:]
        copy.asking = self.asking
        copy.cont = self.cont
        copy.step_events = self.step_events[:]
        copy.step_mask = self.step_mask
        copy.queue = self.queue[:]
        copy.chain_n = self.chain_n
        copy.dirty = self.dirty
        copy.eff = self.eff
        copy.order_key = self.order_key
        copy.order = self.order
        copy.order_slot = self.order_slot
        copy.shape = self.shape
        copy.over = self.over
        copy.winners = self.winners
        copy.end_reason = self.end_reason
        copy.capped = self.capped
        copy.game_stats = self.game_stats[:]
        copy.seat_stats = self.seat_stats[:]
        copy.log = self.log.fork()
        copy.watch = None if self.watch is None else self.watch[:]
        return copy

    def own_rare(self) -> None:
        """Take private copies of the rare lists before writing one of them (see the class)."""
        if self.rare_shared:
            self.glory = [pile[:] for pile in self.glory]
            self.ward = self.ward[:]
            self.mod_might = self.mod_might[:]
            self.mod_endure = self.mod_endure[:]
            self.mod_nurture = self.mod_nurture[:]
            self.turn_mods = self.turn_mods[:]
            self.removed = self.removed[:]
            self.removal_order = self.removal_order[:]
            self.rare_shared = False

    def inventory(self) -> tuple[int, ...]:
        """Every card id in every zone: deck, hands, positions, discard, glory piles, limbo."""
        copies = self.zone_copies()
        kind = self.kind
        return tuple(sorted(kind[c] for c in copies))

    def zone_copies(self) -> list[int]:
        """Every copy, read from the zones (a copy lost or doubled shows here)."""
        copies = self.deck + [c for hand in self.hands for c in hand]
        copies += [c for c in self.occ if c != EMPTY] + self.discard
        copies += [c for pile in self.glory for c in pile]
        if self.limbo != EMPTY:
            copies.append(self.limbo)
        return copies

    def determinize(self, seat: int, rng: Random) -> Self:
        """A copy in which the cards `seat` does not know are reshuffled among their places.

        Those places are the deck, a face-down Wild that entered unseen, the other hands and a
        hand card on its way to become the Defender; every place keeps its size (spec §3). The
        copy's RNG is reseeded from `rng`. Meant for the seat that holds the pending decision:
        its options and its evaluation read only what it knows, so they are unchanged.
        """
        copy = self.clone()
        copy.rng = GameRng(rng.getrandbits(64))  # its Random made only if the world draws
        bit = 1 << seat
        known = copy.known
        places = copy.deck + [copy.occ[copy.ring_base + copy.face_down]]
        for other, hand in enumerate(copy.hands):
            if other != seat:
                places += hand
        if copy.limbo != EMPTY:
            places.append(copy.limbo)
        hidden = [c for c in places if not known[c] & bit]
        kind = copy.kind = self.kind[:]
        cards = [kind[c] for c in hidden]
        fast_shuffle(cards, rng)  # the kit's shuffle for search worlds
        for c, card in zip(hidden, cards, strict=True):
            kind[c] = card
        return copy


# --------------------------------------------------------------------------------------------
# The zone verbs: cards move between deck, hands and positions here and only here, each move
# recorded as the event its triggers read (spec §6.1), and the events' recording itself.


def ref(t: Table, pos: int) -> tuple[int, int, int, int]:
    """The creature at `pos` as an event records it: (copy, epoch, role, owner)."""
    c = t.occ[pos]
    return (c, t.epoch[c], t.role_of[pos], pos if pos < t.seats else -1)


def record(
    t: Table,
    trigger: int,
    player: int = -1,
    amount: int = 0,
    actor: tuple[int, int, int, int] = NO_CREATURE,
    subject: tuple[int, int, int, int] = NO_CREATURE,
    subject2: tuple[int, int, int, int] = NO_CREATURE,
) -> None:
    """Record an event of the current step (spec §6.1): triggers read these after the step."""
    t.step_events.append((trigger, player, amount, actor, subject, subject2))
    t.step_mask |= 1 << trigger


def counter(t: Table, seat: int, card: int, k: int, value: int = 1) -> None:
    t.log.append((t.turn, seat, card, FIRST_COUNTER + k, value))


def clear(t: Table, c: int) -> None:
    """A creature leaves play or turns down: a new epoch, no damage, ward or modifiers (G8)."""
    t.epoch[c] += 1
    t.last_hit[c] = -1
    t.damage[c] = 0
    if t.ward[c] or t.mod_might[c] or t.mod_endure[c] or t.mod_nurture[c]:
        t.own_rare()
        t.ward[c] = 0
        t.mod_might[c] = 0
        t.mod_endure[c] = 0
        t.mod_nurture[c] = 0


def leave(t: Table, pos: int) -> int:
    c = t.occ[pos]
    t.occ[pos] = EMPTY
    clear(t, c)
    if pos == t.defender and any(t.work):  # the next Defender's work starts at 0 (G16)
        t.work = (0,) * t.seats
    return c


def enter(t: Table, pos: int, c: int) -> None:
    """Card `c` enters `pos` at 0 damage and logs `replaced`; face down in the face-down slot
    (where nobody learns what it is, unless they knew it already)."""
    t.occ[pos] = c
    if pos != t.ring_base + t.face_down:
        t.known[c] = t.every_seat
    record(t, REPLACED, -1, 0, NO_CREATURE, ref(t, pos))


def trade(t: Table, a: int, b: int) -> None:
    occ = t.occ
    now_a, now_b = occ[a], occ[b] = occ[b], occ[a]
    # `record` of the two `ref`s, written out: most turns trade (a Possess, a Command)
    epoch, role_of, seats = t.epoch, t.role_of, t.seats
    t.step_events.append(
        (
            TRADED,
            -1,
            0,
            NO_CREATURE,
            (now_a, epoch[now_a], role_of[a], a if a < seats else -1),
            (now_b, epoch[now_b], role_of[b], b if b < seats else -1),
        )
    )
    t.step_mask |= 1 << TRADED


def flip(t: Table, i: int) -> None:
    """R6 / G10: the face-up Wild at ring index `i` turns face down as the face-down one turns
    up."""
    base = t.ring_base
    down = base + i
    up = base + t.face_down
    c = t.occ[down]
    if t.spec.face_down_clears_damage:
        clear(t, c)
    else:
        t.epoch[c] += 1
    t.face_down = i
    revealed = t.occ[up]
    t.known[revealed] = t.every_seat
    if t.damage[revealed]:
        t.dirty = True
    # `record` of both events, written out: most turns Possess, and a Possess flips
    epoch, role_of = t.epoch, t.role_of
    events = t.step_events
    hidden = (c, epoch[c], role_of[down], -1)  # a Wild has no owner
    shown = (revealed, epoch[revealed], role_of[up], -1)
    events.append((TURNED_FACE_DOWN, -1, 0, NO_CREATURE, hidden, NO_CREATURE))
    events.append((TURNED_FACE_UP, -1, 0, NO_CREATURE, shown, NO_CREATURE))
    t.step_mask |= FLIPPED


FLIPPED = 1 << TURNED_FACE_DOWN | 1 << TURNED_FACE_UP  # the step mask's bits of a flip


def to_hand(t: Table, seat: int, c: int) -> None:
    t.hands[seat].append(c)
    t.known[c] |= 1 << seat
    t.log.append((t.turn, seat, t.kind[c], DRAWN, 1))


def draw_cards(t: Table, seat: int, count: int) -> int:
    """Deck to hand one at a time, stopping on an empty deck (R2); logs `drew` if any."""
    drawn = 0
    deck = t.deck
    while drawn < count and deck:
        to_hand(t, seat, deck.pop())
        drawn += 1
    if drawn:
        deck_drawn(t)
        record(t, DREW, seat, drawn)
    return drawn


def draw_top(t: Table) -> int:
    """Take the deck's top card (the caller knows the deck is not empty)."""
    c = t.deck.pop()
    deck_drawn(t)
    return c


def to_discard(t: Table, c: int) -> None:
    """Card `c` onto the discard pile, which is public: every seat now knows it."""
    t.known[c] = t.every_seat
    t.discard.append(c)


def to_deck_bottom(t: Table, c: int) -> None:
    t.deck.insert(0, c)


def deck_drawn(t: Table) -> None:
    if not t.deck and t.game_stats[G_EMPTY_DECK_TURN] == 0:
        t.game_stats[G_EMPTY_DECK_TURN] = t.turn


def take(t: Table, seat: int, card: int) -> int:
    """Remove the first copy of card id `card` from `seat`'s hand."""
    hand = t.hands[seat]
    kind = t.kind
    for k, c in enumerate(hand):
        if kind[c] == card:
            del hand[k]
            return c
    raise ValueError(f"seat {seat} holds no card {card}")
