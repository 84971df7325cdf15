"""tinyduel: a tiny card game that plugs into balance through the `balance.games` entry point.

Each seat brings a deck. Every round each seat plays one card face down, in seat order; then the
cards are revealed and the highest value (seat 0 adds `seat0_bonus`) takes a point; everyone
draws one. First to `points_to_win` wins; after `max_rounds` the most points win (ties share).
It proves a third-party game works, and its known optimum (`seat0_bonus: 0`, `wild` value 3)
checks sweeps and tuning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from balance.core.contract import GameInfo
from tinyduel.cards import DuelSpec, compile_config
from tinyduel.rules import Duel, new_duel


class TinyDuel:
    info = GameInfo(name="tinyduel", min_seats=2, max_seats=3, rules_version="1")
    config_dir = Path(__file__).parent / "config"

    def load(self, config_dir: Path, overrides: Mapping[str, object] | None = None) -> DuelSpec:
        return compile_config(config_dir, overrides)

    def new_game(self, spec: DuelSpec, lineup: Sequence[str], seed: int) -> Duel:
        return new_duel(spec, lineup, seed)

    def vocabulary(self):
        from tinyduel.cards import VOCABULARY

        return VOCABULARY


GAME = TinyDuel()
