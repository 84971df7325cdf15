"""Card impact by intervention: a card's side's win rate as the config stands, minus with the card
replaced by its baseline (or with the card's side barred from playing it), on the same deals.

Both runs play the same deals (one seed, one lineup, every seat rotation), so the difference is
paired: per deal, the side's score totals y1 (as is) and y2 (changed) over the same n seat-games.
The interval is the one `balance.stats.intervals.difference_interval` gives two ratios over the
same deals, with their covariance (the pairing is what makes it narrow) and Agresti-Caffo-like
pseudo-deals at the edges, so a card that changed no game in a few deals does not get [0, 0].

The card's side in a game: the seats whose deck holds the card, or, where every seat holds it (a
mirror, a shared setup), the seat of the lineup's first position (restricted play bars that one
seat alone).
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
import pandas as pd

from balance.stats.intervals import CrossSums, DealSums, difference_interval
from balance.stats.winrates import paired

IMPACT_COLUMNS = ["estimate", "ci_low", "ci_high", "std_error", "deals"]


def side_units(games: pd.DataFrame, holders: Collection[str]) -> pd.DataFrame:
    """Per deal (indexed by seed): y, the card's side's scores summed over the deal's games,
    and n, its seat-games. Deals with a crashed or missing game are left out."""
    played = paired(games)
    if not len(played):
        return pd.DataFrame({"y": [], "n": []}, index=pd.Index([], name="seed"))
    seats = int(played["seats"].max())
    holds = np.column_stack([played[f"deck_{s}"].isin(holders).to_numpy() for s in range(seats)])
    scores = np.column_stack([played[f"score_{s}"].to_numpy(dtype=float) for s in range(seats)])
    everyone = np.asarray(holds.all(axis=1), dtype=bool)
    first = (-played["rotation"].to_numpy()) % seats  # the seat of the lineup's first position
    side = holds & ~everyone[:, None]
    side[everyone, first[everyone]] = True
    frame = pd.DataFrame(
        {"seed": played["seed"].to_numpy(), "y": (scores * side).sum(axis=1), "n": side.sum(axis=1)}
    )
    frame = frame[frame["n"] > 0]
    units = frame.groupby("seed")[["y", "n"]].sum()
    return units.astype(float)


def paired_impact(as_is: pd.DataFrame, changed: pd.DataFrame) -> dict[str, float]:
    """The side's win rate as is minus changed, over the deals both hold: estimate, its 95%
    interval, standard error, and the deals."""
    both = as_is.add_suffix("_1").join(changed.add_suffix("_2"), how="inner")
    if not len(both):
        return dict.fromkeys(IMPACT_COLUMNS, math.nan) | {"deals": 0}
    y1, n1 = both["y_1"].to_numpy(), both["n_1"].to_numpy()
    y2, n2 = both["y_2"].to_numpy(), both["n_2"].to_numpy()
    a, b = DealSums.of(y1, n1), DealSums.of(y2, n2)
    cross = CrossSums(
        float((y1 * y2).sum()),
        float((y1 * n2).sum()),
        float((n1 * y2).sum()),
        float((n1 * n2).sum()),
    )
    estimate, low, high, std_error = difference_interval(a, b, cross, len(both))
    return {
        "estimate": float(estimate),
        "ci_low": float(low),
        "ci_high": float(high),
        "std_error": float(std_error),
        "deals": len(both),
    }


def band_verdict(low: float, high: float, band: float) -> str:
    """Where a card's interval stands against the designer's band [-band, band]: `inside`,
    `above` or `below` it, or `at the edge` (the interval straddles an edge)."""
    if math.isnan(low) or math.isnan(high):
        return ""
    if low > band:
        return "above"
    if high < -band:
        return "below"
    if -band <= low and high <= band:
        return "inside"
    return "at the edge"


def rank(table: pd.DataFrame, band: float) -> pd.DataFrame:
    """The impact table ranked for a designer, strongest card first (by the impact, or by the
    restricted-play measure where a game has no baseline), with each measure's verdict on the
    band."""
    if not len(table):
        return table
    table = table.copy()
    for measure in ("impact", "restricted"):
        table[f"{measure}_verdict"] = [
            band_verdict(low, high, band)
            for low, high in zip(table[f"{measure}_ci_low"], table[f"{measure}_ci_high"])
        ]
    lead = "impact" if table["impact"].notna().any() else "restricted"
    ranked = table.sort_values([lead, "card"], ascending=[False, True], na_position="last")
    return ranked.reset_index(drop=True)
