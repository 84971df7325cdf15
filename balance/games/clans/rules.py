"""clans' rules: the draft, the mulligans, turns of one action, the Great Battle, Song for the Dead.

The flow is spec §4's state machine, `DRAFT -> MULLIGAN -> TURNS -> GREAT_BATTLE -> (SONG ->
TURNS | END)`, run on the kit's flow engine (balance/core/flow.py) as tasks on a stack (state.py).
`advance` runs them until one poses a choice, the pending `Decision` (`asking`), with the task
that takes its answer (`cont`); `apply` answers it and advances again. Every decision counts
toward `max_decisions`, one-option ones included, so even an effect loop ends.

Options are small tuples whose first item says what they are (PLAY, SHIFT, ...). Hand cards of
the same name are one option (copies share a card id, and names are unique per design).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import repeat
from math import ceil, floor
from random import Random
from typing import Any, Self

from balance.core import flow
from balance.core.codes import Names
from balance.core.contract import OPENING, PLAYED, Decision, Result
from balance.core.errors import ConfigError
from balance.core.eventchain import EventLog
from balance.core.flow import Task
from balance.core.gamerng import GameRng
from balance.games.clans import heuristics
from balance.games.clans.effects import (
    HAND_LIMIT_REASON,
    IN_BATTLE,
    MILITARY_IN_BATTLE,
    NO_LEGAL_PLAY,
    OFFCLAN_REASON,
    OPS,
    ROWS,
    SACRIFICED,
    SHIFT_REASON,
    SHIFTED_IN,
    SHIFTED_OUT,
    activate_entries,
    fits_filter,
    hit,
    military,
    player_rule,
    push_entries,
    resolve_next,
    target_options,
)
from balance.games.clans.spec import ZONE_DECK, ClansSpec
from balance.games.clans.state import (
    ACTION,
    ACTIVATIONS,
    ACTIVE_N,
    ANSWER_ACTION,
    ANSWER_DISCARD,
    ANSWER_DRAFT,
    ANSWER_FETCH,
    ANSWER_FREE_PLAY,
    ANSWER_MULLIGAN,
    ANSWER_PAY,
    ANSWER_SACRIFICE,
    ANSWER_TARGET,
    BATTLE,
    BATTLE_MILITARY,
    CAPTIVES,
    CLAN_N,
    COUNTDOWN_TURNS,
    DISCARD,
    DRAFT,
    DRAW_BIGS,
    DRAW_SMALLS,
    EFFECT_DISCARDS,
    EMPTY,
    END_TURN,
    ENTRIES,
    FETCH,
    FIRST_PASSES,
    FIRST_ROUNDS,
    FREE_PLAY,
    HAND_LIMIT_DISCARDS,
    HERO_OPEN,
    MODDERS,
    MULLIGAN,
    MULLIGANS,
    NOBODY,
    OFFCLAN_PAID,
    PASSES,
    PAY,
    PLAYS,
    ROUND_START,
    ROW_N,
    SACRIFICE,
    SACRIFICES,
    SHARED_TIES,
    SHIFT_PAID,
    SHIFTS,
    SONG,
    STATS,
    TARGET,
    TASKS,
    TOKENS_AT_PASS,
    TROOP_FREE,
    WONDER_TIE_WINS,
    Table,
    bump,
    draw,
    is_exposed,
    leave_play,
    place,
    recount,
    replaced,
    reveal,
    set_status,
    set_tokens,
    shuffle_deck,
    swap,
    take_from_hand,
    to_discard,
    to_hand,
    top_card,
)

# -- options ---------------------------------------------------------------------------------

# The first item of every option tuple: what kind of option it is.
OPTION_KINDS = Names()
PICK = OPTION_KINDS.add("pick")
KEEP = OPTION_KINDS.add("keep")
MULLIGAN_OPT = OPTION_KINDS.add("mulligan")
PLAY = OPTION_KINDS.add("play")
SHIFT = OPTION_KINDS.add("shift")
DRAW_SMALL = OPTION_KINDS.add("draw_small")
DRAW_BIG = OPTION_KINDS.add("draw_big")
ACTIVATE = OPTION_KINDS.add("activate")
PASS = OPTION_KINDS.add("pass")
PAY_CARD = OPTION_KINDS.add("pay_card")
TARGET_CARD = OPTION_KINDS.add("target_card")
NONE = OPTION_KINDS.add("none")
DISCARD_CARD = OPTION_KINDS.add("discard_card")
SACRIFICE_CARD = OPTION_KINDS.add("sacrifice_card")
FREE_PLAY_CARD = OPTION_KINDS.add("free_play_card")
FETCH_CARD = OPTION_KINDS.add("fetch_card")
KEEP_OPTION = (KEEP,)
MULLIGAN_OPTION = (MULLIGAN_OPT,)
DRAW_SMALL_OPTION = (DRAW_SMALL,)
DRAW_BIG_OPTION = (DRAW_BIG,)
PASS_OPTION = (PASS,)
NONE_OPTION = (NONE,)

# Each Great Battle logs: the round's turns, first player, first passer (-1: none), both totals
# and both Veteran additions (Table.battle_totals).
ROUND_LOG = 7

# D3 decisions remembered per game (and its copies) before the memo starts afresh
MEMO_SIZE = 4096

# rule_mod parameters, as indexes of effects.RULE_MOD_PARAMS
HAND_LIMIT, OFFCLAN_TROOP_COST, SHIFT_DISCOUNT, EXTRA_TURNS_AFTER_PASS = range(4)


class Clans(Table):
    """A game of clans: the contract's methods over the state's data."""

    __slots__ = ()

    def decision(self) -> Decision | None:
        return self.asking

    def apply(self, option: int) -> None:
        self.decisions += 1
        flow.resume(self, option, TASKS)  # the answer task, (ANSWER_*, asking task, choice), first
        check_decision_cap(self)

    def result(self) -> Result:
        return game_result(self)

    def evaluate(self, seat: int) -> float:
        """heuristics.evaluate, kept until the next apply (a search often asks twice)."""
        if self.over:
            return 0.0 if self.winner == NOBODY else 1.0 if self.winner == seat else -1.0
        key = self.decisions * 2 + seat
        if self.valued != key:
            self.value = heuristics.evaluate(self, seat)
            self.valued = key
        return self.value

    def determinize(self, seat: int, rng: Random) -> Self:
        """Table.determinize; then another seat's pending choice, which may list its hand, is
        computed again from the new hand."""
        copy = super().determinize(seat, rng)
        if copy.asking is not None and copy.asking.seat != seat:
            refresh_decision(copy)
        return copy

    def option_twins(self) -> tuple[int, ...] | None:
        """Per option, an earlier option whose value it surely has, for greedy (`pay_twins`)."""
        return pay_twins(self)

    def option_best(self) -> tuple[int, float | None] | None:
        """An option scoring at least every other's, for greedy's follow-ups, and its value
        where known unapplied (`pay_best`)."""
        return pay_best(self)

    def describe(self, option: int) -> str:
        return describe_option(self, self.asking.options[option])  # type: ignore[union-attr]

    def public_summary(self) -> str:
        return public_line(self)


def public_line(g: Table) -> str:
    """The round and who acts; per seat: hand, deck and discard sizes, held and owned
    territories, supremacy, and its army slot by slot (empty `-`; a face-down card, whose
    identity is public, marked `(down)`); who holds the Wonder Token."""
    names = g.spec.catalog.cards
    parts = []
    for seat in range(2):
        army = " ".join(
            "-" if card == EMPTY else names[card] if up else f"{names[card]}(down)"
            for card, up in zip(g.grid[seat], g.face_up[seat])
        )
        parts.append(
            f"seat {seat}: hand {len(g.hand[seat])}, deck {len(g.deck[seat])}, discard "
            f"{len(g.discard[seat])}, held {g.held[seat]}, owned {g.owned[seat]}, supremacy "
            f"{g.supremacy[seat]}{', passed' if g.passed[seat] else ''}, army [{army}]"
        )
    wonder = "supply" if g.wonder == NOBODY else f"seat {g.wonder}"
    return f"round {g.round}, seat {g.active} to act; " + "; ".join(parts) + f"; wonder {wonder}"


# -- setup -----------------------------------------------------------------------------------


def new_game(spec: ClansSpec, lineup: Sequence[str], seed: int) -> Clans:
    """A game for `lineup` (an army per seat, or the shared setup for both), from `seed`."""
    if len(lineup) != 2:
        raise ConfigError(
            "--seats", None, f"clans is played by 2 players, not {len(lineup)}", "use --seats 2"
        )
    shared = spec.shared_setup
    size = spec.rows * spec.row_spaces
    g = Clans(
        spec=spec,
        rng=GameRng(seed),
        lineup=tuple(lineup),
        clans=[(), ()],
        flipped=(),
        picks=(),
        pool=(),
        deck=((), ()),
        hand=((), ()),
        known=((), ()),
        discard=((), ()),
        grid=((EMPTY,) * size, (EMPTY,) * size),
        face_up=((True,) * size, (True,) * size),
        captor=((NOBODY,) * size, (NOBODY,) * size),
        tokens=((0,) * size, (0,) * size),
        serial=((0,) * size, (0,) * size),
        held=(0, 0),
        owned=(0, 0),
        supremacy=(0, 0),
        wonder=NOBODY,
        round=1,
        first=0,
        active=0,
        passed=(False, False),
        first_passer=NOBODY,
        countdown=-1,
        extra=(0, 0),
        round_turns=0,
        turn=0,
        in_turn=False,
        veteran_bonus=(0, 0),
        mulligans=(0, 0),
        todo=[],
        asking=None,
        cont=(),
        decisions=0,
        over=False,
        winner=NOBODY,
        win_type="",
        capped_rounds=0,
        capped_decisions=False,
        board=[],
        actives=((), ()),
        special_slots=((), ()),
        tally=[0] * (2 * len(STATS)),
        battle_totals=(),
        stuck=0,
        log=EventLog(),
        memo={},
    )
    recount(g)
    if shared in lineup:
        if lineup[0] != lineup[1]:
            raise ConfigError(
                "--decks", None, f"'{shared}' serves both seats at once", f"use --decks {shared}"
            )
        if spec.setup_mode == "draft":
            g.pool = tuple(card for clan in spec.draft_pool for card in spec.clan_cards[clan])
            g.todo.append((DRAFT, 0))
        else:
            deal_clans(g, spec.setups[shared])
    else:
        for name in lineup:
            if name not in spec.armies:
                raise ConfigError(
                    "--decks",
                    None,
                    f"unknown army '{name}'",
                    f"armies: {', '.join(sorted(spec.armies))}",
                )
        clash = spec.catalog.clash(lineup)
        if clash is not None:  # the draft never deals a clan to both players (G17b)
            raise ConfigError(
                "--decks",
                None,
                f"'{clash[0]}' and '{clash[1]}' both hold {clash[2]}",
                "two armies meet only with no clan in common",
            )
        deal_clans(g, (spec.armies[lineup[0]], spec.armies[lineup[1]]))
    advance(g)
    return g


def deal_clans(g: Table, clans: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    """Setup steps 3-6: flip the clans nobody fields, build and shuffle each 45-card deck, draw
    the opening hands, queue the mulligans (P1 first) and the first round."""
    base = g.spec
    g.clans = [clans[0], clans[1]]
    fielded = set(clans[0]) | set(clans[1])
    g.flipped = tuple(c for c in base.draft_pool if c not in fielded)
    if g.pool:  # the draft: what nobody picked stays set aside
        g.pool = tuple(card for clan in g.flipped for card in base.clan_cards[clan])
    g.spec = spec = base.with_flipped(g.flipped)
    for seat in (0, 1):
        deck: list[int] = []
        for clan in clans[seat]:
            deck += spec.clan_cards[clan]
        g.rng.shuffle(deck)
        g.deck = replaced(g.deck, seat, tuple(deck))
        deal_hand(g, seat)
    g.held = g.owned = (spec.starting_tokens, spec.starting_tokens)
    first = spec.first_player_round1
    g.first = 0 if first == "p1" else 1 if first == "p2" else g.rng.stream().randrange(2)
    g.todo += [(ROUND_START,), (MULLIGAN, 1), (MULLIGAN, 0)]


def deal_hand(g: Table, seat: int) -> None:
    """`seat` takes its starting hand from the top of its deck, the top card first."""
    deck = g.deck[seat]
    n = min(g.spec.starting_hand, len(deck))
    if g.loose_decks >> seat & 1:  # an undecided order: each card any of the deck's (top_card)
        for _ in range(n):
            to_hand(g, seat, top_card(g, seat))
        return
    rest = len(deck) - n
    g.deck = replaced(g.deck, seat, deck[:rest])
    g.hand = replaced(g.hand, seat, g.hand[seat] + deck[rest:][::-1])


def troops_in(g: Table, cards: Sequence[int]) -> int:
    return list(map(g.spec.card_level.__getitem__, cards)).count(1)


# -- the machine -----------------------------------------------------------------------------


def advance(g: Table) -> None:
    """Run the tasks until a choice is needed or the game is over (or past the decision cap)."""
    flow.run(g, TASKS)
    check_decision_cap(g)


def check_decision_cap(g: Table) -> None:
    """A choice past the decision cap (spec §8) ends the game instead."""
    if g.asking is not None and g.decisions >= g.spec.max_decisions:
        stop_at_decision_cap(g)


def refresh_decision(g: Table) -> None:
    """Pose the pending decision again, from the state as it is now (after `determinize` dealt
    a hand anew, or a test set a scene): the task that asked it runs again."""
    if g.over:
        return
    g.valued = -1
    if g.asking is not None:
        g.asking = None
        g.todo.append(g.cont[1])
    advance(g)


def asked(g: Table) -> Task:
    """The task that posed the pending decision (`cont` holds it for the answer)."""
    task: Task = g.cont[1]
    return task


# -- D1: the draft ---------------------------------------------------------------------------


def draft_step(g: Table, task: Task) -> None:
    spec = g.spec
    pick = task[1]
    if pick >= len(spec.draft_seats):
        seats: list[list[int]] = [[], []]
        for clan, seat in g.picks:
            seats[seat].append(clan)
        order = spec.draft_pool
        deal_clans(
            g, (tuple(sorted(seats[0], key=order.index)), tuple(sorted(seats[1], key=order.index)))
        )
        return
    taken = {clan for clan, _ in g.picks}
    options = tuple((PICK, clan) for clan in spec.draft_pool if clan not in taken)
    flow.ask(g, Decision(spec.draft_seats[pick], "draft_pick", options), (ANSWER_DRAFT, task))


def draft_pick(g: Table, answer: Task) -> None:
    _, task, option = answer
    g.picks += ((option[1], g.spec.draft_seats[task[1]]),)
    g.todo.append((DRAFT, task[1] + 1))


# -- D2: mulligans ---------------------------------------------------------------------------


def mulligan_step(g: Table, task: Task) -> None:
    seat = task[1]
    spec = g.spec
    if (
        troops_in(g, g.hand[seat]) < spec.mulligan_min_troops
        and g.mulligans[seat] < spec.max_mulligans
    ):
        decision = Decision(seat, "mulligan", (KEEP_OPTION, MULLIGAN_OPTION))
        flow.ask(g, decision, (ANSWER_MULLIGAN, task))
        return
    keep_hand(g, seat)


def mulligan(g: Table, answer: Task) -> None:
    _, task, option = answer
    seat = task[1]
    if option[0] == KEEP:
        keep_hand(g, seat)
        return
    g.deck = replaced(g.deck, seat, g.deck[seat] + g.hand[seat])
    g.hand = replaced(g.hand, seat, ())
    shuffle_deck(g, seat)
    deal_hand(g, seat)
    g.mulligans = bump(g.mulligans, seat, 1)
    g.tally[MULLIGANS * 2 + seat] += 1
    g.todo.append(task)  # the new hand: keep it or mulligan again


def keep_hand(g: Table, seat: int) -> None:
    g.log.extend([(0, seat, card, OPENING, 1) for card in g.hand[seat]])


# -- turns -----------------------------------------------------------------------------------


def start_round(g: Table, task: Task) -> None:
    g.passed = (False, False)
    g.first_passer = NOBODY
    g.countdown = -1
    g.extra = (0, 0)
    g.round_turns = 0
    g.tally[FIRST_ROUNDS * 2 + g.first] += 1
    begin_turn(g, g.first)


def begin_turn(g: Table, seat: int) -> None:
    g.active = seat
    g.in_turn = True
    g.turn += 1
    g.round_turns += 1
    if g.passed[1 - seat]:
        g.tally[COUNTDOWN_TURNS * 2 + seat] += 1
    g.todo += TURN_TASKS[seat]


# per seat, a turn's tasks: its end, then (on top) its action; and the action's answer task
# (`cont`), made once: every action task of a seat is the same tuple
TURN_TASKS = (((END_TURN, 0, 0, False), (ACTION, 0)), ((END_TURN, 1, 0, False), (ACTION, 1)))
ACTION_ANSWERS = ((ANSWER_ACTION, (ACTION, 0)), (ANSWER_ACTION, (ACTION, 1)))


def action_step(g: Table, task: Task) -> None:
    """D3, worked out once per position and shared by a search's copies (`Table.memo`): a
    determinized world (its decks loose) is cloned once per move tried, and most moves leave
    the next player's options as they were.

    The options depend on the seat's hand, army, tokens and held tokens, its rule values and the
    spec, nothing else. Zones are tuples replaced on change, so the objects themselves are the
    key: the memo keeps them alive, so an id is never reused while its entry is there."""
    seat = task[1]
    if not g.loose_decks:  # a real game works each position out once: nothing to share
        options, stuck = _action_options(g, seat)
        g.stuck |= stuck
        flow.ask(g, Decision(seat, "action", options), ACTION_ANSWERS[seat])
        return
    spec = g.spec
    board, stride = g.board, spec.board_stride
    hand, grid, up = g.hand[seat], g.grid[seat], g.face_up[seat]
    captor, tokens = g.captor[seat], g.tokens[seat]
    key: tuple[Any, ...] = (
        seat,
        id(hand),
        id(grid),
        id(up),
        id(captor),
        id(tokens),
        g.held[seat],
        id(spec),
    )
    if board[MODDERS] or board[stride + MODDERS]:
        key += (player_rule(g, seat, OFFCLAN_TROOP_COST), player_rule(g, seat, SHIFT_DISCOUNT))
    memo = g.memo
    known = memo.get(key)
    if known is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        options, stuck = _action_options(g, seat)
        decision = Decision(seat, "action", options)
        known = memo[key] = (decision, stuck, hand, grid, up, captor, tokens, spec)
    g.stuck |= known[1]
    flow.ask(g, known[0], ACTION_ANSWERS[seat])


def action_options(g: Table, seat: int) -> tuple[Any, ...]:
    """D3: every legal Play a Card (R10-R14, G6), Shift (R16, G10), token spend (R17) and pass
    (R18). A hand card that appears in no play or shift is noted as having no legal play."""
    options, stuck = _action_options(g, seat)
    g.stuck |= stuck
    return options


def _action_options(g: Table, seat: int) -> tuple[tuple[Any, ...], int]:
    """`action_options` and the bits of the hand cards with no legal play (`Table.stuck`).

    The army summary (`Table.board`) answers which clans have active Troops and Heroes and
    whether a row has room; the grid is read only for the spaces and cards an option names."""
    spec = g.spec
    width = spec.row_spaces
    hand = g.hand[seat]
    grid = g.grid[seat]
    level, clan_of = spec.card_level, spec.card_clan
    board = g.board
    base = seat * spec.board_stride
    troops = base + CLAN_N  # active Troops per clan; active Heroes per clan from `heroes`
    heroes = troops + len(spec.clans)
    troop_slot = grid.index(EMPTY, 0, width) if board[base + TROOP_FREE] else -1
    # an off-clan Troop is playable: no Troop is active (R13), or its discards are affordable
    # (R12); worked out at the first off-clan Troop (-1: not yet)
    offclan = -1 if board[base + ROW_N] else 1
    open_slots: list[list[int] | None] = [None, None, None]  # per row, found when needed
    options: list[tuple[Any, ...]] = []
    n = len(hand)
    distinct = dict.fromkeys(hand)
    unplayed: list[int] = []  # cards with no play: stuck unless some shift brings them in
    by_level: list[list[int]] = [[], [], [], []]
    for card in distinct:
        lv = level[card]
        by_level[lv].append(card)
        if lv == 1:
            if troop_slot >= 0 and (offclan > 0 or board[troops + clan_of[card]]):
                options.append((PLAY, card, troop_slot))
                continue
            if troop_slot >= 0 and offclan < 0:
                offclan = 1 if player_rule(g, seat, OFFCLAN_TROOP_COST) <= n - 1 else 0
                if offclan:
                    options.append((PLAY, card, troop_slot))
                    continue
            unplayed.append(card)
            continue
        clan = clan_of[card]
        if (
            not board[troops + clan]
            or (lv == 3 and not board[heroes + clan])
            or not board[base + HERO_OPEN + lv - 2]  # an empty space on a card of the row below
        ):
            unplayed.append(card)
            continue
        row = lv - 1
        slots = open_slots[row]
        if slots is None:
            slots = open_slots[row] = [
                slot
                for slot in range(row * width, row * width + width)
                if grid[slot] == EMPTY and grid[slot - width] != EMPTY
            ]
        for slot in slots:
            options.append((PLAY, card, slot))
    active = g.actives[seat]
    shifted: set[int] = set()  # cards some shift brings in
    if n and active:
        discount = -1
        shift_cost = spec.card_shift
        tokens = g.tokens[seat]
        for slot in active:
            out = grid[slot]
            same_row = by_level[level[out]]
            if not same_row:
                continue
            cost = shift_cost[out] - tokens[slot]
            if cost > 0:
                if discount < 0:
                    discount = player_rule(g, seat, SHIFT_DISCOUNT)
                cost -= discount
            if cost > n - 1:
                continue
            if out in distinct:  # a copy of the card in play cannot replace it (R16)
                for card in same_row:
                    if card != out:
                        options.append((SHIFT, slot, card))
                        shifted.add(card)
            else:
                for card in same_row:
                    options.append((SHIFT, slot, card))
                shifted.update(same_row)
    stuck = 0
    if unplayed:
        base_id = seat * len(level)
        for card in unplayed:
            if card not in shifted:
                stuck |= 1 << (base_id + card)
    held = g.held[seat]
    if held >= spec.draw_small.tokens:
        options.append(DRAW_SMALL_OPTION)
    if held >= spec.draw_big.tokens:
        options.append(DRAW_BIG_OPTION)
    if held >= 1 and active:
        limit = spec.max_tokens_per_card
        card_slot = spec.card_slot
        tokens = g.tokens[seat]
        for slot in active:
            if card_slot[grid[slot]] and tokens[slot] < limit:
                options.append((ACTIVATE, slot))
    if held == 0 or not options:
        # R18 forbids a pass while holding tokens; with draw_small costing more than a player
        # holds and nothing else legal, the pass is the only way on (G12 assumes 1 token)
        options.append(PASS_OPTION)
    return tuple(options), stuck


def act(g: Table, answer: Task) -> None:
    """Carry out the turn's one action (R7)."""
    _, task, option = answer
    seat = task[1]
    kind = option[0]
    spec = g.spec
    if kind == PLAY:
        play_card(g, seat, option[1], option[2])
    elif kind == SHIFT:
        make_shift(g, seat, option[1], option[2])
    elif kind == DRAW_SMALL:
        g.held = bump(g.held, seat, -spec.draw_small.tokens)
        draw(g, seat, spec.draw_small.cards)
        g.tally[DRAW_SMALLS * 2 + seat] += 1
    elif kind == DRAW_BIG:
        g.held = bump(g.held, seat, -spec.draw_big.tokens)
        draw(g, seat, spec.draw_big.cards)
        g.tally[DRAW_BIGS * 2 + seat] += 1
    elif kind == ACTIVATE:
        g.held = bump(g.held, seat, -1)
        set_tokens(g, seat, option[1], g.tokens[seat][option[1]] + 1)
        g.tally[ACTIVATIONS * 2 + seat] += 1
        activate_entries(g, seat, option[1])
    else:
        pass_turn(g, seat)
    check_instant(g)


def play_card(g: Table, seat: int, card: int, slot: int) -> None:
    """Play a Card: a Troop off its army's clans costs `offclan_troop_cost` discards (R12,
    unless no Troop is active, R13/G9); then its play entries resolve (R15)."""
    spec = g.spec
    cost = 0
    if spec.card_level[card] == 1:
        base = seat * spec.board_stride  # active Troops, and those of the card's clan
        if g.board[base + ROW_N] and not g.board[base + CLAN_N + spec.card_clan[card]]:
            cost = player_rule(g, seat, OFFCLAN_TROOP_COST)
    take_from_hand(g, seat, card)
    place(g, seat, slot, card)
    g.log.append((g.turn, seat, card, PLAYED, 1))
    g.tally[PLAYS * 2 + seat] += 1
    push_entries(g, seat, slot, spec.on_play[card])
    if cost > 0:
        g.todo.append((PAY, seat, cost, OFFCLAN_REASON))


def make_shift(g: Table, seat: int, slot: int, card: int) -> None:
    """Shift (R16, G10): discard (shift cost - tokens on it - discount) cards to swap an own
    active card for a hand card of its row; the old card goes to the discard pile, its token
    spent; the new one enters face up and its play entries resolve."""
    spec = g.spec
    out = g.grid[seat][slot]
    cost = spec.card_shift[out] - g.tokens[seat][slot]
    if cost > 0:
        cost = max(0, cost - player_rule(g, seat, SHIFT_DISCOUNT))
    take_from_hand(g, seat, card)
    swap(g, seat, slot, card)
    to_discard(g, seat, out)
    turn = g.turn
    g.log.append((turn, seat, out, SHIFTED_OUT, 1))
    g.log.append((turn, seat, card, PLAYED, 1))
    g.log.append((turn, seat, card, SHIFTED_IN, 1))
    g.tally[SHIFTS * 2 + seat] += 1
    push_entries(g, seat, slot, spec.on_play[card])
    if cost > 0:
        g.todo.append((PAY, seat, cost, SHIFT_REASON))


def pass_turn(g: Table, seat: int) -> None:
    """Pass (R18, G12): the first pass of a round starts the opponent's countdown (and, with
    wonder_to_first_passer, gives the passer the Wonder Token); a pass during the countdown
    ends the round. The turn's end (state.END_TURN, now on top) is told of the pass."""
    opp = 1 - seat
    g.tally[PASSES * 2 + seat] += 1
    g.tally[TOKENS_AT_PASS * 2 + seat] += g.held[seat]
    todo = g.todo
    end = todo[-1]
    todo[-1] = (END_TURN, end[1], end[2], True)
    if not g.passed[opp]:
        g.first_passer = seat
        g.countdown = player_rule(g, opp, EXTRA_TURNS_AFTER_PASS)
        g.tally[FIRST_PASSES * 2 + seat] += 1
        if g.spec.wonder_to_first_passer:
            g.wonder = seat
    g.passed = replaced(g.passed, seat, True)


def end_turn_step(g: Table, task: Task) -> None:
    """The end of a turn: 1. discard down to the hand limit (D6), the active player, then the
    other (§4 as amended: R8 binds every player at every turn end, and an opponent's effect can
    push a hand above its limit); 2. the Justice check (G18); 3. the next turn, the next
    countdown turn, or the Great Battle."""
    _, seat, step, passed = task
    while step < 2:
        who = seat if step == 0 else 1 - seat
        step += 1
        excess = len(g.hand[who]) - player_rule(g, who, HAND_LIMIT)
        if excess > 0:  # the rest of the turn's end waits for the discards
            g.todo.append((END_TURN, seat, step, passed))
            g.todo.append((DISCARD, who, excess, HAND_LIMIT_REASON))
            return
    clan_win = clan_win_at_turn_end(g, seat)
    if clan_win:
        end_game(g, seat, clan_win)
        return
    next_turn(g, seat, passed)


def next_turn(g: Table, seat: int, passed: bool) -> None:
    opp = 1 - seat
    battle = False
    following = opp
    if passed:
        battle = g.passed[opp] or g.countdown <= 0
    elif g.extra[seat] > 0:
        g.extra = bump(g.extra, seat, -1)  # an effect's extra turn leaves the countdown (G12)
        following = seat
    elif g.passed[opp]:
        g.countdown -= 1
        battle = g.countdown <= 0
        following = seat
    if not battle and g.round_turns >= g.spec.max_turns_per_round:
        battle = True  # the round cap (spec §8): as if the countdown had expired
        g.capped_rounds += 1
    if battle:
        start_battle(g)
    else:
        begin_turn(g, following)


# -- D4, D6: paying and discarding -----------------------------------------------------------


def pay_step(g: Table, task: Task) -> None:
    seat = task[1]
    hand = g.hand[seat]
    if task[2] <= 0 or not hand:
        return
    # listed at first read: a search's copy mostly stops at a second payment unread (its hand
    # is a tuple, so it is its own snapshot)
    flow.ask(g, Decision.lazy(seat, "pay", hand_options, PAY_CARD, hand), (ANSWER_PAY, task))


def pay(g: Table, answer: Task) -> None:
    _, task, option = answer
    _, seat, left, reason = task
    card = option[1]
    take_from_hand(g, seat, card)
    to_discard(g, seat, card)
    g.tally[(OFFCLAN_PAID if reason == OFFCLAN_REASON else SHIFT_PAID) * 2 + seat] += 1
    if left > 1:
        g.todo.append((PAY, seat, left - 1, reason))


def discard_step(g: Table, task: Task) -> None:
    seat = task[1]
    hand = g.hand[seat]
    if task[2] <= 0 or not hand:
        return
    decision = Decision.lazy(seat, "discard", hand_options, DISCARD_CARD, hand)
    flow.ask(g, decision, (ANSWER_DISCARD, task))


def pay_twins(g: Table) -> tuple[int, ...] | None:
    """Per option of a pending payment or discard, the first option giving up a card that
    `evaluate` counts the same (heuristics.hand_values), else itself; None when no two are
    alike or there is no proof.

    `evaluate` reads a hand only through its size and `hand_values`, and giving up a card
    changes neither for the cards left (they read the army and the spec). So two such options
    have the same value for greedy wherever what follows, up to the next decision greedy does
    not follow, reads the hand no further than that: with 2 or more cards still to give up out
    of a hand of 2 or more (the next decision is surely the same task's next), or when this is
    the task's last card and only the turn's end follows, handing the turn to the other seat
    (`turn_passes_on`): the hand-limit discards read the hands' sizes (and a discard of this
    seat is alike again), the Justice check the army. The decision cap, reached alike by both,
    ends the game by Supremacy and military."""
    seat = giving_up(g)
    if seat == NOBODY:
        return None
    options = g.asking.options  # type: ignore[union-attr]
    first: dict[float, int] = {}
    twins = [
        first.setdefault(value, index)
        for index, value in enumerate(heuristics.hand_values(g, seat, [o[1] for o in options]))
    ]
    return tuple(twins) if len(first) < len(twins) else None


def pay_best(g: Table) -> tuple[int, float | None] | None:
    """Of a pending payment or discard, the first option giving up the card `evaluate` counts
    least (heuristics.hand_values), sure to score at least every other's for greedy, and its
    value where known unapplied (`given_up_value`); None when there is no proof.

    Where `pay_twins` holds, an option's value reads the hand only through `hand_values` of
    the cards left, and `evaluate` does not fall as those grow: `_hand_potential` sums the
    sorted values with positive weights (a hand left from giving up a smaller card is,
    sorted, at least as high card by card), the battle's chance rises with it and so does
    `_race` with that chance (tests/games/clans/test_twins.py checks it over the rules' range).
    The instant-win hazards, which read no hand, keep it rising unless both together exceed 1:
    then there is no proof."""
    seat = giving_up(g)
    if seat == NOBODY:
        return None
    spec = g.spec
    stride = spec.board_stride
    opp = 1 - seat
    clans = g.clans
    if (
        heuristics.hazard(g, spec, clans[seat], seat, seat * stride)
        + heuristics.hazard(g, spec, clans[opp], opp, opp * stride)
        > 1.0
    ):
        return None
    options = g.asking.options  # type: ignore[union-attr]
    values = heuristics.hand_values(g, seat, [o[1] for o in options])
    best = values.index(min(values))
    return best, given_up_value(g, seat, options[best][1])


def given_up_value(g: Table, seat: int, card: int) -> float | None:
    """`evaluate(seat)` once `seat` gives up `card` to the pending payment or discard, where
    the next decision is then surely the same task's or another seat's, and nothing `evaluate`
    reads changes on the way but the hand; else None.

    With more to give up, the task's next card is asked at once. With the last card, the
    turn's end follows: the hand-limit checks still to come must leave `seat` none to discard
    (an opponent's discard stops there, before anything else changes), no clan may win by
    Justice, and the next turn must go to the other seat with no countdown to count down
    (`next_turn` then changes only the turn's counters and tasks)."""
    if g.decisions + 1 >= g.spec.max_decisions:
        return None  # the decision cap ends the game there
    task = asked(g)
    hand = list(g.hand[seat])
    hand.remove(card)
    if task[2] < 2 or not hand:
        end = g.todo[-1]  # END_TURN, handing the turn to the other seat (`giving_up`)
        turn = end[1]
        for step in range(end[2], 2):
            if (turn if step == 0 else 1 - turn) == seat and len(hand) > player_rule(
                g, seat, HAND_LIMIT
            ):
                return None
        if (not end[3] and g.passed[1 - turn]) or clan_win_at_turn_end(g, turn):
            return None
    return heuristics.evaluate(g, seat, tuple(hand))


def giving_up(g: Table) -> int:
    """The seat of a pending payment or discard after which what greedy scores reads the
    hand no further than its size and `hand_values` (see `pay_twins`), else NOBODY."""
    if g.asking is None:
        return NOBODY
    answer = g.cont[0]
    if answer != ANSWER_PAY and answer != ANSWER_DISCARD:
        return NOBODY
    task = asked(g)
    seat: int = task[1]
    todo = g.todo
    if (task[2] < 2 or len(g.hand[seat]) < 2) and not (
        todo and todo[-1][0] == END_TURN and turn_passes_on(g, todo[-1], seat)
    ):
        return NOBODY
    return seat


def turn_passes_on(g: Table, end: Task, seat: int) -> bool:
    """Whether the turn's end (`end`, END_TURN) surely hands the next turn to the seat other
    than `seat`, with no Great Battle (as `next_turn` decides, on what the discards leave)."""
    turn, passed = end[1], end[3]
    if g.round_turns >= g.spec.max_turns_per_round:
        return False  # the round cap: the battle
    opp = 1 - turn
    if passed:
        following = NOBODY if g.passed[opp] or g.countdown <= 0 else opp
    elif g.extra[turn] > 0:
        following = turn
    elif g.passed[opp]:
        following = NOBODY if g.countdown <= 1 else turn
    else:
        following = opp
    return following == 1 - seat


def hand_options(kind: int, hand: tuple[int, ...]) -> tuple[Any, ...]:
    """One option of `kind` per card of `hand`, copies once, in hand order."""
    return tuple(zip(repeat(kind), dict.fromkeys(hand)))


def discard_card(g: Table, answer: Task) -> None:
    _, task, option = answer
    _, seat, left, reason = task
    card = option[1]
    take_from_hand(g, seat, card)
    to_discard(g, seat, card)
    g.tally[
        (HAND_LIMIT_DISCARDS if reason == HAND_LIMIT_REASON else EFFECT_DISCARDS) * 2 + seat
    ] += 1
    if left > 1:
        g.todo.append((DISCARD, seat, left - 1, reason))


# -- effects: D5, D8, D9 ---------------------------------------------------------------------


def entries_step(g: Table, task: Task) -> None:
    resolve_next(g, task)
    check_instant(g)


def target_step(g: Table, task: Task) -> None:
    chooser, found = target_options(g, task)
    if not found:
        return  # no legal target: the entry does nothing (G20)
    options: tuple[tuple[int, ...], ...] = tuple((TARGET_CARD, seat, slot) for seat, slot in found)
    entry = task[6]
    if entry.optional or entry.target.up_to:
        options += (NONE_OPTION,)
    flow.ask(g, Decision(chooser, "target", options), (ANSWER_TARGET, task))


def target(g: Table, answer: Task) -> None:
    _, task, option = answer
    if option[0] == NONE:
        return
    hit(g, task, option[1], option[2])
    check_instant(g)


def free_play_step(g: Table, task: Task) -> None:
    controller, card, entry = task[1], task[5], task[6]
    options: list[tuple[int, ...]] = [
        (FREE_PLAY_CARD, c, slot) for c, slot in free_plays(g, controller, entry, card)
    ]
    options.append(NONE_OPTION)
    decision = Decision(controller, "free_play", tuple(options))
    flow.ask(g, decision, (ANSWER_FREE_PLAY, task))


def free_plays(g: Table, seat: int, entry: object, src_card: int) -> list[tuple[int, int]]:
    """D8: (card, slot) pairs for the free_play op: matching hand cards into supported spaces,
    Troops in the leftmost empty Troop space; R14's clan needs unless ignore_requirements."""
    spec = g.spec
    width, rows = spec.row_spaces, spec.rows
    grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
    level, clan_of = spec.card_level, spec.card_clan
    active_clans: list[set[int]] = [set(), set(), set()]
    for slot in range(rows * width):
        card = grid[slot]
        if card != EMPTY and up[slot] and captor[slot] == NOBODY:
            active_clans[slot // width].add(clan_of[card])
    found = []
    for card in dict.fromkeys(g.hand[seat]):
        if not fits_filter(spec, entry.filter, card, src_card):  # type: ignore[attr-defined]
            continue
        row = level[card] - 1
        if row >= rows:
            continue
        if not entry.ignore_requirements:  # type: ignore[attr-defined]
            clan = clan_of[card]
            if row >= 1 and clan not in active_clans[0]:
                continue
            if row == 2 and clan not in active_clans[1]:
                continue
        for slot in range(row * width, row * width + width):
            if grid[slot] == EMPTY and (row == 0 or grid[slot - width] != EMPTY):
                found.append((card, slot))
                if row == 0:
                    break
    return found


def free_play(g: Table, answer: Task) -> None:
    _, task, option = answer
    if option[0] == NONE:
        return
    seat, card, slot = task[1], option[1], option[2]
    take_from_hand(g, seat, card)
    place(g, seat, slot, card)
    g.log.append((g.turn, seat, card, PLAYED, 1))
    g.tally[PLAYS * 2 + seat] += 1
    push_entries(g, seat, slot, g.spec.on_play[card])
    check_instant(g)


def fetch_step(g: Table, task: Task) -> None:
    _, controller, _, _, _, card, entry, left = task
    zone = g.deck[controller] if entry.zone == ZONE_DECK else g.discard[controller]
    options: tuple[tuple[int, int], ...] = ()
    if left > 0:
        spec = g.spec
        flt = entry.filter
        # by card id, not by place: the deck's order is hidden, even from its owner
        options = tuple(
            (FETCH_CARD, c) for c in sorted(set(zone)) if fits_filter(spec, flt, c, card)
        )
    if not options:
        finish_fetch(g, task)
        return
    flow.ask(g, Decision(controller, "fetch", options + (NONE_OPTION,)), (ANSWER_FETCH, task))


def fetch(g: Table, answer: Task) -> None:
    _, task, option = answer
    if option[0] == NONE:
        finish_fetch(g, task)
        return
    _, controller, seat, slot, serial, src_card, entry, left = task
    card = option[1]
    if entry.zone == ZONE_DECK:
        zone = list(g.deck[controller])
        zone.remove(card)
        g.deck = replaced(g.deck, controller, tuple(zone))
    else:
        zone = list(g.discard[controller])
        zone.remove(card)
        g.discard = replaced(g.discard, controller, tuple(zone))
    to_hand(g, controller, card)
    reveal(g, controller, card)  # fetched cards are revealed
    g.log.append((g.turn, controller, card, 1, 1))  # DRAWN
    # the next card, if any is left to fetch (`fetch_step` finishes otherwise)
    g.todo.append((FETCH, controller, seat, slot, serial, src_card, entry, left - 1))


def finish_fetch(g: Table, task: Task) -> None:
    if task[6].zone == ZONE_DECK:
        shuffle_deck(g, task[1])


# -- the Great Battle ------------------------------------------------------------------------


def start_battle(g: Table) -> None:
    """Great Battle step 1-2 set-up: the Veteran cards in G15's order (the first player's army
    first; Troop row, Hero row, Immortal row; left to right), each resolved in turn."""
    g.in_turn = False
    g.active = g.first
    g.veteran_bonus = (0, 0)
    spec = g.spec
    order = []
    for seat in (g.first, 1 - g.first):
        grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
        for slot, card in enumerate(grid):
            if card != EMPTY and spec.on_veteran[card] and up[slot] and captor[slot] == NOBODY:
                order.append((seat, slot, g.serial[seat][slot]))
    g.todo.append((BATTLE, tuple(order), 0))


def battle_step(g: Table, task: Task) -> None:
    _, order, index = task
    if index < len(order):
        g.todo.append((BATTLE, order, index + 1))  # the next Veteran waits for this one's entries
        seat, slot, serial = order[index]
        card = g.grid[seat][slot]
        if (
            card != EMPTY
            and g.serial[seat][slot] == serial
            and g.face_up[seat][slot]
            and g.captor[seat][slot] == NOBODY
        ):
            g.todo.append((ENTRIES, seat, seat, slot, serial, card, g.spec.on_veteran[card], 0))
        return
    great_battle(g)


def great_battle(g: Table) -> None:
    """Steps 3-4: compare the totals (current military plus this battle's Veteran additions),
    award Supremacy (R19: a tie goes to the Wonder Token holder, else to both), check the
    Supremacy win and the final round (R20, G17); otherwise Song for the Dead."""
    spec = g.spec
    totals = [military(g, 0) + g.veteran_bonus[0], military(g, 1) + g.veteran_bonus[1]]
    turn = g.turn
    events = g.log
    bonus = spec.immortal_military_bonus
    for seat in (0, 1):
        grid, up, captor = g.grid[seat], g.face_up[seat], g.captor[seat]
        for slot, card in enumerate(grid):
            if card != EMPTY and up[slot] and captor[slot] == NOBODY:
                events.append((turn, seat, card, IN_BATTLE, 1))
                worth = spec.card_military[card] + (bonus if spec.card_level[card] == 3 else 0)
                events.append((turn, seat, card, MILITARY_IN_BATTLE, worth))
        g.tally[BATTLE_MILITARY * 2 + seat] += totals[seat]
    g.battle_totals += (g.round_turns, g.first, g.first_passer, *totals, *g.veteran_bonus)
    if totals[0] != totals[1]:
        winners = [0 if totals[0] > totals[1] else 1]
    elif g.wonder != NOBODY:
        winners = [g.wonder]
        g.tally[WONDER_TIE_WINS * 2 + g.wonder] += 1
    else:
        winners = [0, 1]
        g.tally[SHARED_TIES * 2] += 1
        g.tally[SHARED_TIES * 2 + 1] += 1
    for seat in winners:
        g.supremacy = bump(g.supremacy, seat, 1)
    reached = [seat for seat in (0, 1) if g.supremacy[seat] >= spec.supremacy_to_win]
    if len(reached) == 2:
        end_game(g, NOBODY, "draw_double_supremacy")
    elif reached:
        end_game(g, reached[0], "supremacy")
    elif g.round >= spec.max_rounds:
        s0, s1 = g.supremacy
        if s0 != s1:
            end_game(g, 0 if s0 > s1 else 1, "most_battles")
        else:
            end_game(g, NOBODY, "draw_final")
    else:
        winner = winners[0] if len(winners) == 1 else NOBODY
        g.todo.append((SONG, 0, winner))


# -- Song for the Dead -----------------------------------------------------------------------


def song_step(g: Table, task: Task) -> None:
    """R21 with G3, G14, G16, G17a: 1. release every captured card (no play entries), then the
    instant checks; 2. each player sacrifices, the battle winner first (D7); 3. both draw up to
    song_draw_to in that order; 4. held = owned, tokens leave the cards; 5. the Wonder Token to
    the supply; 6. the battle loser is the next first player (after a shared battle: the other
    player)."""
    spec = g.spec
    _, step, winner = task
    first = winner if winner != NOBODY else g.first
    order = (first, 1 - first)
    if step == 0:
        for seat in (0, 1):
            captor, up = g.captor[seat], g.face_up[seat]
            for slot in range(len(captor)):
                if captor[slot] != NOBODY:
                    set_status(g, seat, slot, up[slot], NOBODY)
        check_instant(g)  # G17a: a release can complete 15 face-up cards, before any sacrifice
        if g.over:
            return
        counts = [
            sacrifice_count(spec, len(g.grid[seat]) - g.grid[seat].count(EMPTY)) for seat in (0, 1)
        ]
        g.todo.append((SONG, 1, winner))  # steps 3-6, once both have sacrificed
        g.todo.append((SACRIFICE, order[1], counts[order[1]]))
        g.todo.append((SACRIFICE, order[0], counts[order[0]]))
        return
    for seat in order:
        missing = spec.song_draw_to - len(g.hand[seat])
        if missing > 0:
            draw(g, seat, missing)
    g.held = g.owned
    size = len(g.grid[0])
    g.tokens = ((0,) * size, (0,) * size)
    g.wonder = NOBODY
    g.first = 1 - winner if winner != NOBODY else 1 - g.first
    g.round += 1
    g.todo.append((ROUND_START,))


def sacrifice_count(spec: ClansSpec, in_play: int) -> int:
    """G16: round_(n x sacrifice_fraction) + sacrifice_bonus, at most n."""
    exact = in_play * spec.sacrifice_fraction
    rounding = spec.sacrifice_rounding
    if rounding == "up":
        count = ceil(exact - 1e-9)
    elif rounding == "down":
        count = floor(exact + 1e-9)
    else:
        count = floor(exact + 0.5 + 1e-9)
    return min(in_play, count + spec.sacrifice_bonus)


def sacrifice_step(g: Table, task: Task) -> None:
    seat = task[1]
    if task[2] > 0:
        grid = g.grid[seat]
        options = tuple(
            (SACRIFICE_CARD, slot)
            for slot in range(len(grid))
            if grid[slot] != EMPTY and is_exposed(g, seat, slot)
        )
        if options:
            flow.ask(g, Decision(seat, "sacrifice", options), (ANSWER_SACRIFICE, task))


def sacrifice(g: Table, answer: Task) -> None:
    _, task, option = answer
    _, seat, left = task
    slot = option[1]
    card = leave_play(g, seat, slot)
    to_discard(g, seat, card)
    g.log.append((g.turn, seat, card, SACRIFICED, 1))
    g.tally[SACRIFICES * 2 + seat] += 1
    if left > 1:
        g.todo.append((SACRIFICE, seat, left - 1))


# -- winning ---------------------------------------------------------------------------------


def check_instant(g: Table) -> None:
    """The instant checks (R22, G5, G18), after every op and every action: owned tokens at
    token_win, faceup_win active cards, and a fielded clan's immediate win_if. If both players
    meet one, the active player wins (outside a turn, the round's first player; G17)."""
    if g.over:
        return
    spec = g.spec
    token_win, faceup_win = spec.token_win, spec.faceup_win
    board, stride = g.board, spec.board_stride
    owned, captures = g.owned, spec.instant_captures
    if (
        owned[0] < token_win
        and owned[1] < token_win
        and board[ACTIVE_N] < faceup_win
        and board[stride + ACTIVE_N] < faceup_win
        and board[CAPTIVES] < captures
        and board[stride + CAPTIVES] < captures
    ):
        return  # nobody is at any instant win
    met = ["", ""]
    for seat in (0, 1):
        if g.owned[seat] >= token_win:
            met[seat] = "tokens"
            continue
        if board[seat * stride + ACTIVE_N] >= faceup_win:
            met[seat] = "faceup"
            continue
        clans = g.clans[seat]
        for clan_id, win in (spec.win_plans.get(clans) or spec.win_plan(clans)).immediate:
            if clan_condition(g, seat, win):
                met[seat] = clan_id
                break
    if met[0] or met[1]:
        if met[0] and met[1]:
            seat = g.active if g.in_turn else g.first
        else:
            seat = 0 if met[0] else 1
        end_game(g, seat, met[seat])


def clan_win_at_turn_end(g: Table, seat: int) -> str:
    """The end-of-turn win_if of `seat`'s fielded clans (Justice, G18): the winning clan's id."""
    spec = g.spec
    clans = g.clans[seat]
    for clan_id, win in (spec.win_plans.get(clans) or spec.win_plan(clans)).turn_end:
        if clan_condition(g, seat, win):
            return clan_id
    return ""


def clan_condition(g: Table, seat: int, win: tuple[int, int, bool]) -> bool:
    kind, need, _ = win
    spec = g.spec
    base = seat * spec.board_stride
    if kind == 0:  # captured_by_self: opponent cards this seat holds captured
        return g.board[base + CAPTIVES] >= need
    # rows_equal: every row holds the same number of active cards, at least `need`
    rows = g.board[base + ROW_N : base + ROW_N + spec.rows]
    return rows[0] >= need and rows.count(rows[0]) == len(rows)


def active_count(g: Table, seat: int) -> int:
    """Active (face-up, uncaptured) cards in `seat`'s army."""
    return g.board[seat * g.spec.board_stride + ACTIVE_N]


def end_game(g: Table, winner: int, win_type: str) -> None:
    g.over = True
    g.winner = winner
    g.win_type = win_type
    g.todo.clear()
    g.asking = None
    cards = len(g.spec.card_level)
    stuck = g.stuck
    while stuck:  # its set bits, lowest first
        low = stuck & -stuck
        seat, card = divmod(low.bit_length() - 1, cards)
        g.log.append((g.turn, seat, card, NO_LEGAL_PLAY, 1))
        stuck ^= low


def stop_at_decision_cap(g: Table) -> None:
    """The decision cap (spec §8): more Supremacy wins, then the higher current military."""
    g.capped_decisions = True
    s0, s1 = g.supremacy
    if s0 == s1:
        s0, s1 = military(g, 0), military(g, 1)
    end_game(g, NOBODY if s0 == s1 else 0 if s0 > s1 else 1, "cap_tiebreak")


def game_result(g: Table) -> Result:
    if not g.over:
        raise RuntimeError("the game is not over")
    capped = g.capped_rounds > 0 or g.capped_decisions
    stats = game_stats(g)
    if g.winner == NOBODY:
        return Result.shared([0, 1], 2, g.win_type, g.turn, capped=capped, stats=stats)
    return Result.win(g.winner, 2, g.win_type, g.turn, capped=capped, stats=stats)


def game_stats(g: Table) -> dict[str, float]:
    """Result.stats (spec §9): the keys of Catalog.game_stats that this game has values for."""
    spec = g.spec
    stats: dict[str, float] = {
        "rounds": float(min(g.round, spec.max_rounds)),
        "capped_rounds": float(g.capped_rounds),
        "capped_decisions": float(g.capped_decisions),
    }
    stats.update(zip(TALLY_KEYS, map(float, g.tally)))
    stats["wonder_ties"] = stats["wonder_tie_wins_0"] + stats["wonder_tie_wins_1"]
    stats["shared_ties"] = stats["shared_ties_0"]
    log = g.battle_totals
    rounds = min(len(log) // ROUND_LOG, spec.max_rounds)
    stats.update(zip(_rounds_keys(rounds), map(float, log[: ROUND_LOG * rounds])))
    for seat in (0, 1):
        grid = g.grid[seat]
        stats[SEAT_KEYS[seat][0]] = float(g.supremacy[seat])
        stats[SEAT_KEYS[seat][1]] = float(g.owned[seat])
        stats[SEAT_KEYS[seat][2]] = float(len(grid) - grid.count(EMPTY))
        stats[SEAT_KEYS[seat][3]] = float(active_count(g, seat))
    stats.update(_clan_stats(spec.clan_stat_keys, g.clans[0], g.clans[1], g.flipped, g.picks))
    return stats


# Result.stats keys, spelled once (the order is the order game_stats fills them in): the
# tallies' keys in `Table.tally` order
TALLY_KEYS = tuple(f"{name}_{seat}" for name in STATS for seat in (0, 1))
SEAT_KEYS = tuple(
    (f"supremacy_{seat}", f"owned_tokens_{seat}", f"army_{seat}", f"faceup_{seat}")
    for seat in (0, 1)
)


@cache
def _round_keys(r: int) -> tuple[str, ...]:
    """The keys of round r's ROUND_LOG numbers, in Table.battle_totals order."""
    return (
        f"turns_r{r}",
        f"first_player_r{r}",
        f"first_passer_r{r}",
        f"battle_r{r}_0",
        f"battle_r{r}_1",
        f"veteran_r{r}_0",
        f"veteran_r{r}_1",
    )


@cache
def _rounds_keys(rounds: int) -> tuple[str, ...]:
    """The keys of rounds 1 to `rounds`, in Table.battle_totals order."""
    return tuple(key for r in range(1, rounds + 1) for key in _round_keys(r))


@lru_cache(maxsize=4096)  # drafts' pick orders are many: keep the recent ones
def _clan_stats(
    keys: tuple[tuple[str, str, str], ...],
    clans0: tuple[int, ...],
    clans1: tuple[int, ...],
    flipped: tuple[int, ...],
    picks: tuple[tuple[int, int], ...],
) -> tuple[tuple[str, float], ...]:
    """Per clan (spec.clan_stat_keys), who fields it (1, 2 or 3 for both), whether it is
    flipped and its draft pick (0: none), as stats items: a few setups recur, so once each."""
    pick = {clan: k + 1 for k, (clan, _) in enumerate(picks)}
    items: list[tuple[str, float]] = []
    for index, (fielded, flipped_key, picked) in enumerate(keys):
        items.append(
            (fielded, float((1 if index in clans0 else 0) + (2 if index in clans1 else 0)))
        )
        items.append((flipped_key, float(index in flipped)))
        items.append((picked, float(pick.get(index, 0))))
    return tuple(items)


# -- words -----------------------------------------------------------------------------------


def where(spec: ClansSpec, slot: int) -> str:
    row, column = divmod(slot, spec.row_spaces)
    return f"{ROWS[row]} column {column + 1}"


def describe_option(g: Table, option: tuple[Any, ...]) -> str:
    """An option in the game's words, e.g. `play Chain Warden in troop column 1`."""
    spec = g.spec
    name = spec.card_name
    kind = option[0]
    if kind == PICK:
        return f"pick {spec.clans[option[1]].name}"
    if kind == KEEP:
        return "keep"
    if kind == MULLIGAN_OPT:
        return "mulligan"
    if kind == PLAY:
        return f"play {name[option[1]]} in {where(spec, option[2])}"
    if kind == SHIFT:
        seat = g.asking.seat if g.asking else g.active
        out = g.grid[seat][option[1]]
        return f"shift {name[out]} ({where(spec, option[1])}) for {name[option[2]]}"
    if kind == DRAW_SMALL:
        return "draw_small"
    if kind == DRAW_BIG:
        return "draw_big"
    if kind == ACTIVATE:
        seat = g.asking.seat if g.asking else g.active
        return f"activate {name[g.grid[seat][option[1]]]} ({where(spec, option[1])})"
    if kind == PASS:
        return "pass"
    if kind == PAY_CARD:
        return f"pay {name[option[1]]}"
    if kind == TARGET_CARD:
        seat, slot = option[1], option[2]
        verb = OPS[asked(g)[6].op] if g.asking and g.cont[0] == ANSWER_TARGET else "target"
        face = "" if g.face_up[seat][slot] else "face-down "
        return f"{verb} P{seat + 1} {face}{name[g.grid[seat][slot]]} ({where(spec, slot)})"
    if kind == NONE:
        return "none"
    if kind == DISCARD_CARD:
        return f"discard {name[option[1]]}"
    if kind == SACRIFICE_CARD:
        seat = g.asking.seat if g.asking else g.active
        return f"sacrifice {name[g.grid[seat][option[1]]]} ({where(spec, option[1])})"
    if kind == FREE_PLAY_CARD:
        return f"free_play {name[option[1]]} in {where(spec, option[2])}"
    if kind == FETCH_CARD:
        return f"fetch {name[option[1]]}"
    raise ValueError(f"unknown option {option!r}")


# -- the tasks' handlers ----------------------------------------------------------------------

TASKS.bind(DRAFT, draft_step)
TASKS.bind(MULLIGAN, mulligan_step)
TASKS.bind(ROUND_START, start_round)
TASKS.bind(ACTION, action_step)
TASKS.bind(END_TURN, end_turn_step)
TASKS.bind(ENTRIES, entries_step)
TASKS.bind(TARGET, target_step)
TASKS.bind(PAY, pay_step)
TASKS.bind(DISCARD, discard_step)
TASKS.bind(SACRIFICE, sacrifice_step)
TASKS.bind(FREE_PLAY, free_play_step)
TASKS.bind(FETCH, fetch_step)
TASKS.bind(BATTLE, battle_step)
TASKS.bind(SONG, song_step)
TASKS.bind(ANSWER_DRAFT, draft_pick)
TASKS.bind(ANSWER_MULLIGAN, mulligan)
TASKS.bind(ANSWER_ACTION, act)
TASKS.bind(ANSWER_TARGET, target)
TASKS.bind(ANSWER_PAY, pay)
TASKS.bind(ANSWER_DISCARD, discard_card)
TASKS.bind(ANSWER_SACRIFICE, sacrifice)
TASKS.bind(ANSWER_FREE_PLAY, free_play)
TASKS.bind(ANSWER_FETCH, fetch)
TASKS.check()
