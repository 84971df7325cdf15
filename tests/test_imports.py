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


# Inside a game package the modules are layered, each importing only those before it: the
# compiled spec and its codes; the state and its zone verbs; the effects; the heuristics
# (evaluation, greedy hooks); the rules (the turn flow and the contract class); the YAML
# compiler; the package. The heuristics sit below the rules because the contract class answers
# `evaluate()` and `option_bounds()` with them (DESIGN.md's "Inside a game" lists them the other
# way round); a heuristic that plays options ahead does it through the state's methods.
GAME_LAYERS = ("spec", "state", "effects", "heuristics", "rules", "cards", "__init__")


def game_imports(path: Path, package: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a module of `package` in `path`: at top level, in a
    function or under TYPE_CHECKING, absolute or relative, `from package import module` too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1:
                names = ["<above the package>"]
            elif node.level == 1:
                base = package + ("." + node.module if node.module else "")
                names = [base] if node.module else [f"{base}.{a.name}" for a in node.names]
            elif node.module == package:
                names = [f"{package}.{a.name}" for a in node.names]
            elif node.module:
                names = [node.module]
        for name in names:
            if name == package or name.startswith((package + ".", "<")):
                found.append((node.lineno, name))
    return found


# The template game (README "Adding a game") is layered the same way.
TEMPLATE = Path(__file__).parent / "tinygame" / "site" / "tinyduel"


def test_game_modules_are_layered() -> None:
    wrong = []
    games = sorted(p for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists())
    assert len(games) >= 5
    packages = [(game, f"balance.games.{game.name}") for game in games] + [(TEMPLATE, "tinyduel")]
    for game, package in packages:
        missing = set(GAME_LAYERS) - {path.stem for path in game.glob("*.py")}
        wrong += [f"{game.name} has no {name}.py" for name in sorted(missing)]
        for path in sorted(game.glob("*.py")):
            where = f"{game.name}/{path.name}"
            if path.stem not in GAME_LAYERS:
                wrong.append(f"{where} is not one of the layers {GAME_LAYERS}")
                continue
            for line, target in game_imports(path, package):
                module = target.removeprefix(package).lstrip(".")
                module = module.split(".")[0] or "__init__"
                if module not in GAME_LAYERS:
                    wrong.append(f"{where}:{line} imports {target}, not a layer")
                elif GAME_LAYERS.index(module) >= GAME_LAYERS.index(path.stem):
                    wrong.append(f"{where}:{line} imports {module} (a layer above or beside it)")
    assert not wrong, "game modules importing against the layers:\n" + "\n".join(wrong)
