"""How games ended: crash, cap and draw rates, game length, per-lineup outcomes, Ludii-style
metrics, and the game's own per-game statistics. Pure functions over the games table.

Rates and mean lengths carry 95% intervals over deals (balance.stats.intervals), over the deals
all of whose games finished; the crash rate over every deal."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from balance.stats.intervals import rate_table
from balance.stats.winrates import finished, paired, seat_count

# The games table's own columns; any other column is a statistic the game declared.
BASE_COLUMNS = (
    "game",
    "seed",
    "rotation",
    "seats",
    "winner",
    "turns",
    "decisions",
    "capped",
    "end_reason",
    "error",
)


def outcome_rates(games: pd.DataFrame) -> dict[str, Any]:
    """How games ended: counts of crashes, caps and draws (a draw: no single winner, capped
    games included), and their rates with 95% intervals over deals."""
    n = len(games)
    played = finished(games)
    out: dict[str, Any] = {
        "games": n,
        "crashed": n - len(played),
        "capped": int(played["capped"].sum()),
        "draws": int((played["winner"] < 0).sum()),
    }
    kept = paired(games)
    events = {
        "crash": games.assign(event=(games["error"] != "").astype(float)),
        "cap": kept.assign(event=kept["capped"].astype(float)),
        "draw": kept.assign(event=(kept["winner"] < 0).astype(float)),
    }
    for name, frame in events.items():
        rate, low, high = _overall(frame, "event", 0.0, 1.0)
        out[f"{name}_rate"] = rate
        out[f"{name}_ci"] = [low, high]
    return out


def game_length(games: pd.DataFrame) -> dict[str, dict[str, float]]:
    """Turns and decisions per game: mean (with its 95% interval over deals), p10, p50, p90."""
    played = paired(games)
    out = {}
    for column in ("turns", "decisions"):
        values = played[column].astype(float)
        if not len(values):
            out[column] = dict.fromkeys(
                ("mean", "ci_low", "ci_high", "p10", "p50", "p90"), math.nan
            )
            continue
        mean, low, high = _overall(played.assign(value=values), "value", 0.0, math.inf)
        q = values.quantile([0.1, 0.5, 0.9])
        out[column] = {
            "mean": mean,
            "ci_low": low,
            "ci_high": high,
            "p10": float(q[0.1]),
            "p50": float(q[0.5]),
            "p90": float(q[0.9]),
        }
    return out


def _overall(
    frame: pd.DataFrame, value: str, low: float, high: float
) -> tuple[float, float, float]:
    """The mean of `value` over the games of `frame`, with its interval over deals."""
    table = rate_table(frame.assign(all=0), ["all"], value, low, high)
    if not len(table):
        return math.nan, math.nan, math.nan
    row = table.iloc[0]
    return float(row["estimate"]), float(row["ci_low"]), float(row["ci_high"])


def ludii_summary(seats: pd.DataFrame, rates: dict[str, Any]) -> dict[str, float]:
    """Ludii-style game metrics: balance = 1 - the largest gap between seats' win rates;
    completion = share of games ending by the rules (not capped, not crashed); drawishness =
    share of draws and shared wins."""
    gap = float(seats["win_rate"].max() - seats["win_rate"].min()) if len(seats) else math.nan
    n = rates["games"]
    natural = n - rates["crashed"] - rates["capped"]
    return {
        "balance": 1.0 - gap,
        "completion": natural / n if n else math.nan,
        "drawishness": rates["draw_rate"],
    }


def lineup_outcomes(games: pd.DataFrame) -> pd.DataFrame:
    """Per lineup (its decks, in any seat order): games, cap, draw and crash rates, so capped
    games are seen apart, never silently merged into wins."""
    seats = seat_count(games)
    if not seats:
        return pd.DataFrame(columns=["lineup", "games", "cap_rate", "draw_rate", "crash_rate"])
    decks = games[[f"deck_{s}" for s in range(seats)]].to_numpy()
    frame = pd.DataFrame(
        {
            "lineup": [" vs ".join(sorted(row)) for row in decks],
            "capped": games["capped"].to_numpy(),
            "draw": ((games["winner"] < 0) & (games["error"] == "")).to_numpy(),
            "crashed": (games["error"] != "").to_numpy(),
        }
    )
    table = frame.groupby("lineup").agg(
        games=("capped", "size"),
        cap_rate=("capped", "mean"),
        draw_rate=("draw", "mean"),
        crash_rate=("crashed", "mean"),
    )
    return table.reset_index()


def end_reasons(games: pd.DataFrame) -> pd.DataFrame:
    """How often each end reason occurred."""
    counts = games["end_reason"].value_counts()
    return pd.DataFrame(
        {
            "end_reason": counts.index,
            "games": counts.to_numpy(),
            "share": (counts / len(games)).to_numpy(),
        }
    )


def game_statistics(games: pd.DataFrame) -> pd.DataFrame:
    """The game's own per-game numbers (columns it declared): mean, p10, p50, p90."""
    seats = seat_count(games)
    per_seat = {f"{k}_{s}" for k in ("deck", "bot", "score") for s in range(seats)}
    played = finished(games)
    rows = []
    for column in games.columns:
        if column in BASE_COLUMNS or column in per_seat:
            continue
        values = pd.to_numeric(played[column], errors="coerce").dropna()
        if not len(values):
            continue
        q = values.quantile([0.1, 0.5, 0.9])
        rows.append(
            {
                "statistic": column,
                "mean": values.mean(),
                "p10": q[0.1],
                "p50": q[0.5],
                "p90": q[0.9],
            }
        )
    return pd.DataFrame(rows, columns=["statistic", "mean", "p10", "p50", "p90"])
