"""possession's compiled spec: the rule numbers, the card table and the compiled card effects,
made by cards.load_spec and read by every other module of the game.

Codes are small ints, each word's place in its declaration order: the triggers below (a compiled
effect holds its trigger's code), the other words in effects.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from balance.core.contract import Catalog
from balance.core.effects import Section

MIN_SEATS, MAX_SEATS = 2, 4

DESTINATIONS = ("discard", "hand", "deck_bottom")
TO_DISCARD, TO_HAND, TO_DECK_BOTTOM = range(len(DESTINATIONS))

# The events cards react to (spec §6.1), each with what it carries: whether it has an actor, how
# many subjects, whether a player, whether an amount (what an effect's words may read of it).
TRIGGER_WORDS = Section("trigger")
TRIGGER_SHAPE: list[tuple[bool, int, bool, bool]] = []  # by code


def _trigger(
    name: str,
    doc: str,
    actor: bool = False,
    subjects: int = 0,
    player: bool = False,
    amount: bool = False,
) -> int:
    TRIGGER_SHAPE.append((actor, subjects, player, amount))
    return TRIGGER_WORDS.add(name, doc)


TURN_START = _trigger("turn_start", "a turn begins (player: the Turn Player)", player=True)
TURN_END = _trigger("turn_end", "after Swap (player: the Turn Player)", player=True)
DREW = _trigger(
    "drew",
    "a player draws 1 or more cards (player: drawer, amount: count)",
    player=True,
    amount=True,
)
PLAYED = _trigger(
    "played", "a Play (subject: the played card, player: who played)", subjects=1, player=True
)
DISCARDED = _trigger(
    "discarded", "a hand card is discarded by Swap or `discard` (player)", player=True
)
ATTACK = _trigger("attack", "an Attack (actor: attacker, subject: the Defender)", True, 1)
COMMAND = _trigger("command", "a Command (actor: commander, subjects: both Wilds)", True, 2)
SOOTHE = _trigger("soothe", "a Soothe (actor: soother, subject: its target)", True, 1)
DAMAGED = _trigger(
    "damaged", "more than 0 damage lands after ward (actor: source, amount)", True, 1, amount=True
)
HEALED = _trigger(
    "healed", "more than 0 damage is removed (actor: healer, amount)", True, 1, amount=True
)
ESCAPED = _trigger("escaped", "a creature escapes (subject: it)", subjects=1)
REPLACED = _trigger("replaced", "a card enters a position (subject: the new card)", subjects=1)
TRADED = _trigger("traded", "two creatures trade places (subjects: both)", subjects=2)
TURNED_FACE_DOWN = _trigger("turned_face_down", "a Wild turns face down (subject: it)", subjects=1)
TURNED_FACE_UP = _trigger(
    "turned_face_up", "the face-down Wild turns face up (subject: it)", subjects=1
)
GLORY = _trigger(
    "glory", "a player gains Glory (subject: the escaped Defender, player)", subjects=1, player=True
)
REMOVED = _trigger("removed", "a player is removed from the game (player)", player=True)
TRIGGERS = tuple(word.name for word in TRIGGER_WORDS)


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
