"""Win rates from the games table: per seat, per deck against the field, per matchup, and the
seat advantage on paired seeds. Pure functions over a pandas games table (DESIGN.md's columns).

A win rate is a mean score (1 win, 1/k for a k-way shared win or draw, 0 loss) with its Wilson
95% interval. Crashed games are left out of every rate (they are counted apart).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from balance.stats.intervals import bounded_mean_interval, wilson


def finished(games: pd.DataFrame) -> pd.DataFrame:
    """The games that did not crash."""
    return games[games["error"] == ""]


def seat_count(games: pd.DataFrame) -> int:
    return int(games["seats"].max()) if len(games) else 0


def by_seat(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): game, seed, rotation, seat, deck, bot, score, capped."""
    frames = []
    for seat in range(seat_count(games)):
        frame = games[["game", "seed", "rotation", "capped", "winner"]].copy()
        frame["seat"] = seat
        frame["deck"] = games[f"deck_{seat}"]
        frame["bot"] = games[f"bot_{seat}"]
        frame["score"] = games[f"score_{seat}"]
        frames.append(frame)
    if not frames:
        return pd.DataFrame(
            columns=["game", "seed", "rotation", "capped", "winner", "seat", "deck", "bot", "score"]
        )
    return pd.concat(frames, ignore_index=True)


def _rate_rows(grouped: Any, keys: list[str]) -> pd.DataFrame:
    table = grouped["score"].agg(games="count", wins="sum").reset_index()
    bounds = [wilson(w, n) for w, n in zip(table["wins"], table["games"])]
    table["win_rate"] = table["wins"] / table["games"]
    table["ci_low"] = [b[0] for b in bounds]
    table["ci_high"] = [b[1] for b in bounds]
    return table[[*keys, "games", "wins", "win_rate", "ci_low", "ci_high"]]


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """Each seat's win rate (seat 0 moves first), over all finished games and over decided ones."""
    rows = by_seat(finished(games))
    table = _rate_rows(rows.groupby("seat"), ["seat"])
    decided = rows[rows["winner"] >= 0].groupby("seat")["score"].mean()
    table["decided_win_rate"] = table["seat"].map(decided)
    seats = seat_count(games)
    table["advantage"] = table["win_rate"] - (1.0 / seats if seats else math.nan)
    return table


def deck_table(games: pd.DataFrame) -> pd.DataFrame:
    """Each deck's win rate against the field. Mirror games (every seat the same deck) are left
    out: they say nothing about a deck against others, and would pull every deck towards 1/N."""
    played = finished(games)
    if not len(played):
        return _rate_rows(by_seat(played).groupby("deck"), ["deck"])
    decks = played[[f"deck_{s}" for s in range(seat_count(played))]]
    mixed = played[decks.nunique(axis=1) > 1]
    return _rate_rows(by_seat(mixed).groupby("deck"), ["deck"])


def matchup_table(games: pd.DataFrame) -> pd.DataFrame:
    """Two-player runs: each deck against each opponent deck, both seat orders pooled, and
    apart (`first_*`: the deck moved first). A vs B + B vs A = 1; a mirror is 0.5."""
    played = finished(games)
    columns = ["deck", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high",
               "first_games", "first_win_rate", "second_games", "second_win_rate"]  # fmt: skip
    if seat_count(played) != 2:
        return pd.DataFrame(columns=columns)
    rows = by_seat(played)  # seat 0's rows, then seat 1's, each in the games' order
    rows["opponent"] = np.concatenate([played["deck_1"].to_numpy(), played["deck_0"].to_numpy()])
    table = _rate_rows(rows.groupby(["deck", "opponent"]), ["deck", "opponent"])
    # a mirror pools both seats of each game (so its rate is exactly 1/2): count each game once
    mirror = table["deck"] == table["opponent"]
    table.loc[mirror, ["games", "wins"]] = table.loc[mirror, ["games", "wins"]] / 2
    table["games"] = table["games"].astype(int)
    for i in table.index[mirror]:
        table.loc[i, ["ci_low", "ci_high"]] = wilson(table.at[i, "wins"], table.at[i, "games"])
    for name, seat in (("first", 0), ("second", 1)):
        part = (
            rows[rows["seat"] == seat].groupby(["deck", "opponent"])["score"].agg(["count", "mean"])
        )
        part.columns = [f"{name}_games", f"{name}_win_rate"]
        table = table.merge(part, left_on=["deck", "opponent"], right_index=True, how="left")
    table[["first_games", "second_games"]] = (
        table[["first_games", "second_games"]].fillna(0).astype(int)
    )
    return table[columns]


def seat_advantage(games: pd.DataFrame) -> dict[str, float]:
    """Seat 0's mean score minus the fair share 1/N, on paired seeds: each deal is played in
    every seat rotation, so the decks' strengths cancel within a deal and the interval is the
    normal interval of the per-deal means (deals are independent)."""
    played = finished(games)
    seats = seat_count(played)
    if not seats:
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "deals": 0}
    per_deal = played.groupby("seed")["score_0"].agg(["count", "mean"])
    complete = per_deal[per_deal["count"] == seats]["mean"] - 1.0 / seats
    n = len(complete)
    low, high = bounded_mean_interval(
        float(complete.sum()), float((complete**2).sum()), n, -1.0 / seats, 1.0 - 1.0 / seats
    )
    value = float(complete.mean()) if n else math.nan
    return {"value": value, "ci_low": low, "ci_high": high, "deals": n}
