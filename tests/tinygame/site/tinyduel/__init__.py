"""tinyduel: a tiny card game that plugs into balance through the `balance.games` entry point,
and the template of a game package: the same files with the same roles as the shipped games
(README "Adding a game"), on the kit's pieces (GamePackage, GameRng, EventLog, Vocabulary and the
config steps).

Each seat brings a deck. Every round each seat plays one card face down, in seat order; then the
cards are revealed and the highest value (seat 0 adds `seat0_bonus`) takes a point; everyone
draws one. First to `points_to_win` wins; after `max_rounds` the most points win (ties share).
It proves a third-party game works, and its known optimum (`seat0_bonus: 0`, `wild` value 3)
checks sweeps and tuning.
"""

from __future__ import annotations

from pathlib import Path

from balance.core.contract import GameInfo
from balance.core.package import GamePackage

GAME = GamePackage(
    GameInfo(name="tinyduel", min_seats=2, max_seats=3, rules_version="1"),
    "tinyduel",
    Path(__file__).parent / "config",
)
