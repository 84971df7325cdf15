"""`balance simulate`: play a schedule and write the run's files.

The run folder holds `games.parquet` (one row per game, written in chunks as batches finish),
`cards.parquet` (sufficient statistics per deck and card), `crashes.json` (each crashed game with
the choices that replay it) and `run.json` (the manifest). Ctrl-C keeps every finished batch.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import balance
from balance.bots import make_bot
from balance.core.registry import load_game
from balance.sim.records import CardTally, GamesWriter, card_columns
from balance.sim.runner import Progress, batches, default_batch_size, resolve_jobs, run_batches
from balance.sim.schedule import make_schedule


@dataclass(frozen=True)
class RunOptions:
    game: str
    config_dir: Path | None = None  # None: the game's shipped config
    overrides: Mapping[str, object] = field(default_factory=dict)
    decks: str | Sequence[str] = "all"
    bots: Sequence[str] = ("random",)
    seats: int | None = None
    games: int = 2000
    seed: int = 0
    jobs: int | None = None  # None: every core
    batch_size: int | None = None
    backend: str = "loky"
    scheduler: str | None = None
    out: Path | None = None  # None: reports/<game>-<timestamp>
    command: Sequence[str] = ()


@dataclass(frozen=True)
class RunOutcome:
    folder: Path
    games: int  # games played and written
    planned: int
    crashed: int
    capped: int
    interrupted: bool
    wall_seconds: float
    decisions: int


def simulate(
    options: RunOptions, progress: Progress | None = None, on_start: Any = None
) -> RunOutcome:
    """Play the run `options` describe and write its folder. `on_start(planned)` is called once
    the schedule is known, `progress(n)` after each batch of n games."""
    game = load_game(options.game)
    config_dir = options.config_dir or game.config_dir
    spec = game.load(config_dir, options.overrides)
    for bot in options.bots:
        make_bot(bot)  # a bad bot spec is the user's mistake: say so before any work starts
    schedule = make_schedule(
        game.info,
        spec.catalog,
        options.decks,
        options.bots,
        options.seats,
        options.games,
        options.seed,
    )
    jobs = resolve_jobs(options.jobs)
    batch_size = options.batch_size or default_batch_size(schedule.games, jobs)
    folder = options.out or _new_run_folder(options.game)
    folder.mkdir(parents=True, exist_ok=True)
    if on_start is not None:
        on_start(schedule.games)

    writer = GamesWriter(folder / "games.parquet", schedule.seats, spec.catalog.game_stats)
    tally = CardTally(len(spec.catalog.counters))
    crashes: list[dict[str, Any]] = []
    capped = decisions = 0
    interrupted = False
    started = datetime.now(UTC)
    clock = time.perf_counter()
    try:
        work = batches(options.game, spec, schedule, batch_size)
        for result in run_batches(work, jobs, options.backend, options.scheduler):
            writer.write(result.rows)
            tally.merge(result.tally)
            crashes.extend(result.crashes)
            capped += sum(result.rows.columns["capped"])
            decisions += result.decisions
            if progress is not None:
                progress(len(result.rows))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        writer.close()
    wall = time.perf_counter() - clock

    _write_cards(folder / "cards.parquet", tally.rows(spec.catalog), spec.catalog.counters)
    (folder / "crashes.json").write_text(json.dumps(crashes, indent=1))
    manifest = {
        "version": balance.__version__,
        "game": options.game,
        "rules_version": game.info.rules_version,
        "config_hash": spec.config_hash,
        "command": list(options.command) or sys.argv,
        "seed": options.seed,
        "jobs": jobs,
        "backend": options.backend,
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 3),
        "games": writer.rows,
        "crashed": len(crashes),
        "git_commit": _git_commit(),
        # what `balance replay RUN --game I` needs besides the games table
        "config": str(Path(config_dir).resolve()),
        "overrides": {k: v for k, v in options.overrides.items()},
        "planned": schedule.games,
        "interrupted": interrupted,
    }
    (folder / "run.json").write_text(json.dumps(manifest, indent=2, default=str))
    return RunOutcome(
        folder, writer.rows, schedule.games, len(crashes), capped, interrupted, wall, decisions
    )


def _write_cards(path: Path, rows: list[dict[str, Any]], counters: tuple[str, ...]) -> None:
    import pandas as pd

    pd.DataFrame(rows, columns=card_columns(counters)).to_parquet(path, index=False)


def _new_run_folder(game: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = Path("reports") / f"{game}-{stamp}"
    n = 1
    while folder.exists():
        n += 1
        folder = Path("reports") / f"{game}-{stamp}-{n}"
    return folder


def _git_commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
            cwd=Path(balance.__file__).parent,  # the code's commit, wherever the run is started
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
