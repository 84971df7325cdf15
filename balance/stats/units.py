"""Per-deal units: one deal's totals (y, n) of a measure, the unit of the sequential tests and of
paired comparisons between configs played on the same seeds. The measure over deals is
sum(y) / sum(n), with its interval from balance.stats.intervals.

Named like the gate's assertions: "seat advantage" (seat 0's score less the fair share 1/N, over
the deal's games), "deck X win rate" (X's score over its seat-games in the deal; mirror deals
left out), "matchup A vs B" (A's score, A before B alphabetically; two seats), "cap rate" (its
capped games) and "turns" (its game lengths). Only deals all of whose games finished count
(balance.stats.winrates).
"""

from __future__ import annotations

import pandas as pd

from balance.stats.intervals import units_estimate
from balance.stats.winrates import by_seat, paired


def deal_units(games: pd.DataFrame, seats: int) -> dict[str, pd.DataFrame]:
    """Each unit's totals per deal: columns y and n, indexed by the deal's seed."""
    played = paired(games)
    out: dict[str, pd.DataFrame] = {}
    if not len(played):
        return out
    by_deal = played.groupby("seed")
    n = by_deal["game"].size().astype(float)
    out["seat advantage"] = pd.DataFrame({"y": by_deal["score_0"].sum() - n / seats, "n": n})
    out["turns"] = pd.DataFrame({"y": by_deal["turns"].sum().astype(float), "n": n})
    out["cap rate"] = pd.DataFrame({"y": by_deal["capped"].sum().astype(float), "n": n})
    long = by_seat(played)[["seed", "deck", "score"]]
    mixed = long[long.groupby("seed")["deck"].transform("nunique") > 1]
    per_deal = mixed.groupby(["seed", "deck"])["score"].agg(y="sum", n="count").reset_index()
    per_deal["n"] = per_deal["n"].astype(float)
    for deck, rows in per_deal.groupby("deck"):
        out[f"deck {deck} win rate"] = rows.set_index("seed")[["y", "n"]]
    if seats == 2 and len(mixed):
        pairs = per_deal.merge(per_deal[["seed", "deck"]], on="seed", suffixes=("", "_other"))
        pairs = pairs[pairs["deck"] < pairs["deck_other"]]
        for (a, b), rows in pairs.groupby(["deck", "deck_other"]):
            out[f"matchup {a} vs {b}"] = rows.set_index("seed")[["y", "n"]]
    return out


def unit_bounds(name: str, seats: int) -> tuple[float, float]:
    """The range a unit's per-deal ratio lies in: a score's, or seat 0's score less its share."""
    if name == "seat advantage":
        return -1.0 / seats, 1.0 - 1.0 / seats
    if name == "turns":
        return 0.0, float("inf")
    return 0.0, 1.0


def unit_estimate(units: pd.DataFrame, name: str, seats: int) -> tuple[float, float, float, float]:
    """(estimate, 95% low, 95% high, standard error) of the unit `name` over its deals."""
    return units_estimate(units, *unit_bounds(name, seats))
