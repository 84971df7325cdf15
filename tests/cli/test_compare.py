"""`balance compare RUN_A RUN_B` and the report's view with --against: every shared table side
by side, paired where the runs played the same deals."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def run(out: Path, *extra: str) -> Path:
    made = invoke("simulate", "tinyduel", "--games", "120", "--bots", "random", "--jobs", "1",
                  "--out", str(out), "--no-report", *extra)  # fmt: skip
    assert made.exit_code == 0, made.output
    return out


def test_compare_pairs_runs_on_the_same_deals_and_not_others(tmp_path: Path) -> None:
    a = run(tmp_path / "a")
    b = run(tmp_path / "b", "--set", "rules.points_to_win=2")
    c = run(tmp_path / "c", "--seed", "9")
    same = invoke("compare", str(a), str(b), "--html", str(tmp_path / "ab.html"))
    assert same.exit_code == 0, same.output
    titles = re.findall(r"^(\w+) *$", same.output, flags=re.MULTILINE)
    assert titles == ["seats", "decks", "matchups", "outcomes", "cards"]
    text = " ".join(same.output.split())  # rich wraps the lead at the terminal's width
    assert "share 60 of their 60 and 60 deals" in text
    assert "paired" in same.output and "unpaired" in same.output  # cards stay unpaired
    assert "overrides (--set): rules.points_to_win=2" in text
    page = (tmp_path / "ab.html").read_text()
    assert '<table class="sortable"' in page and "change B − A" in page
    other = invoke("compare", str(a), str(c))
    assert other.exit_code == 0, other.output
    assert "share 0 of their 60 and 60 deals" in " ".join(other.output.split())
    seats = re.split(
        r"^decks *$",
        re.split(r"^seats *$", other.output, flags=re.MULTILINE)[1],
        flags=re.MULTILINE,
    )[0]
    assert "unpaired" in seats and " paired" not in seats


def test_compare_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    result = invoke("compare", str(tmp_path), str(tmp_path))
    assert result.exit_code == 2
    assert (
        result.output.strip()
        == f"error: {tmp_path}: not a run folder (no run.json) (give two folders written by balance simulate)"
    )


def test_report_against_an_earlier_run_shows_the_comparison(tmp_path: Path) -> None:
    a = run(tmp_path / "a")
    b = run(tmp_path / "b", "--set", "rules.points_to_win=2")
    result = invoke("report", str(b), "--against", str(a))
    assert result.exit_code == 0, result.output
    page = (b / "report.html").read_text()
    assert "Compared with an earlier run" in page and f"Since {a} (A; this run is B, paired" in page
