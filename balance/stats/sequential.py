"""Sequential probability ratio tests for "is this rate inside its band?", as fishtest uses them.

An assertion says a rate lies in a band [low, high] (either end may be open). Each open side is
tested by its own SPRT: H0 puts the rate on the band's edge (the worst case still inside), H1
outside it by `margin`. The assertion passes once every side accepts H0, fails as soon as one
side accepts H1, and is undecided in between. Wald's bounds give error rates of about alpha
(failing a rate that is inside) and beta (passing one that is outside by the margin or more).

Two likelihoods:
- `bernoulli_llr` for counts of independent events (capped games);
- `normal_llr` for means of units, with their sample variance: fishtest's generalised SPRT,
  for scores that may be fractional (draws) and units that are game pairs on one seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["pass", "fail"] | None

MIN_UNITS = 20  # no normal SPRT decides on fewer units: their variance is not yet known
VARIANCE_FLOOR = 1e-4
# The gate fails an assertion still undecided at its cap whose estimate is outside the band, so a
# truth on the edge fails about half the time it reaches the cap. Simulated (Wald's bounds at
# alpha = beta = 0.05, 10-100 looks, 30,000 runs each): with the margin 4 standard errors of the
# estimate at the cap that rule fails 7% of edge truths, with 5 standard errors 3-4% (as the
# uncapped test). The games that would give the margin this many standard errors is what the
# gate asks for when its cap leaves an assertion undecided.
DECISIVE_MARGIN = 5.0


@dataclass(frozen=True)
class Band:
    low: float | None
    high: float | None
    margin: float

    def contains(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def sides(self) -> list[tuple[float, float]]:
        """(H0 value, H1 value) per open side of the band."""
        out = []
        if self.high is not None:
            out.append((self.high, self.high + self.margin))
        if self.low is not None:
            out.append((self.low, self.low - self.margin))
        return out


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(accept H0 at or below, accept H1 at or above) for the log-likelihood ratio."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def normal_llr(mean: float, variance: float, n: int, mu0: float, mu1: float) -> float:
    """log L(mu1) / L(mu0) for n units with this mean and variance (normal approximation)."""
    variance = max(variance, VARIANCE_FLOOR)
    return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * variance)


def bernoulli_llr(events: float, n: float, p0: float, p1: float) -> float:
    """log L(p1) / L(p0) for `events` out of n independent trials."""
    p0 = min(max(p0, 1e-12), 1 - 1e-12)
    p1 = min(max(p1, 1e-12), 1 - 1e-12)
    return events * math.log(p1 / p0) + (n - events) * math.log((1 - p1) / (1 - p0))


def band_verdict_normal(
    mean: float,
    variance: float,
    n: int,
    band: Band,
    alpha: float,
    beta: float,
    min_units: int = MIN_UNITS,
) -> Verdict:
    if n < min_units:
        return None
    return _combine([normal_llr(mean, variance, n, h0, h1) for h0, h1 in band.sides()], alpha, beta)


def band_verdict_bernoulli(
    events: float, n: float, band: Band, alpha: float, beta: float
) -> Verdict:
    if n <= 0:
        return None
    sides = [(h0, h1) for h0, h1 in band.sides() if 0 < h1 < 1 or h1 in (0.0, 1.0)]
    return _combine([bernoulli_llr(events, n, h0, h1) for h0, h1 in sides], alpha, beta)


def _combine(llrs: list[float], alpha: float, beta: float) -> Verdict:
    accept_h0, accept_h1 = wald_bounds(alpha, beta)
    if any(llr >= accept_h1 for llr in llrs):
        return "fail"
    if all(llr <= accept_h0 for llr in llrs):
        return "pass"
    return None


def interval_verdict(low: float, high: float, band: Band) -> Literal["pass", "fail", "undecided"]:
    """A fixed sample's 95% interval against the band: wholly inside passes, wholly outside
    fails (the rate is shown to be outside), straddling an edge is undecided."""
    if (band.high is not None and low > band.high) or (band.low is not None and high < band.low):
        return "fail"
    if (band.high is None or high <= band.high) and (band.low is None or low >= band.low):
        return "pass"
    return "undecided"


def games_to_decide(games: int, std_error: float, margin: float) -> int:
    """About the games at which the margin is DECISIVE_MARGIN standard errors, the estimate's
    standard error shrinking as one over the root of the games; 0 when it cannot be told."""
    if margin <= 0 or not std_error > 0 or games <= 0:
        return 0
    return math.ceil(games * (DECISIVE_MARGIN * std_error / margin) ** 2)


def fixed_sample_verdict(low: float, high: float, band: Band) -> Literal["pass", "fail"]:
    """The fallback when the games run out: fail only if the 95% interval lies wholly outside
    the band (interval_verdict's fail), else pass."""
    return "fail" if interval_verdict(low, high, band) == "fail" else "pass"
