"""`balance bench`: how fast each game's simulator runs, measured honestly.

Per game and bot: single-process games/s, decisions/s and µs per decision as the median of
several repeats (with min and max); `clone()` µs on mid-game states; and the parallel speed-up
of the runner at `jobs` workers over the runner in one process (warm workers).

The single-process figures are this process's CPU time (`time.process_time`), not the wall
clock: on a shared machine other jobs' load stretches wall time by whole multiples while the
CPU time a game takes barely moves, so benches from a busy hour and a quiet one compare. The
speed-up is wall time, since workers running side by side is what it measures.
Every seat plays the same bot; lineups cycle through every deck pairing of the shipped config.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from balance.bots import for_game, make_bot
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.runner import batches, run_batches
from balance.sim.schedule import make_schedule


@dataclass(frozen=True)
class Spread:
    median: float
    low: float
    high: float

    @staticmethod
    def of(values: list[float]) -> Spread:
        return Spread(statistics.median(values), min(values), max(values))


@dataclass(frozen=True)
class GameBench:
    game: str
    bot: str
    seats: int
    games: int  # games played for the single-process figures
    games_per_s: Spread
    decisions_per_s: Spread
    us_per_decision: Spread
    clone_us: Spread
    jobs: int
    speedup: float | None  # the runner's games/s at `jobs` workers over its games/s in one
    choose_ms: float  # the median CPU time of the bot's answer to a decision with a choice


def bench_game(
    name: str, bot: str = "random", seconds: float = 6.0, repeats: int = 3, jobs: int = 2, seats: int | None = None,
    log: Callable[[str], None] | None = None,
) -> GameBench:  # fmt: skip
    game = load_game(name)
    spec = game.load(game.config_dir)
    [bot] = for_game(game.info, [bot])  # the bot as this game plays it, budget and all
    schedule = make_schedule(
        game.info, spec.catalog, "all", [bot], seats, games=10**9, run_seed=12345
    )
    next_game = 0
    games_rate, decision_rate, per_decision = [], [], []
    total_games = 0
    for _ in range(repeats):
        played = decisions = 0
        start = time.process_time()
        while True:
            slot = schedule.slot(next_game)
            next_game += 1
            record = play_game(
                game, spec, slot.lineup.decks, [make_bot(b) for b in slot.lineup.bots], slot.seed
            )
            if record.error:
                raise RuntimeError(
                    f"{name}: game {slot.index} crashed while benchmarking: {record.error}"
                )
            played += 1
            decisions += record.decisions
            elapsed = time.process_time() - start
            if elapsed >= seconds / repeats:
                break
        games_rate.append(played / elapsed)
        decision_rate.append(decisions / elapsed)
        per_decision.append(elapsed / decisions * 1e6)
        total_games += played
        if log is not None:
            log(
                f"{name} {bot}: {played / elapsed:,.1f} games/s, {decisions / elapsed:,.0f} decisions/s"
            )
    clone = _clone_us(game, spec, schedule)
    choose = _choose_ms(game, spec, schedule, bot, seconds / repeats)
    speedup = (
        _speedup(
            name, spec, schedule, jobs, statistics.median(games_rate), seconds / repeats, repeats
        )
        if jobs > 1
        else None
    )
    return GameBench(name, bot, schedule.seats, total_games, Spread.of(games_rate), Spread.of(decision_rate),
                     Spread.of(per_decision), clone, jobs, speedup, choose)  # fmt: skip


def _choose_ms(game: Any, spec: Any, schedule: Any, bot: str, seconds: float) -> float:
    """The median CPU ms a bot takes to answer a decision that has a choice (one option is
    answered by the play loop, not the bot), over games played for about `seconds`. Timed
    apart from the games/s figures, so timing each answer costs them nothing."""
    inner = make_bot(bot)
    timings: list[float] = []

    class Timed:
        name = inner.name

        def choose(self, state: Any, decision: Any, rng: Random) -> int:
            began = time.process_time()
            option = inner.choose(state, decision, rng)
            timings.append(time.process_time() - began)
            return option

    start = time.process_time()
    index = 10**6  # far from the games the figures above played
    while time.process_time() - start < seconds or not timings:
        slot = schedule.slot(index)
        index += 1
        play_game(game, spec, slot.lineup.decks, [Timed()] * len(slot.lineup.decks), slot.seed)
    return statistics.median(timings) * 1000


def _clone_us(game: Any, spec: Any, schedule: Any, states: int = 12, copies: int = 200) -> Spread:
    """µs per clone() of states halfway through random games."""
    rng = Random(7)
    timings = []
    for i in range(states):
        slot = schedule.slot(i)
        state = game.new_game(spec, slot.lineup.decks, slot.seed)
        probe = state.clone()
        choices = []
        while (d := probe.decision()) is not None:  # play it out once to learn its length
            choices.append(rng.randrange(len(d.options)))
            probe.apply(choices[-1])
        for option in choices[: len(choices) // 2]:  # then the same choices to its middle
            state.apply(option)
        start = time.process_time()
        for _ in range(copies):
            state.clone()
        timings.append((time.process_time() - start) / copies * 1e6)
    return Spread.of(timings)


def _whole_deals(games: int, seats: int) -> int:
    return -(-games // seats) * seats


def _speedup(
    name: str, spec: Any, schedule: Any, jobs: int, single_rate: float, seconds: float, repeats: int
) -> float:
    """The runner's games/s at `jobs` workers over its games/s in one process.

    Both go through the same runner, batches and records, on warm workers, and play the very
    same games: games differ in length from one stretch of the schedule to the next by tens of
    percent, which would otherwise land in the ratio. Which side goes first alternates, so a
    machine whose speed drifts does not bias it either way; the median of `repeats`.
    """
    # batches of a fifth of a second, sixteen a worker at least: the tail where one worker
    # waits for the last batch stays a few percent, as in a real run's default batch size
    # (in whole deals, as batches hold)
    per_batch = _whole_deals(max(1, min(500, int(single_rate * 0.2))), schedule.seats)
    warm = list(run_batches(batches(name, spec, schedule, per_batch, 0, per_batch * jobs), jobs))
    assert warm
    count = _whole_deals(max(jobs * per_batch * 16, int(single_rate * seconds)), schedule.seats)
    first = per_batch * jobs

    def rate(workers: int, start: int) -> float:
        work = batches(name, spec, schedule, per_batch, start, start + count)
        began = time.perf_counter()
        for _ in run_batches(work, workers):
            pass
        return count / (time.perf_counter() - began)

    ratios = []
    for repeat in range(repeats):
        start = first + repeat * count
        if repeat % 2 == 0:
            single = rate(1, start)
            parallel = rate(jobs, start)
        else:
            parallel = rate(jobs, start)
            single = rate(1, start)
        ratios.append(parallel / single)
    return statistics.median(ratios)


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
