"""Seeds: every game's seed derives from the run seed and the game's deal index, never a worker."""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=64)  # every seat rotation of a deal asks in turn: numpy's hash runs once a deal
def deal_seed(run_seed: int, deal: int) -> int:
    """The seed of deal `deal` of a run: every seat rotation of a deal is played on it."""
    state = np.random.SeedSequence(run_seed, spawn_key=(deal,)).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


MASK64 = (1 << 64) - 1


def bot_seed(game_seed: int, seat: int, rotation: int = 0) -> int:
    """The seed of the bot in `seat` in seat rotation `rotation` of its deal: its own stream, so
    a bot's search never moves the game's.

    Every rotation of a deal is played on the deal's seed (the deck luck is paired across the
    seat orders), but its bots draw from streams of their own: otherwise a mirror lineup's
    rotations would be one game played twice. Rotation 0 keeps the streams of a seed alone.
    splitmix64 of the game seed and the stream's number: well mixed and cheap, since it runs for
    every seat of every game."""
    stream = rotation << 8 | seat  # at most 5 seats: every (rotation, seat) its own number
    z = (game_seed + (stream + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)
