"""Greedy's follow-through on a scripted action of three decisions of one seat: where it stops."""

from __future__ import annotations

from random import Random
from typing import ClassVar

from balance.bots import make_bot
from balance.core.contract import Decision


class Scripted:
    """One seat's action in three decisions, kinds `first`, `second` and `third` (widths given),
    then the other seat's turn. The value is the sum of the options taken, so every step counts;
    `reached` counts the copies that were played into the third decision."""

    def __init__(self, widths: tuple[int, int, int], reached: list[int]) -> None:
        self.widths = widths
        self.taken: list[int] = []
        self.reached = reached

    def determinize(self, seat: int, rng: Random) -> Scripted:
        return self.clone()

    def clone(self) -> Scripted:
        copy = Scripted(self.widths, self.reached)
        copy.taken = self.taken[:]
        return copy

    def decision(self) -> Decision | None:
        step = len(self.taken)
        if step == len(self.widths):
            return Decision(1, "other", (0, 1))
        return Decision(0, ("first", "second", "third")[step], tuple(range(self.widths[step])))

    def apply(self, option: int) -> None:
        if len(self.taken) == 2:
            self.reached[0] += 1
        self.taken.append(option)

    def evaluate(self, seat: int) -> float:
        return sum(self.taken) / 100


def reached_third(widths: tuple[int, int, int], bot: str = "greedy") -> int:
    reached = [0]
    state = Scripted(widths, reached)
    decision = state.decision()
    assert decision is not None
    make_bot(bot).choose(state, decision, Random(1))  # type: ignore[arg-type]
    return reached[0]


def test_a_wide_decision_with_a_wide_first_follow_up_follows_only_its_best_to_the_end() -> None:
    # a play among many, then one of nine actions: the chains stop after the action, and the
    # best three plays there (follow_best) are followed on to the third decision
    assert reached_third((9, 9, 3)) == 3 * 3
    assert reached_third((9, 9, 3), "greedy:follow_best=1") == 1 * 3
    assert reached_third((9, 9, 3), "greedy:follow_wide=10") == 9 * 3


def test_a_narrow_decision_or_a_narrow_follow_up_is_followed_to_the_end() -> None:
    assert reached_third((2, 9, 3)) == 2 * 3  # each option's best second step, then the third
    assert reached_third((9, 2, 3)) == 9 * 3


def test_a_chain_ends_where_an_action_begins() -> None:
    # `action`: the kind of decision each action begins with (beings: main); a chain meeting
    # it ends there, scored as it stands, whether it meets it first or later
    assert reached_third((2, 2, 3)) == 2 * 3
    assert reached_third((2, 2, 3), "greedy:action=third") == 0
    assert reached_third((2, 2, 3), "greedy:action=second") == 0
    assert reached_third((2, 2, 3), "greedy:action=other") == 2 * 3  # another seat's: as before


class FirstBest(Scripted):
    """`Scripted` whose second decision's first option is its best (each step there costs its
    option's number twice), as its option_best hook tells without the value; `tried` counts
    the second decision's options applied."""

    def __init__(
        self, widths: tuple[int, int, int], reached: list[int], tried: list[int], told: bool
    ) -> None:
        super().__init__(widths, reached)
        self.tried = tried
        self.told = told

    def clone(self) -> FirstBest:
        copy = FirstBest(self.widths, self.reached, self.tried, self.told)
        copy.taken = self.taken[:]
        return copy

    def option_best(self) -> tuple[int, float | None] | None:
        return (0, None) if self.told and len(self.taken) == 1 else None

    def apply(self, option: int) -> None:
        if len(self.taken) == 1:
            self.tried[0] += 1
        super().apply(option)

    def evaluate(self, seat: int) -> float:
        second = self.taken[1] if len(self.taken) > 1 else 0
        return (sum(self.taken) - 2 * second) / 100


def test_a_follow_up_whose_first_option_is_told_best_goes_on_from_it_alone() -> None:
    # where the chain goes on after it, the best told is taken unapplied by the others only if
    # it is the first listed: trying them all would take the first of the best value anyway
    choices, tried = [], []
    for told in (False, True):
        counter = [0]
        state = FirstBest((2, 3, 3), [0], counter, told)
        decision = state.decision()
        assert decision is not None
        choices.append(make_bot("greedy").choose(state, decision, Random(1)))  # type: ignore[arg-type]
        tried.append(counter[0])
    assert choices[0] == choices[1] == 1
    assert tried == [2 * 3, 2 * 1]


class Hinted:
    """One decision of `values` options, then the other seat's: each option's value is given.
    `bounds` and `twins` are its option_bounds and option_twins hooks (None: without them),
    `known` the options whose value its option_value hook tells; `applied` counts the options
    applied."""

    def __init__(
        self,
        values: list[float],
        bounds: list[float | None] | None,
        twins: list[int] | None,
        applied: list[int],
        known: tuple[int, ...] = (),
    ) -> None:
        self.values = values
        self.bounds = bounds
        self.twins = twins
        self.applied = applied
        self.known = known
        self.taken: int | None = None
        if bounds is not None:
            self.option_bounds = lambda among=None: bounds
        if twins is not None:
            self.option_twins = lambda: twins
        if known:
            self.option_value = lambda option: values[option] if option in known else None

    def determinize(self, seat: int, rng: Random) -> Hinted:
        return self.clone()

    def clone(self) -> Hinted:
        copy = Hinted(self.values, self.bounds, self.twins, self.applied, self.known)
        copy.taken = self.taken
        return copy

    def decision(self) -> Decision | None:
        if self.taken is None:
            return Decision(0, "play", tuple(range(len(self.values))))
        return Decision(1, "other", (0, 1))

    def apply(self, option: int) -> None:
        self.applied[0] += 1
        self.taken = option

    def evaluate(self, seat: int) -> float:
        assert self.taken is not None
        return self.values[self.taken]


def hinted_choice(
    values: list[float],
    bounds: list[float | None] | None,
    twins: list[int] | None,
    seed: int,
    known: tuple[int, ...] = (),
) -> tuple[int, int]:
    """Greedy's choice and how many options it applied."""
    applied = [0]
    state = Hinted(values, bounds, twins, applied, known)
    decision = state.decision()
    assert decision is not None
    choice = make_bot("greedy").choose(state, decision, Random(seed))  # type: ignore[arg-type]
    return choice, applied[0]


def test_bounded_options_below_the_best_are_never_applied_and_choices_stay() -> None:
    values = [0.1, 0.5, -0.2, 0.4, 0.5, 0.0]
    bounds: list[float | None] = [None, 0.5, -0.1, 0.45, 0.5, 0.3]  # each at least its value
    for seed in range(20):  # a tie between 1 and 4: the same stream breaks it the same way
        plain, every = hinted_choice(values, None, None, seed)
        choice, applied = hinted_choice(values, bounds, None, seed)
        assert choice == plain and every == len(values)
        assert applied == 3  # option 0 (no bound), then 1 and 4 (bound 0.5); 3 (0.45) is below


def test_a_bounded_option_whose_value_is_known_is_not_applied() -> None:
    values = [0.1, 0.5, -0.2, 0.4, 0.5, 0.0]
    bounds: list[float | None] = [None, 0.5, -0.1, 0.45, 0.5, 0.3]
    for seed in range(20):
        plain, _ = hinted_choice(values, None, None, seed)
        choice, applied = hinted_choice(values, bounds, None, seed, known=(0, 4))
        assert choice == plain
        assert applied == 2  # option 0 (no bound: the hook is not asked) and 1; 4 is known


def test_a_twin_takes_its_twins_value_unapplied() -> None:
    values = [0.2, 0.3, 0.3, 0.2, 0.3]
    twins = [0, 1, 1, 0, 1]
    for seed in range(20):
        plain, _ = hinted_choice(values, None, None, seed)
        choice, applied = hinted_choice(values, None, twins, seed)
        assert choice == plain and applied == 2


def test_where_all_options_are_twins_none_is_applied_and_they_tie() -> None:
    values = [0.3, 0.3, 0.3, 0.3]
    twins = [0, 0, 0, 0]  # (beings' mulligan: keep or return a card before the hand's last)
    choices = set()
    for seed in range(20):
        plain, _ = hinted_choice(values, None, None, seed)
        choice, applied = hinted_choice(values, None, twins, seed)
        assert choice == plain and applied == 0
        choices.add(choice)
    assert len(choices) > 1  # a tie broken by the bot's stream


class Tightened(Hinted):
    """`Hinted` whose option_bound hook tightens its bounds to `tight`; `asked` lists the asks."""

    tight: ClassVar[list[float | None]] = []
    asked: ClassVar[list[int]] = []

    def clone(self) -> Tightened:
        copy = Tightened(self.values, self.bounds, self.twins, self.applied, self.known)
        copy.taken = self.taken
        return copy

    def option_bound(self, option: int) -> float | None:
        self.asked.append(option)
        return self.tight[option]


def test_a_loose_bound_is_tightened_when_it_comes_first_and_the_rest_never() -> None:
    values = [0.1, 0.5, -0.2, 0.4, 0.5, 0.0]
    loose: list[float | None] = [None, 0.9, 0.9, 0.6, 0.9, 0.3]
    Tightened.tight = [None, 0.5, -0.1, 0.45, 0.5, 0.3]  # each between value and loose bound
    for seed in range(20):
        plain, _ = hinted_choice(values, None, None, seed)
        applied = [0]
        Tightened.asked = []
        state = Tightened(values, loose, None, applied)
        decision = state.decision()
        assert decision is not None
        choice = make_bot("greedy").choose(state, decision, Random(seed))  # type: ignore[arg-type]
        assert choice == plain
        # option 0 (no bound) finds 0.1; 1, 2, 4 (0.9) and 3 (0.6) are tightened first, then 1
        # and 4 (0.5) applied; 3 (0.45) is then below the best, and 5 (0.3) never asked
        assert sorted(Tightened.asked) == [1, 2, 3, 4] and applied[0] == 3


class Grouped(Scripted):
    """A play among 9, then one of 9 actions in three groups that score alike (an action's
    value is its group), then the other seat: `reached` counts the actions tried."""

    def __init__(self, reached: list[int]) -> None:
        super().__init__((9, 9), reached)

    def clone(self) -> Grouped:
        copy = Grouped(self.reached)
        copy.taken = self.taken[:]
        return copy

    def apply(self, option: int) -> None:
        if len(self.taken) == 1:
            self.reached[0] += 1
        self.taken.append(option)

    def evaluate(self, seat: int) -> float:
        play, *action = self.taken
        return (play + 10 * sum(a // 3 for a in action)) / 100


def actions_tried(bot: str) -> tuple[int, int]:
    reached = [0]
    state = Grouped(reached)
    decision = state.decision()
    assert decision is not None
    choice = make_bot(bot).choose(state, decision, Random(1))  # type: ignore[arg-type]
    return choice, reached[0]


def test_the_actions_after_the_first_play_stand_for_those_after_the_others() -> None:
    # all 9 actions after the first play, then one of each group of three after the 8 others
    assert actions_tried("greedy") == (8, 9 + 8 * 3)
    assert actions_tried("greedy:share_width=10") == (8, 9 * 9)  # none shared: the same play


class FollowedHinted:
    """A play of two, then a pick among `values` (the same seat's follow-up, with `bounds` as
    its option_bounds hook, or None), then the other seat: the value is the play's tenth plus
    the pick's; `applied` counts the picks applied."""

    def __init__(
        self, values: list[float], bounds: list[float | None] | None, applied: list[int]
    ) -> None:
        self.values = values
        self.bounds = bounds
        self.applied = applied
        self.taken: list[int] = []

    def determinize(self, seat: int, rng: Random) -> FollowedHinted:
        return self.clone()

    def clone(self) -> FollowedHinted:
        copy = FollowedHinted(self.values, self.bounds, self.applied)
        copy.taken = self.taken[:]
        return copy

    def option_bounds(self, among: list[int] | None = None) -> list[float | None] | None:
        if len(self.taken) != 1 or self.bounds is None:
            return None
        return [None if b is None else b + self.taken[0] / 10 for b in self.bounds]

    def decision(self) -> Decision | None:
        if not self.taken:
            return Decision(0, "play", (0, 1))
        if len(self.taken) == 1:
            return Decision(0, "pick", tuple(range(len(self.values))))
        return Decision(1, "other", (0, 1))

    def apply(self, option: int) -> None:
        if len(self.taken) == 1:
            self.applied[0] += 1
        self.taken.append(option)

    def evaluate(self, seat: int) -> float:
        value = self.taken[0] / 10 if self.taken else 0.0
        return value + (self.values[self.taken[1]] if len(self.taken) > 1 else 0.0)


def test_a_follow_up_tries_its_bounded_options_best_bound_first_and_stops_below_the_best() -> None:
    values = [0.1, 0.2, -0.2, 0.4, 0.5, 0.0]
    bounds: list[float | None] = [None, 0.3, -0.1, 0.45, 0.5, 0.3]  # each at least its value
    for seed in range(5):
        applied = [0, 0]
        chosen = []
        for index, hinted in enumerate((None, bounds)):
            state = FollowedHinted(values, hinted, applied[index : index + 1])
            counter = [0]
            state.applied = counter
            decision = state.decision()
            assert decision is not None
            bot = make_bot("greedy")
            chosen.append(bot.choose(state, decision, Random(seed)))  # type: ignore[arg-type]
            applied[index] = counter[0]
        assert chosen == [1, 1]  # the better play, its best pick found either way
        # per play: option 0 (no bound), then 4 (the best bound, the best value), and 3 (0.45)
        # is below it; in their order, 1, 3 and 4 would each have bettered the best so far
        assert applied == [2 * len(values), 2 * 2]
