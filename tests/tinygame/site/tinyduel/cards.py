"""tinyduel's config schema (rules.yaml, cards.yaml, decks.yaml), compiled once into the spec."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from tinyduel.effects import VOCABULARY, compile_effect
from tinyduel.spec import DuelSpec


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


def load_spec(folder: Path, overrides: Mapping[str, object] | None = None) -> DuelSpec:
    """Read, check and compile `folder`; a mistake is a ConfigError naming file:line."""
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
            compiled.append(compile_effect(effect))
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
