"""Card metrics from the card tally (cards.parquet), defined as 17lands defines them.

Per (deck, card), over the seat-games in which the deck was played:
- play rate: share of those games in which the card was played;
- GP WR (games played): win rate in the games in which it was played;
- GIH WR (games in hand): win rate in the games in which it was in hand (opening hand or drawn);
- OH WR (opening hand): win rate in the games in which it was in the opening hand;
- GND WR (games not drawn): win rate in the games in which it never reached the hand;
- IWD (improvement when drawn) = GIH WR - GND WR;
- GIH WR vs deck: GIH WR minus the deck's win rate in the same games;
- mean turn played; each of the game's counters per game played.
Every rate has a 95% interval over deals (balance.stats.intervals), from the tally's sums over
deals of the products of a deal's totals; IWD's accounts for its two rates sharing deals. A card
with fewer than `min_games` games in hand or not in hand is flagged `low_sample`. A
cards.parquet written before the tally kept those sums gives rates without intervals.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from balance.stats.intervals import CrossSums, DealSums, difference_interval, ratio_interval

MIN_GAMES = 200

RATES = (  # metric -> the cards.parquet columns of y, n, sum y^2, sum n*y, sum n^2 over deals
    ("play_rate", "played", "games", "played_sq", "games_x_played", "games_sq"),
    ("gp_wr", "played_won", "played", "played_won_sq", "played_x_played_won", "played_sq"),
    ("gih_wr", "drawn_won", "drawn", "drawn_won_sq", "drawn_x_drawn_won", "drawn_sq"),
    ("oh_wr", "opening_won", "opening", "opening_won_sq", "opening_x_opening_won", "opening_sq"),
    ("gnd_wr", "not_drawn_won", "not_drawn", "not_drawn_won_sq", "not_drawn_x_not_drawn_won",
     "not_drawn_sq"),
)  # fmt: skip


def card_metrics(cards: pd.DataFrame, min_games: int = MIN_GAMES) -> pd.DataFrame:
    """One row per (deck, card) with every metric above, its interval and the sample flag."""
    out = cards[["deck", "card", "copies", "games", "drawn", "not_drawn", "played"]].copy()
    sums = {}
    for name, *columns in RATES:
        sums[name] = DealSums(*(_column(cards, c) for c in columns))
        out[name], out[f"{name}_low"], out[f"{name}_high"], out[f"{name}_std_error"] = (
            ratio_interval(sums[name])
        )
    cross = CrossSums(*(_column(cards, c) for c in ("drawn_won_x_not_drawn_won",
                        "drawn_won_x_not_drawn", "drawn_x_not_drawn_won", "drawn_x_not_drawn")))  # fmt: skip
    deals = sums["play_rate"].deals()  # the deck's deals (play rate's n is the deck's games)
    out["iwd"], out["iwd_low"], out["iwd_high"], out["iwd_std_error"] = difference_interval(
        sums["gih_wr"], sums["gnd_wr"], cross, deals
    )
    # the deck's win rate in the same games (every card's in-hand and not-in-hand games are
    # the deck's games), so a card reads against its own deck, as 17lands does
    deck_wr = _ratio(
        cards["drawn_won"] + cards["not_drawn_won"], cards["drawn"] + cards["not_drawn"]
    )
    out["deck_wr"] = deck_wr.groupby(cards["deck"]).transform("max")
    out["gih_wr_vs_deck"] = out["gih_wr"] - out["deck_wr"]
    out["mean_turn_played"] = _ratio(cards["turn_played_sum"], cards["played"])
    for column in cards.columns:
        if column.endswith("_sum") and column != "turn_played_sum":
            out[column.removesuffix("_sum") + "_per_game_played"] = _ratio(
                cards[column], cards["played"]
            )
    out["low_sample"] = (cards["drawn"] < min_games) | (cards["not_drawn"] < min_games)
    return out


def _column(cards: pd.DataFrame, name: str) -> np.ndarray:
    if name not in cards.columns:  # a run from before the tally kept sums over deals
        return np.full(len(cards), math.nan)
    column: np.ndarray = cards[name].to_numpy(dtype=float)
    return column


def _ratio(numerator: pd.Series, denominator: pd.Series) -> pd.Series:
    return (numerator / denominator.where(denominator > 0)).astype(float).fillna(math.nan)
