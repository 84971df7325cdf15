"""tinyduel's rules: every seat plays a card face down in seat order; then the cards are revealed
and the highest value takes the round. They run as the kit's flow engine's tasks (balance/core/
flow.py): a task poses a decision with the task that takes its answer, and `Duel.apply` resumes
there. The contract class `Duel` runs them."""

from __future__ import annotations

from collections.abc import Sequence

from balance.core import flow
from balance.core.contract import OPENING, Decision, Result
from balance.core.eventchain import EventLog
from balance.core.flow import Task
from balance.core.gamerng import GameRng
from tinyduel import heuristics
from tinyduel.effects import on_play
from tinyduel.spec import DuelSpec
from tinyduel.state import (
    HIDDEN,
    ROUND_WON,
    T_PLAY,
    T_REVEAL,
    T_TURN,
    TASKS,
    Table,
    clear_round,
    draw,
    play_face_down,
)


class Duel(Table):
    """A game of tinyduel: the contract's methods that run the rules, over the table's data."""

    __slots__ = ()

    def decision(self) -> Decision | None:
        return self.asking

    def apply(self, option: int) -> None:
        flow.resume(self, option, TASKS)

    def result(self) -> Result:
        seats = len(self.points)
        best = max(self.points)
        leaders = [s for s in range(seats) if self.points[s] == best]
        reason = "points" if best >= self.spec.points_to_win else "rounds"
        stats = {"rounds": float(self.round)}
        return Result.shared(leaders, seats, reason, self.round, stats=stats)

    def evaluate(self, seat: int) -> float:
        if self.to_play < 0:
            return 2.0 * self.result().scores[seat] - 1.0
        return heuristics.evaluate(self, seat)

    def describe(self, option: int) -> str:
        if self.asking is None:
            raise ValueError("no decision is pending")
        card = self.asking.options[option]
        return f"play {self.spec.catalog.cards[card]}"


def new_game(spec: DuelSpec, lineup: Sequence[str], seed: int) -> Duel:
    """Each seat's deck shuffled from `seed`, in seat order, then `hand_size` cards each."""
    rng = GameRng(seed)
    decks = []
    for deck_name in lineup:
        deck = [
            card for card, copies in spec.catalog.decks[deck_name].items() for _ in range(copies)
        ]
        rng.shuffle(deck)
        decks.append(deck)
    seats = len(lineup)
    duel = Duel(
        spec=spec,
        rng=rng,
        decks=decks,
        hands=[[] for _ in range(seats)],
        played=[HIDDEN] * seats,
        boosts=[0] * seats,
        discard=[],
        points=[0] * seats,
        round=1,
        to_play=0,
        log=EventLog(),
        todo=[(T_TURN, 0)],
        asking=None,
        cont=(),
        over=False,
    )
    for seat in range(seats):
        for _ in range(spec.hand_size):
            card = duel.decks[seat].pop()
            duel.hands[seat].append(card)
            duel.log.append((0, seat, card, OPENING, 1))
    flow.run(duel, TASKS)  # to seat 0's first choice
    return duel


def turn(t: Table, task: Task) -> None:
    """(T_TURN, seat): the seat picks a card of its hand; its answer is played (T_PLAY)."""
    seat = task[1]
    t.to_play = seat
    flow.ask(t, Decision(seat, "play", _distinct(t.hands[seat])), (T_PLAY, seat))


def play(t: Table, task: Task) -> None:
    """(T_PLAY, seat, card): face down, its effects, then the next seat's turn or the reveal."""
    _, seat, card = task
    play_face_down(t, seat, card)
    on_play(t, seat, card)
    t.todo.append((T_TURN, seat + 1) if seat + 1 < len(t.hands) else (T_REVEAL,))


def reveal(t: Table, task: Task) -> None:
    """All cards are down: the highest value takes the round (a tie takes nothing)."""
    spec = t.spec
    values = [spec.values[card] + t.boosts[seat] for seat, card in enumerate(t.played)]
    values[0] += spec.seat0_bonus
    best = max(values)
    leaders = [seat for seat, value in enumerate(values) if value == best]
    if len(leaders) == 1:
        winner = leaders[0]
        t.points[winner] += 1
        t.log.append((t.round, winner, t.played[winner], ROUND_WON, 1))
    clear_round(t)
    if max(t.points) >= spec.points_to_win or t.round >= spec.max_rounds:
        t.to_play = -1
        t.over = True
        return
    t.round += 1
    for seat in range(len(t.hands)):
        draw(t, seat)
    t.todo.append((T_TURN, 0))


TASKS.bind(T_TURN, turn)
TASKS.bind(T_PLAY, play)
TASKS.bind(T_REVEAL, reveal)
TASKS.check()


def _distinct(hand: list[int]) -> tuple[int, ...]:
    """The hand's cards, each id once, in hand order: two copies are one choice."""
    return tuple(dict.fromkeys(hand))
