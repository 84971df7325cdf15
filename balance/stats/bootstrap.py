"""The paired bootstrap over deals: resample the deals (the unit), the same way for every config
or measure compared, and recompute. Poisson(1) weights per deal, as an online bootstrap draws
them: each deal counts 0, 1, 2... times in a resample, independently."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

BOOTSTRAP = 400  # resamples


def bootstrap_weights(seeds: Sequence[int], seed: int, repeats: int = BOOTSTRAP) -> pd.DataFrame:
    """Poisson(1) bootstrap weights per deal, the same for every config (paired resampling)."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        rng.poisson(1.0, size=(len(seeds), repeats)), index=pd.Index(seeds, name="seed")
    )


def resampled_ratios(units: pd.DataFrame, weights: pd.DataFrame) -> np.ndarray:
    """A unit's sum(y) / sum(n) over deals in each resample (its columns)."""
    w = weights.reindex(units.index).fillna(0).to_numpy()
    total = units["n"].to_numpy() @ w
    ratios: np.ndarray = (units["y"].to_numpy() @ w) / np.where(total > 0, total, np.nan)
    return ratios
