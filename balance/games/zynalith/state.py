"""Zynalith's state: the zones and counters of a game, and nothing that decides anything.

A creature on a front is a `Creature` (its stats kept as base + modifiers, so that the Faceless
Warrior can copy values "without extra cards" and round effects can expire). All other zones are
lists of card ids. The rules run on the kit's flow engine (balance/core/flow.py): a stack of
steps (`todo`, tuples of ints and compiled effects; their kinds are TASKS below) and a FIFO queue
of waiting triggers (`queue`); a decision that interrupts them is `asking`, and `cont` the step
that takes its answer. All of it is plain data, copied by hand in `clone()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from balance.core.codes import Names
from balance.core.contract import FIRST_COUNTER, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Task, Tasks
from balance.core.gamerng import GameRng

# Stat indexes of a creature, in the seed's INIT/ATK/DEF/HP order.
INIT, ATK, DEF, HP = 0, 1, 2, 3
# Piles and market rows: the creature pile and row, the extra pile and row.
CREATURE_PILE, EXTRA_PILE = 0, 1

# A pending step is a tuple (STEP, args...): the flow engine's task.
Step = tuple[Any, ...]  # (S_*, its ints and compiled effects)
# A waiting trigger on the queue: (fx, card, src_uid, self_uid, controller, subject..., check),
# read by the names effects.py gives its fields (FX ... CHECK).
Trigger = tuple[Any, ...]
# An option of a decision, the game's own tuple: PASS, (A_PLAY_HAND, card, a, b), NO_COUNTER, ...
Option = tuple[Any, ...]
# What a creature shows the heuristics, kept until it changes (heuristics.creature_view).
View = tuple[int, ...]
# The steps, declared in the flow engine's table (rules.py binds what each does), then the
# answers: a decision's `cont` is (KIND_*, context), run with the chosen option appended.
TASKS: Tasks[Table] = Tasks("zynalith")
S_DRAFT_PICK = TASKS.declare("draft_pick")
S_DRAFT_END = TASKS.declare("draft_end")
S_ROUND = TASKS.declare("round")
S_TURN = TASKS.declare("turn")
S_NEXT_TURN = TASKS.declare("next_turn")
S_COMBAT = TASKS.declare("combat")
S_LINE = TASKS.declare("line")
S_COMBAT_END = TASKS.declare("combat_end")
S_ROUND_END = TASKS.declare("round_end")
S_GAME_END = TASKS.declare("game_end")
S_SCORE = TASKS.declare("score")
S_RESOLVE = TASKS.declare("resolve")
S_EFFECT = TASKS.declare("effect")
S_CHECK = TASKS.declare("check")
S_DRAW_BEGIN = TASKS.declare("draw_begin")
S_DRAW_END = TASKS.declare("draw_end")
S_FILL_ROW = TASKS.declare("fill_row")
S_TO_HAND = TASKS.declare("to_hand")
S_REFRESH = TASKS.declare("refresh")
S_EVENT_RUN = TASKS.declare("event_run")
S_EVENT_TRIGGERS = TASKS.declare("event_triggers")
S_EVENT_DONE = TASKS.declare("event_done")
S_WINDOW_OPEN = TASKS.declare("window_open")
S_WINDOW = TASKS.declare("window")
S_WINDOW_CLOSE = TASKS.declare("window_close")
S_PLAY_ENTER = TASKS.declare("play_enter")
S_PLAY_AFTER = TASKS.declare("play_after")
S_CHARGE = TASKS.declare("charge")
S_LINE_COMBAT = TASKS.declare("line_combat")
S_FIGHT = TASKS.declare("fight")
S_FIGHT_KAMPF = TASKS.declare("fight_kampf")
S_FIGHT_HIT = TASKS.declare("fight_hit")
KIND_DRAFT = TASKS.declare("answer_draft")
KIND_TURN = TASKS.declare("answer_turn")
KIND_COUNTER = TASKS.declare("answer_counter")
KIND_TARGET = TASKS.declare("answer_target")
KIND_PILE = TASKS.declare("answer_pile")

CHECK_STEP = (S_CHECK,)
RESOLVE_STEP = (S_RESOLVE, 0)

# The game's own per-card counters (Catalog.counters), emitted as event FIRST_COUNTER + k.
CARD_COUNTERS = Names(FIRST_COUNTER)
EV_TRIGGERS = CARD_COUNTERS.add("triggers")  # effects of the card that resolved
# damage it dealt to creatures and players (after defence)
EV_DAMAGE = CARD_COUNTERS.add("damage_dealt")
EV_LINE_WINS = CARD_COUNTERS.add("line_wins")
EV_LINE_LOSSES = CARD_COUNTERS.add("line_losses")
EV_KILLS = CARD_COUNTERS.add("kills")  # creatures it killed in combat
EV_DEATHS = CARD_COUNTERS.add("deaths")
EV_ZYNALITH = CARD_COUNTERS.add("zynalith_earned")  # Z its line wins earned
EV_NEGATED = CARD_COUNTERS.add("negated")  # times the card (or event) was negated
EV_VP = CARD_COUNTERS.add("vp_at_end")  # printed VP it scored in a front at the end

# Per-seat tallies (`Table.tally[seat][k]`), reported as `<name>_<seat>` game stats.
SEAT_TALLIES = Names()
T_LINES_WON = SEAT_TALLIES.add("lines_won")
T_LINES_LOST = SEAT_TALLIES.add("lines_lost")
T_UNOPPOSED = SEAT_TALLIES.add("unopposed")
T_DEALT = SEAT_TALLIES.add("damage_dealt")
T_TAKEN = SEAT_TALLIES.add("damage_taken")
T_PREVENTED = SEAT_TALLIES.add("damage_prevented")
T_LIFESTEAL = SEAT_TALLIES.add("lifesteal")
T_PLAYED = SEAT_TALLIES.add("creatures_played")
T_DIED = SEAT_TALLIES.add("creatures_died")
T_BANISHED = SEAT_TALLIES.add("banished")
T_SPENT = SEAT_TALLIES.add("silver_spent")
T_REFUNDED = SEAT_TALLIES.add("silver_refunded")
T_FROM_Z = SEAT_TALLIES.add("silver_from_z")
T_TAKEN_MARKET = SEAT_TALLIES.add("taken_market")
T_TAKEN_PILE = SEAT_TALLIES.add("taken_pile")
T_REDRAWS = SEAT_TALLIES.add("redraws")
T_COUNTERS = SEAT_TALLIES.add("counters")
T_PASSES = SEAT_TALLIES.add("passes")

# Game-wide tallies (`Table.gtally[k]`).
GAME_TALLIES = Names()
G_RESHUFFLES = GAME_TALLIES.add("reshuffles")
G_EVENTS = GAME_TALLIES.add("events_executed")
G_EVENTS_NEGATED = GAME_TALLIES.add("events_negated")
G_CONTESTED = GAME_TALLIES.add("lines_contested")
G_UNOPPOSED = GAME_TALLIES.add("lines_unopposed")
G_TIED = GAME_TALLIES.add("lines_tied")
# The safety caps (spec §8) a game can hit and play on: each is a games-table column of its hits
# (`cap_<name>`), beside `cap_hits`, their sum, so a report shows the per-cap rates.
CAPS = (
    "max_main_actions_per_round",
    "max_side_actions_per_turn",
    "max_trigger_chain",
    "max_event_chain",
)


class Creature:
    """A creature in a front. `cur` = base + every modifier (raw, may dip below 0: read through
    the stat helpers); `modx` is the share of extra cards, `rnd` / `rndx` the share that expires at
    round end (all sources / extra cards only). `damage` may go negative only by an overheal."""

    __slots__ = (
        "attachments",
        "attack",
        "base",
        "card",
        "cost",
        "cur",
        "damage",
        "doomed",
        "epoch",
        "kw",
        "kw_round",
        "modx",
        "owner",
        "rnd",
        "rndx",
        "uid",
        "view",
    )

    def __init__(
        self,
        uid: int,
        card: int,
        owner: int,
        attack: bool,
        stats: tuple[int, ...],
        kw: int,
        cost: int,
    ) -> None:
        self.uid = uid
        self.card = card
        self.owner = owner
        self.attack = attack
        self.epoch = 0  # bumped at every change of position: a line remembers (uid, epoch)
        self.base = list(stats)
        self.cur = list(stats)
        self.modx = [0, 0, 0, 0]
        self.rnd = [0, 0, 0, 0]
        self.rndx = [0, 0, 0, 0]
        self.damage = 0
        self.kw = kw  # keyword mask: printed and granted for good
        self.kw_round = 0  # keywords granted until the end of the round
        self.attachments: list[tuple[int, int, int]] = []  # (instance uid, card, controller)
        self.doomed = False  # destroyed: dies at the next state check
        self.cost = cost  # printed silver cost (refunds, defence brackets)
        self.view: View | None = None  # what bots last read of it (heuristics); None: changed

    def copy(self) -> Creature:
        c = Creature.__new__(Creature)
        c.uid = self.uid
        c.card = self.card
        c.owner = self.owner
        c.attack = self.attack
        c.epoch = self.epoch
        # the lists are shared: every change replaces a list instead of changing it in place
        c.base = self.base
        c.cur = self.cur
        c.modx = self.modx
        c.rnd = self.rnd
        c.rndx = self.rndx
        c.damage = self.damage
        c.kw = self.kw
        c.kw_round = self.kw_round
        c.attachments = self.attachments
        c.doomed = self.doomed
        c.cost = self.cost
        c.view = None
        return c

    # Stats never go below 0 (4.4). These run on every option list and combat step: a
    # conditional is several times cheaper than a call to max().

    def stat(self, index: int) -> int:
        value = self.cur[index]
        return value if value > 0 else 0  # noqa: FURB136

    def max_hp(self) -> int:
        value = self.cur[HP]
        return value if value > 0 else 0  # noqa: FURB136

    def hp_left(self) -> int:
        value = self.cur[HP]
        return (value if value > 0 else 0) - self.damage  # noqa: FURB136

    def keywords(self) -> int:
        return self.kw | self.kw_round


@dataclass(frozen=True, slots=True)
class Ghost:
    """What a dead creature's `death` triggers still read: its last stats, place and line."""

    creature: Creature  # never changed again once dead
    left: int  # uid of its left neighbour then, or -1
    right: int
    line_enemies: tuple[int, ...]  # uids of the other players' members of its line then


_copy_list = list.copy
NOTHING_OWNED: frozenset[int] = frozenset()  # a clone's `owned` until it changes a creature


# weakly referable: a turn decision not listed yet reaches its state by a weak reference (rules)
@dataclass(slots=True, weakref_slot=True)
class Table(Logged):
    """Every zone and counter of a game of Zynalith."""

    spec: Any  # the compiled ZynalithSpec
    # every draw of the game: `rng.stream()`, `rng.shuffle(cards)` (the kit's door: shared with
    # a clone until either draws; made at the first draw, which determinize's worlds mostly skip)
    rng: GameRng
    seats: int
    setup: str
    round: int
    first_player: int  # P_i
    start_player: int  # this round's start player
    active: int  # whose turn it is (in combat and at the end: the start player)
    hp: list[int]
    silver: list[int]
    zyn: list[int]
    bonus_vp: list[int]
    alive: list[bool]
    passed: list[bool]
    main_actions: list[int]  # this round, per seat
    side_actions: int  # in the current turn
    hand_open: list[list[int]]  # hand cards every player has seen (taken from the market)
    hand_secret: list[list[int]]  # hand cards drawn from a pile: known to their holder only
    front: list[list[Creature]]  # per seat, left to right (INIT descending)
    slots: int
    piles: list[list[int]]  # [creature, extra], top card last
    discards: list[list[int]]
    market: list[list[int]]  # [creature row, extra row]; gaps simply shrink the row
    removed: list[int]  # banished and eliminated players' cards: never reshuffled
    limbo: list[int]  # cards paid for or drawn and still resolving (events, plays, counters)
    # events executed in the current (outermost) draw: they join their pile's discard when the
    # draw ends, so a reshuffle during the draw never brings one back (G6 as amended)
    set_aside: list[int]
    by_uid: dict[int, Creature]  # every creature in play
    next_uid: int
    todo: list[Task]  # pending steps, the next on top (the flow engine's stack)
    queue: list[Trigger]  # waiting triggers, oldest first
    resolve_depth: int
    chain: int  # triggers resolved in the outermost queue
    draw_depth: int
    event_chain: int  # events executed in the outermost draw
    windows: list[int]  # open counter windows (their subject's context id), innermost last
    negated: set[int]  # context ids cancelled by a `negate`
    next_ctx: int
    lines: list[tuple[tuple[int, int], ...]] | None  # during combat: the fixed lines
    ghosts: dict[int, Ghost]
    entering: int  # uid of the creature in play steps 4-5 (not checked for death), or -1
    asking: Decision | None  # the pending decision
    cont: Task  # (KIND_*, context): the step that takes the answer to `asking`
    decisions: int
    turns: int
    over: bool
    end_reason: str
    capped: bool
    winners: tuple[int, ...]
    final_vp: list[int]
    cap_hits: list[str]
    tally: list[list[int]]
    gtally: list[int]
    # The card events (contract.Event): the kit's EventLog (log with `log.append`; a clone
    # shares the earlier ones as a frozen chain, so copying costs nothing per event logged)
    log: EventLog
    # Creatures are shared with clones and copied on their first change (`own`): the uids this
    # state has made its own since it was last cloned; None: never cloned, all are its own.
    owned: set[int] | frozenset[int] | None = None

    def clone(self, seed: int | None = None) -> Any:
        """An exact copy: zones, creatures, pending work, decision and RNG state (or, given
        `seed`, an RNG seeded with it instead: determinize's reseeded one, made at its first
        draw).

        The RNG is forked, shared until one of the two draws from it (core/gamerng.py): most
        copies made by search bots never draw, and copying a Random costs more than the rest.
        Zones that change rarely (alive, bonus_vp, final_vp, removed, set_aside, windows, negated,
        ghosts, lines, cap_hits) are shared: the rules replace them instead of changing them in
        place.
        Lists of two (piles, discards, market rows) are copied without a loop."""
        # from now on both share every creature: whoever changes one first copies it
        self.owned = NOTHING_OWNED
        copy = object.__new__(type(self))
        copy.rng = self.rng.fork() if seed is None else GameRng(seed)
        copy.owned = NOTHING_OWNED
        copy.spec = self.spec
        copy.seats = self.seats
        copy.setup = self.setup
        copy.round = self.round
        copy.first_player = self.first_player
        copy.start_player = self.start_player
        copy.active = self.active
        copy.hp = self.hp[:]
        copy.silver = self.silver[:]
        copy.zyn = self.zyn[:]
        copy.bonus_vp = self.bonus_vp
        copy.alive = self.alive
        copy.passed = self.passed[:]
        copy.main_actions = self.main_actions[:]
        copy.side_actions = self.side_actions
        copy.hand_open = list(map(_copy_list, self.hand_open))
        copy.hand_secret = list(map(_copy_list, self.hand_secret))
        copy.front = list(map(_copy_list, self.front))
        copy.slots = self.slots
        a, b = self.piles
        copy.piles = [a[:], b[:]]
        a, b = self.discards
        copy.discards = [a[:], b[:]]
        a, b = self.market
        copy.market = [a[:], b[:]]
        copy.removed = self.removed
        copy.limbo = self.limbo[:]
        copy.set_aside = self.set_aside
        copy.by_uid = self.by_uid.copy()
        copy.next_uid = self.next_uid
        copy.todo = self.todo[:]  # steps are immutable tuples
        copy.queue = self.queue[:]
        copy.resolve_depth = self.resolve_depth
        copy.chain = self.chain
        copy.draw_depth = self.draw_depth
        copy.event_chain = self.event_chain
        copy.windows = self.windows
        copy.negated = self.negated
        copy.next_ctx = self.next_ctx
        copy.lines = self.lines  # replaced whole at each combat
        copy.ghosts = self.ghosts  # ghosts are never changed
        copy.entering = self.entering
        copy.asking = self.asking  # immutable
        copy.cont = self.cont
        copy.decisions = self.decisions
        copy.turns = self.turns
        copy.over = self.over
        copy.end_reason = self.end_reason
        copy.capped = self.capped
        copy.winners = self.winners
        copy.final_vp = self.final_vp
        copy.cap_hits = self.cap_hits
        copy.tally = list(map(_copy_list, self.tally))
        copy.gtally = self.gtally[:]
        copy.log = self.log.fork()
        return copy

    def own(self, c: Creature) -> Creature:
        """`c` made this state's own before a change: every change to a creature in play goes
        through here (copy-on-write; a clone shares the creatures it was made with)."""
        owned = self.owned
        if owned is None or c.uid in owned:
            c.view = None  # about to change
            return c
        if owned is NOTHING_OWNED:
            owned = self.owned = set()
        mine = c.copy()
        row = self.front[c.owner]
        row[row.index(c)] = mine
        self.by_uid[c.uid] = mine
        # NOTHING_OWNED, the only frozenset, was replaced above; mypy does not narrow on `is`
        owned.add(c.uid)  # type: ignore[union-attr]
        return mine

    def adopt(self, uid: int) -> None:
        """A creature new in play is this state's own (no clone shares it)."""
        owned = self.owned
        if owned is not None:
            if owned is NOTHING_OWNED:
                owned = self.owned = set()
            owned.add(uid)  # type: ignore[union-attr]  # as in `own`: a set by now

    def inventory(self) -> tuple[int, ...]:
        """Every card id in every zone, sorted: piles, discards, market, hands, fronts (creatures
        and their attachments), removed, cards still resolving and events set aside."""
        cards: list[int] = []
        for zone in (*self.piles, *self.discards, *self.market, *self.hand_open, *self.hand_secret):
            cards.extend(zone)
        for row in self.front:
            for c in row:
                cards.append(c.card)
                cards.extend(a[1] for a in c.attachments)
        cards.extend(self.removed)
        cards.extend(self.limbo)
        cards.extend(self.set_aside)
        cards.sort()
        return tuple(cards)
