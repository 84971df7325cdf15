"""Pinned values: what the bots read of a game stays exactly as it was through speed-ups.

Greedy and MCTS see a game only through `determinize`, `clone`, `apply`, `decision` and
`evaluate`. A speed-up of those (issue 18) must leave every value the bots compute unchanged, and
so every choice they make from the same RNG state: then the faster greedy is the same player,
no weaker by construction. This test walks seeded random games and, at their decisions, applies
every option to a copy of a determinized world as greedy does, and digests what the copy shows
(each seat's evaluation, exact to the bit, and the next decision's seat, kind and size).

The digests were made by the code before the speed-ups. A change that means to change what
bots see (new evaluation weights, a rules change) updates them with this file's `__main__`
(`python tests/test_pinned_values.py GAME`) and shows with a duel that greedy is no weaker.
"""

from __future__ import annotations

import hashlib
import sys
from random import Random

import pytest

from balance.core.registry import load_game
from balance.sim.schedule import make_schedule

# game -> (games walked, every how many decisions a position is digested, digest, positions)
PINNED = {
    "possession": (24, 1, "1a795c0055eafdf287d5d75a", 13932),
    "zynalith": (12, 3, "20d74da2db2e067627e8fde1", 19836),
}


def fingerprint(name: str, games: int, every: int) -> tuple[str, int]:
    """The digest of what greedy would read at the decisions of `games` seeded random games,
    and how many option positions went into it."""
    game = load_game(name)
    spec = game.load(game.config_dir)
    schedule = make_schedule(
        game.info, spec.catalog, "all", ["random"], None, games=games, run_seed=18
    )
    digest = hashlib.sha256()
    positions = 0
    for i in range(games):
        slot = schedule.slot(i)
        state = game.new_game(spec, slot.lineup.decks, slot.seed)
        seats = len(slot.lineup.decks)
        chooser = Random(slot.seed)
        step = 0
        while (decision := state.decision()) is not None:
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
            state.apply(chooser.randrange(len(decision.options)))
            step += 1
        digest.update(repr(state.result().scores).encode())
    return digest.hexdigest()[:24], positions


@pytest.mark.parametrize("name", sorted(PINNED))
def test_bots_read_the_same_values_as_before_the_speed_ups(name: str) -> None:
    games, every, expected, positions = PINNED[name]
    assert fingerprint(name, games, every) == (expected, positions), (
        f"{name}: what bots read of the game changed (see this file's docstring)"
    )


if __name__ == "__main__":
    for game_name in sys.argv[1:] or sorted(PINNED):
        print(game_name, fingerprint(game_name, *PINNED[game_name][:2]))
