"""Greedy and MCTS in every registered game: legal answers only, and their search never touches
the real game (its state, its RNG stream)."""

from __future__ import annotations

from random import Random

import pytest

from balance.bots import make_bot
from balance.core.registry import game_names, load_game
from balance.sim.play import play_game
from balance.sim.schedule import lineup_decks

BOTS = ["greedy", "mcts:iterations=12", "mcts:iterations=6,horizon=2,to_horizon=true"]


def setup(name: str, seed: int):
    game = load_game(name)
    spec = game.load(game.config_dir)
    catalog = spec.catalog
    seats = game.info.min_seats
    decks = [d for d in catalog.decks if seats in catalog.deck_seats.get(d, (seats,))]
    deck = decks[seed % len(decks)]
    if catalog.clash([deck] * seats):  # a deck that may not meet itself (clans' armies)
        pairings = lineup_decks(catalog, "all", seats)
        return game, spec, list(pairings[seed % len(pairings)])
    return game, spec, [deck] * seats


class Watched:
    """Wraps a bot: checks every answer is legal and the state is untouched by the search."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def choose(self, state, decision, rng: Random) -> int:
        before = (list(state.events), state.inventory(), state.decision())
        option = self.bot.choose(state, decision, rng)
        assert isinstance(option, int) and 0 <= option < len(decision.options)
        assert (list(state.events), state.inventory(), state.decision()) == before, (
            "the search changed the real game"
        )
        self.calls += 1
        return option


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", game_names())
def test_bots_answer_legally_and_leave_the_game_alone(name: str, bot: str) -> None:
    game, spec, lineup = setup(name, 1)
    watched = [
        Watched(make_bot(bot)) if seat == 0 else make_bot("random") for seat in range(len(lineup))
    ]
    record = play_game(game, spec, lineup, watched, seed=11)
    assert not record.error, record.trace
    assert watched[0].calls > 0


@pytest.mark.parametrize("name", game_names())
def test_search_never_moves_the_game_rng(name: str) -> None:
    """The same choices replayed without any bot give the same game: the greedy search drew
    nothing from the game's own stream."""
    game, spec, lineup = setup(name, 2)
    chosen: list[int] = []
    record = play_game(game, spec, lineup, [make_bot("greedy")] * len(lineup), seed=5,
                       trace=lambda state, decision, option: chosen.append(option))  # fmt: skip
    assert not record.error, record.trace
    state = game.new_game(spec, lineup, 5)
    for option in chosen:
        state.apply(option)
    assert state.events == record.events and state.result().scores == record.scores
