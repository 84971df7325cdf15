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
        # greedy: an action begins with a main decision; a defend step (a block, a skill's
        # choice) that ends the other's turn is scored where the seat's own turn begins, not
        # through its first action, which is another action (greedy.py)
        bot_defaults={"mcts": "iterations=150,widening=2", "greedy": "action=main"},
    ),
    "balance.games.beings",
    SHIPPED_CONFIGS / "beings",
)
