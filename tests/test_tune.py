"""Sweeps and tuning on the tiny game, whose optimum is known: `wild` is fair at value 3 (the
decks are then the same), and seat 0 is fair at `seat0_bonus: 0`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.tune import parse_values, parse_vary, setup_from, sweep, tune
from tests.sim.test_resume import stop_after

runner = CliRunner()


def test_values_as_lists_and_ranges() -> None:
    assert parse_values("3,4,5") == [3, 4, 5]
    assert parse_values("2:8:2") == [2, 4, 6, 8]
    assert parse_values("0.5,1.5") == [0.5, 1.5]
    with pytest.raises(ConfigError):
        parse_values("8:2")
    with pytest.raises(ConfigError, match="PATH=VALUES"):
        parse_vary(["cards.wild.value"])


def test_sweep_finds_the_fair_value_of_a_card() -> None:
    setup = setup_from("tinyduel", None, {}, ["plain", "wild"], ["random"], 2, 0, 1)
    result = sweep(setup, [("cards.wild.value", [1, 2, 3, 4, 5])], 1200, None, None)
    assert result.metric.text == "deck:wild"
    assert result.closest["cards.wild.value"] == 3
    assert result.sureness is not None and result.sureness > 0.9
    estimates = result.points.set_index("cards.wild.value")["estimate"]
    assert estimates[1] < estimates[3] < estimates[5]  # a stronger card, a stronger deck


def test_sweep_of_a_rule_reads_the_seat_advantage() -> None:
    setup = setup_from("tinyduel", None, {}, ["plain"], ["random"], 2, 0, 1)
    result = sweep(setup, [("rules.seat0_bonus", [-2, 0, 2])], 1200, None, None)
    assert result.metric.text == "seat" and result.closest["rules.seat0_bonus"] == 0


def test_tune_finds_the_fair_value_within_its_budget() -> None:
    setup = setup_from(
        "tinyduel", None, {"cards.wild.value": 7}, ["plain", "wild"], ["random"], 2, 0, 1
    )
    result = tune(setup, [("cards.wild.value", 0, 8)], 12000)
    assert result.games <= 12000
    assert result.proposal == {"cards.wild.value": 3}
    assert result.after.objective < result.before.objective
    assert result.after.ci_high < result.before.ci_low  # the improvement is beyond noise


def test_tune_leaves_a_balanced_number_alone() -> None:
    setup = setup_from("tinyduel", None, {}, ["plain", "wild"], ["random"], 2, 0, 1)
    result = tune(setup, [("cards.wild.value", 2, 4)], 6000)
    assert result.proposal == {}


def test_the_tune_command_writes_a_patch_that_check_accepts(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    result = runner.invoke(app, ["tune", "tinyduel", "--free", "cards.wild.value=0:8", "--set", "cards.wild.value=8",
                                 "--budget", "12000", "--jobs", "1", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    patch = yaml.safe_load((out / "patch.yaml").read_text())
    assert patch == {"cards.wild.value": 3}
    assert (out / "convergence.png").exists() and (out / "tune.html").exists()
    detuned = runner.invoke(
        app, ["check", "tinyduel", "--jobs", "1", "--set", "cards.wild.value=8"]
    )
    assert detuned.exit_code == 1
    fixed = runner.invoke(
        app,
        [
            "check",
            "tinyduel",
            "--jobs",
            "1",
            "--set",
            "cards.wild.value=8",
            "--patch",
            str(out / "patch.yaml"),
        ],
    )
    assert fixed.exit_code == 0, fixed.output


def test_the_sweep_command_writes_table_plot_and_page(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    result = runner.invoke(app, ["sweep", "tinyduel", "--vary", "cards.wild.value=2:4", "--decks", "plain,wild",
                                 "--games", "400", "--jobs", "1", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "cards.wild.value = 3" in result.output
    assert {"sweep.csv", "sweep.json", "sweep.png", "sweep.md", "sweep.html"} <= {
        p.name for p in out.iterdir()
    }


def test_a_bad_metric_is_one_line() -> None:
    result = runner.invoke(
        app, ["sweep", "tinyduel", "--vary", "cards.wild.value=2:4", "--metric", "deck:wyld"]
    )
    assert result.exit_code == 2 and "did you mean 'wild'" in result.output


def test_a_candidates_doubtful_data_is_not_repeated_per_point() -> None:
    import warnings

    from balance.tune import make_trial

    setup = setup_from("beings", None, {}, "all", ["random"], None, 0, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make_trial(setup, {"cards.ember_fox_1.cost": 3}, 1, 10)  # costs more than its level 2
    assert not caught


def test_among_equals_tune_counts_the_numbers_changed() -> None:
    from balance.tune import numbers_changed

    current = {"cards.x.power": 8, "cards.x.cost": 1}
    assert numbers_changed(current, current) == 0
    assert numbers_changed({"cards.x.power": 2, "cards.x.cost": 1}, current) == 1
    assert numbers_changed({"cards.x.power": 7, "cards.x.cost": 2}, current) == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_small_budget_proposes_the_best_finalist_not_the_nearest(seed: int) -> None:
    """Issue 21: on a small budget tune kept a card at power 10 though its own table ranked
    power 3 best. Finalists were "within noise" when their two intervals overlapped, and among
    those the smallest step won, so the proposal stopped at the edge of the noise (here 4, or no
    change at all); the difference paired over the same deals tells them apart."""
    setup = setup_from(
        "tinyduel", None, {"cards.wild.value": 8}, ["plain", "wild"], ["random"], 2, seed, 1
    )
    result = tune(setup, [("cards.wild.value", 0, 8)], 1500)
    assert result.games <= 1500
    assert result.proposal == {"cards.wild.value": 3}  # the known fair value
    finalists = result.candidates[result.candidates["rounds"] == result.candidates["rounds"].max()]
    assert finalists.iloc[0]["cards.wild.value"] == 3  # the table ranks it best, too
    assert result.best is result.after


def test_the_convergence_plots_the_best_so_far_which_never_climbs() -> None:
    """Issue 21: "lower is fairer" climbed, as each rung's least objective was lucky on few
    games. The history now judges each rung's leader on the most games it played."""
    setup = setup_from("tinyduel", None, {"cards.wild.value": 8}, "all", ["random"], 2, 0, 1)
    result = tune(setup, [("cards.wild.value", 0, 8)], 2000)
    history = result.history
    assert len(history) == 3
    assert history["best_objective"].is_monotonic_decreasing
    assert history["best_objective"].tolist() == history["leader_final_objective"].cummin().tolist()
    # the leaders' own rung estimates are what climbed: kept, but not what is plotted
    assert not history["leader_objective"].is_monotonic_decreasing
    finalists = result.candidates[result.candidates["rounds"] == 3]
    assert history["best_objective"].iloc[-1] == finalists["objective"].min()


def test_no_change_names_the_best_it_could_not_tell_apart() -> None:
    from balance.report.tuning import change_text

    current = {"cards.wild.value": 8}
    assert change_text(current, {"cards.wild.value": 3}, {"cards.wild.value": 3}) == (
        "cards.wild.value: 8 -> 3"
    )
    assert "best found" in change_text(current, {}, current)
    said = change_text(current, {}, {"cards.wild.value": 3})
    assert said.startswith("no change: the best found (cards.wild.value=3) is within noise")


def test_sweep_counts_the_games_behind_each_estimate() -> None:
    """Issue 21: the games column was the games a point played, not its estimate's sample."""
    from balance.tune import Metric, make_trial, measure

    setup = setup_from("tinyduel", None, {}, "all", ["random"], 2, 0, 1)
    result = sweep(setup, [("cards.wild.value", [2, 4])], 300, None, None)
    games = result.points["games"].tolist()
    # deck:wild is read on the games wild played against plain: one lineup of three
    assert games == [100, 100]
    assert result.points["played"].tolist() == [300, 300]
    seat = sweep(setup, [("cards.wild.value", [2, 4])], 300, "seat", None)
    assert seat.points["games"].tolist() == [300, 300]
    trial = make_trial(setup, {}, 0, 300)
    trial.play(setup, 300, None)
    mixed = int((trial.games["deck_0"] != trial.games["deck_1"]).sum())
    assert measure(trial, Metric("deck:wild", unit="deck wild win rate"))[3] == mixed
    in_hand = measure(trial, Metric("card:wild:gih", card="wild", measure="gih_wr"))[3]
    every = measure(trial, Metric("card:wild:play", card="wild", measure="play_rate"))[3]
    assert 0 < in_hand < every <= 300  # in hand in some of the games wild's deck played


@pytest.mark.parametrize("cut", [1, 6, 11])  # of 12 batches
def test_an_interrupted_sweep_resumes_to_the_same_result(tmp_path: Path, cut: int) -> None:
    setup = setup_from("tinyduel", None, {}, ["plain", "wild"], ["random"], 2, 0, 1)
    vary = [("cards.wild.value", [1, 3, 5])]
    whole = sweep(setup, vary, 600, None, None)
    out = tmp_path / "sweep"
    cut_short = sweep(setup, vary, 600, None, None, stop_after(cut), folder=out)
    assert cut_short.interrupted
    again = sweep(setup, vary, 600, None, None, folder=out, resume=True)
    assert not again.interrupted and again.points.equals(whole.points)
    assert (again.closest, again.sureness) == (whole.closest, whole.sureness)


@pytest.mark.parametrize("cut", [2, 20, 45])
def test_an_interrupted_tune_resumes_to_the_same_result(tmp_path: Path, cut: int) -> None:
    setup = setup_from(
        "tinyduel", None, {"cards.wild.value": 7}, ["plain", "wild"], ["random"], 2, 0, 1
    )
    free = [("cards.wild.value", 0, 8)]
    whole = tune(setup, free, 3000)
    out = tmp_path / "tune"
    cut_short = tune(setup, free, 3000, progress=stop_after(cut), folder=out)
    assert cut_short.interrupted
    again = tune(setup, free, 3000, folder=out, resume=True)
    assert not again.interrupted and again.proposal == whole.proposal
    assert again.candidates.equals(whole.candidates) and again.history.equals(whole.history)
    assert (again.after.objective, again.after.ci_low) == (
        whole.after.objective,
        whole.after.ci_low,
    )
    assert again.games == whole.games


def test_resuming_with_other_options_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = ["sweep", "tinyduel", "--vary", "cards.wild.value=1,3", "--games", "60", "--jobs", "1"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    other = runner.invoke(app, [*args, "--seed", "4", "--resume", str(out)])
    assert other.exit_code == 2 and "started with seed 0, not 4" in other.output
    same = runner.invoke(app, [*args, "--resume", str(out)])
    assert same.exit_code == 0, same.output


def test_sweep_and_tune_name_their_players_first_and_in_their_files(tmp_path: Path) -> None:
    """Issue 18: the player model is never hidden: the bots, the --set overrides and the patch."""
    patch = tmp_path / "patch.yaml"
    patch.write_text("rules.max_rounds: 11\n")
    said = ("Players: random in every seat; overrides (--set): rules.points_to_win=3; patch: "
            f"{patch} (rules.max_rounds=11); seed 0.")  # fmt: skip
    given = ["--bots", "random", "--set", "rules.points_to_win=3", "--patch", str(patch),
             "--jobs", "1"]  # fmt: skip
    swept = runner.invoke(app, ["sweep", "tinyduel", "--vary", "cards.wild.value=2,4", "--games",
                                "60", *given, "--out", str(tmp_path / "s")])  # fmt: skip
    tuned = runner.invoke(app, ["tune", "tinyduel", "--free", "cards.wild.value=2:4", "--budget",
                                "300", *given, "--out", str(tmp_path / "t")])  # fmt: skip
    for result, folder, stem in ((swept, "s", "sweep"), (tuned, "t", "tune")):
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == said
        assert said in (tmp_path / folder / f"{stem}.md").read_text()
        assert said in (tmp_path / folder / f"{stem}.html").read_text()
        record = json.loads((tmp_path / folder / f"{stem}.json").read_text())
        assert record["players"] == {
            "bots": ["random"],
            "seed": 0,
            "set": {"rules.points_to_win": 3},
            "patch": {"file": str(patch), "overrides": {"rules.max_rounds": 11}},
        }
    assert f"# {said}" in (tmp_path / "t" / "patch.yaml").read_text()
