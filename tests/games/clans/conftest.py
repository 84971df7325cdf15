"""Helpers for clans' rule scenarios: a table to set armies and hands on, and play-by-words.

`table.new(p1=[clans], p2=[clans])` gives a round-1 game with both decks holding their clans'
45 cards in order, empty hands and armies, and the first player at its action (D3). Cards are
put in place from their owner's deck, so every card stays accounted for.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from balance.core.gamerng import GameRng
from balance.core.registry import load_game
from balance.games.clans import rules
from balance.games.clans.cards import ClansSpec, load_spec
from balance.games.clans.rules import Clans
from balance.games.clans.state import (
    EMPTY,
    NOBODY,
    ROUND_START,
    place,
    recount,
    replaced,
    set_status,
    set_tokens,
    to_hand,
)

GAME = load_game("clans")
SHIPPED = GAME.config_dir
ROWS = {"troop": 0, "hero": 1, "immortal": 2}


class Table:
    def __init__(self, spec: ClansSpec) -> None:
        self.spec = spec

    def clan(self, clan_id: str) -> int:
        return next(i for i, c in enumerate(self.spec.clans) if c.id == clan_id)

    def card(self, name: str) -> int:
        return self.spec.card_name.index(name)

    def new(
        self,
        p1: Sequence[str] = ("ironhide", "phoenix", "sages"),
        p2: Sequence[str] = ("justice", "veil", "tempest"),
        first: int = 0,
        held: tuple[int, int] = (2, 2),
        spec: ClansSpec | None = None,
    ) -> Clans:
        spec = spec or self.spec
        lineup = next(
            (a, b) for a in spec.armies for b in spec.armies if not spec.catalog.clash((a, b))
        )
        g = rules.new_game(spec, lineup, seed=0)
        clans = (tuple(self.clan(c) for c in p1), tuple(self.clan(c) for c in p2))
        fielded = set(clans[0]) | set(clans[1])
        g.clans = [clans[0], clans[1]]
        g.flipped = tuple(c for c in spec.draft_pool if c not in fielded)
        g.spec = spec.with_flipped(g.flipped)
        size = spec.rows * spec.row_spaces
        g.deck = tuple(tuple(c for clan in clans[s] for c in spec.clan_cards[clan]) for s in (0, 1))
        g.hand, g.known, g.discard = ((), ()), ((), ()), ((), ())
        g.grid = ((EMPTY,) * size, (EMPTY,) * size)
        g.face_up = ((True,) * size, (True,) * size)
        g.captor = ((NOBODY,) * size, (NOBODY,) * size)
        g.tokens = ((0,) * size, (0,) * size)
        g.held = tuple(held)
        g.owned = (max(2, held[0]), max(2, held[1]))
        g.first = first
        g.events = []
        g.todo, g.asking = [(ROUND_START,)], None
        recount(g)
        rules.advance(g)
        return g

    def take(self, g: Clans, seat: int, name: str) -> int:
        card = self.card(name)
        deck = list(g.deck[seat])
        deck.remove(card)
        g.deck = replaced(g.deck, seat, tuple(deck))
        return card

    def hand(self, g: Clans, seat: int, *names: str) -> None:
        for name in names:
            to_hand(g, seat, self.take(g, seat, name))
        rules.refresh_decision(g)

    def put(
        self,
        g: Clans,
        seat: int,
        name: str,
        row: str,
        column: int,
        face_down: bool = False,
        captured: bool = False,
        tokens: int = 0,
    ) -> int:
        """Put a card from `seat`'s deck into its army at (row, column 1-5)."""
        slot = ROWS[row] * self.spec.row_spaces + column - 1
        place(g, seat, slot, self.take(g, seat, name))
        set_status(g, seat, slot, not face_down, 1 - seat if captured else NOBODY)
        set_tokens(g, seat, slot, tokens)
        rules.refresh_decision(g)
        return slot

    def options(self, g: Clans) -> list[str]:
        decision = g.decision()
        return [] if decision is None else [g.describe(i) for i in range(len(decision.options))]

    def play(self, g: Clans, *words: str) -> None:
        """Choose each option by its words (exactly one option must read so)."""
        for text in words:
            shown = self.options(g)
            matches = [i for i, option in enumerate(shown) if option == text]
            assert len(matches) == 1, f"'{text}' not among {shown}"
            g.apply(matches[0])

    def pay_any(self, g: Clans, times: int) -> list[int]:
        """Answer `times` pay or discard decisions with the first option; return the cards."""
        paid = []
        for _ in range(times):
            decision = g.decision()
            assert decision is not None and decision.kind in ("pay", "discard")
            paid.append(decision.options[0][1])
            g.apply(0)
        return paid

    def reseed(self, g: Clans, seed: int) -> None:
        g.rng = GameRng(seed)


@pytest.fixture(scope="session")
def spec() -> ClansSpec:
    return GAME.load(SHIPPED)


@pytest.fixture()
def table(spec: ClansSpec) -> Table:
    return Table(spec)


@pytest.fixture()
def config(tmp_path: Path) -> Path:
    """A copy of the shipped config folder to break."""
    folder = tmp_path / "clans"
    shutil.copytree(SHIPPED, folder)
    return folder


def load(folder: Path, overrides: dict | None = None) -> ClansSpec:
    return load_spec(folder, overrides)
