"""Bradley-Terry ratings against truth: results simulated from known strengths (draws, games of a
deal correlated, more than two seats) must give the strengths back, and the interval must cover
them at about its nominal rate."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from balance.stats.ratings import ELO, fit_ratings


def simulated(
    elo: dict[str, float],
    deals: int,
    rng: np.random.Generator,
    seats: int = 2,
    draws: float = 0.1,
    same: float = 0.5,
) -> pd.DataFrame:
    """Every pair, both ways round when seats > 2, `deals` deals of `seats` games each. A game:
    the lone bot's score (1, 0, or 1/seats for a shared result with probability `draws`), with
    mean pi_bot / (pi_bot + (seats - 1) pi_opponent); a deal's later games repeat its first one's
    score with probability `same` (a deal's cards favour the same side), which leaves each
    game's mean as it is but makes the deal, not the game, the independent unit."""
    bots = list(elo)
    pairs = itertools.combinations(bots, 2) if seats == 2 else itertools.permutations(bots, 2)
    rows = []
    for bot, opponent in pairs:
        gap = (elo[bot] - elo[opponent]) / ELO - math.log(seats - 1)
        mean = 1.0 / (1.0 + math.exp(-gap))
        win = (mean - draws / seats) / (1.0 - draws)  # with draws, the mean stays `mean`
        assert 0.0 <= win <= 1.0
        for deal in range(deals):
            scores = []
            for game in range(seats):
                if game and rng.random() < same:
                    scores.append(scores[0])
                    continue
                shared = rng.random() < draws
                scores.append(1.0 / seats if shared else float(rng.random() < win))
            rows.append((deal, bot, opponent, seats, sum(scores), float(seats)))
    return pd.DataFrame(rows, columns=["deal", "bot", "opponent", "seats", "y", "n"])


TRUTH = {"random": 0.0, "greedy": 200.0, "mcts": 320.0}
FAR = {"random": 0.0, "greedy": 450.0, "mcts": 600.0}  # scores of 93% to 97% against random


def test_the_fit_gives_known_strengths_back() -> None:
    rng = np.random.default_rng(1)
    table = fit_ratings(simulated(TRUTH, 3000, rng), list(TRUTH)).table().set_index("bot")
    assert table.loc["random", "rating"] == 0.0  # the anchor: the first bot listed
    for bot, truth in TRUTH.items():
        assert table.loc[bot, "rating"] == pytest.approx(truth, abs=20.0)
        assert table.loc[bot, "ci_low"] <= truth <= table.loc[bot, "ci_high"]


def test_three_transitive_bots_come_out_in_order_strongest_first() -> None:
    rng = np.random.default_rng(2)
    table = fit_ratings(simulated(TRUTH, 150, rng), list(TRUTH)).table()
    assert list(table["bot"]) == ["mcts", "greedy", "random"]
    assert list(table["below"]) == ["greedy", "random", ""]


def test_the_lead_over_the_next_bot_is_measured_closer_than_the_ratings_far_from_the_anchor() -> (
    None
):
    """Far above the anchor, each rating is unsure (the anchor's few wins carry it); the gap
    between the two strong bots, which play close games, is not."""
    rng = np.random.default_rng(6)
    table = fit_ratings(simulated(FAR, 400, rng, draws=0.02), list(FAR)).table().set_index("bot")
    lead = table.loc["mcts"]
    assert lead["below"] == "greedy"
    assert lead["lead"] == pytest.approx(lead["rating"] - table.loc["greedy", "rating"])
    assert lead["lead_low"] <= FAR["mcts"] - FAR["greedy"] <= lead["lead_high"]
    assert lead["lead_high"] - lead["lead_low"] < lead["ci_high"] - lead["ci_low"]


def test_more_seats_one_bot_against_copies_of_another() -> None:
    rng = np.random.default_rng(3)
    ratings = fit_ratings(simulated(TRUTH, 2000, rng, seats=3), list(TRUTH))
    table = ratings.table().set_index("bot")
    for bot, truth in TRUTH.items():
        assert table.loc[bot, "rating"] == pytest.approx(truth, abs=25.0)
    # at equal strength a bot takes its fair share, 1/3, not one half
    assert ratings.expected_score("greedy", "greedy", 3) == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("seats", "truth", "deals", "draws"),
    [(2, TRUTH, 60, 0.1), (3, TRUTH, 60, 0.1), (2, FAR, 100, 0.02)],
)
def test_the_interval_covers_the_truth_at_about_its_nominal_rate(
    seats: int, truth: dict[str, float], deals: int, draws: float
) -> None:
    rng = np.random.default_rng(4 + seats)
    covered = {"greedy": 0, "mcts": 0}
    widths = []
    repeats = 200
    for _ in range(repeats):
        table = fit_ratings(simulated(truth, deals, rng, seats, draws), list(truth)).table()
        table = table.set_index("bot")
        for bot in covered:
            covered[bot] += table.loc[bot, "ci_low"] <= truth[bot] <= table.loc[bot, "ci_high"]
        widths.append(table.loc["greedy", "ci_high"] - table.loc["greedy", "ci_low"])
    for bot, count in covered.items():
        assert 0.90 <= count / repeats <= 0.99, (bot, count / repeats)
    assert 40.0 < np.mean(widths) < 400.0  # an interval that says something


def test_games_of_a_deal_are_not_counted_as_independent() -> None:
    """The same results with every deal's games repeating each other: twice the games per
    deal carry no more information, so the interval is no narrower than with one game a deal."""
    rng = np.random.default_rng(5)
    one = simulated(TRUTH, 400, rng, draws=0.0)
    one = one.assign(y=one["y"] / 2, n=1.0)  # each deal's first game only ...
    one = one[one["y"].isin([0.0, 1.0])]  # ... where both games agree
    doubled = pd.concat([one, one])  # ... and the same game twice: two rows of each deal
    narrow = fit_ratings(one, list(TRUTH)).table().set_index("bot")
    wide = fit_ratings(doubled, list(TRUTH)).table().set_index("bot")
    for bot in ("greedy", "mcts"):
        assert wide.loc[bot, "std_error"] == pytest.approx(narrow.loc[bot, "std_error"], rel=0.02)


def test_a_bot_that_won_every_game_gets_a_finite_rating_and_a_real_interval() -> None:
    results = pd.DataFrame(
        [(deal, "greedy", "random", 2, 2.0, 2.0) for deal in range(200)],
        columns=["deal", "bot", "opponent", "seats", "y", "n"],
    )
    row = fit_ratings(results, ["random", "greedy"]).table().set_index("bot").loc["greedy"]
    assert 600.0 < row["rating"] < 2000.0
    assert row["ci_low"] < row["rating"] < row["ci_high"]


def test_a_bot_no_game_links_to_the_others_is_refused() -> None:
    results = pd.DataFrame(
        [(0, "greedy", "random", 2, 1.0, 2.0)],
        columns=["deal", "bot", "opponent", "seats", "y", "n"],
    )
    with pytest.raises(ValueError, match="mcts"):
        fit_ratings(results, ["random", "greedy", "mcts"])
