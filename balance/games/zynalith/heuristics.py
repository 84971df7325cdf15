"""Zynalith's bot hooks (spec section 10): features, a combat forecast and a position value.

Everything here reads only what a seat may know (4.5): public zones, the seat's own hand and the
sizes of hidden ones. `evaluate` never looks at an opponent's hand or a pile's order, so it is the
same on every determinization.
"""

from __future__ import annotations

import math
from typing import Any

from balance.games.zynalith.cards import TYPE_CREATURE
from balance.games.zynalith.effects import PIERCE, clockwise, defence_of
from balance.games.zynalith.state import ATK, DEF, HP, INIT, Creature, Table

# The weights of `evaluate`, in victory points (VP). A player's standing is what they would score
# now, plus what their hit points, board and hand are worth for the combats still to come.
HP_VALUE = 0.3  # a hit point: the damage race decides most games (elimination)
BOARD_VALUE = 0.12  # a point of creature strength, per combat still to come after the next
# Silver buys about one point of strength per silver: until the last round it is worth this share
# of that strength (so a creature is worth buying when its strength per silver is higher), and
# never less than what it scores at the end. A player who has passed spends it a round later.
SILVER_STRENGTH = 0.5
HAND_VALUE = 0.5  # a hand card: this share of what its strength beyond its price is worth
HIDDEN_CARD_VALUE = 1.0  # an opponent's unseen hand card, in strength beyond its price
KILL_VALUE = 12.0  # the next combat eliminates the player
SCALE = 8.0  # the standing difference (VP) that gives tanh(1)


def victory_points(g: Table, seat: int) -> int:
    """VP if the game ended now: printed VP in the front + bonus + Z + silver // silver_per_vp."""
    cards = g.spec.cards
    printed = 0
    for c in g.front[seat]:
        printed += cards[c.card].vp
        for a in c.attachments:
            printed += cards[a[1]].vp
    return printed + g.bonus_vp[seat] + g.zyn[seat] + g.silver[seat] // g.spec.silver_per_vp


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
    value = standings(g, seat)
    alive = g.alive
    best = None
    for s, v in enumerate(value):
        if s != seat and alive[s] and (best is None or v > best):
            best = v
    if best is None:
        return 1.0
    return math.tanh((value[seat] - best) / SCALE)


def standings(g: Table, seat: int) -> list[float]:
    """Each living seat's standing in VP, as `seat` sees it: printed VP in the front + bonus VP
    + Z + silver (see SILVER_STRENGTH) + HP + the front's strength for the combats after the
    next + the next combat as if the fronts fought as they stand (Z won, HP lost, creatures lost
    with their printed VP and refunded, an elimination; no triggers or counters) + the hand.

    Only what `seat` may know is read: another seat's cards drawn from a pile count as average
    cards, so the value is the same on every determinization. This runs once per option of
    every greedy decision and at every search leaf: one pass over the fronts, no calls."""
    spec = g.spec
    vps, surplus = _tables(spec)
    seats = g.seats
    alive = g.alive
    later = spec.rounds - g.round if g.round else spec.rounds - 1  # combats after the next
    board = BOARD_VALUE * later
    per_vp = 1.0 / spec.silver_per_vp
    silver_value = SILVER_STRENGTH * board
    silver_value = max(silver_value, per_vp)
    silver_late = SILVER_STRENGTH * BOARD_VALUE * (later - 1)
    silver_late = max(silver_late, per_vp)
    hand_value = HAND_VALUE * board
    by_cost = spec.open_defence_by_cost
    value = [0.0] * seats
    hp_lost = [0] * seats
    defence = [0] * seats
    attackers: list[list[tuple]] = []
    depth = 0
    for s in range(seats):
        mine: list[tuple] = []
        attackers.append(mine)
        if not alive[s]:
            continue
        total = float(g.bonus_vp[s] + g.zyn[s]) + HP_VALUE * g.hp[s]
        total += g.silver[s] * (silver_late if g.passed[s] else silver_value)
        defenders = 0
        for c in g.front[s]:
            total += vps[c.card]
            for a in c.attachments:
                total += vps[a[1]]
            # stats never go below 0: conditionals are cheaper than max() here
            init, atk, dfc, hp = c.cur
            atk = atk if atk > 0 else 0  # noqa: FURB136
            dfc = dfc if dfc > 0 else 0  # noqa: FURB136
            left = (hp if hp > 0 else 0) - c.damage  # noqa: FURB136
            power = atk + 0.5 * dfc + 0.5 * left
            if c.kw or c.kw_round:
                power += 1.0
            if c.attack:
                mine.append((atk, init, dfc, left, power, c))
            else:
                defenders += 1
                total += board * power
        if defenders:
            defence[s] = defence_of(g, s) if by_cost else defenders * spec.defence_per_defender
        if len(mine) > depth:  # noqa: PLR1730 - cheaper than max() here
            depth = len(mine)
        hand = 0.0
        for card in g.hand_open[s]:
            hand += surplus[card]
        if s == seat:
            for card in g.hand_secret[s]:
                hand += surplus[card]
        else:
            hand += HIDDEN_CARD_VALUE * len(g.hand_secret[s])
        value[s] = total + hand_value * hand
    # the next combat, line by line (a line's members: each seat's k-th attacker)
    per_win = spec.zynalith_per_line_win
    offset = spec.refund_offset
    unopposed = spec.unopposed_attack
    no_tie_winner = spec.atk_tie_no_winner
    two = seats == 2
    for k in range(depth):
        if two:  # the common case, without the general list
            first, second = attackers
            members = [first[k], second[k]] if k < len(first) and k < len(second) else None
            if members is None:
                members = [first[k] if k < len(first) else second[k]]
        else:
            members = [a[k] for a in attackers if k < len(a)]
        if len(members) == 1:
            atk, _, _, _, power, c = members[0]
            owner = c.owner
            value[owner] += board * power
            if unopposed and atk:
                pierce = (c.kw | c.kw_round) & PIERCE
                for s in range(seats):
                    if s != owner and alive[s]:
                        d = atk if pierce else atk - defence[s]
                        if d > 0:
                            hp_lost[s] += d
            continue
        top = max(m[0] for m in members)
        best = [m for m in members if m[0] == top]
        if len(best) > 1:  # ties: INIT, DEF, HP left, then the RNG
            key = max((m[1], m[2], m[3]) for m in best)
            best = [m for m in best if (m[1], m[2], m[3]) == key]
        if len(best) > 1:  # the RNG decides: a share of the Z each, no damage forecast
            for m in members:
                value[m[5].owner] += board * m[4]
            if not no_tie_winner:
                for m in best:
                    value[m[5].owner] += per_win / len(best)
            continue
        winner = best[0]
        w = winner[5]
        value[w.owner] += per_win + board * winner[4]
        pierce = (w.kw | w.kw_round) & PIERCE
        for m in members:
            if m is winner:
                continue
            x = m[5]
            d = top - m[2]
            d = d if d > 0 else 0  # noqa: FURB136
            left = m[3]
            if d < left:
                value[x.owner] += board * (m[4] - 0.5 * d)
                continue
            # dies: its printed VP go, its refund comes, the overflow hits its player
            owner = x.owner
            lost = vps[x.card]
            for a in x.attachments:
                lost += vps[a[1]]
            back = x.cost - offset
            value[owner] -= lost - (back * silver_value if back > 0 else 0.0)
            over = d - left if pierce else d - left - defence[owner]
            if over > 0:
                hp_lost[owner] += over
    for s in range(seats):
        lost = hp_lost[s]
        if lost:
            value[s] -= HP_VALUE * lost
            if lost >= g.hp[s]:
                value[s] -= KILL_VALUE
    return value


_TABLES: dict[int, tuple[Any, tuple[int, ...], tuple[float, ...]]] = {}


def _tables(spec: Any) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Per card: printed VP, and a hand card's strength beyond its price (see `card_surplus`)."""
    entry = _TABLES.get(id(spec))
    if entry is None or entry[0] is not spec or SILVER_STRENGTH != _TABLES_MADE_WITH[0]:
        entry = (
            spec,
            tuple(cd.vp for cd in spec.cards),
            tuple(card_surplus(cd) for cd in spec.cards),
        )
        _TABLES[id(spec)] = entry
        _TABLES_MADE_WITH[0] = SILVER_STRENGTH
    return entry[1], entry[2]


_TABLES_MADE_WITH = [SILVER_STRENGTH]


def card_surplus(cd: Any) -> float:
    """What a hand card adds beyond its price, in strength: a creature's printed stats less what
    its silver would buy elsewhere (SILVER_STRENGTH); an extra card 1."""
    if cd.type == TYPE_CREATURE:
        st = cd.stats
        value = st[ATK] + 0.5 * st[DEF] + 0.5 * st[HP] + (1.0 if cd.keywords else 0.0)
        return max(0.0, value - SILVER_STRENGTH * cd.silver)
    return 1.0


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
