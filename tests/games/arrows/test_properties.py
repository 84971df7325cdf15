"""arrows' properties over random games: every game ends; cards are conserved across deck, hand,
grid, graveyard and removed; credits never go negative; damage accumulates within a turn and
clears at its end."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from balance.core.registry import load_game

GAME = load_game("arrows")
SPEC = GAME.load(GAME.config_dir)
DECKS = sorted(SPEC.catalog.decks)
PROPERTY = settings(max_examples=25, deadline=None)
games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(DECKS), st.sampled_from(DECKS))


def random_game(seed: int, lineup: list[str]):
    """Yield the state after every choice of a uniformly random game."""
    state = GAME.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    yield state
    while (decision := state.decision()) is not None:
        state.apply(chooser.randrange(len(decision.options)))
        yield state


@PROPERTY
@given(games)
def test_every_game_ends(game) -> None:
    seed, a, b = game
    for steps, state in enumerate(random_game(seed, [a, b])):
        assert steps < SPEC.decision_cap
    result = state.result()
    assert result.end_reason in ("board_full", "stall", "turn_cap")
    assert result.turns <= SPEC.max_turns
    assert sum(result.scores) == 1.0


@PROPERTY
@given(games)
def test_cards_are_conserved(game) -> None:
    seed, a, b = game
    expected = sorted(
        [c for d in (a, b) for c, n in SPEC.catalog.decks[d].items() for _ in range(n)]
    )
    for state in random_game(seed, [a, b]):
        zones = [*state.decks, *state.hands, *state.graveyards, state.removed]
        cards = [c for zone in zones for c in zone] + [p.card for p in state.grid if p is not None]
        assert sorted(cards) == expected
        assert len(state.pieces) == sum(p is not None for p in state.grid)


@PROPERTY
@given(games)
def test_credits_never_go_negative(game) -> None:
    """Deferred costs are paid only when affordable (else the card goes unpaid to the graveyard)."""
    seed, a, b = game
    for state in random_game(seed, [a, b]):
        assert min(state.credits) >= 0


@PROPERTY
@given(games)
def test_damage_accumulates_within_a_turn_and_clears_at_its_end(game) -> None:
    seed, a, b = game
    turn = 0
    seen: dict[int, int] = {}  # uid -> damage this turn
    for state in random_game(seed, [a, b]):
        if state.turn != turn:
            if not state.over:
                assert all(p.damage == 0 for p in state.pieces.values()), "step 9 clears damage"
            turn = state.turn
            seen = {}
        for uid, piece in state.pieces.items():
            assert piece.damage >= seen.get(uid, 0), "damage never heals within a turn"
            seen[uid] = piece.damage
