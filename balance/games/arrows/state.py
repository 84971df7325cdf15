"""arrows' state: the grid of card instances, each player's zones, and the chain of activations.

The board is a list of cells in reading order (A1, B1, ... E1, A2, ... E5); each holds a `Piece`
(a card instance) or None. Every placed card gets a fresh `uid`, so a chain frame or a queued
activation names the instance, never a cell (cells change when cards move) nor a card id (copies).
Everything here is data; the rules that change it live in rules.py and effects.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, NamedTuple

from balance.core.contract import Decision, Event, Result

if TYPE_CHECKING:
    from balance.games.arrows.cards import ArrowsSpec
    from balance.games.arrows.effects import CardEffect

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

# The game's own per-card counters (§9), event FIRST_COUNTER + k; counted for the card's owner.
COUNTERS = (
    "flips",  # opponent cards this card flipped in its flip step
    "flipped",  # times this card was flipped away from its owner
    "kills",  # cards this card destroyed (conflict, ability, triggered effect, push)
    "conflicts_won",  # conflicts this card survived and won
    "conflicts_lost",  # conflicts this card died in (mutual destruction included)
    "abilities_used",
    "reactivations",
    "played_covered",
    "revived",
    "scored_at_end",  # on the board at the end, face-up and scoring for its owner
)

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

# Option words that are not tuples of numbers.
PASS = "pass"
END_PHASE = "end_phase"
SKIP = "skip"
APPLY = "apply"


def cell_name(spec: ArrowsSpec, cell: int) -> str:
    return spec.cell_names[cell]


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

    def copy(self) -> Piece:
        return Piece(
            self.uid, self.card, self.owner, self.controller, self.cell, self.face_up,
            self.cost_due, self.placed_free, self.damage, self.atk_turn, self.def_turn,
            self.atk_perm, self.def_perm, self.moved, self.reactivations,
        )  # fmt: skip


def current_atk(spec: ArrowsSpec, piece: Piece) -> int:
    return max(0, spec.atk[piece.card] + piece.atk_turn + piece.atk_perm)


def current_def(spec: ArrowsSpec, piece: Piece) -> int:
    return spec.def_[piece.card] + piece.def_turn + piece.def_perm - piece.damage


@dataclass(slots=True)
class Frame:
    """One card running its Activation Sequence: a level of the chain stack (§4)."""

    uid: int
    reactivation: bool
    via: int
    step: int
    used: int  # bit `arrow` set: that arrow's ability was used in this activation (G8, R10)
    revived: int  # the cost already revived in this activation (revive budget)
    conflicts: list[tuple[int, int]]  # unresolved eligible conflicts: (arrow, defender uid)

    def copy(self) -> Frame:
        return Frame(
            self.uid, self.reactivation, self.via, self.step, self.used, self.revived,
            list(self.conflicts),
        )  # fmt: skip


@dataclass(slots=True)
class Queued:
    """Activations queued together by one action, waiting on the stack for P's `chain_order`."""

    entries: list[tuple[int, bool, int]]  # (uid, reactivation, via)

    def copy(self) -> Queued:
        return Queued(list(self.entries))


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


@dataclass(slots=True)
class Tally:
    """The game's own statistics (§9), kept as plain ints for Result.stats."""

    chains: int
    max_chain_depth: int
    conflicts: int
    flips: int
    covered_destroyed: int
    dropped_triggers: int
    passes: int
    credits_gained: list[int]
    credits_spent: list[int]
    active_plays: list[int]
    covered_plays: list[int]
    unpaid_reveals: list[int]
    discards: list[int]
    hand_sizes: list[int]  # summed at the end of each own turn
    own_turns: list[int]
    conflicts_by_arrow: list[int]  # per direction, N first
    flips_by_arrow: list[int]

    @staticmethod
    def empty() -> Tally:
        return Tally(0, 0, 0, 0, 0, 0, 0, [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0],
                     [0, 0], [0, 0], [0] * 8, [0] * 8)  # fmt: skip

    def copy(self) -> Tally:
        return Tally(
            self.chains, self.max_chain_depth, self.conflicts, self.flips,
            self.covered_destroyed, self.dropped_triggers, self.passes,
            list(self.credits_gained), list(self.credits_spent), list(self.active_plays),
            list(self.covered_plays), list(self.unpaid_reveals), list(self.discards),
            list(self.hand_sizes), list(self.own_turns), list(self.conflicts_by_arrow),
            list(self.flips_by_arrow),
        )  # fmt: skip


@dataclass(slots=True)
class ArrowsState:
    spec: ArrowsSpec
    rng: Random
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
    grid: list[Piece | None]
    pieces: dict[int, Piece]  # uid -> the pieces on the board
    next_uid: int
    scores: list[int]  # the last recorded scores (step 7)
    stack: list[Frame | Queued]  # the chain stack: the top resolves first (R11)
    batches: list[list[Trigger]]  # triggered effects to resolve, each batch reversed
    triggers: list[Trigger]  # fired by the action in progress
    queued: list[tuple[int, bool, int]]  # activations queued by the action in progress
    to_reveal: list[int]  # uids still covered from the start of step 3 (G7)
    plays: int  # cards played this turn (G2)
    acted: bool  # a card was played or revealed this turn (the stall counter)
    stall: int
    activations: int  # this turn (G9 cap)
    over: bool
    end_reason: str
    tally: Tally
    events: list[Event]
    pending: Decision | None  # the decision the state waits on, computed once per apply

    # -- the contract ------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        return self.pending

    def apply(self, option: int) -> None:
        rules.apply_option(self, option)

    def result(self) -> Result:
        return rules.result(self)

    def clone(self) -> ArrowsState:
        rng = Random(0)
        rng.setstate(self.rng.getstate())
        pieces = {uid: piece.copy() for uid, piece in self.pieces.items()}
        grid: list[Piece | None] = [None] * len(self.grid)
        for piece in pieces.values():
            grid[piece.cell] = piece
        return ArrowsState(
            spec=self.spec,
            rng=rng,
            seed=self.seed,
            first=self.first,
            turn=self.turn,
            active=self.active,
            step=self.step,
            credits=list(self.credits),
            decks=[list(d) for d in self.decks],
            hands=[list(h) for h in self.hands],
            graveyards=[list(g) for g in self.graveyards],
            removed=list(self.removed),
            grid=grid,
            pieces=pieces,
            next_uid=self.next_uid,
            scores=list(self.scores),
            stack=[level.copy() for level in self.stack],
            batches=[list(b) for b in self.batches],
            triggers=list(self.triggers),
            queued=list(self.queued),
            to_reveal=list(self.to_reveal),
            plays=self.plays,
            acted=self.acted,
            stall=self.stall,
            activations=self.activations,
            over=self.over,
            end_reason=self.end_reason,
            tally=self.tally.copy(),
            events=list(self.events),
            pending=self.pending,
        )

    def determinize(self, seat: int, rng: Random) -> ArrowsState:
        """A copy in which what `seat` cannot see is redealt (§4 Hidden information).

        `seat` sees its own hand, both graveyards, credits and scores, the board, and the cards
        it owns among the covered ones. Redealt: the order of its own deck, and the opponent's
        unseen cards (deck, hand, the covered cards it owns) among themselves, sizes kept.
        """
        copy = self.clone()
        copy.rng = Random(rng.getrandbits(64))
        rng.shuffle(copy.decks[seat])
        spec = self.spec
        for other in range(len(copy.hands)):
            if other == seat:
                continue
            covered = [p for p in sorted(copy.pieces.values(), key=_by_uid)
                       if not p.face_up and p.owner == other]  # fmt: skip
            pool = copy.decks[other] + copy.hands[other] + [p.card for p in covered]
            rng.shuffle(pool)
            hand_size = len(copy.hands[other])
            copy.hands[other] = pool[:hand_size]
            for i, piece in enumerate(covered):
                piece.card = pool[hand_size + i]
                if not piece.placed_free:
                    piece.cost_due = spec.cost[piece.card]
            copy.decks[other] = pool[hand_size + len(covered) :]
        copy.pending = None
        rules.advance(copy)  # the same position: only options that read hidden cards may differ
        return copy

    def evaluate(self, seat: int) -> float:
        return heuristics.evaluate(self, seat)

    def describe(self, option: int) -> str:
        return rules.describe(self, option)

    def inventory(self) -> tuple[int, ...]:
        cards = [c for zone in (*self.decks, *self.hands, *self.graveyards) for c in zone]
        cards += self.removed
        cards += [piece.card for piece in self.pieces.values()]
        return tuple(sorted(cards))


def _by_uid(piece: Piece) -> int:
    return piece.uid


# The rules build on the classes above and the contract methods call them at run time.
from balance.games.arrows import heuristics, rules
