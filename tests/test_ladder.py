"""The ladder: each pair of bots on mirrored seeds, their ratings with intervals, balance per level,
and the command as people run it (config, overrides, patch, decks; a stop)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app
from balance.ladder import ladder
from balance.sim.stop import StopRequest

runner = CliRunner()
TINY = Path(__file__).parent / "tinygame" / "site" / "tinyduel" / "config"


def test_ladder_measures_each_pair_and_level_even_for_bots_with_parameters() -> None:
    result = ladder("arrows", ["random", "greedy: follow=0"], games=1, jobs=1)
    assert result.bots == ["random", "greedy:follow=0"]
    pairs = result.pairs.set_index(["bot", "opponent"])
    first = pairs.loc[("random", "greedy:follow=0")]
    second = pairs.loc[("greedy:follow=0", "random")]
    assert first["deals"] > 0 and math.isfinite(first["estimate"])
    assert first["estimate"] + second["estimate"] == 1.0  # two seats share each game's point
    assert first["ci_low"] <= first["estimate"] <= first["ci_high"]
    assert set(result.levels["bot"]) == {"random", "greedy:follow=0"}
    assert "seat advantage" in set(result.levels["measure"])


def test_ratings_put_the_first_bot_at_zero_and_the_stronger_bot_above_it() -> None:
    result = ladder("tinyduel", ["random", "greedy", "mcts:iterations=10"], games=120, jobs=1)
    ratings = result.ratings.set_index("bot")
    assert ratings.loc["random", "rating"] == 0.0
    assert ratings.loc["greedy", "ci_low"] > 0.0  # tinyduel's greedy beats random, surely
    for bot in result.bots:
        row = ratings.loc[bot]
        assert row["ci_low"] <= row["rating"] <= row["ci_high"]
    # the ratings' prediction of each head-to-head score stays near the score measured
    gaps = (result.pairs["expected"] - result.pairs["estimate"]).abs()
    assert gaps.max() < 0.15
    assert result.games == result.planned


def test_with_more_seats_each_pair_is_played_both_ways_round() -> None:
    result = ladder("tinyduel", ["random", "greedy"], games=60, seats=3, jobs=1)
    pairs = result.pairs.set_index(["bot", "opponent"])
    assert set(pairs.index) == {("random", "greedy"), ("greedy", "random")}
    assert result.seats == 3
    # measured each way, not one derived from the other: the two scores need not sum to 2/3
    alone, other = pairs.loc[("greedy", "random"), "estimate"], pairs.loc[("random", "greedy"), "estimate"]  # fmt: skip
    assert 0.0 <= alone <= 1.0 and 0.0 <= other <= 1.0
    assert len(result.ratings) == 2


def test_the_same_seed_gives_the_same_tables_whatever_the_jobs() -> None:
    one = ladder("tinyduel", ["random", "greedy"], games=40, jobs=1, seed=3)
    two = ladder("tinyduel", ["random", "greedy"], games=40, jobs=2, seed=3)
    assert one.ratings.equals(two.ratings)
    assert one.pairs.equals(two.pairs)
    assert one.levels.equals(two.levels)


def test_a_stop_ends_the_ladder_cleanly_with_what_was_finished() -> None:
    stop = StopRequest()
    result = ladder(
        "tinyduel", ["random", "greedy", "mcts:iterations=10"], games=40, jobs=1,
        progress=lambda n: stop.request(), stop=stop,
    )  # fmt: skip
    assert result.stopped_by == "stop"
    assert result.games < result.planned
    assert result.ratings.empty  # no pair finished: no bot met another


def test_a_stop_after_the_first_pairing_rates_the_two_bots_that_met() -> None:
    stop = StopRequest()
    finished: list[int] = []

    def progress(games: int) -> None:
        finished.append(games)
        # the first pairing plays 64 games (4 deck lineups, 8 deals each, 2 seats), in batches
        # of 16: stop in the second pairing
        if sum(finished) > 64:
            stop.request()

    result = ladder(
        "tinyduel", ["random", "greedy", "mcts:iterations=10"], games=60, jobs=1,
        progress=progress, stop=stop,
    )  # fmt: skip
    assert result.stopped_by == "stop"
    assert set(result.ratings["bot"]) == {"random", "greedy"}
    assert set(result.pairs["bot"]) == {"random", "greedy"}


def test_the_command_takes_config_overrides_patch_and_decks_and_leads_with_the_ratings(
    tmp_path: Path,
) -> None:
    patch = tmp_path / "patch.yaml"
    patch.write_text("rules.points_to_win: 2\n")
    out = tmp_path / "ladder"
    result = runner.invoke(
        app,
        ["ladder", "tinyduel", "--bots", "random,greedy", "--games", "20", "--jobs", "1",
         "--set", "rules.seat0_bonus=1", "--patch", str(patch), "--decks", "plain,wild",
         "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith(("ladder tinyduel:", "config", "rating", "head"))]  # fmt: skip
    assert lines[0].startswith("ladder tinyduel: bots random, greedy; 2 seats; decks plain,wild")
    assert "rules.seat0_bonus=1" in lines[1] and "rules.points_to_win=2" in lines[1]
    assert str(patch) in lines[1]
    assert lines[2].startswith("rating (Elo scale, random = 0")
    assert lines[3].startswith("head to head")
    record = json.loads((out / "ladder.json").read_text())
    assert record["decks"] == ["plain", "wild"]
    assert record["overrides"] == {"rules.seat0_bonus": 1, "rules.points_to_win": 2}
    assert {row["bot"] for row in record["ratings"]} == {"random", "greedy"}
    decks = {row["measure"] for row in record["levels"]}
    assert decks == {"seat advantage", "deck plain win rate", "deck wild win rate"}
    page = (out / "ladder.md").read_text()
    assert page.index("| bot (strongest first)") < page.index("| row bot's score against")
    assert "| every seat greedy" in page and "| every seat random" in page


def test_by_default_the_levels_are_random_the_gates_bots_and_mcts(tmp_path: Path) -> None:
    config = tmp_path / "config"
    shutil.copytree(TINY, config)
    thresholds = config / "balance.yaml"
    thresholds.write_text(thresholds.read_text().replace("bots: random", "bots: greedy"))
    result = runner.invoke(
        app,
        ["ladder", "tinyduel", "--config", str(config), "--games", "4", "--jobs", "1", "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "ladder tinyduel: bots random, greedy, mcts; 2 seats" in result.output


def test_an_unknown_deck_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    result = runner.invoke(
        app,
        ["ladder", "tinyduel", "--bots", "random,greedy", "--decks", "plian", "--out", str(out)],
    )
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "plian" in lines[0]
    assert not out.exists()
