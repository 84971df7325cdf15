"""Replaying one game, decision by decision: from a run's games table, or from a seed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from balance.bots import make_bot
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.sim.play import GameRecord, Trace, play_game


def replay_from_run(folder: Path, index: int, trace: Trace | None = None) -> GameRecord:
    """Game `index` of the run in `folder`, played again with its config, seed, decks and bots."""
    import pyarrow.parquet as pq

    manifest_path = folder / "run.json"
    if not manifest_path.is_file():
        raise ConfigError(
            str(folder),
            None,
            "not a run folder (no run.json)",
            "pass a folder written by balance simulate",
        )
    manifest = json.loads(manifest_path.read_text())
    table = pq.read_table(folder / "games.parquet", filters=[("game", "=", index)]).to_pylist()
    if not table:
        raise ConfigError(
            str(folder), None, f"the run has no game {index}", f"choose 0-{manifest['games'] - 1}"
        )
    row = table[0]
    seats = row["seats"]
    decks = [row[f"deck_{s}"] for s in range(seats)]
    bots = [row[f"bot_{s}"] for s in range(seats)]
    return replay_seed(
        manifest["game"],
        Path(manifest["config"]),
        manifest["overrides"],
        row["seed"],
        decks,
        bots,
        trace,
        rotation=row["rotation"],
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
