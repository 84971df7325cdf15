"""oddsduel: a duel whose odds are known exactly, so that tests can measure the coverage of
balance's intervals against the truth. It plugs in through the `balance.games` entry point.

A deal gives each seat a tempo (seat luck: dealt from the seed in seat order, so it stays with
the seat across the deal's rotations) and shuffles each deck from the seed and the deck's name
(deck luck: it stays with the deck). Seat 0 rolls a fate die: the game stalls until the decision
cap, or is drawn, or goes to the duel, where seat 1 rolls and seat 0 wins with a chance set by
the seat edge, the decks' edges, the tempos and the aces in hand. Rolls are the bots' choices,
so a deal's rotations differ only through the bots' streams. `oddsduel.odds` computes every
chance; the tests compute the true rates from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from balance.core.contract import GameInfo
from balance.core.effects import Vocabulary
from oddsduel.odds import OddsSpec, compile_config
from oddsduel.rules import Duel, new_duel

VOCABULARY = Vocabulary("oddsduel")  # no card text: a card is its edge and its swing


class OddsDuel:
    info = GameInfo(name="oddsduel", min_seats=2, max_seats=2, rules_version="1")
    config_dir = Path(__file__).parent / "config"

    def load(self, config_dir: Path, overrides: Mapping[str, object] | None = None) -> OddsSpec:
        return compile_config(config_dir, overrides)

    def new_game(self, spec: OddsSpec, lineup: Sequence[str], seed: int) -> Duel:
        return new_duel(spec, lineup, seed)

    def vocabulary(self) -> Vocabulary:
        return VOCABULARY


GAME = OddsDuel()
