"""possession's bot hooks (spec §10): features of a position, its evaluation, a default policy.

Everything here reads only what a seat may know: face-up creatures, counts, Glory and discard
piles, and the seat's own hand. Hidden cards (the deck, other hands, a face-down Wild that entered
unseen) are never looked at, so `evaluate` is unchanged by `determinize`.

The evaluation turns on who the Defender's Glory goes to. Under `most_damage` (G16, the
default) it goes to the seat that dealt the Defender the most damage, so every point dealt counts
towards a Glory and a kill by the next seat may still credit the one who did the work: seats race
to hurt the Defender. Under `turn_player` and `damage_source` (G2) it goes to whoever deals the
last blow, so a seat that brings the Defender within the next seat's reach (its Might, or a hand
card's played onto its Possessed) hands that seat the Glory, and good players wait for a kill of
their own. Over the last rounds before the cap its tiebreak takes over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from balance.core.contract import Decision
from balance.games.possession.effects import endure, might, nurture
from balance.games.possession.state import (
    EMPTY,
    T_ACTION_PHASE,
    T_PLAY_PHASE,
    T_TURN_END_STEP,
    Table,
)

ACTION_PHASE, PLAY_PHASE, TURN_END_STEP = (T_ACTION_PHASE,), (T_PLAY_PHASE,), (T_TURN_END_STEP,)


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


# Weights of `evaluate`, on its [-1, 1] scale.
RACE = 0.85  # the Glory race: who needs fewer Defenders, counting this round's likely kills
HAND, HAND_LATE = 0.03, 0.05  # per hand card of edge, and more as the deck runs out
LEFT, LEFT_LATE = 0.005, 0.02  # per point of the Possessed's Endure left, likewise
LATER = 0.9  # per turn ahead, the weight of what the coming turns may bring: a kill now is surer
CAP_ROUNDS = 5  # over the last rounds, the cap's tiebreak (Glory, hand, Endure left) takes over


def evaluate(t: Table, seat: int) -> float:
    """A value in [-1, 1] for `seat`, from what it may know (spec §10).

    Mostly the Glory race: each seat's Glory plus its chance to make the Defender escape in the
    coming round (`glory_chances`), as who needs fewer Defenders to win. Then the resources: hand
    cards (a Play's Might, lives and Glory once the deck is out, the cap's tiebreak) and the
    Possessed's Endure left. Over the last rounds the cap's tiebreak takes over.
    """
    if t.over:
        return 2.0 / len(t.winners) - 1.0 if seat in t.winners else -1.0
    removed = t.removed
    if removed[seat]:
        return -1.0
    spec = t.spec
    hands = t.hands
    glory = t.glory
    occ = t.occ
    damage = t.damage
    kind = t.kind
    spec_endure, mod_endure = spec.endure, t.mod_endure
    goal = spec.glory_to_win if spec.defender_escapes else 0
    chance = glory_chances(t, seat) if goal else [0.0] * t.seats
    c = occ[seat]
    my_left = spec_endure[kind[c]] + mod_endure[c] - damage[c] if c >= 0 else 0
    my_hand = len(hands[seat])
    my_glory = len(glory[seat]) + chance[seat]
    others = their_hand = their_left = 0
    # the leading opponent by the cap's tiebreak: the highest (Glory, hand, left), compared
    # term by term rather than as tuples (evaluate runs on every copy a search makes)
    best_glory, best_hand, best_left = -1.0, 0, 0
    for s in range(t.seats):
        if s == seat or removed[s]:
            continue
        others += 1
        c = occ[s]
        left = spec_endure[kind[c]] + mod_endure[c] - damage[c] if c >= 0 else 0
        hand = len(hands[s])
        their_hand += hand
        their_left += left
        edge = len(glory[s]) + chance[s]
        if edge > best_glory or (
            edge == best_glory and (hand > best_hand or (hand == best_hand and left > best_left))
        ):
            best_glory, best_hand, best_left = edge, hand, left
    late = 1.0 - len(t.deck) / t.deck_size if t.deck_size else 1.0
    value = (HAND + HAND_LATE * late) * (my_hand - their_hand / others) + (
        LEFT + LEFT_LATE * late
    ) * (my_left - their_left / others)
    if goal:
        # Who needs fewer: close to a race of fair coin flips (1 of 3 to go against 3: +0.67).
        # max()'s arithmetic written out (the same values, without a call on every copy's
        # value): mine = max(goal - my_glory, 0.0), likewise theirs, and the scale
        # max(mine + theirs - 1.0, mine, theirs, 0.05)
        mine = goal - my_glory
        if mine < 0.0:  # noqa: PLR1730 - max() is a call per value
            mine = 0.0
        theirs = goal - best_glory
        if theirs < 0.0:  # noqa: PLR1730 - as above
            theirs = 0.0
        scale = mine + theirs - 1.0
        if mine > scale:  # noqa: PLR1730 - as above
            scale = mine
        if theirs > scale:  # noqa: PLR1730 - as above
            scale = theirs
        if scale < 0.05:  # noqa: PLR1730 - as above
            scale = 0.05
        value += RACE * (theirs - mine) / scale
    rounds_left = spec.max_rounds - t.round
    if rounds_left < CAP_ROUNDS and spec.cap_result == "tiebreak":
        weight = 1.0 - rounds_left / CAP_ROUNDS
        value += weight * (
            _tiebreak(my_glory - best_glory, my_hand - best_hand, my_left - best_left) - value
        )
    return value if -0.97 < value < 0.97 else (0.97 if value > 0 else -0.97)


def _tiebreak(glory: float, hand: int, left: int) -> float:
    """The cap's verdict (§8) from the edges over the leading opponent: Glory, then hand size,
    then the Possessed's Endure left; Glory still to be won this round counts by its chance."""
    if glory >= 0.5 or glory <= -0.5:
        return 0.9 if glory > 0 else -0.9
    value = 1.8 * glory
    room = 0.9 - abs(value)
    if hand:
        return value + room * (0.8 if hand > 0 else -0.8)
    if left:
        return value + room * (0.6 if left > 0 else -0.6)
    return value


def glory_chances(t: Table, seat: int, best: int | None = None) -> list[float]:
    """Per seat, the Glory it may count on from the current Defender: the chance that the
    Defender escapes in the coming round with the Glory credited to it, plus, under `most_damage`
    (G16), its share of the damage dealt so far times the chance that nobody makes the Defender
    escape this round (each point a Defender's Endure'th of a Glory).

    Each remaining seat acts once, from the next Action on (the Turn Player first if its Action
    is still ahead). A seat reaches the Defender with its Possessed's Might, or a hand card's if
    its Play is still ahead: `seat` knows its own hand, another hand is judged by its size and
    the share of the game's cards too weak (`Table.weaker`). The Glory of a kill goes to
    `credit_for` the killer. A seat that cannot kill Soothes (the Defender heals its Nurture)
    when the next seat could kill and that kill would not credit it, and nobody kills a Defender
    that could not be replaced (deck out, no Support, no hand card to place). Every turn ends
    with the Defender's wear (G17), which may make it escape on that turn, with no hit.

    `best`: a Might taken as the best in `seat`'s hand instead of reading its cards (the hand
    itself still says whether it holds any): `best_might_counts` compares two."""
    n = t.seats
    # one name a line: a tuple of more than three is built and unpacked (evaluate's hot path)
    removed = t.removed
    occ = t.occ
    hands = t.hands
    kind = t.kind
    spec = t.spec
    spec_might, mod_might = spec.might, t.mod_might
    chance = [0.0] * n
    d = occ[t.defender]
    hurt = t.damage[d]
    endure_d = spec.endure[kind[d]] + t.mod_endure[d]
    left = endure_d - hurt + t.ward[d]
    heal = spec.nurture[kind[d]] + t.mod_nurture[d]
    free = bool(t.deck) or occ[t.support] >= 0  # a kill needs no hand card
    # None: every kill credits its killer (so too under most_damage before any work: ties go to
    # the killer, who deals the final damage on its own turn)
    work = t.work if spec.glory_credit == "most_damage" and any(t.work) else None
    weaker = t.weaker
    top = len(weaker)
    player = t.turn_player
    asking = t.asking
    now = asking.kind if asking is not None else ""
    todo = t.todo
    # The turn's phases sit at the bottom of the stack, in order (rules.TURN_TASKS).
    if now == "action":
        acting, playing = True, False
    elif len(todo) > 3 and todo[3] == ACTION_PHASE and not t.turn_cut:
        acting = True
        playing = now == "play" or now == "draw" or (len(todo) > 4 and todo[4] == PLAY_PHASE)
    else:
        acting = playing = False
    order: Sequence[int]
    if n == 2:
        order = (player, 1 - player) if acting else (1 - player, player)
    else:
        around = [s % n for s in range(player + 1, player + n) if not removed[s % n]]
        if acting:
            around.insert(0, player)
        elif not removed[player]:
            around.append(player)
        order = around
    last = len(order) - 1
    alive = 1.0
    wear = spec.defender_wear
    if wear and not acting and len(todo) > 1 and todo[1] == TURN_END_STEP and not t.turn_cut:
        # this turn's end, and the Defender's wear in it (G17), come before the next seat acts
        left -= wear
        hurt += wear
        if left <= 0:
            if free or hands[player]:
                chance[credit_for(t, work, player, 0)] = 1.0
                return chance
            left, hurt = endure_d, 0  # nothing to replace it: it drops to 0 damage (G2)
    for k, s in enumerate(order):
        hand = hands[s]
        c = occ[s]
        if free or hand:
            reach = spec_might[kind[c]] + mod_might[c] if c >= 0 else 0
            if c >= 0 and reach >= left:
                chance[s if work is None else credit_for(t, work, s, reach)] += alive
                alive = 0.0
                break
            if hand and left < top and (k or playing or not acting):
                if s == seat:
                    reaches = False
                    if best is not None:
                        reaches = best >= left
                    else:
                        for h in hand:
                            if spec_might[kind[h]] >= left:
                                reaches = True
                                break
                    if reaches:
                        chance[s if work is None else credit_for(t, work, s, left)] += alive
                        alive = 0.0
                        break
                else:
                    p = alive * (1.0 - weaker[left] ** len(hand))
                    chance[s if work is None else credit_for(t, work, s, left)] += p
                    alive -= p
            if heal > 0 and hurt > 0 and k < last:  # a Soothe, if the next seat's kill would hurt
                following = order[k + 1]
                c = occ[following]
                reach = spec_might[kind[c]] + mod_might[c] if c >= 0 else 0
                if reach < left and hands[following] and left < top:
                    reach = left  # a card from the hand
                if reach >= left and credit_for(t, work, following, reach) != s:
                    healed = min(hurt, heal)
                    left += healed
                    hurt -= healed
        if wear:  # the wear at the end of this seat's turn
            left -= wear
            hurt += wear
            if left <= 0:
                if free or hand:
                    chance[credit_for(t, work, s, 0)] += alive
                    alive = 0.0
                    break
                left, hurt = endure_d, 0
        alive *= LATER  # what a later turn brings is less sure
    if work is not None and alive > 0.0:
        dealt = sum(work)
        if dealt:
            per_point = alive / max(dealt, endure_d)
            for s in range(n):
                if work[s] and not removed[s]:
                    chance[s] += work[s] * per_point
    return chance


def best_might_counts(t: Table, seat: int, high: int, low: int) -> bool:
    """Whether `evaluate(seat)` may differ between `seat`'s hand holding a best Might of `high`
    and of `low` (its size the same): `glory_chances` reads the hand's cards only for whether
    one reaches the Defender, on the seat's own turn in the coming round, and only where nobody
    surely makes it escape before. Exact: the chances differ, or they are the same list."""
    return glory_chances(t, seat, high) != glory_chances(t, seat, low)


def credit_for(t: Table, work: tuple[int, ...] | None, killer: int, hit: int) -> int:
    """The seat a Defender's escape would credit, if `killer` dealt it the final `hit` on its
    own turn: the killer, unless under `most_damage` (work given) another seat dealt more
    (rules.credited: ties go to the final damage, then the Turn Player, both the killer here)."""
    if work is None:
        return killer
    best, taker = work[killer] + hit, killer
    n = t.seats
    for k in range(1, n):
        s = (killer + k) % n
        if work[s] > best and not t.removed[s]:
            best, taker = work[s], s
    return taker


def power(t: Table, card: int) -> float:
    return t.spec.power[card] + t.spec.value[card]


def default_option(t: Table, decision: Decision) -> int:
    """The default policy of §10, used by `preview` for nested decisions: draw always, kill the
    Defender when able, Soothe when the next seat threatens a kill that would not credit this
    seat, possess a healthier Wild when the Defender's Might would finish us, otherwise discard
    the weakest card."""
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
        if t.spec.glory_credit == "most_damage":  # G16: does the next seat's kill credit me?
            after = list(t.work)
            after[seat] += f.my_might
            following = next_seat(t, seat)
            c = t.occ[following]
            if c != EMPTY and credit_for(t, tuple(after), following, might(t, c)) == seat:
                return 0
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
