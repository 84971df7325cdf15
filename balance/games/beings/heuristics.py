"""beings' bot hooks (spec §10): position features and the evaluation behind `evaluate(seat)`.

Everything here reads only what `seat` may know: its own hand, the public field, gems, Abysses
and every zone's size. The opponent's hidden cards enter only as the mean power of the cards
that `seat` cannot see (their decklist minus what is visible), which determinize() preserves.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from balance.games.beings.cards import DOUBLE, RESIST
from balance.games.beings.state import LIFE, Attack, Being, base_power, power

if TYPE_CHECKING:
    from balance.games.beings.cards import BeingsSpec
    from balance.games.beings.state import Match

# The evaluation counts each side's assets in power points (pp, the unit of attack and defence)
# and squashes the difference. Weights (pp per unit) were tuned in greedy-vs-greedy play.
BEING_PP = 1.0  # per point of power in play
SLOT_PP = 5.0  # per Being in play: a blocker, an attacker, an evolution base
HAND_PP = 0.8  # per point of defence in hand (a discard adds it; a card also plays)
LIFE_PP = 8.0  # per life card: each absorbs a whole attack, then joins the hand
GEM_PP = 0.6  # per gem owned (zone and equipped): the ramp
EXPOSED = 1.0  # share of a rested Being's expected loss counted before it is attacked
DANGER_PP = 30.0  # at 0 life, facing more attack than the hand can answer
EVOLVE_PP = 0.6  # per point of power my best affordable evolution adds to a defence
SCALE = 25.0  # pp difference at which the value is tanh(1) = 0.76
MEAN_CARD = 3.0  # a card's mean defence (a life card taken joins the hand)


def evaluate(m: Match, seat: int) -> float:
    """A value in (-1, 1) for `seat` in an unfinished game (spec §10 features, in pp).

    Each side's assets are Beings (power and presence), hand (defence and options, with the best
    evolution its active gems can pay in a defend step), life and gems, less what its rested
    Beings stand to lose to the opposing Beings in reach. An attack under way is scored as it
    will likely end: a life card taken, a Being defeated or saved by discards, or the game lost
    at 0 life. A side at 0 life whose hand cannot answer the opposing Beings' next attacks is in
    danger. The opponent's hand counts as its size times the mean defence of the cards `seat`
    cannot see (deck, life and hand), which determinize() keeps.

    Search bots call this for every move they try, so it is written flat, and what it reads of
    a Being that no match will change again is worked out once (`Being.terms`).
    """
    spec = m.spec
    other = 1 - seat
    hands = m.hands
    defence = [0.0, 0.0]
    defence[seat] = m.hand_defence[seat] + EVOLVE_PP * _best_evolution(m, seat)
    unseen = len(m.decks[other]) + len(m.lives[other]) + len(hands[other])
    if unseen:
        defence[other] = len(hands[other]) * m.hidden_defence[other] / unseen
    value = [0.0, 0.0]
    exposed: list[list[Placed]] = [[], []]
    threats: list[list[Placed]] = [[], []]
    blockers = [0, 0]
    token = m.token
    turn = m.turn
    lives = m.lives
    for side in (0, 1):
        life = len(lives[side])
        total = (
            HAND_PP * defence[side]
            + LIFE_PP * life
            + GEM_PP * (m.gems_active[side] + m.gems_rested[side])
        )
        own_turn = m.active == side
        haste = not life and spec.zero_life_haste
        loc = -1
        for being in m.field[side]:
            loc += 1
            if being is None:
                continue
            terms = being.terms
            if terms is None:
                terms = being_terms(spec, being)
                if being.owner is not token:  # shared: it never changes again
                    being.terms = terms
            total += terms[0]
            if being.rested:
                exposed[side].append((loc, terms))
            else:
                blockers[side] += 1
            # It threatens if it may attack before the other side refreshes: on the other
            # side's turn every Being (all refresh first), on its own those still able now.
            if not own_turn or (
                not being.rested
                and being.attacked != turn
                and (haste or (being.entered != turn and being.evolved != turn))
            ):
                threats[side].append((loc, terms))
        value[side] = total
    a = m.attack
    if a is not None:
        lost = _attack_outcome(m, a, defence)
        if lost >= WIN:
            return 1.0 if a.seat == seat else -1.0
        value[1 - a.seat] -= lost
    for side in (0, 1):
        against = threats[1 - side]
        if not against:
            continue
        if exposed[side]:
            value[side] -= EXPOSED * _exposure(spec, exposed[side], against, defence[side])
        if not lives[side]:
            value[side] -= _danger(spec, against, blockers[side], defence[side])
    return math.tanh((value[seat] - value[other]) / SCALE)


WIN = 1e9  # _attack_outcome's answer when the attack wins the game

# What the evaluation reads of a Being (`being_terms`): its worth in play (pp), power, attack
# base, mods and type. A rested Being (exposed) and one that may attack before the other side's
# Beings next refresh (a threat) are listed as (location, terms).
Terms = tuple[float, int, int, int, int]
Placed = tuple[int, Terms]


def being_terms(spec: BeingsSpec, being: Being) -> Terms:
    """What the evaluation reads of a Being: its worth in play (pp), its power, its attack base
    (printed + equipped), its skill mods and its type."""
    base = being.printed + spec.equip_power * being.equipped
    mods = 0
    for mod in being.mods:
        mods += mod[0]
    p = max(0, base + mods)
    worth = BEING_PP * p + SLOT_PP + GEM_PP * being.equipped
    return worth, p, base, mods, spec.type_of[being.stack[-1]]


def _hit(spec: BeingsSpec, attacker: Being, defending: Being | None) -> int:
    """G7 attack power (rules.attack_power, without the function call)."""
    base = attacker.printed + spec.equip_power * attacker.equipped
    if defending is not None:
        kind = spec.multiplier[spec.type_of[attacker.stack[-1]]][spec.type_of[defending.stack[-1]]]
        if kind == DOUBLE:
            base *= spec.double_multiplier
        elif kind == RESIST:
            base = -(-base // spec.resist_divisor)
    for mod in attacker.mods:
        base += mod[0]
    return max(0, base)


def _attack_outcome(m: Match, a: Attack, defence: list[float]) -> float:
    """What the attack under way will likely cost the defender, in pp (WIN: the game)."""
    spec = m.spec
    attacker = m.field[a.seat][a.loc]
    if attacker is None or attacker.uid != a.uid:
        return 0.0  # fizzled
    defender = 1 - a.seat
    held = defence[defender]
    if a.defending >= 0:
        being = m.field[defender][a.defending]
        if being is None or being.uid != a.defending_uid:
            return 0.0
        own = power(spec, being)
        need = _hit(spec, attacker, being) + spec.defense_margin - own - a.counter
        if need <= 0:
            return 0.0
        worth = BEING_PP * own + SLOT_PP
        return min(worth, HAND_PP * need) if held >= need else worth
    if a.target != LIFE:
        return 0.0
    if m.lives[defender]:
        return LIFE_PP - HAND_PP * MEAN_CARD
    need = _hit(spec, attacker, None) + spec.defense_margin - a.counter
    if need <= 0:
        return 0.0
    return HAND_PP * need if held >= need else WIN


def _exposure(spec: BeingsSpec, mine: list[Placed], theirs: list[Placed], held: float) -> float:
    """What my rested Beings stand to lose to the threatening opposing Beings that reach them
    (pp): each is saved by discards if the hand can and that costs less than the Being."""
    reach = spec.reach
    multiplier = spec.multiplier
    margin = spec.defense_margin
    double, resist = spec.double_multiplier, spec.resist_divisor
    total = 0.0
    for loc, (_, own, _, _, kind) in mine:
        worst = 0
        for at, (_, _, base, mods, attacker_kind) in theirs:
            if loc in reach[at]:
                factor = multiplier[attacker_kind][kind]
                if factor == DOUBLE:
                    base *= double
                elif factor:
                    base = -(-base // resist)
                need = base + mods + margin - own
                if need > worst:  # noqa: PLR1730 - max() is a call per pair, in the hot loop
                    worst = need
        if worst > 0:
            worth = BEING_PP * own + SLOT_PP
            total += min(worth, HAND_PP * worst) if held >= worst else worth
    return total


def _best_evolution(m: Match, seat: int) -> int:
    """The most power one affordable evolution from hand adds (for a defend step)."""
    spec = m.spec
    gems = m.gems_active[seat]
    if not gems:
        return 0
    hand = m.hands[seat]
    best = 0
    for being in m.field[seat]:
        if being is not None:
            for new, price, _, _ in spec.evolutions[being.stack[-1]]:
                if price <= gems and spec.power[new] > best and new in hand:
                    best = spec.power[new]
    return best


def _danger(spec: BeingsSpec, theirs: list[Placed], blockers: int, held: float) -> float:
    """I am at 0 life: the threatening opposing Beings' attacks on my life, less those my
    active Beings can block, against what my hand can discard."""
    if blockers >= len(theirs):
        return 0.0
    margin = spec.defense_margin
    need = [terms[1] + margin for _, terms in theirs]
    if blockers:
        need.sort()
        del need[-blockers:]
    short = sum(need) - held
    if short <= 0:
        return 0.0
    return DANGER_PP * min(1.0, short / (held + 1.0))


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
