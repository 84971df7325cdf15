"""`balance bench`: the figures it writes are measured and shaped as the README says."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app


def test_bench_json_holds_each_games_measured_figures(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", "arrows", "--seconds", "0.5", "--repeats", "2", "--jobs", "1", "--json"]
    result = CliRunner().invoke(app, [*args, str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["machine"]["cores"] >= 1
    (row,) = record["results"]
    assert (row["game"], row["bot"], row["seats"], row["jobs"]) == ("arrows", "random", 2, 1)
    for figure in ("games_per_s", "decisions_per_s", "us_per_decision", "clone_us"):
        spread = row[figure]
        assert 0 < spread["low"] <= spread["median"] <= spread["high"]
    assert row["speedup"] is None  # --jobs 1 skips the parallel pass
