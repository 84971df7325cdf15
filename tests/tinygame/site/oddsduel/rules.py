"""oddsduel's state and rules: the fate roll, then a stall, a draw or the duel roll."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from balance.core.contract import DRAWN, OPENING, PLAYED, Decision, Event, Result
from oddsduel.odds import ROLL, TURN_LIMIT, OddsSpec, chances, shuffled, tempos, turns

FATE, DUEL, STALLED, OVER = range(4)
FACES = tuple(range(ROLL))
WAITS = (0, 1)  # a stalled game asks and asks, until the turn limit


@dataclass(slots=True)
class Duel:
    spec: OddsSpec
    decks: tuple[str, ...]  # per seat
    piles: list[list[int]]  # per seat, the cards left in the deck, top first
    hands: list[list[int]]
    tempo: tuple[int, ...]
    stage: int
    asking: int  # the seat to decide
    waited: int  # turns a stalled game has waited
    drawn_game: bool
    winner: int  # -1 until the duel is won
    events: list[Event]

    @property
    def turn(self) -> int:
        """Turns begun: the fate roll's, the duel's, then each wait of a stalled game."""
        if self.stage == FATE:
            return 0
        return self.waited + (2 if self.stage == OVER else 1)

    def decision(self) -> Decision | None:
        if self.stage == FATE:
            return Decision(0, "fate", FACES)
        if self.stage == DUEL:
            return Decision(1, "duel", FACES)
        if self.stage == STALLED:
            return Decision(self.asking, "wait", WAITS)
        return None

    def apply(self, option: int) -> None:
        if self.stage == FATE:
            stall, draw, _ = self.odds()
            if option < stall:
                self.stage = STALLED
            elif option < stall + draw:
                self.stage, self.drawn_game = OVER, True
            else:
                self.stage = DUEL
        elif self.stage == DUEL:
            self.winner = 0 if option < self.odds()[2] else 1
            self.stage = OVER
        else:
            self.asking = 1 - self.asking
            self.waited += 1
            if self.waited >= TURN_LIMIT:
                self.stage = OVER

    def odds(self) -> tuple[int, int, int]:
        swing = [sum(self.spec.swing[card] for card in hand) for hand in self.hands]
        return chances(self.spec, self.decks, self.tempo, swing)

    def result(self) -> Result:
        stalled = self.waited >= TURN_LIMIT
        length = turns(self.tempo, self.first_swings(), self.drawn_game, stalled)
        if self.winner >= 0:
            return Result.win(self.winner, 2, "duel", length)
        if stalled:
            return Result.shared([0, 1], 2, "turn_limit", length, capped=True)
        return Result.shared([0, 1], 2, "draw", length)

    def first_swings(self) -> bool:
        return any(self.spec.swing[card] for card in self.hands[0])

    def clone(self) -> Duel:
        return Duel(self.spec, self.decks, [list(p) for p in self.piles],
                    [list(h) for h in self.hands], self.tempo, self.stage, self.asking, self.waited,
                    self.drawn_game, self.winner, list(self.events))  # fmt: skip

    def determinize(self, seat: int, rng: Random) -> Duel:
        """Reshuffle what `seat` cannot see: its own deck's order, and the other seat's hand and
        deck together (the hand's size kept). The game draws nothing more from any RNG."""
        copy = self.clone()
        rng.shuffle(copy.piles[seat])
        other = 1 - seat
        pool = copy.hands[other] + copy.piles[other]
        rng.shuffle(pool)
        size = len(copy.hands[other])
        copy.hands[other], copy.piles[other] = pool[:size], pool[size:]
        return copy

    def evaluate(self, seat: int) -> float:
        if self.stage != OVER:
            return 0.0  # the rolls are yet to come: nothing the seat knows ranks its options
        return 2.0 * self.result().scores[seat] - 1.0

    def describe(self, option: int) -> str:
        if self.stage == FATE:
            return f"roll {option} for fate"
        if self.stage == DUEL:
            return f"roll {option} in the duel"
        return "wait"

    def inventory(self) -> tuple[int, ...]:
        return tuple(sorted(c for zone in (*self.piles, *self.hands) for c in zone))

    def public_summary(self) -> str:
        return public_line(self)


STAGES = {FATE: "fate roll", DUEL: "duel", STALLED: "stalled", OVER: "over"}


def public_line(duel: Duel) -> str:
    """The stage, the waits so far and each seat's hand size."""
    hands = ", ".join(f"seat {s} hand {len(h)}" for s, h in enumerate(duel.hands))
    return f"{STAGES[duel.stage]}, waited {duel.waited}; {hands}"


def new_duel(spec: OddsSpec, lineup: Sequence[str], seed: int) -> Duel:
    seats = len(lineup)
    tempo = tempos(seed, seats)
    piles = [shuffled(spec, deck, seed) for deck in lineup]
    hands: list[list[int]] = [[] for _ in range(seats)]
    events: list[Event] = []
    for seat in range(seats):
        for k in range(spec.hand_size + spec.draws):
            card = piles[seat].pop(0)
            hands[seat].append(card)
            events.append(
                (0, seat, card, OPENING, 1) if k < spec.hand_size else (1, seat, card, DRAWN, 1)
            )
        if tempo[seat]:  # a seat with tempo plays its hand
            events += [(1, seat, card, PLAYED, 1) for card in dict.fromkeys(hands[seat])]
    return Duel(spec, tuple(lineup), piles, hands, tempo, FATE, 0, 0, False, -1, events)
