"""Two runs side by side: every table both runs have, each row in both, the change and its 95%
interval (`balance compare RUN_A RUN_B`, and the report's view with `--against RUN`).

The change is B - A. Where the runs played the same deals (the same seeds: the same `--seed` and
schedule, as a config change compared on common random numbers), a row's change is paired: its
interval is over the shared deals, from both runs' totals in each deal, so the luck the deals
share cancels (`difference_interval`, the covariance of the two ratios counted). Otherwise the
runs are independent samples and the two standard errors add in quadrature (unpaired). Card
metrics are always unpaired: cards.parquet keeps sums over deals, not each deal's totals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from balance.stats.intervals import Z95, CrossSums, DealSums, difference_interval, ratio_interval
from balance.stats.winrates import by_seat, paired, seat_count

CHANGE_COLUMNS = ["a", "b", "change", "ci_low", "ci_high", "paired", "deals"]
CARD_MEASURES = ("gih_wr", "iwd", "play_rate", "gp_wr", "gnd_wr")


def unpaired_change(
    a: float, se_a: float, b: float, se_b: float, z: float = Z95
) -> tuple[float, float, float]:
    """(b - a, 95% low, 95% high) for two independent estimates with their standard errors."""
    change = b - a
    half = z * math.sqrt(se_a**2 + se_b**2)
    return change, change - half, change + half


def change_table(
    a: pd.DataFrame, b: pd.DataFrame, keys: Sequence[str], low: float = 0.0, high: float = 1.0
) -> pd.DataFrame:
    """Per key both runs have: A's and B's ratio over deals, the change B - A and its 95%
    interval, whether it is paired, and the deals behind it. `a` and `b` hold per-deal totals
    `y`, `n` indexed by the keys and the deal's `seed`; each ratio lies in [low, high] (an
    unbounded one, a game length, gets the plain normal interval of its change)."""
    keys = list(keys)
    rows = []
    groups_b = dict(_groups(b, keys))
    for key, part_a in _groups(a, keys):
        part_b = groups_b.get(key)
        if part_b is None:
            continue
        rows.append({**dict(zip(keys, key)), **_change(part_a, part_b, low, high)})
    return pd.DataFrame(rows, columns=[*keys, *CHANGE_COLUMNS])


def _groups(frame: pd.DataFrame, keys: list[str]) -> list[tuple[tuple[object, ...], pd.DataFrame]]:
    out = []
    for key, part in frame.groupby(level=keys, sort=True, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        out.append((key, part.droplevel(keys)[["y", "n"]].astype(float)))
    return out


def _change(a: pd.DataFrame, b: pd.DataFrame, low: float, high: float) -> dict[str, object]:
    sums_a, sums_b = DealSums.of(a["y"], a["n"]), DealSums.of(b["y"], b["n"])
    bounded = math.isfinite(low) and math.isfinite(high)
    if set(a.index) == set(b.index):  # the same deals: paired over them
        both = b.add_suffix("_b").join(a.add_suffix("_a"))
        cross = CrossSums(
            float((both["y_b"] * both["y_a"]).sum()),
            float((both["y_b"] * both["n_a"]).sum()),
            float((both["n_b"] * both["y_a"]).sum()),
            float((both["n_b"] * both["n_a"]).sum()),
        )
        deals = len(both)
        if bounded:
            change, ci_low, ci_high, _ = difference_interval(
                sums_b, sums_a, cross, deals, low, high
            )
        else:
            change, _, _, error = difference_interval(sums_b, sums_a, cross, deals, 0.0, 1.0)
            ci_low, ci_high = change - Z95 * error, change + Z95 * error
        return _row(sums_a.ratio(), sums_b.ratio(), change, ci_low, ci_high, True, deals)
    bounds = (low, high) if bounded else (-math.inf, math.inf)
    _, _, _, se_a = ratio_interval(sums_a, *bounds)
    _, _, _, se_b = ratio_interval(sums_b, *bounds)
    change, ci_low, ci_high = unpaired_change(sums_a.ratio(), se_a, sums_b.ratio(), se_b)
    return _row(sums_a.ratio(), sums_b.ratio(), change, ci_low, ci_high, False, len(a) + len(b))


def _row(*values: object) -> dict[str, object]:
    return dict(
        zip(CHANGE_COLUMNS, (float(v) if isinstance(v, np.floating) else v for v in values))
    )


# -- per-deal totals of a run's tables ----------------------------------------------------------


def seat_deals(games: pd.DataFrame) -> pd.DataFrame:
    """Each seat's score per deal (seat 0 moves first)."""
    rows = by_seat(paired(games))
    return rows.groupby(["seat", "seed"])["score"].agg(y="sum", n="count")


def deck_deals(games: pd.DataFrame) -> pd.DataFrame:
    """Each deck's score per deal against the field (mirror deals left out)."""
    rows = by_seat(paired(games))
    mixed = rows[rows.groupby("seed")["deck"].transform("nunique") > 1]
    return mixed.groupby(["deck", "seed"])["score"].agg(y="sum", n="count")


def matchup_deals(games: pd.DataFrame) -> pd.DataFrame:
    """Two seats: each deck's score per deal against each other deck (mirrors left out)."""
    played = paired(games)
    if seat_count(played) != 2:
        return pd.DataFrame(
            columns=["y", "n"],
            index=pd.MultiIndex.from_arrays([[], [], []], names=["deck", "opponent", "seed"]),
        )
    rows = by_seat(played)
    rows["opponent"] = np.concatenate([played["deck_1"].to_numpy(), played["deck_0"].to_numpy()])
    rows = rows[rows["deck"] != rows["opponent"]]
    return rows.groupby(["deck", "opponent", "seed"])["score"].agg(y="sum", n="count")


def outcome_deals(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per deal: capped games, draws (no single winner) and turns, over its games."""
    played = paired(games)
    events = {
        "cap rate": played["capped"].astype(float),
        "draw rate": (played["winner"] < 0).astype(float),
        "turns": played["turns"].astype(float),
    }
    out = {}
    for name, values in events.items():
        frame = played.assign(value=values, measure=name)
        out[name] = frame.groupby(["measure", "seed"])["value"].agg(y="sum", n="count")
    return out


def compare_tables(games_a: pd.DataFrame, games_b: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The change of every game table both runs have: seats, decks, matchups, outcomes."""
    outcomes_a, outcomes_b = outcome_deals(games_a), outcome_deals(games_b)
    rates = [
        change_table(outcomes_a[m], outcomes_b[m], ["measure"]) for m in ("cap rate", "draw rate")
    ]
    turns = change_table(outcomes_a["turns"], outcomes_b["turns"], ["measure"], 0.0, math.inf)
    return {
        "seats": change_table(seat_deals(games_a), seat_deals(games_b), ["seat"]),
        "decks": change_table(deck_deals(games_a), deck_deals(games_b), ["deck"]),
        "matchups": change_table(matchup_deals(games_a), matchup_deals(games_b), ["deck", "opponent"]),
        "outcomes": pd.concat([*rates, turns], ignore_index=True),
    }  # fmt: skip


def card_changes(metrics_a: pd.DataFrame, metrics_b: pd.DataFrame) -> pd.DataFrame:
    """Per (deck, card) both runs have, per measure (GIH WR, IWD, play rate, GP WR, GND WR):
    A, B and the unpaired change with its 95% interval."""
    both = metrics_a.merge(metrics_b, on=["deck", "card"], suffixes=("_a", "_b"))
    rows = []
    for record in both.to_dict(orient="records"):
        for measure in CARD_MEASURES:
            a, b = record[f"{measure}_a"], record[f"{measure}_b"]
            se_a, se_b = record[f"{measure}_std_error_a"], record[f"{measure}_std_error_b"]
            if any(v is None or not math.isfinite(v) for v in (a, b, se_a, se_b)):
                continue
            change, low, high = unpaired_change(a, se_a, b, se_b)
            rows.append({"deck": record["deck"], "card": record["card"], "measure": measure,
                         "a": a, "b": b, "change": change, "ci_low": low, "ci_high": high,
                         "paired": False, "deals": 0})  # fmt: skip
    return pd.DataFrame(rows, columns=["deck", "card", "measure", *CHANGE_COLUMNS])


def shared_deals(games_a: pd.DataFrame, games_b: pd.DataFrame) -> tuple[int, int, int]:
    """(deals of A, deals of B, deals both played): how far the runs can be paired."""
    seeds_a, seeds_b = set(games_a["seed"]), set(games_b["seed"])
    return len(seeds_a), len(seeds_b), len(seeds_a & seeds_b)
