"""tinyduel's state: each seat's deck, hand, face-down card and points, the verbs that move
cards between zones, and the game's task kinds. The turn flow (the tasks' handlers) and the
contract class are rules.py's."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Self

from balance.core.contract import DRAWN, FIRST_COUNTER, PLAYED, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Task, Tasks
from balance.core.gamerng import GameRng, exact_shuffle
from tinyduel.spec import DuelSpec

ROUND_WON = FIRST_COUNTER + 0  # the card that took a round (catalog counter `rounds_won`)
HIDDEN = -1  # no card played yet this round

# The game runs on the kit's flow engine (balance/core/flow.py): these are its task kinds,
# numbered as declared; rules.py binds their handlers.
TASKS: Tasks[Table] = Tasks("tinyduel")
T_TURN = TASKS.declare("turn")  # (T_TURN, seat): the seat chooses a card to play
T_PLAY = TASKS.declare("play")  # (T_PLAY, seat, card): the answer, played face down
T_REVEAL = TASKS.declare("reveal")  # every seat has played: the round is decided


@dataclass(slots=True)
class Table(Logged):
    """The whole game. A clone copies the small lists, forks the RNG (copied on its first
    draw), shares the events logged so far (the kit's EventLog; `Logged` gives the contract's
    `events`) and copies the task stack
    (its tuples and the pending Decision are never changed, so they are shared)."""

    spec: DuelSpec
    rng: GameRng  # every draw of the game; play after the deal draws nothing
    decks: list[list[int]]  # per seat, top of the deck last
    hands: list[list[int]]
    played: list[int]  # per seat, this round's face-down card or HIDDEN
    boosts: list[int]  # per seat, value added to this round's card by effects
    discard: list[int]
    points: list[int]
    round: int
    to_play: int  # the seat whose turn it is; -1 once the game is over
    log: EventLog
    # the flow engine's fields (core/flow.py's Flowing)
    todo: list[Task]
    asking: Decision | None
    cont: Task
    over: bool

    @property
    def turn(self) -> int:
        """Turns begun so far: each seat's play in a round is a turn."""
        seats = len(self.hands)
        if self.to_play < 0:  # over: every turn of the last round was played
            return self.round * seats
        return (self.round - 1) * seats + self.to_play + 1

    def clone(self) -> Self:
        return type(self)(
            spec=self.spec,
            rng=self.rng.fork(),
            decks=[list(d) for d in self.decks],
            hands=[list(h) for h in self.hands],
            played=list(self.played),
            boosts=list(self.boosts),
            discard=list(self.discard),
            points=list(self.points),
            round=self.round,
            to_play=self.to_play,
            log=self.log.fork(),
            todo=self.todo[:],
            asking=self.asking,
            cont=self.cont,
            over=self.over,
        )

    def determinize(self, seat: int, rng: Random) -> Self:
        """Reshuffle what `seat` cannot see: its own deck order, and each opponent's deck, hand
        and face-down card together (their sizes kept)."""
        copy = self.clone()
        copy.rng = GameRng(rng.getrandbits(64))
        exact_shuffle(copy.decks[seat], rng)
        for other in range(len(copy.hands)):
            if other == seat:
                continue
            has_played = copy.played[other] != HIDDEN
            pool = (
                copy.decks[other] + copy.hands[other] + ([copy.played[other]] if has_played else [])
            )
            exact_shuffle(pool, rng)
            hand_size = len(copy.hands[other])
            copy.hands[other] = pool[:hand_size]
            rest = pool[hand_size:]
            if has_played:
                copy.played[other] = rest.pop()
            copy.decks[other] = rest
        return copy

    def inventory(self) -> tuple[int, ...]:
        cards = [c for d in self.decks for c in d] + [c for h in self.hands for c in h]
        cards += [c for c in self.played if c != HIDDEN] + self.discard
        return tuple(sorted(cards))

    def public_summary(self) -> str:
        """Round, points, and per seat the sizes of its hand and deck and whether it has played."""
        seats = [
            f"seat {s}: {self.points[s]} points, hand {len(self.hands[s])}, deck "
            f"{len(self.decks[s])}" + (", played face down" if self.played[s] != HIDDEN else "")
            for s in range(len(self.hands))
        ]
        return f"round {self.round}; " + "; ".join(seats)


def draw(t: Table, seat: int) -> None:
    """The top card of the seat's deck to its hand (an empty deck draws nothing)."""
    if t.decks[seat]:
        card = t.decks[seat].pop()
        t.hands[seat].append(card)
        t.log.append((t.round, seat, card, DRAWN, 1))


def play_face_down(t: Table, seat: int, card: int) -> None:
    t.hands[seat].remove(card)
    t.played[seat] = card
    t.log.append((t.round, seat, card, PLAYED, 1))


def clear_round(t: Table) -> None:
    """The played cards to the discard pile; this round's boosts end."""
    t.discard.extend(t.played)
    t.played = [HIDDEN] * len(t.played)
    t.boosts = [0] * len(t.boosts)
