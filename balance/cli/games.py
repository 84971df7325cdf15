"""`balance games`: the games, their seats, rules_version and config folder."""

from __future__ import annotations


def games() -> None:
    """List the games balance can play."""
    from rich.console import Console
    from rich.table import Table

    from balance.core.registry import game_names, load_game

    table = Table("game", "seats", "rules_version", "config folder", box=None)
    for name in game_names():
        game = load_game(name)
        info = game.info
        seats = (
            str(info.min_seats)
            if info.min_seats == info.max_seats
            else f"{info.min_seats}-{info.max_seats}"
        )
        table.add_row(name, seats, info.rules_version, str(game.config_dir))
    Console().print(table)
