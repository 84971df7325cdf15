"""Games are discovered, never listed.

A game is a package under `balance.games` whose `__init__` holds `GAME`, or an object another
installed package declares under the entry-point group `balance.games`. Listing names imports
nothing; a game is imported only when it is asked for, so `balance --help` stays fast.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from importlib.util import find_spec

from balance.core.contract import Game
from balance.core.errors import ConfigError, did_you_mean

ENTRY_POINT_GROUP = "balance.games"
BUILTIN_PACKAGE = "balance.games"


def builtin_names() -> list[str]:
    """The packages under balance.games, found without importing any of them."""
    spec = find_spec(BUILTIN_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec else []
    return sorted(
        module.name
        for module in pkgutil.iter_modules(folders)
        if module.ispkg and not module.name.startswith("_")
    )


def game_names() -> list[str]:
    """Every game's name: the built-in packages, then the installed plug-ins."""
    names = builtin_names()
    plugins = sorted(
        ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in names
    )
    return names + plugins


def load_game(name: str) -> Game:
    """The game called `name`; a ConfigError naming the known games if there is none."""
    if name in builtin_names():
        module = importlib.import_module(f"{BUILTIN_PACKAGE}.{name}")
        game: Game = module.GAME
        return game
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            plugin: Game = ep.load()
            return plugin
    raise ConfigError(None, None, f"unknown game '{name}'", did_you_mean(name, game_names()))
