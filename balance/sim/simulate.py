"""`balance simulate`: play a schedule and write the run's files, so that any end leaves a usable run.

The run folder holds `games.parquet` (one row per game), `cards.parquet` (sufficient statistics
per deck and card), `crashes.json` (each crashed game with the choices that replay it),
`checkpoint.json` (the card tally of the committed games, for `--resume`) and `run.json`, the
manifest: always a whole JSON file (replaced atomically), it says how far the run got (`games`
of `planned`) and how it ended (`status`: running, finished or stopped, and `stopped_by`).

While the run plays, finished games are committed every `COMMIT_SECONDS` (see
`records.GamesWriter`: part files and a checkpoint, the tally in step with the games) and the
manifest is updated after each commit. SIGINT, a second SIGINT, SIGTERM and SIGHUP stop the
workers and end the run the same way a finished one ends: every game the progress bar counted
is consolidated into the tables. A dead worker's batch is played again; workers that keep dying
on one batch end the run the same way, with the reason in `stopped_by`. A folder cut off harder
(SIGKILL, power loss) keeps its last commit: `simulate(..., resume=True)` (`--resume DIR`)
continues any of them and ends with the tables an uninterrupted run gives.

Nothing is written before every input is checked: config, bots, seed, schedule, the folder, and
the backend (opened, or reached, before the folder is made).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import balance
from balance.bots import make_bot
from balance.core.errors import ConfigError, RunFailed
from balance.core.registry import load_game
from balance.core.runfiles import CARDS, MANIFEST, read_manifest, replacing, write_json
from balance.sim.records import GamesWriter, card_columns
from balance.sim.runner import (
    Progress,
    batches,
    default_batch_size,
    open_pool,
    resolve_jobs,
    stream,
)
from balance.sim.schedule import make_schedule
from balance.sim.stop import stop_on_signals

# Finished games reach the disk at least this often, or with every batch if batches take longer:
# often enough that a hard stop loses seconds, rarely enough that a long run's part files stay few.
COMMIT_SECONDS = 2.0
Start = Callable[[int, int], None]  # on_start(planned games, games already done)


@dataclass(frozen=True)
class RunOptions:
    game: str
    config_dir: Path | None = None  # None: the game's shipped config
    overrides: Mapping[str, object] = field(default_factory=dict)  # --set, then --patch: applied
    sets: Mapping[str, object] = field(default_factory=dict)  # the --set ones, as given
    # the --patch file and its overrides ({"file": ..., "overrides": {...}}), applied after --set
    patch: Mapping[str, Any] | None = None
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
    commit_seconds: float = COMMIT_SECONDS  # finished games reach the disk at least this often


@dataclass(frozen=True)
class RunOutcome:
    folder: Path
    games: int  # games played and written, by this run and any it resumed
    planned: int
    crashed: int
    capped: int
    interrupted: bool
    wall_seconds: float
    decisions: int
    stopped_by: str = ""  # the signal's name (SIGINT, SIGTERM, SIGHUP) or why workers failed
    signum: int = 0  # the stopping signal's number, 0 if none


def simulate(
    options: RunOptions,
    progress: Progress | None = None,
    on_start: Start | None = None,
    resume: bool = False,
) -> RunOutcome:
    """Play the run `options` describe and write its folder. `on_start(planned, done)` is called
    once the work is known, `progress(n)` after each batch of n games. With `resume`, the run in
    `options.out` continues from its last commit (`resume_options` reads its options back)."""
    if options.seed < 0:
        raise ConfigError("--seed", None, f"{options.seed} is negative", "give a whole number >= 0")
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
    before = _check_folder(folder, resume, game.info.rules_version, spec.config_hash)
    catalog = spec.catalog

    with (
        stop_on_signals() as stop,
        open_pool(options.backend, options.scheduler, jobs, stop) as pool,
    ):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(
                str(folder),
                None,
                f"cannot make the run folder: {e.strerror}",
                "choose another --out",
            ) from None
        if before is None:
            writer = GamesWriter.start(
                folder, schedule.seats, catalog.game_stats, len(catalog.counters)
            )
        else:
            writer = GamesWriter.reopen(
                folder, schedule.seats, catalog.game_stats, len(catalog.counters)
            )
        started = datetime.now(UTC).isoformat(timespec="seconds")
        manifest = _manifest(
            options,
            game.info.rules_version,
            spec.config_hash,
            config_dir,
            jobs,
            schedule.games,
            started,
            before,
        )
        earlier_wall = float(manifest["wall_seconds"])
        clock = time.perf_counter()

        def record(status: str, stopped_by: str = "") -> None:
            manifest.update(
                games=writer.committed,
                crashed=writer.crashed,
                status=status,
                interrupted=status != "finished",
                stopped_by=stopped_by,
                wall_seconds=round(earlier_wall + time.perf_counter() - clock, 3),
                finished=datetime.now(UTC).isoformat(timespec="seconds")
                if status != "running"
                else None,
            )
            write_json(folder / MANIFEST, manifest)

        record("running")
        if on_start is not None:
            on_start(schedule.games, writer.committed)
        stopped_by = ""
        last_commit = time.perf_counter()

        def lost(message: str) -> None:
            manifest["workers_lost"] = manifest.get("workers_lost", 0) + 1

        try:
            work = batches(options.game, spec, schedule, batch_size, writer.committed)
            for result in stream(pool, work, stop, on_lost=lost):
                writer.add(result.rows, result.tally, result.crashes)
                if progress is not None:
                    progress(len(result.rows))
                if time.perf_counter() - last_commit >= options.commit_seconds:
                    writer.commit()
                    record("running")
                    last_commit = time.perf_counter()
        except KeyboardInterrupt:  # a progress callback's, or Ctrl-C off the main thread
            stopped_by = "SIGINT"
        except RunFailed as e:
            stopped_by = str(e)
        stopped_by = stop.signal or stopped_by
        writer.commit()
        _write_cards(folder / CARDS, writer.tally.rows(catalog), catalog.counters)
        capped, all_decisions = writer.consolidate()
        done = writer.committed >= schedule.games
        record("finished" if done else "stopped", "" if done else stopped_by or "stop")
    return RunOutcome(
        folder,
        writer.committed,
        schedule.games,
        writer.crashed,
        capped,
        not done,
        float(manifest["wall_seconds"]),
        all_decisions,
        manifest["stopped_by"],
        stop.signum,
    )


def resume_options(folder: Path) -> RunOptions:
    """The options of the run in `folder`, as its run.json records them, to continue it."""
    manifest = read_manifest(folder)
    recorded = manifest.get("options")
    if not isinstance(recorded, dict):
        raise ConfigError(
            str(folder / MANIFEST),
            None,
            "records no run options (written by an older balance?)",
            "this run cannot be resumed: run it again",
        )
    return RunOptions(
        game=manifest["game"],
        config_dir=Path(manifest["config"]),
        overrides=dict(manifest.get("overrides") or {}),
        sets=dict(manifest.get("set") or {}),
        patch=manifest.get("patch"),
        decks=recorded["decks"],
        bots=list(recorded["bots"]),
        seats=recorded["seats"],
        games=int(recorded["games"]),
        seed=int(manifest["seed"]),
        batch_size=recorded.get("batch_size"),
        backend=manifest.get("backend", "loky"),
        out=folder,
    )


def _check_folder(
    folder: Path, resume: bool, rules_version: str, config_hash: str
) -> dict[str, Any] | None:
    """Refuse a folder the run cannot use, before anything is written. Returns the manifest of
    the run to resume (None for a new run)."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(str(folder), None, "is a file, not a folder", "choose another --out")
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ConfigError(
            str(existing),
            None,
            "is a file, so no folder can be made under it",
            "choose another --out",
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(
            str(existing), None, "cannot write there (permission denied)", "choose another --out"
        )
    if resume:
        manifest = read_manifest(folder)
        for key, now in (("rules_version", rules_version), ("config_hash", config_hash)):
            if manifest.get(key) != now:
                raise ConfigError(
                    str(folder / MANIFEST),
                    None,
                    f"the run was played with {key} {manifest.get(key)}, the config now gives {now}",
                    "resuming would mix two configs: run it again into another --out",
                )
        return manifest
    if (folder / MANIFEST).exists():
        manifest = read_manifest(folder)
        if manifest.get("status", "finished") != "finished":
            raise ConfigError(
                str(folder),
                None,
                f"holds an unfinished run ({manifest.get('games')} of {manifest.get('planned')} games)",
                f"continue it with --resume {folder}, or choose another --out",
            )
    return None


def _manifest(
    options: RunOptions,
    rules_version: str,
    config_hash: str,
    config_dir: Path,
    jobs: int,
    planned: int,
    started: str,
    before: dict[str, Any] | None,
) -> dict[str, Any]:
    command = list(options.command) or sys.argv
    manifest: dict[str, Any] = {
        "version": balance.__version__,
        "game": options.game,
        "rules_version": rules_version,
        "config_hash": config_hash,
        "command": command,
        "seed": options.seed,
        "jobs": jobs,
        "backend": options.backend,
        "started": started,
        "finished": None,
        "wall_seconds": 0.0,
        "games": 0,
        "crashed": 0,
        "git_commit": _git_commit(),
        # what `balance replay RUN --game I` needs besides the games table
        "config": str(Path(config_dir).resolve()),
        "overrides": {k: v for k, v in options.overrides.items()},
        # who played on what, as the report's first lines say it: --set, and the patch
        "set": dict(options.sets),
        "patch": dict(options.patch) if options.patch else None,
        "planned": planned,
        "interrupted": True,
        "status": "running",
        "stopped_by": "",
        "workers_lost": 0,  # worker processes that died; their batches were played again
        # what `--resume` needs to continue the run
        "options": {
            "decks": options.decks if isinstance(options.decks, str) else list(options.decks),
            "bots": list(options.bots),
            "seats": options.seats,
            "games": options.games,
            "batch_size": options.batch_size,
        },
        "resumed": [],
    }
    if before is not None:  # a resumed run keeps its first start, command and time spent
        for key in ("command", "started", "wall_seconds", "resumed", "workers_lost"):
            if key in before:
                manifest[key] = before[key]
        manifest["resumed"] = [
            *manifest["resumed"],
            {"command": command, "started": started, "from_game": before.get("games", 0)},
        ]
    return manifest


def _write_cards(path: Path, rows: list[dict[str, Any]], counters: tuple[str, ...]) -> None:
    import pandas as pd

    with replacing(path) as temporary:
        pd.DataFrame(rows, columns=card_columns(counters)).to_parquet(temporary, index=False)


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
