"""Sweeps and tuning on the tiny game, whose optimum is known: `wild` is fair at value 3 (the
decks are then the same), and seat 0 is fair at `seat0_bonus: 0`."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.tune import parse_values, parse_vary, setup_from, sweep, tune

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


def test_among_equals_tune_prefers_fewer_numbers_then_smaller_steps() -> None:
    from balance.tune import change_size

    free = [("cards.x.power", 0, 8), ("cards.x.cost", 0, 4)]
    current = {"cards.x.power": 8, "cards.x.cost": 1}
    back_to_two = change_size({"cards.x.power": 2, "cards.x.cost": 1}, current, free)
    down_to_zero = change_size({"cards.x.power": 0, "cards.x.cost": 1}, current, free)
    both = change_size({"cards.x.power": 7, "cards.x.cost": 2}, current, free)
    assert back_to_two == (1, 0.75) and down_to_zero == (1, 1.0)
    assert back_to_two < down_to_zero < both
    assert change_size(current, current, free) == (0, 0.0)


def interrupt_after(batches: int):  # type: ignore[no-untyped-def]
    seen = []

    def progress(n: int) -> None:
        seen.append(n)
        if len(seen) == batches:
            raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("cut", [1, 6, 11])  # of 12 batches
def test_an_interrupted_sweep_resumes_to_the_same_result(tmp_path: Path, cut: int) -> None:
    setup = setup_from("tinyduel", None, {}, ["plain", "wild"], ["random"], 2, 0, 1)
    vary = [("cards.wild.value", [1, 3, 5])]
    whole = sweep(setup, vary, 600, None, None)
    out = tmp_path / "sweep"
    cut_short = sweep(setup, vary, 600, None, None, interrupt_after(cut), folder=out)
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
    cut_short = tune(setup, free, 3000, progress=interrupt_after(cut), folder=out)
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
