"""Running a schedule: batches of games on a backend, results streamed back in game order.

A batch is a range of game indexes plus the compiled spec (its bytes travel with every batch; a
worker unpickles them once). Every game's seed comes from the schedule, never from the worker, so
any backend, any number of jobs and any batch size give the same rows in the same order.
Backends: joblib's loky processes (default), or a dask.distributed cluster (`--backend dask
--scheduler ADDR`), or ray.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from balance.bots import make_bot
from balance.core.contract import GameSpec
from balance.core.errors import ConfigError, did_you_mean
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.records import CardTally, GameRows
from balance.sim.schedule import Schedule

BACKENDS = ("loky", "dask", "ray")
Progress = Callable[[int], None]  # called with the number of games a finished batch held


@dataclass(frozen=True)
class Batch:
    game: str
    spec_pickle: bytes  # the compiled spec, pickled once for the whole run (see spec_of)
    schedule: Schedule
    start: int
    stop: int


# The spec a worker last unpickled. Unpickling a spec rebuilds hundreds of frozen dataclasses
# (several ms, a few percent of a batch); every batch of a run carries the same bytes, so a
# worker does it once per run.
_last_spec: tuple[bytes, GameSpec] | None = None


def spec_of(batch: Batch) -> GameSpec:
    global _last_spec
    cached = _last_spec  # read once: a worker with several threads may swap it meanwhile
    if cached is None or cached[0] != batch.spec_pickle:
        cached = (batch.spec_pickle, pickle.loads(batch.spec_pickle))
        _last_spec = cached
    return cached[1]


@dataclass
class BatchResult:
    start: int
    stop: int
    rows: GameRows
    tally: CardTally
    decisions: int = 0
    crashes: list[dict[str, Any]] = field(default_factory=list)


def play_batch(batch: Batch) -> BatchResult:
    """Play games `start..stop-1` of the schedule (runs in a worker process)."""
    game = load_game(batch.game)
    spec = spec_of(batch)
    schedule = batch.schedule
    rows = GameRows(schedule.seats, spec.catalog.game_stats)
    tally = CardTally(len(spec.catalog.counters))
    result = BatchResult(batch.start, batch.stop, rows, tally)
    # a bot keeps nothing between decisions (all it needs comes in: state, decision, its rng),
    # so one instance per spec serves every seat and game of the batch
    bots = {name: make_bot(name) for lineup in schedule.lineups for name in lineup.bots}
    for index in range(batch.start, batch.stop):
        slot = schedule.slot(index)
        record = play_game(
            game,
            spec,
            slot.lineup.decks,
            [bots[name] for name in slot.lineup.bots],
            slot.seed,
            rotation=slot.rotation,
        )
        rows.add(slot, record)
        result.decisions += record.decisions
        if record.error:
            result.crashes.append(
                {
                    "game": index,
                    "seed": slot.seed,
                    "rotation": slot.rotation,
                    "decks": list(record.decks),
                    "bots": list(record.bots),
                    "error": record.error,
                    "choices": list(record.choices),
                    "traceback": record.trace,
                }
            )
        tally.add_game(slot.deal, record)  # a crash leaves its whole deal out of the tally
    return result


def batches(
    game: str,
    spec: GameSpec,
    schedule: Schedule,
    batch_size: int,
    start: int = 0,
    stop: int | None = None,
) -> Iterator[Batch]:
    """Games start..stop-1 of the schedule (to its end by default) in batches of whole deals
    (`batch_size` is rounded up to a multiple of the seats): the card tally of a batch sums
    products of a deal's totals, so a deal is never split between batches."""
    end = schedule.games if stop is None else min(stop, schedule.games)
    if start % schedule.seats or end % schedule.seats:
        raise ValueError(f"games {start}..{end - 1} split a deal: give whole deals")
    batch_size = -(-batch_size // schedule.seats) * schedule.seats
    spec_pickle = pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
    for first in range(start, end, batch_size):
        yield Batch(game, spec_pickle, schedule, first, min(first + batch_size, end))


def play_range(
    game: str,
    spec: GameSpec,
    schedule: Schedule,
    start: int,
    stop: int,
    jobs: int,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> tuple[Any, CardTally]:
    """Games start..stop-1 played and kept in memory: (games table, card tally). For the gate
    and tuning, which read results as they go and write no run folder."""
    import pandas as pd

    size = max(1, (stop - start) // (jobs * 4))
    frames = []
    tally = CardTally(len(spec.catalog.counters))
    for result in run_batches(
        batches(game, spec, schedule, size, start, stop), jobs, backend, scheduler
    ):
        frames.append(pd.DataFrame(result.rows.columns))
        tally.merge(result.tally)
        if progress is not None:
            progress(len(result.rows))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(), tally


def default_batch_size(games: int, jobs: int) -> int:
    """Enough batches to keep every worker busy and the progress bar moving, few enough to
    keep the cost of sending the spec small."""
    return max(1, min(500, games // (max(jobs, 1) * 16)))


def resolve_jobs(jobs: int | None) -> int:
    return os.cpu_count() or 1 if jobs is None or jobs <= 0 else jobs


def run_batches(
    work: Iterator[Batch],
    jobs: int,
    backend: str = "loky",
    scheduler: str | None = None,
) -> Iterator[BatchResult]:
    """The results of `work`, in order, computed on `backend`. Closing the iterator stops it."""
    if backend not in BACKENDS:
        raise ConfigError(
            "--backend", None, f"unknown backend '{backend}'", did_you_mean(backend, BACKENDS)
        )
    if backend == "loky":
        yield from _run_loky(work, jobs)
    elif backend == "dask":
        from balance.sim.cluster import run_dask

        yield from run_dask(work, scheduler, jobs)
    else:
        from balance.sim.cluster import run_ray

        yield from run_ray(work, scheduler, jobs)


def _run_loky(work: Iterator[Batch], jobs: int) -> Iterator[BatchResult]:
    if jobs == 1:  # in this process: no pickling, and a debugger sees the games
        for batch in work:
            yield play_batch(batch)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator", pre_dispatch="3*n_jobs")
    results = parallel(delayed(play_batch)(batch) for batch in work)
    try:
        yield from results
    finally:
        results.close()  # on Ctrl-C or an early stop: cancel what is still queued
