"""The metagame of a two-player deck game, read from its matchup matrix.

Choosing a deck against an opponent who also chooses is a symmetric zero-sum game: deck i
against deck j scores the matchup win rate A[i, j], with A[j, i] = 1 - A[i, j] and 1/2 on the
diagonal. Its Nash equilibrium is the mix of decks that no opponent's choice beats: the
probabilities x maximising min_j sum_i x_i A[i, j], a linear programme (scipy's linprog). The
game's value is 1/2; a deck with weight 0 is one a player who knows the matrix never needs.

How sure is the mix? The matrix is measured, so the deals are resampled (the paired bootstrap
of balance.stats.bootstrap) and the mix solved again in every resample: each deck's weight gets
a percentile interval and the share of resamples in which it is played at all. A deck is
dominated when another does at least as well against every deck (itself included) and better
against one; a cycle is three decks each beating the next (rock, paper, scissors), which no
ranking of the decks can express. Both are named with the share of resamples that keep them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from balance.stats.bootstrap import BOOTSTRAP, bootstrap_weights, resampled_ratios
from balance.stats.units import deal_units

TOLERANCE = 1e-9


def nash_mix(matrix: np.ndarray) -> np.ndarray:
    """The row player's equilibrium mix of the zero-sum game whose payoff to the row player is
    `matrix` (rows: its choices, columns: the opponent's)."""
    k = matrix.shape[0]
    # variables: x_1..x_k, v; maximise v subject to sum_i x_i A[i, j] >= v for every j
    cost = np.zeros(k + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((matrix.shape[1], 1))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * k + [(None, None)]
    solved = linprog(
        cost, A_ub=upper, b_ub=np.zeros(matrix.shape[1]), A_eq=equal, b_eq=[1.0], bounds=bounds,
        method="highs",
    )  # fmt: skip
    if not solved.success:  # a matrix of finite numbers always has an equilibrium
        raise ValueError(f"linprog found no equilibrium: {solved.message}")
    mix = np.clip(solved.x[:k], 0.0, None)
    return np.asarray(mix / mix.sum())


def dominated(matrix: np.ndarray) -> list[tuple[int, int]]:
    """(i, k): deck k does at least as well as deck i against every deck and better against one."""
    out = []
    for i, k in permutations(range(matrix.shape[0]), 2):
        gap = matrix[k] - matrix[i]
        if (gap >= -TOLERANCE).all() and (gap > TOLERANCE).any():
            out.append((i, k))
    return out


def cycles(matrix: np.ndarray) -> list[tuple[int, int, int]]:
    """Every (a, b, c), a first of the three in order, with a beating b, b beating c, c beating a."""
    k = matrix.shape[0]
    found = []
    for a in range(k):
        for b in range(a + 1, k):
            for c in range(a + 1, k):
                if b != c and matrix[a, b] > 0.5 and matrix[b, c] > 0.5 and matrix[c, a] > 0.5:
                    found.append((a, b, c))
    return found


@dataclass
class Metagame:
    decks: list[str]
    matrix: np.ndarray  # A[i, j]: deck i's win rate against deck j
    mix: pd.DataFrame  # deck, weight, ci_low, ci_high, played (share of resamples it is in)
    dominated: list[dict[str, Any]] = field(default_factory=list)
    cycles: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""  # why there is no metagame, if there is none

    def summary(self) -> dict[str, Any]:
        """summary.json's `metagame`."""
        if self.note:
            return {"note": self.note}
        return {
            "decks": self.decks,
            "matrix": [[_plain(v) for v in row] for row in self.matrix],
            "mix": [
                {k: _plain(v) for k, v in row.items()} for row in self.mix.to_dict(orient="records")
            ],
            "dominated": self.dominated,
            "cycles": self.cycles,
        }


def metagame(games: pd.DataFrame, seed: int = 0, repeats: int = BOOTSTRAP) -> Metagame:
    """The metagame of a run's games: every pairing of its decks must have been played."""
    empty = Metagame([], np.zeros((0, 0)), pd.DataFrame())
    if not len(games) or int(games["seats"].max()) != 2:
        empty.note = "the metagame is a two-player game of deck choice: no two-player matchups"
        return empty
    units = {
        tuple(name.removeprefix("matchup ").split(" vs ")): values
        for name, values in deal_units(games, 2).items()
        if name.startswith("matchup ")
    }
    decks = sorted({deck for pair in units for deck in pair})
    if len(decks) < 2:
        empty.note = "fewer than two decks met"
        return empty
    missing = [
        f"{a} vs {b}" for i, a in enumerate(decks) for b in decks[i + 1 :] if (a, b) not in units
    ]
    if missing:
        empty.note = (
            f"not every pairing was played ({len(missing)} missing, e.g. {missing[0]}): the "
            "metagame needs the whole matrix (--decks all)"
        )
        return empty
    matrix = _matrix(decks, {pair: v["y"].sum() / v["n"].sum() for pair, v in units.items()})
    mix = nash_mix(matrix)
    seeds = sorted(set().union(*(v.index for v in units.values())))
    weights = bootstrap_weights(seeds, seed, repeats)
    rates = {pair: resampled_ratios(v, weights) for pair, v in units.items()}
    mixes, dominations, cycling = [], [], []
    for r in range(repeats):
        sample = _matrix(decks, {pair: float(values[r]) for pair, values in rates.items()})
        if np.isnan(sample).any():  # a matchup with no deal in this resample
            continue
        mixes.append(nash_mix(sample))
        dominations.append(set(dominated(sample)))
        cycling.append(set(cycles(sample)))
    resampled = np.array(mixes) if mixes else np.full((1, len(decks)), np.nan)
    low, high = np.nanpercentile(resampled, [2.5, 97.5], axis=0)
    table = pd.DataFrame(
        {
            "deck": decks,
            "weight": mix,
            "ci_low": low,
            "ci_high": high,
            "played": (resampled > 1e-6).mean(axis=0),
        }
    )
    kept = max(1, len(mixes))
    return Metagame(
        decks,
        matrix,
        table,
        [
            {
                "deck": decks[i],
                "by": decks[k],
                "sureness": sum((i, k) in d for d in dominations) / kept,
            }
            for i, k in dominated(matrix)
        ],
        [
            {
                "cycle": [decks[a], decks[b], decks[c]],
                "weakest": _plain(min(matrix[a, b], matrix[b, c], matrix[c, a])),
                "sureness": sum((a, b, c) in s for s in cycling) / kept,
            }
            for a, b, c in cycles(matrix)
        ],
    )


def _matrix(decks: list[str], rates: dict[Any, float]) -> np.ndarray:
    index = {deck: i for i, deck in enumerate(decks)}
    matrix = np.full((len(decks), len(decks)), 0.5)
    for (a, b), rate in rates.items():
        matrix[index[a], index[b]] = rate
        matrix[index[b], index[a]] = 1.0 - rate
    return matrix


def _plain(value: Any) -> Any:
    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and math.isnan(value) else value
