"""Replaying one game, decision by decision: from a run's games table, or from a seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from balance.bots import make_bot
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.core.runfiles import GAMES, read_manifest, read_table
from balance.sim.play import GameRecord, Trace, play_game
from balance.sim.schedule import lineup_decks


def replay_from_run(folder: Path, index: int, trace: Trace | None = None) -> GameRecord:
    """Game `index` of the run in `folder`, played again with its config, seed, decks and bots."""
    manifest = read_manifest(folder)
    table = read_table(folder / GAMES, filters=[("game", "=", index)])
    if not len(table):
        raise ConfigError(
            str(folder), None, f"the run has no game {index}", f"choose 0-{manifest['games'] - 1}"
        )
    row = table.iloc[0]
    seats = row["seats"]
    decks = [row[f"deck_{s}"] for s in range(seats)]
    bots = [row[f"bot_{s}"] for s in range(seats)]
    return replay_seed(
        manifest["game"],
        Path(manifest["config"]),
        manifest["overrides"],
        int(row["seed"]),
        decks,
        bots,
        trace,
        rotation=int(row["rotation"]),  # numpy int16 in the table: its arithmetic overflows
    )


def replay_seed(
    game_name: str,
    config_dir: Path | None,
    overrides: Mapping[str, object],
    seed: int,
    decks: Sequence[str],
    bots: Sequence[str],
    trace: Trace | None = None,
    choices: Sequence[int] | None = None,
    rotation: int = 0,
) -> GameRecord:
    """One game on `seed`: the bots decide (their streams derive from the seed and the deal's
    seat rotation), or `choices` do."""
    game = load_game(game_name)
    spec = game.load(config_dir or game.config_dir, overrides)
    lineup_decks(spec.catalog, list(decks), len(decks))  # an unknown or illegal lineup: one line
    return play_game(
        game,
        spec,
        decks,
        [make_bot(b) for b in bots],
        seed,
        trace=trace,
        forced=choices,
        rotation=rotation,
    )
