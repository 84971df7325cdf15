"""The code is the documentation: it stays linted, formatted and type-checked (STYLE.md)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "balance", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted() -> None:
    result = run("ruff", "format", "--check", "balance", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_agrees_with_the_type_hints() -> None:
    result = run("mypy", "--config-file", "pyproject.toml")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr


def test_mypy_is_strict_outside_the_game_packages() -> None:
    """README "Adding a game": strict everywhere but balance/games, which relaxes some checks."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy.get("strict") is True
    assert mypy.get("files") == ["balance"]
    for override in mypy.get("overrides", []):
        modules = override["module"]
        for module in [modules] if isinstance(modules, str) else modules:
            assert module == "balance.games.*", f"{module} is not strict"
