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


class PickThenPay:
    """Seat 0 picks one of ten numbers, then pays for it: cheaply, keeping pick / 10 if the pick
    is at most 4 (a pick above costs -0.5 whatever is paid), or dearly (-0.9). A pick's value
    before paying is pick / 10, so the search's priors rank the numbers the wrong way round;
    greedy follows the payment through and picks 4."""

    def __init__(self, picked: int | None = None, paid: str | None = None) -> None:
        self.picked, self.paid = picked, paid

    @property
    def turn(self) -> int:
        return 0 if self.paid is None else 1

    def decision(self) -> Decision | None:
        if self.picked is None:
            return Decision(0, "pick", tuple(range(10)))
        return Decision(0, "pay", ("cheap", "dear")) if self.paid is None else None

    def apply(self, option: int) -> None:
        if self.picked is None:
            self.picked = option
        else:
            self.paid = ("cheap", "dear")[option]

    def clone(self) -> PickThenPay:
        return PickThenPay(self.picked, self.paid)

    def determinize(self, seat: int, rng: Random) -> PickThenPay:
        return self.clone()

    def value(self) -> float:
        picked = self.picked or 0
        if self.paid is None:
            return picked / 10
        if self.paid == "dear":
            return -0.9
        return picked / 10 if picked <= 4 else -0.5

    def evaluate(self, seat: int) -> float:
        return self.value() if seat == 0 else -self.value()

    def result(self) -> Result:
        score = (self.value() + 1) / 2
        return Result(None, (score, 1 - score), "paid", 1)


def test_greedy_root_offers_greedys_choice_however_widening_ranks_it() -> None:
    # widening offers 9, 8 and 7 (the best priors), all worth -0.5 once paid for
    state = PickThenPay()
    narrow = make_bot("mcts:iterations=8,widening=1")
    assert narrow.choose(state, state.decision(), Random(3)) in (7, 8, 9)  # type: ignore[arg-type]
    kept = make_bot("mcts:iterations=8,widening=1,greedy_root=true")
    assert kept.choose(state, state.decision(), Random(3)) == 4  # type: ignore[arg-type]


def test_a_roll_out_plays_to_the_horizon_on_the_best_scored_option() -> None:
    bot = make_bot("mcts:rollout=2")
    leaf = bot._roll_out(PickThenPay(3), 1, Random(0))  # type: ignore[attr-defined]
    assert (leaf.turn, leaf.paid) == (1, "cheap")
    # the payment is rolled out, not searched as a node: the right pick still wins
    assert bot.choose(PickThenPay(), PickThenPay().decision(), Random(0)) == 4  # type: ignore[arg-type]
