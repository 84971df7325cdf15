"""beings: two players summon Beings into three shared locations, evolve them L1 → L2 → L3 with
gems that ramp from an 8-card gem deck, and attack life cards or rested Beings across a 12-type
chart. A player at 0 life who fails a defend step against a life attack loses.
"""

from balance.core.contract import GameInfo
from balance.core.package import SHIPPED_CONFIGS, GamePackage

GAME = GamePackage(
    GameInfo(
        name="beings",
        min_seats=2,
        max_seats=2,
        rules_version="1",
        # mcts: the rest of the turn, widening to the best-scored options
        bot_defaults={"mcts": "iterations=150,widening=2"},
    ),
    "balance.games.beings",
    SHIPPED_CONFIGS / "beings",
)
