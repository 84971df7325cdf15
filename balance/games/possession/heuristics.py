"""possession's bot hooks (spec §10): features of a position, its evaluation, a default policy.

Everything here reads only what a seat may know: face-up creatures, counts, Glory and discard
piles, and the seat's own hand. Hidden cards (the deck, other hands, a face-down Wild that entered
unseen) are never looked at, so `evaluate` is unchanged by `determinize`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from balance.core.contract import Decision
from balance.games.possession.effects import endure, might, nurture
from balance.games.possession.state import EMPTY, Table


@dataclass(frozen=True, slots=True)
class Features:
    """The numbers spec §10 names, for one seat."""

    glory: tuple[int, ...]  # per seat
    to_win: int  # Glory this seat still needs (0: glory is off)
    defender_remaining: int  # D's Endure - damage
    can_kill: bool  # my Might >= defender_remaining
    counter_escape: bool  # D's Might >= my remaining Endure, and I cannot kill
    next_threat: bool  # the next seat's Might >= defender_remaining
    my_remaining: int
    my_might: int
    deck: int
    turns_to_deck_out: float  # at one draw per turn
    hands: tuple[int, ...]  # per seat (lives, once the deck is empty)
    support: tuple[int, int, int] | None  # S's Might, Endure, Nurture: the next Defender


def remaining(t: Table, pos: int) -> int:
    c = t.occ[pos]
    return endure(t, c) - t.damage[c] if c != EMPTY else 0


def next_seat(t: Table, seat: int) -> int:
    n = t.seats
    for k in range(1, n):
        s = (seat + k) % n
        if not t.removed[s]:
            return s
    return seat


def features(t: Table, seat: int) -> Features:
    d = t.occ[t.defender]
    left = endure(t, d) - t.damage[d]
    mine = t.occ[seat]
    my_might = might(t, mine) if mine != EMPTY else 0
    my_left = remaining(t, seat)
    following = t.occ[next_seat(t, seat)]
    support = t.occ[t.support]
    goal = t.spec.glory_to_win
    alive = sum(1 for s in range(t.seats) if not t.removed[s])
    return Features(
        glory=tuple(len(pile) for pile in t.glory),
        to_win=max(0, goal - len(t.glory[seat])) if goal else 0,
        defender_remaining=left,
        can_kill=my_might >= left,
        counter_escape=my_might < left and might(t, d) >= my_left,
        next_threat=following != EMPTY and might(t, following) >= left,
        my_remaining=my_left,
        my_might=my_might,
        deck=len(t.deck),
        turns_to_deck_out=len(t.deck) / max(1, alive),
        hands=tuple(len(hand) for hand in t.hands),
        support=None
        if support == EMPTY
        else (might(t, support), endure(t, support), nurture(t, support)),
    )


def evaluate(t: Table, seat: int) -> float:
    """A value in [-1, 1] for `seat`: Glory edge first, then survival (Endure left, and hand
    cards, which are lives once the deck runs short), then who threatens the Defender."""
    if t.over:
        share = 1.0 / len(t.winners) if seat in t.winners else 0.0
        return 2.0 * share - 1.0
    removed = t.removed
    if removed[seat]:
        return -1.0
    occ, damage, glory, hands = t.occ, t.damage, t.glory, t.hands
    best_glory = 0
    others = 0
    their_left = 0
    their_hands = 0
    for s in range(t.seats):
        if s == seat or removed[s]:
            continue
        others += 1
        best_glory = max(best_glory, len(glory[s]))
        c = occ[s]
        if c != EMPTY:
            their_left += endure(t, c) - damage[c]
        their_hands += len(hands[s])
    mine = occ[seat]
    my_left = endure(t, mine) - damage[mine] if mine != EMPTY else 0
    goal = t.spec.glory_to_win or 3
    value = 0.6 * (len(glory[seat]) - best_glory) / goal
    value += 0.15 * (my_left - their_left / others) / 8.0
    value += 0.25 * 3.0 / (3.0 + len(t.deck)) * (len(hands[seat]) - their_hands / others) / 4.0
    d = occ[t.defender]
    left = endure(t, d) - damage[d]
    if t.turn_player == seat and mine != EMPTY and might(t, mine) >= left:
        value += 0.1  # can_kill
    following = occ[next_seat(t, seat)]
    if following != EMPTY and might(t, following) >= left:
        value -= 0.05  # next_threat
    return -0.95 if value < -0.95 else min(value, 0.95)


def power(t: Table, card: int) -> float:
    return t.spec.power[card] + t.spec.value[card]


def default_option(t: Table, decision: Decision) -> int:
    """The default policy of §10, used by `preview` for nested decisions: draw always, kill the
    Defender when able, Soothe when the next seat threatens a kill, possess a healthier Wild when
    the Defender's Might would finish us, otherwise discard the weakest card."""
    options = decision.options
    kind = decision.kind
    seat = decision.seat
    if kind in ("draw", "effect_optional", "effect_action"):
        return 0  # draw / use / attack
    if kind == "play":
        return _play(t, seat, options)
    if kind == "action":
        return _action(t, seat, options)
    if kind == "swap":
        return _swap(t, seat, options)
    if kind == "possessed_replacement":
        return 0 if options[0][0] == "deck" else _best(t, options, max)
    if kind in ("hand_replacement", "effect_discard"):
        return _best(t, options, min)
    if kind == "defender_replacement":
        return _best(t, options[:-1], max)
    return 0


def _best(t: Table, options: tuple[Any, ...], pick: Any) -> int:
    """The option whose card (its last element) has the highest or lowest power."""
    scored = [
        (power(t, option[-1]), k)
        for k, option in enumerate(options)
        if option[0] in ("hand", "discard")
    ]
    return pick(scored)[1] if scored else 0


def _play(t: Table, seat: int, options: tuple[Any, ...]) -> int:
    f = features(t, seat)
    if not f.next_threat:
        return 0
    tough = [
        (t.spec.endure[o[2]], k)
        for k, o in enumerate(options)
        if o[0] == "play" and o[1] == t.support
    ]
    return max(tough)[1] if tough else 0


def _action(t: Table, seat: int, options: tuple[Any, ...]) -> int:
    f = features(t, seat)
    soothe_self = next((k for k, o in enumerate(options) if o == ("soothe", seat)), 0)
    if f.can_kill:
        return 0
    if f.counter_escape and f.deck == 0 and f.hands[seat] <= 1:
        return soothe_self
    if f.next_threat:
        d = t.occ[t.defender]
        if f.defender_remaining + min(nurture(t, d), t.damage[d]) > f.my_might:
            return soothe_self
    return 0


def _swap(t: Table, seat: int, options: tuple[Any, ...]) -> int:
    f = features(t, seat)
    d = t.occ[t.defender]
    possess = [
        (remaining(t, t.ring_base + o[1]), k) for k, o in enumerate(options) if o[0] == "possess"
    ]
    if f.my_remaining <= might(t, d) and possess:
        best = max(possess)
        if best[0] > f.my_remaining:
            return best[1]
    discards = [(power(t, o[1]), k) for k, o in enumerate(options) if o[0] == "discard"]
    if discards:
        return min(discards)[1]
    return max(possess)[1]
