"""Zynalith's rules: a draft round, five rounds of turns and line combat, scoring (spec 3-8).

The game runs on the kit's flow engine (balance/core/flow.py), a stack of steps (state.S_*)
popped and performed until a decision is pending or the game is over. Each step is one rule of the spec, named in its words: `renew`
a market row, `draft_pick`, a `turn` (side actions keep it, a main action ends it), `form_lines`
and `fight` a line (4.3), `state_check` (4.4), `score` (8). A decision that interrupts them (a
counter window, a target, a pile) is `asking` on the state with the step that takes its answer
(`cont`, a KIND_*); `apply` answers it and runs on.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any
from weakref import ref

from balance.core import flow
from balance.core.contract import DRAWN, OPENING, PLAYED, Decision, Result
from balance.core.errors import ConfigError, did_you_mean
from balance.core.eventchain import EventLog
from balance.core.flow import Task
from balance.core.gamerng import GameRng, exact_shuffle
from balance.games.zynalith import heuristics
from balance.games.zynalith.effects import (
    CHARGE,
    FX,
    K_CREATURE,
    K_EQUIPMENT,
    K_EVENT,
    K_PROPERTY,
    K_SPELL,
    LIFESTEAL,
    O_DRAW,
    PIERCE,
    T_COMBAT,
    T_DEATH,
    T_DEFENCE,
    T_EQUIPMENT,
    T_EVENT,
    T_GAME_END,
    T_GREED,
    T_MOURNING,
    T_PROPERTY,
    T_SPELL,
    apply_op,
    clockwise,
    hurt_player,
    line_members,
    push_draws,
    push_refresh,
    resolve_effect,
    resort,
)
from balance.games.zynalith.spec import (
    HOST_ENEMY,
    HOST_NONE,
    HOST_OWN,
    NOT_PLAYED,
    PLAY_CREATURE,
    ROW_BOTH,
    TYPE_CREATURE,
    TYPE_EVENT,
    WINDOW_COMBAT,
    WINDOW_EVENT,
    WINDOW_PLAY,
    ZynalithSpec,
)
from balance.games.zynalith.state import (
    ATK,
    CAPS,
    CHECK_STEP,
    CREATURE_PILE,
    DEF,
    EV_DAMAGE,
    EV_DEATHS,
    EV_KILLS,
    EV_LINE_LOSSES,
    EV_LINE_WINS,
    EV_NEGATED,
    EV_VP,
    EV_ZYNALITH,
    EXTRA_PILE,
    G_CONTESTED,
    G_EVENTS,
    G_EVENTS_NEGATED,
    G_RESHUFFLES,
    G_TIED,
    G_UNOPPOSED,
    GAME_TALLIES,
    HP,
    INIT,
    KIND_COUNTER,
    KIND_DRAFT,
    KIND_PILE,
    KIND_TARGET,
    KIND_TURN,
    RESOLVE_STEP,
    S_CHARGE,
    S_CHECK,
    S_COMBAT,
    S_COMBAT_END,
    S_DRAFT_END,
    S_DRAFT_PICK,
    S_DRAW_BEGIN,
    S_DRAW_END,
    S_EFFECT,
    S_EVENT_DONE,
    S_EVENT_RUN,
    S_EVENT_TRIGGERS,
    S_FIGHT,
    S_FIGHT_HIT,
    S_FIGHT_KAMPF,
    S_FILL_ROW,
    S_GAME_END,
    S_LINE,
    S_LINE_COMBAT,
    S_NEXT_TURN,
    S_PLAY_AFTER,
    S_PLAY_ENTER,
    S_REFRESH,
    S_RESOLVE,
    S_ROUND,
    S_ROUND_END,
    S_SCORE,
    S_TO_HAND,
    S_TURN,
    S_WINDOW,
    S_WINDOW_CLOSE,
    S_WINDOW_OPEN,
    SEAT_TALLIES,
    T_BANISHED,
    T_COUNTERS,
    T_DIED,
    T_FROM_Z,
    T_LINES_LOST,
    T_LINES_WON,
    T_PASSES,
    T_PLAYED,
    T_REDRAWS,
    T_REFUNDED,
    T_SPENT,
    T_TAKEN_MARKET,
    T_TAKEN_PILE,
    T_UNOPPOSED,
    TASKS,
    Creature,
    Ghost,
    Option,
    Step,
    Table,
    Trigger,
)

# Options of a `turn` (and `draft_pick`) decision: (ACTION, args...). Side actions come first.
A_SWAP, A_TOGGLE, A_SELL = 0, 1, 2  # side actions: (A_SWAP, i, j), (A_TOGGLE, i), (A_SELL,)
A_TAKE_MARKET, A_TAKE_PILE = 3, 4  # (A_TAKE_MARKET, row, pos), (A_TAKE_PILE, pile)
A_PLAY_HAND, A_PLAY_MARKET = 5, 6  # (A_PLAY_HAND, card, a, b), (A_PLAY_MARKET, row, pos, a, b)
A_BANISH, A_REDRAW, A_PASS = 7, 8, 9  # (A_BANISH, i), (A_REDRAW, card, row), (A_PASS,)
PASS = (A_PASS,)
# A creature's placement (a, b): a = index among creatures of equal INIT, b = ATTACK or DEFENCE.
# An extra card's placement (a, b): a = the host's owner, b = the host's uid (-1: no host).
ATTACK, DEFENCE = 0, 1
# Options of a `counter` decision: NO_COUNTER, or (1, card, source, pos, host_owner, host_uid)
NO_COUNTER = (0,)
FROM_HAND, FROM_MARKET = 0, 1
KIND_TRIGGER = {K_SPELL: T_SPELL, K_PROPERTY: T_PROPERTY, K_EQUIPMENT: T_EQUIPMENT}
PILE_WORDS = ("creature", "extra")


class Zynalith(Table):
    """A game of Zynalith: the state (state.Table) with the game contract on top."""

    # the values `option_bounds` worked out, for `option_value` asked next of the same state
    __slots__ = ("known",)
    known: list[float | None] | None

    @property
    def turn(self) -> int:
        """Turns begun so far (a main action ends a turn; free actions continue it)."""
        return self.turns

    def decision(self) -> Decision | None:
        return self.asking

    def clone(self, seed: int | None = None) -> Zynalith:
        copy: Zynalith = Table.clone(self, seed)
        asking = copy.asking
        if asking is not None and not asking.listed:
            # a turn decision not listed yet lists from the state that asked it: the copy asks
            # its own (turn_decision)
            copy.asking = turn_decision(asking.seat, copy)
        return copy

    def apply(self, option: int) -> None:
        self.decisions += 1
        flow.resume(self, option, TASKS)  # the answer's step, (KIND_*, context, choice), first
        if not self.over and self.decisions >= self.spec.max_decisions:
            score(self, "decision_cap", capped=True)

    def result(self) -> Result:
        return game_result(self)

    def determinize(self, seat: int, rng: Random) -> Zynalith:
        """A copy in which what `seat` cannot see is reshuffled (4.5): each pile's order together
        with the opponents' hand cards drawn from that pile (sizes kept); the RNG is reseeded."""
        copy = self.clone(rng.getrandbits(64))  # its RNG is made if it draws
        cards = self.spec.cards
        for pile in (CREATURE_PILE, EXTRA_PILE):
            pool = copy.piles[pile][:]
            places: list[tuple[int, int]] = []
            for other in range(self.seats):
                if other == seat:
                    continue
                for i, card in enumerate(copy.hand_secret[other]):
                    if cards[card].pile == pile:
                        places.append((other, i))
                        pool.append(card)
            exact_shuffle(pool, rng)  # the game's shuffle, from the bot's stream
            # events never wait in a hand: deal the hand places from the pool's other cards
            for other, i in places:
                for j in range(len(pool) - 1, -1, -1):
                    if cards[pool[j]].type != TYPE_EVENT:
                        copy.hand_secret[other][i] = pool.pop(j)
                        break
            copy.piles[pile] = pool
        if copy.asking is not None and copy.asking.seat != seat:
            refresh_pending(copy)  # an opponent's options must not show their true hand
        return copy

    evaluate = heuristics.evaluate  # (self, seat): called once per option of a greedy decision

    def option_bounds(self, among: Sequence[int] | None = None) -> list[float | None] | None:
        """Per option of the pending decision (of those `among`, or all), `evaluate` for its
        seat once applied where worked out unapplied (`quiet_values`: the options that change
        only the seat's silver, Z and hand), else None. A hint for the bots (bots/greedy.py)."""
        self.known = known = quiet_values(self, among)
        return known

    def option_value(self, option: int) -> float | None:
        """`evaluate` for the decision's seat once the option is applied, where `option_bounds`
        (asked first, of this state) worked it out, else None."""
        known = self.known
        return None if known is None else known[option]

    def describe(self, option: int) -> str:
        return describe(self, option)

    def public_summary(self) -> str:
        return public_line(self)


# -- setting up --------------------------------------------------------------------------------


def new_game(spec: ZynalithSpec, lineup: Sequence[str], seed: int) -> Zynalith:
    """A new game for len(lineup) players: every seat names the same shared setup (section 3)."""
    seats = len(lineup)
    if not 2 <= seats <= 5:
        raise ConfigError(
            "--seats", None, f"zynalith is played by 2-5 players, not {seats}", "use --seats 2 to 5"
        )
    setup = lineup[0]
    if setup not in spec.setups:
        raise ConfigError(
            "--decks", None, f"unknown setup '{setup}'", did_you_mean(setup, list(spec.setups))
        )
    if any(name != setup for name in lineup):
        raise ConfigError(
            "--decks",
            None,
            "zynalith's setups are shared: name one setup for every seat",
            f"e.g. --decks {setup}",
        )
    rng = GameRng(seed)
    creature_pile, extra_pile = (list(p) for p in spec.setups[setup])
    rng.shuffle(creature_pile)
    rng.shuffle(extra_pile)
    first = spec.first_player
    if first < 0:
        first = rng.stream().randrange(seats)
    elif first >= seats:
        raise ConfigError(
            "rules.first_player",
            None,
            f"seat {first} does not exist with {seats} players",
            "use a smaller seat or random",
        )
    g = Zynalith(
        spec=spec,
        rng=rng,
        seats=seats,
        setup=setup,
        round=0,
        first_player=first,
        start_player=first,
        active=first,
        hp=[spec.start_hp] * seats,
        silver=[spec.start_silver] * seats,
        zyn=[spec.start_zynalith] * seats,
        bonus_vp=[0] * seats,
        alive=[True] * seats,
        passed=[False] * seats,
        main_actions=[0] * seats,
        side_actions=0,
        hand_open=[[] for _ in range(seats)],
        hand_secret=[[] for _ in range(seats)],
        front=[[] for _ in range(seats)],
        slots=0,
        piles=[creature_pile, extra_pile],
        discards=[[], []],
        market=[[], []],
        removed=[],
        limbo=[],
        set_aside=[],
        by_uid={},
        next_uid=0,
        todo=[],
        queue=[],
        resolve_depth=0,
        chain=0,
        draw_depth=0,
        event_chain=0,
        windows=[],
        negated=set(),
        next_ctx=0,
        lines=None,
        ghosts={},
        entering=-1,
        asking=None,
        cont=(),
        decisions=0,
        turns=0,
        over=False,
        end_reason="",
        capped=False,
        winners=(),
        final_vp=[0] * seats,
        cap_hits=[],
        tally=[[0] * len(SEAT_TALLIES) for _ in range(seats)],
        gtally=[0] * len(GAME_TALLIES),
        log=EventLog(),
    )
    g.todo.append((S_ROUND, 1))
    g.todo.append((S_DRAFT_END,))
    g.todo.append((S_DRAFT_PICK, 0))
    push_refresh(g, ROW_BOTH, first)  # deal both market rows; the event player is P_i
    run(g)
    return g


def run(g: Table) -> None:
    """Perform pending steps until a decision is pending or the game is over (or, in a state
    built by hand for a scenario, until no step is left)."""
    flow.run(g, TASKS)


# Entry points for scenarios and tools: start a rule now on a state built by hand.


def start_turn(g: Table, seat: int) -> None:
    """The ACTION phase of the current round, `seat` to act; the round's combat and end follow."""
    g.todo.extend([(S_ROUND_END,), (S_COMBAT,), (S_NEXT_TURN, 1)])
    g.active = seat
    run(g)


def start_combat(g: Table) -> None:
    """The COMBAT phase of the current round now: form the lines and fight them."""
    g.todo.append((S_COMBAT,))
    run(g)


def start_round(g: Table, r: int) -> None:
    """Round `r` from its start (income, start player, renewal) on."""
    g.todo.append((S_ROUND, r))
    run(g)


def end_round_now(g: Table) -> None:
    """ROUND_END now: round effects expire, passed flags and counts reset."""
    g.todo.append((S_ROUND_END,))
    run(g)


def end_game(g: Table) -> None:
    """After the last round: Spielende triggers, a state check, scoring."""
    g.todo.append((S_GAME_END,))
    run(g)


def new_ctx(g: Table) -> int:
    g.next_ctx += 1
    return g.next_ctx


def cap_hit(g: Table, name: str) -> None:
    g.cap_hits = [*g.cap_hits, name]  # shared with clones: replaced, never changed in place


# -- round 0: the draft ------------------------------------------------------------------------


def draft_pick(g: Table, step: Step) -> None:
    """Round 0: `draft_picks` laps clockwise from P_i, one pick each (R3)."""
    k = step[1]
    total = g.spec.draft_picks * g.seats
    while k < total:
        seat = (g.first_player + k) % g.seats
        if g.alive[seat] and g.silver[seat] >= g.spec.draft_cost:
            options = take_options(g)
            if options:
                g.active = seat
                ask(g, seat, KIND_DRAFT, "draft_pick", tuple(options), (k,))
                return
        k += 1  # nothing to pick: the pick is skipped


def apply_draft(g: Table, answer: Task) -> None:
    """(KIND_DRAFT, context, choice): the draft decision's answer."""
    _, ctx, choice = answer
    seat = g.active
    g.todo.append((S_DRAFT_PICK, ctx[0] + 1))
    g.turns += 1
    pay(g, seat, g.spec.draft_cost, 0)
    take(g, seat, choice)


def draft_end(g: Table, step: Step) -> None:
    """The hands after the draft are the players' opening hands."""
    for seat in range(g.seats):
        for card in g.hand_open[seat] + g.hand_secret[seat]:
            g.log.append((0, seat, card, OPENING, 1))


def take_options(g: Table) -> list[Option]:
    """Each market card (once per card id and row) and the top of each pile that, with its
    discard, still has cards."""
    options: list[Option] = []
    for row in (CREATURE_PILE, EXTRA_PILE):
        market = g.market[row]
        for pos, card in enumerate(market):
            if market.index(card) == pos:  # the first copy stands for all
                options.append(TAKES[row][pos])
    if g.piles[CREATURE_PILE] or g.discards[CREATURE_PILE]:
        options.append(TAKE_CREATURE_PILE)
    if g.piles[EXTRA_PILE] or g.discards[EXTRA_PILE]:
        options.append(TAKE_EXTRA_PILE)
    return options


TAKES = tuple(tuple((A_TAKE_MARKET, row, pos) for pos in range(64)) for row in (0, 1))
TAKE_CREATURE_PILE = (A_TAKE_PILE, CREATURE_PILE)
TAKE_EXTRA_PILE = (A_TAKE_PILE, EXTRA_PILE)


def take(g: Table, seat: int, choice: Option) -> None:
    """A market card goes to the hand openly; a pile's top card secretly (events on the way
    execute and the draw goes on)."""
    if choice[0] == A_TAKE_MARKET:
        card = g.market[choice[1]].pop(choice[2])
        add_to_hand(g, seat, card, secret=False)
        g.tally[seat][T_TAKEN_MARKET] += 1
    else:
        g.tally[seat][T_TAKEN_PILE] += 1
        push_draws(g, choice[1], 1, [seat])


def add_to_hand(g: Table, seat: int, card: int, secret: bool) -> None:
    (g.hand_secret if secret else g.hand_open)[seat].append(card)
    if g.round > 0:
        g.log.append((g.round, seat, card, DRAWN, 1))


def pay(g: Table, seat: int, silver: int, zynalith: int) -> None:
    g.silver[seat] -= silver
    g.zyn[seat] -= zynalith
    g.tally[seat][T_SPENT] += silver


# -- rounds 1..5 -------------------------------------------------------------------------------


def begin_round(g: Table, step: Step) -> None:
    """ROUND_START: slots, income, the start player P_(i+r), a renewed market (R4)."""
    spec = g.spec
    r = step[1]
    g.round = r
    g.slots = spec.slots_by_round[r - 1]
    g.ghosts = {}
    for seat in range(g.seats):
        if g.alive[seat]:
            g.silver[seat] += spec.income_per_round
    start = (g.first_player + r) % g.seats
    while not g.alive[start]:
        start = (start + 1) % g.seats
    g.start_player = g.active = start
    g.todo.append((S_ROUND, r + 1) if r < spec.rounds else (S_GAME_END,))
    g.todo.append((S_ROUND_END,))
    g.todo.append((S_COMBAT,))
    g.todo.append((S_NEXT_TURN, 1))
    push_refresh(g, ROW_BOTH, start)


def next_turn(g: Table, step: Step) -> None:
    """Turns go clockwise from the start player among players who have not passed (G2)."""
    n = g.seats
    alive = g.alive
    passed = g.passed
    active = g.active
    for i in range(0 if step[1] else 1, n + 1):
        seat = (active + i) % n
        if alive[seat] and not passed[seat]:
            g.active = seat
            g.side_actions = 0
            turn(g, TURN_STEP)  # what the step (S_TURN,) on top of the stack would do next
            return


TURN_STEP = (S_TURN,)
NEXT_TURN_STEP = (S_NEXT_TURN, 0)  # after a main action: the next seat's turn
TURN_ANSWER = (KIND_TURN, ())  # the step that takes a turn decision's answer


def turn(g: Table, step: Step) -> None:
    seat = g.active
    spec = g.spec
    if g.main_actions[seat] >= spec.max_main_actions_per_round:
        cap_hit(g, "max_main_actions_per_round")
        ask(g, seat, KIND_TURN, "turn", (PASS,), ())
        return
    if g.side_actions >= spec.max_side_actions_per_turn:
        cap_hit(g, "max_side_actions_per_turn")
    flow.ask(g, turn_decision(seat, g), TURN_ANSWER)


def turn_decision(seat: int, g: Table) -> Decision:
    """A `turn` decision that lists its options when they are first read, from the state that
    asked it (which does not change before: `apply` reads the options first).

    A search bot applies each option to a copy and mostly reads only who decides next and what
    kind of decision it is; listing every option of that next turn is most of the work of a
    turn, so it is done only when asked for. A clone shares a listed decision and its options;
    a clone of a state whose decision is not listed yet asks its own (`Zynalith.clone`), as the
    contract asks of a lister that reads its state.

    The decision reaches its state by a weak reference because the state holds its decision: a
    strong one would make every copy a search discards without reading its next options a
    reference cycle, left for the cyclic garbage collector (in greedy games, a million objects
    per ten games and a tenth of their time)."""
    return Decision.lazy(seat, "turn", list_turn, ref(g), seat)


def list_turn(asker: ref[Table], seat: int) -> tuple[Option, ...]:
    """The options of the turn decision `asker` asked of `seat`."""
    g = asker()
    if g is None:
        raise RuntimeError(
            "the state that asked this turn decision is gone: read its options first"
        )
    return turn_options(g, seat)


def turn_options(g: Table, seat: int) -> tuple[Option, ...]:
    """Side actions (below the side cap), then main actions, then `pass` (4.1).

    Every turn decision of a game lists these, so the listing runs one pass over each market
    row for both its takes and its plays, one pass over the hand for both its plays and its
    redraws, and reads each creature's INIT once. The option tuples that recur (takes, toggles,
    banishes, a creature's placements, redraws) are made once per game session and shared."""
    spec = g.spec
    if g.main_actions[seat] >= spec.max_main_actions_per_round:
        return ONLY_PASS
    front = g.front[seat]
    n = len(front)
    # INIT per creature, left to right (stats never go below 0): for swaps and placements
    inits = [v if (v := c.cur[INIT]) > 0 else 0 for c in front]
    zyn = g.zyn[seat]
    options: list[Option] = []
    append = options.append
    extend = options.extend
    if g.side_actions < spec.max_side_actions_per_turn:
        for i in range(n - 1):
            init = inits[i]
            if inits[i + 1] != init:
                continue  # most neighbours differ: no swap starts here
            for j in range(i + 1, n):
                if inits[j] != init:
                    break
                append((A_SWAP, i, j))
        extend(TOGGLES[n] if n < len(TOGGLES) else [(A_TOGGLE, i) for i in range(n)])
        if zyn >= 1:
            append(SELL)
    silver = g.silver[seat]
    takes = silver >= spec.take_cost
    free = n < g.slots
    plays = spec.plays
    host_lists: list[list[Creature] | None] = [None, None, None]
    # the market's plays come after the hand's: listed here, in the same pass as the takes
    market_plays: list[Option] = []
    for row in (CREATURE_PILE, EXTRA_PILE):
        cards_in_row = g.market[row]
        row_takes = TAKES[row]
        placements = MARKET_PLAYS[row]
        for pos, card in enumerate(cards_in_row):
            if cards_in_row.index(card) != pos:
                continue  # the first copy stands for all
            if takes:
                append(row_takes[pos])
            price, zprice, how, init = plays[card]
            if price > silver or zprice > zyn or how == NOT_PLAYED:
                continue
            if how == PLAY_CREATURE:
                if free:
                    key = pos << 16 | inits.count(init)
                    placed = placements.get(key)
                    if placed is None:
                        placed = placements[key] = market_creature_plays(
                            row, pos, inits.count(init)
                        )
                    market_plays.extend(placed)
            else:
                found = host_lists[how]
                if found is None:
                    found = host_lists[how] = hosts(g, seat, how)
                for host in found:
                    market_plays.append((A_PLAY_MARKET, row, pos, host.owner, host.uid))
    if takes:
        if g.piles[CREATURE_PILE] or g.discards[CREATURE_PILE]:
            append(TAKE_CREATURE_PILE)
        if g.piles[EXTRA_PILE] or g.discards[EXTRA_PILE]:
            append(TAKE_EXTRA_PILE)
    hand_open = g.hand_open[seat]
    hand = hand_open + g.hand_secret[seat] if hand_open else g.hand_secret[seat]
    distinct = dict.fromkeys(hand) if len(hand) > 1 else hand
    redraws: list[Option] = []
    for card in distinct:
        cached = REDRAWS.get(card)
        if cached is None:
            cached = REDRAWS[card] = ((A_REDRAW, card, CREATURE_PILE), (A_REDRAW, card, EXTRA_PILE))
        redraws.extend(cached)
        price, zprice, how, init = plays[card]
        if price > silver or zprice > zyn or how == NOT_PLAYED:
            continue
        if how == PLAY_CREATURE:
            if free:
                key = card << 16 | inits.count(init)
                placed = CREATURE_PLAYS.get(key)
                if placed is None:
                    placed = CREATURE_PLAYS[key] = creature_plays(card, inits.count(init))
                extend(placed)
        else:
            found = host_lists[how]
            if found is None:
                found = host_lists[how] = hosts(g, seat, how)
            for host in found:
                append((A_PLAY_HAND, card, host.owner, host.uid))
    extend(market_plays)
    extend(BANISHES[n] if n < len(BANISHES) else [(A_BANISH, i) for i in range(n)])
    extend(redraws)
    append(PASS)
    return tuple(options)


def quiet_values(g: Zynalith, among: Sequence[int] | None) -> list[float | None] | None:
    """Per option of the pending turn or draft decision (of those `among`, or all), `evaluate`
    for its seat once applied, for the options that change nothing `evaluate` reads but the
    seat's own silver, Z and hand (heuristics.OwnChanges), else None; None where none does.

    They are: selling Z; taking a market card, or a pile's top card that is no event (nothing
    else is drawn); a redraw whose row is drawn full from the pile's top without an event; a
    pass after which another seat's turn follows (not the combat). A draft pick is one of them
    only where the next pick follows it (not the first round). The decision cap must not end
    the game on the way."""
    d = g.asking
    if d is None or g.over or g.decisions + 1 >= g.spec.max_decisions:
        return None
    kind = g.cont[0]
    if kind != KIND_TURN and (kind != KIND_DRAFT or not next_pick_follows(g, g.cont[1][0])):
        return None
    spec = g.spec
    seat = d.seat
    options = d.options
    cards = spec.cards
    silver, zyn = g.silver[seat], g.zyn[seat]
    opened, hidden = g.hand_open[seat], g.hand_secret[seat]
    price = spec.take_cost if kind == KIND_TURN else spec.draft_cost
    drawn = g.event_chain < spec.max_event_chain  # else a draw is capped before its first card
    row_size = spec.market_row_size
    piles = g.piles
    change = heuristics.OwnChanges(g, seat)
    values: list[float | None] = [None] * len(options)
    known = False
    for i in range(len(options)) if among is None else among:
        option = options[i]
        action = option[0]
        if action not in QUIET:
            continue  # most options: plays, toggles, banishes
        value = None
        if action == A_TAKE_MARKET:
            card = g.market[option[1]][option[2]]
            value = change.value(silver - price, zyn, [*opened, card], hidden)
        elif action == A_TAKE_PILE:
            pile = piles[option[1]]
            if drawn and pile and cards[pile[-1]].type != TYPE_EVENT:
                value = change.value(silver - price, zyn, opened, [*hidden, pile[-1]])
        elif action == A_REDRAW:
            pile = piles[option[2]]
            if (
                drawn
                and len(pile) >= row_size
                and all(cards[card].type != TYPE_EVENT for card in pile[len(pile) - row_size :])
            ):
                card = option[1]
                if card in opened:
                    value = change.value(silver, zyn, _without(opened, card), hidden)
                else:
                    value = change.value(silver, zyn, opened, _without(hidden, card))
        elif action == A_PASS:
            if any(g.alive[s] and not g.passed[s] for s in range(g.seats) if s != seat):
                value = change.value(silver, zyn, opened, hidden)
        elif action == A_SELL:
            value = change.value(silver + spec.zynalith_sell_price, zyn - 1, opened, hidden)
        if value is not None:
            values[i] = value
            known = True
    return values if known else None


# the actions `quiet_values` may know the value of
QUIET = frozenset((A_SELL, A_TAKE_MARKET, A_TAKE_PILE, A_REDRAW, A_PASS))


def _without(hand: list[int], card: int) -> list[int]:
    """`hand` less the first copy of `card` (as `list.remove`)."""
    rest = hand[:]
    rest.remove(card)
    return rest


def next_pick_follows(g: Table, k: int) -> bool:
    """Whether draft pick `k + 1` surely follows pick `k`, whatever pick `k` takes: its seat can
    pay and, with at least two market cards now, will have one to take."""
    if k + 1 >= g.spec.draft_picks * g.seats:
        return False
    seat = (g.first_player + k + 1) % g.seats
    return (
        g.alive[seat]
        and g.silver[seat] >= g.spec.draft_cost
        and len(g.market[CREATURE_PILE]) + len(g.market[EXTRA_PILE]) >= 2
    )


def creature_plays(card: int, same: int) -> tuple[Option, ...]:
    """Playing creature `card` from hand with `same` creatures of its INIT in the front: each
    place among them, in attack or defence."""
    return tuple((A_PLAY_HAND, card, a, b) for a in range(same + 1) for b in (ATTACK, DEFENCE))


def market_creature_plays(row: int, pos: int, same: int) -> tuple[Option, ...]:
    """As `creature_plays`, for the creature at `pos` in market `row`."""
    return tuple(
        (A_PLAY_MARKET, row, pos, a, b) for a in range(same + 1) for b in (ATTACK, DEFENCE)
    )


# Option tuples that recur in every game, made once: TOGGLES[n] and BANISHES[n] for a front of n;
# a creature's placements (creature_plays) by `card << 16 | same` (hand) and, per market row,
# by `pos << 16 | same`; a hand card's two redraws by card.
TOGGLES = tuple(tuple((A_TOGGLE, i) for i in range(n)) for n in range(65))
BANISHES = tuple(tuple((A_BANISH, i) for i in range(n)) for n in range(65))
SELL = (A_SELL,)
ONLY_PASS = (PASS,)
CREATURE_PLAYS: dict[int, tuple[Option, ...]] = {}
MARKET_PLAYS: tuple[dict[int, tuple[Option, ...]], ...] = ({}, {})
REDRAWS: dict[int, tuple[Option, ...]] = {}


def hosts(g: Table, seat: int, host: int) -> list[Creature]:
    """Legal hosts of an extra card with `host` rule (G7): own, enemy or any creature with room
    for it."""
    found: list[Creature] = []
    limit = g.spec.max_attachments
    front = g.front
    for owner in clockwise(g, seat):
        if (host == HOST_OWN and owner != seat) or (host == HOST_ENEMY and owner == seat):
            continue
        if limit:
            found += [c for c in front[owner] if len(c.attachments) < limit]
        else:
            found += front[owner]
    return found


def apply_turn(g: Table, answer: Task) -> None:
    """(KIND_TURN, (), choice): the turn decision's answer."""
    choice = answer[2]
    seat = g.active
    action = choice[0]
    if action <= A_SELL:  # a side action keeps the turn
        g.side_actions += 1
        front = g.front[seat]
        if action == A_SWAP:
            i, j = choice[1], choice[2]
            front[i], front[j] = front[j], front[i]
        elif action == A_TOGGLE:
            c = g.own(front[choice[1]])
            c.attack = not c.attack
            c.epoch += 1
        else:
            sell_zynalith(g, seat)
        turn(g, TURN_STEP)  # the same seat's turn goes on
        return
    g.turns += 1
    g.main_actions[seat] += 1
    g.todo.append(NEXT_TURN_STEP)
    if action == A_PASS:
        g.passed[seat] = True
        g.tally[seat][T_PASSES] += 1
    elif action == A_TAKE_MARKET or action == A_TAKE_PILE:
        pay(g, seat, g.spec.take_cost, 0)
        take(g, seat, choice)
    elif action == A_PLAY_HAND:
        play(g, seat, choice[1], FROM_HAND, -1, choice[2], choice[3], counter=False)
    elif action == A_PLAY_MARKET:
        card = g.market[choice[1]][choice[2]]
        play(g, seat, card, FROM_MARKET, choice[2], choice[3], choice[4], counter=False)
    elif action == A_BANISH:
        banish(g, g.front[seat][choice[1]])
    else:
        redraw(g, seat, choice[1], choice[2])


def sell_zynalith(g: Table, seat: int) -> None:
    g.zyn[seat] -= 1
    g.silver[seat] += g.spec.zynalith_sell_price
    g.tally[seat][T_FROM_Z] += g.spec.zynalith_sell_price


def banish(g: Table, c: Creature) -> None:
    """Remove an own creature from the game for its cost - 1 (R7, G11): no Tod, no Trauer."""
    seat = c.owner
    g.front[seat].remove(c)
    del g.by_uid[c.uid]
    g.removed = [*g.removed, c.card]  # shared with clones: replaced, never changed in place
    g.discards[EXTRA_PILE].extend(a[1] for a in c.attachments)
    refund(g, c)
    g.tally[seat][T_BANISHED] += 1


def refund(g: Table, c: Creature) -> None:
    back = c.cost - g.spec.refund_offset
    if back > 0:
        g.silver[c.owner] += back
        g.tally[c.owner][T_REFUNDED] += back


def redraw(g: Table, seat: int, card: int, row: int) -> None:
    """Discard a hand card to redraw one market row (R7)."""
    hand = g.hand_open[seat] if card in g.hand_open[seat] else g.hand_secret[seat]
    hand.remove(card)
    g.discards[g.spec.cards[card].pile].append(card)
    g.tally[seat][T_REDRAWS] += 1
    g.todo.append((S_REFRESH, row, seat))


# -- playing a card (4.2) ----------------------------------------------------------------------


def play(
    g: Table, seat: int, card: int, source: int, pos: int, a: int, b: int, counter: bool
) -> None:
    """Pay and play `card` from hand or market (steps 1-3); a counter skips the play window."""
    cd = g.spec.cards[card]
    pay(g, seat, cd.silver, cd.zynalith)
    if source == FROM_HAND:
        hand = g.hand_open[seat] if card in g.hand_open[seat] else g.hand_secret[seat]
        hand.remove(card)
    else:
        g.market[EXTRA_PILE if cd.type != TYPE_CREATURE else CREATURE_PILE].pop(pos)
        # bought straight from the market: for card statistics the seat acquired the card as
        # surely as one taken into the hand first (GIH counts the cards a seat gets)
        g.log.append((g.round, seat, card, DRAWN, 1))
    g.limbo.append(card)
    g.log.append((g.round, seat, card, PLAYED, 1))
    if cd.type == TYPE_CREATURE:
        g.tally[seat][T_PLAYED] += 1
    if counter:
        g.tally[seat][T_COUNTERS] += 1
    g.next_ctx += 1
    ctx = g.next_ctx
    g.todo.append((S_PLAY_ENTER, ctx, card, seat, a, b))
    if not counter and window_opens(g, WINDOW_PLAY):
        seats = tuple(s for s in clockwise(g, (seat + 1) % g.seats) if s != seat)
        open_window(g, WINDOW_PLAY, ctx, cd.kind, seats)


def play_enter(g: Table, step: Step) -> None:
    """Steps 4-5: the creature enters the front at its placement (not checked for death until
    its Sofort effects are done) or the extra card attaches; then its instant effects."""
    _, ctx, card, seat, a, b = step
    spec = g.spec
    cd = spec.cards[card]
    if ctx in g.negated:
        g.limbo.remove(card)
        g.discards[cd.pile].append(card)
        g.log.append((g.round, seat, card, EV_NEGATED, 1))
        return
    attack = False
    if cd.type == TYPE_CREATURE:
        uid = g.next_uid
        g.next_uid += 1
        init = cd.stats[INIT]
        front = g.front[seat]
        before = same = 0
        for c in front:
            value = c.stat(INIT)
            if value > init:
                before += 1
            elif value == init:
                same += 1
        attack = b == ATTACK
        creature = Creature(uid, card, seat, attack, cd.stats, cd.keywords, cd.silver)
        front.insert(before + min(a, same), creature)
        g.by_uid[uid] = creature
        g.adopt(uid)
        g.limbo.remove(card)
        g.entering = uid
        self_uid = src = uid
    elif cd.host == HOST_NONE:
        self_uid = -1
        src = g.next_uid
        g.next_uid += 1
    else:
        host = g.by_uid.get(b)
        if host is None:  # the host left play meanwhile: nothing to attach to
            g.limbo.remove(card)
            g.discards[EXTRA_PILE].append(card)
            return
        src = g.next_uid
        g.next_uid += 1
        host = g.own(host)
        host.attachments = [*host.attachments, (src, card, seat)]  # shared with copies
        g.limbo.remove(card)
        self_uid = host.uid
    g.todo.append((S_PLAY_AFTER, card, seat, self_uid, src, attack))
    for fx in reversed(cd.on[0]):
        g.todo.append((S_EFFECT, (fx, card, src, self_uid, seat, -1, -1, -1, -1, 0, 0)))


def play_after(g: Table, step: Step) -> None:
    """Steps 6-7: state check, kind and Gier triggers, the queue; then Sturmangriff."""
    _, card, seat, self_uid, src, attack = step
    g.entering = -1
    state_check(g)
    if g.over:
        return
    cd = g.spec.cards[card]
    if cd.is_extra and cd.host == HOST_NONE:
        g.limbo.remove(card)
        g.discards[EXTRA_PILE].append(card)
    if cd.is_extra:
        raise_trigger(g, KIND_TRIGGER[cd.kind], self_uid, seat, src, cd.kind)
    if cd.greedy:
        raise_trigger(g, T_GREED, self_uid, seat, src, cd.kind)
    if attack and cd.keywords & CHARGE and g.spec.charge_on_entry:
        g.todo.append((S_CHARGE, self_uid))
    resolve_next(g)


def charge(g: Table, step: Step) -> None:
    g.todo.append((S_LINE_COMBAT, step[1]))


# -- counter windows (G8) ----------------------------------------------------------------------


def window_opens(g: Table, window: int) -> bool:
    """Whether a window of this kind opens now: it is in play and one of its counters is within
    reach (asked before its seats are listed: most plays and events open none)."""
    spec = g.spec
    counters = spec.counters[window]
    return bool((spec.counter_windows >> window) & 1 and counters) and any_counter_in_reach(
        g, counters
    )


def open_window(g: Table, window: int, ctx: int, subject_kind: int, seats: tuple[int, ...]) -> None:
    """Offer each eligible player, in `seats` order, up to `counters_per_window` counters (a
    window that `window_opens`)."""
    if not seats:
        return
    g.todo.append((S_WINDOW_CLOSE,))
    g.todo.append((S_WINDOW, window, ctx, subject_kind, seats, 0, 0))
    g.todo.append((S_WINDOW_OPEN, ctx))


def any_counter_in_reach(g: Table, counters: frozenset[int]) -> bool:
    """Whether any counter of the window is in the extra market row or in a hand (asked at
    every play and event: set operations keep it short)."""
    if not counters.isdisjoint(g.market[EXTRA_PILE]):
        return True
    for seat in range(g.seats):
        if not counters.isdisjoint(g.hand_open[seat]) or not counters.isdisjoint(
            g.hand_secret[seat]
        ):
            return True
    return False


def window_open(g: Table, step: Step) -> None:
    g.windows = [*g.windows, step[1]]  # shared with clones: replaced, never changed in place


def window_close(g: Table, step: Step) -> None:
    g.windows = g.windows[:-1]


def window(g: Table, step: Step) -> None:
    _, kind, ctx, subject_kind, seats, i, used = step
    if ctx in g.negated:
        return
    limit = g.spec.counters_per_window
    while i < len(seats):
        seat = seats[i]
        if g.alive[seat] and used < limit:
            options = counter_options(g, seat, kind, subject_kind)
            if options:
                ask(
                    g,
                    seat,
                    KIND_COUNTER,
                    "counter",
                    (NO_COUNTER, *options),
                    (kind, ctx, subject_kind, seats, i, used),
                )
                return
        i += 1
        used = 0


def counter_options(g: Table, seat: int, window: int, subject_kind: int) -> list[Option]:
    """Affordable counters in hand or market that fit the window and its subject."""
    counters = g.spec.counters[window]
    offers = [(card, FROM_HAND, -1) for card in g.hand_open[seat] if card in counters]
    offers.extend((card, FROM_HAND, -1) for card in g.hand_secret[seat] if card in counters)
    market = g.market[EXTRA_PILE]
    offers.extend((card, FROM_MARKET, pos) for pos, card in enumerate(market) if card in counters)
    if not offers:
        return []
    cards = g.spec.cards
    silver, zyn = g.silver[seat], g.zyn[seat]
    options: list[Option] = []
    seen: set[tuple[int, int]] = set()
    for card, source, pos in offers:
        if (card, source) in seen:
            continue  # copies of a card in one place are one choice
        seen.add((card, source))
        cd = cards[card]
        if cd.silver > silver or cd.zynalith > zyn:
            continue
        if window != WINDOW_COMBAT and not (cd.counter_subjects >> subject_kind) & 1:
            continue
        if cd.host == HOST_NONE:
            options.append((1, card, source, pos, -1, -1))
        else:
            for host in hosts(g, seat, cd.host):
                options.append((1, card, source, pos, host.owner, host.uid))
    return options


def apply_counter(g: Table, answer: Task) -> None:
    """(KIND_COUNTER, context, choice): the counter decision's answer."""
    _, ctx, choice = answer
    kind, wctx, subject_kind, seats, i, used = ctx
    if choice[0] == 0:
        g.todo.append((S_WINDOW, kind, wctx, subject_kind, seats, i + 1, 0))
        return
    g.todo.append((S_WINDOW, kind, wctx, subject_kind, seats, i, used + 1))
    _, card, source, pos, _owner, host_uid = choice
    play(g, seats[i], card, source, pos, -1, host_uid, counter=True)


# -- market and piles (R5, G6) -----------------------------------------------------------------


def draw_top(g: Table, pile: int) -> int:
    """The top card of a pile (an empty pile reshuffles its discard first), or -1."""
    cards = g.piles[pile]
    if not cards:
        discard = g.discards[pile]
        if not discard:
            return -1
        cards.extend(discard)
        discard.clear()
        g.rng.shuffle(cards)
        g.gtally[G_RESHUFFLES] += 1
    return cards.pop()


def renew(g: Table, step: Step) -> None:
    """Discard a market row and draw it full (renewal, redraw, refresh_market)."""
    _, row, event_player = step
    g.discards[row].extend(g.market[row])
    g.market[row].clear()
    todo = g.todo
    below = len(todo)
    g.draw_depth += 1  # S_DRAW_BEGIN, then S_FILL_ROW, done at once
    fill_row(g, (S_FILL_ROW, row, event_player, g.spec.market_row_size))
    if len(todo) == below:  # the row is full (or capped) without an event: the draw ends now
        draw_end(g, DRAW_END_STEP)
    else:  # an event interrupted: the draw ends after the rest of the row is drawn
        todo.insert(below, DRAW_END_STEP)


def fill_row(g: Table, step: Step) -> None:
    """Draw a market row up to `remaining` more cards; a drawn event interrupts (G6)."""
    _, row, event_player, remaining = step
    spec = g.spec
    cards = spec.cards
    market = g.market[row]
    pile = g.piles[row]
    chain_cap = spec.max_event_chain
    while remaining > 0:
        if g.event_chain >= chain_cap:
            cap_hit(g, "max_event_chain")
            return
        card = pile.pop() if pile else draw_top(g, row)  # draw_top reshuffles into `pile`
        if card < 0:
            return
        if cards[card].type == TYPE_EVENT:
            left = remaining if spec.event_draw_replaces else remaining - 1
            g.todo.append((S_FILL_ROW, row, event_player, left))
            reveal_event(g, card, event_player)
            return
        market.append(card)
        remaining -= 1


def to_hand(g: Table, step: Step) -> None:
    """Draw `remaining` cards from a pile into a hand, secretly; events execute on the way."""
    _, pile, seat, remaining = step
    if remaining <= 0 or not g.alive[seat]:
        return
    if g.event_chain >= g.spec.max_event_chain:
        cap_hit(g, "max_event_chain")
        return
    card = draw_top(g, pile)
    if card < 0:
        return
    if g.spec.cards[card].type == TYPE_EVENT:
        left = remaining if g.spec.event_draw_replaces else remaining - 1
        g.todo.append((S_TO_HAND, pile, seat, left))
        reveal_event(g, card, seat)
    else:
        add_to_hand(g, seat, card, secret=True)
        if remaining > 1:
            g.todo.append((S_TO_HAND, pile, seat, remaining - 1))


DRAW_END_STEP = (S_DRAW_END,)


def draw_begin(g: Table, step: Step) -> None:
    g.draw_depth += 1


def draw_end(g: Table, step: Step) -> None:
    """The end of a draw; at the end of the outermost one, the events it executed join their
    piles' discards (G6 as amended)."""
    g.draw_depth -= 1
    if g.draw_depth == 0:
        g.event_chain = 0
        if g.set_aside:
            cards = g.spec.cards
            for card in g.set_aside:
                g.discards[cards[card].pile].append(card)
            g.set_aside = []  # shared with clones: replaced


def reveal_event(g: Table, card: int, event_player: int) -> None:
    """A drawn event: the event window, then (unless negated) its effects and `event` triggers."""
    g.event_chain += 1
    g.limbo.append(card)
    ctx = new_ctx(g)
    g.todo.append((S_EVENT_RUN, ctx, card, event_player))
    if window_opens(g, WINDOW_EVENT):
        open_window(g, WINDOW_EVENT, ctx, K_EVENT, clockwise(g, event_player))


def event_run(g: Table, step: Step) -> None:
    _, ctx, card, event_player = step
    cd = g.spec.cards[card]
    if ctx in g.negated:
        g.limbo.remove(card)
        g.discards[cd.pile].append(card)
        g.gtally[G_EVENTS_NEGATED] += 1
        g.log.append((g.round, event_player, card, EV_NEGATED, 1))
        return
    g.gtally[G_EVENTS] += 1
    g.log.append((g.round, event_player, card, PLAYED, 1))
    g.todo.append((S_EVENT_DONE, card))
    g.todo.append(RESOLVE_STEP)
    g.todo.append((S_EVENT_TRIGGERS, card, event_player))
    for fx in reversed(cd.on[0]):
        g.todo.append((S_EFFECT, (fx, card, -1, -1, event_player, -1, -1, -1, K_EVENT, 0, 0)))


def event_triggers(g: Table, step: Step) -> None:
    raise_trigger(g, T_EVENT, -1, step[2], -1, K_EVENT)


def event_done(g: Table, step: Step) -> None:
    """An executed event waits out the draw that drew it (G6 as amended: each event executes
    at most once per draw, so a reshuffle in the middle of the draw cannot bring it back)."""
    card = step[1]
    g.limbo.remove(card)
    if g.draw_depth > 0:
        g.set_aside = [*g.set_aside, card]  # shared with clones: replaced
    else:  # an event run outside any draw (a scenario built by hand): nothing to wait for
        g.discards[g.spec.cards[card].pile].append(card)


# -- triggers (R14, G17) -----------------------------------------------------------------------


def raise_trigger(
    g: Table, trigger: int, subj_uid: int, subj_player: int, subj_inst: int, subj_kind: int
) -> None:
    """Queue `trigger` for every card in play that has it: controllers clockwise from the active
    player, then front position left to right, attachments after their host (G17)."""
    having = g.spec.with_trigger[trigger]
    if not having:
        return
    cards = g.spec.cards
    found: list[Trigger] = []
    foreign = False
    for seat in clockwise(g, g.active):
        for c in g.front[seat]:
            if c.card in having:
                for fx in cards[c.card].on[trigger]:
                    t = (fx, c.card, c.uid, c.uid, seat)
                    found.append((*t, subj_uid, subj_player, subj_inst, subj_kind, 0, 1))
            for att_uid, card, controller in c.attachments:
                if card in having:
                    foreign = foreign or controller != seat
                    for fx in cards[card].on[trigger]:
                        t = (fx, card, att_uid, c.uid, controller)
                        found.append((*t, subj_uid, subj_player, subj_inst, subj_kind, 0, 1))
    enqueue(g, found, foreign)


def creature_triggers(
    g: Table, c: Creature, trigger: int, subj_uid: int, subj_player: int, check: int, epoch: int
) -> list[Trigger]:
    """`trigger` of one creature and its attachments (combat, defence, death), in that order."""
    cards = g.spec.cards
    found = [
        (fx, c.card, c.uid, c.uid, c.owner, subj_uid, subj_player, c.uid, K_CREATURE, epoch, check)
        for fx in cards[c.card].on[trigger]
    ]
    for att_uid, card, controller in c.attachments:
        for fx in cards[card].on[trigger]:
            t = (fx, card, att_uid, c.uid, controller)
            found.append((*t, subj_uid, subj_player, att_uid, K_CREATURE, epoch, check))
    return found


def enqueue(g: Table, found: list[Trigger], foreign: bool) -> None:
    """Append triggers raised together to the queue; when some belong to another controller
    than the front they sit on, order them by controller clockwise from the active player
    (stable: front position and attach order are kept within a controller)."""
    if foreign and len(found) > 1:
        n = g.seats
        active = g.active
        found.sort(key=lambda t: (t[CONTROLLER_AT] - active) % n)
    g.queue.extend(found)


CONTROLLER_AT = 4  # a trigger tuple's controller (effects.CONTROLLER)


def resolve_next(g: Table) -> None:
    """The waiting triggers resolve next: RESOLVE_STEP goes on top of the stack, unless no
    trigger waits. Then that step would do nothing (its depth goes up and back down, and the
    chain count is 0 already whenever the depth is back to 0), and most plays and combat rounds
    raise none: skipping it saves a step on the stack."""
    if g.queue:
        g.todo.append(RESOLVE_STEP)


def resolve_queue(g: Table, step: Step) -> None:
    """Resolve waiting triggers oldest first; new ones join the end (FIFO). The outermost
    queue drops all that still wait once `max_trigger_chain` triggers have resolved."""
    if not step[1]:
        g.resolve_depth += 1
    queue = g.queue
    if queue:
        trigger = queue.pop(0)
        g.chain += 1
        if g.chain <= g.spec.max_trigger_chain:
            g.todo.append((S_RESOLVE, 1))
            g.todo.append((S_EFFECT, trigger))
            return
        queue.clear()
        cap_hit(g, "max_trigger_chain")
    g.resolve_depth -= 1
    if g.resolve_depth == 0:
        g.chain = 0


def effect(g: Table, step: Step) -> None:
    resolve_effect(g, step[1])


def apply_target(g: Table, answer: Task) -> None:
    """(KIND_TARGET, context, choice): the target decision's answer."""
    _, ctx, choice = answer
    target = g.by_uid[choice[2]] if choice[0] == 0 else choice[1]
    g.todo.append(CHECK_STEP)
    apply_op(g, ctx, ctx[FX], [target])


def apply_pile(g: Table, answer: Task) -> None:
    """(KIND_PILE, context, choice): the pile decision's answer."""
    _, ctx, choice = answer
    op, count, targets, controller = ctx
    if op == O_DRAW:
        push_draws(g, choice[0], count, list(targets))
    else:
        push_refresh(g, choice[0], controller)


# -- combat (R13, 4.3) -------------------------------------------------------------------------


def form_lines(g: Table, step: Step) -> None:
    """COMBAT: line k holds each player's k-th attack-position creature, left to right."""
    g.active = g.start_player
    attackers = [[c for c in g.front[seat] if c.attack] for seat in range(g.seats)]
    order = clockwise(g, g.start_player)
    depth = max((len(attackers[s]) for s in order), default=0)
    g.lines = [
        tuple((attackers[s][k].uid, attackers[s][k].epoch) for s in order if k < len(attackers[s]))
        for k in range(depth)
    ]
    g.todo.append((S_COMBAT_END,))
    for k in reversed(range(depth)):
        g.todo.append((S_LINE, k))


def line(g: Table, step: Step) -> None:
    """A line's turn in the combat phase: its round, after a charge round per Sturmangriff member
    (`charge_timing: in_combat`)."""
    members = g.lines[step[1]]  # type: ignore[index]
    g.todo.append((S_FIGHT, members))
    if not g.spec.charge_on_entry:
        for c in valid_members(g, members):
            if c.keywords() & CHARGE:
                g.todo.append((S_FIGHT, members))


def combat_end(g: Table, step: Step) -> None:
    g.lines = None


def line_combat(g: Table, step: Step) -> None:
    """`line_combat(c)`: c's line fights one combat round now (Sturmangriff, the op)."""
    c = g.by_uid.get(step[1])
    if c is None or not c.attack:
        return
    members = line_members(g, c)
    if members:
        g.todo.append((S_FIGHT, members))


def valid_members(g: Table, members: tuple[tuple[int, int], ...]) -> list[Creature]:
    """The members that have not dropped out: in play, in attack, not moved since (G3)."""
    found = []
    by_uid = g.by_uid
    for uid, epoch in members:
        c = by_uid.get(uid)
        if c is not None and c.attack and c.epoch == epoch:
            found.append(c)
    return found


def fight(g: Table, step: Step) -> None:
    """Step 1 of a combat round: an unopposed attack, or a contested round (window, Kampf, hits)."""
    members = step[1]
    alive = valid_members(g, members)
    if not alive:
        return
    owner = alive[0].owner
    if all(c.owner == owner for c in alive):
        if g.spec.unopposed_attack:
            attacker = alive[0]
            g.gtally[G_UNOPPOSED] += 1
            g.tally[owner][T_UNOPPOSED] += 1
            for seat in clockwise(g, owner):
                if seat != owner:
                    strike(g, seat, attacker.stat(ATK), attacker)
            state_check(g)
            if not g.over:
                resolve_next(g)
        return
    ctx = new_ctx(g)
    g.gtally[G_CONTESTED] += 1
    g.todo.append((S_FIGHT_HIT, ctx, members))
    g.todo.append(RESOLVE_STEP)
    g.todo.append((S_FIGHT_KAMPF, ctx, members))
    if window_opens(g, WINDOW_COMBAT):
        seats = tuple(s for s in clockwise(g, g.start_player) if any(c.owner == s for c in alive))
        open_window(g, WINDOW_COMBAT, ctx, -1, seats)


def kampf(g: Table, step: Step) -> None:
    """Step 3: Kampf triggers of the members and their attachments, by INIT, ATK, DEF,
    remaining HP (descending), then the RNG."""
    _, ctx, members = step
    if ctx in g.negated:
        return
    alive = valid_members(g, members)
    if len({c.owner for c in alive}) < 2:
        return  # Kampf needs an opponent in the line
    having = g.spec.with_trigger[T_COMBAT]
    if not having:
        return
    fighters = [c for c in alive if c.card in having or any(a[1] in having for a in c.attachments)]
    if not fighters:
        return
    # the sort keys, a tiebreak draw when keys tie, then the creature
    keyed: list[tuple[Any, ...]] = [
        (-c.stat(INIT), -c.stat(ATK), -c.stat(DEF), -c.hp_left(), c) for c in fighters
    ]
    if len(keyed) > 1:
        keys = [k[:4] for k in keyed]
        if len(set(keys)) < len(keys):
            rng = g.rng.stream()
            keyed = [(*k[:4], rng.random(), k[4]) for k in keyed]
        keyed.sort(key=lambda k: k[:-1])
    for k in keyed:
        c = k[-1]
        g.queue.extend(creature_triggers(g, c, T_COMBAT, -1, -1, 2, c.epoch))


def hit(g: Table, step: Step) -> None:
    """Steps 4-8: the highest ATK wins the line; every other member takes ATK - DEF, dying ones
    pass the overflow to their player; the winner's player gains Z; state check; the queue."""
    _, ctx, members = step
    if ctx in g.negated:
        return
    alive = valid_members(g, members)
    if not alive:
        return
    owner = alive[0].owner
    if all(c.owner == owner for c in alive):
        win_line(g, alive[0])
    else:
        winner = line_winner(g, alive)
        if winner is None:
            g.gtally[G_TIED] += 1
        else:
            atk = winner.stat(ATK)
            events = g.log
            r = g.round
            for x in alive:
                if x is winner:
                    continue
                d = atk - x.stat(DEF)
                d = max(d, 0)
                left = x.hp_left()
                g.own(x).damage += d
                g.tally[x.owner][T_LINES_LOST] += 1
                events.append((r, x.owner, x.card, EV_LINE_LOSSES, 1))
                if d:
                    events.append((r, winner.owner, winner.card, EV_DAMAGE, min(left, d)))
                if d >= left:
                    events.append((r, winner.owner, winner.card, EV_KILLS, 1))
                    if d > left:
                        strike(g, x.owner, d - left, winner)
            win_line(g, winner)
    state_check(g)
    if not g.over:
        resolve_next(g)


def win_line(g: Table, winner: Creature) -> None:
    gain = g.spec.zynalith_per_line_win
    g.zyn[winner.owner] += gain
    g.tally[winner.owner][T_LINES_WON] += 1
    g.log.append((g.round, winner.owner, winner.card, EV_LINE_WINS, 1))
    if gain:
        g.log.append((g.round, winner.owner, winner.card, EV_ZYNALITH, gain))


def line_winner(g: Table, alive: list[Creature]) -> Creature | None:
    """Highest ATK; ties by INIT, DEF, remaining HP, then the RNG (G4), or none (`no_winner`)."""
    top = max(c.stat(ATK) for c in alive)
    best = [c for c in alive if c.stat(ATK) == top]
    if len(best) == 1:
        return best[0]
    if g.spec.atk_tie_no_winner:
        return None
    key = max((c.stat(INIT), c.stat(DEF), c.hp_left()) for c in best)
    best = [c for c in best if (c.stat(INIT), c.stat(DEF), c.hp_left()) == key]
    if len(best) == 1:
        return best[0]
    return best[g.rng.stream().randrange(len(best))]


def strike(g: Table, seat: int, amount: int, attacker: Creature) -> None:
    """Combat damage to a player (4.4): defence, Durchschlag, Blutsaugen, Verteidigung."""
    kw = attacker.keywords()
    pierce = bool(kw & PIERCE)
    defence = hurt_player(
        g, seat, amount, pierce, bool(kw & LIFESTEAL), attacker.owner, attacker.card, True
    )
    if amount >= 1 and defence >= 1 and not pierce:
        having = g.spec.with_trigger[T_DEFENCE]
        found: list[Trigger] = []
        for c in g.front[seat]:
            if not c.attack and (c.card in having or any(a[1] in having for a in c.attachments)):
                found.extend(creature_triggers(g, c, T_DEFENCE, attacker.uid, attacker.owner, 1, 0))
        if found:
            enqueue(g, found, any(t[CONTROLLER_AT] != seat for t in found))


# -- state check, death and elimination (4.4, G14) ---------------------------------------------


def state_check(g: Table) -> None:
    """Creatures at 0 HP (or destroyed) die together; players at 0 HP are eliminated; the game
    ends at once when at most one player is alive."""
    entering = g.entering
    dying = False
    for row in g.front:
        for c in row:
            health = c.cur[HP]  # hp_left() <= 0, inline: this runs after every effect
            if (c.doomed or (health if health > 0 else 0) <= c.damage) and c.uid != entering:  # noqa: FURB136
                dying = True
                break
    if dying:
        die(
            g,
            [
                c
                for seat in clockwise(g, g.active)
                for c in g.front[seat]
                if (c.doomed or c.hp_left() <= 0) and c.uid != entering
            ],
        )
    hp = g.hp
    if min(hp) <= 0:
        alive = g.alive
        out = [s for s in range(g.seats) if alive[s] and hp[s] <= 0]
        if out:
            eliminate(g, out)


def die(g: Table, dead: list[Creature]) -> None:
    """Refund to the owner, card to its discard, attachments to the extra discard; queue Tod
    (the creature and its attachments), then Trauer."""
    spec = g.spec
    ghosts = dict(g.ghosts)
    for c in dead:
        row = g.front[c.owner]
        i = row.index(c)
        left = row[i - 1].uid if i > 0 else -1
        right = row[i + 1].uid if i + 1 < len(row) else -1
        enemies = tuple(u for u, _ in line_members(g, c) if u != c.uid)
        ghosts[c.uid] = Ghost(c, left, right, enemies)
    g.ghosts = ghosts  # shared with clones: replaced, never changed in place
    for c in dead:
        g.front[c.owner].remove(c)
        del g.by_uid[c.uid]
        refund(g, c)
        g.discards[spec.cards[c.card].pile].append(c.card)
        g.discards[EXTRA_PILE].extend(a[1] for a in c.attachments)
        g.tally[c.owner][T_DIED] += 1
        g.log.append((g.round, c.owner, c.card, EV_DEATHS, 1))
    if spec.with_trigger[T_DEATH]:
        found: list[Trigger] = []
        for c in dead:
            found.extend(creature_triggers(g, c, T_DEATH, c.uid, c.owner, 0, 0))
        if found:
            enqueue(g, found, True)  # dead creatures are already in owner order
    if spec.with_trigger[T_MOURNING]:
        for c in dead:
            raise_trigger(g, T_MOURNING, c.uid, c.owner, c.uid, K_CREATURE)


def eliminate(g: Table, out: list[int]) -> None:
    """Players at 0 HP are out; their cards leave the game without triggers or refunds."""
    # shared with clones: made this state's own before they change
    g.alive, g.final_vp, g.removed = g.alive[:], g.final_vp[:], g.removed[:]
    before = {s: victory_points(g, s)[0] for s in out}
    for s in out:
        g.alive[s] = False
        g.final_vp[s] = before[s]
        for c in g.front[s]:
            del g.by_uid[c.uid]
            g.removed.append(c.card)
            g.removed.extend(a[1] for a in c.attachments)
        g.front[s] = []
        g.removed.extend(g.hand_open[s])
        g.removed.extend(g.hand_secret[s])
        g.hand_open[s] = []
        g.hand_secret[s] = []
        for row in g.front:
            for c in row:
                if any(a[2] == s for a in c.attachments):
                    g.removed.extend(a[1] for a in c.attachments if a[2] == s)
                    g.own(c).attachments = [a for a in c.attachments if a[2] != s]
    living = [s for s in range(g.seats) if g.alive[s]]
    if len(living) == 1:
        finish(g, "elimination", tuple(living))
    elif not living:
        best = max(before.values())
        finish(g, "elimination", tuple(s for s in out if before[s] == best))


# -- round end, game end, scoring (section 8) --------------------------------------------------


def end_round(g: Table, step: Step) -> None:
    """ROUND_END: round modifiers and keywords expire; passed flags and counts reset."""
    for seat in range(g.seats):
        resorted = False
        for c in g.front[seat]:
            rnd = c.rnd
            changed = rnd[0] or rnd[1] or rnd[2] or rnd[3]
            if not (c.kw_round or changed):
                continue
            c = g.own(c)
            c.kw_round = 0
            if changed:  # stat lists are shared with copies: replaced, never changed in place
                rndx = c.rndx
                c.cur = [v - d for v, d in zip(c.cur, rnd)]
                c.modx = [v - d for v, d in zip(c.modx, rndx)]
                c.rnd = [0, 0, 0, 0]
                c.rndx = [0, 0, 0, 0]
                resorted = True
        if resorted:
            resort(g, seat)
        g.passed[seat] = False
        g.main_actions[seat] = 0
    state_check(g)
    if not g.over:
        resolve_next(g)


def game_end(g: Table, step: Step) -> None:
    """After round 5: Spielende triggers (from round 5's start player), a state check, scoring."""
    g.active = g.start_player
    raise_trigger(g, T_GAME_END, -1, -1, -1, -1)
    g.todo.append((S_SCORE,))
    g.todo.append(CHECK_STEP)
    g.todo.append(RESOLVE_STEP)


def final_score(g: Table, step: Step) -> None:
    score(g, "rounds")


def victory_points(g: Table, seat: int) -> tuple[int, int, int]:
    """(VP, printed VP in the front, bonus VP).

    VP = printed + bonus + Z + silver // silver_per_vp."""
    cards = g.spec.cards
    printed = 0
    for c in g.front[seat]:
        printed += cards[c.card].vp
        for a in c.attachments:
            printed += cards[a[1]].vp
    bonus = g.bonus_vp[seat]
    return printed + bonus + g.zyn[seat] + g.silver[seat] // g.spec.silver_per_vp, printed, bonus


def score(g: Table, reason: str, capped: bool = False) -> None:
    """The living player with the most VP wins; ties by `score_tiebreak`, then a shared draw."""
    living = [s for s in range(g.seats) if g.alive[s]]
    keys = {}
    for s in living:
        key = [victory_points(g, s)[0]]
        for name in g.spec.score_tiebreak:
            key.append(g.hp[s] if name == "hp" else g.silver[s] if name == "silver" else g.zyn[s])
        keys[s] = tuple(key)
    best = max(keys.values())
    g.capped = capped
    finish(g, reason, tuple(s for s in living if keys[s] == best))


def finish(g: Table, reason: str, winners: tuple[int, ...]) -> None:
    g.over = True
    g.end_reason = reason
    g.winners = winners
    g.asking = None
    g.todo.clear()
    g.queue.clear()
    cards = g.spec.cards
    g.final_vp = g.final_vp[:]  # shared with clones
    for seat in range(g.seats):
        if not g.alive[seat]:
            continue
        g.final_vp[seat] = victory_points(g, seat)[0]
        for c in g.front[seat]:
            for card in (c.card, *(a[1] for a in c.attachments)):
                if cards[card].vp:
                    g.log.append((g.round, seat, card, EV_VP, cards[card].vp))


def game_result(g: Table) -> Result:
    if not g.over:
        raise ValueError("the game is not over")
    stats: dict[str, float] = {
        "rounds": float(g.round),
        "first_player": float(g.first_player),
        "cap_hits": float(len(g.cap_hits)),
    }
    for cap in CAPS:
        stats[f"cap_{cap}"] = float(g.cap_hits.count(cap))
    for name, value in zip(GAME_TALLIES, g.gtally):
        stats[name] = float(value)
    for seat in range(g.seats):
        _, printed, bonus = victory_points(g, seat)
        stats[f"hp_{seat}"] = float(g.hp[seat])
        stats[f"vp_{seat}"] = float(g.final_vp[seat])
        stats[f"vp_printed_{seat}"] = float(printed)
        stats[f"vp_bonus_{seat}"] = float(bonus)
        stats[f"silver_{seat}"] = float(g.silver[seat])
        stats[f"zynalith_{seat}"] = float(g.zyn[seat])
        for name, value in zip(SEAT_TALLIES, g.tally[seat]):
            stats[f"{name}_{seat}"] = float(value)
    return Result.shared(
        list(g.winners), g.seats, g.end_reason, g.turns, capped=g.capped, stats=stats
    )


# -- decisions ---------------------------------------------------------------------------------


def ask(
    g: Table, seat: int, kind: int, word: str, options: tuple[Option, ...], ctx: tuple[Any, ...]
) -> None:
    flow.ask(g, Decision(seat, word, options), (kind, ctx))


def refresh_pending(g: Table) -> None:
    """Recompute the pending decision's options from the (determinized) state."""
    d = g.asking
    assert d is not None
    if not d.listed:  # a turn's, not listed yet: list them from this state
        g.asking = turn_decision(d.seat, g)
    elif g.cont[0] == KIND_TURN and len(d.options) > 1:
        g.asking = Decision(d.seat, d.kind, turn_options(g, d.seat))
    elif g.cont[0] == KIND_COUNTER:
        kind, _, subject_kind, _, _, _ = g.cont[1]
        g.asking = Decision(
            d.seat, d.kind, (NO_COUNTER, *counter_options(g, d.seat, kind, subject_kind))
        )


def describe(g: Table, option: int) -> str:
    """An option of the pending decision in the game's words (unambiguous: tests play by them)."""
    d = g.asking
    if d is None:
        raise ValueError("the game is over: no option to describe")
    choice = d.options[option]
    kind = g.cont[0]
    cards = g.spec.cards
    if kind == KIND_TARGET:
        if choice[0] == 1:
            return f"target P{choice[1]}"
        return f"target {creature_name(g, g.by_uid[choice[2]])}"
    if kind == KIND_PILE:
        return f"{PILE_WORDS[choice[0]]} pile"
    if kind == KIND_COUNTER:
        if choice[0] == 0:
            return "no counter"
        _, card, source, _pos, _owner, host_uid = choice
        where = "hand" if source == FROM_HAND else "the market"
        on = f" on {creature_name(g, g.by_uid[host_uid])}" if host_uid >= 0 else ""
        return f"counter with {cards[card].id} from {where}{on}"
    verb = "pick" if kind == KIND_DRAFT else "take"
    action = choice[0]
    seat = d.seat
    front = g.front[seat]
    if action == A_TAKE_MARKET:
        name = cards[g.market[choice[1]][choice[2]]].id
        return f"{verb} {name} from the {PILE_WORDS[choice[1]]} market"
    if action == A_TAKE_PILE:
        return f"{verb} the {PILE_WORDS[choice[1]]} pile top"
    if action == A_SWAP:
        return (
            f"swap {creature_name(g, front[choice[1]])} with {creature_name(g, front[choice[2]])}"
        )
    if action == A_TOGGLE:
        c = front[choice[1]]
        return f"toggle {creature_name(g, c)} to {'defence' if c.attack else 'attack'}"
    if action == A_SELL:
        return "sell 1 zynalith"
    if action == A_BANISH:
        return f"banish {creature_name(g, front[choice[1]])}"
    if action == A_REDRAW:
        return f"redraw the {PILE_WORDS[choice[2]]} row, discarding {cards[choice[1]].id}"
    if action == A_PASS:
        return "pass"
    if action == A_PLAY_HAND:
        card, where, a, b = choice[1], "hand", choice[2], choice[3]
    else:
        card = g.market[choice[1]][choice[2]]
        where, a, b = "the market", choice[3], choice[4]
    cd = cards[card]
    if cd.type == TYPE_CREATURE:
        same = sum(1 for c in front if c.stat(INIT) == cd.stats[INIT])
        at = f" at {a}" if same else ""
        return f"play {cd.id} from {where} in {'attack' if b == ATTACK else 'defence'}{at}"
    return f"play {cd.id} from {where} on {creature_name(g, g.by_uid[b])}"


def creature_name(g: Table, c: Creature) -> str:
    """`P1 sturmwolf@0`: owner, card id and place in the front."""
    return f"P{c.owner} {g.spec.cards[c.card].id}@{g.front[c.owner].index(c)}"


def check_step(g: Table, step: Step) -> None:
    state_check(g)


# What each step does (the flow engine's handlers), then each kind of answer.
TASKS.bind(S_DRAFT_PICK, draft_pick)
TASKS.bind(S_DRAFT_END, draft_end)
TASKS.bind(S_ROUND, begin_round)
TASKS.bind(S_TURN, turn)
TASKS.bind(S_NEXT_TURN, next_turn)
TASKS.bind(S_COMBAT, form_lines)
TASKS.bind(S_LINE, line)
TASKS.bind(S_COMBAT_END, combat_end)
TASKS.bind(S_ROUND_END, end_round)
TASKS.bind(S_GAME_END, game_end)
TASKS.bind(S_SCORE, final_score)
TASKS.bind(S_RESOLVE, resolve_queue)
TASKS.bind(S_EFFECT, effect)
TASKS.bind(S_CHECK, check_step)
TASKS.bind(S_DRAW_BEGIN, draw_begin)
TASKS.bind(S_DRAW_END, draw_end)
TASKS.bind(S_FILL_ROW, fill_row)
TASKS.bind(S_TO_HAND, to_hand)
TASKS.bind(S_REFRESH, renew)
TASKS.bind(S_EVENT_RUN, event_run)
TASKS.bind(S_EVENT_TRIGGERS, event_triggers)
TASKS.bind(S_EVENT_DONE, event_done)
TASKS.bind(S_WINDOW_OPEN, window_open)
TASKS.bind(S_WINDOW, window)
TASKS.bind(S_WINDOW_CLOSE, window_close)
TASKS.bind(S_PLAY_ENTER, play_enter)
TASKS.bind(S_PLAY_AFTER, play_after)
TASKS.bind(S_CHARGE, charge)
TASKS.bind(S_LINE_COMBAT, line_combat)
TASKS.bind(S_FIGHT, fight)
TASKS.bind(S_FIGHT_KAMPF, kampf)
TASKS.bind(S_FIGHT_HIT, hit)
TASKS.bind(KIND_DRAFT, apply_draft)
TASKS.bind(KIND_TURN, apply_turn)
TASKS.bind(KIND_COUNTER, apply_counter)
TASKS.bind(KIND_TARGET, apply_target)
TASKS.bind(KIND_PILE, apply_pile)
TASKS.check()


def public_line(g: Table) -> str:
    """The round and who acts; per seat: HP, Silver, Zynalith, its hand (the cards taken from
    the market by name, the ones drawn from a pile counted) and its front, left to right, each
    creature with the damage on it; `out` for an eliminated player."""
    names = g.spec.catalog.cards
    parts = []
    for seat in range(g.seats):
        if not g.alive[seat]:
            parts.append(f"seat {seat}: out")
            continue
        front = " ".join(
            names[c.card] + (f"-{c.damage}" if c.damage else "") for c in g.front[seat]
        )
        open_cards = "".join(f" {names[card]}" for card in g.hand_open[seat])
        parts.append(
            f"seat {seat}: {g.hp[seat]} HP, {g.silver[seat]} silver, {g.zyn[seat]} zyn, hand "
            f"[{len(g.hand_secret[seat])} unseen{open_cards}]"
            f"{', passed' if g.passed[seat] else ''}, front [{front}]"
        )
    return f"round {g.round}, seat {g.active} to act; " + "; ".join(parts)
