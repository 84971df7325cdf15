"""possession's card schema, rule numbers and shared decks, compiled once into an immutable spec.

`configs/possession/` holds `rules.yaml` (spec §2's parameters), `cards.yaml` (`{cards: [Card]}`,
spec §5) and `decks.yaml` (`{decks: {id: {players: [n], cards: {card: copies}}}, default_deck:
{n: id}}`). Every deck is shared: one deck serves all the players of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.yamlio import LineList
from balance.games.possession.effects import ROLES, compile_effect
from balance.games.possession.spec import MAX_SEATS, MIN_SEATS, CardEffect, PossessionSpec
from balance.games.possession.state import COUNTERS, GAME_STATS, SEAT_STATS

SNAKE_CASE = r"^[a-z][a-z0-9_]*$"


class Rules(BaseModel):
    """rules.yaml: every parameter of spec §2 with its default and its hard bounds."""

    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, ge=MIN_SEATS, le=MAX_SEATS)
    wild_count: int = Field(5, ge=4, le=12)
    starting_hand: int = Field(3, ge=0, le=20)
    draw_below: int = Field(3, ge=0, le=50)
    draw_count: int = Field(1, ge=0, le=20)
    glory_to_win: int = Field(3, ge=0, le=50)
    defender_escapes: bool = True
    glory_credit: Literal["most_damage", "turn_player", "damage_source"] = "most_damage"
    exhaustion: int = Field(1, ge=0, le=20)
    defender_wear: int = Field(1, ge=0, le=20)
    face_down_clears_damage: bool = True
    retrigger_position: Literal["back", "keep"] = "back"
    max_chain: int = Field(64, ge=1, le=10_000)
    max_rounds: int = Field(40, ge=1, le=1_000)
    cap_result: Literal["tiebreak", "draw"] = "tiebreak"
    first_player: Literal["seat0", "random"] = "seat0"
    deck: str = "auto"
    replaced_card_to: Literal["discard", "hand"] = "discard"


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=SNAKE_CASE)
    name: str
    might: int = Field(ge=0, le=9)
    endure: int = Field(ge=1, le=12)
    nurture: int = Field(ge=0, le=9)
    tags: list[str] = []
    effects: list[Any] = []


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText] = Field(min_length=1)


class DeckText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[int] = Field(min_length=1)
    cards: dict[str, int] = Field(min_length=1)


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decks: dict[str, DeckText] = Field(min_length=1)
    default_deck: dict[int, str] = {}


def load_spec(config_dir: Path, overrides: Mapping[str, object] | None = None) -> PossessionSpec:
    """Read, check and compile `config_dir`; a mistake is a ConfigError naming file:line."""
    docs = read_config(Path(config_dir), documents=("rules", "cards", "decks"), overrides=overrides)
    rules = validate(Rules, docs["rules"])
    card_file = validate(CardFile, docs["cards"])
    deck_file = validate(DeckFile, docs["decks"])
    raw_cards = docs["cards"]["cards"]

    ids = list(no_duplicates((card.id for card in card_file.cards), "card", raw_cards, (), "id"))
    effects: list[tuple[CardEffect | None, CardEffect | None, CardEffect | None]] = []
    for index, card in enumerate(card_file.cards):
        raw_effects = (
            raw_cards[index]["effects"] if "effects" in raw_cards[index] else LineList("", 0)
        )
        by_role: list[CardEffect | None] = [None, None, None]
        for k, raw in enumerate(raw_effects):
            line = raw_effects.item_lines[k] if isinstance(raw_effects, LineList) else None
            effect = compile_effect(raw, index, card.id, raw_effects.file or None, line)
            if by_role[effect.role] is not None:
                raise fail(
                    raw_effects,
                    (k,),
                    f"card '{card.id}': a second {ROLES[effect.role]} effect",
                    "a card has at most one effect per role",
                )
            by_role[effect.role] = effect
        effects.append((by_role[0], by_role[1], by_role[2]))

    decks, deck_seats = _decks(deck_file, docs["decks"], ids, rules)
    lookup([*decks, "auto"], rules.deck, "deck", docs["rules"], ("deck",))
    for seats, name in deck_file.default_deck.items():
        where = ("default_deck", seats)
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise fail(
                docs["decks"],
                where,
                f"default_deck: {seats} players is not {MIN_SEATS}-{MAX_SEATS}",
                "remove it",
            )
        lookup(decks, name, "deck", docs["decks"], where, "default_deck")
        if seats not in deck_seats[name]:
            raise fail(
                docs["decks"],
                where,
                f"default_deck: deck '{name}' is not made for {seats} players",
                f"add {seats} to its players",
            )

    catalog = Catalog(
        cards=tuple(ids),
        decks=decks,
        counters=COUNTERS.names,
        game_stats=GAME_STATS.names
        + tuple(f"{name}_{seat}" for seat in range(MAX_SEATS) for name in SEAT_STATS),
        shared=frozenset(decks),
        deck_seats=deck_seats,
    )
    cards = card_file.cards
    # A turn has six steps; each step's chain resolves at most max_chain effects, each with a
    # handful of choices, plus the escapes' refill choices: a safety net far above real games.
    decision_cap = rules.max_rounds * MAX_SEATS * 6 * (rules.max_chain + 16) * 4
    return spec_from_rules(
        PossessionSpec,
        rules,
        catalog=catalog,
        config_hash=docs.config_hash,
        decision_cap=decision_cap,
        default_deck=dict(deck_file.default_deck),
        names=tuple(card.name for card in cards),
        might=tuple(card.might for card in cards),
        endure=tuple(card.endure for card in cards),
        nurture=tuple(card.nurture for card in cards),
        power=tuple(2 * card.might + card.endure + 2 * card.nurture for card in cards),
        effects=tuple(effects),
        value=tuple(sum(e.value for e in by_role if e is not None) for by_role in effects),
    )


def _decks(
    deck_file: DeckFile, raw: Any, ids: list[str], rules: Rules
) -> tuple[dict[str, dict[int, int]], dict[str, tuple[int, ...]]]:
    """Each deck as {card index: copies}, checked against the construction rules (§3, §5)."""
    decks: dict[str, dict[int, int]] = {}
    deck_seats: dict[str, tuple[int, ...]] = {}
    for name, deck in deck_file.decks.items():
        for k, seats in enumerate(deck.players):
            if not MIN_SEATS <= seats <= MAX_SEATS:
                raise fail(
                    raw,
                    ("decks", name, "players", k),
                    f"deck '{name}': {seats} players is not {MIN_SEATS}-{MAX_SEATS}",
                    "possession is played by 2-4 players",
                )
        contents: dict[int, int] = {}
        for card_id, copies in deck.cards.items():
            where = ("decks", name, "cards", card_id)
            card = lookup(ids, card_id, "card", raw, where, f"deck '{name}'")
            if copies < 1:
                raise fail(
                    raw,
                    where,
                    f"deck '{name}': {copies} copies of '{card_id}'",
                    "give at least 1 copy or remove it",
                )
            contents[card] = copies
        size = sum(contents.values())
        for seats in deck.players:
            need = 2 + rules.wild_count + seats * (1 + rules.starting_hand)
            if size < need:
                raise fail(
                    raw,
                    ("decks", name, "cards"),
                    f"deck '{name}' has {size} cards, but setup for {seats} players deals {need}",
                    f"give it at least {need} cards",
                )
        decks[name] = contents
        deck_seats[name] = tuple(sorted(set(deck.players)))
    return decks, deck_seats
