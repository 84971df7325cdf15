"""possession's copies: a clone shares what it may (the RNG until a draw, the card ids until a
determinization) and is still exact and independent of its original."""

from __future__ import annotations

import copy
import dataclasses
from random import Random

import pytest
from possession_kit import begin, make_spec, put, table

from balance.core.registry import load_game
from balance.games.possession.effects import might
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
    first = [t.rng.stream().random() for _ in range(5)]
    assert [copy.rng.stream().random() for _ in range(5)] == first, "the clone's stream moved"
    again = copy.clone()
    assert [again.rng.stream().random() for _ in range(3)] == [
        copy.rng.stream().random() for _ in range(3)
    ]
    assert t.rng.stream() is not copy.rng.stream() and copy.rng.stream() is not again.rng.stream()


def test_a_clone_of_a_clone_that_never_draws_keeps_the_stream_of_the_original() -> None:
    t = midgame()
    expected = t.clone().rng.stream().getstate()
    copies = [t.clone() for _ in range(3)]
    t.rng.stream().random()  # the original draws first: its clones must not move
    assert all(c.rng.stream().getstate() == expected for c in copies)


def test_a_determinization_reseeds_from_the_bots_stream_and_leaves_the_original_alone() -> None:
    t = midgame()
    before = t.clone().rng.stream().getstate()
    bot = Random(9)
    seed = Random(9).getrandbits(64)
    sample = t.determinize(t.decision().seat, bot)
    assert sample.rng.stream().random() == Random(seed).random()
    assert t.rng.stream().getstate() == before
    assert sample.kind is not t.kind, "a determinization changes card ids on its own list"


def snapshot(t) -> dict:
    """Every field of the table but the spec, deep-copied."""
    return {
        name: copy.deepcopy(getattr(t, name))
        for name in (f.name for f in dataclasses.fields(t))
        if name not in ("spec", "rng", "rare_shared", "log")
    } | {"events": t.events}


@pytest.mark.parametrize("seats, deck", [(2, "no_vanilla"), (3, "no_vanilla"), (4, "starter_big")])
def test_a_clone_never_sees_what_its_original_writes_afterwards(seats, deck) -> None:
    """Shared lists (the rare ones, the card ids, the RNG) stay the clone's own: at each step a
    clone is kept, the original plays on, and the clone must read exactly as it did. These
    games see Glory, removals, ward and modifiers."""
    for seed in range(3):
        t = new_game(SPEC, [deck] * seats, seed)
        chooser = Random(seed)
        while (decision := t.decision()) is not None:
            kept = t.clone()
            before = snapshot(kept)
            t.apply(chooser.randrange(len(decision.options)))
            assert snapshot(kept) == before, f"seed {seed}: a clone changed with its original"


def test_a_modifier_for_the_turn_expires_on_the_original_only(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: booster, name: Booster, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, if: {turn: mine}, do: modify, target: self,
       stat: might, amount: 2, duration: turn}]}
""",
    )
    t = table(spec)
    c = put(t, "P0", "booster")
    begin(t)
    kept = t.clone()
    while t.turn_seat == 0:
        t.apply(0)
    assert might(t, c) == 1 and might(kept, c) == 3
