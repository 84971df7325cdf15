"""beings' bot hooks (spec §10): position features and the evaluation behind `evaluate(seat)`.

Everything here reads only what `seat` may know: its own hand, the public field, gems, Abysses
and every zone's size. The opponent's hidden cards enter only as the mean power of the cards
that `seat` cannot see (their decklist minus what is visible), which determinize() preserves.
"""

from __future__ import annotations

import math
from bisect import insort
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from balance.games.beings.effects import (
    ACROSS,
    ALL_OWN,
    ATTACK,
    C_DECK_EMPTY,
    C_HAND,
    C_STACK,
    C_VIA,
    DEFENDER,
    DRAW,
    GAIN_GEMS,
    ME,
    PLAY,
    PLAYER_OPS,
    POWER,
    READY_GEMS,
    REST,
    REVIVE,
    SELF,
    TURN_END,
    TURN_START,
    UNTIL_ATTACK,
    UNTIL_NEXT,
    UNTIL_TURN,
    VIA_SUMMON,
    card_matches,
)
from balance.games.beings.state import LIFE, Attack, Being, attack_power, base_power, power

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from balance.games.beings.spec import BeingsSpec, Skill
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
    return math.tanh(difference(m, seat) / SCALE)


def difference(m: Match, seat: int) -> float:
    """The difference `evaluate` squashes: `seat`'s assets less the other side's (pp; +-inf
    where the attack under way wins or loses the game)."""
    value, exposed, threats, blockers, defence = _sides(m, seat)
    spec = m.spec
    lives = m.lives
    a = m.attack
    if a is not None:
        lost = _attack_outcome(m, a, defence)
        if lost >= WIN:
            return math.inf if a.seat == seat else -math.inf
        value[1 - a.seat] -= lost
    for side in (0, 1):
        against = threats[1 - side]
        if not against:
            continue
        if exposed[side]:
            value[side] -= EXPOSED * _exposure(spec, exposed[side], against, defence[side])
        if not lives[side]:
            value[side] -= _danger(spec, against, blockers[side], defence[side])
    return value[seat] - value[1 - seat]


def _sides(m: Match, seat: int) -> Sides:
    """Each side's assets and what the exposure and danger terms read, as `seat` sees them."""
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
        rested = exposed[side]
        threat = threats[side]
        active = 0
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
                rested.append((loc, terms))
                if not own_turn:  # it refreshes before it may attack (below)
                    threat.append((loc, terms))
                continue
            active += 1
            # It threatens if it may attack before the other side refreshes: on the other
            # side's turn every Being (all refresh first), on its own those still able now.
            if not own_turn or (
                being.attacked != turn
                and (haste or (being.entered != turn and being.evolved != turn))
            ):
                threat.append((loc, terms))
        blockers[side] = active
        value[side] = total
    return value, exposed, threats, blockers, defence


WIN = 1e9  # _attack_outcome's answer when the attack wins the game

# What the evaluation reads of a Being (`being_terms`): its worth in play (pp), power, attack
# base, mods and type. A rested Being (exposed) and one that may attack before the other side's
# Beings next refresh (a threat) are listed as (location, terms).
Terms = tuple[float, int, int, int, int]
Placed = tuple[int, Terms]
# What `evaluate` reads of a position before the attack under way, exposure and danger: each
# side's assets (pp), its rested Beings (exposed), the Beings that threaten the other side, its
# active Beings (blockers) and its defence.
Sides = tuple[list[float], list[list[Placed]], list[list[Placed]], list[int], list[float]]


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
        need, own = _stakes(spec, attacker, being)
        return _being_loss(need - a.counter, own, held)
    if a.target != LIFE:
        return 0.0
    if m.lives[defender]:
        return LIFE_PP - HAND_PP * MEAN_CARD
    need = attack_power(spec, attacker, None) + spec.defense_margin - a.counter
    if need <= 0:
        return 0.0
    return HAND_PP * need if held >= need else WIN


def _stakes(spec: BeingsSpec, attacker: Being, being: Being) -> tuple[int, int]:
    """An attack by `attacker` on `being`: the defence it needs before counters (G7, R16) and
    the Being's power."""
    own = power(spec, being)
    return attack_power(spec, attacker, being) + spec.defense_margin - own, own


def _being_loss(need: int, own: int, held: float) -> float:
    """What a defending Being of power `own` will likely cost its side where the attack needs
    `need` more defence and the hand holds `held` (pp): the Being, or the discards that save it
    where the hand can and they cost less."""
    if need <= 0:
        return 0.0
    worth = BEING_PP * own + SLOT_PP
    return min(worth, HAND_PP * need) if held >= need else worth


def _exposure(spec: BeingsSpec, mine: list[Placed], theirs: list[Placed], held: float) -> float:
    """What my rested Beings stand to lose to the threatening opposing Beings that reach them
    (pp): each is saved by discards if the hand can and that costs less than the Being."""
    return _losses(_needs(spec, mine, theirs), held)


class Attacking(NamedTuple):
    """What `_Bounds.attacking` knows of a Being's attack, whatever its target."""

    attacker: Being | None  # None: an attack skill may resolve that the terms do not follow
    mine: float  # my value once it rests (pp)
    block: bool  # whether the opponent has a Being to block it
    bonus: int  # the power its attack skills may add to it until the attack ends
    # its skills that act on the defending Being (there is none in an attack on life): the
    # power they add to it until the attack ends, None if one does more; 0 if it has none
    weaken: int | None
    at_defender: bool  # whether it has such skills
    terms: Terms  # its terms with the bonus
    assets: float  # my value once it rests, but for the exposure and danger terms
    rests: int  # the location of their active Being across that its skill rests (-1: none)


# A rested Being in reach of a threat: (location, power, the most defence an attack on it needs)
Need = tuple[int, int, int]


def _needs(spec: BeingsSpec, mine: list[Placed], theirs: list[Placed]) -> list[Need]:
    """My rested Beings that a threatening opposing Being in reach could defeat, each with the
    most defence (beyond its power) such an attack needs."""
    reach = spec.reach
    ratio = spec.ratio
    margin = spec.defense_margin
    needs = []
    for loc, (_, own, _, _, kind) in mine:
        worst = 0
        for at, (_, _, base, mods, attacker_kind) in theirs:
            if loc in reach[at]:
                typed = ratio[attacker_kind][kind]  # R16, as state.attack_power
                if typed is not None:
                    base = -(-base * typed[0] // typed[1])
                need = base + mods + margin - own
                if need > worst:  # noqa: PLR1730 - max() is a call per pair, in the hot loop
                    worst = need
        if worst > 0:
            needs.append((loc, own, worst))
    return needs


def _losses(needs: list[Need], held: float) -> float:
    """The exposure of Beings with these needs against a hand holding `held` defence (pp)."""
    total = 0.0
    for _, own, worst in needs:
        worth = BEING_PP * own + SLOT_PP
        total += min(worth, HAND_PP * worst) if held >= worst else worth
    return total


def _best_evolution(m: Match, seat: int) -> int:
    """The most power one affordable evolution from hand adds (for a defend step)."""
    spec = m.spec
    gems = m.gems_active[seat]
    if gems < spec.cheapest_evolution:
        return 0  # (an evolution may be free: a card costing no more than the one below it)
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
    return _shortfall(_unblocked(spec, theirs, blockers), held)


def _unblocked(spec: BeingsSpec, theirs: list[Placed], blockers: int) -> int:
    """The defence the threats' attacks on my life need, less those my blockers take (the
    largest); 0 when they can block them all."""
    if blockers >= len(theirs):
        return 0
    margin = spec.defense_margin
    need = [terms[1] + margin for _, terms in theirs]
    if blockers == 1:  # (most often: the sum less the largest, in whole numbers, without a sort)
        return sum(need) - max(need)
    if blockers:
        need.sort()
        del need[-blockers:]
    return sum(need)


def _shortfall(need: int, held: float) -> float:
    """The danger term (pp) of unblocked attacks needing `need` against `held` defence."""
    short = need - held
    if short <= 0:
        return 0.0
    return DANGER_PP * min(1.0, short / (held + 1.0))


# -- what search bots may know of an option without applying it ----------------------------------

SLACK = 1e-6  # pp added to a bound: far more than the rounding between its sums and evaluate's
FALLS_THROUGH = (0.0, 0.0, 0, False)  # `_Bounds.card`'s mark of a play it cannot bound


def option_bounds(
    m: Match, seat: int, among: Sequence[int] | None = None
) -> tuple[list[float | None], list[float | None], Callable[[Match, int], float | None]]:
    """For `seat`'s main-phase decision: per option (of those `among`, or all), an upper bound
    on `evaluate(seat)` once the option is applied and the flow has run on to the next
    decision, or None where there is no cheap one. Plays, evolutions, equips, gem draws, the end
    of the turn and attacks get one where no skill triggers that the terms do not follow: what
    the option changes of `evaluate`'s terms is worked out from this position's. An attack
    whose skills only add power to the attacker until the attack ends is bounded with that
    power added. A search bot need not apply an option whose bound is below the best value it
    has found: most plays.

    Also, per option, the difference `evaluate` squashes (pp) where the bound is its value but
    for the slack: all those bounded but the attacks with skills (`known_value`), else None.

    Plays, and attacks on a Being, are bounded loosely at first (a play: a term per card plus
    one per location, the hand's defence after it at its most); the third answer, asked of
    such an option, gives its bound as above and its difference (into the second answer's
    list): a search bot asks it only of the options whose loose bound is not below the best
    value already found, few of them."""
    bounds = _Bounds(m, seat)
    answer = bounds.all(among)
    # the match keeps `tight`: were the bounds to keep the match, the two would be a cycle,
    # which only the garbage collector frees (it then runs far more often, slowing everything)
    del bounds.m
    return *answer, bounds.tight


def known_value(pp: float) -> float:
    """`evaluate`'s value from the difference it squashes (pp; +-inf: the game won or lost)."""
    return math.tanh(pp / SCALE)


class _Bounds:
    """`option_bounds` for one position: what evaluate reads of it, worked out once."""

    def __init__(self, m: Match, seat: int) -> None:
        spec = m.spec
        self.m = m
        self.seat = seat
        self.sides = sides = _sides(m, seat)
        value, exposed, threats, blockers, defence = sides
        other = 1 - seat
        self.against = against = threats[other]  # no move of mine changes them
        self.threat_at = {placed[0] for placed in threats[seat]}  # my threats' locations
        self.needs = _needs(spec, exposed[seat], against) if against else []
        # at 0 life: the attacks on my life my blockers cannot take, by how many block
        self.at_zero = bool(against) and not m.lives[seat]
        self.unblocked_known: dict[int, int] = {}  # see `unblocked`
        # the opponent's value, and as it is once my Being at a location no longer threatens
        self.theirs = value[other] - _penalty(
            spec, exposed[other], threats[seat], blockers[other], defence[other], not m.lives[other]
        )
        self.theirs_without: dict[int, float] = {}
        self.best_evolution = -1  # worked out for the first play
        self.haste = not m.lives[seat] and spec.zero_life_haste
        self.can_attack = m.turn > 1 or spec.first_turn_attack
        # what `more_to_do` reads past its gem checks (most answers come before): the two
        # cheapest cards in hand, the Beings that may attack; worked out at the first need
        self.cheapest: list[tuple[int, int]] | None = None
        self.attackers: list[int] = []
        self.cards: dict[int, tuple[float, float, int, bool]] = {}  # per card played, see `card`
        self.drawn: dict[int, int] = {}  # per card played whose skill draws: the card it draws
        self.places: dict[int, tuple[float, list[Need], int, float]] = {}  # see `place`
        self.attackers_known: dict[int, Attacking] = {}  # see `attacker_at`
        self.without: dict[int, tuple[list[Placed], dict[int, int], list[Placed]]] = {}
        self.hasty_known: dict[tuple[int, int, int], float] = {}  # see `hasty_of`
        self.exact: list[float | None] = []  # `all`'s exact differences, `tight` adds to them
        self.pending: dict[int, bool] = {}  # the options `loose` bounded, until `tight` asked
        self.equipped_held = -1.0  # the hand's defence after an equip (-1: not known yet)
        self.skilled: set[int] = set()  # attacks whose skills' power is counted at its most
        self.passing: tuple[list[Placed], float, float] | None = None  # see `their_turn`
        self.passing_known = False

    def evolution_now(self) -> int:
        """`_best_evolution` of the position, worked out at the first call."""
        if self.best_evolution < 0:
            self.best_evolution = _best_evolution(self.m, self.seat)
        return self.best_evolution

    def evolution_after(self, gems: int, spent: int, loc: int, top: int, drawn: int) -> int:
        """`_best_evolution` once an action leaves `gems` active gems, takes card `spent` from
        the hand (-1: none), puts `top` on top at `loc` (-1: nowhere) and draws `drawn` (-1:
        none): what `evaluate` reads of the hand's evolutions after it, exactly."""
        m = self.m
        spec = m.spec
        if gems < spec.cheapest_evolution:
            return 0
        hand = m.hands[self.seat]
        power = spec.power
        evolutions = spec.evolutions
        best = 0
        at = -1
        for being in m.field[self.seat]:
            at += 1
            if at == loc:
                now = top
            elif being is not None:
                now = being.stack[-1]
            else:
                continue
            for new, price, _, _ in evolutions[now]:
                if (
                    price <= gems
                    and power[new] > best
                    and (new == drawn or (new in hand and (new != spent or hand.count(new) > 1)))
                ):
                    best = power[new]
        return best

    def held_without(self, card: int, gems: int) -> float:
        """The hand's defence once `card` has left it with `gems` active gems left: it keeps its
        best evolution, or one of `card`'s own it can now afford."""
        m = self.m
        spec = m.spec
        power = spec.power
        best = self.best_evolution
        if best < 0:
            best = self.evolution_now()
        hand = m.hands[self.seat]
        for new, price, _, _ in spec.evolutions[card]:
            if price <= gems and power[new] > best and new != card and new in hand:
                best = power[new]
        return m.hand_defence[self.seat] - spec.discard_gain[card] + EVOLVE_PP * best

    def more_to_do(self, gems: int, spent: int, loc: int | None, fresh: bool) -> bool:
        """After an action that leaves `gems` active gems, takes card `spent` from the hand (-1:
        none) and changes the Being at `loc` (None: at any location), `fresh` if that Being may
        attack after it (with haste: a new or just-evolved active Being), does the main phase
        surely offer more than ending the turn (which a lone option would do at once)? A gem
        draw, an equip, an affordable card, or a Being that may attack."""
        m = self.m
        spec = m.spec
        deck = m.decks[self.seat]
        if deck and gems >= spec.gem_draw_cost:
            return True
        if gems >= 1 and (not deck or not spec.equip_requires_empty_deck):
            return True  # the played or attacking Being can be equipped
        cheapest = self.cheapest
        if cheapest is None:
            cheapest = self.cheapest = self.more_reads()
        for price, card in cheapest:
            if card != spent:
                if price <= gems:
                    return True
                break
        if loc is None:  # wherever the play goes, another Being attacks
            if len(self.attackers) > 1:
                return True
        else:
            for at in self.attackers:
                if at != loc:
                    return True
        return fresh and self.haste and self.can_attack

    def more_reads(self) -> list[tuple[int, int]]:
        """What `more_to_do` reads past its gem checks: the two cheapest cards in hand (as
        (cost, card)); and the Beings that may attack, into `attackers`."""
        m = self.m
        turn = m.turn
        haste = self.haste
        if self.can_attack:
            self.attackers = [
                at
                for at, being in enumerate(m.field[self.seat])
                if being is not None
                and not being.rested
                and being.attacked != turn
                and (haste or (being.entered != turn and being.evolved != turn))
            ]
        cost = m.spec.cost
        return sorted([(cost[card], card) for card in m.hands[self.seat]])[:2]

    def unblocked(self, blockers: int) -> int:
        """`_unblocked` of the threats against me with `blockers` blockers (at 0 life), worked
        out once per count."""
        need = self.unblocked_known.get(blockers)
        if need is None:
            need = self.unblocked_known[blockers] = _unblocked(self.m.spec, self.against, blockers)
        return need

    def all(self, among: Sequence[int] | None) -> tuple[list[float | None], list[float | None]]:
        """The bounds and the exact differences (`option_bounds`), of the options `among` (the
        others None), or of all."""
        m = self.m
        loc_index = m.spec.loc_index
        options = m.options
        bounds: list[float | None] = [None] * len(options)
        exact: list[float | None] = [None] * len(options)
        plays: list[int] = []  # bounded loosely below
        for index in range(len(options)) if among is None else among:
            option = options[index]
            what = option[0]
            if what == "play":
                plays.append(index)
                continue
            if what == "attack":
                target = LIFE if option[2] == "life" else loc_index[option[2]]
                pp = self.attack_loosely(index, loc_index[option[1]], target)
            elif what == "gem_draw":
                pp = self.gem_draw()
            elif what == "end_turn":
                pp = self.end_turn()
            elif what == "evolve":
                pp = self.evolve(option[1], loc_index[option[2]])
            elif what == "equip":
                pp = self.equip(loc_index[option[1]])
            else:
                pp = None
            if pp is None:
                continue
            bounds[index] = math.tanh((pp + SLACK) / SCALE)
            if index in self.pending or index in self.skilled:
                continue  # a loose bound (`tight` works out the difference), or not the value
            exact[index] = pp
        self.exact = exact
        if plays:
            self.loose(plays, bounds)
        return bounds, exact

    def loose(self, plays: list[int], bounds: list[float | None]) -> None:
        """Bound the plays at these options loosely, as the sum of a term per card and one per
        location (`tight` bounds one exactly, when asked): the hand after any of them holds at
        most the most defence any leaves it, and at 0 life with haste the new Being threatens
        at most as the strongest card of its type would (the terms it raises are monotone in
        its power)."""
        m = self.m
        spec = m.spec
        options = m.options
        loc_index = spec.loc_index
        power = spec.power
        type_of = spec.type_of
        cards = self.cards
        most = -math.inf  # the most defence the hand may hold after a play
        strongest: dict[int, int] = {}  # per type of a card played: its most power
        for card in {options[index][1] for index in plays}:  # (maxima: in any order)
            known = cards.get(card)
            if known is None:
                known = cards[card] = self.card(card)
            if known is FALLS_THROUGH:
                continue
            if known[0] > most:  # noqa: PLR1730 - max() is a call per play
                most = known[0]
            if power[card] > strongest.get(type_of[card], -1):
                strongest[type_of[card]] = power[card]
        if most == -math.inf:
            return
        floor = self.haste_floor(strongest) if self.haste else None
        at_loc: dict[str, float] = {}  # per location (by name): its term
        pending = self.pending
        tanh = math.tanh
        for index in plays:
            option = options[index]
            known = cards[option[1]]
            if known is FALLS_THROUGH:
                continue
            name = option[2]
            if not known[3] and not self.more_to_do(known[2], option[1], loc_index[name], True):
                # the turn may end at once: bounded by `play` now, not the value (not pending)
                pp = self.play(option[1], loc_index[name])
                if pp is not None:
                    bounds[index] = tanh((pp + SLACK) / SCALE)
                continue
            term = at_loc.get(name)
            if term is None:
                term = at_loc[name] = self.location_term(loc_index[name], most, floor)
            bounds[index] = tanh((known[1] + term + SLACK) / SCALE)
            pending[index] = True

    def location_term(self, loc: int, most: float, floor: float | None) -> float:
        """A play's bound less its card's term (`loose`): what the location changes, my
        penalty at the most defence, and the opponent's value at its least (`floor` with
        haste)."""
        place = self.places.get(loc)
        if place is None:
            place = self.places[loc] = self.place(loc)
        adjust, needs, blockers, theirs = place
        if floor is not None:
            theirs = floor
        total = EXPOSED * _losses(needs, most) if needs else 0.0
        if self.at_zero:
            total += _shortfall(self.unblocked(blockers), most)
        return adjust - total - theirs

    def haste_floor(self, strongest: dict[int, int]) -> float:
        """The opponent's value at its least once a card played threatens at once (0 life,
        haste; `hasty` for each play): as if it reached all their rested Beings, kept all my
        threats, and had the most power its type has among the cards played, of each type."""
        m = self.m
        spec = m.spec
        other = 1 - self.seat
        value, exposed, threats, blockers, defence = self.sides
        mine = threats[self.seat]
        theirs = exposed[other]
        worst = {at: need for at, _, need in _needs(spec, theirs, mine)} if mine else {}
        ratio = spec.ratio
        margin = spec.defense_margin
        for at, (_, own, _, _, kind) in theirs:
            most = worst.get(at, 0)
            for attacker_kind, base in strongest.items():
                typed = ratio[attacker_kind][kind]  # R16, as state.attack_power
                if typed is not None:
                    base = -(-base * typed[0] // typed[1])
                need = base + margin - own
                if need > most:  # noqa: PLR1730 - as in `_needs`
                    most = need
            if most > 0:
                worst[at] = most
        merged = [(at, terms[1], worst[at]) for at, terms in theirs if at in worst]
        floor = value[other] - EXPOSED * _losses(merged, defence[other])
        if not m.lives[other]:
            p = max(0, max(strongest.values()))
            threat = (-1, (BEING_PP * p + SLOT_PP, p, p, 0, 0))  # `_danger` reads its power
            floor -= _danger(spec, [*mine, threat], blockers[other], defence[other])
        return floor

    def tight(self, m: Match, index: int) -> float | None:
        """The bound of option `index` of `m` (the match bounded) as `play` gives it, where
        `loose` bounded it (else its bound is tight already: None); its exact difference joins
        `exact`."""
        if not self.pending.pop(index, False):
            return None
        option = m.options[index]
        loc_index = m.spec.loc_index
        self.m = m  # only while it works (`option_bounds`)
        if option[0] == "attack":
            target = LIFE if option[2] == "life" else loc_index[option[2]]
            pp = self.attack(loc_index[option[1]], target)
            exact = index not in self.skilled
        else:
            pp = self.play(option[1], loc_index[option[2]])
            exact = True
        del self.m
        assert pp is not None  # `loose` and `attack_loosely` bound only what these bound
        if exact:
            self.exact[index] = pp
        return math.tanh((pp + SLACK) / SCALE)

    def hasty_of(self, loc: int, p: int, kind: int) -> float:
        """`hasty` of a card of power `p` and type `kind` at `loc`, worked out once."""
        key = (loc, p, kind)
        hasty = self.hasty_known.get(key)
        if hasty is None:
            hasty = self.hasty_known[key] = self.hasty(p, kind, loc)
        return hasty

    def evolve(self, card: int, loc: int) -> float | None:
        """Evolve the Being at `loc` to `card` (no play skill): its new terms are exact; the hand
        loses the card's defence and keeps at most its best evolution, or gains the new top's."""
        m = self.m
        spec = m.spec
        seat = self.seat
        if spec.play_skill_on_evolve and spec.triggers[card][PLAY]:
            return None
        being = m.field[seat][loc]
        assert being is not None  # main_options offers only occupied locations
        for new, price, _, _ in spec.evolutions[being.stack[-1]]:
            if new == card:
                break
        else:
            return None
        gems = m.gems_active[seat] - price
        best = self.evolution_after(gems, card, loc, card, -1)
        held = m.hand_defence[seat] - spec.discard_gain[card] + EVOLVE_PP * best
        base = being.printed + spec.power[card] + spec.equip_power * being.equipped
        # a just-evolved Being attacks this turn only with haste (R22)
        threat = not being.rested and self.haste
        return self.changed(loc, base, card, being.equipped, threat, held, gems, card, 0.0)

    def equip(self, loc: int) -> float | None:
        """Equip a gem to the Being at `loc`: its new terms are exact; the gem leaves the zone
        for the Being's worth."""
        m = self.m
        spec = m.spec
        seat = self.seat
        being = m.field[seat][loc]
        assert being is not None  # main_options offers only occupied locations
        equipped = being.equipped + 1
        base = being.printed + spec.equip_power * equipped
        threat = loc in self.threat_at
        gems = m.gems_active[seat] - 1
        if self.equipped_held < 0:  # the same for every equip
            best = self.evolution_after(gems, -1, -1, -1, -1)
            self.equipped_held = m.hand_defence[seat] + EVOLVE_PP * best
        held = self.equipped_held
        return self.changed(loc, base, being.stack[-1], equipped, threat, held, gems, -1, -GEM_PP)

    def changed(
        self, loc: int, base: int, top: int, equipped: int, threat: bool, held: float,
        gems: int, spent: int, assets: float,
    ) -> float | None:  # fmt: skip
        """The Being at `loc` changes in place: attack base `base`, `top` on top, `equipped` gems
        (its mods kept), `threat` whether it threatens after; the hand holds at most `held`,
        `gems` active gems are left, card `spent` left the hand (-1: none) and my other assets
        change by `assets` (pp)."""
        m = self.m
        spec = m.spec
        seat = self.seat
        if m.actions + 1 >= spec.max_actions_per_turn or not self.more_to_do(
            gems, spent, loc, threat
        ):
            return None  # the turn would end at once
        being = m.field[seat][loc]
        assert being is not None  # the callers name a Being in play
        old: Terms = being.terms or being_terms(spec, being)  # (`_sides` kept them)
        mods = old[3]
        p = max(0, base + mods)
        terms = (BEING_PP * p + SLOT_PP + GEM_PP * equipped, p, base, mods, spec.type_of[top])
        value, exposed, threats, blockers, defence = self.sides
        mine = value[seat] + HAND_PP * (held - defence[seat]) + terms[0] - old[0] + assets
        needs = self.needs
        if being.rested and self.against:
            needs = [need for need in needs if need[0] != loc]
            needs += _needs(spec, [(loc, terms)], self.against)
        was = loc in self.threat_at
        if not was and not threat:
            theirs = self.theirs
        else:
            other = 1 - seat
            mine_threats = [placed for placed in threats[seat] if placed[0] != loc]
            if threat:
                mine_threats.append((loc, terms))
            theirs = value[other] - _penalty(
                spec, exposed[other], mine_threats, blockers[other], defence[other],
                not m.lives[other],
            )  # fmt: skip
        return mine - self.mine(needs, blockers[seat], held) - theirs

    def end_turn(self) -> float | None:
        """End the turn (`turn_passes` from this position)."""
        value, _, _, blockers, defence = self.sides
        seat = self.seat
        return self.turn_passes(value[seat], defence[seat], blockers[seat])

    def turn_passes(
        self, mine_value: float, held: float, blockers: int, loc: int = -1, card: int = -1
    ) -> float | None:
        """The turn passes, from my value `mine_value` (pp), my hand's defence `held` and my
        active Beings `blockers`, as they are after a play of `card` at `loc` that put a new
        Being there (-1: no play): exact where no skill triggers but those `my_turn_end` and
        `their_turn` follow. The mods that last the turn expire, and those theirs last to their
        next turn, and it is their turn (`their_turn`): all my Beings threaten."""
        theirs_known = self.their_turn()
        if theirs_known is None:
            return None
        theirs_threats, their_held, theirs = theirs_known
        mine_known = self.my_turn_end(loc, card)
        if mine_known is None:
            return None
        readied, mine_mods = mine_known
        m = self.m
        spec = m.spec
        seat = self.seat
        other = 1 - seat
        if readied:  # my hand's defence with the gems readied, where no play changed it
            if loc >= 0:
                return None
            k = min(readied, m.gems_rested[seat])
            best = self.evolution_after(m.gems_active[seat] + k, -1, -1, -1, -1)
            readied_held = m.hand_defence[seat] + EVOLVE_PP * best
            mine_value += HAND_PP * (readied_held - held)
            held = readied_held
        _, exposed, _, _, _ = self.sides
        mine_exposed = exposed[seat]
        mine_threats: list[Placed] = []
        field = m.field[seat]
        at = -1
        for being in field:
            at += 1
            if at == loc:  # the new Being: printed power, no mods, not rested
                p = max(0, spec.power[card])
                terms = (BEING_PP * p + SLOT_PP, p, spec.power[card], 0, spec.type_of[card])
                if being is not None and being.rested:
                    mine_exposed = []  # the Being replaced was exposed: listed again below
            elif being is not None:
                terms = being.terms or being_terms(spec, being)
                if being.mods and (mods := _mods_kept(being, other)) != terms[3]:
                    p = max(0, terms[2] + mods)
                    worth = BEING_PP * p + SLOT_PP + GEM_PP * being.equipped
                    mine_value += worth - terms[0]
                    terms = (worth, p, terms[2], mods, terms[4])
                    mine_exposed = []  # listed again below, with the terms after
            else:
                continue
            if mine_mods and (more := mine_mods.get(at, 0)):
                equipped = being.equipped if at != loc else 0  # type: ignore[union-attr]
                p = max(0, terms[2] + terms[3] + more)
                worth = BEING_PP * p + SLOT_PP + GEM_PP * equipped
                mine_value += worth - terms[0]
                terms = (worth, p, terms[2], terms[3] + more, terms[4])
                mine_exposed = []
            mine_threats.append((at, terms))
        if mine_exposed is not exposed[seat]:
            mine_exposed = [
                placed
                for placed in mine_threats
                if placed[0] != loc and field[placed[0]].rested  # type: ignore[union-attr]
            ]
        lives = m.lives
        theirs -= _penalty(
            spec, [], mine_threats, len(theirs_threats), their_held, not lives[other]
        )
        mine = mine_value - _penalty(
            spec, mine_exposed, theirs_threats, blockers, held, not lives[seat]
        )
        return mine - theirs

    def their_turn(self) -> tuple[list[Placed], float, float] | None:
        """The opponent's side once the turn has passed to them, whatever I did before (worked
        out once), where the terms follow it, else None: they draw, gain gems and refresh
        (equipped gems back to the zone), their `turn/start` skills that add power resolve (a
        condition on their deck's being empty read after the draw), and all theirs block and
        threaten, none is exposed. Returns their threats, their hand's defence and their value
        but for the danger my Beings put them in."""
        if self.passing_known:
            return self.passing
        self.passing_known = True
        m = self.m
        spec = m.spec
        other = 1 - self.seat
        if m.turn + 1 > spec.turn_limit:
            return None  # the game ends
        deck = m.decks[other]
        drawn = min(len(deck), spec.draw_per_turn)
        their_mods = self.their_turn_start(len(deck) == drawn)
        if their_mods is None:
            return None
        gained = min(m.gem_decks[other], spec.gems_per_turn)
        gems = m.gems_active[other] + m.gems_rested[other] + gained
        theirs_threats: list[Placed] = []
        worths = 0.0
        at = -1
        for being in m.field[other]:
            at += 1
            if being is not None:
                gems += being.equipped
                mods = _mods_kept(being, other) if being.mods else 0
                if their_mods:
                    mods += their_mods.get(at, 0)
                p = max(0, being.printed + mods)
                worth = BEING_PP * p + SLOT_PP
                worths += worth
                theirs_threats.append(
                    (at, (worth, p, being.printed, mods, spec.type_of[being.stack[-1]]))
                )
        if (len(deck) - drawn < 1 or gems < spec.gem_draw_cost) and not theirs_threats:
            # their turn might end at once: no bound (a Being of theirs may attack: an option)
            return None
        lives = m.lives
        unseen = len(deck) + len(lives[other]) + len(m.hands[other])
        held = (len(m.hands[other]) + drawn) * m.hidden_defence[other] / unseen if unseen else 0.0
        theirs = HAND_PP * held + LIFE_PP * len(lives[other]) + GEM_PP * gems + worths
        self.passing = (theirs_threats, held, theirs)
        return self.passing

    def my_turn_end(self, loc: int, card: int) -> tuple[int, dict[int, int]] | None:
        """What my `turn/end` skills change as the turn passes (after a play of `card` at
        `loc`, or none: -1), where the terms follow them, else None: the gems they ready and
        the power they add to their Being until my next turn (per location)."""
        m = self.m
        spec = m.spec
        triggers = spec.triggers
        readied = 0
        mine: dict[int, int] = {}
        sources = 0
        at = -1
        for being in m.field[self.seat]:
            at += 1
            top = card if at == loc else -1 if being is None else being.stack[-1]
            if top < 0 or not triggers[top][TURN_END]:
                continue
            sources += 1
            for skill in triggers[top][TURN_END]:
                if skill.optional or skill.cost or skill.conditions or skill.filter:
                    return None
                if skill.op == READY_GEMS and skill.target == ME:
                    readied += skill.n
                elif skill.op == POWER and skill.target == SELF and skill.until == UNTIL_NEXT:
                    mine[at] = mine.get(at, 0) + skill.n  # (kept: `_mods_kept`)
                else:
                    return None
        if sources > 1 and spec.trigger_order == "choose":
            return None  # I order them: a decision of mine (effects.push_simultaneous)
        return readied, mine

    def their_turn_start(self, deck_out: bool) -> dict[int, int] | None:
        """The power the opponent's `turn/start` skills add, per location of theirs, where the
        terms follow them (power to their Being or all theirs; a condition on their deck's
        being empty read: `deck_out` after their draw), else None."""
        spec = self.m.spec
        triggers = spec.triggers
        theirs: dict[int, int] = {}
        sources = 0
        side = self.m.field[1 - self.seat]
        at = -1
        for being in side:
            at += 1
            if being is None or not triggers[being.stack[-1]][TURN_START]:
                continue
            sources += 1
            for skill in triggers[being.stack[-1]][TURN_START]:
                if skill.optional or skill.cost or skill.filter or skill.op != POWER:
                    return None
                for code, value in skill.conditions:
                    if code != C_DECK_EMPTY:
                        return None
                    if deck_out != value:
                        break
                else:  # (no condition, or all hold)
                    if skill.target == SELF:
                        theirs[at] = theirs.get(at, 0) + skill.n
                    elif skill.target == ALL_OWN:
                        for mate, other in enumerate(side):
                            if other is not None:
                                theirs[mate] = theirs.get(mate, 0) + skill.n
                    else:
                        return None
        if sources > 1 and spec.trigger_order == "choose":
            return None  # they order them: a decision of theirs before their first action
        return theirs

    def gem_draw(self) -> float | None:
        """Draw the deck's top card for gems: the hand gains its defence, and the best evolution
        it may bring (against the other evolutions at their most)."""
        m = self.m
        spec = m.spec
        seat = self.seat
        deck = m.decks[seat]
        gems = m.gems_active[seat] - spec.gem_draw_cost
        if len(deck) < 2 or m.actions + 1 >= spec.max_actions_per_turn:
            return None  # the deck runs out (no more gem draws), or the turn ends at once
        if not self.more_to_do(gems, -1, -1, False):
            return None
        card = deck[-1]
        best = self.evolution_after(gems, -1, -1, -1, card)
        value, _, _, blockers, defence = self.sides
        held = m.hand_defence[seat] + spec.discard_gain[card] + EVOLVE_PP * best
        mine = value[seat] + HAND_PP * (held - defence[seat])
        return mine - self.mine(self.needs, blockers[seat], held) - self.theirs

    def mine(self, needs: list[Need], blockers: int, held: float) -> float:
        """My exposure and danger terms, as `_penalty` gives them."""
        total = EXPOSED * _losses(needs, held) if needs else 0.0
        if self.at_zero:
            total += _shortfall(self.unblocked(blockers), held)
        return total

    def theirs_once(self, loc: int, rests: int = -1) -> float:
        """The opponent's value once my Being at `loc` threatens no more (and, once it has
        attacked, its skill rested their active Being at `rests`; -1: none)."""
        if rests >= 0:
            m = self.m
            value, _, threats, _, defence = self.sides
            other = 1 - self.seat
            exposed_theirs, blocking = self.their_field(rests)
            return value[other] - _penalty(
                m.spec, exposed_theirs, [placed for placed in threats[self.seat] if placed[0] != loc],
                blocking, defence[other], not m.lives[other],
            )  # fmt: skip
        theirs = self.theirs_without.get(loc)
        if theirs is None:
            value, exposed, threats, blockers, defence = self.sides
            mine = threats[self.seat]
            if loc in self.threat_at:
                m = self.m
                other = 1 - self.seat
                theirs = value[other] - _penalty(
                    m.spec, exposed[other], [placed for placed in mine if placed[0] != loc],
                    blockers[other], defence[other], not m.lives[other],
                )  # fmt: skip
            else:
                theirs = self.theirs
            self.theirs_without[loc] = theirs
        return theirs

    def play(self, card: int, loc: int) -> float | None:
        """Play `card` at `loc`: the new Being's worth, the replaced one's loss and the threats
        that change are exact; the hand loses the card's defence and keeps at most its best
        evolution, or gains the new Being's."""
        known = self.cards.get(card)
        if known is None:
            known = self.cards[card] = self.card(card)
        if known is FALLS_THROUGH:
            return None
        held, mine, gems, more = known
        place = self.places.get(loc)
        if place is None:
            place = self.places[loc] = self.place(loc)
        adjust, needs, blockers, theirs = place
        spec = self.m.spec
        if self.haste:  # the new Being may attack at once: one more threat
            theirs = self.hasty_of(loc, spec.power[card], spec.type_of[card])
        # the defence after the play: `card` counted it at its most (`loose` reads that)
        drawn = self.drawn.get(card, -1)
        best = self.evolution_after(gems, card, loc, card, drawn)
        exact = self.m.hand_defence[self.seat] - spec.discard_gain[card] + EVOLVE_PP * best
        if drawn >= 0:
            exact += spec.discard_gain[drawn]
        mine += HAND_PP * (exact - held)
        held = exact
        total = EXPOSED * _losses(needs, held) if needs else 0.0
        if self.at_zero:
            total += _shortfall(self.unblocked(blockers), held)
        value = mine + adjust - total - theirs
        if more or self.more_to_do(gems, card, loc, True):
            return value
        # the turn may end at once (its lone option is taken: ask_main), or not: the more of
        # the two values is a bound, not the value (`loose` bounds such plays so)
        passed = self.turn_passes(mine + adjust, held, blockers, loc, card)
        return None if passed is None else max(value, passed)

    def hasty(self, printed: int, kind: int, loc: int) -> float:
        """The opponent's value once a card of power `printed` and type `kind` played at `loc`
        threatens at once (0 life, haste): each of their rested Beings needs the most defence
        this threat or another asks."""
        known = self.without.get(loc)
        if known is None:
            known = self.without[loc] = self.threats_without(loc)
        mine, worst, in_reach = known
        m = self.m
        other = 1 - self.seat
        at_zero = not m.lives[other]
        if not in_reach and not at_zero:
            return self.theirs_once(loc)  # it threatens nothing the terms read
        spec = m.spec
        p = max(0, printed)
        threat = (loc, (BEING_PP * p + SLOT_PP, p, printed, 0, kind))
        value, exposed, _, blockers, defence = self.sides
        if in_reach:
            worst = worst.copy()
            for at, _, need in _needs(spec, in_reach, [threat]):
                if need > worst.get(at, 0):
                    worst[at] = need
        # in their order, as `_exposure` lists them
        merged = [(at, terms[1], worst[at]) for at, terms in exposed[other] if at in worst]
        theirs = value[other] - EXPOSED * _losses(merged, defence[other])
        if at_zero:
            theirs -= _danger(spec, [*mine, threat], blockers[other], defence[other])
        return theirs

    def threats_without(self, loc: int) -> tuple[list[Placed], dict[int, int], list[Placed]]:
        """My threats but the Being's at `loc`, the most defence each of their rested Beings
        needs against them, and their rested Beings a Being at `loc` reaches."""
        m = self.m
        spec = m.spec
        _, exposed, threats, _, _ = self.sides
        theirs = exposed[1 - self.seat]
        mine = [placed for placed in threats[self.seat] if placed[0] != loc]
        worst = {at: need for at, _, need in _needs(spec, theirs, mine)} if mine else {}
        reach = spec.reach[loc]
        return mine, worst, [placed for placed in theirs if placed[0] in reach]

    def card(self, card: int) -> tuple[float, float, int, bool]:
        """A play of `card` anywhere: the most defence the hand may hold after it, my assets with
        the new Being (pp), the gems left, and whether more surely follows wherever it goes
        (`more_to_do`); FALLS_THROUGH if no bound holds for it. Of play skills, one that gains
        me gems (no condition, no choice) is counted: its gems join the zone; and one that draws
        me a card (no choice; a condition on the hand's size read here): the deck's top joins
        the hand (`drawn`), its defence counted and, at most, its power as an evolution."""
        m = self.m
        spec = m.spec
        seat = self.seat
        if m.actions + 1 >= spec.max_actions_per_turn:
            return FALLS_THROUGH  # the turn ends at once
        gain = draw = None
        for skill in spec.triggers[card][PLAY]:
            if _not_on_play(skill) or (skill.op == REVIVE and self.revives_nothing(skill)):
                continue  # it does not resolve, or changes nothing
            if gain is not None or draw is not None or skill.target != ME or skill.optional:
                return FALLS_THROUGH  # a skill may resolve that the terms do not follow
            if skill.op == GAIN_GEMS and not skill.conditions:
                gain = skill
            elif skill.op == DRAW and skill.n == 1 and _on_hand_size(skill):
                # the condition is read as the skill resolves: the card played has left the hand
                if _hand_allows(skill, len(m.hands[seat]) - 1):
                    draw = skill
            else:
                return FALLS_THROUGH
        value, _, _, _, defence = self.sides
        gems = m.gems_active[seat] - spec.cost[card]
        gained = 0
        if gain is not None:
            gained = min(m.gem_decks[seat], gain.n)
            if gain.active:
                gems += gained
                if gems > m.gems_active[seat]:
                    return FALLS_THROUGH  # evolutions in play may become affordable
        # no evolution of a Being already in play gets cheaper or closer; the new one's may come
        held = self.held_without(card, gems)
        if draw is not None:
            deck = m.decks[seat]
            if len(deck) < 2:
                return FALLS_THROUGH  # the deck runs out: no more gem draws
            drawn = self.drawn[card] = deck[-1]
            held += spec.discard_gain[drawn] + EVOLVE_PP * max(0, spec.power[drawn])
        worth = BEING_PP * max(0, spec.power[card]) + SLOT_PP + GEM_PP * gained
        mine = value[seat] + HAND_PP * (held - defence[seat]) + worth
        return held, mine, gems, self.more_to_do(gems, card, None, True)

    def revives_nothing(self, skill: Skill) -> bool:
        """A play's revive skill (no condition) surely finds no card to revive or nowhere to put
        it, wherever the card is played (effects: REVIVE): no location would be left empty, or
        neither my Abyss nor a stack a play may replace holds a card of its filter."""
        if skill.conditions:
            return False
        m = self.m
        field = m.field[self.seat]
        if None not in field:
            return True
        spec = m.spec
        flt = skill.filter
        for card in m.abysses[self.seat]:
            if card_matches(spec, flt, card):
                return False
        for being in field:
            if being is not None:
                for card in being.stack:
                    if card_matches(spec, flt, card):
                        return False
        return True

    def place(self, loc: int) -> tuple[float, list[Need], int, float]:
        """A play at `loc`: what my assets lose with the Being replaced there (pp), my exposed
        Beings' needs and my blockers after, and the opponent's value."""
        m = self.m
        blockers = self.sides[3][self.seat] + 1
        old = m.field[self.seat][loc]
        if old is None:
            known = (0.0, self.needs, blockers, self.theirs)
        else:  # replaced: its equipped gems go back to the gem zone
            adjust = GEM_PP * old.equipped - (old.terms or being_terms(m.spec, old))[0]
            if old.rested:
                known = (adjust, [n for n in self.needs if n[0] != loc], blockers, self.theirs)
            else:
                known = (adjust, self.needs, blockers - 1, self.theirs_once(loc))
        return known

    def attacker_at(self, loc: int) -> Attacking:
        """`attacking(loc)`, worked out once per location for all its targets."""
        known = self.attackers_known.get(loc)
        if known is None:
            known = self.attackers_known[loc] = self.attacking(loc)
        return known

    def attacking(self, loc: int) -> Attacking:
        """The Being at `loc` attacks, whatever its target: the Being (None if an attack skill
        may resolve that the terms do not follow: no bound), my value once it rests (pp),
        whether the opponent has a Being to block it, the power its attack skills may add to it
        until the attack ends (their conditions taken as met: a bound), and whether it has a
        skill that acts on the defending Being (then only an attack on life is bounded: there
        is none as its skills resolve, declare_attack)."""
        m = self.m
        spec = m.spec
        seat = self.seat
        attacker = m.field[seat][loc]
        assert attacker is not None  # main_options offers only occupied locations
        bonus = 0
        weaken: int | None = 0
        at_defender = False
        rests = -1
        side = m.field[1 - seat]
        for skill in spec.triggers[attacker.stack[-1]][ATTACK]:
            if skill.optional or skill.cost:
                return NO_BOUND
            if (
                skill.op == REST
                and skill.target == ACROSS
                and not skill.conditions
                and not skill.filter
                and not at_defender
            ):
                across = side[loc]  # (effects._chosen_targets)
                if across is not None and not across.rested:
                    rests = loc
                continue
            if skill.target == DEFENDER and skill.op not in PLAYER_OPS and skill.op != REVIVE:
                if rests >= 0:
                    return NO_BOUND  # (no card has both: not worked out together)
                at_defender = True  # (effects._chosen_targets: no defending Being, no target)
                if (
                    weaken is not None
                    and skill.op == POWER
                    and skill.until == UNTIL_ATTACK
                    and not skill.conditions
                ):
                    weaken += skill.n
                else:
                    weaken = None
                continue
            if skill.op != POWER or skill.target != SELF or skill.until != UNTIL_ATTACK:
                return NO_BOUND
            bonus += max(0, skill.n)  # less power: a lower value (a bound still)
        terms = attacker.terms or being_terms(spec, attacker)
        value, _, _, blockers, defence = self.sides
        assets = value[seat]
        if bonus:  # more power: more worth, less exposure, more lost by the defender
            p = max(0, terms[2] + terms[3] + bonus)
            worth = BEING_PP * p + SLOT_PP + GEM_PP * attacker.equipped
            assets += worth - terms[0]
            terms = (worth, p, terms[2], terms[3] + bonus, terms[4])
        needs = self.needs
        if self.against:
            needs = needs + _needs(spec, [(loc, terms)], self.against)
        mine = assets - self.mine(needs, blockers[seat] - 1, defence[seat])
        block = False
        for at in spec.blockers[loc]:
            being = side[at]
            if being is not None and not being.rested and at != rests:
                block = True
        return Attacking(attacker, mine, block, bonus, weaken, at_defender, terms, assets, rests)

    def attack_loosely(self, index: int, loc: int, target: int) -> float | None:
        """`attack`'s bound, or one above it where the attack is scored under way at a Being
        (option `index`, then tightened by `tight`): the defender loses at most that Being."""
        m = self.m
        attacker, mine, block, bonus, _, at_defender, _, _, rests = self.attacker_at(loc)
        if attacker is None:
            return None  # an attack skill resolves
        if bonus or (at_defender and target != LIFE):
            self.skilled.add(index)  # a bound, not the value
        if target == LIFE or at_defender or not (block or m.hands[1 - self.seat]):
            return self.attack(loc, target)
        aimed = m.field[1 - self.seat][target]
        assert aimed is not None  # main_options offers only occupied targets
        self.pending[index] = True
        theirs = self.theirs_once(loc, rests)
        return mine - theirs + BEING_PP * power(m.spec, aimed) + SLOT_PP

    def attack(self, loc: int, target: int) -> float | None:
        """The Being at `loc` attacks `target` (a location or LIFE; no attack skill): exact. It
        rests (exposed, no longer blocking or threatening); the attack is scored as `evaluate`
        scores it under way, at the opponent's block or defend step; a life attack that neither
        can meet takes the life card at once and the turn goes on."""
        m = self.m
        known = self.attacker_at(loc)
        attacker, mine, block, bonus, weaken, at_defender, _, _, rests = known
        if attacker is None or (at_defender and target != LIFE and weaken is None):
            return None  # an attack skill resolves
        spec = m.spec
        seat = self.seat
        value, _, threats, _, defence = self.sides
        other = 1 - seat
        lives = m.lives
        side = m.field[other]
        if block or target != LIFE or not lives[other]:  # scored at the block or defend step
            if not block and not m.hands[other]:  # a defend step with nothing to defend with
                return math.inf if target == LIFE else None  # it resolves at once: won
            if at_defender and target != LIFE:
                return self.weakened(loc, target, known)
            if target != LIFE:  # as _attack_outcome scores it, the skills' power at its most
                aimed = side[target]
                assert aimed is not None  # main_options offers only occupied targets
                need, own = _stakes(spec, attacker, aimed)
                lost = _being_loss(need + bonus, own, defence[other])
            else:
                attack = Attack(seat, loc, attacker.uid, attacker.stack[-1], LIFE, -1)
                attack.counter = -bonus  # the need at its most with the skills' power
                lost = _attack_outcome(m, attack, defence)
                if lost >= WIN:
                    return math.inf
            theirs = self.theirs_once(loc, rests)
            return mine - (theirs - lost)
        # the life card joins the opponent's hand at once; the turn goes on
        if m.actions + 1 >= spec.max_actions_per_turn or not self.more_to_do(
            m.gems_active[seat], -1, loc, False
        ):
            return None
        unseen = len(m.decks[other]) + len(lives[other]) + len(m.hands[other])
        held = (len(m.hands[other]) + 1) * m.hidden_defence[other] / unseen
        theirs = value[other] + HAND_PP * (held - defence[other]) - LIFE_PP
        my_threats = [placed for placed in threats[seat] if placed[0] != loc]
        exposed_theirs, blocking = self.their_field(rests)
        theirs -= _penalty(spec, exposed_theirs, my_threats, blocking, held, len(lives[other]) == 1)
        return mine - theirs

    def their_field(self, rests: int) -> tuple[list[Placed], int]:
        """The opponent's exposed Beings and blockers once their active Being at `rests` (-1:
        none) rests: it joins the exposed, in location order as `_sides` lists them."""
        _, exposed, _, blockers, _ = self.sides
        other = 1 - self.seat
        if rests < 0:
            return exposed[other], blockers[other]
        being = self.m.field[other][rests]
        assert being is not None  # (`attacking` names an active Being)
        terms = being.terms or being_terms(self.m.spec, being)
        placed = exposed[other][:]
        insort(placed, (rests, terms), key=itemgetter(0))
        return placed, blockers[other] - 1

    def weakened(self, loc: int, target: int, known: Attacking) -> float:
        """`attack` at the Being at `target`, whose attack skills add `known.weaken` power to
        it until the attack ends: its terms change as the opponent's Being, their threat on
        mine and their exposure to mine, and as the attack's defender. A bound (the sums run
        in another order than `evaluate`'s), not the value."""
        m = self.m
        spec = m.spec
        seat = self.seat
        other = 1 - seat
        value, exposed, threats, blockers, defence = self.sides
        aimed = m.field[other][target]
        assert aimed is not None  # main_options offers only occupied targets
        old: Terms = aimed.terms or being_terms(spec, aimed)
        mods = old[3] + known.weaken  # type: ignore[operator]
        p = max(0, old[2] + mods)
        new = (BEING_PP * p + SLOT_PP + GEM_PP * aimed.equipped, p, old[2], mods, old[4])
        against = [(at, new if at == target else terms) for at, terms in threats[other]]
        needs = _needs(spec, [*exposed[seat], (loc, known.terms)], against)
        mine = known.assets - (EXPOSED * _losses(needs, defence[seat]) if needs else 0.0)
        if self.at_zero:
            mine -= _shortfall(_unblocked(spec, against, blockers[seat] - 1), defence[seat])
        theirs = value[other] + new[0] - old[0]
        theirs -= _penalty(
            spec,
            [(at, new if at == target else terms) for at, terms in exposed[other]],
            [placed for placed in threats[seat] if placed[0] != loc],
            blockers[other],
            defence[other],
            not m.lives[other],
        )
        attacker = known.attacker
        assert attacker is not None  # (`attack` asks only of a bounded one)
        # as _attack_outcome scores it: the defender's power is `p` now, the attacker's at most
        need = attack_power(spec, attacker, aimed) + spec.defense_margin - p + known.bonus
        return mine - (theirs - _being_loss(need, p, defence[other]))


NO_BOUND = Attacking(None, 0.0, False, 0, 0, False, (0.0, 0, 0, 0, 0), 0.0, -1)


def _on_hand_size(skill: Skill) -> bool:
    """The skill's conditions, if any, read only the size of its controller's hand."""
    return all(code == C_HAND for code, _ in skill.conditions)


def _hand_allows(skill: Skill, size: int) -> bool:
    """Those conditions hold for a hand of `size` cards (effects.conditions_hold)."""
    return all(size <= value for _, value in skill.conditions)


def _not_on_play(skill: Skill) -> bool:
    """A play skill whose conditions cannot hold when its card is played (not evolved): one of
    evolutions only, or of a stack of two cards or more (a new Being's holds one; nothing
    evolves it before its play skills resolve)."""
    for code, value in skill.conditions:
        if (code == C_VIA and value != VIA_SUMMON) or (code == C_STACK and value > 1):
            return True
    return False


def _mods_kept(being: Being, starting: int) -> int:
    """The sum of a Being's mods once the turn has passed to `starting`: those lasting the turn
    expire, and those of `starting`'s effects lasting to its next turn (rules.expire_mods)."""
    total = 0
    for mod in being.mods:
        if mod[1] != UNTIL_TURN and (mod[1] != UNTIL_NEXT or mod[2] != starting):
            total += mod[0]
    return total


def defend_bounds(m: Match, seat: int) -> tuple[list[float | None], list[float | None]]:
    """For `seat`'s defend step: per option, an upper bound on `evaluate(seat)` once applied,
    or None. A discard (while another card stays in hand, so the step goes on) adds its defence
    to the counter and takes it from the hand, which keeps at most its best evolution: the
    attack's outcome, exposure and danger are worked out at that most. Where the hand has no
    affordable evolution, that is the value but for the slack: the differences (pp) as
    `option_bounds` gives them. `done` on a life attack at 0 life that the counter does not
    meet loses the game: -1 exactly."""
    options = m.options
    bounds: list[float | None] = [None] * len(options)
    exact: list[float | None] = [None] * len(options)
    a = m.attack
    if a is None:
        return bounds, exact
    if options[-1][0] == "done":
        if _lost_when_done(m, a, seat):
            bounds[-1] = -1.0
            exact[-1] = -math.inf
        elif (done := _done(m, a, seat)) is not None:
            exact[-1] = done
            bounds[-1] = math.tanh((done + SLACK) / SCALE)
    hand = m.hands[seat]
    if len(hand) < 2:
        return bounds, exact
    spec = m.spec
    value, exposed, threats, blockers, defence = _sides(m, seat)
    other = 1 - seat
    lives = m.lives
    theirs = value[other] - _penalty(
        spec, exposed[other], threats[seat], blockers[other], defence[other], not lives[other]
    )
    kept = defence[seat]  # the hand's defence with its best evolution (`_sides`)
    evolves = kept != m.hand_defence[seat]  # it has an affordable one
    gain = spec.discard_gain
    # my exposure and danger (`_penalty`) change with the hand's defence alone: what they read
    # of the Beings is worked out once
    against = threats[other]
    needs = _needs(spec, exposed[seat], against) if against and exposed[seat] else None
    at_zero = bool(against) and not lives[seat]
    unblocked = _unblocked(spec, against, blockers[seat]) if at_zero else 0
    attack = a.copy()  # its counter raised by each discard in turn
    # a Being defending: the need before the counter and its power, as _attack_outcome reads them
    stakes = _defending(m, a)
    by_gain: dict[int, tuple[float, float]] = {}  # defence discarded -> (bound, difference)
    for index, option in enumerate(options):
        if option[0] != "discard":
            continue
        g = gain[option[1]]
        known = by_gain.get(g)
        if known is None:
            held = kept - g
            if stakes is not None:
                lost = _being_loss(stakes[0] - a.counter - g, stakes[1], held)
            else:
                attack.counter = a.counter + g
                lost = _attack_outcome(
                    m, attack, [held, defence[other]] if seat == 0 else [defence[other], held]
                )
            if lost >= WIN:
                pp = -math.inf  # the game is lost whichever card goes
            else:
                mine = value[seat] + HAND_PP * (held - defence[seat]) - lost
                penalty = EXPOSED * _losses(needs, held) if needs is not None else 0.0
                if at_zero:
                    penalty += _shortfall(unblocked, held) if unblocked else 0.0
                mine -= penalty
                pp = mine - theirs
            known = by_gain[g] = (math.tanh((pp + SLACK) / SCALE), pp)
        bounds[index] = known[0]
        if not evolves:
            exact[index] = known[1]
    return bounds, exact


def _defending(m: Match, a: Attack) -> tuple[int, int] | None:
    """The attack under way at a Being, both still in play: the defence it needs before the
    counter, and the Being's power (`_attack_outcome`); else None."""
    if a.defending < 0:
        return None
    attacker = m.field[a.seat][a.loc]
    being = m.field[1 - a.seat][a.defending]
    if attacker is None or attacker.uid != a.uid or being is None or being.uid != a.defending_uid:
        return None
    return _stakes(m.spec, attacker, being)


def defend_best(
    bounds: Sequence[float | None], exact: Sequence[float | None], done: float | None = None
) -> tuple[int, float] | None:
    """For a defend step whose `defend_bounds` are these: an option surely best and `evaluate`
    for the defender once it is applied: of the greatest value known, the differences known
    exactly and `done`'s value where it was applied (`done`), whose value no other option's
    bound is above; else None. After it, the step goes on (a discard with cards left) or the
    attacker decides, or the game is over: never another kind of decision of the defender's
    (a search bot's chain of follow-ups ends with it; the caller checks it of `done`)."""
    best = -1
    top = -math.inf
    for index, pp in enumerate(exact):
        if pp is not None and (best < 0 or pp > top):
            best, top = index, pp
    value = known_value(top) if best >= 0 else -math.inf
    last = len(exact) - 1
    if done is not None and (best < 0 or done > value):
        best, value = last, done
    if best < 0:
        return None
    for index, bound in enumerate(bounds):
        if exact[index] is not None or (index == last and done is not None):
            continue  # its value is known
        if bound is None or bound > value:
            return None  # it may be better
    return best, value


def _done(m: Match, a: Attack, seat: int) -> float | None:
    """The difference `evaluate` squashes once `seat` ends its defend step now (R28-R31), where
    the attacker's main phase then surely goes on and no mod lasts only the attack (else None):
    as it is where the defence holds (or the attack fizzles); where it fails, the defending
    Being defeated (its stack to the Abyss, its gems to the zone rested: worked out on a copy
    without it and without the attack)."""
    spec = m.spec
    attacker = m.field[a.seat][a.loc]
    defeated = None
    if attacker is not None and attacker.uid == a.uid:
        if a.defending >= 0:
            being = m.field[seat][a.defending]
            if (
                being is not None
                and being.uid == a.defending_uid
                and _stakes(spec, attacker, being)[0] - a.counter > 0
            ):
                defeated = being
        elif a.target != LIFE or m.lives[seat]:
            return None  # not a defend step the flow offers: no bound
        elif attack_power(spec, attacker, None) + spec.defense_margin - a.counter > 0:
            return None  # the game is lost (`_lost_when_done`)
    if not _goes_on(m, a):
        return None
    if defeated is None:
        return difference(m, seat)
    after = m.clone()
    after.field[seat][a.defending] = None
    after.gems_rested[seat] += defeated.equipped
    after.attack = None
    return difference(after, seat)


def _goes_on(m: Match, a: Attack) -> bool:
    """Once the attack ends, does `evaluate` read the position as it stands but for the attack's
    outcome, at the attacker's next decision? So it does where no mod lasts only the attack and
    the attacker's main phase surely offers more than ending the turn: a gem draw, an equip or
    a play."""
    spec = m.spec
    for side in m.field:
        for being in side:
            if being is not None:
                for mod in being.mods:
                    if mod[1] == UNTIL_ATTACK:
                        return False
    active = a.seat
    if m.actions >= spec.max_actions_per_turn:
        return False
    gems = m.gems_active[active]
    deck = m.decks[active]
    if deck and gems >= spec.gem_draw_cost:
        return True
    equips = gems >= 1 and (not deck or not spec.equip_requires_empty_deck)
    if equips and any(being is not None for being in m.field[active]):
        return True
    cost = spec.cost
    return any(cost[card] <= gems for card in m.hands[active])


def _lost_when_done(m: Match, a: Attack, seat: int) -> bool:
    """Does ending `seat`'s defend step now lose the game (R31: a life attack at 0 life whose
    need the counter does not meet)?"""
    if a.defending >= 0 or a.target != LIFE or m.lives[seat]:
        return False
    attacker = m.field[a.seat][a.loc]
    if attacker is None or attacker.uid != a.uid:
        return False  # it fizzles
    return attack_power(m.spec, attacker, None) + m.spec.defense_margin - a.counter > 0


def _penalty(
    spec: BeingsSpec,
    mine: list[Placed],
    against: list[Placed],
    blockers: int,
    held: float,
    at_zero: bool,
) -> float:
    """A side's exposure and danger terms (pp), as `evaluate` subtracts them."""
    if not against:
        return 0.0
    total = EXPOSED * _exposure(spec, mine, against, held) if mine else 0.0
    if at_zero:
        total += _danger(spec, against, blockers, held)
    return total


def option_twins(m: Match, seat: int) -> list[int]:
    """For `seat`'s defend step: per option, the first option leading to the same value of
    `evaluate` (its twin), else its own index. Two discards of the same defence are twins when
    neither card evolves a Being of `seat`'s: the positions differ only in which card went to
    the Abyss, which nothing reads until the step ends."""
    spec = m.spec
    evolving = set()
    for being in m.field[seat]:
        if being is not None:
            for new, _, _, _ in spec.evolutions[being.stack[-1]]:
                evolving.add(new)
    gain = spec.discard_gain
    first: dict[int, int] = {}
    twins = []
    for index, option in enumerate(m.options):
        if option[0] == "discard" and option[1] not in evolving:
            index = first.setdefault(gain[option[1]], index)
        twins.append(index)
    return twins


def unseen_mean_power(m: Match, seat: int, owner: int) -> float:
    """Mean printed power of `owner`'s cards that `seat` cannot see (deck, life, and the hand
    when `owner` is not `seat`): the decklist minus the visible cards."""
    hidden = m.decks[owner] + m.lives[owner] + (m.hands[owner] if owner != seat else [])
    if not hidden:
        return 0.0
    return sum(m.spec.power[c] for c in hidden) / len(hidden)


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
    return attack_power(m.spec, attacker, defending) + m.spec.defense_margin


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
