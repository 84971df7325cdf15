"""Win rates, matchups, seat advantage and outcomes against hand-computed values."""

import pandas as pd
import pytest

from balance.stats.cards import card_metrics
from balance.stats.intervals import wilson
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
        (4, 0, "A", "B", 0.0, False, "RuntimeError: boom"),  # crashed: left out of rates
    ]
)


def test_seat_table() -> None:
    seats = seat_table(GAMES).set_index("seat")
    # seat 0 scores 1, 1, 1, 0, 0.5, 1 over 6 finished games
    assert seats.loc[0, "games"] == 6 and seats.loc[0, "win_rate"] == pytest.approx(4.5 / 6)
    assert (seats.loc[0, "ci_low"], seats.loc[0, "ci_high"]) == pytest.approx(wilson(4.5, 6))
    assert seats.loc[1, "win_rate"] == pytest.approx(1.5 / 6)
    assert seats.loc[0, "decided_win_rate"] == pytest.approx(4 / 5)


def test_deck_table_leaves_mirrors_out() -> None:
    decks = deck_table(GAMES).set_index("deck")
    assert decks.loc["A", "games"] == 4 and decks.loc["A", "win_rate"] == pytest.approx(3 / 4)
    assert decks.loc["B", "win_rate"] == pytest.approx(1 / 4)


def test_matchups_are_complementary_and_mirrors_are_even() -> None:
    m = matchup_table(GAMES).set_index(["deck", "opponent"])
    assert m.loc[("A", "B"), "win_rate"] + m.loc[("B", "A"), "win_rate"] == pytest.approx(1.0)
    assert m.loc[("A", "A"), "win_rate"] == pytest.approx(0.5)
    assert m.loc[("A", "A"), "games"] == 2  # two mirror games, each counted once
    assert m.loc[("A", "B"), "first_games"] == 2 and m.loc[
        ("A", "B"), "first_win_rate"
    ] == pytest.approx(1.0)
    assert m.loc[("A", "B"), "second_win_rate"] == pytest.approx(0.5)


def test_seat_advantage_is_paired_by_seed() -> None:
    adv = seat_advantage(GAMES)
    # deals 1, 2, 3 are complete: seat 0 means 1.0, 0.5, 0.75 -> minus 1/2: 0.5, 0, 0.25
    assert adv["deals"] == 3 and adv["value"] == pytest.approx(0.25)
    assert adv["ci_low"] < 0.25 < adv["ci_high"]


def test_outcome_rates_and_lengths() -> None:
    rates = outcome_rates(GAMES)
    assert (rates["games"], rates["crashed"], rates["capped"], rates["draws"]) == (7, 1, 1, 1)
    assert rates["cap_rate"] == pytest.approx(1 / 6) and rates["crash_rate"] == pytest.approx(1 / 7)
    lengths = game_length(GAMES)
    assert lengths["turns"]["mean"] == pytest.approx(12.5) and lengths["turns"][
        "p50"
    ] == pytest.approx(12.5)
    metrics = ludii_summary(seat_table(GAMES), rates)
    assert metrics["balance"] == pytest.approx(1 - (4.5 - 1.5) / 6)
    assert metrics["completion"] == pytest.approx(5 / 7)
    lineups = lineup_outcomes(GAMES).set_index("lineup")
    assert lineups.loc["A vs A", "cap_rate"] == pytest.approx(0.5)


def test_card_metrics_follow_the_17lands_definitions() -> None:
    cards = pd.DataFrame(
        [
            {
                "deck": "A",
                "card": "fox",
                "copies": 3,
                "games": 100,
                "drawn": 60,
                "drawn_won": 36.0,
                "opening": 20,
                "opening_won": 11.0,
                "played": 50,
                "played_won": 32.0,
                "not_drawn": 40,
                "not_drawn_won": 14.0,
                "turn_played_sum": 150,
                "damage_sum": 200,
            }
        ]
    )
    m = card_metrics(cards, min_games=30).iloc[0]
    assert m["play_rate"] == pytest.approx(0.5) and m["gp_wr"] == pytest.approx(0.64)
    assert m["gih_wr"] == pytest.approx(0.6) and m["oh_wr"] == pytest.approx(0.55)
    assert m["gnd_wr"] == pytest.approx(0.35) and m["iwd"] == pytest.approx(0.25)
    assert m["mean_turn_played"] == pytest.approx(3.0) and m[
        "damage_per_game_played"
    ] == pytest.approx(4.0)
    assert m["iwd_low"] < 0.25 < m["iwd_high"] and not m["low_sample"]
    assert card_metrics(cards, min_games=50).iloc[0]["low_sample"]
