"""tinyduel's card schema and vocabulary, compiled once into an immutable spec."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.effects import Vocabulary


class Amount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(ge=1)


VOCABULARY = Vocabulary("tinyduel")
VOCABULARY.triggers.add("play", "the card is played")
VOCABULARY.ops.add("draw", "the target player draws n cards", Amount)
VOCABULARY.ops.add("boost", "this card's value rises by n this round", Amount)
VOCABULARY.selectors.add("me", "the card's player")
VOCABULARY.conditions.add("behind", "the card's player has fewer points than the leader", bool)


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand_size: int = Field(3, ge=1)
    points_to_win: int = Field(3, ge=1)
    max_rounds: int = Field(12, ge=1)
    seat0_bonus: int = 0


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    value: int = Field(ge=0)
    effects: list[Any] = []


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText]


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decks: dict[str, dict[str, int]]


DRAW, BOOST = 0, 1


@dataclass(frozen=True, slots=True)
class DuelSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    hand_size: int
    points_to_win: int
    max_rounds: int
    seat0_bonus: int
    values: tuple[int, ...]  # card_id -> printed value
    on_play: tuple[tuple[tuple[int, int, bool], ...], ...]  # card_id -> (op, n, only_if_behind)


def compile_config(folder: Path, overrides: Mapping[str, object] | None = None) -> DuelSpec:
    docs = read_config(folder, overrides=overrides)
    rules = validate(Rules, docs["rules"])
    cards = validate(CardFile, docs["cards"])
    decks = validate(DeckFile, docs["decks"])
    ids = list(
        no_duplicates((card.id for card in cards.cards), "card", docs["cards"], ("cards",), "id")
    )
    on_play = []
    for index, card in enumerate(cards.cards):
        compiled = []
        for k, raw in enumerate(card.effects):
            effect = VOCABULARY.parse_effect(raw, f"card '{card.id}'")
            op = DRAW if effect.op == "draw" else BOOST
            compiled.append((op, effect.params.n, bool(effect.conditions.get("behind", False))))
        on_play.append(tuple(compiled))
    deck_cards: dict[str, dict[int, int]] = {}
    for name, contents in decks.decks.items():
        deck_cards[name] = {}
        for card_id, copies in contents.items():
            where, context = ("decks", name, card_id), f"deck '{name}'"
            deck_cards[name][lookup(ids, card_id, "card", docs["decks"], where, context)] = copies
        if sum(contents.values()) < rules.hand_size + rules.max_rounds:
            raise fail(
                docs["decks"],
                ("decks", name),
                f"deck '{name}' has too few cards",
                f"give it at least {rules.hand_size + rules.max_rounds}",
            )
    catalog = Catalog(
        cards=tuple(ids),
        decks=deck_cards,
        counters=("rounds_won",),
        game_stats=("rounds",),
    )
    return spec_from_rules(
        DuelSpec,
        rules,
        catalog=catalog,
        config_hash=docs.config_hash,
        decision_cap=1000,
        values=tuple(card.value for card in cards.cards),
        on_play=tuple(on_play),
    )
