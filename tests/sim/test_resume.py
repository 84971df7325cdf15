"""A run stopped anywhere and resumed, as often as it takes, gives the tables of an uninterrupted
run; what a run folder holds at every step is whole; bad folders are one line."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import pandas as pd
import pytest
from typer.testing import CliRunner

import balance.bots as bots_module
from balance.cli import app
from balance.sim.records import CardTally
from balance.sim.simulate import RunOptions, resume_options, simulate
from tests.sim.test_runner import CrashingBot

runner = CliRunner()


def tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame, list]:
    return (
        pd.read_parquet(folder / "games.parquet"),
        pd.read_parquet(folder / "cards.parquet"),
        json.loads((folder / "crashes.json").read_text()),
    )


def stop_after(batches: int):  # type: ignore[no-untyped-def]
    seen = []

    def progress(n: int) -> None:
        seen.append(n)
        if len(seen) == batches:
            raise KeyboardInterrupt

    return progress


def assert_same(a: Path, b: Path) -> None:
    games_a, cards_a, crashes_a = tables(a)
    games_b, cards_b, crashes_b = tables(b)
    assert games_a.equals(games_b) and cards_a.equals(cards_b) and crashes_a == crashes_b


@pytest.mark.parametrize("bots", [["random"], ["crasher", "random"]])
def test_stopped_at_random_points_and_resumed_it_ends_with_the_uninterrupted_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bots: list[str]
) -> None:
    monkeypatch.setitem(bots_module.BOTS, "crasher", lambda: CrashingBot)
    options = RunOptions("tinyduel", games=300, seed=4, jobs=1, bots=bots, commit_seconds=0)
    simulate(RunOptions(**{**options.__dict__, "out": tmp_path / "whole", "batch_size": 300}))
    rng = Random(20)
    for attempt in range(3):
        out = tmp_path / f"cut{attempt}"
        first = RunOptions(**{**options.__dict__, "out": out, "batch_size": rng.randint(1, 40)})
        outcome = simulate(first, progress=stop_after(rng.randint(1, 8)))
        stops = 1
        while outcome.interrupted:
            again = resume_options(out)
            again = RunOptions(**{**again.__dict__, "jobs": 1, "batch_size": rng.randint(1, 40)})
            outcome = simulate(again, progress=stop_after(rng.randint(1, 8)), resume=True)
            stops += 1
        assert stops > 1 and outcome.games == 300
        manifest = json.loads((out / "run.json").read_text())
        assert manifest["status"] == "finished" and len(manifest["resumed"]) == stops - 1
        assert_same(out, tmp_path / "whole")


def test_a_part_written_after_the_last_commit_is_dropped_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a hard stop between a part file and its checkpoint leaves."""
    from balance.sim import records

    options = RunOptions("tinyduel", games=120, seed=2, jobs=1, batch_size=6, commit_seconds=0)
    simulate(RunOptions(**{**options.__dict__, "out": tmp_path / "whole"}))
    out = tmp_path / "cut"
    monkeypatch.setattr(records.GamesWriter, "consolidate", lambda self: (0, 0))  # cut off
    simulate(RunOptions(**{**options.__dict__, "out": out}), progress=stop_after(5))
    monkeypatch.undo()
    parts = sorted((out / "parts").iterdir())
    committed = json.loads((out / "checkpoint.json").read_text())["games"]
    assert committed == 30 and parts[-1].name == f"{24:012d}-{30:012d}.parquet"
    shutil.copy(parts[-1], out / "parts" / f"{30:012d}-{36:012d}.parquet")  # never committed
    simulate(resume_options(out), resume=True)
    assert_same(out, tmp_path / "whole")


def test_finished_games_reach_the_disk_as_the_run_goes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    committed = []

    def progress(n: int) -> None:
        committed.append(json.loads((out / "run.json").read_text())["games"])

    simulate(
        RunOptions("tinyduel", games=60, jobs=1, batch_size=6, out=out, commit_seconds=0),
        progress=progress,
    )
    # each batch is committed (run.json rewritten) before the next one is counted
    assert committed == list(range(0, 60, 6))


def test_the_card_tally_state_carries_every_field_a_tally_grows() -> None:
    @dataclass
    class WiderTally(CardTally):
        deal_sums: dict[tuple[str, int], list[float]] = field(default_factory=dict)
        labels: tuple[str, ...] = ()

    tally = WiderTally(
        2,
        decks={"plain": [10, 5000]},
        cards={("plain", 3): [1, 2, 3, 4, 5, 6, 7, 8, 9]},
        deal_sums={("plain", 3): [0.5, 2.25]},
        labels=("a", "b"),
    )
    state = json.loads(json.dumps(tally.to_state()))
    assert WiderTally.from_state(state) == tally
    assert CardTally.from_state(CardTally(1).to_state()) == CardTally(1)


def one_line_error(result, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_out_that_is_a_file_or_under_one_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    afile = tmp_path / "taken"
    afile.write_text("x")
    run = ["simulate", "tinyduel", "--games", "6", "--no-report", "--out"]
    one_line_error(runner.invoke(app, [*run, str(afile)]), str(afile), "is a file")
    one_line_error(runner.invoke(app, [*run, str(afile / "run")]), str(afile), "is a file")
    assert afile.read_text() == "x"


def test_a_refused_backend_leaves_nothing_in_out(tmp_path: Path) -> None:
    """(An unreachable dask scheduler: tests/sim/test_cluster.py.)"""
    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "tinyduel", "--games", "6", "--no-report", "--out", str(out), "--backend", "lokky"])  # fmt: skip
    one_line_error(result, "unknown backend 'lokky'")
    assert not out.exists()


def test_an_unfinished_run_is_resumed_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(
        RunOptions("tinyduel", games=60, seed=1, jobs=1, batch_size=6, out=out),
        progress=stop_after(2),
    )
    again = ["simulate", "tinyduel", "--games", "60", "--seed", "1", "--no-report", "--out", str(out)]  # fmt: skip
    one_line_error(runner.invoke(app, again), "unfinished run (12 of 60 games)", "--resume")
    differs = ["simulate", "--resume", str(out), "--seed", "2", "--no-report"]
    one_line_error(runner.invoke(app, differs), "--seed", "2 differs from 1")
    same = runner.invoke(app, ["simulate", "tinyduel", "--resume", str(out), "--seed", "1", "--jobs", "1", "--no-report"])  # fmt: skip
    assert same.exit_code == 0 and "60 games in" in same.output, same.output
    one_line_error(runner.invoke(app, ["simulate", "--resume", str(tmp_path)]), "not a run folder")


def damaged(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(tmp_path / "good", folder)
    return folder


def test_report_and_replay_refuse_a_damaged_folder_in_one_line_naming_the_file(
    tmp_path: Path,
) -> None:
    simulate(RunOptions("tinyduel", games=12, jobs=1, out=tmp_path / "good"))
    cut = damaged(tmp_path, "cut")
    data = (cut / "games.parquet").read_bytes()
    (cut / "games.parquet").write_bytes(data[: len(data) // 2])
    broken = damaged(tmp_path, "broken")
    (broken / "run.json").write_text('{"game": "tinyduel",\n  "games": ')
    listed = damaged(tmp_path, "listed")
    (listed / "run.json").write_text("[1, 2]")
    cardless = damaged(tmp_path, "cardless")
    (cardless / "cards.parquet").unlink()
    cases = [
        (cut, "games.parquet: cannot read it"),
        (broken, "run.json:2: not valid JSON"),
        (listed, "run.json:1: not a run manifest"),
        (cardless, "cards.parquet: missing"),
    ]
    for folder, words in cases:
        one_line_error(runner.invoke(app, ["report", str(folder)]), words)
        if folder is not cardless:  # a replay needs no card table
            one_line_error(runner.invoke(app, ["replay", str(folder), "--game", "0"]), words)
