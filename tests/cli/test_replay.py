"""`balance replay` reads as a game: a header (game, seed, decks, bots, overrides), a marker as
each turn begins with the game's public state, then the decisions."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from balance.cli import app


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def test_replay_from_a_run_has_a_header_turn_markers_and_the_public_state(tmp_path: Path) -> None:
    out = tmp_path / "run"
    made = invoke("simulate", "tinyduel", "--games", "8", "--bots", "greedy,random", "--jobs",
                  "1", "--out", str(out), "--no-report", "--set", "rules.points_to_win=3")  # fmt: skip
    assert made.exit_code == 0, made.output
    result = invoke("replay", str(out), "--game", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert re.match(rf"tinyduel \(rules_version \w+\) \(run {re.escape(str(out))}, game 3\): "
                    r"seed \d+, seat rotation \d", lines[0]), lines[0]  # fmt: skip
    assert re.match(r"  seat 0: deck \w+, bot (greedy|random)$", lines[1])
    assert re.match(r"  seat 1: deck \w+, bot (greedy|random)$", lines[2])
    assert lines[3] == "  overrides: rules.points_to_win=3"
    markers = [line for line in lines if line.startswith("-- turn ")]
    assert markers[0].startswith("-- turn 1 --  round 1; seat 0: 0 points, hand ")
    numbers = [int(m.split()[2]) for m in markers]
    assert numbers == sorted(set(numbers)) and len(numbers) >= 2
    # each marker comes right before the first decision of its turn
    first = lines.index(markers[0])
    assert re.match(r"\s+1  seat \d  play", lines[first + 1])


def test_replay_from_a_seed_names_its_players() -> None:
    result = invoke("replay", "tinyduel", "--seed", "11", "--bots", "random")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("tinyduel (rules_version ") and "seed 11" in lines[0]
    assert [re.sub(r"deck \w+", "deck D", line) for line in lines[1:4]] == [
        "  seat 0: deck D, bot random",
        "  seat 1: deck D, bot random",
        "  overrides: none",
    ]
    assert "-- turn 1 --" in result.output
