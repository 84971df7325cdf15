"""arrows: two players place cards with arrows on a shared 5x5 grid, paying credits to play them
face-up now or covered for later. A placed card fights the opponent cards that point back at it,
flips the ones that don't and may chain into other cards' sequences; the player controlling more
face-up cards when the board fills wins."""

from balance.core.contract import GameInfo
from balance.core.package import SHIPPED_CONFIGS, GamePackage

GAME = GamePackage(
    GameInfo(
        name="arrows",
        min_seats=2,
        max_seats=2,
        rules_version="1",
        # mcts: ~115 options to a play: widening spends the iterations on the likely ones
        bot_defaults={"mcts": "iterations=150,widening=2"},
    ),
    "balance.games.arrows",
    SHIPPED_CONFIGS / "arrows",
)
