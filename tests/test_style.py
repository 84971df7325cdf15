"""The code is the documentation: it stays linted, formatted and type-checked (STYLE.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from balance.core.registry import builtin_names

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


def test_every_game_package_gives_the_contract_types(tmp_path: Path) -> None:
    """mypy checks what each shipped game's modules give against the contract's protocols (a
    spec, a state, a vocabulary): `GamePackage` hands them on under those types unchecked."""
    lines = [
        "from pathlib import Path",
        "from balance.core.contract import GameSpec, State",
        "from balance.core.effects import Vocabulary",
    ]
    for name in builtin_names():
        package = f"balance.games.{name}"
        lines += [
            f"from {package} import cards as {name}_cards, effects as {name}_effects",
            f"from {package} import rules as {name}_rules",
            f"{name}_spec = {name}_cards.load_spec(Path(), None)",
            f"{name}_as_spec: GameSpec = {name}_spec",
            f"{name}_state: State = {name}_rules.new_game({name}_spec, [], 0)",
            f"{name}_vocabulary: Vocabulary = {name}_effects.VOCABULARY",
        ]
    check = tmp_path / "game_types.py"
    check.write_text("\n".join(lines) + "\n")
    result = run("mypy", "--config-file", "pyproject.toml", str(check))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr


def test_mypy_is_strict_on_the_whole_package() -> None:
    """README "Adding a game": every module, the five games included, is checked with --strict;
    no override relaxes a part of it."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy.get("strict") is True
    assert mypy.get("files") == ["balance"]
    relaxed = [o["module"] for o in mypy.get("overrides", []) if set(o) - {"module"}]
    assert not relaxed, f"mypy relaxes {relaxed}"


def test_no_write_into_a_frozen_slot_and_no_class_swap() -> None:
    """STYLE.md: no `object.__setattr__` past a frozen dataclass, no `__class__` swap (a lazy
    decision is `Decision.lazy`, which the contract supports)."""
    found = []
    for path in sorted((ROOT / "balance").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute):
                if node.attr == "__setattr__" and ast.unparse(node.value) == "object":
                    found.append(f"{where}: object.__setattr__")
                elif node.attr == "__class__" and isinstance(node.ctx, ast.Store):
                    found.append(f"{where}: __class__ assigned")
            if isinstance(node, ast.Constant) and node.value == "__class__":
                found.append(f"{where}: '__class__' named as a string")
    assert not found, "\n".join(found)
