"""`balance validate GAME`: check a config folder; exit 0, or 2 with file:line."""

from __future__ import annotations

from balance.cli.options import ConfigOpt, GameArg, SetOpt


def validate(game: GameArg, config: ConfigOpt = None, set_: SetOpt = None) -> None:
    """Check the game's YAML (cards, decks, rules) and say what it holds."""
    import warnings

    import typer

    from balance.core.config import parse_overrides
    from balance.core.registry import load_game

    loaded = load_game(game)
    folder = config or loaded.config_dir
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # a game warns of legal but doubtful data this way
        spec = loaded.load(folder, parse_overrides(set_ or []))
    for warning in caught:
        where = (
            f"{warning.filename}:{warning.lineno}: " if warning.filename.endswith(".yaml") else ""
        )
        typer.echo(f"warning: {where}{warning.message}")
    catalog = spec.catalog
    typer.echo(
        f"ok: {folder}: {len(catalog.cards)} cards, {len(catalog.decks)} decks ({', '.join(catalog.decks)}), config hash {spec.config_hash}"
    )
