"""arrows' bot hooks (§10): position features, the evaluation behind `State.evaluate(seat)`, a
one-ply `preview`, and the default policy for nested decisions.

Everything a seat's evaluation reads is what that seat may know (§4): the board (an opponent's
covered card only as "covered"), both players' credits and recorded scores, hand sizes, and its
own hand. `threats` takes the opponent's hand as an argument: a sampled one, from `determinize`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from balance.games.arrows.effects import GAIN_CREDITS
from balance.games.arrows.state import (
    OPPOSITE,
    ORTHOGONAL,
    PLAY,
    T_OWN_TURNS,
    ArrowsState,
    Piece,
    current_atk,
    current_def,
    final_score,
)

if TYPE_CHECKING:
    from balance.games.arrows.spec import ArrowsSpec

# The evaluation is a logistic model of winning: z below is the log-odds that `seat` wins, and
# evaluate returns 2·P(win) − 1 = tanh(z / 2), so MCTS's reward (value + 1) / 2 is P(win) itself.
# The weights were fitted (logistic regression, L2 1e-3) to the outcomes of ~127,000 positions
# (a random third of the decisions of 1,500 games over every pairing of the shipped decks,
# played by greedy on an earlier hand-weighted version of these features); the fit leaves a
# log-loss of 0.550 where a coin gives 0.693 and the score lead alone 0.575. "Exposed": a
# face-up card with an empty neighbour in a direction it has no arrow, from where a card played
# next could flip it.
W_SCORE = 0.093  # per face-up card of lead ...
W_SCORE_LATE = 0.550  # ... plus this much times the share of the board filled
W_EXPOSED = 0.098  # per exposed card, the other side's minus ours ...
W_EXPOSED_LATE = 0.156  # ... plus this much times the share of the board filled
W_COVERED = 0.058  # per covered card of lead (revealed next turn, if paid)
W_CREDITS = 0.0106  # per credit of lead
W_HAND = 0.086  # per card in hand of lead
W_TEMPO = 0.162  # the next card placed is ours (its flips come first) ...
W_LAST = 0.139  # ... and it fills the last empty cell (the game ends, it scores, nothing flips)
W_LAST_BUT_ONE = 0.180  # ... or there are two left


def evaluate(s: ArrowsState, seat: int) -> float:
    """In [-1, 1]: at the end 2·score − 1 (1 win, 0 draw, −1 loss); before it, 2·P(win) − 1 from
    the logistic model above. It reads only public counts (face-up and covered cards per side,
    credits, hand sizes) and the face-up cards' arrows: what any seat may know. Kept cheap, since
    it scores every option a greedy bot looks at and every MCTS rollout: counters kept by the
    rules plus one pass over the pieces."""
    if s.over:
        return 2.0 * final_score(s, seat) - 1.0
    other = 1 - seat
    down, credits, hands = s.down, s.credits, s.hands
    # The next card placed is the active player's until it has played (steps up to PLAY).
    if s.step <= PLAY and s.plays < s.spec.plays_per_turn:
        ours_next = s.active == seat
    else:
        ours_next = s.active != seat
    return win_value(
        s.spec,
        s.spec.all_cells & ~s.occupied,
        s.up_sides[seat],
        s.up_sides[other],
        down[seat] - down[other],
        credits[seat] - credits[other],
        len(hands[seat]) - len(hands[other]),
        ours_next,
    )


def win_value(
    spec: ArrowsSpec,
    empty: int,
    mine: list[int],
    theirs: list[int],
    covered_lead: int,
    credit_lead: int,
    hand_lead: int,
    ours_next: bool,
) -> float:
    """`evaluate` before the end, from what it reads: the empty cells (a bit mask), the `sides`
    of each seat's face-up cards, the leads in covered cards, credits and hand sizes, and
    whether the next card placed is the seat's."""
    # Face-up cards an arrow from an empty cell would flip, the other's minus ours (in C: a
    # count of the nonzero `sides & empty` over each seat's face-up cards).
    open_to = empty.__and__
    exposed = sum(map(bool, map(open_to, theirs))) - sum(map(bool, map(open_to, mine)))
    empties = empty.bit_count()
    filled = 1.0 - empties / spec.cells
    z = (
        (len(mine) - len(theirs)) * (W_SCORE + W_SCORE_LATE * filled)
        + exposed * (W_EXPOSED + W_EXPOSED_LATE * filled)
        + W_COVERED * covered_lead
        + W_CREDITS * credit_lead
        + W_HAND * hand_lead
    )
    tempo = W_TEMPO + (W_LAST if empties == 1 else W_LAST_BUT_ONE if empties == 2 else 0.0)
    z += tempo if ours_next else -tempo
    return math.tanh(0.5 * z)


def features(s: ArrowsState, seat: int) -> dict[str, float]:
    """Score difference (the board now), credit difference, empty cells, hand sizes, covered
    cards per side: all from `seat`'s point of view."""
    other = 1 - seat
    score = [0, 0]
    covered = [0, 0]
    for piece in s.pieces.values():
        if piece.face_up:
            score[piece.controller] += 1
        else:
            covered[piece.controller] += 1
    return {
        "score_diff": score[seat] - score[other],
        "credit_diff": s.credits[seat] - s.credits[other],
        "empty_cells": s.spec.cells - len(s.pieces),
        "hand_size": len(s.hands[seat]),
        "opponent_hand_size": len(s.hands[other]),
        "hand_diff": len(s.hands[seat]) - len(s.hands[other]),
        "covered": covered[seat],
        "opponent_covered": covered[other],
        "covered_diff": covered[seat] - covered[other],
    }


def _directions(s: ArrowsState) -> Sequence[int]:
    return range(8) if s.spec.directions == 8 else ORTHOGONAL


def exposure(s: ArrowsState, piece: Piece) -> int:
    """The sides a card can be flipped from: neighbours that are empty or hold an opponent card,
    in directions where the card has no arrow pointing back."""
    spec = s.spec
    sides = 0
    for direction in _directions(s):
        cell = spec.neighbor[piece.cell][direction]
        if cell < 0 or (spec.fight_mask[piece.card] >> direction) & 1:
            continue
        other = s.grid[cell]
        if other is None or other.controller != piece.controller:
            sides += 1
    return sides


def threats(s: ArrowsState, cell: int, hand: Sequence[int]) -> int:
    """How many of `hand`'s cards (known or sampled opponent cards) could flip or kill the card
    on `cell` next turn, played active on an empty neighbour."""
    spec = s.spec
    target = s.grid[cell]
    if target is None:
        return 0
    count = 0
    for card in set(hand):
        for direction in _directions(s):
            spot = spec.neighbor[cell][direction]
            if spot < 0 or s.grid[spot] is not None:
                continue
            toward = OPPOSITE[direction]  # the played card's arrow that points at `cell`
            if not (spec.fight_mask[card] >> toward) & 1:
                continue
            if not target.face_up or not (spec.fight_mask[target.card] >> direction) & 1:
                count += 1  # a flip (or a covered card destroyed)
                break
            if spec.atk[card] >= current_def(spec, target):
                count += 1  # a kill in the conflict
                break
    return count


def placement_outlook(s: ArrowsState, seat: int, card: int, cell: int) -> tuple[int, int, bool]:
    """(flips, kills, self_loss) if `card` were played active on `cell` now, abilities aside:
    conflicts it survives first, weakest defender first, then the flip step."""
    spec = s.spec
    atk, defence = spec.atk[card], spec.def_[card]
    fights: list[Piece] = []
    flips = kills = 0
    for direction in spec.fight_arrows[card]:
        spot = spec.neighbor[cell][direction]
        other = s.grid[spot] if spot >= 0 else None
        if other is None or other.controller == seat:
            continue
        if not other.face_up:
            kills += s.spec.covered_hit == "destroy"
        elif (spec.fight_mask[other.card] >> OPPOSITE[direction]) & 1:
            fights.append(other)
        else:
            flips += 1
    fights.sort(key=lambda p: (current_atk(spec, p) >= defence, current_def(spec, p)))
    for other in fights:
        defence -= current_atk(spec, other)
        kills += atk >= current_def(spec, other)
        if defence <= 0:
            return 0, kills, True
    return flips, kills, False


def flips_now(s: ArrowsState, piece: Piece) -> int:
    """The opponent face-up cards this card's arrows reach with no arrow back."""
    spec = s.spec
    count = 0
    for direction in spec.fight_arrows[piece.card]:
        spot = spec.neighbor[piece.cell][direction]
        other = s.grid[spot] if spot >= 0 else None
        if (
            other is not None
            and other.face_up
            and other.controller != piece.controller
            and not (spec.fight_mask[other.card] >> OPPOSITE[direction]) & 1
        ):
            count += 1
    return count


def covered_twins(s: ArrowsState) -> list[int] | None:
    """For greedy (`option_twins`): per option of a `play` decision, the first covered play on
    the same cell for a covered play, else itself; None where no option has a twin or the
    card's identity could count. A covered card fires nothing when placed (no activation, no
    trigger): until the next decision the state differs only in which card left the hand and
    lies face down, and `evaluate` reads neither (hand sizes, covered counts, face-up arrows).
    That holds while nothing reads the hand or the covered card before another seat decides:
    no discard at step 8 (the hand within the limit after the play), no `turn_end` effect at
    step 7 but a gain of credits, no covered card of the opponent revealed (activating) at
    its turn's start. A play decision of the same seat next (plays_per_turn > 1) ends greedy's look there as well."""
    decision = s.asking
    if decision is None or decision.kind != "play":
        return None
    seat = decision.seat
    if s.down[1 - seat] or len(s.hands[seat]) > s.spec.hand_limit + 1:
        return None
    if s.turn_enders:
        on_turn_end = s.spec.on_turn_end
        for piece in s.pieces.values():
            effects = on_turn_end[piece.card]
            if (
                effects
                and piece.face_up
                and piece.controller == seat
                and any(effect.op != GAIN_CREDITS for effect in effects)
            ):
                return None
    options = decision.options
    twins = list(range(len(options)))
    first: dict[int, int] = {}  # cell -> the first covered play on it
    covered = 0
    for i, option in enumerate(options):
        if isinstance(option, tuple) and option[1] != 0:  # covered (rules.COVERED)
            twins[i] = first.setdefault(option[2], i)
            covered += 1
    return twins if covered > len(first) else None


def covered_values(s: ArrowsState, among: Sequence[int] | None) -> list[float | None] | None:
    """For greedy (`option_bounds`, `option_value`): per option of a `play` decision (of those
    `among`, or all), `evaluate` for its seat once applied, worked out unapplied for a covered
    play where the turn then simply passes (`_after_covered`), else None; None where none is.
    Such a play ends the seat's action: the next decision is the opponent's."""
    after = _after_covered(s)
    if after is None:
        return None
    options = s.asking.options  # type: ignore[union-attr]
    values: list[float | None] = [None] * len(options)
    spec, empty, mine, theirs, covered_lead, credit_lead, hand_lead = after
    known = False
    for i in range(len(options)) if among is None else among:
        option = options[i]
        if isinstance(option, tuple) and option[1] != 0:  # covered (rules.COVERED)
            values[i] = win_value(
                spec, empty & ~(1 << option[2]), mine, theirs,
                covered_lead, credit_lead, hand_lead, False,
            )  # fmt: skip
            known = True
    return values if known else None


def covered_value(s: ArrowsState, option: int) -> float | None:
    """`covered_values` of one option (asked again for the ones greedy must score)."""
    after = _after_covered(s)
    choice = s.asking.options[option]  # type: ignore[union-attr]
    if after is None or not isinstance(choice, tuple) or choice[1] == 0:
        return None
    spec, empty, mine, theirs, covered_lead, credit_lead, hand_lead = after
    return win_value(
        spec, empty & ~(1 << choice[2]), mine, theirs, covered_lead, credit_lead, hand_lead, False
    )


def _after_covered(
    s: ArrowsState,
) -> tuple[ArrowsSpec, int, list[int], list[int], int, int, int] | None:
    """What `evaluate` reads once a covered card is played from the pending `play` decision,
    the cell aside, where the turn then simply passes to the opponent's `play`: the placing
    fires nothing; it is the turn's last play; no `turn_end` effect of the seat's (step 7), no
    discard (step 8), no end of the game at step 9 (the board not full after it, the turn cap
    not reached; playing resets the stall count); at the opponent's turn's start only its
    credits (R2) and draw (R3), no covered card of its to reveal. Else None. Returns the spec,
    the empty cells before the play, both seats' face-up sides, and the seat's leads after it
    in covered cards, credits and hand sizes."""
    decision = s.asking
    if decision is None or decision.kind != "play":
        return None
    spec = s.spec
    seat = decision.seat
    other = 1 - seat
    hand = s.hands[seat]
    if (
        s.down[other]
        or len(hand) > spec.hand_limit + 1
        or s.plays + 1 < spec.plays_per_turn
        or s.turn >= spec.max_turns
        or s.occupied.bit_count() + 2 > spec.cells
    ):
        return None
    if s.turn_enders:
        on_turn_end = spec.on_turn_end
        for piece in s.pieces.values():
            if on_turn_end[piece.card] and piece.face_up and piece.controller == seat:
                return None
    income = spec.credits_per_turn
    if spec.skip_credits_on_own_first_turn and s.tally[T_OWN_TURNS + other] == 0:
        income = 0
    drawn = min(spec.draw_per_turn, len(s.decks[other]))
    return (
        spec,
        spec.all_cells & ~s.occupied,
        s.up_sides[seat],
        s.up_sides[other],
        s.down[seat] + 1 - s.down[other],
        s.credits[seat] - s.credits[other] - income,
        len(hand) - 1 - len(s.hands[other]) - drawn,
    )


# -- preview and the default nested policy -----------------------------------------------------


def preview(s: ArrowsState, option: int) -> tuple[int, int]:
    """`clone()` + `apply(option)`, nested decisions answered by `default_choice`, up to the next
    `play` decision or the end of the turn: (score delta, material delta) for the deciding seat.
    Material is the cards each side controls on the board, covered ones included."""
    decision = s.decision()
    assert decision is not None
    seat = decision.seat
    before = _standing(s, seat)
    copy = s.clone()
    copy.apply(option)
    turn = s.turn
    steps = 0
    while (nested := copy.decision()) is not None and nested.kind != "play" and copy.turn == turn:
        copy.apply(default_choice(copy, look_ahead=False))
        steps += 1
        if steps > copy.spec.decision_cap:  # pragma: no cover - the game's own caps end first
            break
    after = _standing(copy, seat)
    return after[0] - before[0], after[1] - before[1]


def _standing(s: ArrowsState, seat: int) -> tuple[int, int]:
    score = material = 0
    for piece in s.pieces.values():
        sign = 1 if piece.controller == seat else -1
        material += sign
        if piece.face_up:
            score += sign
    return score, material


def default_choice(s: ArrowsState, look_ahead: bool = True) -> int:
    """§10's default policy for nested decisions: conflicts the active card survives first,
    weakest defender first; an ability when its preview gains; `chain_order` by the largest
    immediate flip count; discard the highest cost not affordable within 2 turns. Anything else
    takes the first option (for `play`: the placement with the best outlook, else pass).
    Without `look_ahead` (inside a preview) abilities are not used, so previews do not nest."""
    decision = s.decision()
    assert decision is not None
    spec = s.spec
    kind = decision.kind
    options = decision.options
    if kind == "conflict":
        active = s.pieces[s.todo[-1][1]]  # the activation that asks: its task, uid first
        own = current_def(spec, active)

        def conflict_order(i: int) -> tuple[bool, int]:
            defender = s.grid[spec.neighbor[active.cell][options[i]]]
            assert defender is not None
            return (current_atk(spec, defender) >= own, current_def(spec, defender))

        return min(range(len(options)), key=conflict_order)
    if kind == "ability":
        if not look_ahead:
            return 0
        best, gain = 0, (0, 0)
        for i in range(1, len(options)):
            delta = preview(s, i)
            if delta > gain:
                best, gain = i, delta
        return best
    if kind == "chain_order":
        queued = [s.grid[cell] for cell in options]
        return max(range(len(options)), key=lambda i: flips_now(s, queued[i]) if queued[i] else 0)
    if kind == "discard":
        budget = s.credits[s.active] + 2 * spec.credits_per_turn
        dear = [i for i in range(len(options)) if spec.cost[options[i]] > budget]
        pool = dear or list(range(len(options)))
        return max(pool, key=lambda i: spec.cost[options[i]])
    if kind == "play":
        seat = decision.seat
        best, value = 0, 0.0
        for i, option in enumerate(options):
            if isinstance(option, tuple) and option[1] == 0:
                flips, kills, lost = placement_outlook(s, seat, option[0], option[2])
                worth = 1 + flips + kills - (2 if lost else 0)
                if worth > value:
                    best, value = i, worth
        return best
    return 0
