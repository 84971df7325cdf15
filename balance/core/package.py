"""The standard shape of a game package, so that each game's `__init__` is one declaration.

A game package holds `cards.py` (with `load_spec(config_dir, overrides) -> spec`), `rules.py`
(with `new_game(spec, lineup, seed) -> state`) and `effects.py` (with `VOCABULARY`). Those modules
are imported on first use only: `balance games` lists every game's info without importing any
game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from balance.core.contract import GameInfo, GameSpec, State
from balance.core.effects import Vocabulary

# What a game package's modules provide, as the contract's types: the names below are read from
# modules imported at run time, so these annotations are where their types are declared
# (tests/test_style.py has mypy check each shipped game's against them). A game's `new_game`
# takes its own spec class, narrower than GameSpec: it is only ever given what its `load_spec`
# made.
LoadSpec = Callable[[Path, Mapping[str, object] | None], GameSpec]
NewGame = Callable[[GameSpec, Sequence[str], int], State]

# The repository's config folders: configs/<game>/ beside the balance package.
SHIPPED_CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@dataclass(frozen=True)
class GamePackage:
    info: GameInfo
    package: str  # e.g. "balance.games.beings"
    config_dir: Path

    def load(self, config_dir: Path, overrides: Mapping[str, object] | None = None) -> GameSpec:
        load_spec: LoadSpec = import_module(f"{self.package}.cards").load_spec
        return load_spec(config_dir, overrides)

    def new_game(self, spec: GameSpec, lineup: Sequence[str], seed: int) -> State:
        new_game: NewGame = import_module(f"{self.package}.rules").new_game
        return new_game(spec, lineup, seed)

    def vocabulary(self) -> Vocabulary:
        vocabulary: Vocabulary = import_module(f"{self.package}.effects").VOCABULARY
        return vocabulary
