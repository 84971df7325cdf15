"""arrows' compiled spec: the rule numbers, the board, the card table and the compiled card
effects with their codes, made by cards.load_spec and read by every other module of the game."""

from __future__ import annotations

from dataclasses import dataclass

from balance.core.contract import Catalog

# -- compiled card effects ---------------------------------------------------------------------

AMOUNT_ATK = -1
NO_LIMIT = 1 << 30
ADJACENT_COUNT, VIA, CREDITS, SCORE_DIFF = range(4)


@dataclass(frozen=True, slots=True)
class CardFilterRule:
    owner: int
    face: int
    element: int  # NO_ELEMENT: any
    pick_one: bool


@dataclass(frozen=True, slots=True)
class Condition:
    kind: int  # ADJACENT_COUNT, VIA, CREDITS, SCORE_DIFF
    low: int
    high: int
    filter: CardFilterRule | None = None  # adjacent_count
    vias: int = 0  # via: bit per VIAS index


@dataclass(frozen=True, slots=True)
class TargetRule:
    """The `target:` condition: what a target card must be."""

    owner: int
    face: int
    max_cost: int
    max_atk: int
    max_def: int


@dataclass(frozen=True, slots=True)
class CardEffect:
    card: int
    trigger: int
    op: int
    arrow: int  # -1: none
    optional: bool
    selector: int
    filter: CardFilterRule | None  # adjacent / board selectors
    amount: int  # damage / gain_credits / draw; AMOUNT_ATK: the source's current ATK
    pull_owner: int
    free: bool  # place_covered
    atk: int  # modify_stats
    def_: int
    permanent: bool
    conditions: tuple[Condition, ...]
    target_rule: TargetRule | None


@dataclass(frozen=True, slots=True)
class ArrowsSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    # rules.yaml, as written
    starting_credits: int
    credits_per_turn: int
    skip_credits_on_own_first_turn: bool
    draw_per_turn: int
    hand_limit: int
    board_cols: int
    board_rows: int
    directions: int
    plays_per_turn: int
    placement_requires_adjacency: bool
    ability_arrows_fight: bool
    damage_reset: str
    covered_hit: str
    unpaid_reveal: str
    push_off_board: str
    max_reactivations_per_card_per_turn: int
    max_activations_per_turn: int
    score_covered: bool
    board_full_end: str
    stall_turns: int
    max_turns: int
    tiebreak: str
    starting_hand: int
    deck_size: int
    max_copies: int
    first_player: str
    deck_out: str
    open_decklists: bool
    # the board (G1)
    cells: int
    cell_names: tuple[str, ...]  # "A1" ... in reading order
    neighbor: tuple[tuple[int, ...], ...]  # [cell][direction] -> cell, or -1 off the grid
    orthogonal: tuple[tuple[int, ...], ...]  # [cell] -> the orthogonal neighbours on the grid
    adjacent: tuple[tuple[int, ...], ...]  # [cell] -> the (up to) 8 neighbours on the grid
    # Cell sets as bit masks (bit `cell`), for the board's occupancy and the evaluation.
    all_cells: int
    covered_sides: tuple[int, ...]  # [cell] -> the neighbours an arrow can come from (8 or 4)
    # the card table, by card id
    names: tuple[str, ...]
    cost: tuple[int, ...]
    atk: tuple[int, ...]
    def_: tuple[int, ...]
    arrows: tuple[tuple[int, ...], ...]
    fight_arrows: tuple[tuple[int, ...], ...]  # the arrows that fight, defend and flip (G3)
    fight_mask: tuple[int, ...]
    element: tuple[int, ...]  # -1: none
    elements: tuple[str, ...]
    abilities: tuple[tuple[CardEffect, ...], ...]
    ability_at: tuple[tuple[CardEffect | None, ...], ...]  # [card][direction]
    on_activate: tuple[tuple[CardEffect, ...], ...]
    on_reactivate: tuple[tuple[CardEffect, ...], ...]
    on_flipped: tuple[tuple[CardEffect, ...], ...]
    on_destroyed: tuple[tuple[CardEffect, ...], ...]
    on_turn_end: tuple[tuple[CardEffect, ...], ...]
    # [card] -> its plays on every cell, (card, mode, cell): active on cells 0 ... cells-1, then
    # covered on the same cells (rules.open_cells picks the empty ones from it)
    plays: tuple[tuple[tuple[int, int, int], ...], ...]
    # [card][cell] -> (arrow, the cell it points at, the bit of the opposite arrow) for each
    # fighting arrow that stays on the grid: what conflicts and flips look at (G3).
    aims: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    aimed: tuple[tuple[int, ...], ...]  # [card][cell] -> the cells of `aims`, as a bit mask
    # [card][cell] -> the neighbours in the directions without a fighting arrow: where an
    # opponent's arrow could flip the card from (§10 exposure).
    open_sides: tuple[tuple[int, ...], ...]
    cost_warnings: tuple[str, ...]
