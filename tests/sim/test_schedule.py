"""Lineups from `--decks`, for any game: decks that hold something in common never meet."""

from __future__ import annotations

import pytest

from balance.core.contract import Catalog, GameInfo
from balance.core.errors import ConfigError
from balance.sim.schedule import lineup_decks, make_schedule

INFO = GameInfo(name="toy", min_seats=2, max_seats=3, rules_version="1")
# Three armies of two houses each (red and blue share "fox"), a deck holding nothing exclusive,
# and a shared setup.
CATALOG = Catalog(
    cards=("card",),
    decks={name: {0: 1} for name in ("red", "blue", "green", "plain", "draft")},
    shared=frozenset({"draft"}),
    exclusive={
        "red": frozenset({"fox", "owl"}),
        "blue": frozenset({"fox", "elk"}),
        "green": frozenset({"bee", "cat"}),
    },
)


def test_all_leaves_out_decks_that_hold_something_in_common() -> None:
    assert lineup_decks(CATALOG, "all", 2) == [
        ("draft", "draft"),
        ("red", "green"),
        ("red", "plain"),
        ("blue", "green"),
        ("blue", "plain"),
        ("green", "plain"),
        ("plain", "plain"),  # a deck that holds nothing exclusive may meet itself
    ]
    three = lineup_decks(CATALOG, "all", 3)
    assert ("red", "green", "plain") in three and ("red", "blue", "green") not in three
    assert all(CATALOG.clash(lineup) is None for lineup in three)


def test_a_fixed_lineup_sharing_something_is_refused_naming_both_and_what() -> None:
    with pytest.raises(ConfigError) as refused:
        lineup_decks(CATALOG, ["red", "blue"], 2)
    assert refused.value.one_line().startswith(
        "--decks: 'red' and 'blue' cannot meet: both hold fox"
    )
    with pytest.raises(ConfigError, match="'green' cannot meet itself: it holds bee"):
        make_schedule(INFO, CATALOG, "green")
    with pytest.raises(ConfigError, match="'blue' and 'red'"):
        lineup_decks(CATALOG, ["green", "blue", "red"], 3)
    assert lineup_decks(CATALOG, ["blue", "green"], 2) == [("blue", "green")]
    assert lineup_decks(CATALOG, "plain", 3) == [("plain", "plain", "plain")]


def test_a_catalog_without_exclusive_decks_pairs_everything() -> None:
    plain = Catalog(cards=("card",), decks={"a": {0: 1}, "b": {0: 1}})
    assert lineup_decks(plain, "all", 2) == [("a", "a"), ("a", "b"), ("b", "b")]
    assert plain.clash(("a", "a")) is None


def test_all_with_no_pairing_left_is_refused() -> None:
    only = Catalog(cards=("card",), decks={"red": {0: 1}}, exclusive={"red": frozenset({"fox"})})
    with pytest.raises(ConfigError, match="no 2 decks can meet"):
        lineup_decks(only, "all", 2)
