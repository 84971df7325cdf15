"""`balance ladder`: does the balance a designer measures hold as the players get better?

For bots of several skill levels (random, greedy, mcts, ...):
- a round robin: each pair of bots plays on mirrored seeds, every deck pairing in both seat
  orders and with the decks swapped, so a bot's win rate is neither seat nor deck luck;
- at each level, self-play (every seat the same bot): the seat advantage and each deck's win
  rate against the field, side by side across levels.
Win rates are mean scores with their 95% interval over deals (balance.stats.intervals).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from balance.bots import make_bot
from balance.core.registry import load_game
from balance.sim.runner import play_range, resolve_jobs
from balance.sim.schedule import Lineup, Schedule, lineup_decks
from balance.stats.intervals import units_estimate
from balance.stats.units import deal_units, unit_bounds
from balance.stats.winrates import paired


@dataclass
class LadderResult:
    game: str
    bots: list[str]
    pairs: pd.DataFrame  # bot, opponent, deals, estimate (the bot's win rate), ci_low, ci_high
    levels: (
        pd.DataFrame
    )  # bot, measure (seat advantage / deck X win rate), deals, estimate, ci_low, ci_high
    games: int


def ladder(
    game_name: str,
    bots: Sequence[str],
    games: int = 400,
    seats: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> LadderResult:
    game = load_game(game_name)
    spec = game.load(game.config_dir)
    # each bot by the label the games table gives it: its whole spec, as make_bot writes it
    bots = [make_bot(bot).name for bot in bots]
    seats = seats or game.info.min_seats
    jobs = resolve_jobs(jobs)
    deck_sets = lineup_decks(spec.catalog, "all", seats)
    plans: list[tuple[str, Schedule]] = []
    for first, second in itertools.combinations(bots, 2):
        # each deck pairing with the decks both ways round, each in every seat rotation
        ordered = sorted({p for decks in deck_sets for p in itertools.permutations(decks)})
        lineups = tuple(Lineup(decks, (first,) + (second,) * (seats - 1)) for decks in ordered)
        plans.append((f"{first} vs {second}", _schedule(lineups, seats, games, seed)))
    for bot in bots:
        lineups = tuple(Lineup(decks, (bot,) * seats) for decks in deck_sets)
        plans.append((f"self-play {bot}", _schedule(lineups, seats, games, seed)))
    if on_start is not None:
        on_start(sum(s.games for _, s in plans))

    pair_rows, level_rows, total = [], [], 0
    for label, schedule in plans:
        table, _ = play_range(game_name, spec, schedule, 0, schedule.games, jobs, progress=progress)
        total += len(table)
        if label.startswith("self-play "):
            bot = label.removeprefix("self-play ")
            for name, values in deal_units(table, seats).items():
                if name == "seat advantage" or name.startswith("deck "):
                    bounds = unit_bounds(name, seats)
                    level_rows.append({"bot": bot, "measure": name, **_mean(values, bounds)})
        else:
            first, second = label.split(" vs ")
            values = _bot_units(table, first, seats)
            row = _mean(values, (0.0, 1.0))
            pair_rows.append({"bot": first, "opponent": second, **row})
            # the other seats share the rest: their mean score is (1 - first's) / (seats - 1)
            others = seats - 1
            pair_rows.append({"bot": second, "opponent": first, "deals": row["deals"], "estimate": (1 - row["estimate"]) / others,
                              "ci_low": (1 - row["ci_high"]) / others, "ci_high": (1 - row["ci_low"]) / others})  # fmt: skip
    return LadderResult(
        game_name, list(bots), pd.DataFrame(pair_rows), pd.DataFrame(level_rows), total
    )


def _schedule(lineups: tuple[Lineup, ...], seats: int, games: int, seed: int) -> Schedule:
    deals = max(1, -(-games // (len(lineups) * seats)))
    return Schedule(lineups, deals, seats, seed)


def _bot_units(table: pd.DataFrame, bot: str, seats: int) -> pd.DataFrame:
    """Per deal: the totals (y: score, n: seat-games) of `bot`'s seats across its rotations."""
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
