"""clans' bot hooks (spec §10): features a heuristic or search bot reads, and `evaluate`.

Every function reads only what `seat` may know: armies (face-down identities included), discard
piles, tokens, Supremacy, the Wonder Token, hand sizes, the public deck lists, the opponent's
revealed hand cards, and `seat`'s own hand. None reads the opponent's unrevealed hand or any
deck's order, so `evaluate` is the same on every `determinize(seat, ...)` copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import exp
from typing import TYPE_CHECKING

from balance.games.clans import effects as fx
from balance.games.clans.effects import military
from balance.games.clans.spec import SELF
from balance.games.clans.state import (
    ACTIVE_N,
    BATTLE,
    CAPTIVES,
    CLAN_N,
    EMPTY,
    END_TURN,
    HERO_OPEN,
    IMMORTAL_OPEN,
    NOBODY,
    POWER,
    ROW_N,
    SONG,
    SPECIALS,
    TROOP_FREE,
    Table,
    is_exposed,
)

if TYPE_CHECKING:
    from balance.games.clans.spec import ClansSpec


# -- battle ----------------------------------------------------------------------------------


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
            if entry.op != fx.ADD_MILITARY or entry.who != SELF:
                continue
            if entry.conditions and not fx.holds(g, entry.conditions, seat, src):
                continue
            total += entry.n * (fx.count_matching(g, entry.per, seat, src) if entry.per else 1)
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
    best = max((g.spec.card_military[c] for c in [*unseen, *g.known[opp]]), default=0)
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
    for card in [*(c for c in g.grid[opp] if c != EMPTY), *g.discard[opp], *g.known[opp]]:
        left[card] -= 1
    return [card for card, n in sorted(left.items()) for _ in range(n)]


# -- the draft -------------------------------------------------------------------------------


def clan_synergy(spec: ClansSpec, a: int, b: int) -> float:
    """How much two clans' card text overlaps: the share of ops of `a` that `b` also uses."""
    ops_a, ops_b = _clan_ops(spec, a), _clan_ops(spec, b)
    return len(ops_a & ops_b) / len(ops_a) if ops_a else 0.0


def draft_score(spec: ClansSpec, picks: Sequence[tuple[int, int]], seat: int, clan: int) -> float:
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

# The evaluation is a win probability: P(win this round's Great Battle) from the projected
# margin and what each side can still add, carried through the Supremacy race over the rounds
# left, then the instant wins (tokens, face-up cards, a clan's win_if) as hazards on top.
ROUND_PLAYS = 3.0  # plays each side is expected to still make while nobody has passed
AVERAGE_PLAY = 2.3  # military an unseen opponent card adds when played (deck average, playable)
PLAY_LATER = 0.75  # a card in hand counts this much of its military (it is not in play yet)
HAND_REST = 0.05  # ... and a hand card beyond the plays left, this much (for discards)
TOKEN_PLAY = 0.8  # a held token: a draw, worth this share of an average play
BATTLE_SPREAD = 2.0  # logistic scale of the margin, plus SPREAD_PER_PLAY per play still to come
SPREAD_PER_PLAY = 0.7
CARRY = 0.5  # share of the army (its military margin) expected to survive Song for the Dead
FUTURE_SPREAD = 8.0  # logistic scale of that carried margin for the battles after this one
HAZARD = (1.0, 0.45, 0.15, 0.04)  # chance an instant win `d` steps away comes in time
HAZARD_STEPS = len(HAZARD)
EDGE = 0.98  # |evaluate| stays below this while the game is on (a won game is exactly 1)
REACH = PLAY_LATER * AVERAGE_PLAY  # what each play still open to the opponent may add
# P(winning a later battle) by the present military margin (CARRY of it survives Song)
FUTURE_MAX = 60
FUTURE = tuple(
    1.0 / (1.0 + exp(-CARRY * m / FUTURE_SPREAD)) for m in range(-FUTURE_MAX, FUTURE_MAX + 1)
)


def evaluate(g: Table, seat: int, hand: tuple[int, ...] | None = None) -> float:
    """A value in [-1, 1] for `seat` in a game not over: 2 P(win) - 1, with P(win) from the
    Supremacy race, this round's battle and the instant wins. Reads the army summary
    (`Table.board`), public counters and `seat`'s own hand (see the module docstring), or
    `hand` in its place (the value after giving up a card, rules.pay_best).

    Greedy and MCTS call this for every move they try, so it is written flat: one pass, no
    walk over the armies (special cards aside)."""
    spec = g.spec
    clans = g.clans
    if not clans[0]:  # still drafting: the picks' ratings and synergy
        return draft_value(g, seat)
    opp = 1 - seat
    board, stride = g.board, spec.board_stride
    me, them = seat * stride, opp * stride
    mine, theirs = board[me + POWER], board[them + POWER]
    margin: float = mine - theirs
    if board[me + SPECIALS] or board[them + SPECIALS]:
        mil, vet = [board[POWER], board[stride + POWER]], [0, 0]
        _specials(g, mil, vet)
        mine, theirs = mil[seat], mil[opp]
        margin = mine + vet[seat] - theirs - vet[opp]
    wonder = g.wonder
    if wonder != NOBODY:
        margin += 0.5 if wonder == seat else -0.5

    # what each side can still add before this round's battle
    # the oldest task pending: the turn's end, the battle, the song...; in the draft, the only
    # task is the one asking
    todo = g.todo
    bottom = todo[0][0] if todo else g.cont[1][0] if g.asking is not None else BATTLE
    plays_me: float
    plays_opp: float
    if bottom == END_TURN:  # a round under way
        passed = g.passed
        if passed[seat]:
            plays_me, plays_opp = 0, max(g.countdown, 0)
        elif passed[opp]:
            plays_me, plays_opp = max(g.countdown, 0), 0
        else:
            plays_me = plays_opp = ROUND_PLAYS
    elif bottom == BATTLE:  # the battle is being fought: nothing more to play
        plays_me = plays_opp = 0
    else:  # Song for the Dead or the mulligans: the next round, hands about to be full
        plays_me = plays_opp = ROUND_PLAYS
    x = margin
    if plays_me:
        x += _hand_potential(g, seat, plays_me, g.hand[seat] if hand is None else hand)
    if plays_opp:
        x -= REACH * min(plays_opp, len(g.hand[opp]) + g.held[opp])
    x /= BATTLE_SPREAD + SPREAD_PER_PLAY * (plays_me + plays_opp)
    p = 0.0 if x < -30.0 else 1.0 / (1.0 + exp(-x))
    carried = mine - theirs
    if -FUTURE_MAX <= carried <= FUTURE_MAX:
        f = FUTURE[carried + FUTURE_MAX]
    else:
        f = 1.0 if carried > 0 else 0.0
    win = _race(
        g.supremacy[seat],
        g.supremacy[opp],
        spec.max_rounds - g.round + (0 if bottom == SONG else 1),
        spec.supremacy_to_win,
        int((f if bottom == SONG else p) * 100 + 0.5),  # in the Song, this battle is decided
        int(f * 100 + 0.5),
    )

    # instant wins, as hazards (most positions are far from any)
    h_me = hazard(g, spec, clans[seat], seat, me)
    h_opp = hazard(g, spec, clans[opp], opp, them)
    if h_me or h_opp:
        win += (1.0 - win) * h_me - win * h_opp
    value = 2.0 * win - 1.0
    return EDGE if value > EDGE else max(value, -EDGE)


def hazard(g: Table, spec: ClansSpec, clans: tuple[int, ...], who: int, base: int) -> float:
    """The chance that `who`'s nearest instant win (face-up cards, tokens, a clan's win_if)
    comes in time: HAZARD by its distance, 0.0 when it is too far."""
    board = g.board
    nearest = spec.faceup_win - board[base + ACTIVE_N]
    plan = spec.win_plans.get(clans) or spec.win_plan(clans)
    if plan.any:
        if plan.gains_tokens:
            nearest = min(nearest, spec.token_win - g.owned[who])
        if plan.captures:
            nearest = min(nearest, plan.captures - board[base + CAPTIVES])
        if plan.rows:
            rows = board[base + ROW_N : base + ROW_N + spec.rows]
            nearest = min(nearest, max(max(rows), plan.rows) * len(rows) - sum(rows))
    if nearest >= HAZARD_STEPS:
        return 0.0
    return HAZARD[nearest] if nearest > 0 else 1.0


def _hand_potential(g: Table, seat: int, plays: float, hand: tuple[int, ...]) -> float:
    """The military `seat`'s `hand` (and held tokens) can still add over `plays` plays: the
    best cards count PLAY_LATER of their military, less when the army cannot take them yet (a
    Troop with no free space, a Hero or Immortal whose clan lacks the cards below it)."""
    k = int(plays + 0.5)
    if not hand:
        return TOKEN_PLAY * AVERAGE_PLAY * min(g.held[seat], k)
    values = hand_values(g, seat, hand)
    if len(values) > k:
        values.sort(reverse=True)
        return PLAY_LATER * sum(values[:k]) + HAND_REST * sum(values[k:])
    return PLAY_LATER * sum(values) + TOKEN_PLAY * AVERAGE_PLAY * min(g.held[seat], k - len(values))


def hand_values(g: Table, seat: int, cards: Sequence[int]) -> list[float]:
    """Per card (in `seat`'s hand), the military it may add as `_hand_potential` counts it, by
    what `seat`'s army can take now: all `evaluate` reads of a hand card."""
    spec = g.spec
    board = g.board
    me = seat * spec.board_stride
    troops = me + CLAN_N
    heroes = troops + len(spec.clans)
    troop_space = board[me + TROOP_FREE] > 0
    troop_share = 1.0 if troop_space else 0.3
    hero_share = 1.0 if board[me + HERO_OPEN] else 0.5
    hero_later = 0.5 if troop_space else 0.3
    immortal_share = 1.0 if board[me + IMMORTAL_OPEN] else 0.4
    bonus = spec.immortal_military_bonus
    info = spec.card_info
    values: list[float] = []
    add = values.append
    for card in cards:
        lv, clan, mil = info[card]
        if lv == 1:
            add(mil * troop_share)
        elif lv == 2:
            add(mil * (hero_share if board[troops + clan] else hero_later))
        elif not board[troops + clan]:
            add((mil + bonus) * 0.2)
        else:
            add((mil + bonus) * (immortal_share if board[heroes + clan] else 0.4))
    return values


def _specials(g: Table, mil: list[int], vet: list[int]) -> None:
    """Add the active special cards' ongoing and projected Veteran military (spec.card_special)."""
    for owner in (0, 1):
        grid = g.grid[owner]
        for slot in g.special_slots[owner]:
            _special_military(g, owner, slot, grid[slot], mil, vet)


def _special_military(
    g: Table, owner: int, slot: int, card: int, mil: list[int], vet: list[int]
) -> None:
    """An active card's ongoing add_military (to whichever seat it names) and its projected
    Veteran add_military (conditions tested on the present board), as `military` and
    `projected_veteran` count them."""
    spec = g.spec
    src = (owner, slot, g.serial[owner][slot], card)
    for entry in spec.ongoing_military[card]:
        if entry.conditions and not fx.holds(g, entry.conditions, owner, src):
            continue
        n = entry.n * (fx.count_matching(g, entry.per, owner, src) if entry.per else 1)
        mil[owner if entry.who == SELF else 1 - owner] += n
    for entry in spec.veteran_military[card]:
        if entry.who != SELF:
            continue
        if entry.conditions and not fx.holds(g, entry.conditions, owner, src):
            continue
        vet[owner] += entry.n * (fx.count_matching(g, entry.per, owner, src) if entry.per else 1)


@lru_cache(maxsize=8192)
def _race(mine: int, theirs: int, rounds: int, need: int, p: int, f: int) -> float:
    """P(`mine` wins the Supremacy race): this battle won with chance p %, later ones with f %;
    `need` tokens win (both at once: a draw, worth half), and after the last round the one with
    more tokens wins."""
    if mine >= need or theirs >= need:
        return 0.5 if mine >= need and theirs >= need else 1.0 if mine >= need else 0.0
    if rounds <= 0:
        return 0.5 if mine == theirs else 1.0 if mine > theirs else 0.0
    won = _race(mine + 1, theirs, rounds - 1, need, f, f)
    lost = _race(mine, theirs + 1, rounds - 1, need, f, f)
    return (p * won + (100 - p) * lost) / 100
