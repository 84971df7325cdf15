"""The game RNG door: copy-on-first-draw forks, and the exact and fast shuffles."""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from balance.core.gamerng import (
    GameRng,
    below,
    exact_shuffle,
    fast_deal,
    fast_shuffle,
    sample_indices,
)


@given(seed=st.integers(0, 2**64 - 1), size=st.integers(0, 80))
def test_the_exact_shuffle_is_random_shuffle_to_the_last_draw(seed: int, size: int) -> None:
    ours, theirs = Random(seed), Random(seed)
    cards, expected = list(range(size)), list(range(size))
    exact_shuffle(cards, ours)
    theirs.shuffle(expected)
    assert cards == expected
    assert ours.getstate() == theirs.getstate()  # the stream goes on identically


@given(seed=st.integers(0, 2**64 - 1), sizes=st.lists(st.integers(1, 2**70), max_size=30))
def test_below_is_randrange_to_the_last_draw(seed: int, sizes: list[int]) -> None:
    ours, theirs = Random(seed), Random(seed)
    assert [below(n, ours) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**32), st.integers(1, 400), st.integers(1, 40))
def test_sample_indices_is_random_sample_to_the_last_draw(seed: int, n: int, k: int) -> None:
    k = min(k, n)  # both its pool method (n up to Random.sample's set size) and its set method
    ours, theirs = Random(seed), Random(seed)
    assert sample_indices(n, k, ours) == theirs.sample(range(n), k)
    assert ours.random() == theirs.random()


def test_the_fast_shuffle_deals_every_order_alike() -> None:
    rng = Random(3)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        cards = [0, 1, 2]
        fast_shuffle(cards, rng)
        seen[tuple(cards)] += 1
    assert len(seen) == 6
    assert all(900 <= n <= 1100 for n in seen.values()), seen  # 1000 each, sd 29


def test_a_stream_is_random_of_its_seed_made_at_the_first_draw() -> None:
    rng = GameRng(42)
    deck = list(range(30))
    rng.shuffle(deck)
    expected, plain = list(range(30)), Random(42)
    plain.shuffle(expected)
    assert deck == expected
    assert rng.stream().random() == plain.random()


def test_forks_share_a_stream_until_one_draws_and_never_move_each_other() -> None:
    rng = GameRng(7)
    rng.stream().random()  # made: forks now share it
    copy = rng.fork()
    assert copy.stream() is not rng.stream()  # each copied it before its first draw
    first = [rng.stream().random() for _ in range(5)]
    assert [copy.stream().random() for _ in range(5)] == first
    again = copy.fork()
    then = [copy.stream().random() for _ in range(3)]
    assert [again.stream().random() for _ in range(3)] == then
    assert [rng.stream().random() for _ in range(3)] == then


def test_a_fork_of_an_unmade_stream_makes_its_own() -> None:
    rng = GameRng(9)
    copy = rng.fork()
    assert copy.stream().random() == rng.stream().random() == Random(9).random()


def test_the_fast_deal_puts_every_card_in_front_alike() -> None:
    rng = Random(5)
    front: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        cards = [0, 1, 2, 3]
        fast_deal(cards, 2, rng)
        assert sorted(cards) == [0, 1, 2, 3]
        front[tuple(cards[:2])] += 1
    assert len(front) == 12  # every ordered pair of the four
    assert all(400 <= n <= 600 for n in front.values())  # 500 each expected
