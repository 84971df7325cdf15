"""What greedy would score an option at with no hint: for tests that check a game's hints
(twins, best options) against greedy's own scoring."""

from __future__ import annotations

from random import Random

from balance.bots.greedy import GreedyBot
from balance.core.contract import State


def greedy_value(state: State, option: int, bot: GreedyBot, rng: Random) -> float:
    """`option`'s value as greedy scores it unhinted: evaluate once applied, through the same
    seat's follow-up decisions of other kinds (greedy's own follow-through)."""
    decision = state.decision()
    assert decision is not None
    copy = state.clone()
    copy.apply(option)
    after = copy.decision()
    if after is None or after.seat != decision.seat or after.kind == decision.kind:
        return copy.evaluate(decision.seat)
    return bot._follow_through(copy, decision.seat, (decision.kind,), bot.follow, False, rng)[0]
