"""clans' compiled spec: the rule numbers, the card table with its compiled effect entries, the
clans and setups, made by cards.load_spec and read by every other module of the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from balance.core.contract import Catalog

# the rules parameters a rule_mod entry may change (an entry's `param` indexes this)
RULE_MOD_PARAMS = ("hand_limit", "offclan_troop_cost", "shift_discount", "extra_turns_after_pass")
SELF, OPP, ANY, BOTH = 0, 1, 2, 3  # sides, and `who`
ZONE_DECK, ZONE_DISCARD = 0, 1


# -- the compiled effect entries --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Selector:
    side: int  # SELF, OPP, ANY (relative to the controller)
    row: int  # -1 any, else 0 troop, 1 hero, 2 immortal
    clan: int  # ANY_CLAN, THIS_CLAN, OTHER_CLAN, or a clan index
    state: int  # ACTIVE, FACE_DOWN, CAPTURED, ANY_STATE
    exposed: bool
    token: int  # -1 any, 0 none, 1 has
    max_military: int  # -1: no bound
    not_self: bool
    count: int
    up_to: bool
    chooser: int  # CONTROLLER, OWNER
    this: bool
    # only side, row and clan narrow it (active cards, no other test): `count_matching` reads
    # the army summary instead of walking the armies
    simple: bool = False


@dataclass(frozen=True, slots=True)
class CardFilter:
    clan: int  # ANY_CLAN, THIS_CLAN, OTHER_CLAN, or a clan index
    level: int  # 0: any
    card: int  # -1: any name, else the card id carrying that name


@dataclass(frozen=True, slots=True)
class Entry:
    """One compiled effect entry. Fields an op does not use keep their defaults."""

    trigger: int
    op: int
    n: int = 1
    who: int = SELF  # SELF, OPP, BOTH (rule_mod)
    down_to: int = -1  # discard: -1 none, YOUR_HAND, else a size
    zone: int = ZONE_DECK  # fetch
    filter: CardFilter | None = None  # fetch, free_play
    face_up: bool = False  # flip
    ignore_requirements: bool = False  # free_play
    param: int = -1  # rule_mod: index in RULE_MOD_PARAMS
    set_value: int | None = None  # rule_mod
    per: Selector | None = None  # add_military
    target: Selector | None = None
    conditions: tuple[tuple[Any, ...], ...] = ()
    optional: bool = False


# -- the compiled spec ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenDraw:
    tokens: int
    cards: int


@dataclass(frozen=True, slots=True)
class Clan:
    id: str
    name: str
    theme: str
    flipped: tuple[tuple[str, str, Any], ...]  # (dotted param, "set" | "add", value)
    win_kind: str  # "", "captured_by_self" or "rows_equal"
    win_min: int | str  # a number or a rules parameter's name
    win_immediate: bool


class WinPlan(NamedTuple):
    """The wins a seat's clans open (G5, G18), for the instant checks and `evaluate`."""

    gains_tokens: bool  # some clan of it has gain_token: the token race is open
    captures: int  # captures that win (Goan Sul), 0: none
    rows: int  # equal rows that win (Justice), 0: none
    any: bool  # any of the three
    immediate: tuple[tuple[str, tuple[int, int, bool]], ...]  # (clan id, win) checked at once
    turn_end: tuple[tuple[str, tuple[int, int, bool]], ...]  # (clan id, win) at its turn's end


@dataclass(frozen=True, slots=True)
class ClansSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    # -- rules.yaml, as every game of this config sees them before any clan is flipped
    setup_mode: str
    fixed_setup: str
    draft_order: tuple[tuple[int, int], ...]  # (seat from 0, picks)
    first_player_round1: str
    starting_tokens: int
    token_win: int
    max_tokens_per_card: int
    extra_turns_after_pass: int
    starting_hand: int
    mulligan_min_troops: int
    max_mulligans: int
    rows: int
    row_spaces: int
    offclan_troop_cost: int
    hand_limit: int
    draw_small: TokenDraw
    draw_big: TokenDraw
    faceup_win: int
    clan_composition: tuple[tuple[int, int], ...]  # (level, copies)
    wonder_to_first_passer: bool
    immortal_military_bonus: int
    shift_discount: int
    sacrifice_fraction: float
    sacrifice_rounding: str
    sacrifice_bonus: int
    supremacy_to_win: int
    max_rounds: int
    goan_sul_captures_to_win: int
    justice_rows_min: int
    song_draw_to: int
    max_turns_per_round: int
    max_decisions: int
    # -- the card table: card id -> ...
    card_name: tuple[str, ...]
    card_clan: tuple[int, ...]
    card_level: tuple[int, ...]
    card_shift: tuple[int, ...]
    card_military: tuple[int, ...]
    card_slot: tuple[bool, ...]  # token_slot
    card_info: tuple[tuple[int, int, int], ...]  # (level, clan, military), for the bots
    on_play: tuple[tuple[Entry, ...], ...]
    on_activate: tuple[tuple[Entry, ...], ...]
    on_veteran: tuple[tuple[Entry, ...], ...]
    ongoing_military: tuple[tuple[Entry, ...], ...]
    ongoing_rule_mods: tuple[tuple[Entry, ...], ...]
    rule_mod_cards: frozenset[int]  # the cards with ongoing rule_mod entries
    veteran_military: tuple[tuple[Entry, ...], ...]  # on_veteran's add_military entries
    # cards whose military is not just their printed number: ongoing or Veteran add_military
    card_special: tuple[bool, ...]
    clan_gains_tokens: tuple[bool, ...]  # clan -> some card of it has gain_token (G5's race)
    slot_row: tuple[int, ...]  # army slot -> its row
    board_stride: int  # per-seat length of Table.board: state.CLAN_N + 3 rows x clans
    # -- clans and setups
    clans: tuple[Clan, ...]
    clan_cards: tuple[tuple[int, ...], ...]  # clan -> its physical cards (a card id per copy)
    draft_pool: tuple[int, ...]
    draft_seats: tuple[int, ...]  # the seat of each pick, from draft_order
    clans_per_player: int
    armies: Mapping[str, tuple[int, ...]]
    setups: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]]  # fixed_setups by name
    shared_setup: str  # the shared deck: "draft", or the fixed_setup's name
    bot_clan_ratings: tuple[float, ...]
    clan_stat_keys: tuple[tuple[str, str, str], ...]  # per clan: its clan_, flipped_, pick_ keys
    # the rules of every flipped set an army pairing or the draft can give, compiled at load:
    # flipped clans -> (the spec they were made from, the spec with their modifiers)
    effective: Mapping[tuple[int, ...], tuple[ClansSpec, ClansSpec]]
    # -- derived from the rule values above (recomputed when flipped clans change them)
    rule_mod_base: tuple[int, ...]  # RULE_MOD_PARAMS' values
    clan_win: tuple[
        tuple[int, int, bool] | None, ...
    ]  # clan -> (0 captures | 1 rows, min, immediate)
    # a seat's clans -> its WinPlan (`win_plan`), worked out once
    win_plans: dict[tuple[int, ...], WinPlan]
    # the fewest captures any clan's immediate win_if needs (no such win: more than an army
    # holds; an immediate rows_equal win: 0), so most instant checks end at a glance
    instant_captures: int

    def win_plan(self, clans: tuple[int, ...]) -> WinPlan:
        """The wins open to a seat fielding `clans`, beyond Supremacy and face-up cards."""
        plan = self.win_plans.get(clans)
        if plan is None:
            captures = rows = 0
            for clan in clans:
                win = self.clan_win[clan]
                if win is not None:
                    if win[0] == 0:
                        captures = win[1] if not captures else min(captures, win[1])
                    else:
                        rows = win[1] if not rows else min(rows, win[1])
            gains = any(self.clan_gains_tokens[clan] for clan in clans)
            wins = [(clan, win) for clan in clans if (win := self.clan_win[clan]) is not None]
            plan = WinPlan(
                gains,
                captures,
                rows,
                bool(gains or captures or rows),
                tuple((self.clans[c].id, win) for c, win in wins if win[2]),
                tuple((self.clans[c].id, win) for c, win in wins if not win[2]),
            )
            self.win_plans[clans] = plan
        return plan

    def with_flipped(self, flipped: tuple[int, ...]) -> ClansSpec:
        """The rules as a game with these flipped clans plays them (setup step 3): every `set`
        of the flipped clans in draft_pool order, then every `add`. Values are checked at load."""
        known = self.effective.get(flipped)
        if known is not None and known[0] is self:  # a spec changed by replace() computes anew
            return known[1]
        changes: dict[str, Any] = {}
        for kind in ("set", "add"):
            for clan in self.draft_pool:
                if clan not in flipped:
                    continue
                for param, how, value in self.clans[clan].flipped:
                    if how != kind:
                        continue
                    head, _, leaf = param.partition(".")
                    current = changes.get(head, getattr(self, head))
                    if leaf:
                        old = getattr(current, leaf)
                        new_leaf = value if how == "set" else old + value
                        changes[head] = replace(current, **{leaf: new_leaf})
                    else:
                        changes[head] = value if how == "set" else current + value
        if not changes:
            return self
        return derive(replace(self, **changes))


def derive(spec: ClansSpec) -> ClansSpec:
    """Fill the fields computed from rule values."""
    base = tuple(getattr(spec, name) for name in RULE_MOD_PARAMS)
    wins: list[tuple[int, int, bool] | None] = []
    for clan in spec.clans:
        if not clan.win_kind:
            wins.append(None)
            continue
        need = clan.win_min if isinstance(clan.win_min, int) else getattr(spec, clan.win_min)
        wins.append((0 if clan.win_kind == "captured_by_self" else 1, need, clan.win_immediate))
    immediate = [win for win in wins if win is not None and win[2]]
    captures = min((need for kind, need, _ in immediate if kind == 0), default=spec.rows * 99)
    if any(kind != 0 for kind, _, _ in immediate):
        captures = 0
    return replace(
        spec,
        rule_mod_base=base,
        clan_win=tuple(wins),
        win_plans={},
        instant_captures=captures,
    )
