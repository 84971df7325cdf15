"""Intervals against published values, and their coverage on coins with known p."""

import numpy as np
import pytest

from balance.stats.intervals import (
    bounded_mean_interval,
    difference_interval,
    mean_interval,
    wilson,
)


@pytest.mark.parametrize(
    "successes, n, low, high",
    [  # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_the_textbook(successes: int, n: int, low: float, high: float) -> None:
    got = wilson(successes, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_difference_interval_matches_newcombe() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent
    # proportions", example (a): 56/70 - 48/80, method 10 (hybrid score): 0.0524 to 0.3339
    assert difference_interval(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_empty_samples_have_no_interval() -> None:
    assert np.isnan(wilson(0, 0)).all()
    assert np.isnan(difference_interval(1, 2, 0, 0)).all()


@pytest.mark.parametrize("p, n", [(0.5, 100), (0.3, 400), (0.1, 250)])
def test_wilson_covers_the_true_rate_95_percent_of_the_time(p: float, n: int) -> None:
    rng = np.random.default_rng(20261122)
    repeats = 4000
    hits = rng.binomial(n, p, size=repeats)
    covered = sum(low <= p <= high for low, high in (wilson(h, n) for h in hits))
    assert 0.93 <= covered / repeats <= 0.97


def test_mean_interval_is_the_normal_interval() -> None:
    values = np.array([0.1, -0.2, 0.3, 0.0, 0.05])
    low, high = mean_interval(values.sum(), (values**2).sum(), len(values))
    half = 1.959963984540054 * values.std(ddof=1) / np.sqrt(len(values))
    assert (low, high) == pytest.approx((values.mean() - half, values.mean() + half))


def test_a_bounded_mean_never_leaves_its_bounds_nor_collapses_at_them() -> None:
    all_won = np.ones(208)
    low, high = bounded_mean_interval(all_won.sum(), (all_won**2).sum(), len(all_won))
    assert high == 1.0
    # close to Wilson's interval for 208 wins out of 208, not the normal interval's [1, 1]
    assert low == pytest.approx(wilson(208, 208)[0], abs=0.01)
    assert low < 0.99
    nearly_lost = np.array([0.0] * 256 + [0.5])
    low, high = bounded_mean_interval(nearly_lost.sum(), (nearly_lost**2).sum(), 257)
    assert low == 0.0 and 0.0 < high < 0.03


def test_a_bounded_mean_in_the_middle_is_close_to_the_normal_interval() -> None:
    values = np.random.default_rng(3).uniform(0.3, 0.7, 400)
    plain = mean_interval(values.sum(), (values**2).sum(), len(values))
    bounded = bounded_mean_interval(values.sum(), (values**2).sum(), len(values))
    assert bounded == pytest.approx(plain, abs=0.01)
