"""Win rates, matchups, seat advantage and outcomes against hand-computed values; their
intervals are the intervals over deals of the deals' totals."""

import math

import numpy as np
import pandas as pd
import pytest

from balance.stats.cards import card_metrics
from balance.stats.intervals import CrossSums, DealSums, difference_interval, ratio_interval
from balance.stats.outcomes import game_length, lineup_outcomes, ludii_summary, outcome_rates
from balance.stats.winrates import deck_table, matchup_table, seat_advantage, seat_table


def games_table(rows: list[tuple]) -> pd.DataFrame:
    """rows: (seed, rotation, deck_0, deck_1, score_0, capped, error)"""
    records = []
    for i, (seed, rotation, d0, d1, s0, capped, error) in enumerate(rows):
        winner = 0 if s0 == 1 else 1 if s0 == 0 else -1
        records.append(
            {
                "game": i,
                "seed": seed,
                "rotation": rotation,
                "seats": 2,
                "deck_0": d0,
                "deck_1": d1,
                "bot_0": "random",
                "bot_1": "random",
                "score_0": s0,
                "score_1": 1 - s0,
                "winner": winner if not error else -1,
                "turns": 10 + i,
                "decisions": 100 + i,
                "capped": capped,
                "end_reason": "x",
                "error": error,
            }
        )
    return pd.DataFrame(records)


GAMES = games_table(
    [
        (1, 0, "A", "B", 1.0, False, ""),  # A first, A wins
        (1, 1, "B", "A", 1.0, False, ""),  # B first, B wins
        (2, 0, "A", "B", 1.0, False, ""),  # A wins
        (2, 1, "B", "A", 0.0, False, ""),  # A wins from seat 1
        (3, 0, "A", "A", 0.5, True, ""),  # capped mirror, a draw
        (3, 1, "A", "A", 1.0, False, ""),
        (4, 0, "A", "B", 0.0, False, "RuntimeError: boom"),  # crashed: its deal left out
        (4, 1, "B", "A", 0.0, False, ""),
    ]
)


def interval(y: list[float], n: list[float], low: float = 0.0, high: float = 1.0):
    """The interval over deals of per-deal totals y / n."""
    return ratio_interval(DealSums.of(y, n), low, high)[1:3]


def test_seat_table() -> None:
    seats = seat_table(GAMES).set_index("seat")
    # seat 0 scores 1, 1 | 1, 0 | 0.5, 1 over the 3 deals all of whose games finished
    assert seats.loc[0, "games"] == 6 and seats.loc[0, "deals"] == 3
    assert seats.loc[0, "win_rate"] == pytest.approx(4.5 / 6)
    assert (seats.loc[0, "ci_low"], seats.loc[0, "ci_high"]) == pytest.approx(
        interval([2, 1, 1.5], [2, 2, 2])
    )
    assert seats.loc[1, "win_rate"] == pytest.approx(1.5 / 6)
    assert seats.loc[0, "decided_win_rate"] == pytest.approx(4 / 5)


def test_deck_table_leaves_mirrors_out() -> None:
    decks = deck_table(GAMES).set_index("deck")
    assert decks.loc["A", "games"] == 4 and decks.loc["A", "win_rate"] == pytest.approx(3 / 4)
    assert decks.loc["B", "win_rate"] == pytest.approx(1 / 4)
    # A scores 1, 0 in deal 1 and 1, 1 in deal 2
    assert (decks.loc["A", "ci_low"], decks.loc["A", "ci_high"]) == pytest.approx(
        interval([1, 2], [2, 2])
    )


def test_matchups_are_complementary_and_mirrors_are_even() -> None:
    m = matchup_table(GAMES).set_index(["deck", "opponent"])
    assert m.loc[("A", "B"), "win_rate"] + m.loc[("B", "A"), "win_rate"] == pytest.approx(1.0)
    assert m.loc[("A", "A"), "win_rate"] == pytest.approx(0.5)
    assert m.loc[("A", "A"), "games"] == 2  # two mirror games, each counted once
    assert math.isnan(m.loc[("A", "A"), "ci_low"])  # 1/2 by construction: no interval
    assert m.loc[("A", "B"), "ci_low"] < 0.75 < m.loc[("A", "B"), "ci_high"]
    assert m.loc[("A", "B"), "first_games"] == 2 and m.loc[
        ("A", "B"), "first_win_rate"
    ] == pytest.approx(1.0)
    assert m.loc[("A", "B"), "second_win_rate"] == pytest.approx(0.5)


def test_seat_advantage_is_paired_by_seed() -> None:
    adv = seat_advantage(GAMES)
    # deals 1, 2, 3 are complete: seat 0 means 1.0, 0.5, 0.75 -> minus 1/2: 0.5, 0, 0.25
    assert adv["deals"] == 3 and adv["value"] == pytest.approx(0.25)
    low, high = interval([2, 1, 1.5], [2, 2, 2])
    assert (adv["ci_low"], adv["ci_high"]) == pytest.approx((low - 0.5, high - 0.5))


def test_outcome_rates_and_lengths() -> None:
    rates = outcome_rates(GAMES)
    assert (rates["games"], rates["crashed"], rates["capped"], rates["draws"]) == (8, 1, 1, 1)
    # rates over the deals all of whose games finished; crashes over every deal
    assert rates["cap_rate"] == pytest.approx(1 / 6) and rates["crash_rate"] == pytest.approx(1 / 8)
    assert rates["cap_ci"] == pytest.approx(list(interval([0, 0, 1], [2, 2, 2])))
    assert rates["crash_ci"] == pytest.approx(list(interval([0, 0, 0, 1], [2, 2, 2, 2])))
    lengths = game_length(GAMES)  # turns 10..15 over the complete deals' games
    assert lengths["turns"]["mean"] == pytest.approx(12.5) and lengths["turns"][
        "p50"
    ] == pytest.approx(12.5)
    turns = (lengths["turns"]["ci_low"], lengths["turns"]["ci_high"])
    assert turns == pytest.approx(tuple(interval([21, 25, 29], [2, 2, 2], 0.0, math.inf)))
    metrics = ludii_summary(seat_table(GAMES), rates)
    assert metrics["balance"] == pytest.approx(1 - (4.5 - 1.5) / 6)
    assert metrics["completion"] == pytest.approx(6 / 8)
    lineups = lineup_outcomes(GAMES).set_index("lineup")
    assert lineups.loc["A vs A", "cap_rate"] == pytest.approx(0.5)


def card_row(deals: np.ndarray) -> dict[str, float]:
    """A cards.parquet row from per-deal totals [g, w, d, dw, o, ow, p, pw] (one deal a row)."""
    g, w, d, dw, o, ow, p, pw = deals.T
    nd, ndw = g - d, w - dw
    row = {"deck": "A", "card": "fox", "copies": 3, "games": g.sum(), "drawn": d.sum(),
           "drawn_won": dw.sum(), "opening": o.sum(), "opening_won": ow.sum(), "played": p.sum(),
           "played_won": pw.sum(), "not_drawn": nd.sum(), "not_drawn_won": ndw.sum(),
           "turn_played_sum": 3 * p.sum(), "damage_sum": 4 * p.sum(), "deals": len(deals)}  # fmt: skip
    for name, a, b in (("games_sq", g, g), ("games_x_played", g, p), ("played_sq", p, p),
                       ("played_x_played_won", p, pw), ("played_won_sq", pw, pw),
                       ("drawn_sq", d, d), ("drawn_x_drawn_won", d, dw), ("drawn_won_sq", dw, dw),
                       ("opening_sq", o, o), ("opening_x_opening_won", o, ow),
                       ("opening_won_sq", ow, ow), ("not_drawn_sq", nd, nd),
                       ("not_drawn_x_not_drawn_won", nd, ndw), ("not_drawn_won_sq", ndw, ndw),
                       ("drawn_x_not_drawn", d, nd), ("drawn_x_not_drawn_won", d, ndw),
                       ("drawn_won_x_not_drawn", dw, nd), ("drawn_won_x_not_drawn_won", dw, ndw)):  # fmt: skip
        row[name] = float((a * b).sum())
    return row


def test_card_metrics_follow_the_17lands_definitions() -> None:
    rng = np.random.default_rng(11)
    deals = []
    for _ in range(50):  # a deal: two seat-games of deck A
        drawn = rng.integers(0, 2, size=2)
        won = rng.integers(0, 2, size=2).astype(float)
        opening, played = drawn * rng.integers(0, 2, size=2), drawn * rng.integers(0, 2, size=2)
        deals.append([2, won.sum(), drawn.sum(), (won * drawn).sum(), opening.sum(),
                      (won * opening).sum(), played.sum(), (won * played).sum()])  # fmt: skip
    table = np.array(deals, dtype=float)
    row = card_row(table)
    m = card_metrics(pd.DataFrame([row]), min_games=30).iloc[0]
    assert m["play_rate"] == pytest.approx(row["played"] / row["games"])
    assert m["gp_wr"] == pytest.approx(row["played_won"] / row["played"])
    assert m["gih_wr"] == pytest.approx(row["drawn_won"] / row["drawn"])
    assert m["oh_wr"] == pytest.approx(row["opening_won"] / row["opening"])
    assert m["gnd_wr"] == pytest.approx(row["not_drawn_won"] / row["not_drawn"])
    assert m["iwd"] == pytest.approx(m["gih_wr"] - m["gnd_wr"])
    assert m["mean_turn_played"] == pytest.approx(3.0) and m["damage_per_game_played"] == 4.0
    g, w, d, dw, o, ow, p, pw = table.T
    for name, y, n in (("play_rate", p, g), ("gp_wr", pw, p), ("gih_wr", dw, d), ("oh_wr", ow, o),
                       ("gnd_wr", w - dw, g - d)):  # fmt: skip
        assert (m[f"{name}_low"], m[f"{name}_high"]) == pytest.approx(interval(y, n))
    cross = CrossSums(
        *((a * b).sum() for a, b in ((dw, w - dw), (dw, g - d), (d, w - dw), (d, g - d)))
    )
    iwd = difference_interval(DealSums.of(dw, d), DealSums.of(w - dw, g - d), cross, 50)
    assert (m["iwd_low"], m["iwd_high"]) == pytest.approx(iwd[1:3])
    assert m["iwd_low"] < m["iwd"] < m["iwd_high"] and not m["low_sample"]
    assert card_metrics(pd.DataFrame([row]), min_games=60).iloc[0]["low_sample"]


def test_a_card_table_from_before_the_sums_over_deals_has_rates_without_intervals() -> None:
    sums = ["deck", "card", "copies", "games", "drawn", "drawn_won", "opening", "opening_won",
            "played", "played_won", "not_drawn", "not_drawn_won", "turn_played_sum"]  # fmt: skip
    old = pd.DataFrame([card_row(np.ones((3, 8)))])[sums]
    m = card_metrics(old).iloc[0]
    assert m["gih_wr"] == 1.0 and math.isnan(m["gih_wr_low"]) and math.isnan(m["iwd_high"])
