"""Confidence intervals for rates: pure functions over counts.

A win rate here is a mean score (1 win, 1/k shared, 0 loss), so "successes" may be fractional;
the Wilson score interval is used on the mean, as fishtest and 17lands-style tools do for
win rates. Difference of two rates (IWD): Newcombe's hybrid score interval built from the two
Wilson intervals (Newcombe 1998, method 10), which keeps its coverage for small samples.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for `successes` out of `n`; (nan, nan) when n == 0."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, n: float) -> float:
    return successes / n if n > 0 else math.nan


def difference_interval(
    s1: float, n1: float, s2: float, n2: float, z: float = Z95
) -> tuple[float, float]:
    """Newcombe's interval for rate1 - rate2 from two independent samples."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, math.nan
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt(
        (u1 - p1) ** 2 + (p2 - l2) ** 2
    )


def mean_interval(total: float, total_sq: float, n: float, z: float = Z95) -> tuple[float, float]:
    """A normal-approximation interval for a mean, from its sum and sum of squares."""
    if n < 2:
        return math.nan, math.nan
    mean = total / n
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    return mean - half, mean + half


def bounded_mean_interval(
    total: float, total_sq: float, n: int, low: float = 0.0, high: float = 1.0, z: float = Z95
) -> tuple[float, float]:
    """An interval for the mean of values known to lie in [low, high] (a win rate per deal).

    The normal interval alone says [1, 1] after 200 deals all won, which no designer should
    believe. As Agresti and Coull do for a proportion, z²/2 pseudo-values are added at each
    bound, which keeps the interval honest at the edges; it is then clipped to the bounds.
    """
    if n < 1:
        return math.nan, math.nan
    if not (math.isfinite(low) and math.isfinite(high)):  # unbounded (a game length): no pseudo
        lo, hi = mean_interval(total, total_sq, n, z)
        return max(low, lo), min(high, hi)
    pseudo = z * z / 2
    total += pseudo * (low + high)
    total_sq += pseudo * (low * low + high * high)
    lo, hi = mean_interval(total, total_sq, n + 2 * pseudo, z)
    return max(low, lo), min(high, hi)
