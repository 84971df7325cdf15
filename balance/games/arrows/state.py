"""arrows' state: the grid of card instances, each player's zones, and the chain of activations.

The board is a list of cells in reading order (A1, B1, ... E1, A2, ... E5); each holds a `Piece`
(a card instance) or None. Every placed card gets a fresh `uid`, so a chain frame or a queued
activation names the instance, never a cell (cells change when cards move) nor a card id (copies).
Below the data: the verbs that change the zones (destroy, damage, push, move, swap, place, draw,
queue an activation), which effects.py and rules.py both use, and the end of the game's score.
The turn flow and the contract class (`rules.Arrows`) live in rules.py.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, NamedTuple, Self

from balance.core.codes import Names
from balance.core.contract import DRAWN, FIRST_COUNTER, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Task, Tasks
from balance.core.gamerng import GameRng, fast_shuffle

if TYPE_CHECKING:
    from balance.games.arrows.spec import ArrowsSpec, CardEffect

# -- the board's words (G1) -------------------------------------------------------------------

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # N is toward row 1
STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))  # (column, row)
ORTHOGONAL = (0, 2, 4, 6)
OPPOSITE = (4, 5, 6, 7, 0, 1, 2, 3)

# How a card came to activate (§4, `via`); every reactivation uses MOVED.
VIAS = ("played", "revealed", "revived", "moved")
PLAYED, REVEALED, REVIVED, MOVED = range(4)
NO_VIA = 4  # a trigger outside an activation (flipped, destroyed, turn_end)

# The steps of one activation frame: the Activation Sequence of R9, with S0 (G10) first.
S0_TRIGGERS, S1_ABILITIES, S2_FIND_CONFLICTS, S2_CONFLICTS, S3_FLIP, S4_ABILITIES = range(6)

# The turn's steps (R1) as the state machine of §4 walks them.
GAIN_AND_DRAW, REVEAL, PLAY, TURN_END, SCORE, DISCARD, END_TURN = range(7)

# The game's own per-card counters (§9, Catalog.counters), counted for the card's owner: each
# one's event id (FIRST_COUNTER + k).
COUNTERS = Names(FIRST_COUNTER)
FLIPS = COUNTERS.add("flips")  # opponent cards this card flipped in its flip step
FLIPPED = COUNTERS.add("flipped")  # times this card was flipped away from its owner
# cards this card destroyed (conflict, ability, triggered effect, push)
KILLS = COUNTERS.add("kills")
CONFLICTS_WON = COUNTERS.add("conflicts_won")  # conflicts this card survived and won
# conflicts this card died in (mutual destruction included)
CONFLICTS_LOST = COUNTERS.add("conflicts_lost")
ABILITIES_USED = COUNTERS.add("abilities_used")
REACTIVATIONS = COUNTERS.add("reactivations")
PLAYED_COVERED = COUNTERS.add("played_covered")
REVIVED_COUNT = COUNTERS.add("revived")
# on the board at the end, face-up and scoring for its owner
SCORED_AT_END = COUNTERS.add("scored_at_end")

# Result.stats keys (§9): per game, per seat (`_0`, `_1`), per arrow direction.
_PER_SEAT = ("credits_gained", "credits_spent", "credits_unspent", "active_plays",
             "covered_plays", "unpaid_reveals", "discards", "avg_hand")  # fmt: skip
GAME_STATS = (
    *("first_player", "board_score_0", "board_score_1", "margin", "chains", "max_chain_depth"),
    *("conflicts", "flips", "covered_destroyed", "dropped_triggers", "passes"),
    *(f"{name}_{seat}" for name in _PER_SEAT for seat in (0, 1)),
    *(f"conflicts_{d}" for d in DIRECTIONS),
    *(f"flips_{d}" for d in DIRECTIONS),
)

# The game's own statistics (§9) as one flat list of ints (`ArrowsState.tally`), so that a clone
# copies them in one go: single counters, then per seat (index + seat), then per arrow direction
# (index + direction).
T_CHAINS, T_MAX_CHAIN_DEPTH, T_CONFLICTS, T_FLIPS, T_COVERED_DESTROYED = range(5)
T_DROPPED_TRIGGERS, T_PASSES = 5, 6
T_CREDITS_GAINED, T_CREDITS_SPENT, T_ACTIVE_PLAYS, T_COVERED_PLAYS = 7, 9, 11, 13
T_UNPAID_REVEALS, T_DISCARDS, T_HAND_SIZES, T_OWN_TURNS = 15, 17, 19, 21  # hand sizes: summed
T_CONFLICTS_BY_ARROW, T_FLIPS_BY_ARROW = 23, 31  # at the end of each own turn
TALLY_SIZE = 39

# Option words that are not tuples of numbers.
PASS = "pass"
END_PHASE = "end_phase"
SKIP = "skip"
APPLY = "apply"


@dataclass(slots=True)
class Piece:
    """A card on the board (§3). Current ATK/DEF: see `current_atk` / `current_def`."""

    uid: int
    card: int
    owner: int  # whose deck it came from: its graveyard on death
    controller: int
    cell: int  # its cell, or its last cell once it has left the board
    face_up: bool
    cost_due: int  # a covered card's deferred cost (G7)
    placed_free: (
        bool  # placed covered by `place_covered` with free: true (cost_due 0, not its cost)
    )
    damage: int  # cleared at step 9 (G5)
    atk_turn: int  # modify_stats until end_of_turn
    def_turn: int
    atk_perm: int  # modify_stats permanent: while the card stays on the board
    def_perm: int
    moved: bool  # changed cell this turn (G6, G9)
    reactivations: int  # this turn (G9 cap)
    gen: int  # the `ArrowsState.gen` of the one state that may change it in place (see `own`)
    sides: int  # face-up: spec.open_sides[card][cell], the cells it can be flipped from; else 0

    def copy(self, gen: int) -> Piece:
        return Piece(
            self.uid, self.card, self.owner, self.controller, self.cell, self.face_up,
            self.cost_due, self.placed_free, self.damage, self.atk_turn, self.def_turn,
            self.atk_perm, self.def_perm, self.moved, self.reactivations, gen, self.sides,
        )  # fmt: skip


def current_atk(spec: ArrowsSpec, piece: Piece) -> int:
    return max(0, spec.atk[piece.card] + piece.atk_turn + piece.atk_perm)


def current_def(spec: ArrowsSpec, piece: Piece) -> int:
    return spec.def_[piece.card] + piece.def_turn + piece.def_perm - piece.damage


# The rules run on the kit's flow engine (balance/core/flow.py): `todo` is a stack of tasks, plain
# tuples, whose kinds are declared here and bound to their handlers in rules.py. At the bottom
# the turn (`(RUN_TURN,)`, always there until the game ends); above it the chain stack (R11):
# one `(RUN_ACTIVATION, uid, reactivation, via, step, used, revived, conflicts)` per card running
# its Activation Sequence (§4 frames: `step` S0 ... S4; `used` the bits of the arrows whose
# ability it used, G8; `revived` the cost it revived so far; `conflicts` its unresolved eligible
# conflicts, (arrow, defender uid) pairs) and one `(RUN_GROUP, entries)` per group of activations
# queued together that wait for P's `chain_order`; on top the triggered effects still to resolve,
# `(RUN_TRIGGER, trigger)`, the next in reading order last, with `(RUN_QUEUED,)` below them when
# the actions so far queued activations (`queued`). A task that asks a decision leaves itself on
# the stack and asks it with an answer task (`ANSWER_*`) as `cont`: the answer takes it off; so
# running the stack again without the answer asks the same decision afresh (`rules.advance`).
TASKS: Tasks[ArrowsState] = Tasks("arrows")
RUN_TURN = TASKS.declare("turn")
RUN_ACTIVATION = TASKS.declare("activation")
RUN_GROUP = TASKS.declare("group")
RUN_QUEUED = TASKS.declare("queued")
RUN_TRIGGER = TASKS.declare("trigger")
ANSWER_PLAY = TASKS.declare("answer_play")
ANSWER_REVEAL_ORDER = TASKS.declare("answer_reveal_order")
ANSWER_DISCARD = TASKS.declare("answer_discard")
ANSWER_ABILITY = TASKS.declare("answer_ability")
ANSWER_CONFLICT = TASKS.declare("answer_conflict")
ANSWER_TARGET = TASKS.declare("answer_target")
ANSWER_CHAIN_ORDER = TASKS.declare("answer_chain_order")
QUEUED_TASK: Task = (RUN_QUEUED,)


class Trigger(NamedTuple):
    """A triggered effect waiting to resolve (§4 Chains, step 1)."""

    cell: int  # the source's cell (its last cell if it has left the board): the reading order
    uid: int  # the source instance (may be gone from the board)
    card: int
    owner: int  # the seat whose deck the source came from (its card counters)
    controller: int  # the effect's controller: it decides the effect's `target` decision
    atk: int  # the source's ATK when the trigger fired (for `amount: atk` once it is gone)
    via: int
    effect: CardEffect


# Every clone takes two fresh generations, one for itself and one for the original: see `own`.
_GENERATIONS = itertools.count(1)


@dataclass(slots=True)
class ArrowsState(Logged, ABC):
    """The whole game. `clone()` is cheap because it shares what it can:

    - Pieces are copy-on-write. A clone copies the grid and the uid map but not the pieces in
      them; the original and the copy both take a new `gen`, so neither owns a shared piece any
      more, and every rule that changes a piece first calls `own(s, piece)`, which copies it
      into this state alone. A clone that changes two pieces copies two.
    - Decks, graveyards and the removed pile change seldom (a draw, a death): a clone shares
      them, and `own_zones` copies them before the first change.
    - `scores`, `to_reveal` and `marked` are only ever replaced, never changed in place: shared
      as they are.
    - The RNG is the kit's `GameRng`, copied on first draw: a clone takes `rng.fork()`, and
      determinize a `GameRng` seeded from the bot's stream. Play after setup never draws in the
      shipped rules, so in practice no clone copies it.
    """

    spec: ArrowsSpec
    rng: GameRng  # every draw of the game: `rng.stream()`, `rng.shuffle(cards)`
    gen: int  # this state owns (may change in place) the pieces of the same gen
    seed: int
    first: int  # the seat that took game turn 1
    turn: int  # game turns from 1 (t)
    active: int  # P, the active player
    step: int  # the turn's step (GAIN_AND_DRAW ... END_TURN)
    credits: list[int]
    decks: list[list[int]]  # per seat, the top of the deck last
    hands: list[list[int]]
    graveyards: list[list[int]]
    removed: list[int]  # pushed off the grid (G14)
    zones_shared: bool  # decks, graveyards and removed are shared with a clone: see own_zones
    grid: list[Piece | None]
    pieces: dict[int, Piece]  # uid -> the pieces on the board
    occupied: int  # the cells holding a piece, as a bit mask (bit `cell`)
    # Per seat, one entry per face-up card it controls on the board: that card's `sides`. Its
    # length is the seat's G11 score; evaluate counts the entries open to an empty cell.
    up_sides: list[list[int]]
    down: list[int]  # per seat, the covered cards it controls on the board
    turn_enders: int  # face-up cards on the board with `turn_end` effects (step 7 looks if any)
    next_uid: int
    scores: list[int]  # the last recorded scores (step 7); replaced, never changed in place
    todo: list[Task]  # the flow engine's stack of tasks (see TASKS): the last runs next
    triggers: list[Trigger]  # fired by the action in progress
    queued: list[tuple[int, bool, int]]  # activations queued, waiting for `(RUN_QUEUED,)`
    to_reveal: list[int]  # uids still covered from the start of step 3 (G7); replaced likewise
    plays: int  # cards played this turn (G2)
    acted: bool  # a card was played or revealed this turn (the stall counter)
    stall: int
    activations: int  # this turn (G9 cap)
    # uids of the pieces that took damage, a turn-long modifier, a move or a reactivation this
    # turn (`mark`): step 9 clears those; replaced, never changed in place (shared with clones)
    marked: list[int]
    over: bool
    end_reason: str
    tally: list[int]  # the game's statistics, indexed by the T_* constants
    log: EventLog  # the card events: log with `log.append`; a clone shares the earlier ones
    asking: Decision | None  # the decision the state waits on, computed once per apply
    cont: Task  # the answer task `asking`'s chosen option goes to (flow.answer)

    # -- the contract (the methods that run the rules are rules.Arrows') -----------------------

    def decision(self) -> Decision | None:
        return self.asking

    @abstractmethod
    def apply(self, option: int) -> None:
        """Runs the rules: rules.Arrows, the class every game is made of, defines it. Declared
        here for the previews of heuristics.py, which apply options to a clone."""

    def clone(self) -> Self:
        self.gen = next(_GENERATIONS)  # the pieces are shared from now on: see `own`
        self.zones_shared = True
        return type(self)(
            self.spec, self.rng.fork(), next(_GENERATIONS),
            self.seed, self.first, self.turn, self.active, self.step, self.credits[:],
            self.decks, [self.hands[0][:], self.hands[1][:]], self.graveyards, self.removed, True,
            self.grid[:],
            self.pieces.copy(), self.occupied, [self.up_sides[0][:], self.up_sides[1][:]],
            self.down[:], self.turn_enders, self.next_uid, self.scores,
            self.todo[:], self.triggers[:] if self.triggers else [],
            self.queued[:] if self.queued else [], self.to_reveal, self.plays, self.acted,
            self.stall, self.activations, self.marked, self.over, self.end_reason, self.tally[:],
            self.log.fork(), self.asking, self.cont,
        )  # fmt: skip

    def determinize(self, seat: int, rng: Random) -> Self:
        """A copy in which what `seat` cannot see is redealt (§4 Hidden information).

        `seat` sees its own hand, both graveyards, credits and scores, the board, and the cards
        it owns among the covered ones. Redealt: the order of its own deck, and the opponent's
        unseen cards (deck, hand, the covered cards it owns) among themselves, sizes kept.
        """
        copy = self.clone()
        copy.rng = GameRng(rng.getrandbits(64))
        own_zones(copy)
        fast_shuffle(copy.decks[seat], rng)
        spec = self.spec
        other = 1 - seat
        covered = [p for p in copy.pieces.values() if not p.face_up and p.owner == other]
        if len(covered) > 1:
            covered.sort(key=_by_uid)
        pool = copy.decks[other] + copy.hands[other] + [p.card for p in covered]
        fast_shuffle(pool, rng)
        hand_size = len(copy.hands[other])
        copy.hands[other] = pool[:hand_size]
        for i, piece in enumerate(covered):
            piece = own(copy, piece)
            piece.card = pool[hand_size + i]
            if not piece.placed_free:
                piece.cost_due = spec.cost[piece.card]
        copy.decks[other] = pool[hand_size + len(covered) :]
        asking = self.asking
        if len(copy.todo) > 1 or asking is None or asking.seat != seat:
            # The same position, but options that read hidden cards may differ (the opponent's
            # hand, a covered card in a chain), so they are computed afresh (Arrows.determinize
            # runs the rules up to the decision). The seat's own turn-step decisions (play,
            # reveal order, discard: only the turn is on `todo`) read only what it knows.
            copy.asking = None
        return copy

    def inventory(self) -> tuple[int, ...]:
        cards = [c for zone in (*self.decks, *self.hands, *self.graveyards) for c in zone]
        cards += self.removed
        cards += [piece.card for piece in self.pieces.values()]
        return tuple(sorted(cards))

    def public_summary(self) -> str:
        return public_line(self)


def own(s: ArrowsState, piece: Piece) -> Piece:
    """`piece` as this state's own, ready to change: a shared piece (from before a clone) is
    copied first and the copy put in its place on the grid and in the uid map. Every change to
    a piece on the board goes through here; keep using the piece it returns."""
    if piece.gen == s.gen:
        return piece
    piece = piece.copy(s.gen)
    s.pieces[piece.uid] = piece
    s.grid[piece.cell] = piece
    return piece


def mark(s: ArrowsState, piece: Piece) -> None:
    """`piece` took damage, a turn-long modifier, a move or a reactivation: step 9 clears it."""
    s.marked = [*s.marked, piece.uid]


def own_zones(s: ArrowsState) -> None:
    """Make the decks, graveyards and removed pile this state's own before changing them (a
    clone shares them until then)."""
    if s.zones_shared:
        s.decks = [s.decks[0][:], s.decks[1][:]]
        s.graveyards = [s.graveyards[0][:], s.graveyards[1][:]]
        s.removed = s.removed[:]
        s.zones_shared = False


def _by_uid(piece: Piece) -> int:
    return piece.uid


def public_line(s: ArrowsState) -> str:
    """Per seat: credits, score, hand, deck and graveyard sizes; then the board, each piece as
    cell:card/controller (a covered card as `?`)."""
    names = s.spec.catalog.cards
    seats = "; ".join(
        f"seat {p}: {s.credits[p]} credits, score {s.scores[p]}, hand {len(s.hands[p])}, deck "
        f"{len(s.decks[p])}, graveyard {len(s.graveyards[p])}"
        for p in range(len(s.hands))
    )
    board = " ".join(
        f"{cell}:{names[piece.card] if piece.face_up else '?'}/{piece.controller}"
        for cell, piece in enumerate(s.grid)
        if piece is not None
    )
    return f"seat {s.active} active; {seats}; board [{board}]"


# -- the verbs of cards and abilities ----------------------------------------------------------


def count(s: ArrowsState, piece: Piece, counter: int) -> None:
    s.log.append((s.turn, piece.owner, piece.card, counter, 1))


def piece_at(s: ArrowsState, cell: int) -> Piece:
    piece = s.grid[cell]
    assert piece is not None, "an offered cell holds a card"
    return piece


def take_off_board(s: ArrowsState, piece: Piece) -> None:
    s.grid[piece.cell] = None
    s.occupied &= ~(1 << piece.cell)
    del s.pieces[piece.uid]
    if piece.face_up:
        s.up_sides[piece.controller].remove(piece.sides)
        if s.spec.on_turn_end[piece.card]:
            s.turn_enders -= 1
    else:
        s.down[piece.controller] -= 1


def destroy(s: ArrowsState, piece: Piece, by_card: int = -1, by_seat: int = -1) -> None:
    """To the owner's graveyard (G4, G14); a face-up card's `destroyed` effects fire from its
    last cell; a covered one is simply revealed there."""
    take_off_board(s, piece)
    own_zones(s)
    s.graveyards[piece.owner].append(piece.card)
    if by_card >= 0:
        s.log.append((s.turn, by_seat, by_card, KILLS, 1))
    if piece.face_up:
        for effect in s.spec.on_destroyed[piece.card]:
            s.triggers.append(trigger_of(s, piece, effect, NO_VIA))
    else:
        s.tally[T_COVERED_DESTROYED] += 1


def deal_damage(s: ArrowsState, piece: Piece, amount: int, by_card: int, by_seat: int) -> None:
    """Damage stays until step 9 (G5); a covered card dies to any damage of 1 or more (G7)."""
    if not piece.face_up:
        if amount >= 1:
            destroy(s, piece, by_card, by_seat)
        return
    piece = own(s, piece)
    piece.damage += amount
    mark(s, piece)
    if current_def(s.spec, piece) <= 0:
        destroy(s, piece, by_card, by_seat)


def push(s: ArrowsState, source: Piece, target: Piece, arrow: int) -> None:
    """§6 push: one cell on; a card on the landing cell is destroyed first; off the grid it goes
    per `push_off_board`."""
    spec = s.spec
    landing = spec.neighbor[target.cell][arrow]
    if landing < 0:
        if spec.push_off_board == "remove":
            take_off_board(s, target)
            own_zones(s)
            s.removed.append(target.card)
        else:
            destroy(s, target, source.card, source.owner)
        return
    occupant = s.grid[landing]
    if occupant is not None:
        destroy(s, occupant, source.card, source.owner)
    after_moves(s, [move(s, target, landing)])


def move(s: ArrowsState, piece: Piece, cell: int) -> Piece:
    """The piece onto an empty cell; returns it (this state's own copy, see `own`)."""
    piece = own(s, piece)
    s.grid[piece.cell] = None
    s.grid[cell] = piece
    s.occupied ^= (1 << piece.cell) | (1 << cell)
    piece.cell = cell
    if piece.face_up:
        resides(s, piece)
    piece.moved = True
    mark(s, piece)
    return piece


def swap(s: ArrowsState, a: Piece, b: Piece) -> tuple[Piece, Piece]:
    a, b = own(s, a), own(s, b)
    s.grid[a.cell], s.grid[b.cell] = b, a
    a.cell, b.cell = b.cell, a.cell
    if a.face_up:
        resides(s, a)
    if b.face_up:
        resides(s, b)
    a.moved = True
    b.moved = True
    mark(s, a)
    mark(s, b)
    return a, b


def resides(s: ArrowsState, piece: Piece) -> None:
    """A face-up piece changed cell: the cells it can be flipped from change with it."""
    sides = s.up_sides[piece.controller]
    sides.remove(piece.sides)
    piece.sides = s.spec.open_sides[piece.card][piece.cell]
    sides.append(piece.sides)


def after_moves(s: ArrowsState, moved: list[Piece]) -> None:
    """G9 (a) P's face-up card that changed cell reactivates; (c) an opponent face-up card moved
    to where it and a face-up card of P's point at each other: P's card reactivates."""
    spec = s.spec
    seat = s.active
    for piece in moved:
        piece = s.pieces.get(piece.uid)  # type: ignore[assignment]  # the current copy, if any
        if piece is None or not piece.face_up:
            continue
        if piece.controller == seat:
            queue_activation(s, piece, True, MOVED)
            continue
        for arrow in spec.fight_arrows[piece.card]:
            cell = spec.neighbor[piece.cell][arrow]
            if cell < 0:
                continue
            other = s.grid[cell]
            if (
                other is not None
                and other.face_up
                and other.controller == seat
                and fights(spec, other.card, OPPOSITE[arrow])
            ):
                queue_activation(s, other, True, MOVED)


def place(
    s: ArrowsState, seat: int, card: int, cell: int, face_up: bool, cost_due: int, placed_free: bool
) -> Piece:
    """A card onto an empty cell. With `board_full_end: immediate` the last cell ends the game
    at once, before anything else happens (G12)."""
    sides = s.spec.open_sides[card][cell] if face_up else 0
    piece = Piece(s.next_uid, card, seat, seat, cell, face_up, cost_due, placed_free,
                  0, 0, 0, 0, 0, False, 0, s.gen, sides)  # fmt: skip
    s.next_uid += 1
    s.grid[cell] = piece
    s.occupied |= 1 << cell
    s.pieces[piece.uid] = piece
    if face_up:
        s.up_sides[seat].append(sides)
        if s.spec.on_turn_end[card]:
            s.turn_enders += 1
    else:
        s.down[seat] += 1
    if len(s.pieces) == s.spec.cells and s.spec.board_full_end == "immediate":
        end_game(s, "board_full")
    return piece


def draw(s: ArrowsState, seat: int, n: int) -> None:
    """Draw n; an empty deck is skipped without penalty (G13 `deck_out: skip`)."""
    if not n:
        return
    own_zones(s)
    deck = s.decks[seat]
    for _ in range(n):
        if not deck:
            return
        card = deck.pop()
        s.hands[seat].append(card)
        s.log.append((s.turn, seat, card, DRAWN, 1))


def queue_activation(s: ArrowsState, piece: Piece, reactivation: bool, via: int) -> None:
    """Queue a (re)activation (G9). A card already on the chain stack or waiting on it is not
    queued again; past the per-card or per-turn cap the trigger is dropped and counted."""
    uid = piece.uid
    if s.queued and any(entry[0] == uid for entry in s.queued):
        return
    todo = s.todo
    below = len(todo)
    if below > 1:  # the chain stack: the activations and groups above the turn
        for task in todo:
            kind = task[0]
            if kind == RUN_ACTIVATION:
                if task[1] == uid:
                    return
            elif kind == RUN_GROUP and any(entry[0] == uid for entry in task[1]):
                return
    spec = s.spec
    if s.activations >= spec.max_activations_per_turn or (
        reactivation and piece.reactivations >= spec.max_reactivations_per_card_per_turn
    ):
        s.tally[T_DROPPED_TRIGGERS] += 1
        return
    if reactivation:
        piece = own(s, piece)
        piece.reactivations += 1
        mark(s, piece)
    s.activations += 1
    if not s.queued:
        # The queued activations start once the triggered effects waiting now have resolved
        # (§4 Chains): `(RUN_QUEUED,)` goes below those on top of the stack.
        while below and todo[below - 1][0] == RUN_TRIGGER:
            below -= 1
        todo.insert(below, QUEUED_TASK)
    s.queued.append((uid, reactivation, via))


def trigger_of(s: ArrowsState, piece: Piece, effect: CardEffect, via: int) -> Trigger:
    return Trigger(piece.cell, piece.uid, piece.card, piece.owner, piece.controller,
                   current_atk(s.spec, piece), via, effect)  # fmt: skip


def fights(spec: ArrowsSpec, card: int, arrow: int) -> bool:
    """Whether the card's arrow in this direction counts for conflicts, defence and flips (G3)."""
    return (spec.fight_mask[card] >> arrow) & 1 == 1


# -- the end (§8) ------------------------------------------------------------------------------


def end_game(s: ArrowsState, reason: str) -> None:
    s.over = True
    s.end_reason = reason
    counts_covered = s.spec.score_covered
    for piece in s.pieces.values():
        if (piece.face_up or counts_covered) and piece.controller == piece.owner:
            count(s, piece, SCORED_AT_END)


def winner(s: ArrowsState) -> int | None:
    """The higher board score wins; equal scores follow `tiebreak` (draw, or more credits)."""
    scores = board_scores(s)
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    if s.spec.tiebreak == "credits" and s.credits[0] != s.credits[1]:
        return 0 if s.credits[0] > s.credits[1] else 1
    return None


def final_score(s: ArrowsState, seat: int) -> float:
    """`result().scores[seat]` without the statistics: 1 for a win, 1/2 for a draw, else 0."""
    won = winner(s)
    return 0.5 if won is None else float(won == seat)


def board_scores(s: ArrowsState) -> list[int]:
    """G11: the face-up cards each player controls (covered ones too with `score_covered`)."""
    if s.spec.score_covered:
        return [len(s.up_sides[0]) + s.down[0], len(s.up_sides[1]) + s.down[1]]
    return [len(s.up_sides[0]), len(s.up_sides[1])]
