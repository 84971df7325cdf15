"""Running a schedule: batches of games on a pool of workers, results streamed back in game order.

A batch is a range of game indexes plus the compiled spec (its bytes travel with every batch; a
worker unpickles them once). Every game's seed comes from the schedule, never from the worker, so
any backend, any number of jobs and any batch size give the same rows in the same order. A batch
holds whole deals (one seed in every seat rotation), so per-deal sums can be made in a worker.

Pools: this process (`--jobs 1`), loky worker processes (default), or a dask.distributed or ray
cluster (`--backend dask --scheduler ADDR`). `stream` keeps a few batches in flight per worker
and polls a `StopRequest` while it waits, so a signal stops the run within a fraction of a
second. A worker that dies (killed, out of memory) breaks a loky pool: the pool is replaced and
the batches in flight are played again, which changes nothing since a batch is a pure function of
its range. A batch that kills its worker `RETRIES` times in a row ends the run with `RunFailed`.
A game that raises is not a dead worker: it is recorded as a crash, as always.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from balance.bots import make_bot
from balance.bots.barred import Barred
from balance.core.contract import Bot, GameSpec
from balance.core.errors import ConfigError, RunFailed, did_you_mean
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.records import CardTally, GameRows
from balance.sim.schedule import Schedule
from balance.sim.stop import Stopped, StopRequest

BACKENDS = ("loky", "dask", "ray")
Progress = Callable[[int], None]  # called with the number of games a finished batch held
POLL_SECONDS = 0.1  # how often a wait on workers looks at the stop request
RETRIES = 3  # a batch whose worker dies this many times in a row ends the run


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
    # so one instance per spec (and per card it is barred from) serves every game of the batch
    bots: dict[tuple[str, str], Bot] = {}
    for lineup in schedule.lineups:
        for name, card in zip(lineup.bots, lineup.barred or ("",) * len(lineup.bots)):
            bots[(name, "")] = bots.get((name, "")) or make_bot(name)
            if card:
                bots[(name, card)] = Barred(bots[(name, "")], spec.catalog.cards.index(card), card)
    for index in range(batch.start, batch.stop):
        slot = schedule.slot(index)
        lineup = slot.lineup
        barred = lineup.barred or ("",) * len(lineup.bots)
        record = play_game(
            game,
            spec,
            lineup.decks,
            [bots[(name, card)] for name, card in zip(lineup.bots, barred)],
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
    """Games start..stop-1 of the schedule (to its end by default) in batches of about
    `batch_size` games. Every boundary falls between two deals (the size is rounded up to whole
    deals, and the range must start and end between deals): the card tally of a batch sums
    products of a deal's totals, so a deal is never split. The tables do not depend on the
    batch size."""
    end = schedule.games if stop is None else min(stop, schedule.games)
    seats = schedule.seats
    if start % seats or end % seats:
        raise ValueError(f"games {start}..{end - 1} split a deal: give whole deals")
    size = max(1, -(-batch_size // seats)) * seats
    spec_pickle = pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
    first = start
    while first < end:
        last = min(end, first // seats * seats + size)  # a deal boundary, or the range's end
        yield Batch(game, spec_pickle, schedule, first, last)
        first = last


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
    stop_request: StopRequest | None = None,
) -> tuple[Any, CardTally]:
    """Games start..stop-1 played and kept in memory: (games table, card tally). For the gate
    and tuning, which read results as they go and write no run folder. Raises `Stopped` when
    `stop_request` ends the range early."""
    import pandas as pd

    size = max(1, (stop - start) // (jobs * 4))
    frames = []
    tally = CardTally(len(spec.catalog.counters))
    work = batches(game, spec, schedule, size, start, stop)
    for result in run_batches(work, jobs, backend, scheduler, stop_request):
        frames.append(result.rows.frame())
        tally.merge(result.tally)
        if progress is not None:
            progress(len(result.rows))
    if stop_request is not None and stop_request.is_set():
        raise Stopped(stop_request.signal)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(), tally


def default_batch_size(games: int, jobs: int) -> int:
    """Enough batches to keep every worker busy and the progress bar moving, few enough to
    keep the cost of sending the spec small."""
    return max(1, min(500, games // (max(jobs, 1) * 16)))


def available_cores() -> int:
    """The cores this process may run on (a container's or taskset's share, not the host's)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def resolve_jobs(jobs: int | None) -> int:
    """Workers for `--jobs`: every core when unset or <= 0, never more than the cores."""
    cores = available_cores()
    return cores if jobs is None or jobs <= 0 else min(jobs, cores)


# -- pools ----------------------------------------------------------------------------------------


class WorkerLost(Exception):
    """A worker process died while it held a batch (killed, out of memory)."""


class Pool(Protocol):
    """Where batches are played. `result` returns None while the batch is not done yet."""

    in_flight: int  # batches to keep submitted at once

    def submit(self, batch: Batch) -> Any: ...
    def result(self, handle: Any, timeout: float) -> BatchResult | None: ...
    def replace_workers(self) -> bool: ...  # after WorkerLost: False if this pool cannot
    def cancel(self, handles: Sequence[Any]) -> None: ...  # stop what is in flight, now


class InProcess:
    """`--jobs 1`: batches are played here, when their result is asked for (a debugger sees the
    games). A stop signal interrupts the batch being played; it is played again on resume."""

    in_flight = 1

    def __init__(self, stop: StopRequest | None) -> None:
        self.stop = stop

    def submit(self, batch: Batch) -> Batch:
        return batch

    def result(self, handle: Batch, timeout: float) -> BatchResult:
        if self.stop is None:
            return play_batch(handle)
        with self.stop.interruptible():
            return play_batch(handle)

    def replace_workers(self) -> bool:
        return False

    def cancel(self, handles: Sequence[Any]) -> None:
        """Nothing is in flight: a batch here runs inside `result`, which a stop interrupts."""


def _worker_started() -> None:
    """In each loky worker: Ctrl-C and a closing terminal reach the whole process group, but
    only the main process decides what to keep; it stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)


class LokyPool:
    """loky worker processes on this machine, reused from one run (or gate step) to the next."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.in_flight = 2 * jobs  # loky's call queue holds 2 * workers + 1: see cancel()
        self.executor = self._executor()

    def _executor(self, fresh: bool = False) -> Any:
        from joblib.externals.loky import get_reusable_executor

        # `fresh`: a worker died. loky replaces an executor it has flagged broken, but it may
        # fail the dead worker's batches before it flags the executor, and a resubmission to
        # that executor then fails at once (under load the tests saw three in a row): so the
        # old one is shut down, its workers killed, and a new one started, always.
        return get_reusable_executor(
            max_workers=self.jobs,
            timeout=300,
            initializer=_worker_started,
            reuse=False if fresh else "auto",
            kill_workers=fresh,
        )

    def submit(self, batch: Batch) -> Any:
        return self.executor.submit(play_batch, batch)

    def result(self, handle: Any, timeout: float) -> BatchResult | None:
        from concurrent.futures.process import BrokenProcessPool

        try:
            result: BatchResult = handle.result(timeout=timeout)
        except TimeoutError:
            return None
        except BrokenProcessPool as e:  # loky's TerminatedWorkerError is one
            raise WorkerLost(str(e).splitlines()[0]) from None
        return result

    def replace_workers(self) -> bool:
        self.executor = self._executor(fresh=True)
        return True

    def cancel(self, handles: Sequence[Any]) -> None:
        """Kill the workers, not wait for them: a batch can take minutes, and a stopped run
        must end now. First let loky move every batch submitted into its call queue (a few
        milliseconds: `in_flight` fits in it): loky's manager thread raises a KeyError when
        it is killed while a batch id still waits in its work queue."""
        deadline = time.monotonic() + 1.0
        while not all(f.running() or f.done() for f in handles) and time.monotonic() < deadline:
            time.sleep(0.005)
        self.executor.shutdown(wait=True, kill_workers=True)


@contextmanager
def open_pool(
    backend: str, scheduler: str | None, jobs: int, stop: StopRequest | None = None
) -> Iterator[Pool]:
    """The pool for `--backend` (checked here: unknown, not installed, unreachable are
    ConfigErrors), open for the block: a run opens it before it writes anything."""
    if backend not in BACKENDS:
        raise ConfigError(
            "--backend", None, f"unknown backend '{backend}'", did_you_mean(backend, BACKENDS)
        )
    if backend == "loky":
        yield InProcess(stop) if jobs == 1 else LokyPool(jobs)
        return
    from balance.sim import cluster

    opened = cluster.DaskPool if backend == "dask" else cluster.RayPool
    pool = opened(scheduler, jobs)
    try:
        yield pool
    finally:
        pool.close()


def stream(
    pool: Pool,
    work: Iterator[Batch],
    stop: StopRequest | None = None,
    on_lost: Callable[[str], None] | None = None,
) -> Iterator[BatchResult]:
    """The results of `work`, in order. Ends early, without an error, once `stop` is set;
    closing the iterator early also stops what is in flight. `on_lost(why)` is told of each
    worker that died (its batches are played again)."""
    work = iter(work)
    pending: deque[tuple[Batch, Any]] = deque()
    lost = 0  # workers lost since the last batch came back

    def fill() -> None:
        while len(pending) < pool.in_flight:
            batch = next(work, None)
            if batch is None:
                return
            pending.append((batch, pool.submit(batch)))

    try:
        fill()
        while pending:
            if stop is not None and stop.is_set():
                return
            batch, handle = pending[0]
            try:
                result = pool.result(handle, POLL_SECONDS)
            except Stopped:  # a batch played in this process, interrupted
                return
            except WorkerLost as e:
                lost += 1
                if on_lost is not None:
                    on_lost(str(e))
                if lost >= RETRIES or not pool.replace_workers():
                    raise RunFailed(
                        f"a worker died playing games {batch.start}-{batch.stop - 1}, "
                        f"{lost} times in a row ({e}); the games before are kept"
                    ) from None
                pending = deque((b, pool.submit(b)) for b, _ in pending)
                continue
            if result is None:
                continue
            lost = 0
            pending.popleft()
            fill()  # before handing the result on: the workers stay busy while it is written
            yield result
    finally:
        if pending:
            pool.cancel([handle for _, handle in pending])


def run_batches(
    work: Iterator[Batch],
    jobs: int,
    backend: str = "loky",
    scheduler: str | None = None,
    stop: StopRequest | None = None,
) -> Iterator[BatchResult]:
    """The results of `work`, in order, computed on `backend`. Closing the iterator stops it."""
    with open_pool(backend, scheduler, jobs, stop) as pool:
        yield from stream(pool, work, stop)
