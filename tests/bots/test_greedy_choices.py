"""The greedy bot's choices, pinned: speed work on a game's clone, apply, decisions and
evaluation must leave every choice as it was.

For each pinned game, positions come from seeded games: every decision of two or more options
in games played by random bots (greedy is asked there with a stream of its own per position),
and every choice along games that greedy plays against itself. The choices made on the code of
the day the fixture was written are in `greedy_choices.json`; the same positions must give the
same choices now, so the same bot makes the same games, only faster.

A change meant to change what greedy chooses (an evaluation tuned, the bot's search changed) is
measured first (greedy against the old greedy over mirrored seeds), then the fixture is written
again: `python tests/bots/test_greedy_choices.py GAME ...`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from random import Random

import pytest

from balance.bots import make_bot
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.schedule import lineup_decks

FIXTURE = Path(__file__).with_name("greedy_choices.json")
POSITIONS = 2000  # per game, at least: seeds 1, 2, ... are played until there are as many


def choices(name: str, seeds: list[int]) -> dict[str, list[int]]:
    """Greedy's choices in game `name`: per seed, in a random game and in a greedy game."""
    game = load_game(name)
    spec = game.load(game.config_dir)
    seats = game.info.min_seats
    pairings = lineup_decks(spec.catalog, "all", seats)
    greedy = make_bot("greedy")
    out: dict[str, list[int]] = {}
    for seed in seeds:
        lineup = pairings[seed % len(pairings)]
        picked: list[int] = []
        state = game.new_game(spec, lineup, seed)
        play = Random(seed)  # the random players' stream
        k = 0
        while (decision := state.decision()) is not None:
            if len(decision.options) > 1:
                picked.append(greedy.choose(state, decision, Random(f"{name}/{seed}/{k}")))
                k += 1
            state.apply(play.randrange(len(decision.options)))
        out[f"random/{seed}"] = picked
        along: list[int] = []
        record = play_game(
            game,
            spec,
            lineup,
            [greedy] * seats,
            seed,
            trace=lambda state, decision, option, along=along: along.append(option),
        )
        assert not record.error, record.trace
        out[f"greedy/{seed}"] = along
    return out


PINNED: dict[str, dict[str, list[int]]] = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", sorted(PINNED))
def test_greedy_chooses_as_pinned(name: str) -> None:
    seeds = sorted({int(key.split("/")[1]) for key in PINNED[name]})
    now = choices(name, seeds)
    assert now.keys() == PINNED[name].keys()
    for key, pinned in PINNED[name].items():
        made = now[key]
        first = next(
            (i for i, (a, b) in enumerate(zip(made, pinned, strict=False)) if a != b), None
        )
        assert made == pinned, (
            f"{name} {key}: greedy chose differently from position {first} on "
            f"({len(made)} choices now, {len(pinned)} pinned); see this module's docstring"
        )
    assert sum(map(len, now.values())) >= POSITIONS


if __name__ == "__main__":  # write the fixture for the games named (see the docstring)
    pinned = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}
    for game_name in sys.argv[1:]:
        pinned[game_name] = {}
        seed = 0
        while sum(map(len, pinned[game_name].values())) < POSITIONS:
            seed += 1
            pinned[game_name].update(choices(game_name, [seed]))
        print(game_name, {key: len(made) for key, made in pinned[game_name].items()})
    lines = ",\n".join(
        f'  "{game_name}": {{\n'
        + ",\n".join(f'    "{key}": {json.dumps(made)}' for key, made in by_key.items())
        + "\n  }"
        for game_name, by_key in sorted(pinned.items())
    )
    FIXTURE.write_text("{\n" + lines + "\n}\n")
