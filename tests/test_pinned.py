"""Pinned: what bots read of each game, and what greedy chooses, stay as they were through speed
work (issue 18), so a faster greedy or MCTS is the same player, no weaker by construction.

Both pins walk the same seeded games (`random_walk`: seed s plays lineup s of the game's `all`
pairings, random choices from `Random(s)`) and guard complementary sides:

- values, the game side. At every `every`-th decision, every option is applied to a copy of a
  determinized world, as greedy and MCTS do, and what the copy shows is digested: each seat's
  evaluation, exact to the bit, and the next decision's seat, kind and size. A change of
  `determinize`, `clone`, `apply`, `decision` or `evaluate` that keeps the digest keeps every
  bot's inputs.
- choices, the bot side. Greedy's choice (with the game's bot defaults) at every decision of two or more options of the same
  random games (asked with a stream of its own per position), and every choice along a game
  greedy plays against itself. A change of balance/bots/greedy.py (or of a game) that keeps them
  is the same greedy.

`pinned.json` holds both, made by the code before the speed-ups. A change meant to change what
bots see or choose (new evaluation weights, a rules fix, another greedy) is measured first
(greedy against the old greedy over mirrored seeds, win rate >= 0.50), then the game's pins are
written again: `python tests/test_pinned.py GAME ...`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from random import Random

import pytest

from balance.bots import for_game, make_bot
from balance.core.contract import Decision, Game, GameSpec, State
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.schedule import lineup_decks

FIXTURE = Path(__file__).with_name("pinned.json")
# per game: values digested over how many games, at every how many decisions
VALUES = {
    "arrows": (12, 2),
    "beings": (12, 1),
    "clans": (24, 1),
    "possession": (12, 1),
    "zynalith": (12, 3),
}
CHOICES = 2000  # greedy choices per game, at least: seeds 1, 2, ... are played until there are


@cache
def loaded(name: str) -> tuple[Game, GameSpec, list[tuple[str, ...]]]:
    """The game, its shipped spec and its `all` pairings (seed s plays pairing s)."""
    game = load_game(name)
    spec = game.load(game.config_dir)
    return game, spec, lineup_decks(spec.catalog, "all", game.info.min_seats)


def random_walk(name: str, seed: int) -> Iterator[tuple[State, Decision]]:
    """The decisions of seeded game `seed` of `name` played by random bots, each before its
    random choice is applied: one state, played on in place (at the end, the finished game)."""
    game, spec, pairings = loaded(name)
    state = game.new_game(spec, pairings[seed % len(pairings)], seed)
    play = Random(seed)  # the random players' stream
    while (decision := state.decision()) is not None:
        yield state, decision
        state.apply(play.randrange(len(decision.options)))


def values(name: str, games: int, every: int) -> tuple[str, int]:
    """The digest of what bots would read at every `every`-th decision of seeded random games
    1..`games`, and how many option positions went into it."""
    seats = loaded(name)[0].info.min_seats
    digest = hashlib.sha256()
    positions = 0
    for seed in range(1, games + 1):
        for step, (state, decision) in enumerate(random_walk(name, seed)):
            if step % every == 0:
                world = state.determinize(decision.seat, Random(step))
                for option in range(len(decision.options)):
                    copy = world.clone()
                    copy.apply(option)
                    after = copy.decision()
                    seen = [copy.evaluate(seat).hex() for seat in range(seats)]
                    if after is not None:
                        seen += [str(after.seat), after.kind, str(len(after.options))]
                    digest.update(" ".join(seen).encode() + b";")
                    positions += 1
        digest.update(repr(state.result().scores).encode())  # the walk's state, finished
    return digest.hexdigest()[:24], positions


def choices(name: str, seeds: list[int]) -> dict[str, list[int]]:
    """Greedy's choices in game `name`: per seed, in the random game and in a greedy game."""
    game, spec, pairings = loaded(name)
    seats = game.info.min_seats
    [spec_text] = for_game(game.info, ["greedy"])  # greedy as the game plays it
    greedy = make_bot(spec_text)
    out: dict[str, list[int]] = {}
    for seed in seeds:
        picked: list[int] = []
        for state, decision in random_walk(name, seed):
            if len(decision.options) > 1:
                stream = Random(f"{name}/{seed}/{len(picked)}")
                picked.append(greedy.choose(state, decision, stream))
        out[f"random/{seed}"] = picked
        along: list[int] = []

        def keep(_state: State, _decision: Decision, option: int, along: list[int] = along) -> None:
            along.append(option)

        record = play_game(
            game,
            spec,
            pairings[seed % len(pairings)],
            [greedy] * seats,
            seed,
            trace=keep,
        )
        assert not record.error, record.trace
        out[f"greedy/{seed}"] = along
    return out


PINNED: dict[str, dict] = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_bots_read_the_same_values_as_before_the_speed_ups(name: str) -> None:
    expected = PINNED["values"][name]
    assert list(values(name, *VALUES[name])) == expected, (
        f"{name}: what bots read of the game changed (see this module's docstring)"
    )


@pytest.mark.parametrize("name", sorted(VALUES))
def test_greedy_chooses_as_pinned(name: str) -> None:
    pinned: dict[str, list[int]] = PINNED["choices"][name]
    seeds = sorted({int(key.split("/")[1]) for key in pinned})
    now = choices(name, seeds)
    assert now.keys() == pinned.keys()
    for key, made_then in pinned.items():
        made = now[key]
        first = next(
            (i for i, (a, b) in enumerate(zip(made, made_then, strict=False)) if a != b), None
        )
        assert made == made_then, (
            f"{name} {key}: greedy chose differently from position {first} on "
            f"({len(made)} choices now, {len(made_then)} pinned); see this module's docstring"
        )
    assert sum(map(len, now.values())) >= CHOICES


def write(names: list[str]) -> None:
    """Pin the games named again (both sides), keeping the others as they are."""
    pinned = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}
    pinned.setdefault("values", {})
    pinned.setdefault("choices", {})
    for name in names:
        pinned["values"][name] = list(values(name, *VALUES[name]))
        made: dict[str, list[int]] = {}
        seed = 0
        while sum(map(len, made.values())) < CHOICES:
            seed += 1
            made.update(choices(name, [seed]))
        pinned["choices"][name] = made
        print(name, pinned["values"][name], {key: len(c) for key, c in made.items()})
    by_game = [
        f'    "{name}": {{\n'
        + ",\n".join(f'      "{key}": {json.dumps(c)}' for key, c in made.items())
        + "\n    }"
        for name, made in sorted(pinned["choices"].items())
    ]
    FIXTURE.write_text(
        '{\n  "values": {\n'
        + ",\n".join(f'    "{n}": {json.dumps(v)}' for n, v in sorted(pinned["values"].items()))
        + '\n  },\n  "choices": {\n'
        + ",\n".join(by_game)
        + "\n  }\n}\n"
    )


if __name__ == "__main__":  # pin the games named again (see the docstring)
    write(sys.argv[1:])
