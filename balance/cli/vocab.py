"""`balance vocab GAME`: the words a designer writes card effects with."""

from __future__ import annotations

from balance.cli.options import GameArg


def vocab(game: GameArg) -> None:
    """Print the game's card vocabulary: triggers, ops, selectors, conditions, and its own kinds."""
    from rich.console import Console
    from rich.table import Table

    from balance.core.registry import load_game

    vocabulary = load_game(game).vocabulary()
    console = Console()
    for section in vocabulary.sections():
        table = Table(
            "word",
            "parameters",
            "meaning",
            title=f"{section.kind}s",
            title_justify="left",
            box=None,
        )
        for word in section:
            name = word.name + (f" ({', '.join(word.aliases)})" if word.aliases else "")
            table.add_row(name, word.params_text(), word.doc)
        console.print(table)
        console.print()
