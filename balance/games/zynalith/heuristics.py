"""Zynalith's bot hooks (spec section 10): features, a combat forecast and a position value.

Everything here reads only what a seat may know (4.5): public zones, the seat's own hand and the
sizes of hidden ones. `evaluate` never looks at an opponent's hand or a pile's order, so it is the
same on every determinization.
"""

from __future__ import annotations

import math
from typing import Any

from balance.games.zynalith.effects import LIFESTEAL, PIERCE, clockwise, defence_of
from balance.games.zynalith.spec import TYPE_CREATURE, CardDef, ZynalithSpec
from balance.games.zynalith.state import ATK, DEF, HP, INIT, Creature, Table, View

# The weights of `evaluate`, in victory points (VP). A player's standing is the VP they would
# score if the fronts as they stand fought every combat still to come (projected gains discounted
# per combat, as the other players will answer), plus what their silver, hand and hit points
# are worth.
DECAY = 0.75  # weight of what the projection sees one combat further ahead
HP_VALUE = 0.15  # a hit point left after the projected combats
SILVER_VALUE = 0.12  # a silver, per (discounted) combat still to come; at least its final VP
HAND_VALUE = 0.12  # a hand card's strength beyond its price, per (discounted) combat to come
HIDDEN_CARD_VALUE = 1.0  # an opponent's unseen hand card, in strength beyond its price
# An extra card in hand, in strength beyond its price. Kept small, and silver is worth the same
# after passing, so that taking a card for a silver or throwing one away for a redraw is no
# better than passing: greedy games take 114 decisions instead of 156, and that greedy beat the
# one with 1.0 and a passed player's silver a round later 58% (100 deals).
EXTRA_SURPLUS = 0.3
SILVER_STRENGTH = 0.8  # strength one silver buys, to price a hand card
KILL_VALUE = 15.0  # the projection eliminates the player (discounted by when)
SCALE = 8.0  # the standing difference (VP) that gives tanh(1)


def victory_points(g: Table, seat: int) -> int:
    """VP if the game ended now: printed VP in the front + bonus + Z + silver // silver_per_vp."""
    cards = g.spec.cards
    printed = 0
    for c in g.front[seat]:
        printed += cards[c.card].vp
        for a in c.attachments:
            printed += cards[a[1]].vp
    silver_per_vp: int = g.spec.silver_per_vp
    return printed + g.bonus_vp[seat] + g.zyn[seat] + g.silver[seat] // silver_per_vp


def strength(c: Creature) -> float:
    """What a creature is worth in combat: ATK, half its DEF and HP left, and its keywords."""
    value = c.stat(ATK) + 0.5 * c.stat(DEF) + 0.5 * c.hp_left()
    return value + 1.0 if c.kw | c.kw_round else value


def evaluate(g: Table, seat: int) -> float:
    """A value in [-1, 1]: `seat`'s standing against its best opponent, squashed by tanh; a
    finished game gives 2 * score - 1. See `standings`."""
    if g.over:
        return 2.0 * game_score(g, seat) - 1.0
    if not g.alive[seat]:
        return -1.0
    value, outcome = standings(g, seat)
    best = best_opponent(value, outcome, g.alive, seat)
    if best is None:
        return 1.0
    mine = value[seat]
    mine += outcome[seat]
    return math.tanh((mine - best) / SCALE)


def best_opponent(
    value: list[float], outcome: tuple[float, ...], alive: list[bool], seat: int
) -> float | None:
    """The best standing among `seat`'s living opponents (`standings`' two parts), or None."""
    best = None
    for s, v in enumerate(value):
        if s != seat and alive[s]:
            v += outcome[s]
            if best is None or v > best:
                best = v
    return best


def standings(g: Table, seat: int) -> tuple[list[float], tuple[float, ...]]:
    """Each living seat's standing in VP, as `seat` sees it, in two parts: the standing as it
    stands and what the projected combats add to it.

    The fronts as they stand (positions kept, no triggers, counters or new cards) fight every
    combat still to come (`project`): Z won, creatures lost (refunded) and damage taken, each
    combat's gains weighted DECAY times less than the one before; an elimination costs
    KILL_VALUE the same way. Then: bonus VP + Z now + printed VP of the creatures still standing
    + HP left + silver and the hand for what they will buy.

    Only what `seat` may know is read: another seat's cards drawn from a pile count as average
    cards, so the value is the same on every determinization. This runs once per option of
    every greedy decision and at every search leaf."""
    spec = g.spec
    entry = _TABLES.get(id(spec))
    if entry is None or entry[0] is not spec:
        entry = _tables(spec)
    _, vps, surplus, per_combats, projections = entry
    seats = g.seats
    alive = g.alive
    combats = spec.rounds - g.round + 1 if g.round else spec.rounds
    silver_value, hand_value = per_combats[combats]
    value = [0.0] * seats
    defence = [0] * seats
    attackers: list[tuple[View, ...]] = []  # per seat, its attackers left to right
    by_cost = spec.open_defence_by_cost
    offset = spec.refund_offset
    bonus_vp, zyn, silver, fronts = g.bonus_vp, g.zyn, g.silver, g.front
    hand_open, hand_secret = g.hand_open, g.hand_secret
    for s in range(seats):
        if not alive[s]:
            attackers.append(())
            continue
        mine: list[View] = []
        total = float(bonus_vp[s] + zyn[s])
        total += silver[s] * silver_value
        defenders = 0
        for c in fronts[s]:
            view = c.view
            if view is None:
                view = c.view = creature_view(c, vps, offset)
            total += view[5]  # its printed VP: lost again below if the projection kills it
            if c.attack:
                mine.append(view)
            else:
                defenders += 1
        attackers.append(tuple(mine))
        if defenders:
            defence[s] = defence_of(g, s) if by_cost else defenders * spec.defence_per_defender
        hand = 0.0
        for card in hand_open[s]:
            hand += surplus[card]
        if s == seat:
            for card in hand_secret[s]:
                hand += surplus[card]
        else:
            hand += HIDDEN_CARD_VALUE * len(hand_secret[s])
        value[s] = total + hand_value * hand  # OwnChanges.value sums one seat's the same way
    # the same fronts recur in many positions (every option that buys or takes nothing): the
    # projection is remembered by everything it reads
    # (one memo per spec and weights: the rule numbers and the silver value are fixed by them)
    hp = g.hp
    key = (tuple(attackers), tuple(defence), tuple(hp), tuple(alive), combats)
    outcome = projections.get(key)
    if outcome is None:
        if len(projections) >= 100_000:
            projections.clear()
        left = [h if a else 0 for h, a in zip(hp, alive)]
        gains = [0.0] * seats
        fighters = [list(map(list, a)) for a in attackers]
        project(g, fighters, defence, left, gains, combats, silver_value)
        outcome = projections[key] = tuple(
            gain + HP_VALUE * (h if h > 0 else 0)  # noqa: FURB136
            for gain, h in zip(gains, left)
        )
    return value, outcome


class OwnChanges:
    """`evaluate(seat)` of a position once only the seat's own silver, Z and hand have changed
    (the rules tell which options change nothing else it reads: rules.quiet_values), worked out
    unapplied: the projection and the other seats' standings stay, and the seat's own standing
    is summed again in `standings`' order, so the value is evaluate's to the last bit. A hint
    for greedy, which then need not apply those options (takes, redraws, passes, Z sold)."""

    __slots__ = ("best", "bonus", "hand_value", "outcome", "silver_value", "surplus", "vps")

    def __init__(self, g: Table, seat: int) -> None:
        """`g` not over, `seat` alive."""
        value, outcome = standings(g, seat)
        entry = _TABLES[id(g.spec)]  # made by `standings`
        self.surplus = entry[2]
        combats = g.spec.rounds - g.round + 1 if g.round else g.spec.rounds
        self.silver_value, self.hand_value = entry[3][combats]
        self.bonus = g.bonus_vp[seat]
        self.vps = [c.view[5] for c in g.front[seat]]  # type: ignore[index]  # set by standings
        self.outcome = outcome[seat]
        self.best = best_opponent(value, outcome, g.alive, seat)

    def value(self, silver: int, zyn: int, hand_open: list[int], hand_secret: list[int]) -> float:
        """`evaluate(seat)` with the seat's silver, Z and hand (open, secret) these."""
        best = self.best
        if best is None:
            return 1.0
        total = float(self.bonus + zyn)
        total += silver * self.silver_value
        for vp in self.vps:
            total += vp
        surplus = self.surplus
        hand = 0.0
        for card in hand_open:
            hand += surplus[card]
        for card in hand_secret:
            hand += surplus[card]
        mine = total + self.hand_value * hand
        mine += self.outcome
        return math.tanh((mine - best) / SCALE)


def project(
    g: Table,
    attackers: list[list[list[int]]],  # per seat, its attackers' views as lists
    defence: list[int],
    hp: list[int],
    value: list[float],
    combats: int,
    silver_value: float,
) -> None:
    """Fight `combats` combats with the attackers as they stand (see `standings`), adding to
    `value` and taking from `hp`. A line: each seat's k-th living attacker; the highest ATK wins
    (ties by INIT, DEF, HP left, then a shared Z and no damage), every other member takes ATK -
    DEF and dies at 0 HP left, the overflow (less the defence, unless pierce) hits its player; a
    lone member hits each opponent with its ATK. Lifesteal heals what its player is dealt."""
    spec = g.spec
    seats = g.seats
    per_win = spec.zynalith_per_line_win
    unopposed = spec.unopposed_attack
    no_tie_winner = spec.atk_tie_no_winner
    start_hp = spec.start_hp
    weight = 1.0
    living = [s for s in range(seats) if g.alive[s]]
    for _ in range(combats):
        depth = max(len(a) for a in attackers)
        if not depth:
            return
        dead = False
        for k in range(depth):
            members = [a[k] for a in attackers if k < len(a) and a[k][3] > 0]
            if not members:
                continue
            if len(members) == 1:
                m = members[0]
                if not unopposed or not m[0]:
                    continue
                owner = m[4]
                for s in living:
                    if s != owner:
                        d = m[0] if m[7] & PIERCE else m[0] - defence[s]
                        if d > 0:
                            hp[s] -= d
                            if m[7] & LIFESTEAL:
                                hp[owner] = min(start_hp, hp[owner] + d)
                            if hp[s] <= 0:
                                dead = True
                continue
            top = max(m[0] for m in members)
            best = [m for m in members if m[0] == top]
            if len(best) > 1:  # ties: INIT, DEF, HP left, then the RNG
                key = max((m[1], m[2], m[3]) for m in best)
                best = [m for m in best if (m[1], m[2], m[3]) == key]
            if len(best) > 1:  # the RNG decides: a share of the Z each, no damage foreseen
                if not no_tie_winner:
                    for m in best:
                        value[m[4]] += weight * per_win / len(best)
                continue
            w = best[0]
            value[w[4]] += weight * per_win
            for m in members:
                if m is w:
                    continue
                d = top - m[2]
                if d < m[3]:
                    if d > 0:
                        m[3] -= d
                    continue
                owner = m[4]
                over = d - m[3]
                m[3] = 0  # dies: its printed VP go, its refund comes
                value[owner] -= m[5] - (m[6] * silver_value if m[6] > 0 else 0.0)
                if w[7] & PIERCE == 0:
                    over -= defence[owner]
                if over > 0:
                    hp[owner] -= over
                    if w[7] & LIFESTEAL:
                        hp[w[4]] = min(start_hp, hp[w[4]] + over)
                    if hp[owner] <= 0:
                        dead = True
        if dead:
            out = [s for s in living if hp[s] <= 0]
            for s in out:
                value[s] -= weight * KILL_VALUE
            living = [s for s in living if hp[s] > 0]
            if len(living) <= 1:
                return
        attackers = [[m for m in a if m[3] > 0] for a in attackers]
        weight *= DECAY


def creature_view(c: Creature, vps: tuple[int, ...], offset: int) -> View:
    """(ATK, INIT, DEF, HP left, owner, printed VP with its extra cards, refund, keywords), as
    `standings` reads a creature (stats never below 0); kept on the creature until it changes."""
    init, atk, dfc, health = c.cur
    vp = vps[c.card]
    for a in c.attachments:
        vp += vps[a[1]]
    return (
        atk if atk > 0 else 0,  # noqa: FURB136
        init,
        dfc if dfc > 0 else 0,  # noqa: FURB136
        (health if health > 0 else 0) - c.damage,  # noqa: FURB136
        c.owner,
        vp,
        c.cost - offset,
        c.kw | c.kw_round,
    )


# (spec, per card printed VP, per card `card_surplus`, per combats to come (silver value, hand
# value), the memo of projections)
Tables = tuple[
    ZynalithSpec,
    tuple[int, ...],
    tuple[float, ...],
    tuple[tuple[float, float], ...],
    dict[tuple[Any, ...], tuple[float, ...]],
]
_TABLES: dict[int, Tables] = {}


def _tables(spec: ZynalithSpec) -> Tables:
    """(spec, per card printed VP, per card `card_surplus`, per number of combats to come the
    value of a silver and of a hand card's surplus, the memo of
    projections), made once per spec and weights."""
    per_vp = 1.0 / spec.silver_per_vp
    per_combats = []
    for combats in range(spec.rounds + 2):
        horizon = (1.0 - DECAY**combats) / (1.0 - DECAY)  # discounted combats to come
        per_combats.append(
            (
                max(per_vp, SILVER_VALUE * horizon),
                HAND_VALUE * horizon,
            )
        )
    entry: Tables = (
        spec,
        tuple(cd.vp for cd in spec.cards),
        tuple(card_surplus(cd) for cd in spec.cards),
        tuple(per_combats),
        {},
    )
    if len(_TABLES) >= 16:  # specs made and dropped (tests, sweeps): keep the memo small
        _TABLES.clear()
    _TABLES[id(spec)] = entry
    return entry


def card_surplus(cd: CardDef) -> float:
    """What a hand card adds beyond its price, in strength: a creature's printed stats less what
    its silver would buy elsewhere (SILVER_STRENGTH); an extra card 1."""
    if cd.type == TYPE_CREATURE:
        st = cd.stats
        value = st[ATK] + 0.5 * st[DEF] + 0.5 * st[HP] + (1.0 if cd.keywords else 0.0)
        return max(0.0, value - SILVER_STRENGTH * cd.silver)
    return EXTRA_SURPLUS


def game_score(g: Table, seat: int) -> float:
    if seat in g.winners:
        return 1.0 / len(g.winners)
    return 0.0


def features(g: Table, seat: int) -> dict[str, Any]:
    """The section-10 features of `seat`'s position (for bots and analysis, not the hot loop)."""
    spec = g.spec
    cards = spec.cards
    silver = g.silver[seat]
    market = [c for row in g.market for c in row]
    affordable = [
        c for c in market if cards[c].silver <= silver and cards[c].zynalith <= g.zyn[seat]
    ]
    hand = g.hand_open[seat] + g.hand_secret[seat]
    return {
        "hp": g.hp[seat],
        "silver": silver,
        "zynalith": g.zyn[seat],
        "vp_now": victory_points(g, seat),
        "free_slots": max(0, g.slots - len(g.front[seat])),
        "defence": defence_of(g, seat),
        "attackers": [sum(1 for c in g.front[s] if c.attack) for s in range(g.seats)],
        "market_value_per_silver": sum(
            _creature_value(cards[c].stats) / max(1, cards[c].silver)
            for c in market
            if cards[c].type == 0
        ),
        "affordable": len(affordable),
        "hand": len(hand),
        "hand_sizes": [len(g.hand_open[s]) + len(g.hand_secret[s]) for s in range(g.seats)],
        "passed": list(g.passed),
        "rounds_left": spec.rounds - g.round,
        "pile_sizes": [len(g.piles[p]) + len(g.discards[p]) for p in (0, 1)],
    }


def _creature_value(stats: tuple[int, ...]) -> float:
    return stats[ATK] + 0.5 * stats[DEF] + 0.5 * stats[HP]


def combat_preview(g: Table) -> list[dict[str, Any]]:
    """A deterministic forecast of the current lines without triggers or counters: for each line
    its members, the winner (or the tied members when the RNG would decide: a split), the damage
    to each loser, deaths, overflow to players, and the Z gained."""
    attackers = [[c for c in g.front[s] if c.attack] for s in range(g.seats)]
    order = clockwise(g, g.start_player)
    depth = max((len(attackers[s]) for s in order), default=0)
    preview = []
    for k in range(depth):
        members = [attackers[s][k] for s in order if k < len(attackers[s])]
        preview.append(_preview_line(g, members))
    return preview


def _preview_line(g: Table, members: list[Creature]) -> dict[str, Any]:
    if len(members) == 1:
        c = members[0]
        damage = {
            s: max(0, c.stat(ATK) - (0 if c.keywords() & PIERCE else defence_of(g, s)))
            for s in clockwise(g, c.owner)
            if s != c.owner
        }
        return {"members": [c.uid], "unopposed": True, "player_damage": damage, "winner": None}
    top = max(c.stat(ATK) for c in members)
    best = [c for c in members if c.stat(ATK) == top]
    if len(best) > 1:
        key = max((c.stat(INIT), c.stat(DEF), c.hp_left()) for c in best)
        best = [c for c in best if (c.stat(INIT), c.stat(DEF), c.hp_left()) == key]
    outcome: dict[str, Any] = {"members": [c.uid for c in members], "unopposed": False}
    if len(best) > 1:
        outcome.update(winner=None, split=[c.uid for c in best])
        return outcome
    winner = best[0]
    overflow: dict[int, int]  # seat -> damage passed on to the player
    hits, deaths, overflow = {}, [], {}
    for x in members:
        if x is winner:
            continue
        d = max(0, top - x.stat(DEF))
        hits[x.uid] = d
        if d >= x.hp_left():
            deaths.append(x.uid)
            extra = d - x.hp_left()
            if extra > 0:
                reduced = (
                    extra if winner.keywords() & PIERCE else max(0, extra - defence_of(g, x.owner))
                )
                overflow[x.owner] = overflow.get(x.owner, 0) + reduced
    outcome.update(
        winner=winner.uid,
        damage=hits,
        deaths=deaths,
        player_damage=overflow,
        zynalith={winner.owner: g.spec.zynalith_per_line_win},
    )
    return outcome
