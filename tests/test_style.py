"""The code is the documentation: it stays linted, formatted and type-checked (STYLE.md)."""

from __future__ import annotations

import subprocess
import sys
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
