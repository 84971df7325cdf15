"""Per-deal units: one value per deal (a seed played in every seat rotation), the unit of the
sequential tests and of paired comparisons between configs played on the same seeds.

Named like the gate's assertions: "seat advantage" (seat 0's mean score minus 1/N), "deck X win
rate" (X's mean score in the deal; mirror deals left out), "matchup A vs B" (A's mean score, A
before B alphabetically; two seats), and "turns" (the deal's mean game length).
"""

from __future__ import annotations

import pandas as pd


def deal_units(games: pd.DataFrame, seats: int) -> dict[str, pd.Series]:
    """Each unit series is indexed by the deal's seed."""
    finished = games[games["error"] == ""]
    complete = finished.groupby("seed")["game"].transform("size") == seats
    played = finished[complete]
    out: dict[str, pd.Series] = {}
    if not len(played):
        return out
    by_seed = played.groupby("seed")
    out["seat advantage"] = by_seed["score_0"].mean() - 1.0 / seats
    out["turns"] = by_seed["turns"].mean()
    long = pd.concat(
        [
            pd.DataFrame(
                {"seed": played["seed"], "deck": played[f"deck_{s}"], "score": played[f"score_{s}"]}
            )
            for s in range(seats)
        ],
        ignore_index=True,
    )
    mixed = long[long.groupby("seed")["deck"].transform("nunique") > 1]
    per_deal = mixed.groupby(["seed", "deck"])["score"].mean().reset_index()
    for deck, rows in per_deal.groupby("deck"):
        out[f"deck {deck} win rate"] = rows.set_index("seed")["score"]
    if seats == 2 and len(mixed):
        pairs = per_deal.merge(per_deal, on="seed", suffixes=("", "_other"))
        pairs = pairs[pairs["deck"] < pairs["deck_other"]]
        for (a, b), rows in pairs.groupby(["deck", "deck_other"]):
            out[f"matchup {a} vs {b}"] = rows.set_index("seed")["score"]
    return out


def unit_bounds(name: str, seats: int) -> tuple[float, float]:
    """The range a unit's values lie in: a score's, or seat 0's score less its fair share."""
    if name == "seat advantage":
        return -1.0 / seats, 1.0 - 1.0 / seats
    if name == "turns":
        return 0.0, float("inf")
    return 0.0, 1.0
