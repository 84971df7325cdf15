"""Imports point one way (DESIGN.md): cli -> gate/tune -> sim, stats, report; sim -> bots -> core;
games/<game> -> core; report -> stats. No game imports another game; core imports nothing above it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1] / "balance"

# layer -> the layers it may import (besides itself)
ALLOWED = {
    "core": set(),
    "games": {"core"},
    "bots": {"core"},
    "sim": {"bots", "core"},
    "stats": {"core"},
    "report": {"stats", "core"},
    "impact": {"tune", "sim", "stats", "report", "bots", "core"},
    "gate": {"impact", "tune", "sim", "stats", "report", "bots", "core"},
    "tune": {"sim", "stats", "report", "bots", "core"},
    "ladder": {"sim", "stats", "report", "bots", "core"},
    "cli": {"gate", "impact", "tune", "ladder", "sim", "stats", "report", "bots", "core", "games"},
}


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return [name for name in found if name.startswith("balance.")]


def test_imports_point_one_way() -> None:
    wrong = []
    for path in ROOT.rglob("*.py"):
        module = "balance." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
        layer = layer_of(module)
        if layer not in ALLOWED:
            continue
        for target in imports_of(path):
            target_layer = layer_of(target)
            if target_layer == layer:
                if layer == "games" and target.split(".")[2] != module.split(".")[2]:
                    wrong.append(f"{module} -> {target} (a game imports another game)")
                continue
            if target_layer not in ALLOWED[layer] and target != "balance":
                wrong.append(f"{module} -> {target}")
    assert not wrong, "imports pointing the wrong way:\n" + "\n".join(wrong)
