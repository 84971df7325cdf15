"""Win rates from the games table: per seat, per deck against the field, per matchup, and the
seat advantage. Pure functions over a pandas games table (DESIGN.md's columns).

A win rate is a mean score (1 win, 1/k for a k-way shared win or draw, 0 loss) over seat-games,
with its 95% interval over deals (balance.stats.intervals): a deal's seat orders share its
seed, so the deal is the unit. Rates count the deals all of whose games finished: a crashed
game takes its deal out (its other games would stand without their other seat orders); the
crash rate counts them (balance.stats.outcomes).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from balance.stats.intervals import rate_table

RATE_COLUMNS = ["games", "deals", "wins", "win_rate", "ci_low", "ci_high"]


def finished(games: pd.DataFrame) -> pd.DataFrame:
    """The games that did not crash."""
    return games[games["error"] == ""]


def paired(games: pd.DataFrame) -> pd.DataFrame:
    """The games of the deals played in every seat rotation, none of them crashed."""
    if not len(games):
        return games
    crashed = games.loc[games["error"] != "", "seed"].unique()
    size = games.groupby("seed")["game"].transform("size")
    return games[(size == games["seats"]) & ~games["seed"].isin(crashed)]


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


def _rates(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    table = rate_table(rows, keys, "score")
    table = table.rename(columns={"total": "wins", "estimate": "win_rate"})
    return table[[*keys, *RATE_COLUMNS]]


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """Each seat's win rate (seat 0 moves first), over all games and over decided ones."""
    rows = by_seat(paired(games))
    table = _rates(rows, ["seat"])
    decided = rows[rows["winner"] >= 0].groupby("seat")["score"].mean()
    table["decided_win_rate"] = table["seat"].map(decided)
    seats = seat_count(games)
    table["advantage"] = table["win_rate"] - (1.0 / seats if seats else math.nan)
    return table


def deck_table(games: pd.DataFrame) -> pd.DataFrame:
    """Each deck's win rate against the field. Mirror games (every seat the same deck) are left
    out: they say nothing about a deck against others, and would pull every deck towards 1/N."""
    played = paired(games)
    if not len(played):
        return _rates(by_seat(played), ["deck"])
    decks = played[[f"deck_{s}" for s in range(seat_count(played))]]
    mixed = played[decks.nunique(axis=1) > 1]
    return _rates(by_seat(mixed), ["deck"])


def matchup_table(games: pd.DataFrame) -> pd.DataFrame:
    """Two-player runs: each deck against each opponent deck, both seat orders pooled, and
    apart (`first_*`: the deck moved first). A vs B + B vs A = 1. A mirror is 1/2 by
    construction: its games are counted once and it has no interval."""
    played = paired(games)
    columns = ["deck", "opponent", *RATE_COLUMNS,
               "first_games", "first_win_rate", "second_games", "second_win_rate"]  # fmt: skip
    if seat_count(played) != 2:
        return pd.DataFrame(columns=columns)
    rows = by_seat(played)  # seat 0's rows, then seat 1's, each in the games' order
    rows["opponent"] = np.concatenate([played["deck_1"].to_numpy(), played["deck_0"].to_numpy()])
    table = _rates(rows, ["deck", "opponent"])
    # a mirror pools both seats of each game (so its rate is exactly 1/2): count each game once
    mirror = table["deck"] == table["opponent"]
    table.loc[mirror, ["games", "wins"]] = table.loc[mirror, ["games", "wins"]] / 2
    table.loc[mirror, ["ci_low", "ci_high"]] = math.nan
    table["games"] = table["games"].astype(int)
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
    """Seat 0's win rate minus the fair share 1/N: each deal is played in every seat rotation,
    so the decks' strengths cancel within a deal."""
    seats = seat_table(games)
    if not len(seats):
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "deals": 0}
    first = seats.iloc[0]
    fair = 1.0 / seat_count(games)
    return {
        "value": float(first["win_rate"] - fair),
        "ci_low": float(first["ci_low"] - fair),
        "ci_high": float(first["ci_high"] - fair),
        "deals": int(first["deals"]),
    }
