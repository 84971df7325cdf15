"""Bot ratings from head-to-head results: Bradley-Terry by maximum likelihood, with a 95% interval
clustered by deal.

The data: per deal and per pairing, the score `y` a bot took over its `n` games, each game played
by that bot alone in one seat against copies of its opponent in the other `seats - 1` (a score:
1 win, 1/k for a k-way shared win or a draw, 0 loss).

The model, with strengths pi = exp(theta): in a game of one bot against k - 1 copies of another,
the bot's expected score is

    pi_bot / (pi_bot + (k - 1) pi_opponent)

(Luce's choice rule: the winner is drawn in proportion to strength). With two seats this is
Bradley-Terry; at equal strength it is the fair share 1/k, so in a game of more seats a "win"
is a mean score above 1/k, not above one half. The fit is a logistic regression on fractional
scores (a draw counts half, a k-way share 1/k) with the offset -log(k - 1): the maximum
quasi-likelihood estimate, found by Newton's method.

Ratings are on the Elo scale, 400 log10(pi): a bot 400 points above another is expected to score
10 : 1 against it in two seats. The anchor bot (the first listed: the weakest, random by default
in the ladder) is 0; an interval is that of the difference from the anchor.

As the padding of balance.stats.intervals does at a rate's edges, every pairing gets one
pseudo-game at the fair share (BayesElo's virtual draw): a bot that won every game gets a finite
rating and a non-zero interval; with hundreds of games it moves a pairing's score by < 1/n.

The interval: rating +- z standard errors on this (log-odds) scale, from the cluster-robust
(sandwich) variance clustered by deal, with the small-sample factor G / (G - 1) of the deal
intervals. A deal's games share its cards (and the ladder plays every pairing on the same
seeds), so the deal, not the game, is the independent unit. Its coverage, measured on simulated
results with known strengths: about 95% for scores between pairs up to ~90% (30+ deals a pair);
for scores of 93-97% it needs about 100 deals a pair (92-96%; with 30 deals, 83-93%). A profile
likelihood interval scaled by the design effect was tried: it was no better there, at 20x the
cost.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit, log_expit

from balance.stats.intervals import Z95

ELO = 400.0 / math.log(10.0)  # Elo points per unit of natural-log strength
# Pseudo-games per pairing at the fair share: one, as BayesElo's virtual draw. Measured on
# simulated results (tests/stats/test_ratings.py's generator, 30 deals a pair, true scores of
# 93-97%): z^2 of them (Agresti-Coull's count) pulled the estimates in so far that the truth fell
# above the interval 17-20% of the time; with one, misses are 4-10% and on both sides.
PSEUDO = 1.0


@dataclass(frozen=True)
class Ratings:
    bots: tuple[str, ...]
    anchor: str
    theta: np.ndarray  # natural-log strengths, the anchor's 0
    covariance: np.ndarray  # of theta (the anchor's row and column 0)
    deals: int  # the clusters: distinct deals in the data
    z: float = Z95

    def table(self) -> pd.DataFrame:
        """bot, rating, ci_low, ci_high, std_error (Elo points; the anchor 0), strongest first;
        and the lead over the next bot down: below (its name), lead, lead_low, lead_high. An
        anchor far below the others (random) makes every rating's interval wide; the lead of
        one bot over the next is measured much more closely."""
        error = np.sqrt(np.maximum(0.0, np.diag(self.covariance)))
        frame = pd.DataFrame(
            {
                "bot": list(self.bots),
                "rating": ELO * self.theta,
                "ci_low": ELO * (self.theta - self.z * error),
                "ci_high": ELO * (self.theta + self.z * error),
                "std_error": ELO * error,
            }
        )
        order = np.argsort(-self.theta, kind="stable")
        frame = frame.iloc[order].reset_index(drop=True)
        below = list(order[1:])
        leads = [self.difference(i, j) for i, j in zip(order[:-1], below, strict=True)]
        frame["below"] = [self.bots[j] for j in below] + [""]
        for k, column in enumerate(("lead", "lead_low", "lead_high")):
            frame[column] = [lead[k] for lead in leads] + [math.nan]
        return frame

    def difference(self, i: int, j: int) -> tuple[float, float, float]:
        """Bot i's rating less bot j's, with its 95% interval (Elo points)."""
        gap = self.theta[i] - self.theta[j]
        c = self.covariance
        error = math.sqrt(max(0.0, c[i, i] + c[j, j] - 2 * c[i, j]))
        return ELO * gap, ELO * (gap - self.z * error), ELO * (gap + self.z * error)

    def expected_score(self, bot: str, opponent: str, seats: int) -> float:
        """The score per game the ratings predict for `bot` alone against copies of `opponent`."""
        i, j = self.bots.index(bot), self.bots.index(opponent)
        return float(expit(self.theta[i] - self.theta[j] - math.log(seats - 1)))


def fit_ratings(
    results: pd.DataFrame, bots: Sequence[str], anchor: str | None = None, z: float = Z95
) -> Ratings:
    """Ratings of `bots` from `results` (columns deal, bot, opponent, seats, y, n: one row per
    deal and pairing). Raises ValueError when some bot is not linked to the anchor by games."""
    bots = tuple(bots)
    anchor = bots[0] if anchor is None else anchor
    index = {bot: i for i, bot in enumerate(bots)}
    if len(bots) < 2:
        return Ratings(bots, anchor, np.zeros(len(bots)), np.zeros((len(bots),) * 2), 0, z)
    _check_linked(results, bots, anchor)
    first = results["bot"].map(index).to_numpy()
    second = results["opponent"].map(index).to_numpy()
    offset = -np.log(results["seats"].to_numpy(dtype=float) - 1.0)
    y = results["y"].to_numpy(dtype=float)
    n = results["n"].to_numpy(dtype=float)
    # the pseudo-games: PSEUDO per pairing (and seat count) at the fair share 1/k
    pairings = results.assign(low=np.minimum(first, second), high=np.maximum(first, second))
    pairings = pairings.drop_duplicates(["low", "high", "seats"])
    pseudo_first, pseudo_second = pairings["low"].to_numpy(), pairings["high"].to_numpy()
    pseudo_seats = pairings["seats"].to_numpy(dtype=float)
    all_first = np.concatenate([first, pseudo_first])
    all_second = np.concatenate([second, pseudo_second])
    all_offset = np.concatenate([offset, -np.log(pseudo_seats - 1.0)])
    all_n = np.concatenate([n, np.full(len(pairings), PSEUDO)])
    all_y = np.concatenate([y, PSEUDO / pseudo_seats])

    free = [i for i, bot in enumerate(bots) if bot != anchor]
    design = np.zeros((len(all_n), len(bots)))
    np.add.at(design, (np.arange(len(all_n)), all_first), 1.0)
    np.add.at(design, (np.arange(len(all_n)), all_second), -1.0)
    design = design[:, free]
    beta = _newton(design, all_offset, all_y, all_n)

    # the sandwich: bread from every game (pseudo ones too), meat from the deals' real scores
    p = expit(design @ beta + all_offset)
    bread = np.linalg.inv(design.T @ (design * (all_n * p * (1 - p))[:, None]))
    real = len(y)
    contributions = design[:real] * (y - n * p[:real])[:, None]
    deal_ids = pd.factorize(results["deal"])[0]
    per_deal = np.zeros((int(deal_ids.max()) + 1, len(free)))
    np.add.at(per_deal, deal_ids, contributions)
    deals = len(per_deal)
    small_sample = deals / (deals - 1) if deals > 1 else math.nan
    covariance_free = small_sample * bread @ (per_deal.T @ per_deal) @ bread

    theta = np.zeros(len(bots))
    theta[free] = beta
    covariance = np.zeros((len(bots), len(bots)))
    covariance[np.ix_(free, free)] = covariance_free
    return Ratings(bots, anchor, theta, covariance, deals, z)


def _newton(
    design: np.ndarray, offset: np.ndarray, y: np.ndarray, n: np.ndarray, steps: int = 100
) -> np.ndarray:
    """The maximum of sum y log p + (n - y) log(1 - p), p = expit(design @ beta + offset):
    concave, so Newton's steps (halved while they do not climb) reach it."""

    def loglik(beta: np.ndarray) -> float:
        x = design @ beta + offset
        return float(np.sum(y * log_expit(x) + (n - y) * log_expit(-x)))

    beta = np.zeros(design.shape[1])
    current = loglik(beta)
    for _ in range(steps):
        p = expit(design @ beta + offset)
        gradient = design.T @ (y - n * p)
        hessian = design.T @ (design * (n * p * (1 - p))[:, None])
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while loglik(beta + size * step) < current - 1e-12 and size > 1e-6:
            size /= 2
        beta = beta + size * step
        current = loglik(beta)
        if np.max(np.abs(size * step)) < 1e-10:
            break
    return beta


def _check_linked(results: pd.DataFrame, bots: Sequence[str], anchor: str) -> None:
    """Every bot must reach the anchor through pairings played, or its rating is undefined."""
    linked, frontier = {anchor}, [anchor]
    edges = set(zip(results["bot"], results["opponent"], strict=True))
    while frontier:
        bot = frontier.pop()
        for a, b in edges:
            for near, far in ((a, b), (b, a)):
                if near == bot and far not in linked:
                    linked.add(far)
                    frontier.append(far)
    missing = [bot for bot in bots if bot not in linked]
    if missing:
        raise ValueError(f"no games link {', '.join(missing)} to {anchor}")
