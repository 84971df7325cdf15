"""arrows' configuration: rules.yaml, the card schema (§5) and decks, compiled once into an
immutable `ArrowsSpec` of ints and tuples. Card ids are indexes into `catalog.cards`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.errors import ConfigError, DataWarning
from balance.core.yamlio import line_of
from balance.games.arrows.effects import (
    ABILITY,
    ACTIVATE,
    DAMAGE,
    DESTROYED,
    FLIPPED,
    OPS,
    REACTIVATE,
    TURN_END,
    VOCABULARY,
    compile_effect,
)
from balance.games.arrows.spec import (
    AMOUNT_ATK,
    ArrowsSpec,
    CardEffect,
)
from balance.games.arrows.state import (
    COUNTERS,
    DIRECTIONS,
    GAME_STATS,
    OPPOSITE,
    ORTHOGONAL,
    STEPS,
)

Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


class Rules(BaseModel):
    """rules.yaml: every parameter of the spec (§2), with its default."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # R2 / R3 / R13
    starting_credits: Count = 50
    credits_per_turn: Count = 5
    skip_credits_on_own_first_turn: bool = True
    draw_per_turn: Count = 1
    hand_limit: Count = 8
    # G1 / G2
    board_cols: Annotated[int, Field(ge=1, le=26)] = 5
    board_rows: Annotated[int, Field(ge=1, le=26)] = 5
    directions: Literal[8, 4] = 8
    plays_per_turn: Positive = 1
    placement_requires_adjacency: bool = False
    # G3 / G5
    ability_arrows_fight: bool = True
    damage_reset: Literal["end_of_turn"] = "end_of_turn"
    # G7 / G14
    covered_hit: Literal["destroy", "flip", "immune"] = "destroy"
    unpaid_reveal: Literal["destroy"] = "destroy"
    push_off_board: Literal["remove", "graveyard"] = "remove"
    # G9
    max_reactivations_per_card_per_turn: Count = 3
    max_activations_per_turn: Positive = 60
    # G11 / G12
    score_covered: bool = False
    board_full_end: Literal["immediate", "end_of_turn"] = "immediate"
    stall_turns: Positive = 4
    max_turns: Positive = 80
    tiebreak: Literal["draw", "credits"] = "draw"
    # G13 / G16
    starting_hand: Count = 5
    deck_size: Positive = 60
    max_copies: Positive = 4
    first_player: Literal["p0", "p1", "random"] = "p0"
    deck_out: Literal["skip"] = "skip"
    # Determinization samples the opponent's unseen cards from its decklist (§4), so the
    # decklists must be public: a closed list has no sampler that keeps the game's cards.
    open_decklists: Literal[True] = True


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    cost: Annotated[int, Field(ge=0, le=20)]
    atk: Annotated[int, Field(ge=0, le=10)]
    def_: Annotated[int, Field(alias="def", ge=1, le=12)]
    arrows: list[Direction] = Field(min_length=1, max_length=8)
    element: str | None = None
    effects: list[Any] = []
    tags: list[str] = []

    @field_validator("arrows")
    @classmethod
    def _distinct(cls, arrows: list[str]) -> list[str]:
        if len(set(arrows)) != len(arrows):
            raise ValueError("an arrow is given twice")
        return arrows


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText] = Field(min_length=1)


class DeckText(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str
    name: str
    cards: dict[str, int]


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decks: list[DeckText] = Field(min_length=1)


class CostWarning(DataWarning):
    """A card's cost is off the §7 guideline by more than 2 (a warning, never an error)."""


# The §7 guideline's ability values; other triggered effects count 1.5 (the spec says 1-2).
ABILITY_VALUE = {"push": 2, "pull": 2, "swap": 1, "destroy": 4, "place_covered": 2, "revive": 3}
OTHER_EFFECT_VALUE = 1.5


def load_spec(config_dir: Path, overrides: Mapping[str, object] | None = None) -> ArrowsSpec:
    """Read, check and compile `config_dir`. Bad data raises ConfigError naming file:line."""
    docs = read_config(config_dir, documents=("rules", "cards", "decks"), overrides=overrides)
    rules = validate(Rules, docs["rules"])
    card_file = validate(CardFile, docs["cards"])
    deck_file = validate(DeckFile, docs["decks"])
    raw_cards = docs["cards"]["cards"]

    ids = no_duplicates((card.id for card in card_file.cards), "card", raw_cards, (), "id")
    for index, card in enumerate(card_file.cards):
        if rules.directions == 4 and any(a not in ("N", "E", "S", "W") for a in card.arrows):
            raise fail(
                raw_cards,
                (index, "arrows"),
                f"card '{card.id}': only N, E, S, W arrows with directions: 4",
                "remove the diagonal arrows",
            )

    elements: dict[str, int] = {}
    compiled: list[list[CardEffect]] = []
    warned: list[str] = []
    for index, card in enumerate(card_file.cards):
        arrows = tuple(DIRECTIONS.index(a) for a in card.arrows)
        element = card.element
        if element is not None:
            elements.setdefault(element, len(elements))
        own: list[CardEffect] = []
        seen_arrows: set[int] = set()
        for k, raw in enumerate(raw_cards[index].get("effects", [])):
            line = line_of(raw_cards, (index, "effects", k))[1]
            effect = VOCABULARY.parse_effect(raw, f"card '{card.id}'", raw_cards.file, line)
            try:
                compiled_effect = compile_effect(effect, index, arrows, elements)
            except ConfigError as e:
                raise ConfigError(
                    e.path, e.line, f"card '{card.id}': {e.message}", e.hint
                ) from None
            arrow = compiled_effect.arrow
            if compiled_effect.trigger == ABILITY:
                if arrow in seen_arrows:
                    raise ConfigError(
                        effect.file,
                        effect.line,
                        f"card '{card.id}': arrow {DIRECTIONS[arrow]} has two abilities",
                        "an arrow carries at most one ability",
                    )
                seen_arrows.add(arrow)
            own.append(compiled_effect)
        compiled.append(own)
        message = _cost_check(card, own)
        if message:
            file, line = raw_cards.file, raw_cards.item_lines[index]
            warned.append(f"{file}:{line}: {message}")
            warnings.warn(f"{file}:{line}: {message}", CostWarning, stacklevel=2)

    decks = _decks(docs, deck_file, rules, ids)
    cols, rows = rules.board_cols, rules.board_rows
    cells = cols * rows
    if cells < 2:
        raise fail(
            docs["rules"],
            ("board_cols",),
            "the board needs at least 2 cells",
            "raise board_cols or board_rows",
        )
    neighbor = tuple(tuple(_step(cell, d, cols, rows) for d in range(8)) for cell in range(cells))
    fight_arrows = tuple(
        tuple(
            a
            for a in _arrows_of(card)
            if rules.ability_arrows_fight or not _has_ability(effects, a)
        )
        for card, effects in zip(card_file.cards, compiled, strict=True)
    )
    n_cards = len(card_file.cards)
    sides = range(8) if rules.directions == 8 else ORTHOGONAL  # where an arrow can come from

    def by_trigger(trigger: int) -> tuple[tuple[CardEffect, ...], ...]:
        return tuple(tuple(e for e in own if e.trigger == trigger) for own in compiled)

    catalog = Catalog(
        cards=tuple(card.id for card in card_file.cards),
        decks=decks,
        counters=COUNTERS.names,
        game_stats=GAME_STATS,
        deck_seats={name: (2,) for name in decks},
    )
    return spec_from_rules(
        ArrowsSpec,
        rules,
        catalog=catalog,
        config_hash=docs.config_hash,
        # Far beyond any real game: a turn holds at most max_activations_per_turn activations
        # of a few dozen decisions each; the spec's own caps end every game long before this.
        decision_cap=rules.max_turns * (40 * rules.max_activations_per_turn + cells + 100),
        cells=cells,
        cell_names=tuple(f"{chr(ord('A') + c % cols)}{c // cols + 1}" for c in range(cells)),
        neighbor=neighbor,
        orthogonal=tuple(tuple(n[d] for d in ORTHOGONAL if n[d] >= 0) for n in neighbor),
        adjacent=tuple(tuple(c for c in n if c >= 0) for n in neighbor),
        all_cells=(1 << cells) - 1,
        covered_sides=tuple(sum(1 << n[d] for d in sides if n[d] >= 0) for n in neighbor),
        names=tuple(card.name for card in card_file.cards),
        cost=tuple(card.cost for card in card_file.cards),
        atk=tuple(card.atk for card in card_file.cards),
        def_=tuple(card.def_ for card in card_file.cards),
        arrows=tuple(_arrows_of(card) for card in card_file.cards),
        fight_arrows=fight_arrows,
        fight_mask=tuple(sum(1 << a for a in arrows) for arrows in fight_arrows),
        element=tuple(
            elements[c.element] if c.element is not None else -1 for c in card_file.cards
        ),
        elements=tuple(sorted(elements, key=elements.__getitem__)),
        abilities=by_trigger(ABILITY),
        ability_at=tuple(
            tuple(
                next((e for e in own if e.trigger == ABILITY and e.arrow == d), None)
                for d in range(8)
            )
            for own in compiled
        ),
        on_activate=by_trigger(ACTIVATE),
        on_reactivate=by_trigger(REACTIVATE),
        on_flipped=by_trigger(FLIPPED),
        on_destroyed=by_trigger(DESTROYED),
        on_turn_end=by_trigger(TURN_END),
        plays=tuple(
            tuple((card, mode, cell) for mode in (0, 1) for cell in range(cells))
            for card in range(n_cards)
        ),
        aims=tuple(
            tuple(tuple((a, n[a], 1 << OPPOSITE[a]) for a in arrows if n[a] >= 0) for n in neighbor)
            for arrows in fight_arrows
        ),
        aimed=tuple(
            tuple(sum(1 << n[a] for a in arrows if n[a] >= 0) for n in neighbor)
            for arrows in fight_arrows
        ),
        open_sides=tuple(
            tuple(sum(1 << n[d] for d in sides if n[d] >= 0 and d not in arrows) for n in neighbor)
            for arrows in fight_arrows
        ),
        cost_warnings=tuple(warned),
    )


def _arrows_of(card: CardText) -> tuple[int, ...]:
    return tuple(DIRECTIONS.index(a) for a in card.arrows)


def _has_ability(own: list[CardEffect], arrow: int) -> bool:
    return any(e.trigger == ABILITY and e.arrow == arrow for e in own)


def _step(cell: int, direction: int, cols: int, rows: int) -> int:
    col, row = cell % cols + STEPS[direction][0], cell // cols + STEPS[direction][1]
    return row * cols + col if 0 <= col < cols and 0 <= row < rows else -1


def _decks(
    docs: Any, deck_file: DeckFile, rules: Rules, ids: dict[str, int]
) -> dict[str, dict[int, int]]:
    """Construction rules (G13): known cards, at most `max_copies` each, exactly `deck_size`."""
    raw = docs["decks"]["decks"]
    decks: dict[str, dict[int, int]] = {}
    no_duplicates((deck.id for deck in deck_file.decks), "deck", raw, (), "id")
    for index, deck in enumerate(deck_file.decks):
        contents: dict[int, int] = {}
        for card_id, copies in deck.cards.items():
            where = (index, "cards", card_id)
            card = lookup(ids, card_id, "card", raw, where, f"deck '{deck.id}'")
            if copies < 1 or copies > rules.max_copies:
                raise fail(
                    raw,
                    where,
                    f"deck '{deck.id}': {copies} copies of '{card_id}'",
                    f"use 1 to {rules.max_copies} (max_copies)",
                )
            contents[card] = copies
        total = sum(contents.values())
        if total != rules.deck_size:
            raise fail(
                raw,
                (index, "cards"),
                f"deck '{deck.id}' has {total} cards",
                f"a deck has exactly {rules.deck_size} (deck_size)",
            )
        decks[deck.id] = contents
    return decks


def _cost_check(card: CardText, own: list[CardEffect]) -> str:
    """§7: cost ~ round(atk + def/2 + 0.75 arrows + ability value) - 2, clamped to 2..12."""
    value = card.atk + card.def_ / 2 + 0.75 * len(card.arrows)
    for effect in own:
        op = OPS[effect.op]
        if effect.op == DAMAGE and effect.trigger == ABILITY:
            value += card.atk if effect.amount == AMOUNT_ATK else effect.amount
        elif effect.trigger == ABILITY and op in ABILITY_VALUE:
            value += ABILITY_VALUE[op]
        else:
            value += OTHER_EFFECT_VALUE
    guideline = min(12, max(2, math.floor(value + 0.5) - 2))
    if abs(card.cost - guideline) > 2:
        return f"card '{card.id}' costs {card.cost}, the guideline says {guideline}"
    return ""
