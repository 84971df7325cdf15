"""Helpers for possession's rule tests: a table arranged as a scenario says, play by words.

A scenario's cards are written as YAML, added to a vanilla `filler` (1/12/0) and compiled into a
test config beside the shipped rules. `deal` gives the table before its first turn; `put`,
`hand`, `deck` arrange it by renaming cards in place (so every zone keeps real copies); `begin`
starts the Turn Player's turn at a phase, and `play` picks an option by its describe() words.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from balance.core.registry import load_game
from balance.games.possession.cards import PossessionSpec, load_spec
from balance.games.possession.rules import Possession, begin, deal, position_name
from balance.games.possession.spec import TRIGGERS
from balance.games.possession.state import EMPTY

SHIPPED = load_game("possession").config_dir
FILLER = "  - {id: filler, name: Filler, might: 1, endure: 12, nurture: 0}\n"

__all__ = ["begin", "position_name"]


def make_spec(
    tmp_path: Path, cards: str = "", starter: bool = False, **rules: Any
) -> PossessionSpec:
    """A config of `filler` plus the scenario's cards (YAML list items) and, with `starter`, the
    shipped starter set, on the shipped rules with `rules` overridden; one deck `test` for 2-4
    players: 40 fillers and 2 of each card."""
    folder = tmp_path / "config"
    folder.mkdir(exist_ok=True)
    if starter:
        cards += (SHIPPED / "cards.yaml").read_text().split("cards:\n", 1)[1]
    shutil.copy(SHIPPED / "rules.yaml", folder / "rules.yaml")
    (folder / "cards.yaml").write_text("cards:\n" + FILLER + cards)
    ids = ["filler"] + [
        line.split("id:")[1].split(",")[0].strip()
        for line in cards.splitlines()
        if line.lstrip().startswith(("- {id:", "- id:"))
    ]
    deck = "\n".join(f"      {card}: {40 if card == 'filler' else 2}" for card in ids)
    (folder / "decks.yaml").write_text(
        f"decks:\n  test:\n    players: [2, 3, 4]\n    cards:\n{deck}\n"
        "default_deck: {2: test, 3: test, 4: test}\n"
    )
    return load_spec(folder, {f"rules.{k}": v for k, v in rules.items()})


def table(spec: PossessionSpec, seats: int = 2, seed: int = 0) -> Possession:
    """The table after setup, before the first turn; every position holds a filler."""
    t = deal(spec, ["test"] * seats, seed)
    filler = spec.catalog.cards.index("filler")
    for c in range(len(t.kind)):
        t.kind[c] = filler
    return t


def card(t: Possession, name: str) -> int:
    return t.spec.catalog.cards.index(name)


def position(t: Possession, where: str) -> int:
    if where[0] == "P":
        return int(where[1:])
    if where[0] == "W":
        return t.ring_base + int(where[1:])
    return t.defender if where == "D" else t.support


def put(t: Possession, where: str, name: str, damage: int = 0) -> int:
    """The card `name` at position `where` (P0.., W0.., D, S) with `damage`; returns its copy."""
    pos = position(t, where)
    if t.occ[pos] == EMPTY:
        t.occ[pos] = spare(t)
    c = t.occ[pos]
    t.kind[c] = card(t, name)
    t.damage[c] = damage
    return c


def at(t: Possession, where: str) -> str:
    """The card id at a position, or '' for an empty one."""
    c = t.occ[position(t, where)]
    return "" if c == EMPTY else t.spec.catalog.cards[t.kind[c]]


def damage(t: Possession, where: str) -> int:
    return t.damage[t.occ[position(t, where)]]


def empty_support(t: Possession) -> None:
    c = t.occ[t.support]
    t.occ[t.support] = EMPTY
    t.discard.append(c)


def spare(t: Possession) -> int:
    """A copy taken out of play: from the discard pile, else from the deck's bottom."""
    return t.discard.pop() if t.discard else t.deck.pop(0)


def hand(t: Possession, seat: int, names: list[str]) -> None:
    """Seat's hand becomes exactly `names`, in order."""
    t.discard += t.hands[seat]
    t.hands[seat] = []
    for name in names:
        c = spare(t)
        t.kind[c] = card(t, name)
        t.known[c] = 1 << seat
        t.hands[seat].append(c)


def hand_of(t: Possession, seat: int) -> list[str]:
    return [t.spec.catalog.cards[t.kind[c]] for c in t.hands[seat]]


def deck(t: Possession, top: list[str] | int) -> None:
    """The deck becomes `top` (its top card first), or `top` fillers."""
    names = ["filler"] * top if isinstance(top, int) else top
    while t.deck:
        t.discard.append(t.deck.pop())
    for name in reversed(names):
        c = spare(t)
        t.kind[c] = card(t, name)
        t.deck.append(c)


def glory(t: Possession, seat: int, n: int) -> None:
    t.own_rare()  # Glory piles may be shared with a clone until written
    for _ in range(n):
        t.glory[seat].append(spare(t))


def watch(t: Possession) -> Possession:
    t.watch = []
    return t


def words(t: Possession) -> list[str]:
    """The pending decision's options, in words."""
    d = t.decision()
    return [] if d is None else [t.describe(k) for k in range(len(d.options))]


def play(t: Possession, said: str) -> Possession:
    """Play the option of the pending decision whose words are `said`."""
    options = words(t)
    assert said in options, (
        f"'{said}' is not an option of {t.decision() and t.decision().kind}: {options}"
    )
    t.apply(options.index(said))
    return t


def name(t: Possession, c: int) -> str | None:
    return None if c == EMPTY else t.spec.catalog.cards[t.kind[c]]


def logged(t: Possession) -> list[tuple[Any, ...]]:
    """Every event the watched steps logged, as (trigger, actor card, subject card, amount)."""
    out = []
    for kind, entries in t.watch or []:
        if kind == "log":
            for e in entries:
                out.append((TRIGGERS[e[0]], name(t, e[3][0]), name(t, e[4][0]), e[2]))
    return out


def triggers(t: Possession) -> list[str]:
    return [e[0] for e in logged(t)]


def queues(t: Possession) -> list[list[str]]:
    """The queue after each watched scan, as card ids of the waiting creatures."""
    return [[name(t, p[0]) for p in entries] for kind, entries in t.watch or [] if kind == "queue"]


def where_is(t: Possession, c: int) -> str:
    return position_name(t, t.occ.index(c)) if c in t.occ else "-"


def queues_at(t: Possession) -> list[list[str]]:
    """The queue after each watched scan, as the positions its creatures hold now."""
    return [
        [where_is(t, p[0]) for p in entries] for kind, entries in t.watch or [] if kind == "queue"
    ]
