"""possession's compiled spec: the rule numbers, the card table and the compiled card effects,
made by cards.load_spec and read by every other module of the game.

Codes are small ints, indexes into the word tuples below (and effects.py's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from balance.core.contract import Catalog

MIN_SEATS, MAX_SEATS = 2, 4

DESTINATIONS = ("discard", "hand", "deck_bottom")
TO_DISCARD, TO_HAND, TO_DECK_BOTTOM = range(len(DESTINATIONS))


@dataclass(frozen=True, slots=True)
class Step:
    """One op of an effect, its parameters as small ints (-1: not used)."""

    op: int
    target: int = -1  # creature selector (trade_places: a)
    choose: bool = False  # the target is {choose: <target>}
    b: int = -1  # trade_places: b
    b_choose: bool = False
    amount: int = 0  # a fixed amount ...
    amount_stat: int = -1  # ... or this stat ...
    amount_of: int = -1  # ... of this single creature
    stat: int = -1  # modify
    stay: bool = False  # modify: lasts like ward rather than for the turn
    player: int = -1  # draw, discard
    count: int = 0
    action: int = -1  # use_action
    from_hand: bool = False  # replace
    to: int = TO_DISCARD  # replace


@dataclass(frozen=True, slots=True)
class CardEffect:
    card: int
    role: int  # 0 possessed, 1 wild, 2 defender
    trigger: int
    conditions: tuple[tuple[int, ...], ...]
    optional: bool
    steps: tuple[Step, ...]  # the `do` step, then each `then` step
    value: float  # the designer's hint for bots
    text: str


@dataclass(frozen=True, slots=True)
class PossessionSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    # rules.yaml, one attribute per parameter
    players: int
    wild_count: int
    starting_hand: int
    draw_below: int
    draw_count: int
    glory_to_win: int
    defender_escapes: bool
    glory_credit: str
    exhaustion: int
    defender_wear: int
    face_down_clears_damage: bool
    retrigger_position: str
    max_chain: int
    max_rounds: int
    cap_result: str
    first_player: str
    deck: str
    replaced_card_to: str
    default_deck: Mapping[int, str]
    # the card table, by card id (= index in catalog.cards)
    names: tuple[str, ...]
    might: tuple[int, ...]
    endure: tuple[int, ...]
    nurture: tuple[int, ...]
    power: tuple[int, ...]  # 2·Might + Endure + 2·Nurture (spec §5)
    effects: tuple[tuple[CardEffect | None, CardEffect | None, CardEffect | None], ...]  # per role
    value: tuple[float, ...]  # the designer's hint: the sum of the card's effect values

    def setup_size(self, seats: int) -> int:
        """Cards setup deals (§3): D, S, the ring, and a Possessed and a hand per player."""
        return 2 + self.wild_count + seats * (1 + self.starting_hand)
