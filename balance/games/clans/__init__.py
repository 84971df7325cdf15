"""clans: two players draft 3 of 8 clans and build an army of Troops, Heroes and Immortals in a
3 x 5 grid; each of 3 rounds ends in a Great Battle of military values, and the clans nobody
picked are flipped, changing the rules for both.
"""

from balance.core.contract import GameInfo
from balance.core.package import SHIPPED_CONFIGS, GamePackage

GAME = GamePackage(
    GameInfo(
        name="clans",
        min_seats=2,
        max_seats=2,
        rules_version="2",
        # mcts: through the reply and its own next turn (3 turns), each line played out
        bot_defaults={"mcts": "iterations=90,horizon=3,to_horizon=true,widening=2"},
    ),
    "balance.games.clans",
    SHIPPED_CONFIGS / "clans",
)
