"""Helpers for arrows' rule scenarios: a table to set cards on, and play-by-words.

Scenario cards that are not in the starter set are written like the spec writes them: `2/2 [N, S]`
is the plain card `x_2_2_n_s` (cost 3) of a test config built from the shipped one.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from balance.core.registry import load_game
from balance.games.arrows import rules
from balance.games.arrows.cards import load_spec
from balance.games.arrows.spec import ArrowsSpec
from balance.games.arrows.state import (
    PLAY,
    RUN_ACTIVATION,
    RUN_GROUP,
    T_OWN_TURNS,
    ArrowsState,
    Piece,
    place,
)

GAME = load_game("arrows")
SHIPPED = GAME.config_dir

# The spec's scenario cards, by the way §11 writes them.
PLAIN = ["2/2 [N, S]", "2/3 [W]", "4/3 [W]", "1/2 [N]", "2/2 [N]", "3/4 [E, S, W]", "1/1 [E]",
         "1/2 [W]", "2/2 [N, W]", "1/3 [S]", "3/3 [E]", "1/4 [W]", "3/4 [E, S]", "3/3 [S]",
         "2/2 [E]", "1/5 [N, E, S, W]"]  # fmt: skip
EXTRA = """
  - {id: x_reviver, name: Twin Reviver, cost: 6, atk: 2, def: 3, arrows: [S, W],
     effects: [{on: ability, arrow: S, do: revive}, {on: ability, arrow: W, do: revive}]}
  - {id: x_sniper, name: Sniper, cost: 3, atk: 1, def: 3, arrows: [N],
     effects: [{on: activate, do: damage, amount: 1, optional: true,
                target: {board: {owner: opponent, face: up, pick: one}}}]}
"""


def card_id(text: str) -> str:
    """`2/2 [N, S]` -> `x_2_2_n_s`."""
    stats, arrows = text.split(" [")
    atk, def_ = stats.split("/")
    return "_".join(["x", atk, def_, *(a.strip().lower() for a in arrows.rstrip("]").split(","))])


def write_config(folder: Path, extra_rules: str = "") -> Path:
    shutil.copytree(SHIPPED, folder)
    lines = []
    for text in PLAIN:
        stats, arrows = text.split(" [")
        atk, def_ = stats.split("/")
        stats = f"cost: 3, atk: {atk}, def: {def_}, arrows: [{arrows}"
        lines.append(f"  - {{id: {card_id(text)}, name: '{text}', {stats}}}")
    with (folder / "cards.yaml").open("a") as f:
        f.write("\n  # -- test cards\n" + "\n".join(lines) + EXTRA)
    if extra_rules:
        with (folder / "rules.yaml").open("a") as f:
            f.write(extra_rules)
    return folder


def load_quietly(folder: Path, overrides: dict | None = None) -> ArrowsSpec:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # test cards ignore the cost guideline on purpose
        return load_spec(folder, overrides)


class Frame(NamedTuple):
    """A `RUN_ACTIVATION` task read as a record (state.py's comment on the chain stack)."""

    uid: int
    reactivation: bool
    via: int
    step: int
    used: int
    revived: int
    conflicts: tuple[tuple[int, int], ...]


class Queued(NamedTuple):
    """A `RUN_GROUP` task: activations queued together, waiting for `chain_order`."""

    entries: tuple[tuple[int, bool, int], ...]  # (uid, reactivation, via)


def chain(s: ArrowsState) -> list[Frame | Queued]:
    """The chain stack (R11) as records, the top last: the activations and queued groups on
    the flow stack `todo`."""
    return [
        Frame(*task[1:]) if task[0] == RUN_ACTIVATION else Queued(task[1])
        for task in s.todo
        if task[0] == RUN_ACTIVATION or task[0] == RUN_GROUP
    ]


class Table:
    """A game set up by hand: an empty board, empty hands, P0 at step 4 of a mid-game turn."""

    def __init__(self, spec: ArrowsSpec) -> None:
        self.spec = spec

    def new(
        self, active: int = 0, turn: int | None = None, credits: Sequence[int] = (50, 50)
    ) -> ArrowsState:
        s = rules.new_game(self.spec, ["vanguard", "undergrowth"], seed=7)
        s.decks = [s.decks[0] + s.hands[0], s.decks[1] + s.hands[1]]
        s.hands = [[], []]
        s.active = active
        s.turn = turn if turn is not None else 5 + active
        s.tally[T_OWN_TURNS] = s.tally[T_OWN_TURNS + 1] = 2
        s.credits = list(credits)
        s.step = PLAY
        return s

    def card(self, name: str) -> int:
        cards = self.spec.catalog.cards
        return cards.index(name if name in cards else card_id(name))

    def put(self, s: ArrowsState, cell: str, name: str, seat: int, covered: bool = False) -> Piece:
        """A card on the board, owned and controlled by `seat`."""
        card = self.card(name)
        index = self.spec.cell_names.index(cell)
        assert s.grid[index] is None
        cost_due = self.spec.cost[card] if covered else 0
        return place(s, seat, card, index, not covered, cost_due, False)

    def hand(self, s: ArrowsState, seat: int, *names: str) -> None:
        s.hands[seat].extend(self.card(n) for n in names)

    def go(self, s: ArrowsState) -> ArrowsState:
        """Start play from the position set up: compute the pending decision."""
        rules.advance(s)
        return s

    def at(self, s: ArrowsState, cell: str) -> Piece | None:
        return s.grid[self.spec.cell_names.index(cell)]

    @staticmethod
    def options(s: ArrowsState) -> list[str]:
        decision = s.decision()
        assert decision is not None, "the game is over"
        return [s.describe(i) for i in range(len(decision.options))]

    @staticmethod
    def play(s: ArrowsState, *steps: str) -> None:
        """Apply the pending decision's options described by `steps`, one after the other."""
        for words in steps:
            offered = Table.options(s)
            kind = s.decision().kind  # type: ignore[union-attr]
            assert words in offered, f"'{words}' is not offered; {kind}: {offered}"
            s.apply(offered.index(words))


@pytest.fixture(scope="session")
def spec(tmp_path_factory: pytest.TempPathFactory) -> ArrowsSpec:
    return load_quietly(write_config(tmp_path_factory.mktemp("arrows") / "config"))


@pytest.fixture
def table(spec: ArrowsSpec) -> Table:
    return Table(spec)


@pytest.fixture
def table_with(tmp_path: Path):
    """A table on the test config with rules.yaml overrides: `table_with(tiebreak="credits")`."""

    def make(**rules_overrides: object) -> Table:
        folder = write_config(tmp_path / f"config{len(list(tmp_path.iterdir()))}")
        return Table(load_quietly(folder, {f"rules.{k}": v for k, v in rules_overrides.items()}))

    return make
