"""beings' compiled spec: the rule numbers, the field, the type chart and the card table with its
compiled skills, made by cards.load_spec and read by every other module of the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from balance.core.contract import Catalog

MAX_SEATS = 2
NEUTRAL, DOUBLE, RESIST = 0, 1, 2  # R16 multiplier kinds


class Skill:
    """One compiled skill entry of one card. Immutable once built (shared by every match)."""

    __slots__ = (
        "active",
        "card",
        "conditions",
        "cost",
        "filter",
        "index",
        "n",
        "op",
        "optional",
        "pick_random",
        "target",
        "text",
        "trigger",
        "until",
    )

    def __init__(
        self,
        card: int,
        index: int,
        trigger: int,
        cost: int,
        op: int,
        target: int,
        filter: tuple[tuple[int, int], ...],
        conditions: tuple[tuple[int, int], ...],
        optional: bool,
        n: int,
        until: int,
        pick_random: bool,
        active: bool,
        text: str,
    ) -> None:
        self.card = card
        self.index = index  # its place in the card's `skills` list
        self.trigger = trigger
        self.cost = cost  # gems, `turn/main` only
        self.op = op
        self.target = target
        self.filter = filter  # ((F_*, value), ...); type values are type indexes
        self.conditions = conditions  # ((C_*, value), ...)
        self.optional = optional
        self.n = n
        self.until = until
        self.pick_random = pick_random  # discard: RNG picks, not the owner
        self.active = active  # gain_gems: the gems arrive active
        self.text = text  # the entry as the designer wrote it, for describe()


# -- the compiled spec ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BeingsSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    # rules.yaml, as plain attributes
    being_deck_size: int
    beings_per_deck: int
    levels: int
    gem_deck_size: int
    opening_hand: int
    mulligan_allowed: bool
    life_cards: int
    first_player: str
    start_gems_first: int
    start_gems_second: int
    draw_per_turn: int
    first_player_skips_draw: bool
    first_turn_attack: bool
    gems_per_turn: int
    gem_draw_cost: int
    equip_power: int
    equip_requires_empty_deck: bool
    skip_evolve_cost_mode: str
    skip_evolve_cost: int
    evolve_min_cost: int
    evolutions_per_being_per_turn: int
    evolve_on_play_turn: bool
    play_skill_on_evolve: bool
    double_multiplier: int
    resist_divisor: int
    defense_margin: int
    discard_defense_divisor: int
    zero_life_haste: bool
    block_reach: str
    block_rests_blocker: bool
    replace_only_when_full: bool
    trigger_order: str
    turn_limit: int
    cap_result: str
    max_actions_per_turn: int
    # the field
    locations: tuple[str, ...]  # location names, index = location
    loc_index: Mapping[str, int]
    reach: tuple[tuple[int, ...], ...]  # R25: locations a Being at each location may attack
    blockers: tuple[tuple[int, ...], ...]  # G5: locations that may block an attacker at each
    # the type chart (G1)
    types: tuple[str, ...]
    strong: tuple[frozenset[int], ...]
    weak: tuple[frozenset[int], ...]
    multiplier: tuple[tuple[int, ...], ...]  # [attacker type][defender type] -> NEUTRAL/...
    # [attacker type][defender type] -> (times, per), or None where neutral: R16's multiplier as
    # one formula, the attacker's base becomes ceil(base * times / per) (doubled:
    # (double_multiplier, 1); resisted: (1, resist_divisor)); see state.attack_power
    ratio: tuple[tuple[tuple[int, int] | None, ...], ...]
    # the cards, indexed by card id
    being: tuple[int, ...]  # index into being_names
    being_names: tuple[str, ...]
    level: tuple[int, ...]
    type_of: tuple[int, ...]
    cost: tuple[int, ...]
    power: tuple[int, ...]
    titles: tuple[str, ...]
    skills: tuple[tuple[Skill, ...], ...]  # every entry, in listed order
    triggers: tuple[tuple[tuple[Skill, ...], ...], ...]  # [card][trigger] -> entries
    main_skills: tuple[tuple[Skill, ...], ...]  # [card] -> its `turn/main` entries
    evolutions: tuple[
        tuple[tuple[int, int, bool, tuple[Any, ...]], ...], ...
    ]  # [top] -> (new, cost,
    # skips a level, the option per location)
    cheapest_evolution: int  # the least price of any evolution: with fewer gems, none is affordable
    discard_gain: tuple[int, ...]  # G6: defence a discarded card adds
    # option tuples built once (the engine's encoding of choices)
    play_options: tuple[tuple[tuple[Any, ...], ...], ...]  # [card][loc]
    discard_options: tuple[tuple[Any, ...], ...]  # [card]
    attack_life: tuple[tuple[Any, ...], ...]  # [loc]
    attack_being: tuple[tuple[tuple[Any, ...], ...], ...]  # [loc][target loc]
    block_options: tuple[tuple[Any, ...], ...]  # [loc]
    equip_options: tuple[tuple[Any, ...], ...]  # [loc]
    # decks
    deck_beings: Mapping[str, tuple[str, ...]]
    matchups: tuple[tuple[str, str], ...]
    warnings: tuple[str, ...]
