"""The intervals cover the truth at their nominal rate, on a game whose odds are known.

oddsduel (tests/tinygame/site/oddsduel) has seat luck (a tempo per seat, dealt from the seed,
kept by the seat across the deal's rotations), deck luck (each deck's shuffle, from the seed and
the deck, kept by the deck) and rotations that differ only through the bots' rolls. Its true
rates are computed exactly from its odds (oddsduel.truth). Runs of deals are drawn from the same
odds without playing (a few thousand runs in seconds); the intervals of each run are computed by
balance.stats (`card_metrics` for the cards). One real run checks that the runner plays those
odds and that every interval it reports is near the truth.

Wilson's interval on games, which these replaced, covers the seat win rate in about 91% of runs
when seat luck dominates and the deck win rates in about 92% when deck luck does: the tests
below show it failing where the intervals over deals hold, so 2,000 runs are enough to tell.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from oddsduel.truth import Model, coverage, true_rates, wilson_coverage

from balance.core.registry import load_game
from balance.sim.simulate import RunOptions, simulate
from balance.stats import load_run
from balance.stats.intervals import Z95

RUNS = 2000  # runs per test: coverage is measured within about +-0.005 (one s.d.)
DEALS = 100  # deals of each of the 6 lineups per run: 1,200 games
SEAT_LUCK = {"rules.tempo_swing": 450, "rules.draw_chance": 0, "cards.ace.swing": 0,
             "cards.crown.edge": 0, "cards.rust.edge": 0}  # fmt: skip
DECK_LUCK = {"rules.tempo_swing": 0, "rules.draw_chance": 0, "cards.ace.swing": 450}


def model(overrides: dict[str, object]) -> Model:
    game = load_game("oddsduel")
    return Model.of(game.load(game.config_dir, overrides))


def test_every_interval_covers_the_truth_at_its_nominal_rate() -> None:
    m = model({})
    truth = true_rates(m)
    covered = coverage(m.sample(np.random.default_rng(20261125), RUNS, DEALS), truth)
    # seats, draws, caps, turns, 3 decks, 3 matchups, and every card rate that has a truth
    assert len(covered) == 53
    assert {"seat 0 win rate", "deck bold win rate", "matchup bold vs meek win rate",
            "cap rate", "draw rate", "turns", "meek/ace iwd", "bold/crown gih_wr"} <= set(covered)  # fmt: skip
    short = {name: rate for name, rate in covered.items() if rate < 0.93}
    assert not short, f"intervals covering the truth in under 93% of {RUNS} runs: {short}"


DECK_RATES = ["deck bold win rate", "deck even win rate", "deck meek win rate",
              "matchup bold vs even win rate", "matchup bold vs meek win rate",
              "matchup even vs meek win rate"]  # fmt: skip


@pytest.mark.parametrize(
    "overrides, names",
    [(SEAT_LUCK, ["seat 0 win rate"]), (DECK_LUCK, DECK_RATES)],
    ids=["seat luck", "deck luck"],
)
def test_where_wilson_on_games_falls_short_the_intervals_over_deals_hold(
    overrides: dict[str, object], names: list[str]
) -> None:
    m = model(overrides)
    truth = true_rates(m)
    sample = m.sample(np.random.default_rng(7), RUNS, DEALS)
    covered = coverage(sample, truth)
    assert min(covered[name] for name in names) >= 0.93, covered
    assert wilson_coverage(sample, truth, names) < 0.93


def test_the_runner_plays_the_known_odds(tmp_path: Path) -> None:
    """One real run of 6,000 games: every rate it reports lies within 4 of its standard errors
    of the truth, and nearly all of its 95% intervals hold it."""
    simulate(RunOptions("oddsduel", out=tmp_path / "run", games=6000, jobs=1, seed=3))
    run = load_run(tmp_path / "run")
    truth = true_rates(model({}))
    reported: dict[str, tuple[float, float, float]] = {}
    for row in run.seats().itertuples():
        reported[f"seat {row.seat} win rate"] = (row.win_rate, row.ci_low, row.ci_high)
    for row in run.decks().itertuples():
        reported[f"deck {row.deck} win rate"] = (row.win_rate, row.ci_low, row.ci_high)
    for row in run.matchups().itertuples():
        if row.deck < row.opponent:
            name = f"matchup {row.deck} vs {row.opponent} win rate"
            reported[name] = (row.win_rate, row.ci_low, row.ci_high)
    summary = run.summary()
    for name in ("draw", "cap"):
        reported[f"{name} rate"] = (
            summary["rates"][f"{name}_rate"],
            *summary["rates"][f"{name}_ci"],
        )
    turns = summary["turns"]
    reported["turns"] = (turns["mean"], turns["ci_low"], turns["ci_high"])
    for row in run.card_metrics().to_dict(orient="records"):
        for metric in ("play_rate", "gp_wr", "gih_wr", "oh_wr", "gnd_wr", "iwd"):
            name = f"{row['deck']}/{row['card']} {metric}"
            if not math.isnan(truth[name]):
                reported[name] = (row[metric], row[f"{metric}_low"], row[f"{metric}_high"])
    assert set(reported) == {name for name, value in truth.items() if not math.isnan(value)}
    far = {}
    for name, (estimate, low, high) in reported.items():
        std_error = (high - low) / (2 * Z95)
        if abs(estimate - truth[name]) > 4 * std_error:
            far[name] = (estimate, truth[name])
    assert not far, f"estimates far from the truth: {far}"
    held = np.mean([low <= truth[name] <= high for name, (_, low, high) in reported.items()])
    assert held >= 0.85
