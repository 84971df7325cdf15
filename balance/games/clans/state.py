"""clans' state: each player's deck, hand, discard pile and 3 x 5 army, plus the round's counters.

The state is plain data with a hand-written `clone()`, the one door to hidden information
(`determinize`), and the few zone moves every rule shares (draw, place a card, a card leaving
play). Everything a rule decides lives in `rules.py` and `effects.py`.

Search bots copy a state once per move they try, so a copy must be cheap: every per-seat value is
a pair of immutable tuples, replaced (never changed) when it changes, and a copy shares them; the
game's RNG is shared until either copy draws; the events logged before a copy become a frozen
chunk both keep. Only the task stack (one list copy), the army summary and the tallies are
copied.

The army of seat s is `grid[s]`, a tuple of `rows * row_spaces` slots: slot = row * row_spaces +
column, row 0 the Troop row (bottom), row 1 the Hero row, row 2 the Immortal row. Parallel tuples
keep each slot's face (`face_up`), its captor (`captor`, NOBODY when free) and its Activation
Tokens (`tokens`). `serial` counts the cards that ever entered a slot, so an effect can tell its
own source card from a later card in the same space. `board` sums up both armies (military,
active cards per row and clan, free spaces...) and is kept up to date by the army moves below.

The rules run on the kit's flow engine (balance/core/flow.py): pending work is a stack of tasks
(`todo`, tuples `(kind, ...)`, kinds in TASKS below): the turn's end, an effect's entries still
to resolve, a target or a discard still to choose. A task that needs a choice poses it as
`asking` and leaves in `cont` its answer task, `(ANSWER_*, the asking task)`: the chosen option
is appended to it, and the asking task itself is kept so that a determinized copy can pose it
again (rules.refresh_decision). Tuples are never changed, so a copy shares them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any, Self

from balance.core.codes import Names
from balance.core.contract import DRAWN, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Task, Tasks
from balance.core.gamerng import GameRng, fast_deal

if TYPE_CHECKING:
    from balance.games.clans.spec import ClansSpec

EMPTY = -1  # an empty army slot
NOBODY = -1  # no seat: the Wonder Token in the supply, a free (uncaptured) card, no winner

# The task kinds (rules.py binds what each does), then the answers: a decision's `cont` is
# (ANSWER_*, the task that asked), run with the chosen option appended.
TASKS: Tasks[Table] = Tasks("clans")
DRAFT = TASKS.declare("draft")  # (DRAFT, pick index)                     D1
MULLIGAN = TASKS.declare("mulligan")  # (MULLIGAN, seat)                   D2
ROUND_START = TASKS.declare("round_start")  # (ROUND_START,)
ACTION = TASKS.declare("action")  # (ACTION, seat)                         D3
END_TURN = TASKS.declare("end_turn")  # (END_TURN, seat, step, passed): the turn's end, steps 1-3
ENTRIES = TASKS.declare("entries")  # (ENTRIES, controller, seat, slot, serial, card, entries, i)
TARGET = TASKS.declare("target")  # (TARGET, controller, seat, slot, serial, card, entry, left) D5
PAY = TASKS.declare("pay")  # (PAY, seat, left, reason)                    D4
DISCARD = TASKS.declare("discard")  # (DISCARD, seat, left, reason)        D6
SACRIFICE = TASKS.declare("sacrifice")  # (SACRIFICE, seat, left)          D7
FREE_PLAY = TASKS.declare("free_play")  # (FREE_PLAY, controller, seat, slot, serial, card, entry)
FETCH = TASKS.declare("fetch")  # (FETCH, controller, seat, slot, serial, card, entry, left) D9
BATTLE = TASKS.declare("battle")  # (BATTLE, veterans, index)
SONG = TASKS.declare("song")  # (SONG, step, winner)
ANSWER_DRAFT = TASKS.declare("draft_answer")
ANSWER_MULLIGAN = TASKS.declare("mulligan_answer")
ANSWER_ACTION = TASKS.declare("action_answer")
ANSWER_TARGET = TASKS.declare("target_answer")
ANSWER_PAY = TASKS.declare("pay_answer")
ANSWER_DISCARD = TASKS.declare("discard_answer")
ANSWER_SACRIFICE = TASKS.declare("sacrifice_answer")
ANSWER_FREE_PLAY = TASKS.declare("free_play_answer")
ANSWER_FETCH = TASKS.declare("fetch_answer")

# The army summary `Table.board`, kept up to date by every change to an army (`place`,
# `leave_play`, `set_status`): per seat, from seat * spec.board_stride, these counts, then one
# count of active cards per (row, clan) at CLAN_N + row * clans + clan. Rules and `evaluate`
# read it instead of walking the grid; `recount` builds it from scratch (and checks it, in tests).
POWER = 0  # printed military of the active cards, the Immortal bonus included
ACTIVE_N = 1  # active (face-up, uncaptured) cards
ROW_N = 2  # active cards per row: ROW_N + row, 3 rows
CAPTIVES = 5  # the opponent's cards this seat holds captured
SPECIALS = 6  # active cards whose military is more than the printed number (spec.card_special)
TROOP_FREE = 7  # empty Troop spaces
HERO_OPEN = 8  # empty Hero spaces with a card below; IMMORTAL_OPEN likewise
IMMORTAL_OPEN = 9
MODDERS = 10  # active cards with ongoing rule_mod entries (effects.player_rule)
CLAN_N = 11

# Per-seat statistics (spec §9), kept in `Table.tally` at index stat * 2 + seat.
STATS = Names()
PLAYS = STATS.add("plays")
SHIFTS = STATS.add("shifts")
DRAW_SMALLS = STATS.add("draw_small")
DRAW_BIGS = STATS.add("draw_big")
ACTIVATIONS = STATS.add("activations")
PASSES = STATS.add("passes")
TOKENS_AT_PASS = STATS.add("tokens_at_pass")
TOKENS_GAINED = STATS.add("tokens_gained")
OFFCLAN_PAID = STATS.add("offclan_paid")
SHIFT_PAID = STATS.add("shift_paid")
HAND_LIMIT_DISCARDS = STATS.add("hand_limit_discards")
EFFECT_DISCARDS = STATS.add("effect_discards")
SACRIFICES = STATS.add("sacrificed")
LOST_DESTROY = STATS.add("lost_destroy")
LOST_CAPTURE = STATS.add("lost_capture")
LOST_FLIP = STATS.add("lost_flip")
MULLIGANS = STATS.add("mulligans")
BATTLE_MILITARY = STATS.add("battle_military")
VETERAN_MILITARY = STATS.add("veteran_military")
COUNTDOWN_TURNS = STATS.add("countdown_turns")
FIRST_PASSES = STATS.add("first_passes")
FIRST_ROUNDS = STATS.add("first_rounds")
WONDER_TIE_WINS = STATS.add("wonder_tie_wins")
SHARED_TIES = STATS.add("shared_ties")


@dataclass(slots=True, eq=False)
class Table(Logged):
    """One game of clans, as data. `rules.Clans` adds the contract's methods."""

    spec: ClansSpec  # the compiled config with the flipped clans' modifiers applied
    # The game's RNG, the kit's GameRng (copied on first draw after a clone): `rng.shuffle`,
    # `rng.stream()` for other draws
    rng: GameRng
    lineup: tuple[str, ...]
    # -- setup
    # (tuples and the lists marked "replaced, never changed" are shared by copies)
    clans: list[tuple[int, ...]]  # per seat, the clan indexes it fields (replaced, never changed)
    flipped: tuple[int, ...]  # the flipped clans, in draft_pool order
    picks: tuple[tuple[int, int], ...]  # the draft so far: (clan, seat) in pick order
    pool: tuple[int, ...]  # cards set aside: the undealt draft pool, then the flipped clans' cards
    # -- zones, per seat. Every per-seat value is a pair (seat 0's, seat 1's) of immutable
    # values, replaced when it changes (`replaced`, `bump`), so a copy shares all of them.
    deck: tuple[tuple[int, ...], tuple[int, ...]]  # top of the deck last
    hand: tuple[tuple[int, ...], tuple[int, ...]]
    known: tuple[tuple[int, ...], tuple[int, ...]]  # hand cards the opponent saw enter
    discard: tuple[tuple[int, ...], tuple[int, ...]]
    grid: tuple[tuple[int, ...], tuple[int, ...]]  # `place`, `leave_play`
    face_up: tuple[tuple[bool, ...], tuple[bool, ...]]  # `set_status`
    captor: tuple[tuple[int, ...], tuple[int, ...]]  # `set_status`
    tokens: tuple[tuple[int, ...], tuple[int, ...]]  # `set_tokens`
    serial: tuple[tuple[int, ...], tuple[int, ...]]  # `place`
    # -- tokens and score, per seat
    held: tuple[int, int]
    owned: tuple[int, int]
    supremacy: tuple[int, int]
    wonder: int  # the Wonder Token holder, or NOBODY (in the supply)
    # -- the round
    round: int
    first: int  # the round's first player
    active: int  # whose turn it is (the round's first player outside turns)
    passed: tuple[bool, bool]
    first_passer: int
    countdown: int  # turns left to the player who has not passed; -1 before any pass
    extra: tuple[int, int]  # extra turns granted by effects, still to take
    round_turns: int
    turn: int  # turns since the game began, for events
    in_turn: bool  # False in the draft, the mulligans, the Great Battle and Song for the Dead
    veteran_bonus: tuple[int, int]  # this battle's Veteran additions
    mulligans: tuple[int, int]
    # -- the machine
    todo: list[Task]  # the tasks to run, the last one next (the flow engine's stack)
    asking: Decision | None  # the pending decision
    cont: Task  # (ANSWER_*, the task that asked): takes the answer to `asking`
    decisions: int
    over: bool
    winner: int  # the winning seat, or NOBODY for a draw
    win_type: str
    capped_rounds: int
    capped_decisions: bool
    board: list[int]  # the army summary (POWER ... CLAN_N above)
    # per seat, the slots of its active cards and of its active special cards, in slot order
    # (part of the summary; tuples replaced on change)
    actives: tuple[tuple[int, ...], tuple[int, ...]]
    special_slots: tuple[tuple[int, ...], tuple[int, ...]]
    tally: list[int]  # per-seat statistics: index stat * 2 + seat (STATS)
    battle_totals: tuple[int, ...]  # per battle: rules.ROUND_LOG numbers
    # bit seat * cards + card: in hand at an action with no legal play or shift
    stuck: int
    # The events (the kit's EventLog: log with `log.append`; a copy shares the earlier ones)
    log: EventLog
    # D3 decisions already worked out (rules.action_step): a pure cache, shared by a game and
    # all its copies
    memo: dict[tuple[Any, ...], tuple[Any, ...]]
    # Decks whose order is not yet decided (a bit per seat): a determinized copy leaves them
    # unshuffled, never shuffles them, and draws a uniformly random card instead of the top
    # one, picked by `loose_pick` from `loose_seed` (a splitmix64 state: cheaper than seeding
    # a Random for a copy that draws a card or two). Always 0 in a real game, whose decks are
    # shuffled when they are formed.
    loose_decks: int = 0
    loose_seed: int = 0
    # the last evaluate: its value, for decisions * 2 + seat (-1: none); every apply moves on
    # `decisions`, and whatever changes a state otherwise (determinize, recount) resets it
    value: float = 0.0
    valued: int = -1

    def clone(self) -> Self:
        """An exact copy: zones, tasks, counters and the RNG state (shared until either draws)."""
        new = self._copy()
        new.rng = self.rng.fork()
        return new

    def _copy(self) -> Self:
        """A copy of everything but the RNG (the caller sets it). Per-seat lists are copied one
        by one (two seats), immutable parts are shared."""
        new = object.__new__(type(self))
        new.spec = self.spec
        new.loose_decks = self.loose_decks
        new.loose_seed = self.loose_seed
        new.value = self.value
        new.valued = self.valued
        new.lineup = self.lineup
        new.clans = self.clans
        new.flipped = self.flipped
        new.picks = self.picks
        new.pool = self.pool
        new.deck = self.deck
        new.hand = self.hand
        new.known = self.known
        new.discard = self.discard
        new.grid = self.grid
        new.face_up = self.face_up
        new.captor = self.captor
        new.tokens = self.tokens
        new.serial = self.serial
        new.held = self.held
        new.owned = self.owned
        new.supremacy = self.supremacy
        new.wonder = self.wonder
        new.round = self.round
        new.first = self.first
        new.active = self.active
        new.passed = self.passed
        new.first_passer = self.first_passer
        new.countdown = self.countdown
        new.extra = self.extra
        new.round_turns = self.round_turns
        new.turn = self.turn
        new.in_turn = self.in_turn
        new.veteran_bonus = self.veteran_bonus
        new.mulligans = self.mulligans
        new.todo = self.todo[:]  # tasks are tuples, shared
        new.asking = self.asking
        new.cont = self.cont
        new.decisions = self.decisions
        new.over = self.over
        new.winner = self.winner
        new.win_type = self.win_type
        new.capped_rounds = self.capped_rounds
        new.capped_decisions = self.capped_decisions
        new.board = self.board[:]
        new.actives = self.actives
        new.special_slots = self.special_slots
        new.tally = self.tally[:]
        new.battle_totals = self.battle_totals
        new.stuck = self.stuck
        new.log = self.log.fork()  # this state's events so far join the chain both now share
        new.memo = self.memo
        return new

    def determinize(self, seat: int, rng: Random) -> Self:
        """A copy in which all `seat` cannot see is reshuffled (spec §4 Information).

        Public: armies (face-down identities included), discard piles, tokens, Supremacy, the
        Wonder Token, hand sizes, and the deck lists (the 45 cards of the fielded clans).
        Hidden: every deck's order, and the opponent's hand cards that were not revealed.
        So the opponent's unseen cards (hand minus the known cards, plus the deck) are dealt
        again into hand and deck, sizes kept, and both decks' orders are left undecided (each
        draw takes a uniformly random card, the same as a shuffle now). The copy's RNG is
        reseeded from `rng`, so a search never moves the real game's dice.
        """
        copy = self._copy()
        # the copy's own stream, seeded on its first draw (most search copies never draw)
        seed = rng.getrandbits(64)
        copy.rng = GameRng(seed)
        # Every deck's order is hidden: leave it undecided, so a draw takes a uniformly random
        # card (`draw`) instead of paying for a shuffle now.
        copy.loose_decks = 3
        copy.loose_seed = seed
        copy.valued = -1  # the other seat's hand is dealt anew
        for other in range(len(copy.hand)):
            if other == seat:
                continue
            hand, known = copy.hand[other], copy.known[other]
            unseen = list(hand)
            for card in known:
                unseen.remove(card)
            size = len(unseen)
            if not size:
                continue
            unseen += copy.deck[other]
            # a uniformly random hand of `size` unseen cards (the first steps of a shuffle);
            # the rest is the deck, its order undecided
            fast_deal(unseen, size, rng)
            copy.hand = replaced(copy.hand, other, (*known, *unseen[:size]))
            copy.deck = replaced(copy.deck, other, tuple(unseen[size:]))
        return copy  # Clans.determinize computes a pending decision again from the new hand

    def inventory(self) -> tuple[int, ...]:
        """Every card of the game, wherever it is: constant from setup to the end."""
        cards = list(self.pool)
        for seat in range(len(self.hand)):
            cards += self.deck[seat]
            cards += self.hand[seat]
            cards += self.discard[seat]
            cards += [card for card in self.grid[seat] if card != EMPTY]
        cards.sort()
        return tuple(cards)


# -- zone moves every rule shares ------------------------------------------------------------


def draw(g: Table, seat: int, n: int) -> int:
    """`seat` draws n cards (G13: an empty deck is formed again from the shuffled discard pile;
    with both empty the draw stops). Returns the number drawn."""
    deck, hand, events = list(g.deck[seat]), list(g.hand[seat]), g.log
    loose = g.loose_decks >> seat & 1
    drawn = 0
    for _ in range(n):
        if not deck:
            pile = g.discard[seat]
            if not pile:
                break
            deck = list(pile)
            g.discard = replaced(g.discard, seat, ())
            if not loose:
                g.rng.shuffle(deck)
        if loose:  # an undecided order: any card is equally likely on top
            i = loose_pick(g, len(deck))
            deck[i], deck[-1] = deck[-1], deck[i]
        card = deck.pop()
        hand.append(card)
        events.append((g.turn, seat, card, DRAWN, 1))
        drawn += 1
    g.deck = replaced(g.deck, seat, tuple(deck))
    g.hand = replaced(g.hand, seat, tuple(hand))
    return drawn


def shuffle_deck(g: Table, seat: int) -> None:
    """Shuffle `seat`'s deck with the game's RNG (a deck whose order is undecided stays so)."""
    if not g.loose_decks >> seat & 1:
        deck = list(g.deck[seat])
        g.rng.shuffle(deck)
        g.deck = replaced(g.deck, seat, tuple(deck))


def top_card(g: Table, seat: int) -> int:
    """Take the top card of `seat`'s (non-empty) deck: any card, when its order is undecided."""
    deck = list(g.deck[seat])
    if g.loose_decks >> seat & 1:
        i = loose_pick(g, len(deck))
        deck[i], deck[-1] = deck[-1], deck[i]
    card = deck.pop()
    g.deck = replaced(g.deck, seat, tuple(deck))
    return card


MASK64 = (1 << 64) - 1


def loose_pick(g: Table, n: int) -> int:
    """A uniformly random index below n from the copy's splitmix64 stream (`loose_seed`)."""
    state = (g.loose_seed + 0x9E3779B97F4A7C15) & MASK64
    g.loose_seed = state
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return ((z ^ (z >> 31)) * n) >> 64


def take_from_hand(g: Table, seat: int, card: int) -> None:
    """`card` leaves `seat`'s hand; a revealed copy of it stops being known once none is left."""
    hand = list(g.hand[seat])
    hand.remove(card)
    g.hand = replaced(g.hand, seat, tuple(hand))
    known = g.known[seat]
    if known and card in known and known.count(card) > hand.count(card):
        left = list(known)
        left.remove(card)
        g.known = replaced(g.known, seat, tuple(left))


def to_hand(g: Table, seat: int, card: int) -> None:
    """`card` enters `seat`'s hand."""
    g.hand = replaced(g.hand, seat, (*g.hand[seat], card))


def to_discard(g: Table, seat: int, card: int) -> None:
    """`card` goes to the top of `seat`'s discard pile."""
    g.discard = replaced(g.discard, seat, (*g.discard[seat], card))


def reveal(g: Table, seat: int, card: int) -> None:
    """`card`, now in `seat`'s hand, was seen entering it (fetched, returned to hand)."""
    g.known = replaced(g.known, seat, (*g.known[seat], card))


def replaced(pair: tuple[Any, ...], seat: int, value: object) -> tuple[Any, ...]:
    """`pair` (a value per seat) with `seat`'s value replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def bump(pair: tuple[int, int], seat: int, n: int) -> tuple[int, int]:
    """`pair` (a count per seat) with n added to `seat`'s count."""
    return (pair[0] + n, pair[1]) if seat == 0 else (pair[0], pair[1] + n)


def set_tokens(g: Table, seat: int, slot: int, n: int) -> None:
    """`n` Activation Tokens on the card at `slot`."""
    if g.tokens[seat][slot] != n:
        row = list(g.tokens[seat])
        row[slot] = n
        g.tokens = replaced(g.tokens, seat, tuple(row))


def place(g: Table, seat: int, slot: int, card: int) -> None:
    """`card` enters `seat`'s army at `slot`, face up, free and without tokens."""
    if g.grid[seat][slot] != EMPTY:
        leave_play(g, seat, slot)
    # an empty space is always face up, free and without tokens (leave_play sees to it)
    grid = list(g.grid[seat])
    grid[slot] = card
    g.grid = replaced(g.grid, seat, tuple(grid))
    serial = list(g.serial[seat])
    serial[slot] += 1
    g.serial = replaced(g.serial, seat, tuple(serial))
    _occupy(g, seat, slot, 1)
    _count_active(g, seat, slot, card, 1)


def leave_play(g: Table, seat: int, slot: int) -> int:
    """The card at `slot` leaves the army (to wherever the caller puts it): its tokens become
    spent and its capture ends (G4, G8). Returns the card."""
    card = g.grid[seat][slot]
    if card == EMPTY:
        return card
    captor = g.captor[seat][slot]
    if captor == NOBODY and g.face_up[seat][slot]:
        _count_active(g, seat, slot, card, -1)
    elif captor != NOBODY and captor != seat:
        g.board[captor * g.spec.board_stride + CAPTIVES] -= 1
    grid = list(g.grid[seat])
    grid[slot] = EMPTY
    g.grid = replaced(g.grid, seat, tuple(grid))
    set_status(g, seat, slot, True, NOBODY)  # an empty space: nothing more to count
    set_tokens(g, seat, slot, 0)
    _occupy(g, seat, slot, -1)
    return card


def set_status(g: Table, seat: int, slot: int, face_up: bool, captor: int) -> None:
    """Turn the card at `slot` face up or down (G7) and set its captor (G8, NOBODY: free)."""
    was_up, was_captor = g.face_up[seat][slot], g.captor[seat][slot]
    if was_up == face_up and was_captor == captor:
        return
    if was_up != face_up:
        faces = list(g.face_up[seat])
        faces[slot] = face_up
        g.face_up = replaced(g.face_up, seat, tuple(faces))
    if was_captor != captor:
        captors = list(g.captor[seat])
        captors[slot] = captor
        g.captor = replaced(g.captor, seat, tuple(captors))
    card = g.grid[seat][slot]
    if card == EMPTY:
        return
    board, stride = g.board, g.spec.board_stride
    if was_captor != NOBODY and was_captor != seat:
        board[was_captor * stride + CAPTIVES] -= 1
    if captor != NOBODY and captor != seat:
        board[captor * stride + CAPTIVES] += 1
    was_active = was_up and was_captor == NOBODY
    if was_active != (face_up and captor == NOBODY):
        _count_active(g, seat, slot, card, -1 if was_active else 1)


def _occupy(g: Table, seat: int, slot: int, sign: int) -> None:
    """`slot` became occupied (sign 1) or empty (-1): the free and open spaces change."""
    spec = g.spec
    width = spec.row_spaces
    grid, board = g.grid[seat], g.board
    base = seat * spec.board_stride
    row = slot // width
    if row == 0:
        board[base + TROOP_FREE] -= sign
    elif grid[slot - width] != EMPTY:
        board[base + HERO_OPEN + row - 1] -= sign
    if row + 1 < spec.rows and grid[slot + width] == EMPTY:
        board[base + HERO_OPEN + row] += sign


def _count_active(g: Table, seat: int, slot: int, card: int, sign: int) -> None:
    """`card` at `slot` became active (sign 1) or stopped being active (-1)."""
    g.actives = replaced(g.actives, seat, _toggled(g.actives[seat], slot, sign))
    if g.spec.card_special[card]:
        g.special_slots = replaced(
            g.special_slots, seat, _toggled(g.special_slots[seat], slot, sign)
        )
    _count_card(g, seat, slot, card, sign)


def _count_card(g: Table, seat: int, slot: int, card: int, sign: int) -> None:
    """The summary's counts for an active `card` at `slot`, added (sign 1) or taken off."""
    spec = g.spec
    board = g.board
    base = seat * spec.board_stride
    row = slot // spec.row_spaces
    power = spec.card_military[card]
    if spec.card_level[card] == 3:
        power += spec.immortal_military_bonus
    board[base + POWER] += sign * power
    board[base + ACTIVE_N] += sign
    board[base + ROW_N + row] += sign
    if spec.card_special[card]:
        board[base + SPECIALS] += sign
    if spec.ongoing_rule_mods[card]:
        board[base + MODDERS] += sign
    board[base + CLAN_N + row * len(spec.clans) + spec.card_clan[card]] += sign


def swap(g: Table, seat: int, slot: int, card: int) -> int:
    """Shift (G10): `card` replaces the active card at `slot` in its own space, face up, free
    and without tokens (the old card's token is spent). Returns the old card."""
    out = g.grid[seat][slot]
    if not (g.face_up[seat][slot] and g.captor[seat][slot] == NOBODY):
        leave_play(g, seat, slot)  # not a shift the rules offer; the general way
        place(g, seat, slot, card)
        return out
    set_tokens(g, seat, slot, 0)
    _count_card(g, seat, slot, out, -1)
    grid = list(g.grid[seat])
    grid[slot] = card
    g.grid = replaced(g.grid, seat, tuple(grid))
    serial = list(g.serial[seat])
    serial[slot] += 1
    g.serial = replaced(g.serial, seat, tuple(serial))
    _count_card(g, seat, slot, card, 1)
    special = g.spec.card_special
    if special[out] != special[card]:
        sign = 1 if special[card] else -1
        g.special_slots = replaced(
            g.special_slots, seat, _toggled(g.special_slots[seat], slot, sign)
        )
    return out


def _toggled(slots: tuple[int, ...], slot: int, sign: int) -> tuple[int, ...]:
    """`slots` (in order) with `slot` added (sign 1) or removed (-1)."""
    if sign > 0:
        return tuple(sorted((*slots, slot)))
    return tuple(s for s in slots if s != slot)


def recount(g: Table) -> tuple[Any, ...]:
    """The army summary from scratch (after a test or a setup writes the grid directly): sets
    `g.board`, `g.actives` and `g.special_slots` and returns them."""
    spec = g.spec
    width = spec.row_spaces
    g.valued = -1
    g.board = [0] * (2 * spec.board_stride)
    g.actives = g.special_slots = ((), ())
    board = g.board
    for seat in (0, 1):
        grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
        base = seat * spec.board_stride
        board[base + TROOP_FREE] = grid[:width].count(EMPTY)
        for row in range(1, spec.rows):  # the empty spaces on a card
            board[base + HERO_OPEN + row - 1] = sum(
                1
                for slot in range(row * width, row * width + width)
                if grid[slot] == EMPTY and grid[slot - width] != EMPTY
            )
        for slot in [slot for slot, card in enumerate(grid) if card != EMPTY]:
            if captor[slot] == NOBODY:
                if up[slot]:
                    _count_active(g, seat, slot, grid[slot], 1)
            elif captor[slot] != seat:
                board[captor[slot] * spec.board_stride + CAPTIVES] += 1
    return g.board, g.actives, g.special_slots


def is_exposed(g: Table, seat: int, slot: int) -> bool:
    """G6: no card directly above it (a card in the top row is always exposed)."""
    above = slot + g.spec.row_spaces
    return above >= len(g.grid[seat]) or g.grid[seat][above] == EMPTY
