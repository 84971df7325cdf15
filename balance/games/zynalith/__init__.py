"""Zynalith: 2-5 players draft from a shared market, then over five rounds buy creatures and
extra cards with silver and Zynalith and send their creatures, in INIT order, into lines that fight.

The last player alive wins, or after round 5 the one with the most victory points (printed VP,
Zynalith and silver / 10).
"""

from balance.core.contract import GameInfo
from balance.core.package import SHIPPED_CONFIGS, GamePackage

GAME = GamePackage(
    GameInfo(
        name="zynalith",
        min_seats=2,
        max_seats=5,
        rules_version="2",
        # mcts: the rest of the turn, widening to the best-scored options
        bot_defaults={"mcts": "iterations=150,widening=2"},
    ),
    "balance.games.zynalith",
    SHIPPED_CONFIGS / "zynalith",
)
