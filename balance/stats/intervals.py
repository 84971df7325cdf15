"""Confidence intervals with the deal as the unit: the one implementation every table calls.

A deal is one seed with one lineup, played in every seat rotation. Its games share the seed's
cards, so they are not independent samples; deals are. Every rate `balance` reports is a ratio of
totals over deals, r = sum(y_d) / sum(n_d): a mean score over seat-games, a share of games, a
card's win rate in the games it was drawn, a mean game length. Its variance is the
cluster-robust (linearised) one, with the usual small-sample factor G / (G - 1):

    V(r) = G / (G - 1) * sum_d (y_d - r n_d)^2 / (sum_d n_d)^2

It needs only five sums over deals, y = sum(y_d), n = sum(n_d), yy = sum(y_d^2), ny =
sum(n_d y_d), nn = sum(n_d^2), so summed tallies (cards.parquet) carry it as well as tables do.
G is the effective number of deals, n^2 / nn: the deals in which the quantity occurs, each
weighted by its size (the number of deals when every deal holds as many games).

At the edges the linearised variance collapses (a card that won all 12 games it was drawn in:
V = 0), as the normal interval of a proportion does. As Agresti and Coull do for a proportion,
z^2/2 pseudo-deals of the mean size nn / n are added at each bound of the value's range before
the interval is computed; in the middle of the range they change almost nothing, and with deals
of one game each this is the Agresti-Coull interval. A value with no bounded range (a game's
length) has no edge to pad: its interval takes Student's t on G - 1 degrees of freedom. A difference of two ratios over the same
deals (IWD: GIH WR - GND WR) adds the cross-products' covariance, and z^2/4 pseudo-deals at each
bound of each ratio, as Agresti and Caffo do for a difference of proportions.

Functions take numpy arrays or floats (a table of cards is computed at once); NaN where there is
no deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

Z95 = 1.959963984540054  # the two-sided 95% normal quantile

Array = Any  # a float or a numpy array of them


@dataclass(frozen=True)
class DealSums:
    """Sums over deals of a ratio's per-deal totals: numerator y, denominator n."""

    y: Array
    n: Array
    yy: Array
    ny: Array
    nn: Array

    @staticmethod
    def of(y: Any, n: Any) -> DealSums:
        """The sums of per-deal totals given as arrays (one entry per deal)."""
        y, n = np.asarray(y, dtype=float), np.asarray(n, dtype=float)
        return DealSums(y.sum(), n.sum(), (y * y).sum(), (n * y).sum(), (n * n).sum())

    def ratio(self) -> Array:
        return _divide(self.y, self.n)

    def deals(self) -> Array:
        """The effective number of deals, n^2 / nn."""
        return _divide(np.asarray(self.n, dtype=float) ** 2, self.nn)

    def residual(self, r: Array) -> Array:
        """sum_d (y_d - r n_d)^2, never below 0 (rounding)."""
        return np.maximum(0.0, self.yy - 2 * r * self.ny + r * r * self.nn)

    def padded(self, pseudo: float, low: float, high: float) -> DealSums:
        """With `pseudo` deals of the mean size at each bound."""
        size = _divide(self.nn, self.n)
        return DealSums(
            self.y + pseudo * size * (low + high),
            self.n + 2 * pseudo * size,
            self.yy + pseudo * size * size * (low * low + high * high),
            self.ny + pseudo * size * size * (low + high),
            self.nn + 2 * pseudo * size * size,
        )


@dataclass(frozen=True)
class CrossSums:
    """Sums over deals of the products of two ratios' totals (a: y1/n1, b: y2/n2)."""

    y1y2: Array
    y1n2: Array
    n1y2: Array
    n1n2: Array

    def covariance(self, r1: Array, r2: Array) -> Array:
        """sum_d (y1_d - r1 n1_d) (y2_d - r2 n2_d)."""
        return self.y1y2 - r2 * self.y1n2 - r1 * self.n1y2 + r1 * r2 * self.n1n2


def ratio_interval(
    sums: DealSums, low: float = 0.0, high: float = 1.0, z: float = Z95
) -> tuple[Array, Array, Array, Array]:
    """(estimate, 95% low, 95% high, standard error) of sum(y_d) / sum(n_d) over deals whose
    per-deal ratio lies in [low, high]. An unbounded range (a game length) gets no pseudo-deals
    but Student's t on the effective deals.
    The standard error is the plain cluster-robust one (for tests that need it, e.g. an SPRT);
    the interval is the padded one."""
    value = sums.ratio()
    std_error = _std_error(sums, value)
    if np.isfinite(low) and np.isfinite(high):
        padded = sums.padded(z * z / 2, low, high)
        centre = padded.ratio()
        half = z * _std_error(padded, centre)
    else:  # no edge to pad: Student's t on the deals, as for any small-sample mean
        deals = np.asarray(sums.deals(), dtype=float)
        quantile = student_t.ppf(student_t.cdf(z, np.inf), np.where(deals > 1, deals - 1, np.nan))
        centre, half = value, quantile * std_error
    return value, np.maximum(low, centre - half), np.minimum(high, centre + half), std_error


def difference_interval(
    a: DealSums,
    b: DealSums,
    cross: CrossSums,
    deals: Array,
    low: float = 0.0,
    high: float = 1.0,
    z: float = Z95,
) -> tuple[Array, Array, Array, Array]:
    """(estimate, 95% low, 95% high, standard error) of a's ratio - b's ratio, both over the
    same `deals` (the effective number of deals the two share), each ratio in [low, high]."""
    value = a.ratio() - b.ratio()
    std_error = _difference_error(a, b, cross, deals)
    pseudo = z * z / 4
    padded_a, padded_b = a.padded(pseudo, low, high), b.padded(pseudo, low, high)
    centre = padded_a.ratio() - padded_b.ratio()
    half = z * _difference_error(padded_a, padded_b, cross, np.asarray(deals) + 2 * pseudo)
    span = high - low
    return value, np.maximum(-span, centre - half), np.minimum(span, centre + half), std_error


def _std_error(sums: DealSums, r: Array) -> Array:
    deals = sums.deals()
    return _divide(np.sqrt(_divide(deals, deals - 1) * sums.residual(r)), sums.n)


def _difference_error(a: DealSums, b: DealSums, cross: CrossSums, deals: Array) -> Array:
    r1, r2 = a.ratio(), b.ratio()
    variance = (
        _divide(a.residual(r1), a.n * a.n)
        + _divide(b.residual(r2), b.n * b.n)
        - 2 * _divide(cross.covariance(r1, r2), a.n * b.n)
    )
    deals = np.asarray(deals, dtype=float)
    return np.sqrt(np.maximum(0.0, _divide(deals, deals - 1) * variance))


def _divide(top: Array, bottom: Array) -> Array:
    top = np.asarray(top, dtype=float)
    bottom = np.asarray(bottom, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.nan)
    return out if out.ndim else float(out)


# -- tables ------------------------------------------------------------------------------------


def rate_table(
    rows: pd.DataFrame,
    keys: Sequence[str],
    value: str,
    low: float = 0.0,
    high: float = 1.0,
    deal: str = "seed",
) -> pd.DataFrame:
    """Per key, the ratio sum(value) / count over `rows` (seat-games, games) with its interval
    over deals: columns *keys, games, deals, total (the sum of `value`), estimate, ci_low,
    ci_high, std_error."""
    keys = list(keys)
    per_deal = rows.groupby([*keys, deal], sort=True, observed=True)[value].agg(["sum", "count"])
    per_deal = per_deal.rename(columns={"sum": "y", "count": "n"})
    return totals_table(per_deal, keys, low, high)


def totals_table(
    per_deal: pd.DataFrame, keys: Sequence[str], low: float = 0.0, high: float = 1.0
) -> pd.DataFrame:
    """Per key, from per-deal totals `y` and `n` (indexed by the keys and the deal): as
    rate_table."""
    keys = list(keys)
    columns = [*keys, "games", "deals", "total", "estimate", "ci_low", "ci_high", "std_error"]
    if not len(per_deal):
        return pd.DataFrame(columns=columns)
    frame = per_deal[["y", "n"]].astype(float)
    frame = frame.assign(yy=frame["y"] ** 2, ny=frame["n"] * frame["y"], nn=frame["n"] ** 2)
    grouped = frame.groupby(level=keys, sort=True, observed=True)
    sums = grouped.sum()
    sums["deals"] = grouped.size()
    estimate, ci_low, ci_high, std_error = ratio_interval(
        DealSums(*(sums[c].to_numpy() for c in ("y", "n", "yy", "ny", "nn"))), low, high
    )
    table = sums.reset_index()[keys]
    table["games"] = sums["n"].to_numpy().astype(int)
    table["deals"] = sums["deals"].to_numpy()
    table["total"] = sums["y"].to_numpy()
    table["estimate"], table["ci_low"], table["ci_high"] = estimate, ci_low, ci_high
    table["std_error"] = std_error
    return table[columns]


def units_estimate(
    units: pd.DataFrame, low: float = 0.0, high: float = 1.0
) -> tuple[float, float, float, float]:
    """(estimate, low, high, standard error) of one unit's per-deal totals (columns y, n)."""
    if not len(units):
        return np.nan, np.nan, np.nan, np.nan
    value, ci_low, ci_high, std_error = ratio_interval(
        DealSums.of(units["y"], units["n"]), low, high
    )
    return float(value), float(ci_low), float(ci_high), float(std_error)
