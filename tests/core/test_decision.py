"""The contract's Decision: options given at once or listed at their first read, alike to a reader."""

from __future__ import annotations

import copy
import pickle

import pytest

from balance.core.contract import Decision


class Lister:
    """Options from a snapshot, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, hand: tuple[int, ...], credits: int) -> tuple[object, ...]:
        self.calls += 1
        return ("pass", *(card for card in hand if card <= credits))


def test_a_lazy_decision_lists_its_options_once_at_the_first_read() -> None:
    lister = Lister()
    d = Decision.lazy(1, "play", lister, (3, 5, 8), 5)
    assert (d.seat, d.kind, lister.calls, d.listed) == (1, "play", 0, False)
    options = d.options
    assert options == ("pass", 3, 5) and d.listed and lister.calls == 1
    assert d.options is options and lister.calls == 1  # kept: later reads list nothing


def test_a_listed_decision_lets_go_of_what_it_listed_from() -> None:
    d = Decision.lazy(0, "play", Lister(), (3,), 9)
    d.options  # noqa: B018 - the read lists them
    assert d._lister is None and d._inputs == ()


def test_an_eager_decision_is_listed_from_the_start() -> None:
    d = Decision(0, "discard", (4, 7))
    assert d.listed and d.options == (4, 7)


@pytest.mark.parametrize("read_first", [False, True])
def test_a_lazy_decision_compares_hashes_prints_and_pickles_as_an_eager_one(
    read_first: bool,
) -> None:
    eager = Decision(1, "play", ("pass", 3, 5))
    lazy = Decision.lazy(1, "play", Lister(), (3, 5, 8), 5)
    if read_first:
        lazy.options  # noqa: B018
    assert lazy == eager and eager == lazy and hash(lazy) == hash(eager)
    assert repr(lazy) == repr(eager) == "Decision(seat=1, kind='play', options=('pass', 3, 5))"
    assert pickle.loads(pickle.dumps(lazy)) == eager
    assert copy.deepcopy(lazy) == eager and copy.copy(lazy) == eager
    assert lazy != Decision(0, "play", ("pass", 3, 5)) and lazy != Decision(1, "play", ("pass",))
    assert lazy != ("pass", 3, 5)


def test_a_lister_that_fails_leaves_the_decision_unlisted() -> None:
    def gone() -> tuple[object, ...]:
        raise RuntimeError("the asking state is gone")

    d = Decision.lazy(0, "turn", gone)
    with pytest.raises(RuntimeError):
        d.options  # noqa: B018
    assert not d.listed
