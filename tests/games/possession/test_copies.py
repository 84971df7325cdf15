"""possession's copies: a clone shares what it may (the RNG until a draw, the card ids until a
determinization) and is still exact and independent of its original."""

from __future__ import annotations

from random import Random

from balance.core.registry import load_game
from balance.games.possession.rules import new_game

GAME = load_game("possession")
SPEC = GAME.load(GAME.config_dir)


def midgame(seed: int = 5, steps: int = 40):
    t = new_game(SPEC, ["starter", "starter"], seed)
    chooser = Random(seed)
    for _ in range(steps):
        t.apply(chooser.randrange(len(t.decision().options)))
    return t


def test_a_clone_and_its_original_draw_the_same_numbers_independently() -> None:
    t = midgame()
    copy = t.clone()
    first = [t.stream().random() for _ in range(5)]
    assert [copy.stream().random() for _ in range(5)] == first, "the clone's stream moved"
    again = copy.clone()
    assert [again.stream().random() for _ in range(3)] == [copy.stream().random() for _ in range(3)]
    assert t.stream() is not copy.stream() and copy.stream() is not again.stream()


def test_a_clone_of_a_clone_that_never_draws_keeps_the_stream_of_the_original() -> None:
    t = midgame()
    expected = t.clone().stream().getstate()
    copies = [t.clone() for _ in range(3)]
    t.stream().random()  # the original draws first: its clones must not move
    assert all(c.stream().getstate() == expected for c in copies)


def test_a_determinization_reseeds_from_the_bots_stream_and_leaves_the_original_alone() -> None:
    t = midgame()
    before = t.clone().stream().getstate()
    bot = Random(9)
    seed = Random(9).getrandbits(64)
    sample = t.determinize(t.decision().seat, bot)
    assert sample.stream().random() == Random(seed).random()
    assert t.stream().getstate() == before
    assert sample.kind is not t.kind, "a determinization changes card ids on its own list"
