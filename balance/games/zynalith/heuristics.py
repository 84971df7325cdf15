"""Zynalith's bot hooks (spec section 10): features, a combat forecast and a position value.

Everything here reads only what a seat may know (4.5): public zones, the seat's own hand and the
sizes of hidden ones. `evaluate` never looks at an opponent's hand or a pile's order, so it is the
same on every determinization.
"""

from __future__ import annotations

import math
from typing import Any

from balance.games.zynalith.effects import CHARGE, LIFESTEAL, PIERCE, clockwise, defence_of
from balance.games.zynalith.state import ATK, DEF, HP, INIT, Creature, Table


def victory_points(g: Table, seat: int) -> int:
    """VP if the game ended now: printed VP in the front + bonus + Z + silver // silver_per_vp."""
    cards = g.spec.cards
    printed = 0
    for c in g.front[seat]:
        printed += cards[c.card].vp
        for a in c.attachments:
            printed += cards[a[1]].vp
    return printed + g.bonus_vp[seat] + g.zyn[seat] + g.silver[seat] // g.spec.silver_per_vp


def board_strength(g: Table, seat: int) -> float:
    """What the front is worth in combat: ATK, DEF and HP left of each creature, keywords, and
    the defence its defenders give."""
    total = 0.0
    for c in g.front[seat]:
        value = c.stat(ATK) + 0.5 * c.stat(DEF) + 0.5 * c.hp_left()
        kw = c.keywords()
        if kw & (LIFESTEAL | PIERCE | CHARGE):
            value += 1.0
        total += value if c.attack else 0.6 * value
    return total + 2.0 * defence_of(g, seat)


def evaluate(g: Table, seat: int) -> float:
    """A value in [-1, 1]: this seat's standing against its best opponent, from VP now, HP and
    board (weighted more as fewer rounds remain for VP); a finished game gives 2 * score - 1."""
    if g.over:
        return 2.0 * game_score(g, seat) - 1.0
    if not g.alive[seat]:
        return -1.0
    spec = g.spec
    left = max(0, spec.rounds - g.round) / max(1, spec.rounds)

    def standing(s: int) -> float:
        vp = victory_points(g, s)
        return vp + (0.15 + 0.2 * left) * board_strength(g, s) + 0.15 * g.hp[s]

    mine = standing(seat)
    best = max((standing(s) for s in range(g.seats) if s != seat and g.alive[s]), default=0.0)
    return math.tanh((mine - best) / 10.0)


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
