"""The README's command examples that do not need long runs are run as written (in a scratch
folder), and each `--set` example it gives is validated: an example the tool refuses is a bug."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app

README = (Path(__file__).parents[2] / "README.md").read_text()
# what a quick example may run: a long run (the quick start, millions of games, a cluster, the
# gate, tuning) is left to the user
LONG = re.compile(r"--games [0-9]{4,}|--backend|--resume|\b(check|sweep|tune|ladder|bench)\b")


def examples() -> list[str]:
    """Every `balance ...` line of the README's bash blocks."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.DOTALL):
        for line in block.splitlines():
            command = line.split("#")[0].strip().removeprefix(".venv/bin/")
            if command.startswith("balance "):
                lines.append(command)
    return lines


QUICK = [c for c in examples() if not LONG.search(c) and "--games" in c or c.split()[1] in
         ("compare", "report", "replay", "games", "vocab", "validate")]  # fmt: skip


def test_the_readme_has_quick_examples() -> None:
    assert any(c.startswith("balance compare") for c in QUICK)
    assert any(c.startswith("balance replay") for c in QUICK)


def test_the_readme_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # reports/... lands in the scratch folder
    for command in QUICK:
        result = CliRunner().invoke(app, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"


@pytest.mark.parametrize("pair", sorted(set(re.findall(r"`--set ([\w.]+=\w+)`", README))))
def test_each_set_example_is_valid_or_said_to_be_refused(pair: str) -> None:
    result = CliRunner().invoke(app, ["validate", "beings", "--set", pair])
    said_refused = re.search(rf"`--set {re.escape(pair)}`: [^)]*\)", README) is not None
    assert (result.exit_code == 2) == said_refused, result.output
