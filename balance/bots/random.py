"""The uniform random bot: the baseline every other bot is measured against."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from balance.core.contract import Decision, State
from balance.core.gamerng import below


@dataclass
class RandomBot:
    name: str = "random"

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        return below(len(decision.options), rng)  # rng.randrange's draw, cheaper
