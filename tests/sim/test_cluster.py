"""A real dask cluster (scheduler and worker processes on loopback) gives the tables a local run gives."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from distributed import LocalCluster

from balance.sim.simulate import RunOptions, simulate


def test_a_dask_cluster_run_equals_a_local_run(tmp_path: Path) -> None:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = simulate(RunOptions("tinyduel", games=600, seed=3, backend="dask", scheduler=cluster.scheduler_address,
                                     batch_size=37, out=tmp_path / "dask"))  # fmt: skip
    local = simulate(RunOptions("tinyduel", games=600, seed=3, jobs=1, out=tmp_path / "local"))
    assert remote.games == local.games == 600
    for name in ("games.parquet", "cards.parquet"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "dask" / name), pd.read_parquet(tmp_path / "local" / name)
        )


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from balance.cli import app

    result = CliRunner().invoke(app, ["simulate", "tinyduel", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1",
                                      "--games", "10", "--out", str(tmp_path / "x"), "--no-report"])  # fmt: skip
    assert result.exit_code == 2 and "cannot reach the dask scheduler" in result.output
    assert not (tmp_path / "x").exists()  # the backend is reached before anything is written


def test_a_local_ray_run_equals_a_local_run(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="ray is the optional extra: pip install -e '.[ray]'")
    remote = simulate(RunOptions("arrows", games=120, seed=5, jobs=2, backend="ray", batch_size=13,
                                 out=tmp_path / "ray"))  # fmt: skip
    local = simulate(RunOptions("arrows", games=120, seed=5, jobs=1, out=tmp_path / "local"))
    assert remote.games == local.games
    for name in ("games.parquet", "cards.parquet"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "ray" / name), pd.read_parquet(tmp_path / "local" / name)
        )
