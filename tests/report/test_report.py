"""A small run renders every file, plot and table, and the HTML needs nothing from outside."""

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app
from balance.sim.simulate import RunOptions, simulate
from balance.stats import load_run


def test_report_on_a_small_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(RunOptions("tinyduel", out=out, games=400, jobs=1))
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("seats", "decks", "matchups", "length", "cards", "iwd"):
        assert (out / "plots" / f"{name}.png").stat().st_size > 1000
    page = (out / "report.html").read_text()
    # the page draws the interactive twins of the six PNGs, with plotly.js inlined once
    assert re.findall(r'id="plot-([a-z]+)"', page) == [
        "seats", "decks", "matchups", "length", "cards", "iwd"
    ]  # fmt: skip
    markup = re.sub(r"<script[^>]*>.*?</script>", "", page, flags=re.DOTALL)  # plotly.js
    assert "<img" not in markup and page.count("plotly.js v") == 1  # names its site
    assert not re.search(r"""(src|href)=['"](?!data:|#)""", markup), (
        "the page must not load anything from outside"
    )
    for words in (
        "Seats",
        "Decks",
        "Matchups",
        "Cards",
        "GIH WR",
        "IWD",
        "Definitions",
        "config_hash",
    ):
        assert words in page
    markdown = (out / "report.md").read_text()
    assert (
        "| seat | games | deals | win rate | 95% interval |" in markdown
        and "![cards](plots/cards.png)" in markdown
    )
    summary = json.loads((out / "summary.json").read_text())
    for key in (
        "game",
        "games",
        "crashed",
        "capped",
        "draws",
        "seats",
        "decks",
        "matchups",
        "cards",
        "turns",
    ):
        assert key in summary
    assert set(summary["seats"][0]) >= {"seat", "games", "win_rate", "ci_low", "ci_high"}
    assert set(summary["cards"][0]) >= {
        "deck",
        "card",
        "play_rate",
        "gp_wr",
        "gih_wr",
        "oh_wr",
        "gnd_wr",
        "iwd",
    }
    assert set(summary["turns"]) == {"mean", "ci_low", "ci_high", "p10", "p50", "p90"}
    assert all(deck["ci_low"] < deck["win_rate"] < deck["ci_high"] for deck in summary["decks"])
    mirrors = [m for m in summary["matchups"] if m["deck"] == m["opponent"]]
    assert mirrors and all(m["ci_low"] is None for m in mirrors)  # 1/2 by construction
    assert summary["games"] == len(load_run(out).games)
    meta = summary["metagame"]  # every pairing was played: the Nash mix of the decks
    assert abs(sum(row["weight"] for row in meta["mix"]) - 1) < 1e-9


def test_simulate_renders_the_report_and_a_terminal_summary(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["simulate", "tinyduel", "--games", "100", "--jobs", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Seats" in result.output and "Cards by IWD" in result.output
    assert (out / "report.html").exists() and (out / "report.md").exists()


def test_report_refuses_a_folder_that_is_no_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "not a run folder" in result.output
