"""Intervals over deals against hand-computed and textbook values.

Coverage on a game whose probabilities are known is tested in test_coverage.py."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t

from balance.stats.intervals import (
    Z95,
    CrossSums,
    DealSums,
    difference_interval,
    ratio_interval,
    units_estimate,
)


def agresti_coull(successes: int, n: int) -> tuple[float, float]:
    """Agresti and Coull (1998): z^2/2 successes and failures added, then the normal interval."""
    total = n + Z95**2
    p = (successes + Z95**2 / 2) / total
    half = Z95 * math.sqrt(p * (1 - p) / total)
    return p - half, p + half


def test_the_cluster_robust_variance_by_hand() -> None:
    # deals (y, n): (1, 2), (2, 2), (0, 1), (3, 4); r = 6/9; residuals y - r n: -1/3, 2/3,
    # -2/3, 1/3, squares summing to 10/9; effective deals 9^2 / (4 + 4 + 1 + 16) = 3.24
    sums = DealSums.of([1, 2, 0, 3], [2, 2, 1, 4])
    value, low, high, std_error = ratio_interval(sums, 0.0, math.inf)  # unbounded: no pseudo
    assert value == pytest.approx(2 / 3)
    assert std_error == pytest.approx(math.sqrt(3.24 / 2.24 * 10 / 9) / 9)
    t = student_t.ppf(0.975, 2.24)  # Student's t on the effective deals less one
    assert (low, high) == pytest.approx((2 / 3 - t * std_error, 2 / 3 + t * std_error))


def test_deals_of_one_game_give_agresti_coulls_interval() -> None:
    # Newcombe (1998), Table I, 81/263: Agresti-Coull 0.2552 to 0.3663
    games = np.r_[np.ones(81), np.zeros(182)]
    _, low, high, _ = ratio_interval(DealSums.of(games, np.ones(263)))
    assert (low, high) == pytest.approx(agresti_coull(81, 263), abs=5e-4)
    assert (low, high) == pytest.approx((0.2552, 0.3663), abs=5e-4)


def test_equal_deals_give_the_interval_of_the_deal_means() -> None:
    """Two games per deal: the ratio is the mean of the deal means, its standard error theirs."""
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 3, size=(400, 2)) / 2  # 0, 1/2 or 1 per game
    means = scores.mean(axis=1)
    value, low, high, std_error = ratio_interval(DealSums.of(scores.sum(axis=1), np.full(400, 2)))
    assert value == pytest.approx(means.mean())
    assert std_error == pytest.approx(means.std(ddof=1) / math.sqrt(400))
    half = Z95 * std_error
    assert (low, high) == pytest.approx((value - half, value + half), abs=0.002)


def test_at_the_edges_the_interval_neither_collapses_nor_leaves_the_range() -> None:
    all_won = DealSums.of(np.full(104, 2.0), np.full(104, 2.0))
    value, low, high, std_error = ratio_interval(all_won)
    assert value == 1.0 and high == 1.0 and std_error == 0.0
    assert 0.95 < low < 0.99  # the normal interval would say [1, 1]
    nearly_lost = DealSums.of([0.0] * 256 + [0.5], [1.0] * 257)
    _, low, high, _ = ratio_interval(nearly_lost)
    assert low == 0.0 and 0.0 < high < 0.03


def test_a_difference_of_rates_on_separate_deals_is_agresti_caffos() -> None:
    # Newcombe's example 56/70 - 48/80 (hybrid score: 0.0524 to 0.3339); Agresti and Caffo
    # (2000) add one success and one failure to each sample: 0.0525 to 0.3358
    first = np.r_[np.ones(56), np.zeros(14), np.zeros(80)]
    second = np.r_[np.zeros(70), np.ones(48), np.zeros(32)]
    a = DealSums.of(first, np.r_[np.ones(70), np.zeros(80)])
    b = DealSums.of(second, np.r_[np.zeros(70), np.ones(80)])
    value, low, high, _ = difference_interval(a, b, CrossSums(0, 0, 0, 0), 150)
    assert value == pytest.approx(0.2)
    assert (low, high) == pytest.approx((0.0525, 0.3358), abs=0.002)


def test_a_difference_within_deals_counts_their_covariance() -> None:
    """Rates that move together within deals: their difference varies less than apart."""
    rng = np.random.default_rng(5)
    luck = rng.random(300)
    y1, y2 = luck + rng.random(300) * 0.1, luck + rng.random(300) * 0.1
    n = np.ones(300)
    a, b = DealSums.of(y1, n), DealSums.of(y2, n)
    cross = CrossSums((y1 * y2).sum(), y1.sum(), y2.sum(), 300.0)
    _, _, _, together = difference_interval(a, b, cross, 300)
    _, _, _, apart = difference_interval(a, b, CrossSums(0, 0, 0, 0), 300)
    assert together == pytest.approx((y1 - y2).std(ddof=1) / math.sqrt(300))
    assert together < apart / 5


def test_arrays_give_one_interval_per_row_and_nothing_without_deals() -> None:
    sums = DealSums(
        np.array([3.0, 0.0]), np.array([4.0, 0.0]), np.array([9.0, 0.0]),
        np.array([12.0, 0.0]), np.array([16.0, 0.0]),
    )  # fmt: skip
    value, low, high, _ = ratio_interval(sums)
    assert value[0] == 0.75 and np.isnan(value[1]) and np.isnan(low[1]) and np.isnan(high[1])
    assert all(math.isnan(x) for x in units_estimate(pd.DataFrame({"y": [], "n": []})))
