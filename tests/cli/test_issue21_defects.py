"""The small defects met while reading a report as a new user would (issue 21), one test each."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app
from balance.core.registry import load_game


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def test_a_finished_run_is_not_called_interrupted_and_the_last_line_names_the_report(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    result = invoke("simulate", "tinyduel", "--games", "40", "--bots", "random", "--jobs", "1",
                    "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (
        result.output.strip().splitlines()[-1]
        == f"wrote {out / 'report.html'} (open it in a browser)"
    )
    assert "players: random in every seat" in result.output.lower()
    markdown = (out / "report.md").read_text()
    assert "| interrupted | no |" in markdown
    assert "| interrupted | yes |" not in markdown


def test_a_misspelt_card_field_is_named_not_only_the_missing_one(tmp_path: Path) -> None:
    config = tmp_path / "beings"
    shutil.copytree(load_game("beings").config_dir, config)
    cards = config / "cards.yaml"
    text = cards.read_text()
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "power: 2" in row)
    cards.write_text(text.replace("power: 2", "powr: 2", 1))
    result = invoke("validate", "beings", "--config", str(config))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {cards}:{line}: unknown field 'powr', and power is missing (did you mean power?)"
    )


def test_an_override_that_breaks_a_cross_card_rule_is_blamed() -> None:
    result = invoke("validate", "beings", "--set", "cards.ember_fox_1.type=Water")
    assert result.exit_code == 2
    assert result.output.startswith("error: --set cards.ember_fox_1.type=Water: card 'ember_fox_1'")


def test_sweep_prints_its_table_with_whole_numbers(tmp_path: Path) -> None:
    result = invoke("sweep", "tinyduel", "--vary", "rules.points_to_win=2:3", "--games", "20",
                    "--bots", "random", "--jobs", "1", "--out", str(tmp_path / "s"))  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if re.match(r"\s*[23]\s", line)]
    assert [row[0] for row in rows] == ["2", "3"], result.output
    assert "2.0" not in (tmp_path / "s" / "sweep.md").read_text()
