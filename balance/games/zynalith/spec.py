"""zynalith's compiled spec: the rule numbers, the card table and the compiled effect entries
with their codes, made by cards.load_spec and read by every other module of the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from balance.core.contract import Catalog

MAX_SEATS = 5

# -- compiled effect entries ---------------------------------------------------------------------

# An effect entry's sides, positions, `by` and rows (effects.py names their words and numbers the
# selectors: an entry without a target has SEL_NONE, the op's default)
SEL_NONE = -1

SIDE_ANY, SIDE_OWN, SIDE_ENEMY = 0, 1, 2
POS_ANY, POS_ATTACK, POS_DEFENCE, POS_TOGGLE = 0, 1, 2, 3
BY_ANY, BY_SELF, BY_OWN, BY_ENEMY = 0, 1, 2, 3
ROW_CREATURE, ROW_EXTRA, ROW_BOTH, ROW_CHOICE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Fx:
    """One compiled effect entry. Unused fields keep their defaults."""

    trigger: int
    op: int
    sel: int = SEL_NONE
    side: int = SIDE_ANY
    pick_position: int = POS_ANY
    by: int = BY_ANY
    conds: tuple[tuple[int, int, int, int, int], ...] = ()
    amount: int = 0
    stat: int = 0
    round_only: bool = False
    resource: int = 0
    keywords: int = 0  # damage: the effect's keywords; grant_keyword: the keyword granted
    pile: int = 0  # draw: CREATURE_PILE, EXTRA_PILE or ROW_CHOICE
    position: int = POS_ANY
    row: int = ROW_BOTH
    overheal: bool = False
    copy: tuple[int, ...] = ()
    count: int = 1
    text: str = ""  # "card: on combat do damage" for error messages and replays


# -- compiled cards ----------------------------------------------------------------------------

TYPE_CREATURE, TYPE_EXTRA, TYPE_EVENT = 0, 1, 2
HOST_OWN, HOST_ENEMY, HOST_ANY, HOST_NONE = 0, 1, 2, 3
HOSTS = {"own": HOST_OWN, "enemy": HOST_ENEMY, "any": HOST_ANY, "none": HOST_NONE}
PLAY_CREATURE, NOT_PLAYED = 4, -1  # ZynalithSpec.plays, beside the host codes
WINDOW_PLAY, WINDOW_EVENT, WINDOW_COMBAT = 0, 1, 2
WINDOWS = {"play": WINDOW_PLAY, "event": WINDOW_EVENT, "combat": WINDOW_COMBAT}


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card, compiled. `on[trigger]` holds its effects for that trigger in listed order."""

    id: str
    name: str
    type: int  # TYPE_CREATURE / TYPE_EXTRA / TYPE_EVENT
    kind: int  # subject kind: K_CREATURE, K_SPELL, K_PROPERTY, K_EQUIPMENT or K_EVENT
    pile: int  # CREATURE_PILE or EXTRA_PILE
    silver: int
    zynalith: int
    stats: tuple[int, int, int, int]
    vp: int
    keywords: int
    host: int
    counter_windows: int  # bit per window; 0: not a counter
    counter_subjects: int  # bit per subject kind
    effects: tuple[Fx, ...]
    on: tuple[tuple[Fx, ...], ...]
    greedy: bool  # playing it fires Gier
    is_extra: bool
    open_idea: bool


@dataclass(frozen=True, slots=True)
class ZynalithSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    cards: tuple[CardDef, ...]
    setups: Mapping[
        str, tuple[tuple[int, ...], tuple[int, ...]]
    ]  # name -> (creature pile, extra pile)
    default_setup: str
    with_trigger: tuple[frozenset[int], ...]  # trigger -> ids of cards that have it
    counters: tuple[frozenset[int], ...]  # window -> ids of the counters played in it
    # card -> (silver, zynalith, how, init) for listing main-action plays at speed: how is
    # PLAY_CREATURE, an extra card's host (HOST_OWN / HOST_ENEMY / HOST_ANY), or NOT_PLAYED
    # (counters and events are never a main action)
    plays: tuple[tuple[int, int, int, int], ...]
    players: int
    start_hp: int
    start_silver: int
    start_zynalith: int
    rounds: int
    draft_picks: int
    draft_cost: int
    income_per_round: int
    slots_by_round: tuple[int, ...]
    market_row_size: int
    take_cost: int
    refund_offset: int
    zynalith_sell_price: int
    zynalith_per_line_win: int
    defence_per_defender: int
    silver_per_vp: int
    greed_silver: int
    greed_zynalith: int
    first_player: int  # a seat, or -1 for random
    unopposed_attack: bool
    atk_tie_no_winner: bool
    charge_on_entry: bool
    event_draw_replaces: bool
    counter_windows: int  # bit per window kind in play
    counters_per_window: int
    max_attachments: int
    defence_vs_effects: bool
    score_tiebreak: tuple[str, ...]
    open_faceless_warrior: bool
    open_defence_by_cost: bool
    defence_cost_brackets: tuple[tuple[int, ...], ...]  # (min_cost, defence) pairs, ascending
    fronts: int
    max_main_actions_per_round: int
    max_side_actions_per_turn: int
    max_trigger_chain: int
    max_event_chain: int
    max_decisions: int

    def card_id(self, name: str) -> int:
        """The integer id of the card called `name` in cards.yaml."""
        return self.catalog.cards.index(name)
