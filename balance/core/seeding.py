"""Seeds: every game's seed derives from the run seed and the game's deal index, never a worker."""

from __future__ import annotations

import numpy as np


def deal_seed(run_seed: int, deal: int) -> int:
    """The seed of deal `deal` of a run: every seat rotation of a deal is played on it."""
    state = np.random.SeedSequence(run_seed, spawn_key=(deal,)).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat`: its own stream, so a bot's search never moves the game's."""
    state = np.random.SeedSequence(game_seed, spawn_key=(1, seat)).generate_state(
        2, dtype=np.uint32
    )
    return int(state[0]) << 32 | int(state[1])
