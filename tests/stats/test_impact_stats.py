"""The paired impact of a card and the metagame, on tables whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.stats.impact import band_verdict, paired_impact, side_units
from balance.stats.metagame import cycles, dominated, metagame, nash_mix


def _games(rows: list[tuple[int, int, str, str, float]]) -> pd.DataFrame:
    """(seed, rotation, deck_0, deck_1, score_0) per game, two seats."""
    return pd.DataFrame(
        {
            "game": range(len(rows)),
            "seed": [r[0] for r in rows],
            "rotation": [r[1] for r in rows],
            "seats": 2,
            "deck_0": [r[2] for r in rows],
            "deck_1": [r[3] for r in rows],
            "score_0": [r[4] for r in rows],
            "score_1": [1.0 - r[4] for r in rows],
            "error": "",
            "turns": 10,
            "capped": False,
            "winner": -1,
            "bot_0": "random",
            "bot_1": "random",
        }
    )


def test_the_side_is_the_holders_or_the_first_position_in_a_mirror() -> None:
    games = _games(
        [(1, 0, "a", "b", 1.0), (1, 1, "b", "a", 1.0), (2, 0, "a", "a", 1.0), (2, 1, "a", "a", 1.0)]
    )
    units = side_units(games, {"a"})
    assert units.loc[1].tolist() == [1.0, 2.0]  # a won one of its two seat-games
    # the mirror: the first position sits in seat 0 at rotation 0, seat 1 at rotation 1
    assert units.loc[2].tolist() == [1.0, 2.0]


def test_paired_impact_is_narrow_where_the_change_moves_few_deals() -> None:
    rng = np.random.default_rng(3)
    deals = 400
    base = rng.integers(0, 3, deals).astype(float)  # the side's wins of its 2 seat-games
    changed = base.copy()
    moved = rng.choice(deals, 40, replace=False)
    changed[moved] = np.maximum(0.0, changed[moved] - 1)
    index = pd.Index(range(deals), name="seed")
    a = pd.DataFrame({"y": base, "n": 2.0}, index=index)
    b = pd.DataFrame({"y": changed, "n": 2.0}, index=index)
    result = paired_impact(a, b)
    truth = (base.sum() - changed.sum()) / (2 * deals)
    assert abs(result["estimate"] - truth) < 1e-12 and result["deals"] == deals
    assert 0 < result["ci_low"] < truth < result["ci_high"]
    # unpaired, the same rates would give an interval several times wider
    assert result["ci_high"] - result["ci_low"] < 0.05
    assert band_verdict(result["ci_low"], result["ci_high"], 0.1) == "inside"
    assert band_verdict(0.12, 0.3, 0.1) == "above"
    assert band_verdict(-0.3, -0.11, 0.1) == "below"
    assert band_verdict(0.05, 0.15, 0.1) == "at the edge"


def test_rock_paper_scissors_mixes_a_third_each_and_is_a_cycle() -> None:
    rps = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    assert np.allclose(nash_mix(rps), [1 / 3] * 3)
    assert cycles(rps) == [(0, 1, 2)]
    assert dominated(rps) == []


def test_a_dominated_deck_gets_no_weight() -> None:
    # c loses to everything and does worse than a against every deck
    matrix = np.array([[0.5, 0.6, 0.8], [0.4, 0.5, 0.7], [0.2, 0.3, 0.5]])
    assert np.allclose(nash_mix(matrix), [1.0, 0.0, 0.0], atol=1e-9)
    assert (2, 0) in dominated(matrix) and (1, 0) in dominated(matrix)
    assert cycles(matrix) == []


def test_the_metagame_of_a_measured_cycle_names_it_with_its_bootstrap() -> None:
    rng = np.random.default_rng(0)
    beats = {("a", "b"): 0.7, ("b", "c"): 0.7, ("a", "c"): 0.3}  # a > b > c > a
    rows, seed = [], 0
    for _ in range(150):
        for (x, y), p in beats.items():
            seed += 1
            rows.append((seed, 0, x, y, float(rng.random() < p)))
            rows.append((seed, 1, y, x, float(rng.random() >= p)))
    meta = metagame(_games(rows), seed=1, repeats=100)
    mix = meta.mix.set_index("deck")
    assert np.allclose(mix["weight"], 1 / 3, atol=0.08)
    assert (mix["ci_low"] < 1 / 3).all() and (mix["ci_high"] > 1 / 3).all()
    assert meta.cycles[0]["cycle"] == ["a", "b", "c"] and meta.cycles[0]["sureness"] > 0.9
    assert meta.dominated == []
    assert set(meta.summary()) == {"decks", "matrix", "mix", "dominated", "cycles"}


def test_no_metagame_without_the_whole_matrix() -> None:
    games = _games(
        [(1, 0, "a", "b", 1.0), (1, 1, "b", "a", 1.0)]
        + [(2, 0, "a", "c", 1.0), (2, 1, "c", "a", 0.0)]
    )
    assert "not every pairing" in metagame(games, repeats=10).note
