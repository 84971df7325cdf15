"""MCTS's search on a game small enough to know what it should do."""

from __future__ import annotations

from random import Random

from balance.bots import make_bot
from balance.bots.mcts import MctsBot, Node
from balance.core.contract import Decision, Result


class PickANumber:
    """Seat 0 picks one of ten numbers; the pick is worth pick / 10 to it, and the next turn
    begins (the search's horizon). Only what MCTS reads of a state."""

    def __init__(self, picked: int | None = None) -> None:
        self.picked = picked

    @property
    def turn(self) -> int:
        return 0 if self.picked is None else 1

    def decision(self) -> Decision | None:
        return Decision(0, "pick", tuple(range(10))) if self.picked is None else None

    def apply(self, option: int) -> None:
        self.picked = option

    def clone(self) -> PickANumber:
        return PickANumber(self.picked)

    def determinize(self, seat: int, rng: Random) -> PickANumber:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return (self.picked or 0) / 10 if seat == 0 else -(self.picked or 0) / 10

    def result(self) -> Result:
        score = (self.picked or 0) / 10
        return Result(None, (score, 1 - score), "picked", 1)


def tried(bot: MctsBot) -> set[int]:
    """The numbers the search visited from the root, in one decision of eight iterations."""
    root = Node()
    state = PickANumber()
    for _ in range(bot.iterations):
        bot._iterate(state.determinize(0, Random(0)), root, {0}, 1, Random(1))
    assert root.children is not None
    return {option for option, child in root.children.items() if child.visits}  # type: ignore[misc]


def test_without_widening_every_option_is_tried_before_any_is_tried_twice() -> None:
    assert tried(make_bot("mcts:iterations=8")) == set(range(2, 10))  # type: ignore[arg-type]


def test_progressive_widening_spends_a_small_budget_on_the_best_scored_options() -> None:
    # widths 1, 2, 2, 2, 3, 3, 3, 3 over eight visits: the three best-scored numbers only
    assert tried(make_bot("mcts:iterations=8,widening=1")) == {7, 8, 9}  # type: ignore[arg-type]
    bot = make_bot("mcts:iterations=8,widening=1")
    assert bot.choose(PickANumber(), PickANumber().decision(), Random(3)) == 9  # type: ignore[arg-type]
