"""The contract every registered game passes (STYLE.md item 9), the tiny plug-in game included."""

from __future__ import annotations

import random
from random import Random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.core.registry import game_names, load_game

GAMES = game_names()
SPECS: dict[str, object] = {}
PROPERTY = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def spec_of(name: str):
    if name not in SPECS:
        game = load_game(name)
        SPECS[name] = game.load(game.config_dir)
    return SPECS[name]


def lineup_for(name: str, seed: int) -> list[str]:
    game = load_game(name)
    catalog = spec_of(name).catalog
    rng = Random(seed)
    seats = rng.randint(game.info.min_seats, game.info.max_seats)
    decks = [d for d in sorted(catalog.decks) if seats in catalog.deck_seats.get(d, (seats,))]
    deck = rng.choice(decks)
    if deck in catalog.shared:
        return [deck] * seats
    own = [d for d in decks if d not in catalog.shared]
    while True:  # decks that hold something in common never meet (Catalog.exclusive)
        lineup = [rng.choice(own) for _ in range(seats)]
        if catalog.clash(lineup) is None:
            return lineup


def play_random(name: str, seed: int, lineup: list[str], burn: bool = False):
    """Play with uniform random choices from their own stream; return the state and choices."""
    game = load_game(name)
    spec = spec_of(name)
    state = game.new_game(spec, lineup, seed)
    chooser = Random(seed + 1)
    choices: list[int] = []
    while (decision := state.decision()) is not None:
        assert len(decision.options) > 0, "a decision offered no option"
        assert 0 <= decision.seat < len(lineup)
        assert len(choices) < spec.decision_cap, "game did not end within its decision cap"
        option = chooser.randrange(len(decision.options))
        if burn:
            random.random()
            np.random.random()
        choices.append(option)
        state.apply(option)
    return state, choices


def replay(name: str, seed: int, lineup: list[str], choices: list[int]):
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    for option in choices:
        state.apply(option)
    return state


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_with_valid_scores(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    state, _ = play_random(name, seed, lineup)
    assert state.decision() is None
    result = state.result()
    assert len(result.scores) == len(lineup)
    assert sum(result.scores) == pytest.approx(1.0)
    assert result.winner is None or result.scores[result.winner] == 1.0


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_seed_and_choices_replay_the_game(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    played, choices = play_random(name, seed, lineup)
    replayed = replay(name, seed, lineup, choices)
    assert replayed.events == played.events
    assert replayed.result() == played.result()


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_global_random_streams_change_nothing(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    quiet, _ = play_random(name, seed, lineup)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    noisy, _ = play_random(name, seed, lineup, burn=True)
    assert noisy.events == quiet.events
    assert noisy.result() == quiet.result()


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_turns_only_grow(name: str, seed: int) -> None:
    """`turn` is what search bots stop at: a whole number that never goes back, and moves at all
    (a game of one endless turn gives search no horizon)."""
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    state = load_game(name).new_game(spec_of(name), lineup, seed)
    seen = [state.turn]
    for option in choices:
        state.apply(option)
        assert isinstance(state.turn, int)
        assert seen[-1] <= state.turn, "the turn went back"
        seen.append(state.turn)
    assert seen[-1] > seen[0] or len(choices) < 2


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_clones_of_earlier_states_never_change(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    checkpoints = set(range(0, len(choices), max(1, len(choices) // 8)))
    kept = []  # (step, clone, its events then, its decision then)
    for step, option in enumerate(choices):
        if step in checkpoints:
            copy = state.clone()
            kept.append((step, copy, list(copy.events), copy.decision()))
        state.apply(option)
    for step, copy, events, decision in kept:
        assert copy.events == events, f"clone from step {step} changed as play went on"
        assert copy.decision() == decision
        for option in choices[step:]:
            copy.apply(option)
        assert copy.events == state.events, f"clone from step {step} replays differently"
        assert copy.result() == state.result()


def observed(state, seats: int) -> tuple:
    """All a caller can see of a state: the pending decision and its options in words, every
    seat's evaluation, the public line, the cards, the events and the turn."""
    decision = state.decision()
    described = [state.describe(i) for i in range(len(decision.options))] if decision else []
    return (
        decision,
        described,
        [state.evaluate(s) for s in range(seats)],
        state.public_summary(),
        state.inventory(),
        state.events,
        state.turn,
    )


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_what_a_clone_does_never_reaches_the_original(name: str, seed: int) -> None:
    """clone()'s copy-on-write contract (core/contract.py, State.clone): the original may share
    its RNG and zones with its copies, but nothing a copy does reaches it. Along a seeded game,
    the state is cloned (a clone, a clone of that clone, a determinized world) at many points
    and the copies are played to their ends on other choices, turn about; the original must
    look exactly like a twin that was never cloned, and go on to play the same game."""
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    twin = game.new_game(spec_of(name), lineup, seed)  # never cloned
    seats = len(lineup)
    other = Random(seed + 2)  # the copies' choices: another stream than the game's
    every = max(1, len(choices) // 12)
    for step, option in enumerate(choices):
        if step % every == 0:
            copy = state.clone()
            assert observed(copy, seats) == observed(state, seats), "the clone is not exact"
            copies = [copy, copy.clone(), state.determinize(state.decision().seat, Random(step))]
            while copies:  # one choice each in turn, so that their copy-on-writes interleave
                for branch in copies:
                    if (d := branch.decision()) is not None:
                        branch.apply(other.randrange(len(d.options)))
                copies = [branch for branch in copies if branch.decision() is not None]
            assert observed(state, seats) == observed(twin, seats), (
                f"playing its clones from step {step} changed the original"
            )
        state.apply(option)
        twin.apply(option)
    assert observed(state, seats) == observed(twin, seats), "the original played on differently"
    assert state.result() == twin.result()


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_determinize_keeps_what_the_seat_knows(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    every = max(1, len(choices) // 6)
    for step, option in enumerate(choices):
        if step % every == 0:
            decision = state.decision()
            seat = decision.seat
            before = (list(state.events), state.inventory(), decision)
            sample = state.determinize(seat, Random(step))
            assert (list(state.events), state.inventory(), state.decision()) == before
            assert sample.decision() == decision, "the seat's own options changed"
            assert sample.evaluate(seat) == pytest.approx(state.evaluate(seat))
            assert sample.inventory() == state.inventory(), "determinize lost or made cards"
            chooser = Random(step)
            while (d := sample.decision()) is not None:
                sample.apply(chooser.randrange(len(d.options)))
        state.apply(option)


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved(name: str, seed: int) -> None:
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    start = state.inventory()
    for option in choices:
        state.apply(option)
        assert state.inventory() == start
    for value in (state.evaluate(s) for s in range(len(lineup))):
        assert -1.0 <= value <= 1.0


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_public_summary_reads_only_public_information(name: str, seed: int) -> None:
    """Replay prints it each turn: every seat's determinized world has the same line (a line
    that named a hidden card would change with the reshuffle), and it follows the game."""
    lineup = lineup_for(name, seed)
    _, choices = play_random(name, seed, lineup)
    game = load_game(name)
    state = game.new_game(spec_of(name), lineup, seed)
    lines = {state.public_summary()}
    every = max(1, len(choices) // 6)
    for step, option in enumerate(choices):
        if step % every == 0:
            line = state.public_summary()
            assert isinstance(line, str) and line and "\n" not in line
            for seat in range(len(lineup)):
                world = state.determinize(seat, Random(step * 7 + seat))
                assert world.public_summary() == line, f"seat {seat}'s world differs"
        state.apply(option)
        lines.add(state.public_summary())
    assert len(lines) > 1, "the line never changed over a whole game"
