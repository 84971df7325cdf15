"""clans' bot hooks (spec §10): features a heuristic or search bot reads, and `evaluate`.

Every function reads only what `seat` may know: armies (face-down identities included), discard
piles, tokens, Supremacy, the Wonder Token, hand sizes, the public deck lists, the opponent's
revealed hand cards, and `seat`'s own hand. None reads the opponent's unrevealed hand or any
deck's order, so `evaluate` is the same on every `determinize(seat, ...)` copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from balance.games.clans import effects as fx
from balance.games.clans.effects import matching, military
from balance.games.clans.state import EMPTY, NOBODY, Table, is_exposed

if TYPE_CHECKING:
    from balance.games.clans.cards import ClansSpec


# -- battle ----------------------------------------------------------------------------------


def military_totals(g: Table) -> tuple[int, int]:
    """Both players' current totals without Veteran (public)."""
    return military(g, 0), military(g, 1)


def projected_veteran(g: Table, seat: int) -> int:
    """The add_military `seat`'s Veteran cards would give if the battle were now (conditions
    tested on the present board; take_wonder and other Veteran ops are not counted)."""
    spec = g.spec
    total = 0
    grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
    for slot, card in enumerate(grid):
        if card == EMPTY or not up[slot] or captor[slot] != NOBODY:
            continue
        src = (seat, slot, g.serial[seat][slot], card)
        for entry in spec.on_veteran[card]:
            if entry.op != fx.ADD_MILITARY or entry.who != fx.SELF:
                continue
            if entry.conditions and not fx.holds(g, entry.conditions, seat, src):
                continue
            total += entry.n * (len(matching(g, entry.per, seat, src)) if entry.per else 1)
    return total


def battle_margin(g: Table, seat: int) -> int:
    """`seat`'s projected total minus the opponent's (Veteran additions included)."""
    opp = 1 - seat
    return (
        military(g, seat)
        + projected_veteran(g, seat)
        - military(g, opp)
        - projected_veteran(g, opp)
    )


def passing_wins_now(g: Table, seat: int) -> bool:
    """Whether `seat` would take the Supremacy token if the battle were now."""
    margin = battle_margin(g, seat)
    return margin > 0 or (margin == 0 and g.wonder == seat)


def opponent_reach(g: Table, seat: int) -> int:
    """An upper bound of the military the opponent can add over the countdown: the cards it can
    play (its hand, at most one per turn) times the highest military among its unseen cards."""
    opp = 1 - seat
    turns = g.countdown if g.passed[seat] and g.countdown > 0 else g.spec.extra_turns_after_pass
    unseen = unseen_cards(g, seat)
    best = max((g.spec.card_military[c] for c in unseen + g.known[opp]), default=0)
    return min(len(g.hand[opp]), turns) * best


# -- the race to each win --------------------------------------------------------------------


def win_distances(g: Table, seat: int) -> dict[str, int]:
    """How far `seat` is from each way to win (0: reached). Clan wins count only if fielded."""
    spec = g.spec
    grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
    width = spec.row_spaces
    rows = [
        sum(
            1
            for s in range(r * width, r * width + width)
            if grid[s] != EMPTY and up[s] and captor[s] == NOBODY
        )
        for r in range(spec.rows)
    ]
    distances = {
        "supremacy": max(0, spec.supremacy_to_win - g.supremacy[seat]),
        "tokens": max(0, spec.token_win - g.owned[seat]),
        "faceup": max(0, spec.faceup_win - sum(rows)),
    }
    for clan in g.clans[seat]:
        win = spec.clan_win[clan]
        if win is None:
            continue
        kind, need, _ = win
        if kind == 0:
            distances[spec.clans[clan].id] = max(0, need - g.captor[1 - seat].count(seat))
        else:
            top = max(max(rows), need)
            distances[spec.clans[clan].id] = sum(top - n for n in rows)
    return distances


# -- options and threats ---------------------------------------------------------------------


def action_features(g: Table, seat: int, option: tuple) -> dict[str, int]:
    """For a D3 option: its discard cost, the military it adds now, and whether the played card
    opens Heroes (a Troop of a new clan) or Immortals (a Hero of a clan with a Troop)."""
    from balance.games.clans import rules

    spec = g.spec
    kind = option[0]
    features = {"discards": 0, "military": 0, "enables": 0}
    if kind not in (rules.PLAY, rules.SHIFT):
        return features
    card = option[1] if kind == rules.PLAY else option[2]
    level, clan = spec.card_level[card], spec.card_clan[card]
    grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
    width = spec.row_spaces
    active = [
        {
            spec.card_clan[grid[s]]
            for s in range(r * width, r * width + width)
            if grid[s] != EMPTY and up[s] and captor[s] == NOBODY
        }
        for r in range(spec.rows)
    ]
    features["military"] = spec.card_military[card] + (
        spec.immortal_military_bonus if level == 3 else 0
    )
    if kind == rules.PLAY:
        if level == 1 and active[0] and clan not in active[0]:
            features["discards"] = fx.player_rule(g, seat, rules.OFFCLAN_TROOP_COST)
        if level == 1 and clan not in active[0]:
            features["enables"] = 1
        if level == 2 and len(active) > 1 and clan not in active[1]:
            features["enables"] = 1
    else:
        slot = option[1]
        out = grid[slot]
        features["military"] -= spec.card_military[out]
        cost = spec.card_shift[out] - g.tokens[seat][slot]
        if cost > 0:
            cost = max(0, cost - fx.player_rule(g, seat, rules.SHIFT_DISCOUNT))
        features["discards"] = cost
    return features


def threat_targets(g: Table, seat: int) -> list[tuple[int, int, bool]]:
    """The opponent's exposed active cards as (military, slot, has a token), strongest first."""
    opp = 1 - seat
    spec = g.spec
    found = []
    for slot, card in enumerate(g.grid[opp]):
        if (
            card != EMPTY
            and g.face_up[opp][slot]
            and g.captor[opp][slot] == NOBODY
            and is_exposed(g, opp, slot)
        ):
            found.append((spec.card_military[card], slot, g.tokens[opp][slot] > 0))
    found.sort(reverse=True)
    return found


def unseen_cards(g: Table, seat: int) -> list[int]:
    """The opponent's cards `seat` cannot place: its deck list minus its army, discard pile and
    revealed hand cards (so its deck and unrevealed hand, in some order)."""
    opp = 1 - seat
    spec = g.spec
    left: dict[int, int] = {}
    for clan in g.clans[opp]:
        for card in spec.clan_cards[clan]:
            left[card] = left.get(card, 0) + 1
    for card in [c for c in g.grid[opp] if c != EMPTY] + g.discard[opp] + g.known[opp]:
        left[card] -= 1
    return [card for card, n in sorted(left.items()) for _ in range(n)]


def opponent_cards_left(g: Table, seat: int) -> dict[tuple[int, int], int]:
    """Unseen opponent cards per (level, clan), from the public deck list."""
    counts: dict[tuple[int, int], int] = {}
    spec = g.spec
    for card in unseen_cards(g, seat):
        key = (spec.card_level[card], spec.card_clan[card])
        counts[key] = counts.get(key, 0) + 1
    return counts


# -- the draft -------------------------------------------------------------------------------


def clan_synergy(spec: ClansSpec, a: int, b: int) -> float:
    """How much two clans' card text overlaps: the share of ops of `a` that `b` also uses."""
    ops_a, ops_b = _clan_ops(spec, a), _clan_ops(spec, b)
    return len(ops_a & ops_b) / len(ops_a) if ops_a else 0.0


def flipped_value(spec: ClansSpec, clan: int) -> int:
    """How many rule values leaving `clan` unpicked would change (its flipped modifiers)."""
    return len(spec.clans[clan].flipped)


def draft_score(spec: ClansSpec, picks: list[tuple[int, int]], seat: int, clan: int) -> float:
    """A pick's value for `seat` after `picks` ((clan, seat) so far): its rating, and its synergy
    with the clans `seat` already picked."""
    mine = [c for c, s in picks if s == seat]
    synergy = sum(clan_synergy(spec, clan, c) for c in mine) / (len(mine) or 1)
    return spec.bot_clan_ratings[clan] + 0.1 * synergy


def draft_value(g: Table, seat: int) -> float:
    """The draft so far for `seat`: its picks' scores minus the opponent's, kept small."""
    totals = [0.0, 0.0]
    for index, (clan, picker) in enumerate(g.picks):
        totals[picker] += draft_score(g.spec, g.picks[:index], picker, clan)
    rating = max(g.spec.bot_clan_ratings) or 1.0
    return max(-0.5, min(0.5, 0.1 * (totals[seat] - totals[1 - seat]) / rating))


def _clan_ops(spec: ClansSpec, clan: int) -> set[int]:
    ops = set()
    for card in set(spec.clan_cards[clan]):
        for group in (
            spec.on_play,
            spec.on_activate,
            spec.on_veteran,
            spec.ongoing_military,
            spec.ongoing_rule_mods,
        ):
            ops |= {entry.op for entry in group[card]}
    return ops


# -- all of it --------------------------------------------------------------------------------


def features(g: Table, seat: int) -> dict[str, float]:
    """The §10 features of a position for `seat`, as one flat mapping of numbers."""
    opp = 1 - seat
    mine, theirs = military(g, seat), military(g, opp)
    found = {
        "military": float(mine),
        "military_opp": float(theirs),
        "margin": float(battle_margin(g, seat)),
        "veteran": float(projected_veteran(g, seat)),
        "veteran_opp": float(projected_veteran(g, opp)),
        "countdown": float(max(g.countdown, 0)),
        "opp_passed": float(g.passed[opp]),
        "held": float(g.held[seat]),
        "owned": float(g.owned[seat]),
        "held_opp": float(g.held[opp]),
        "owned_opp": float(g.owned[opp]),
        "hand": float(len(g.hand[seat])),
        "hand_opp": float(len(g.hand[opp])),
        "wonder": 1.0 if g.wonder == seat else -1.0 if g.wonder == opp else 0.0,
        "passing_wins": float(passing_wins_now(g, seat)),
        "opp_reach": float(opponent_reach(g, seat)),
        "threats": float(len(threat_targets(g, seat))),
    }
    for name, distance in win_distances(g, seat).items():
        found[f"to_{name}"] = float(distance)
    return found


# -- evaluation ------------------------------------------------------------------------------


def evaluate(g: Table, seat: int) -> float:
    """A value in [-1, 1] for `seat` in a game not over: Supremacy first, then the battle margin
    weighed by how close the battle is, then progress to the token and face-up wins, then cards
    in hand. Reads only public information (see the module docstring)."""
    spec = g.spec
    opp = 1 - seat
    if not g.clans[0]:  # still drafting: the picks' ratings and synergy
        return draft_value(g, seat)
    score = 0.45 * (g.supremacy[seat] - g.supremacy[opp]) / spec.supremacy_to_win
    margin = battle_margin(g, seat)
    if margin == 0:
        margin_value = 0.1 if g.wonder == seat else -0.1 if g.wonder == opp else 0.0
    else:
        margin_value = margin / (abs(margin) + 6.0)
    score += 0.3 * margin_value
    mine, theirs = win_distances(g, seat), win_distances(g, opp)
    score += 0.1 * (
        _closeness(min(theirs["tokens"], theirs["faceup"])) * -1
        + _closeness(min(mine["tokens"], mine["faceup"]))
    )
    score += 0.02 * (len(g.hand[seat]) - len(g.hand[opp]))
    return max(-0.99, min(0.99, score))


def _closeness(distance: int) -> float:
    return 1.0 / (1.0 + distance)
