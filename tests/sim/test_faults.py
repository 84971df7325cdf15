"""Faults end in a usable run folder, and `--resume` completes it to the tables of an
uninterrupted run.

Real signals go to a real `balance simulate` process, and a real loky worker, found in its
process tree, is killed. Every wait is bounded. Runs are small (tinyduel, random bots) and
commit every 0.2 s, so a commit is on disk a fraction of a second after the workers start.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import psutil
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.sim.simulate import RunOptions, simulate

GAMES = 3600  # whole rounds: 3 lineups x 2 seat rotations
SEED = 11
RUN = ["tinyduel", "--games", str(GAMES), "--seed", str(SEED), "--batch-size", "20",
       "--commit-every", "0.2", "--no-report"]  # fmt: skip


def tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(folder / "games.parquet"), pd.read_parquet(folder / "cards.parquet")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same run, uninterrupted, in this process."""
    out = tmp_path_factory.mktemp("reference") / "run"
    simulate(RunOptions("tinyduel", games=GAMES, seed=SEED, jobs=1, out=out))
    return tables(out)


def balance_cli(*args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "balance", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.02)


def committed(out: Path) -> int:
    try:
        return int(json.loads((out / "run.json").read_text())["games"])
    except (OSError, ValueError, KeyError):
        return 0


def assert_all_gone(processes: list[psutil.Process]) -> None:
    _, alive = psutil.wait_procs(processes, timeout=15)
    assert not alive, f"orphans left: {[p.pid for p in alive]}"


def resume_to_the_end(out: Path) -> None:
    """`balance simulate --resume` (in this process: it spares the start-up of another)."""
    done = CliRunner().invoke(app, ["simulate", "--resume", str(out), "--jobs", "2", "--no-report"])
    assert done.exit_code == 0, done.output
    assert f"{GAMES} games in" in done.output
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "finished" and manifest["games"] == GAMES


@pytest.mark.parametrize(
    "signals, jobs",
    [
        (["SIGTERM"], 2),
        (["SIGINT"], 2),
        (["SIGINT", "SIGINT"], 2),
        (["SIGHUP"], 2),
        (["SIGTERM"], 1),
    ],
    ids=["sigterm", "sigint", "two-sigints-50ms-apart", "sighup", "sigterm-one-process"],
)
def test_a_signal_mid_run_leaves_a_folder_report_reads_and_resume_completes(
    tmp_path: Path, reference: tuple[pd.DataFrame, pd.DataFrame], signals: list[str], jobs: int
) -> None:
    out = tmp_path / "run"
    run = balance_cli("simulate", *RUN, "--jobs", str(jobs), "--out", str(out))
    wait_for(lambda: committed(out) > 0, "the first commit")
    assert run.poll() is None, "the run ended before the signal"
    workers = psutil.Process(run.pid).children(recursive=True)
    for name in signals:
        run.send_signal(getattr(signal, name))
        time.sleep(0.05)
    stdout, stderr = run.communicate(timeout=60)

    first = getattr(signal, signals[0])
    assert run.returncode == 128 + first, stderr
    assert "Traceback" not in stderr, stderr
    assert_all_gone(workers)
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "stopped" and manifest["stopped_by"] == signals[0]
    counted = int(re.search(r"^(\d+) games in", stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    games, cards = tables(out)
    assert len(cards) and cards["games"].max() > 0
    assert 0 < counted == manifest["games"] == len(games) < GAMES
    assert list(games["game"]) == list(range(counted))
    assert not (out / "parts").exists()

    report = CliRunner().invoke(app, ["report", str(out), "--format", "md"])
    assert report.exit_code == 0, report.output

    resume_to_the_end(out)
    pd.testing.assert_frame_equal(tables(out)[0], reference[0])
    pd.testing.assert_frame_equal(tables(out)[1], reference[1])


def test_a_killed_worker_has_its_batches_played_again(
    tmp_path: Path, reference: tuple[pd.DataFrame, pd.DataFrame]
) -> None:
    out = tmp_path / "run"
    run = balance_cli("simulate", *RUN, "--jobs", "2", "--out", str(out))
    wait_for(lambda: committed(out) > 0, "the first commit")

    def loky_workers() -> list[psutil.Process]:
        found = []
        for process in psutil.Process(run.pid).children(recursive=True):
            try:
                if "popen_loky" in " ".join(process.cmdline()):
                    found.append(process)
            except psutil.NoSuchProcess:
                pass
        return found

    wait_for(lambda: len(loky_workers()) == 2, "two loky workers")
    assert run.poll() is None, "the run ended before the kill"
    loky_workers()[0].kill()
    stdout, stderr = run.communicate(timeout=120)

    assert run.returncode == 0, stderr
    assert "Traceback" not in stderr and f"{GAMES} games in" in stdout
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "finished" and manifest["workers_lost"] >= 1
    assert json.loads((out / "crashes.json").read_text()) == []
    pd.testing.assert_frame_equal(tables(out)[0], reference[0])
    pd.testing.assert_frame_equal(tables(out)[1], reference[1])


def test_a_run_cut_off_by_sigkill_resumes_from_its_last_commit(
    tmp_path: Path, reference: tuple[pd.DataFrame, pd.DataFrame]
) -> None:
    out = tmp_path / "run"
    run = balance_cli("simulate", *RUN, "--jobs", "2", "--out", str(out))
    wait_for(lambda: committed(out) > 0, "the first commit")
    workers = psutil.Process(run.pid).children(recursive=True)
    run.kill()
    run.wait(timeout=30)
    for worker in workers:  # nothing is left to stop them when the main process is killed
        try:
            worker.kill()
        except psutil.NoSuchProcess:
            pass
    assert_all_gone(workers)
    run.communicate(timeout=30)  # the workers held the pipes open

    manifest = json.loads((out / "run.json").read_text())  # still whole
    assert manifest["status"] == "running" and manifest["games"] > 0
    refused = CliRunner().invoke(app, ["report", str(out)])
    assert refused.exit_code == 2 and "games.parquet: missing" in refused.output
    assert "--resume" in refused.output

    resume_to_the_end(out)
    pd.testing.assert_frame_equal(tables(out)[0], reference[0])
    pd.testing.assert_frame_equal(tables(out)[1], reference[1])
