"""`balance ladder`: how strong is each bot, and does the balance a designer measures hold as the
players get better?

For bots of several skill levels (random, greedy, mcts, ...):
- a round robin: each pair of bots plays on mirrored seeds, one bot in every seat rotation
  against copies of the other in the other seats, every deck pairing with the decks both ways
  round, so a bot's score is neither seat nor deck luck. With more than two seats each pair is
  also played the other way round (the other bot alone against copies of the first);
- ratings: Bradley-Terry (Luce for more seats) fitted to those results, on the Elo scale with the
  first bot listed at 0, with 95% intervals clustered by deal (balance.stats.ratings);
- at each level, self-play (every seat the same bot): the seat advantage and each deck's win
  rate against the field, side by side across levels.
Scores are mean scores with their 95% interval over deals (balance.stats.intervals). Every
pairing and level is played on the same seeds (common random numbers).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance.bots import for_game, make_bot
from balance.core.registry import load_game
from balance.sim.runner import play_range, resolve_jobs
from balance.sim.schedule import Lineup, Schedule, make_schedule
from balance.sim.stop import Stopped, StopRequest
from balance.stats.intervals import units_estimate
from balance.stats.ratings import fit_ratings
from balance.stats.units import deal_units, unit_bounds
from balance.stats.winrates import paired


@dataclass
class LadderResult:
    game: str
    bots: list[str]  # whole specs, weakest first as given; the first is the ratings' anchor
    seats: int
    # bot, rating, ci_low, ci_high, std_error (Elo points, the first bot 0), strongest first;
    # after a stop, only the bots that played a finished pairing
    ratings: pd.DataFrame
    # bot, opponent, deals, estimate (the bot's mean score per game alone against copies of the
    # opponent), ci_low, ci_high, expected (what the ratings predict)
    pairs: pd.DataFrame
    # bot, measure (seat advantage / deck X win rate), deals, estimate, ci_low, ci_high
    levels: pd.DataFrame
    games: int  # played
    planned: int
    config_dir: Path = Path()
    overrides: dict[str, object] = field(default_factory=dict)
    decks: Any = "all"
    stopped_by: str = ""  # the signal that stopped the ladder early, "" when it ran to the end
    signum: int = 0


def ladder(
    game_name: str,
    bots: Sequence[str],
    games: int = 400,
    seats: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    config_dir: Path | None = None,
    overrides: Mapping[str, object] | None = None,
    decks: str | Sequence[str] = "all",
    stop: StopRequest | None = None,
) -> LadderResult:
    """Play the ladder: `games` games per pairing (each way round with more than two seats) and
    per self-play level. A stop request ends it after the games of the batches finished; what
    was played in full (pairings, levels) is measured."""
    game = load_game(game_name)
    folder = config_dir or game.config_dir
    overrides = dict(overrides or {})
    spec = game.load(folder, overrides)
    # each bot by the label the games table gives it: its whole spec with the game's defaults
    bots = list(dict.fromkeys(make_bot(bot).name for bot in for_game(game.info, bots)))
    jobs = resolve_jobs(jobs)
    # self-play schedules first: make_schedule checks --seats and --decks for the game
    levels = [
        (bot, make_schedule(game.info, spec.catalog, decks, (bot,), seats, games, seed))
        for bot in bots
    ]
    seats = levels[0][1].seats
    deck_sets = [lineup.decks for lineup in levels[0][1].lineups]
    # each deck pairing with the decks both ways round, each in every seat rotation
    ordered = sorted({p for decks_ in deck_sets for p in itertools.permutations(decks_)})
    pairings = itertools.combinations(bots, 2) if seats == 2 else itertools.permutations(bots, 2)
    plans: list[tuple[str, str | None, Schedule]] = []
    for first, second in pairings:
        lineups = tuple(Lineup(d, (first,) + (second,) * (seats - 1)) for d in ordered)
        plans.append((first, second, _schedule(lineups, seats, games, seed)))
    plans += [(bot, None, schedule) for bot, schedule in levels]
    planned = sum(schedule.games for _, _, schedule in plans)
    if on_start is not None:
        on_start(planned)

    results: list[pd.DataFrame] = []
    pair_rows: list[dict[str, Any]] = []
    level_rows: list[dict[str, Any]] = []
    played = 0
    stopped = ""
    for bot, opponent, schedule in plans:
        try:
            table, _ = play_range(
                game_name, spec, schedule, 0, schedule.games, jobs, progress=progress,
                stop_request=stop,
            )  # fmt: skip
        except Stopped as e:
            stopped = str(e) or "stop"
            break
        played += len(table)
        if opponent is None:  # self-play: balance at this level
            for name, values in deal_units(table, seats).items():
                if name == "seat advantage" or name.startswith("deck "):
                    level_rows.append(
                        {"bot": bot, "measure": name, **_mean(values, unit_bounds(name, seats))}
                    )
            continue
        values = _bot_units(table, bot, seats)
        results.append(values.reset_index().assign(bot=bot, opponent=opponent, seats=seats))
        row = _mean(values, (0.0, 1.0))
        pair_rows.append({"bot": bot, "opponent": opponent, **row})
        if seats == 2:  # the other seat took the rest of each game's point
            pair_rows.append({"bot": opponent, "opponent": bot, "deals": row["deals"], "estimate": 1 - row["estimate"],
                              "ci_low": 1 - row["ci_high"], "ci_high": 1 - row["ci_low"]})  # fmt: skip

    pairs = pd.DataFrame(
        pair_rows, columns=["bot", "opponent", "deals", "estimate", "ci_low", "ci_high"]
    )
    ratings = pd.DataFrame(columns=["bot", "rating", "ci_low", "ci_high", "std_error"])
    if results:
        data = pd.concat(results, ignore_index=True).rename(columns={"seed": "deal"})
        # after a stop, the bots that met: every pairing with the first bot comes first, so
        # they are all linked to it (fit_ratings checks)
        met = set(data["bot"]) | set(data["opponent"])
        try:
            fitted = fit_ratings(data, [bot for bot in bots if bot in met])
        except ValueError:  # no pairing with the first bot finished: no bot can be rated
            fitted = None
        if fitted is not None:
            ratings = fitted.table()
            pairs["expected"] = [
                fitted.expected_score(a, b, seats)
                for a, b in zip(pairs["bot"], pairs["opponent"], strict=True)
            ]
    return LadderResult(
        game_name, bots, seats, ratings, pairs, pd.DataFrame(level_rows), played, planned,
        folder, overrides, decks, stopped, stop.signum if stop is not None and stopped else 0,
    )  # fmt: skip


def _schedule(lineups: tuple[Lineup, ...], seats: int, games: int, seed: int) -> Schedule:
    deals = max(1, -(-games // (len(lineups) * seats)))
    return Schedule(lineups, deals, seats, seed)


def _bot_units(table: pd.DataFrame, bot: str, seats: int) -> pd.DataFrame:
    """Per deal (its seed): the totals (y: score, n: seat-games) of `bot`'s seats across its
    rotations."""
    finished = paired(table)
    frames = [
        finished.loc[finished[f"bot_{s}"] == bot, ["seed", f"score_{s}"]].rename(
            columns={f"score_{s}": "score"}
        )
        for s in range(seats)
    ]
    scores = pd.concat(frames, ignore_index=True)
    return scores.groupby("seed")["score"].agg(y="sum", n="count").astype(float)


def _mean(values: pd.DataFrame, bounds: tuple[float, float]) -> dict[str, Any]:
    estimate, low, high, _ = units_estimate(values, *bounds)
    return {"deals": len(values), "estimate": estimate, "ci_low": low, "ci_high": high}
