"""beings' config: the schema of rules.yaml, cards.yaml and decks.yaml, compiled once into an
immutable `BeingsSpec` of plain ints and tuples (card id = index in `catalog.cards`).

Every mistake a designer can make is one ConfigError naming file:line. Doubtful but legal data (a
type chart that is not mirrored, a level that costs no more than the one below) is kept as a
one-line entry in `spec.warnings`.
"""

from __future__ import annotations

import itertools
import math
import warnings as _warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.errors import DataWarning
from balance.core.yamlio import line_of
from balance.games.beings.effects import (
    BEING_OPS,
    CARD_FILTER_OPS,
    CARD_FILTERS,
    CONDITION_CODES,
    F_TYPE,
    FILTER_CODES,
    KIND_BEING,
    KIND_LIFE,
    OP_CODES,
    PLAYER_OPS,
    PLAYER_SELECTORS,
    REVIVE,
    SELECTOR_CODES,
    TRIGGER_CODES,
    TURN_MAIN,
    UNTIL_CODES,
    VIA_EVOLVE,
    VIA_SUMMON,
    VOCABULARY,
)
from balance.games.beings.spec import DOUBLE, MAX_SEATS, NEUTRAL, RESIST, BeingsSpec, Skill
from balance.games.beings.state import COUNTERS, GAME_STATS, SEAT_STATS

Note = tuple[str | None, int | None, str]  # a config warning: file, line, message


# -- schema ---------------------------------------------------------------------------------------


class TypeEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    strong: list[str] = []
    weak: list[str] = []


class Rules(BaseModel):
    """rules.yaml: every parameter of spec §2 with its default."""

    model_config = ConfigDict(extra="forbid")
    being_deck_size: int = Field(36, ge=1)
    beings_per_deck: int = Field(12, ge=1)
    levels: int = Field(3, ge=1)
    gem_deck_size: int = Field(8, ge=0)
    opening_hand: int = Field(6, ge=0)
    mulligan_allowed: bool = True
    life_cards: int = Field(3, ge=0)
    first_player: Literal["seat0", "seat1", "random"] = "seat0"
    start_gems_first: int = Field(2, ge=0)
    start_gems_second: int = Field(3, ge=0)
    draw_per_turn: int = Field(1, ge=0)
    first_player_skips_draw: bool = True
    first_turn_attack: bool = False
    gems_per_turn: int = Field(2, ge=0)
    gem_draw_cost: int = Field(1, ge=1)
    equip_power: int = 1
    equip_requires_empty_deck: bool = True
    locations: list[str] = Field(["L", "C", "R"], min_length=1)
    reach: dict[str, list[str]] = {"L": ["L", "C"], "C": ["L", "C", "R"], "R": ["C", "R"]}
    skip_evolve_cost_mode: Literal["fixed", "difference"] = "fixed"
    skip_evolve_cost: int = Field(2, ge=0)
    evolve_min_cost: int = Field(0, ge=0)
    evolutions_per_being_per_turn: int = Field(1, ge=0)
    evolve_on_play_turn: bool = True
    play_skill_on_evolve: bool = True
    double_multiplier: int = Field(2, ge=1)
    resist_divisor: int = Field(2, ge=1)
    defense_margin: int = 1
    discard_defense_divisor: int = Field(1, ge=1)
    zero_life_haste: bool = True
    block_reach: Literal["any", "reach"] = "any"
    block_rests_blocker: bool = True
    replace_only_when_full: bool = False
    trigger_order: Literal["location", "choose"] = "location"
    turn_limit: int = Field(60, ge=1)
    cap_result: Literal["draw", "tiebreak"] = "draw"
    max_actions_per_turn: int = Field(200, ge=1)
    type_chart: dict[str, TypeEntry]


class CardText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    being: str = Field(min_length=1)
    level: int = Field(ge=1)
    title: str | None = None
    type: str
    cost: int = Field(ge=0)
    power: int = Field(ge=0)
    skills: list[Any] = []


class CardFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[CardText] = Field(min_length=1)


class DeckText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    beings: list[str] | None = None  # the spec's form: Being names, all levels of each
    cards: list[str] | None = None  # or every card id, for a deck built card by card
    gems: int = Field(ge=0)
    gem_art: list[str] = []  # cosmetic


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decks: dict[str, DeckText] = Field(min_length=1)
    matchups: list[tuple[str, str]] = []


def load_spec(config_dir: Path, overrides: Mapping[str, object] | None = None) -> BeingsSpec:
    """Read, check and compile `config_dir`'s rules.yaml, cards.yaml and decks.yaml."""
    docs = read_config(config_dir, documents=("rules", "cards", "decks"), overrides=overrides)
    notes: list[Note] = []
    rules = validate(Rules, docs["rules"])
    locations, loc_index, reach, blockers = _field(rules, docs["rules"])
    types, strong, weak = _type_chart(rules, docs["rules"], notes)
    type_index = {name: i for i, name in enumerate(types)}
    # R16: strong into the defender doubles; weak into it halves, where it is strong back
    multiplier = tuple(
        tuple(
            DOUBLE if d in strong[a] else RESIST if d in weak[a] and a in strong[d] else NEUTRAL
            for d in range(len(types))
        )
        for a in range(len(types))
    )
    card_file = validate(CardFile, docs["cards"])
    cards = card_file.cards
    raw_cards = docs["cards"]["cards"]
    ids = tuple(card.id for card in cards)
    _check_cards(rules, cards, raw_cards, types, notes)
    being_names = tuple(dict.fromkeys(card.being for card in cards))
    being_index = {name: i for i, name in enumerate(being_names)}
    skills = tuple(
        _compile_skills(index, card, raw_cards[index], type_index)
        for index, card in enumerate(cards)
    )
    by_being_level = {(card.being, card.level): i for i, card in enumerate(cards)}
    decks, deck_beings, matchups = _decks(rules, docs["decks"], cards, ids, by_being_level)

    levels = tuple(card.level for card in cards)
    costs = tuple(card.cost for card in cards)
    names = locations
    evolutions = []
    for top, card in enumerate(cards):
        ways = []
        for higher in range(card.level + 1, rules.levels + 1):
            new = by_being_level[(card.being, higher)]
            gap = costs[new] - costs[top]
            skips = higher > card.level + 1
            if skips and rules.skip_evolve_cost_mode == "fixed":
                price = rules.skip_evolve_cost
            else:
                price = max(rules.evolve_min_cost, gap)
            per_loc = tuple(("evolve", new, name) for name in names)
            ways.append((new, price, skips, per_loc))
        evolutions.append(tuple(ways))
    triggers = tuple(
        tuple(tuple(s for s in card_skills if s.trigger == t) for t in range(len(TRIGGER_CODES)))
        for card_skills in skills
    )
    catalog = Catalog(
        cards=ids,
        decks=decks,
        counters=COUNTERS.names,
        game_stats=GAME_STATS.names
        + tuple(f"{name}_{seat}" for name in SEAT_STATS for seat in range(MAX_SEATS)),
        deck_seats={name: (MAX_SEATS,) for name in decks},
    )
    for file, line, message in notes:
        # shown as `rules.yaml:59: DataWarning: ...` with the YAML line below it
        _warnings.warn_explicit(message, DataWarning, file or "config", line or 0)
    return spec_from_rules(
        BeingsSpec,
        rules,
        compiled_elsewhere=("type_chart",),
        catalog=catalog,
        config_hash=docs.config_hash,
        # Generous: the turn limit and the per-turn action cap end every game long before.
        decision_cap=(rules.turn_limit + 1) * (rules.max_actions_per_turn + 100) * 4,
        locations=locations,
        loc_index=loc_index,
        reach=reach,
        blockers=blockers,
        types=types,
        strong=strong,
        weak=weak,
        multiplier=multiplier,
        ratio=tuple(
            tuple(
                (rules.double_multiplier, 1)
                if kind == DOUBLE
                else (1, rules.resist_divisor)
                if kind == RESIST
                else None
                for kind in row
            )
            for row in multiplier
        ),
        being=tuple(being_index[card.being] for card in cards),
        being_names=being_names,
        level=levels,
        type_of=tuple(type_index[card.type] for card in cards),
        cost=costs,
        power=tuple(card.power for card in cards),
        titles=tuple(card.title or card.being for card in cards),
        skills=skills,
        triggers=triggers,
        main_skills=tuple(entries[TURN_MAIN] for entries in triggers),
        evolutions=tuple(evolutions),
        cheapest_evolution=min((way[1] for ways in evolutions for way in ways), default=0),
        discard_gain=tuple(math.ceil(card.power / rules.discard_defense_divisor) for card in cards),
        play_options=tuple(tuple(("play", c, name) for name in names) for c in range(len(ids))),
        discard_options=tuple(("discard", c) for c in range(len(ids))),
        attack_life=tuple(("attack", name, "life") for name in names),
        attack_being=tuple(tuple(("attack", a, t) for t in names) for a in names),
        block_options=tuple(("block", name) for name in names),
        equip_options=tuple(("equip", name) for name in names),
        deck_beings=deck_beings,
        matchups=matchups,
        warnings=tuple(f"{file}:{line}: {message}" for file, line, message in notes),
    )


# -- checks a schema cannot make ------------------------------------------------------------------


def _field(
    rules: Rules, raw: Any
) -> tuple[tuple[str, ...], dict[str, int], tuple[Any, ...], tuple[Any, ...]]:
    locations = tuple(rules.locations)
    loc_index = no_duplicates(locations, "location", raw, ("locations",))
    for name, targets in rules.reach.items():
        lookup(loc_index, name, "location", raw, ("reach", name), "reach")
        for i, target in enumerate(targets):
            lookup(loc_index, target, "location", raw, ("reach", name, i), f"reach.{name}")
    for name in locations:
        if name not in rules.reach:
            raise fail(
                raw,
                ("reach",),
                f"reach: no entry for location '{name}'",
                f"add {name}: [locations it may attack]",
            )
    reach = tuple(tuple(loc_index[t] for t in rules.reach[name]) for name in locations)
    if rules.block_reach == "any":
        blockers = tuple(tuple(range(len(locations))) for _ in locations)
    else:  # a blocker at b may block an attacker at a when b is in reach[a]
        blockers = reach
    return locations, loc_index, reach, blockers


def _type_chart(
    rules: Rules, raw: Any, notes: list[Note]
) -> tuple[tuple[str, ...], tuple[Any, ...], tuple[Any, ...]]:
    types = tuple(rules.type_chart)
    if not types:
        raise fail(raw, ("type_chart",), "type_chart names no type", "list the 12 types")
    index = {name: i for i, name in enumerate(types)}
    strong: list[frozenset[int]] = []
    weak: list[frozenset[int]] = []
    for name, entry in rules.type_chart.items():
        for side in ("strong", "weak"):
            for i, other in enumerate(getattr(entry, side)):
                at = ("type_chart", name, side, i)
                lookup(index, other, "type", raw, at, f"type_chart.{name}.{side}")
        both = set(entry.strong) & set(entry.weak)
        if both:
            raise fail(
                raw,
                ("type_chart", name),
                f"type_chart.{name}: '{min(both)}' is listed as both + and -",
                "a type may be strong or weak against another, not both",
            )
        strong.append(frozenset(index[t] for t in entry.strong))
        weak.append(frozenset(index[t] for t in entry.weak))
    for name, entry in rules.type_chart.items():
        where = ("type_chart", name)
        for other in entry.weak:
            if name not in rules.type_chart[other].strong:
                _note(
                    notes,
                    raw,
                    where,
                    f"type_chart.{name} is weak against {other} but "
                    f"{other} is not strong against {name}: that - entry is inert (R16)",
                )
        for other in entry.strong:
            if name not in rules.type_chart[other].weak:
                _note(
                    notes,
                    raw,
                    where,
                    f"type_chart.{name} is strong against {other} but "
                    f"{other} does not list {name} as weak (the chart is not mirrored)",
                )
    return types, tuple(strong), tuple(weak)


def _check_cards(
    rules: Rules, cards: list[CardText], raw: Any, types: tuple[str, ...], notes: list[Note]
) -> None:
    no_duplicates((card.id for card in cards), "card", raw, (), "id")
    by_being: dict[str, dict[int, int]] = {}
    for i, card in enumerate(cards):
        if card.level > rules.levels:
            raise fail(
                raw,
                (i, "level"),
                f"card '{card.id}': level {card.level} is above levels ({rules.levels})",
                f"use 1..{rules.levels}",
            )
        lookup(types, card.type, "type", raw, (i, "type"), f"card '{card.id}'")
        levels = by_being.setdefault(card.being, {})
        if card.level in levels:
            first = cards[levels[card.level]].id
            raise fail(
                raw,
                (i, "level"),
                f"card '{card.id}': Being '{card.being}' already has a "
                f"level {card.level} card ('{first}')",
                "each Being has one card per level",
            )
        levels[card.level] = i
    for being, levels in by_being.items():
        first_index = min(levels.values())
        for level in range(1, rules.levels + 1):
            if level not in levels:
                raise fail(
                    raw,
                    (first_index,),
                    f"Being '{being}' has no level {level} card",
                    f"add its L{level} card: every Being needs all {rules.levels} levels",
                )
        ordered = [cards[levels[lv]] for lv in range(1, rules.levels + 1)]
        for card in ordered[1:]:
            if card.type != ordered[0].type:
                # blame the level whose type an override set, else the one that differs
                base, other = ordered[0], card
                if overridden(raw, (levels[base.level], "type")):
                    base, other = card, ordered[0]
                raise fail(
                    raw,
                    (levels[other.level], "type"),
                    f"card '{other.id}': type {other.type} differs from its Being's {base.type}",
                    "all levels of a Being share one type",
                )
        for lower, upper in itertools.pairwise(ordered):
            if upper.cost <= lower.cost:
                _note(
                    notes,
                    raw,
                    (levels[upper.level], "cost"),
                    f"card '{upper.id}' costs "
                    f"{upper.cost}, not more than '{lower.id}' ({lower.cost})",
                )


def _compile_skills(
    card_id: int, card: CardText, raw_card: Any, type_index: Mapping[str, int]
) -> tuple[Skill, ...]:
    compiled = []
    raw_skills = raw_card.get("skills", []) if isinstance(raw_card, dict) else []
    for index, raw in enumerate(raw_skills):
        context = f"card '{card.id}'"
        effect = VOCABULARY.parse_effect(raw, context, *_where_pair(raw_skills, index))
        fields = effect.fields
        op = OP_CODES[effect.op]
        if effect.trigger == "turn":
            if fields.timing is None:
                raise fail(
                    raw,
                    ("on",),
                    f"{context}: a turn skill needs a timing",
                    "add timing: start, end or main",
                )
            trigger = TRIGGER_CODES[fields.timing]
        else:
            if fields.timing is not None:
                raise fail(
                    raw,
                    ("timing",),
                    f"{context}: timing belongs to turn skills only",
                    "remove it, or write on: turn",
                )
            assert effect.trigger is not None  # parse_effect reads a top-level entry: it has `on:`
            trigger = TRIGGER_CODES[effect.trigger]
        if fields.cost is not None and trigger != TURN_MAIN:
            raise fail(
                raw,
                ("cost",),
                f"{context}: only turn/main skills have a gem cost",
                "remove cost, or write on: turn, timing: main",
            )
        if effect.target is None:
            target = SELECTOR_CODES["me"] if op in PLAYER_OPS else SELECTOR_CODES["self"]
        else:
            target = SELECTOR_CODES[effect.target.selector]
        if op in PLAYER_OPS and target not in PLAYER_SELECTORS:
            raise fail(
                raw,
                ("target",),
                f"{context}: op '{effect.op}' targets a player",
                "use target: me or opponent",
            )
        if op in BEING_OPS and target in PLAYER_SELECTORS:
            raise fail(
                raw,
                ("target",),
                f"{context}: op '{effect.op}' targets a Being",
                "use self, attacker, defender, across, choose_own, choose_opp, all_own or all_opp",
            )
        if op == REVIVE and effect.target is not None and target != SELECTOR_CODES["me"]:
            raise fail(
                raw,
                ("target",),
                f"{context}: revive always brings back the controller's own card",
                "remove the target",
            )
        flt: list[tuple[int, int]] = []
        if fields.filter is not None:
            if op in PLAYER_OPS and op not in CARD_FILTER_OPS:
                raise fail(
                    raw, ("filter",), f"{context}: op '{effect.op}' takes no filter", "remove it"
                )
            for key, value in fields.filter.model_dump(exclude_none=True).items():
                code = FILTER_CODES[key]
                if op in CARD_FILTER_OPS and code not in CARD_FILTERS:
                    raise fail(
                        raw,
                        ("filter", key),
                        f"{context}: filter '{key}' reads a Being "
                        f"in play, but '{effect.op}' picks cards",
                        "remove it",
                    )
                if code == F_TYPE:
                    value = lookup(type_index, str(value), "type", raw, ("filter", key), context)
                flt.append((code, int(value)))
        conditions: list[tuple[int, int]] = []
        for name, value in effect.conditions.items():
            code = CONDITION_CODES[name]
            if name == "via":
                if effect.trigger != "play":
                    raise fail(
                        raw, ("if", name), f"{context}: 'via' applies to play skills", "remove it"
                    )
                value = VIA_EVOLVE if value == "evolve" else VIA_SUMMON
            elif name == "target_kind":
                if effect.trigger not in ("attack", "block"):
                    raise fail(
                        raw,
                        ("if", name),
                        f"{context}: 'target_kind' applies to attack and block skills",
                        "remove it",
                    )
                value = KIND_LIFE if value == "life" else KIND_BEING
            conditions.append((code, int(value)))
        params = effect.params
        compiled.append(
            Skill(
                card=card_id,
                index=index,
                trigger=trigger,
                cost=fields.cost or 0,
                op=op,
                target=target,
                filter=tuple(flt),
                conditions=tuple(conditions),
                optional=fields.optional,
                n=getattr(params, "n", 1) if params is not None else 1,
                until=UNTIL_CODES[getattr(params, "until", "attack")],
                pick_random=getattr(params, "pick", "owner") == "random",
                active=getattr(params, "state", "active") == "active",
                text=_skill_text(raw),
            )
        )
    return tuple(compiled)


def _decks(
    rules: Rules,
    raw: Any,
    cards: list[CardText],
    ids: tuple[str, ...],
    by_being_level: Mapping[tuple[str, int], int],
) -> tuple[dict[Any, Any], dict[Any, Any], tuple[Any, ...]]:
    deck_file = validate(DeckFile, raw)
    id_index = {card_id: i for i, card_id in enumerate(ids)}
    beings = list(dict.fromkeys(card.being for card in cards))
    decks: dict[str, dict[int, int]] = {}
    deck_beings: dict[str, tuple[str, ...]] = {}
    for name, deck in deck_file.decks.items():
        where = ("decks", name)
        if (deck.beings is None) == (deck.cards is None):
            raise fail(
                raw,
                where,
                f"deck '{name}': give either beings: or cards:",
                "list 12 Being names under beings:",
            )
        context = f"deck '{name}'"
        if deck.beings is not None:
            for i, being in enumerate(deck.beings):
                lookup(beings, being, "Being", raw, (*where, "beings", i), context)
            hint = "R1: 12 unique Beings, each with all levels"
            no_duplicates(deck.beings, "Being", raw, (*where, "beings"), hint=hint, context=context)
            contents = [
                by_being_level[(b, lv)] for b in deck.beings for lv in range(1, rules.levels + 1)
            ]
            key = "beings"
        else:
            listed = deck.cards or []
            contents = [
                lookup(id_index, card_id, "card", raw, (*where, "cards", i), context)
                for i, card_id in enumerate(listed)
            ]
            hint = "each level of a Being appears once"
            no_duplicates(listed, "card", raw, (*where, "cards"), hint=hint, context=context)
            key = "cards"
        if len(contents) != rules.being_deck_size:
            raise fail(
                raw,
                (*where, key),
                f"deck '{name}' has {len(contents)} Being cards; R1 "
                f"needs exactly {rules.being_deck_size} ({rules.beings_per_deck} Beings × "
                f"{rules.levels} levels)",
                "add or remove cards",
            )
        names = list(dict.fromkeys(cards[c].being for c in contents))
        for being in names:
            held = {cards[c].level for c in contents if cards[c].being == being}
            missing = [lv for lv in range(1, rules.levels + 1) if lv not in held]
            if missing:
                raise fail(
                    raw,
                    (*where, key),
                    f"deck '{name}': Being '{being}' lacks level {missing[0]}",
                    "R1: no partial sets, every Being with all levels",
                )
        if len(names) != rules.beings_per_deck:
            raise fail(
                raw,
                (*where, key),
                f"deck '{name}' has {len(names)} Beings; R1 needs exactly {rules.beings_per_deck}",
                "add or remove Beings",
            )
        if deck.gems != rules.gem_deck_size:
            raise fail(
                raw,
                (*where, "gems"),
                f"deck '{name}' has {deck.gems} gems; R2 needs exactly {rules.gem_deck_size}",
                f"write gems: {rules.gem_deck_size}",
            )
        decks[name] = {card: 1 for card in contents}
        deck_beings[name] = tuple(names)
    for i, (a, b) in enumerate(deck_file.matchups):
        for deck_name in (a, b):
            lookup(decks, deck_name, "deck", raw, ("matchups", i), "matchups")
    return decks, deck_beings, tuple(deck_file.matchups)


def _note(notes: list[Note], raw: Any, loc: tuple[Any, ...], message: str) -> None:
    """Keep a warning about the value at `loc` (legal data a designer probably did not mean)."""
    file, line = line_of(raw, loc)
    notes.append((file, line, message))


def _where_pair(raw: Any, index: int) -> tuple[str | None, int | None]:
    return line_of(raw, (index,))


def _skill_text(raw: Any) -> str:
    """The entry in the designer's words, e.g. `attack: power 2 self if type_advantage`."""
    if not isinstance(raw, dict):
        return str(raw)
    on = str(raw.get("on"))
    if "timing" in raw:
        on += f"/{raw['timing']}"
    skip = {"on", "timing", "do", "target", "if", "filter"}
    params = " ".join(f"{k}={v}" for k, v in raw.items() if k not in skip)
    text = f"{on}: {raw.get('do')} {raw.get('target', '')} {params}".strip()
    if "filter" in raw:
        text += " " + ",".join(f"{k}={v}" for k, v in dict(raw["filter"]).items())
    if "if" in raw:
        text += " if " + ",".join(f"{k}={v}" for k, v in dict(raw["if"]).items())
    return " ".join(text.split())


def overridden(raw: Any, loc: tuple[Any, ...]) -> bool:
    """Whether a `--set` (or patch) gave the value at `loc`."""
    where, _ = line_of(raw, loc)
    return bool(where) and str(where).startswith("--set ")
