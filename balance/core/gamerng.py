"""A game's own random stream, the one door every draw of a game goes through, and the kit's two
shuffles.

A game state holds one `GameRng`. Its `clone()` hands the copy `rng.fork()`: both sides then
share one `Random` until either draws, and the first to draw takes a private copy of it before
the draw (copy-on-first-draw, `State.clone`'s contract in core/contract.py). Most clones a search
makes never draw, and copying a `Random` (625 words of state) would cost more than the rest of
the clone. A determinized world gets `GameRng(bot_rng.getrandbits(64))`, whose `Random` is made
only if the world ever draws.

The two shuffles:
- `exact_shuffle` is the game's shuffle: the very order `Random.shuffle` gives from the same
  stream, leaving the stream where `Random.shuffle` leaves it (a seed replays the same game on
  any CPython), at about half its cost (its `_randbelow` written inline).
- `fast_shuffle` is declared for search worlds only (determinize, with the bot's stream): random
  keys sorted at C speed. Uniform but for ties among its 53-bit keys (chance about n^2/2^54
  for n cards: 2^-42 for 60); a different order from `exact_shuffle`'s for the same stream.
  `fast_deal` is its partial form for a world that deals only a hidden hand (clans): k random
  cards to the front, the rest's order left to be drawn at random.
"""

from __future__ import annotations

import math
from random import Random


def below(n: int, rng: Random) -> int:
    """A number in [0, n), exactly `rng.randrange(n)` (the same draw from the same stream) at
    half its cost: randrange's argument checks and two calls skipped. For the random bot, whose
    draw is a fair part of a random game's decision."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:  # rejection, as Random._randbelow: every number equally likely
        r = getrandbits(k)
    return r


def sample_indices(n: int, k: int, rng: Random) -> list[int]:
    """`k` distinct numbers in [0, n), exactly `rng.sample(range(n), k)` (the same numbers in the
    same order, the stream left where it leaves it) for 0 < k <= n: its pool method written with
    `below`'s draw inline, at about half its cost; where `Random.sample` would keep a set of
    those drawn instead (n far above k), it is that. For search bots' sampled option lists."""
    setsize = 21  # Random.sample's own choice between its pool and set methods
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n > setsize:
        return rng.sample(range(n), k)
    getrandbits = rng.getrandbits
    pool = list(range(n))
    result = [0] * k
    for i in range(k):
        m = n - i
        bits = m.bit_length()
        j = getrandbits(bits)
        while j >= m:  # rejection, as Random._randbelow
            j = getrandbits(bits)
        result[i] = pool[j]
        pool[j] = pool[m - 1]  # the last still in the pool takes the place of the one drawn
    return result


def exact_shuffle(cards: list[int], rng: Random) -> None:
    """Shuffle `cards` in place exactly as `rng.shuffle(cards)` would (tests/core pins it)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:  # rejection, as Random._randbelow: every index equally likely
            r = getrandbits(k)
        cards[i], cards[r] = cards[r], cards[i]


def fast_deal(cards: list[int], k: int, rng: Random) -> None:
    """Move a uniformly random `k` of `cards` to its front, in random order, leaving the rest in
    an undecided order (the first `k` steps of a Fisher-Yates shuffle on `rng.random()`): for
    search worlds that deal a hidden hand and leave the deck's order to be drawn at random."""
    last = len(cards) - 1
    draw = rng.random
    for i in range(k):
        j = i + int(draw() * (last - i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def fast_shuffle(cards: list[int], rng: Random) -> None:
    """Shuffle `cards` in place by sorting on i.i.d. random keys: for search worlds only."""
    draw = rng.random
    cards.sort(key=lambda _: draw())


class GameRng:
    """A game's random stream, copied on its first draw after a fork (see the module)."""

    __slots__ = ("_random", "_seed", "_shared")

    def __init__(self, seed: int) -> None:
        """The stream `Random(seed)`, made at its first draw."""
        self._random: Random | None = None
        self._seed = seed
        self._shared = False

    def fork(self) -> GameRng:
        """The same stream for a clone. Both sides share the `Random` from now on, and each
        copies it before its own first draw, so neither ever moves the other's stream."""
        copy = GameRng.__new__(GameRng)
        copy._random = self._random
        copy._seed = self._seed
        shared = self._random is not None  # a stream not made yet is made privately by each
        copy._shared = shared
        if shared:
            self._shared = True
        return copy

    def stream(self) -> Random:
        """This side's own `Random`, ready for draws: take it for a burst of draws, never keep
        it across a fork."""
        random = self._random
        if random is None:
            random = self._random = Random(self._seed)
        elif self._shared:
            private = Random.__new__(Random)  # not Random(): its seeding would be overwritten
            private.setstate(random.getstate())
            random = self._random = private
            self._shared = False
        return random

    def shuffle(self, cards: list[int]) -> None:
        """The game's shuffle of `cards` in place, drawn from this stream (`exact_shuffle`)."""
        exact_shuffle(cards, self.stream())
