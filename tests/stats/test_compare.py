"""The change between two runs: unpaired adds the two errors; on the same deals it is paired,
so the luck the deals share cancels out of its interval."""

from __future__ import annotations

from random import Random

import pandas as pd
import pytest

from balance.stats.compare import change_table, unpaired_change
from balance.stats.intervals import Z95


def test_unpaired_change_adds_the_errors_in_quadrature() -> None:
    change, low, high = unpaired_change(0.50, 0.03, 0.60, 0.04)
    assert change == pytest.approx(0.10)
    assert (high - low) / 2 == pytest.approx(Z95 * 0.05)


def deals(scores: list[tuple[int, float]]) -> pd.DataFrame:
    frame = pd.DataFrame([{"deck": "a", "seed": seed, "y": y, "n": 2.0} for seed, y in scores])
    return frame.set_index(["deck", "seed"])[["y", "n"]]


def test_the_same_deals_are_paired_and_the_shared_luck_cancels() -> None:
    rng = Random(3)
    luck = [rng.choice([0.0, 1.0, 2.0]) for _ in range(400)]  # what a deal's cards give
    before = deals([(s, y) for s, y in enumerate(luck)])
    after = deals([(s, min(2.0, y + (rng.random() < 0.1))) for s, y in enumerate(luck)])
    paired = change_table(before, after, ["deck"]).iloc[0]
    assert paired["paired"] and paired["deals"] == 400
    shifted = after.rename(index=lambda s: s + 10_000, level="seed")  # other deals: unpaired
    unpaired = change_table(before, shifted, ["deck"]).iloc[0]
    assert not unpaired["paired"] and unpaired["deals"] == 800
    assert paired["change"] == pytest.approx(unpaired["change"])
    assert 0 < paired["ci_low"] < paired["change"] < paired["ci_high"]
    assert unpaired["ci_low"] < 0  # unpaired, the deals' luck hides the change
    width = paired["ci_high"] - paired["ci_low"]
    assert width < (unpaired["ci_high"] - unpaired["ci_low"]) / 3


def test_a_key_only_one_run_has_is_left_out() -> None:
    a = deals([(0, 1.0), (1, 2.0)])
    b = a.rename(index={"a": "b"}, level="deck")
    assert change_table(a, b, ["deck"]).empty
