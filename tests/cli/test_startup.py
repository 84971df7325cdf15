"""`balance --help` and `balance games` must start fast: nothing heavy is imported for them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pandas", "matplotlib", "scipy", "pyarrow", "joblib", "numpy")

PROBE = """
import sys
from typer.testing import CliRunner
from balance.cli import app
assert CliRunner().invoke(app, [{args}]).exit_code == 0
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))
rules = sorted(m for m in sys.modules if m.startswith("balance.games.") and m.count(".") > 2)
print(heavy, rules)
"""


def modules_loaded_by(*args: str) -> str:
    code = PROBE.format(args=", ".join(repr(a) for a in args), heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_help_and_games_import_no_data_library_and_no_game_rules() -> None:
    assert modules_loaded_by("--help") == "[] []"
    assert modules_loaded_by("games") == "[] []"
