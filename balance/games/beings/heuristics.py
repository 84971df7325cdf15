"""beings' bot hooks (spec §10): position features and the evaluation behind `evaluate(seat)`.

Everything here reads only what `seat` may know: its own hand, the public field, gems, Abysses
and every zone's size. The opponent's hidden cards enter only as the mean power of the cards
that `seat` cannot see (their decklist minus what is visible), which determinize() preserves.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from balance.games.beings.state import Being, base_power, power

if TYPE_CHECKING:
    from balance.games.beings.state import Match

# Weights of the evaluation: life is what wins (G13); the board and the hand are how.
LIFE_WEIGHT = 0.9
BOARD_WEIGHT = 0.6
HAND_WEIGHT = 0.25
GEM_WEIGHT = 0.15
ZERO_LIFE_WEIGHT = 0.5


def evaluate(m: Match, seat: int) -> float:
    """A value in (-1, 1) for `seat` in an unfinished game: life, board power, cards and gems."""
    spec = m.spec
    other = 1 - seat
    life_me, life_opp = len(m.lives[seat]), len(m.lives[other])
    board_me = sum(power(spec, b) for b in m.field[seat] if b is not None)
    board_opp = sum(power(spec, b) for b in m.field[other] if b is not None)
    cards_me, cards_opp = len(m.hands[seat]), len(m.hands[other])
    gems_me = m.gems_active[seat] + m.gems_rested[seat] + _equipped(m.field[seat])
    gems_opp = m.gems_active[other] + m.gems_rested[other] + _equipped(m.field[other])
    scale = max(1, spec.life_cards)
    x = LIFE_WEIGHT * (life_me - life_opp) / scale
    x += BOARD_WEIGHT * (board_me - board_opp) / (board_me + board_opp + 6)
    x += HAND_WEIGHT * (cards_me - cards_opp) / (cards_me + cards_opp + 4)
    x += GEM_WEIGHT * (gems_me - gems_opp) / max(1, spec.gem_deck_size)
    x += ZERO_LIFE_WEIGHT * ((life_opp == 0) - (life_me == 0))
    return math.tanh(x)


def _equipped(side: list[Being | None]) -> int:
    return sum(b.equipped for b in side if b is not None)


def unseen_mean_power(m: Match, seat: int, owner: int) -> float:
    """Mean printed power of `owner`'s cards that `seat` cannot see (deck, life, and the hand
    when `owner` is not `seat`): the decklist minus the visible cards."""
    hidden = m.decks[owner] + m.lives[owner] + (m.hands[owner] if owner != seat else [])
    if not hidden:
        return 0.0
    return sum(m.spec.power[c] for c in hidden) / len(hidden)


def attack_power(m: Match, attacker: Being, defending: Being | None) -> int:
    from balance.games.beings.rules import attack_power as rules_attack_power

    return rules_attack_power(m, attacker, defending)


def counter_capacity(m: Match, seat: int, loc: int | None) -> int:
    """Own counter capacity: every hand card's discard value plus the best affordable evolution
    of the defending Being (of any own Being when `loc` is None), given the active gems."""
    spec = m.spec
    hand = m.hands[seat]
    total = sum(spec.discard_gain[c] for c in hand)
    gems = m.gems_active[seat]
    best = 0
    for at, being in enumerate(m.field[seat]):
        if being is None or (loc is not None and at != loc):
            continue
        for new, price, _, _ in spec.evolutions[being.stack[-1]]:
            if price <= gems and new in hand:
                # evolving uses the card instead of discarding it: count the difference
                best = max(best, spec.power[new] - spec.discard_gain[new])
    return total + best


def features(m: Match, seat: int) -> dict[str, Any]:
    """The §10 features as a dict (for heuristic bots and reports, not for the hot loop)."""
    spec = m.spec
    other = 1 - seat
    names = spec.locations
    ids = spec.catalog.cards
    out: dict[str, Any] = {}
    for side, who in ((seat, "own"), (other, "opp")):
        for loc, being in enumerate(m.field[side]):
            key = f"{who}_{names[loc]}"
            if being is None:
                out[key] = None
                continue
            top = being.stack[-1]
            out[key] = {
                "card": ids[top],
                "base": base_power(spec, being),
                "mods": sum(mod[0] for mod in being.mods),
                "power": power(spec, being),
                "level": spec.level[top],
                "type": spec.types[spec.type_of[top]],
                "rested": being.rested,
                "equipped": being.equipped,
                "can_attack": _can_attack(m, side, being),
            }
    mean_unseen = unseen_mean_power(m, seat, other)
    own_capacity = counter_capacity(m, seat, None)
    opp_capacity = len(m.hands[other]) * mean_unseen
    out.update(
        life=len(m.lives[seat]),
        opp_life=len(m.lives[other]),
        hand=len(m.hands[seat]),
        opp_hand=len(m.hands[other]),
        deck=len(m.decks[seat]),
        opp_deck=len(m.decks[other]),
        abyss=len(m.abysses[seat]),
        opp_abyss=len(m.abysses[other]),
        gems_active=m.gems_active[seat],
        gems_rested=m.gems_rested[seat],
        gem_deck=m.gem_decks[seat],
        opp_gems_active=m.gems_active[other],
        own_counter_capacity=own_capacity,
        opp_estimated_capacity=opp_capacity,
        exposed=_exposed(m, seat),
        evolution_options=_evolution_value(m, seat),
        lethal=_lethal(m, seat, opp_capacity),
    )
    return out


def needed_defense(m: Match, attacker: Being, defending: Being | None) -> int:
    return attack_power(m, attacker, defending) + m.spec.defense_margin


def _can_attack(m: Match, side: int, being: Being) -> bool:
    """Could this Being attack on its owner's next (or current) turn?"""
    if being.attacked == m.turn and m.active == side:
        return False
    fresh = (being.entered == m.turn or being.evolved == m.turn) and m.active == side
    return not fresh or (m.spec.zero_life_haste and not m.lives[side])


def _exposed(m: Match, seat: int) -> list[str]:
    """Own rested Beings that an opposing Being could attack next turn (R25 reach)."""
    spec = m.spec
    out = []
    for loc, being in enumerate(m.field[seat]):
        if being is None or not being.rested:
            continue
        for at, enemy in enumerate(m.field[1 - seat]):
            if enemy is not None and loc in spec.reach[at]:
                out.append(spec.locations[loc])
                break
    return out


def _evolution_value(m: Match, seat: int) -> list[tuple[str, str, float]]:
    """Evolutions in hand: (location, card, power gained per gem)."""
    spec = m.spec
    out = []
    for loc, being in enumerate(m.field[seat]):
        if being is None:
            continue
        for new, price, _, _ in spec.evolutions[being.stack[-1]]:
            if new in m.hands[seat]:
                out.append(
                    (spec.locations[loc], spec.catalog.cards[new], spec.power[new] / max(1, price))
                )
    return out


def _lethal(m: Match, seat: int, opp_capacity: float) -> bool:
    """Opponent at 0 life, no active blocker, and an attack whose need exceeds their capacity."""
    other = 1 - seat
    if m.lives[other]:
        return False
    if any(b is not None and not b.rested for b in m.field[other]):
        return False
    for being in m.field[seat]:
        if being is None or being.rested or not _can_attack(m, seat, being):
            continue
        if needed_defense(m, being, None) > opp_capacity + m.gems_active[other]:
            return True
    return False
