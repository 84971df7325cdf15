"""Card metrics from the card tally (cards.parquet), defined as 17lands defines them.

Per (deck, card), over the seat-games in which the deck was played:
- play rate: share of those games in which the card was played;
- GP WR (games played): win rate in the games in which it was played;
- GIH WR (games in hand): win rate in the games in which it was in hand (opening hand or drawn);
- OH WR (opening hand): win rate in the games in which it was in the opening hand;
- GND WR (games not drawn): win rate in the games in which it never reached the hand;
- IWD (improvement when drawn) = GIH WR - GND WR;
- mean turn played; each of the game's counters per game played.
Every rate has a Wilson 95% interval (IWD: Newcombe's interval for a difference); a card with
fewer than `min_games` games in hand or not in hand is flagged `low_sample`.
"""

from __future__ import annotations

import math

import pandas as pd

from balance.stats.intervals import difference_interval, wilson

MIN_GAMES = 200

RATES = (  # metric -> (wins column, games column)
    ("gp_wr", "played_won", "played"),
    ("gih_wr", "drawn_won", "drawn"),
    ("oh_wr", "opening_won", "opening"),
    ("gnd_wr", "not_drawn_won", "not_drawn"),
)


def card_metrics(cards: pd.DataFrame, min_games: int = MIN_GAMES) -> pd.DataFrame:
    """One row per (deck, card) with every metric above, its interval and the sample flag."""
    out = cards[["deck", "card", "copies", "games", "drawn", "not_drawn", "played"]].copy()
    out["play_rate"] = _ratio(cards["played"], cards["games"])
    low_high = [wilson(p, n) for p, n in zip(cards["played"], cards["games"])]
    out["play_rate_low"] = [b[0] for b in low_high]
    out["play_rate_high"] = [b[1] for b in low_high]
    for name, wins, games in RATES:
        out[name] = _ratio(cards[wins], cards[games])
        bounds = [wilson(w, n) for w, n in zip(cards[wins], cards[games])]
        out[f"{name}_low"] = [b[0] for b in bounds]
        out[f"{name}_high"] = [b[1] for b in bounds]
    out["iwd"] = out["gih_wr"] - out["gnd_wr"]
    bounds = [
        difference_interval(a, n, b, m)
        for a, n, b, m in zip(
            cards["drawn_won"], cards["drawn"], cards["not_drawn_won"], cards["not_drawn"]
        )
    ]
    out["iwd_low"] = [b[0] for b in bounds]
    out["iwd_high"] = [b[1] for b in bounds]
    out["mean_turn_played"] = _ratio(cards["turn_played_sum"], cards["played"])
    for column in cards.columns:
        if column.endswith("_sum") and column != "turn_played_sum":
            out[column.removesuffix("_sum") + "_per_game_played"] = _ratio(
                cards[column], cards["played"]
            )
    out["low_sample"] = (cards["drawn"] < min_games) | (cards["not_drawn"] < min_games)
    return out


def _ratio(numerator: pd.Series, denominator: pd.Series) -> pd.Series:
    return (numerator / denominator.where(denominator > 0)).astype(float).fillna(math.nan)
