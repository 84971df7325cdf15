"""Replaying one game, decision by decision: from a run's games table, or from a seed.

A `Replay` names the game to play again (its config, seed, decks, bots and the deal's seat
rotation); `header` says it in words; `turn_marker` prints, as each turn begins, the turn's
number and the game's public state (`State.public_summary`), so a replay reads as a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.bots import make_bot
from balance.core.contract import Decision, State
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.core.runfiles import GAMES, read_manifest, read_table
from balance.sim.play import GameRecord, Trace, play_game
from balance.sim.schedule import lineup_decks


@dataclass(frozen=True)
class Replay:
    """One game to play again: what a games-table row and its run's manifest say."""

    game: str
    config_dir: Path | None  # None: the game's shipped config
    overrides: Mapping[str, object]
    seed: int
    decks: Sequence[str]
    bots: Sequence[str]
    rotation: int = 0
    source: str = ""  # where it comes from: "run FOLDER, game I" or "" for a seed given
    choices: Sequence[int] | None = field(default=None)  # forced choices instead of the bots'


def from_run(folder: Path, index: int) -> Replay:
    """Game `index` of the run in `folder`: its config, overrides, seed, decks, bots, rotation."""
    manifest = read_manifest(folder)
    table = read_table(folder / GAMES, filters=[("game", "=", index)])
    if not len(table):
        raise ConfigError(
            str(folder), None, f"the run has no game {index}", f"choose 0-{manifest['games'] - 1}"
        )
    row = table.iloc[0]
    seats = int(row["seats"])
    return Replay(
        manifest["game"],
        Path(manifest["config"]),
        manifest["overrides"],
        int(row["seed"]),
        [str(row[f"deck_{s}"]) for s in range(seats)],
        [str(row[f"bot_{s}"]) for s in range(seats)],
        rotation=int(row["rotation"]),  # numpy int16 in the table: its arithmetic overflows
        source=f"run {folder}, game {index}",
    )


def play(replay: Replay, trace: Trace | None = None) -> GameRecord:
    """Play the game: the bots decide (their streams derive from the seed and the deal's seat
    rotation), or `replay.choices` do."""
    game, spec = _loaded(replay)
    return play_game(
        game,
        spec,
        replay.decks,
        [make_bot(b) for b in replay.bots],
        replay.seed,
        trace=trace,
        forced=replay.choices,
        rotation=replay.rotation,
    )


def _loaded(replay: Replay) -> tuple[Any, Any]:
    """The game and its compiled spec; an illegal lineup is one line (ConfigError)."""
    game = load_game(replay.game)
    spec = game.load(replay.config_dir or game.config_dir, replay.overrides)
    lineup_decks(spec.catalog, list(replay.decks), len(replay.decks))
    return game, spec


def header(replay: Replay) -> list[str]:
    """The replay's first lines: the game, where it comes from, seed and rotation, then per seat
    its deck and bot (whole spec), then the overrides. A lineup the game refuses raises first,
    so its one-line error stands alone."""
    info = _loaded(replay)[0].info
    where = f" ({replay.source})" if replay.source else ""
    first = f"{replay.game} (rules_version {info.rules_version}){where}: seed {replay.seed}"
    lines = [f"{first}, seat rotation {replay.rotation}"]
    lines += [
        f"  seat {seat}: deck {deck}, bot {bot}"
        for seat, (deck, bot) in enumerate(zip(replay.decks, replay.bots, strict=True))
    ]
    shown = ", ".join(
        f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in replay.overrides.items()
    )
    lines.append(f"  overrides: {shown or 'none'}")
    return lines


def turn_marker(echo: Callable[[str], None]) -> Callable[[State, Decision], None]:
    """A function to call before each decision: when a new turn has begun (`State.turn` grew)
    it echoes `-- turn N --` and the public state."""
    last = [-1]

    def mark(state: State, decision: Decision) -> None:
        turn = state.turn
        if turn != last[0]:
            last[0] = turn
            echo(f"-- turn {turn} --  {state.public_summary()}")

    return mark


def replay_from_run(folder: Path, index: int, trace: Trace | None = None) -> GameRecord:
    """Game `index` of the run in `folder`, played again with its config, seed, decks and bots."""
    return play(from_run(folder, index), trace)
