"""Zynalith's card schema, rules parameters and setups, compiled once into an immutable spec.

`load_spec(config_dir, overrides)` reads rules.yaml, cards.yaml and decks.yaml, checks them (every
mistake one ConfigError naming file:line) and returns a `ZynalithSpec`: rule numbers as plain
attributes, cards as `CardDef`s with integer ids (the index in `catalog.cards`), effects compiled
to `Fx` and grouped by trigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.errors import ConfigError
from balance.games.zynalith.effects import (
    K_CREATURE,
    K_EVENT,
    KINDS,
    O_COPY,
    O_NEGATE,
    T_COMBAT,
    T_DEATH,
    T_DEFENCE,
    T_INSTANT,
    TRIGGER_IDS,
    VOCABULARY,
    _keyword_mask,
    compile_effect,
)
from balance.games.zynalith.spec import (
    HOST_NONE,
    HOSTS,
    MAX_SEATS,
    NOT_PLAYED,
    PLAY_CREATURE,
    TYPE_CREATURE,
    TYPE_EVENT,
    TYPE_EXTRA,
    WINDOW_COMBAT,
    WINDOW_EVENT,
    WINDOW_PLAY,
    WINDOWS,
    CardDef,
    Fx,
    ZynalithSpec,
)
from balance.games.zynalith.state import CAPS, CARD_COUNTERS, GAME_TALLIES, SEAT_TALLIES

# -- rules.yaml --------------------------------------------------------------------------------

Kind = Literal["creature", "spell", "property", "equipment", "event"]  # effects.KINDS


# Named, typed default factories: mypy reads a lambda's list of strings as list[str]
def _all_windows() -> list[Literal["play", "event", "combat"]]:
    return ["play", "event", "combat"]


def _hp_first() -> list[Literal["hp", "silver", "zynalith"]]:
    return ["hp"]


class Rules(BaseModel):
    """Every parameter of the spec (section 2), with the seed's numbers as defaults."""

    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, ge=2, le=MAX_SEATS)
    start_hp: int = Field(30, ge=1)
    start_silver: int = Field(20, ge=0)
    start_zynalith: int = Field(3, ge=0)
    rounds: int = Field(5, ge=1, le=50)
    draft_picks: int = Field(5, ge=0, le=50)
    draft_cost: int = Field(0, ge=0)
    income_per_round: int = Field(10, ge=0)
    slots_by_round: list[int] = Field(default_factory=lambda: [3, 4, 5, 5, 5])
    market_row_size: int = Field(5, ge=1, le=20)
    take_cost: int = Field(1, ge=0)
    refund_offset: int = Field(1, ge=0)
    zynalith_sell_price: int = Field(2, ge=0)
    zynalith_per_line_win: int = Field(1, ge=0)
    defence_per_defender: int = Field(1, ge=0)
    silver_per_vp: int = Field(10, ge=1)
    greed_silver: int = Field(12, ge=0)
    greed_zynalith: int = Field(4, ge=0)
    first_player: int | Literal["random"] = 0
    unopposed_attack: bool = True
    atk_tie: Literal["tiebreak", "no_winner"] = "tiebreak"
    charge_timing: Literal["on_entry", "in_combat"] = "on_entry"
    event_draw_replaces: bool = True
    counter_windows: list[Literal["play", "event", "combat"]] = Field(default_factory=_all_windows)
    counters_per_window: int = Field(1, ge=0)
    max_attachments: int = Field(0, ge=0)
    defence_vs_effects: bool = True
    score_tiebreak: list[Literal["hp", "silver", "zynalith"]] = Field(default_factory=_hp_first)
    open_faceless_warrior: bool = True
    open_defence_by_cost: bool = False
    defence_cost_brackets: list[tuple[int, int]] = Field(
        default_factory=lambda: [(0, 0), (8, 1), (12, 2)]
    )
    fronts: int = 1
    max_main_actions_per_round: int = Field(30, ge=1)
    max_side_actions_per_turn: int = Field(10, ge=0)
    max_trigger_chain: int = Field(200, ge=1)
    max_event_chain: int = Field(10, ge=1)
    max_decisions: int = Field(20000, ge=1)


# -- cards.yaml --------------------------------------------------------------------------------


class Cost(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # defaults by keyword: mypy then knows `Cost()` is valid
    silver: int = Field(default=0, ge=0)
    zynalith: int = Field(default=0, ge=0)


class Stats(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    init: int = Field(ge=0)
    atk: int = Field(ge=0)
    def_: int = Field(alias="def", ge=0)
    hp: int = Field(ge=0)


class CounterText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windows: list[Literal["play", "event", "combat"]] = Field(min_length=1)
    subjects: list[Kind] = Field(default_factory=lambda: cast(list[Kind], list(KINDS)))


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    type: Literal["creature", "extra", "event"]
    kind: Literal["property", "spell", "equipment"] | None = None
    pile: Literal["creature", "extra"] | None = None
    cost: Cost | None = None
    stats: Stats | None = None
    vp: int = 0
    keywords: list[str] = []
    host: Literal["own", "enemy", "any", "none"] | None = None
    counter: CounterText | None = None
    effects: list[Any] = []
    tags: list[str] = []


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText] = Field(min_length=1)


# -- decks.yaml --------------------------------------------------------------------------------


class Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    creature_pile: dict[str, int]
    extra_pile: dict[str, int]


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setups: dict[str, Setup] = Field(min_length=1)
    default_setup: str


def load_spec(config_dir: Path, overrides: Mapping[str, object] | None = None) -> ZynalithSpec:
    """Read, check and compile `config_dir`; any mistake is a ConfigError naming file:line."""
    docs = read_config(Path(config_dir), documents=("rules", "cards", "decks"), overrides=overrides)
    rules = validate(Rules, docs["rules"])
    _check_rules(rules, docs["rules"])
    card_file = validate(CardFile, docs["cards"])
    deck_file = validate(DeckFile, docs["decks"])
    cards = tuple(
        _compile_card(text, docs["cards"], i, rules) for i, text in enumerate(card_file.cards)
    )
    ids = list(no_duplicates((card.id for card in cards), "card", docs["cards"], ("cards",), "id"))
    setups = _compile_setups(deck_file, docs["decks"], cards, ids, rules)
    decks = {name: _copies(piles) for name, piles in setups.items()}
    catalog = Catalog(
        cards=tuple(ids),
        decks=decks,
        counters=CARD_COUNTERS.names,
        game_stats=_game_stats(),
        shared=frozenset(decks),
    )
    with_trigger = tuple(
        frozenset(i for i, card in enumerate(cards) if card.on[t]) for t in range(len(TRIGGER_IDS))
    )
    return spec_from_rules(
        ZynalithSpec,
        rules,
        compiled_elsewhere=("atk_tie", "charge_timing"),
        catalog=catalog,
        config_hash=docs.config_hash,
        decision_cap=rules.max_decisions + 1000,  # the game's own cap always ends it first
        cards=cards,
        setups=setups,
        default_setup=deck_file.default_setup,
        with_trigger=with_trigger,
        counters=tuple(
            frozenset(i for i, card in enumerate(cards) if (card.counter_windows >> w) & 1)
            for w in (WINDOW_PLAY, WINDOW_EVENT, WINDOW_COMBAT)
        ),
        plays=tuple(
            (
                card.silver,
                card.zynalith,
                NOT_PLAYED
                if card.counter_windows or card.type == TYPE_EVENT
                else PLAY_CREATURE
                if card.type == TYPE_CREATURE
                else card.host,
                card.stats[0],
            )
            for card in cards
        ),
        first_player=-1 if rules.first_player == "random" else rules.first_player,
        atk_tie_no_winner=rules.atk_tie == "no_winner",
        charge_on_entry=rules.charge_timing == "on_entry",
        counter_windows=sum(1 << WINDOWS[w] for w in set(rules.counter_windows)),
        defence_cost_brackets=tuple(sorted(tuple(b) for b in rules.defence_cost_brackets)),
    )


def _check_rules(rules: Rules, data: Any) -> None:
    if rules.fronts != 1:
        raise fail(
            data,
            ("fronts",),
            "fronts: the open idea 'two fronts' is not specified yet",
            "keep fronts: 1",
        )
    if len(rules.slots_by_round) < rules.rounds:
        raise fail(
            data,
            ("slots_by_round",),
            f"slots_by_round names {len(rules.slots_by_round)} rounds, the game has {rules.rounds}",
            "give one slot count per round",
        )
    if any(s < 0 for s in rules.slots_by_round):
        raise fail(
            data,
            ("slots_by_round",),
            "slots_by_round: slot counts are whole numbers >= 0",
            "fix the list",
        )
    if isinstance(rules.first_player, int) and not 0 <= rules.first_player < MAX_SEATS:
        raise fail(
            data,
            ("first_player",),
            f"first_player: seat {rules.first_player} does not exist",
            "use a seat 0-4 or random",
        )


def _compile_card(text: CardText, data: Any, index: int, rules: Rules) -> CardDef:
    where = ("cards", index)
    context = f"card '{text.id}'"

    def bad(field: str | tuple[Any, ...], message: str, hint: str = "") -> ConfigError:
        path = field if isinstance(field, tuple) else (field,)
        return fail(data, (*where, *path), f"{context}: {message}", hint)

    raw = data["cards"][index]
    is_creature, is_extra, is_event = (
        text.type == "creature",
        text.type == "extra",
        text.type == "event",
    )
    if is_creature and text.stats is None:
        raise bad("type", "a creature needs stats: {init, atk, def, hp}", "add stats:")
    if not is_creature and text.stats is not None:
        raise bad("stats", "only creatures have stats", "remove stats:")
    if is_extra and text.kind is None:
        raise bad("type", "an extra card needs a kind: property, spell or equipment", "add kind:")
    if not is_extra and text.kind is not None:
        raise bad("kind", "only extra cards have a kind", "remove kind:")
    if is_event and text.pile is None:
        raise bad(
            "type", "an event needs the pile it is shuffled into: creature or extra", "add pile:"
        )
    if not is_event and text.pile is not None:
        raise bad(
            "pile",
            "only events name a pile (the others' pile follows from their type)",
            "remove pile:",
        )
    if is_event and text.cost is not None:
        raise bad("cost", "an event has no cost", "remove cost:")
    if not is_event and text.cost is None:
        raise bad("type", "a creature or extra card needs a cost: {silver, zynalith}", "add cost:")
    if not is_extra and text.host is not None:
        raise bad("host", "only extra cards have a host", "remove host:")
    if text.counter is not None and text.kind != "spell":
        raise bad(
            "counter", "only spells can be counters", "make it kind: spell or remove counter:"
        )
    host = HOSTS[text.host or "own"] if is_extra else HOST_NONE
    if host == HOST_NONE and is_extra and text.counter is None:
        raise bad(
            "host",
            "host: none is only for counters (discarded after resolving)",
            "use own, enemy or any",
        )
    keywords = _keyword_mask(
        text.keywords, raw.file, raw.key_lines.get("keywords", raw.line), text.id
    )
    if keywords and not is_creature:
        raise bad(
            "keywords",
            "only creatures print keywords (extra cards grant them)",
            "use grant_keyword",
        )
    effects: list[Fx] = []
    raw_effects = raw.get("effects", [])
    for k, entry in enumerate(text.effects):
        line = raw_effects.item_lines[k] if hasattr(raw_effects, "item_lines") else raw.line
        effect = VOCABULARY.parse_effect(entry, context, raw.file, line)
        fx = compile_effect(effect, text.id, is_event)
        loc = ("effects", k)
        if is_event and fx.trigger != T_INSTANT:
            raise bad(
                loc,
                f"events use 'instant' only, not '{TRIGGER_IDS[fx.trigger]}'",
                "write on: instant",
            )
        if fx.op == O_NEGATE and text.counter is None:
            raise bad(loc, "only counters may negate", "add counter: {windows: [...]}")
        if fx.trigger in (T_COMBAT, T_DEATH, T_DEFENCE) and not (
            is_creature or (is_extra and host != HOST_NONE)
        ):
            raise bad(
                loc,
                f"'{TRIGGER_IDS[fx.trigger]}' needs a creature: "
                "use it on creatures or host-bound extra cards",
                "",
            )
        effects.append(fx)
    stats = (0, 0, 0, 0)
    if text.stats is not None:
        s = text.stats
        stats = (s.init, s.atk, s.def_, s.hp)
        copies = any(fx.op == O_COPY and fx.trigger == T_INSTANT for fx in effects)
        if s.hp < 1 and not copies:
            raise bad(
                "stats",
                "hp must be at least 1 (0 only with an instant copy_stats effect)",
                "raise hp",
            )
    cost = text.cost or Cost()
    kind = K_CREATURE if is_creature else K_EVENT if is_event else KINDS.index(text.kind or "spell")
    on = tuple(tuple(fx for fx in effects if fx.trigger == t) for t in range(len(TRIGGER_IDS)))
    windows = sum(1 << WINDOWS[w] for w in set(text.counter.windows)) if text.counter else 0
    subjects = sum(1 << KINDS.index(k) for k in set(text.counter.subjects)) if text.counter else 0
    return CardDef(
        id=text.id,
        name=text.name,
        type=TYPE_CREATURE if is_creature else TYPE_EXTRA if is_extra else TYPE_EVENT,
        kind=kind,
        pile=(0 if text.pile == "creature" else 1) if is_event else (0 if is_creature else 1),
        silver=cost.silver,
        zynalith=cost.zynalith,
        stats=stats,
        vp=text.vp,
        keywords=keywords,
        host=host,
        counter_windows=windows,
        counter_subjects=subjects,
        effects=tuple(effects),
        on=on,
        greedy=not is_event
        and (cost.silver >= rules.greed_silver or cost.zynalith >= rules.greed_zynalith),
        is_extra=is_extra,
        open_idea="open_idea" in text.tags,
    )


def _compile_setups(
    deck_file: DeckFile, data: Any, cards: tuple[CardDef, ...], ids: list[str], rules: Rules
) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each setup's two piles as card ids, one entry per copy. Construction rules: a pile holds
    only its own type of card (and events of that pile), copies >= 1, and enough non-event cards
    to deal its market row."""
    setups: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    lookup(deck_file.setups, deck_file.default_setup, "setup", data, ("default_setup",))
    for name, setup in deck_file.setups.items():
        piles: list[tuple[int, ...]] = []
        for pile_index, field in enumerate(("creature_pile", "extra_pile")):
            contents: dict[str, int] = getattr(setup, field)
            pile: list[int] = []
            for card_name, copies in contents.items():
                loc = ("setups", name, field, card_name)
                card_id = lookup(ids, card_name, "card", data, loc, f"setup '{name}'")
                card = cards[card_id]
                if card.pile != pile_index:
                    wrong = "creature" if card.pile == 0 else "extra"
                    raise fail(
                        data,
                        loc,
                        f"setup '{name}': '{card_name}' belongs in the {wrong} pile, "
                        f"not the {field.replace('_', ' ')}",
                        f"move it to {wrong}_pile",
                    )
                if copies < 1:
                    raise fail(
                        data,
                        loc,
                        f"setup '{name}': '{card_name}' needs at least 1 copy",
                        "remove it or give 1 or more",
                    )
                if card.open_idea and not rules.open_faceless_warrior:
                    continue  # the open idea is only in the pile when switched on
                pile.extend([card_id] * copies)
            dealt = sum(1 for c in pile if cards[c].type != TYPE_EVENT)
            if dealt < rules.market_row_size:
                raise fail(
                    data,
                    ("setups", name, field),
                    f"setup '{name}': the {field.replace('_', ' ')} has {dealt} non-event "
                    f"cards, fewer than a market row ({rules.market_row_size})",
                    "add cards",
                )
            piles.append(tuple(pile))
        setups[name] = (piles[0], piles[1])
    return setups


def _copies(piles: tuple[tuple[int, ...], tuple[int, ...]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for pile in piles:
        for card in pile:
            counts[card] = counts.get(card, 0) + 1
    return counts


def _game_stats() -> tuple[str, ...]:
    names = ["rounds", "first_player", "cap_hits", *(f"cap_{cap}" for cap in CAPS), *GAME_TALLIES]
    per_seat = ["hp", "vp", "vp_printed", "vp_bonus", "silver", "zynalith", *SEAT_TALLIES]
    for seat in range(MAX_SEATS):
        names.extend(f"{name}_{seat}" for name in per_seat)
    return tuple(names)
