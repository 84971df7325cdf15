"""oddsduel's spec and its odds: the one place the chance of every outcome is computed, for the
game and for the tests that need the true rates. Chances are whole thousandths: a roll is
uniform over 0..999, so every outcome's probability is an exact fraction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog

ROLL = 1000  # the faces of a die: chances are in thousandths
LOWEST, HIGHEST = 20, 980  # seat 0's chance in the duel stays within these


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat_edge: int = 40
    tempo_swing: int = Field(150, ge=0)
    stall_chance: int = Field(20, ge=0)
    draw_chance: int = Field(60, ge=0)
    hand_size: int = Field(3, ge=1)
    draws: int = Field(1, ge=0)


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    edge: int = 0  # in the deck: moves its seat's chance in the duel, drawn or not
    swing: int = 0  # in hand: moves its seat's chance in the duel


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText]


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decks: dict[str, dict[str, int]]


@dataclass(frozen=True, slots=True)
class OddsSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    seat_edge: int
    tempo_swing: int
    stall_chance: int
    draw_chance: int
    hand_size: int
    draws: int
    swing: tuple[int, ...]  # card_id -> its swing in hand
    deck_edge: Mapping[str, int]  # deck -> the sum of its cards' edges
    deck_list: Mapping[
        str, tuple[int, ...]
    ]  # deck -> its cards, in card-id order, before a shuffle


def compile_config(folder: Path, overrides: Mapping[str, object] | None = None) -> OddsSpec:
    docs = read_config(folder, overrides=overrides)
    rules = validate(Rules, docs["rules"])
    cards = validate(CardFile, docs["cards"])
    decks = validate(DeckFile, docs["decks"])
    ids = list(
        no_duplicates((card.id for card in cards.cards), "card", docs["cards"], ("cards",), "id")
    )
    contents: dict[str, dict[int, int]] = {}
    for name, deck in decks.decks.items():
        at, context = ("decks", name), f"deck '{name}'"
        contents[name] = {
            lookup(ids, card_id, "card", docs["decks"], (*at, card_id), context): copies
            for card_id, copies in deck.items()
        }
        if sum(deck.values()) < rules.hand_size + rules.draws:
            raise fail(docs["decks"], ("decks", name), f"deck '{name}' has too few cards",
                       f"give it at least {rules.hand_size + rules.draws}")  # fmt: skip
    if 2 * rules.stall_chance + rules.draw_chance > ROLL:
        raise fail(docs["rules"], ("draw_chance",), "stalls and draws take more than the die",
                   f"keep 2 * stall_chance + draw_chance within {ROLL}")  # fmt: skip
    edge = [card.edge for card in cards.cards]
    return spec_from_rules(
        OddsSpec,
        rules,
        catalog=Catalog(cards=tuple(ids), decks=contents),
        config_hash=docs.config_hash,
        decision_cap=100,
        swing=tuple(card.swing for card in cards.cards),
        deck_edge={d: sum(edge[c] * n for c, n in cards_of.items()) for d, cards_of in contents.items()},
        deck_list={d: tuple(c for c, n in sorted(cards_of.items()) for _ in range(n))
                   for d, cards_of in contents.items()},
    )  # fmt: skip


def tempos(seed: int, seats: int) -> tuple[int, ...]:
    """Seat luck: each seat's tempo (0 or 1, even odds), dealt from the seed in seat order."""
    rng = Random(seed)
    return tuple(rng.getrandbits(1) for _ in range(seats))


def shuffled(spec: OddsSpec, deck: str, seed: int) -> list[int]:
    """Deck luck: the deck's order (top first), from the seed and the deck's name alone."""
    cards = list(spec.deck_list[deck])
    Random(f"{seed}/{deck}").shuffle(cards)
    return cards


def chances(
    spec: OddsSpec, decks: Sequence[str], tempo: Sequence[int], swing_in_hand: Sequence[int]
) -> tuple[int, int, int]:
    """(stall, draw, first), in thousandths: the fate roll stalls the game below `stall`, draws
    it below `stall + draw`, else the duel is rolled, which seat 0 wins below `first`."""
    stall = spec.stall_chance * ((1 - tempo[0]) + (1 - tempo[1]))
    advantage = (
        spec.seat_edge
        + spec.deck_edge[decks[0]]
        - spec.deck_edge[decks[1]]
        + spec.tempo_swing * (tempo[0] - tempo[1])
        + swing_in_hand[0]
        - swing_in_hand[1]
    )
    return stall, spec.draw_chance, max(LOWEST, min(HIGHEST, 500 + advantage))


TURN_LIMIT = 12  # a stalled game waits this long, then ends capped (a shared draw)


def turns(tempo: Sequence[int], first_swings: bool, drawn: bool, stalled: bool) -> int:
    """A game's length: the turn limit if stalled, else longer with tempo, with a swing in seat
    0's hand, and for a draw."""
    if stalled:
        return TURN_LIMIT
    return 3 + 2 * (tempo[0] + tempo[1]) + int(first_swings) + 2 * int(drawn)
