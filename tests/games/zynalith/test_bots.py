"""The search bots play zynalith through determinize / clone / evaluate without crashing."""

from __future__ import annotations

from balance.bots.greedy import GreedyBot
from balance.bots.random import RandomBot
from balance.core.registry import load_game
from balance.sim.play import play_game


def test_greedy_plays_whole_games(shipped_spec):
    game = load_game("zynalith")
    for seed in range(3):
        record = play_game(
            game, shipped_spec, ["standard"] * 3, [GreedyBot(), RandomBot(), RandomBot()], seed
        )
        assert not record.error, record.trace
