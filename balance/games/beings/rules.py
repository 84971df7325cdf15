"""beings' rules (spec beings.md): setup and mulligan, the turn, playing, evolving, attacking,
blocking, defending, and the end of the game.

Flow: mulligans -> (turn start -> main <-> attack -> turn end)* -> over, as tasks on the kit's
flow stack (balance/core/flow.py; the kinds are state.TASKS): a step that is to follow card
effects lies beneath them, so they resolve first; a decision with a single option is applied at
once (spec §4, state.offer).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any
from weakref import ref

from balance.core import flow
from balance.core.contract import OPENING, PLAYED, Decision, Result
from balance.core.errors import ConfigError, did_you_mean
from balance.core.eventchain import EventLog
from balance.core.flow import Task, resume
from balance.core.gamerng import GameRng, fast_shuffle
from balance.games.beings import heuristics
from balance.games.beings.effects import (
    ATTACK,
    BLOCK,
    DISCARD,
    ME,
    PLAY,
    RECOVER,
    REVIVE,
    TURN_END,
    TURN_START,
    UNTIL_ATTACK,
    UNTIL_NEXT,
    UNTIL_TURN,
    VIA_EVOLVE,
    VIA_SUMMON,
    push_activation,
    push_simultaneous,
    push_skills,
)
from balance.games.beings.spec import DOUBLE, RESIST, BeingsSpec
from balance.games.beings.state import (
    A_BLOCK,
    A_DEFEND,
    A_MAIN,
    A_MULLIGAN,
    A_OPTIONAL,
    ABYSSES,
    DECKS,
    DEFEND,
    EFFECT,
    G_ATTACKS,
    G_BLOCKS,
    G_EVOLUTIONS,
    G_FIRST_SEAT,
    G_FIZZLED,
    G_LIFE_HITS,
    G_REPLACED,
    G_RESISTED,
    G_SKIPS,
    G_X2,
    G_ZERO_FAILED,
    G_ZERO_SURVIVED,
    GAME_STATS,
    K_ATTACKS,
    K_BEINGS_DEFEATED,
    K_DEFENCE_POWER,
    K_EVOLVED_ONTO,
    K_LIFE_TAKEN,
    K_MULLIGAN_RETURNED,
    K_SKIPPED_ONTO,
    K_SUMMONED,
    K_TIMES_DEFEATED,
    LIFE,
    LIVES,
    MAIN,
    MULLIGAN,
    NOBODY,
    OVER,
    RUN,
    S_ATTACKS_BEINGS,
    S_ATTACKS_LIFE,
    S_BLOCKS,
    S_COMEBACK,
    S_DEFEATS,
    S_DEFENCE_CARDS,
    S_DEFENCE_POWER,
    S_DEFENDS_LOST,
    S_DEFENDS_WON,
    S_DRAWN_BY_GEMS,
    S_FINAL_ABYSS,
    S_FINAL_DECK,
    S_FINAL_HAND,
    S_FINAL_LIFE,
    S_FINAL_POWER,
    S_GEMS_ACTIVATE,
    S_GEMS_DEFENCE,
    S_GEMS_DRAW,
    S_GEMS_EQUIPPED,
    S_GEMS_EVOLVE,
    S_GEMS_PLAY,
    S_GEMS_SKIP,
    S_LOST,
    S_MULLIGAN,
    SEAT_STATS,
    T_AFTER_ATTACK_SKILLS,
    T_AFTER_BLOCK,
    T_DEFEND,
    T_FINISH_SETUP,
    T_MAIN,
    T_MULLIGAN,
    T_PASS_TURN,
    TASKS,
    Attack,
    Being,
    Match,
    attack_power,
    draw,
    from_hand,
    gain_gems,
    leave_play,
    offer,
    own_abysses,
    own_being,
    own_decks,
    own_lives,
    pay,
    power,
    take_life,
)
from balance.games.beings.state import (
    BLOCK as BLOCK_STEP,
)

SEATS = 2
END_TURN = ("end_turn",)
GEM_DRAW = ("gem_draw",)
NO_BLOCK = ("no_block",)
DONE = ("done",)
ZERO_LIFE_DEFENSE_FAILED = "zero_life_defense_failed"
TURN_LIMIT = "turn_limit"
PICK_VERBS = {DISCARD: "discard", RECOVER: "recover", REVIVE: "revive"}
# the tasks without arguments, made once (a tuple of names is built anew at every use)
MAIN_STEP = (T_MAIN,)
MAIN_ANSWER = (A_MAIN,)
END_TURN_ONLY = (END_TURN,)
PASS_TURN_STEP = (T_PASS_TURN,)
AFTER_ATTACK_SKILLS_STEP = (T_AFTER_ATTACK_SKILLS,)
BLOCK_ANSWER = (A_BLOCK,)
AFTER_BLOCK_STEP = (T_AFTER_BLOCK,)
DEFEND_STEP = (T_DEFEND,)
DEFEND_ANSWER = (A_DEFEND,)


class BeingsMatch(Match):
    """A game of beings as the contract sees it (the data lives in state.Match)."""

    __slots__ = ()

    def decision(self) -> Decision | None:
        return self.asking

    def clone(self) -> BeingsMatch:
        new = Match.clone(self)
        if not new.options and new.asking is not None:
            # a main decision not listed yet (no `options` kept: `listed`) lists from the match
            # that asked it: the copy asks its own (main_decision)
            new.asking = main_decision(new)
        return new

    def apply(self, option: int) -> None:
        self.known = self.tighten = self.bounded = None
        resume(self, option, TASKS)  # the answer's task runs first

    def result(self) -> Result:
        return result_of(self)

    def determinize(self, seat: int, rng: Random) -> BeingsMatch:
        """A copy in which all `seat` cannot see is reshuffled (sizes kept), RNG reseeded.

        Hidden from `seat`: the order of its own Being deck and its own life cards (shuffled
        together), and the opponent's hand, life cards and deck (shuffled together). Everything
        else (the field, both Abysses, gems, sizes, the mulligan count) is public.
        """
        copy = self.clone()
        copy.searching = True
        copy.rng = GameRng(rng.getrandbits(64))  # its Random made only if the world draws
        own = copy.decks[seat] + copy.lives[seat]
        fast_shuffle(own, rng)  # the kit's shuffle for search worlds
        n = len(copy.decks[seat])
        other = 1 - seat
        pool = copy.hands[other] + copy.lives[other] + copy.decks[other]
        fast_shuffle(pool, rng)
        h, life = len(copy.hands[other]), len(copy.lives[other])
        copy.hands[other] = pool[:h]
        # new deck and life lists, the world's own (the Abysses stay shared)
        decks: list[list[int]] = [[], []]
        lives: list[list[int]] = [[], []]
        decks[seat], lives[seat] = own[:n], own[n:]
        lives[other] = pool[h : h + life]
        decks[other] = pool[h + life :]
        copy.decks, copy.lives = decks, lives
        copy.shared &= ~(DECKS | LIVES)
        gain = self.spec.discard_gain
        copy.hand_defence[other] = sum([gain[c] for c in copy.hands[other]])
        return copy

    def evaluate(self, seat: int) -> float:
        if self.phase == OVER:
            return 2.0 * self.result().scores[seat] - 1.0
        return heuristics.evaluate(self, seat)

    def option_bounds(self, among: Sequence[int] | None = None) -> list[float | None] | None:
        """Per option of the pending decision (of those `among`, or all), an upper bound on
        `evaluate` for its seat once the option is applied, or None where applying it is the
        only way to know (heuristics.option_bounds: the main phase's plays and attacks;
        defend_bounds: the defend step's discards). What they work out exactly is kept for
        `option_value`."""
        listed(self)  # the bounds read the options
        if self.phase == MAIN:
            bounds, self.known, self.tighten = heuristics.option_bounds(self, self.decider, among)
        elif self.phase == DEFEND:
            if self.bounded is not None:  # worked out by `option_best`
                bounds, self.bounded = self.bounded, None
                return bounds
            bounds, self.known = heuristics.defend_bounds(self, self.decider)
            self.tighten = None
        else:
            return None
        return bounds

    def option_value(self, option: int) -> float | None:
        """`evaluate` for the decision's seat once the option is applied, where `option_bounds`
        (asked first, in this position) worked it out exactly, else None."""
        known = self.known
        if known is None:
            return None
        if self.tighten is not None:
            self.tighten(self, option)  # a play bounded loosely: its difference is worked out now
        pp = known[option]
        return None if pp is None else heuristics.known_value(pp)

    def option_bound(self, option: int) -> float | None:
        """A bound tighter than `option_bounds` gave for the option (asked first, in this
        position), where that was a loose one (heuristics.option_bounds: the main phase's
        plays), else None."""
        return None if self.tighten is None else self.tighten(self, option)

    def option_best(self) -> tuple[int, float | None] | None:
        """An option of the pending decision surely best for its seat, with its value once
        applied, where the bounds tell both (heuristics.defend_best: the defend step), else
        None. Where they tell all but `done` (the attack resolves), `done` is applied to a
        copy to know its value, if the seat then decides no other kind of decision. In the
        main phase, `yes` to an optional recover into the seat's own hand (its value unknown)."""
        if self.phase == EFFECT and self.cont[0] == A_OPTIONAL:
            return (0, None) if recover_beats_none(self) else None
        if self.phase != DEFEND:
            return None
        seat = self.decider
        bounds, known = heuristics.defend_bounds(self, seat)
        self.known = known
        self.tighten = None
        best = heuristics.defend_best(bounds, known)
        last = len(known) - 1
        if (
            best is None
            and known[last] is None
            and all(known[index] is not None or bounds[index] is not None for index in range(last))
        ):
            copy = self.clone()
            copy.apply(last)
            after = copy.decision()
            if after is None or after.seat != seat or after.kind == "defend":
                best = heuristics.defend_best(bounds, known, copy.evaluate(seat))
        if best is None:
            self.bounded = bounds  # for `option_bounds`, asked next
        return best

    def option_twins(self) -> list[int] | None:
        """Per option of the pending decision, the first option that `evaluate` scores the same
        for its seat once applied (heuristics.option_twins: the defend step's discards). In the
        mulligan, keeping or returning a card that is not the hand's last are twins: the marks
        are the step's own until the hand settles after its last card (`mulligan`)."""
        if self.phase == MULLIGAN:
            index = self.cont[2]
            return [0, 0] if index + 1 < len(self.hands[self.decider]) else None
        if self.phase != DEFEND:
            return None
        return heuristics.option_twins(self, self.decider)

    def describe(self, option: int) -> str:
        return describe_option(self, (self.options or listed(self))[option])

    def inventory(self) -> tuple[int, ...]:
        cards: list[int] = []
        for seat in range(SEATS):
            cards += self.decks[seat] + self.hands[seat] + self.lives[seat] + self.abysses[seat]
            for being in self.field[seat]:
                if being is not None:
                    cards += being.stack
        return tuple(sorted(cards))

    def public_summary(self) -> str:
        return public_line(self)


def public_line(m: Match) -> str:
    """Per seat: life cards, hand and deck sizes, gems (active/rested), the Abyss, and each
    location's Being (its top card and printed power; `r` if rested)."""
    names = m.spec.catalog.cards
    parts = []
    for seat in range(SEATS):
        beings = " ".join(
            "-" if b is None else f"{names[b.stack[-1]]}:{b.printed}{'r' if b.rested else ''}"
            for b in m.field[seat]
        )
        parts.append(
            f"seat {seat}: life {len(m.lives[seat])}, hand {len(m.hands[seat])}, deck "
            f"{len(m.decks[seat])}, gems {m.gems_active[seat]}/{m.gems_rested[seat]}, abyss "
            f"{len(m.abysses[seat])}, field [{beings}]"
        )
    return f"seat {m.active} to act; " + "; ".join(parts)


# -- setup (R3-R6, G16) ---------------------------------------------------------------------------


def new_game(spec: BeingsSpec, lineup: Sequence[str], seed: int) -> BeingsMatch:
    """Setup in the spec's order (§3): first player, shuffles, opening hands, then mulligans."""
    if len(lineup) != SEATS:
        raise ConfigError(
            None,
            None,
            f"beings is a game for {SEATS} seats, got {len(lineup)}",
            "pass two deck names",
        )
    for name in lineup:
        if name not in spec.catalog.decks:
            raise ConfigError(
                None,
                None,
                f"unknown beings deck '{name}'",
                did_you_mean(name, list(spec.catalog.decks)),
            )
    rng = GameRng(seed)
    first = {"seat0": 0, "seat1": 1}.get(spec.first_player)
    if first is None:
        first = rng.stream().randrange(SEATS)
    decks = []
    for name in lineup:
        deck = [card for card, copies in spec.catalog.decks[name].items() for _ in range(copies)]
        rng.shuffle(deck)  # gem decks are identical cards: shuffling them changes nothing
        decks.append(deck)
    m = BeingsMatch(
        spec=spec,
        rng=rng,
        token=object(),
        seed=seed,
        first=first,
        turn=0,
        active=first,
        phase=RUN,
        decider=NOBODY,
        options=(),
        todo=[(T_FINISH_SETUP,)],
        asking=None,
        cont=(),
        over=False,
        attack=None,
        actions=0,
        next_uid=0,
        decks=decks,
        hands=[[], []],
        lives=[[], []],
        abysses=[[], []],
        gem_decks=[spec.gem_deck_size] * SEATS,
        gems_active=[0, 0],
        gems_rested=[0, 0],
        field=[[None] * len(spec.locations) for _ in range(SEATS)],
        returned=[0, 0],
        winner=NOBODY,
        end_reason="",
        capped=False,
        log=EventLog(),
        tally=[[0] * len(SEAT_STATS) for _ in range(SEATS)],
        totals=[0] * len(GAME_STATS),
        hand_defence=[0, 0],
        hidden_defence=[0, 0],
        known=None,
        shared=0,
        tighten=None,
        bounded=None,
        searching=False,
    )
    m.totals[G_FIRST_SEAT] = first
    for seat in (first, 1 - first):
        for _ in range(spec.opening_hand):
            if m.decks[seat]:
                m.hands[seat].append(m.decks[seat].pop())
    m.recount()
    if spec.mulligan_allowed and m.hands[first]:
        m.todo.append((T_MULLIGAN, first, 0, ()))
    else:
        for seat in (first, 1 - first):
            m.rng.shuffle(m.decks[seat])  # R4's shuffle happens with or without a mulligan
    flow.run(m, TASKS)  # on to finish_setup once the mulligans are done
    return m


def ask_mulligan(m: Match, task: Task) -> None:
    """(T_MULLIGAN, seat, index, marks): keep or return the seat's opening card at `index`;
    `marks` are its "return" marks so far (private to the seat)."""
    _, seat, index, marks = task
    card = m.hands[seat][index]
    options = (("keep", card), ("return", card))
    offer(m, seat, "mulligan", MULLIGAN, options, (A_MULLIGAN, seat, index, marks))


def mulligan(m: Match, task: Task) -> None:
    """G16: one keep/return decision per opening card, P1 then P2; R4 settles each hand."""
    _, seat, index, marks, option = task
    marks = (*marks, option[0] == "return")
    if index + 1 < len(m.hands[seat]):
        m.todo.append((T_MULLIGAN, seat, index + 1, marks))
        return
    hand = m.hands[seat]
    back = [card for card, mark in zip(hand, marks, strict=True) if mark]
    m.hands[seat] = [card for card, mark in zip(hand, marks, strict=True) if not mark]
    deck = own_decks(m)[seat]
    deck[0:0] = back  # to the bottom: the top is the end of the list
    for _ in back:
        m.hands[seat].append(deck.pop())
    m.rng.shuffle(deck)
    for card in back:
        m.log.append((0, seat, card, K_MULLIGAN_RETURNED, 1))
    m.recount()  # the hand changed under the running sums
    m.returned = [len(back) if s == seat else n for s, n in enumerate(m.returned)]
    m.tally[seat][S_MULLIGAN] = len(back)
    other = 1 - seat
    if seat == m.first and m.hands[other]:
        m.todo.append((T_MULLIGAN, other, 0, ()))
        return
    if seat == m.first:
        m.rng.shuffle(own_decks(m)[other])
    # on to finish_setup, the task beneath


def finish_setup(m: Match, task: Task) -> None:
    """R5, R6: life cards, then starting gems; then Player 1's turn 1."""
    spec = m.spec
    decks, lives = own_decks(m), own_lives(m)
    for seat in (m.first, 1 - m.first):
        for card in m.hands[seat]:
            m.log.append((0, seat, card, OPENING, 1))
        deck = decks[seat]
        for _ in range(spec.life_cards):
            if deck:
                lives[seat].append(deck.pop())
    gain_gems(m, m.first, spec.start_gems_first)
    gain_gems(m, 1 - m.first, spec.start_gems_second)
    start_turn(m)


# -- the turn (R7-R9, G15) -------------------------------------------------------------------------


def start_turn(m: Match, turn_ended: bool = False) -> None:
    """G15: draw, gain gems, equipped gems return, refresh, expire mods, `turn/start` skills.
    After a turn (`turn_ended`), its `until: turn` mods expire in the same pass as the new
    turn's `until: next` ones: nothing between reads a power but the turn limit's tiebreak."""
    spec = m.spec
    m.turn += 1
    if m.turn > spec.turn_limit:
        if turn_ended:
            expire_mods(m, UNTIL_TURN, NOBODY)
        reach_turn_limit(m)
        return
    seat = m.active = m.first if m.turn % 2 == 1 else 1 - m.first
    m.actions = 0
    if not (m.turn == 1 and spec.first_player_skips_draw):
        draw(m, seat, spec.draw_per_turn)
    gain_gems(m, seat, spec.gems_per_turn)
    for loc, being in enumerate(m.field[seat]):
        if being is not None and (being.equipped or being.rested):
            being = own_being(m, seat, loc)
            m.gems_rested[seat] += being.equipped
            being.equipped = 0
            being.rested = False
    m.gems_active[seat] += m.gems_rested[seat]
    m.gems_rested[seat] = 0
    expire_mods(m, UNTIL_NEXT, seat, turn_ended)
    todo = m.todo
    waiting = len(todo)
    push_simultaneous(m, seat, TURN_START)
    if len(todo) == waiting:
        ask_main(m, MAIN_STEP)  # no `turn/start` skills: straight on
    else:
        todo.insert(waiting, MAIN_STEP)  # once the `turn/start` skills have resolved


def end_turn(m: Match, straight: bool = False) -> None:
    """TURN_END: own `turn/end` skills, then `until: turn` mods expire and the turn passes.
    `straight` (the answer `end_turn`): without such skills the next turn starts at once. A
    lone `end_turn` passes the turn through the stack, so that turns without a decision do not
    nest calls."""
    todo = m.todo
    waiting = len(todo)
    push_simultaneous(m, m.active, TURN_END)
    if straight and len(todo) == waiting:
        start_turn(m, turn_ended=True)
    else:
        todo.insert(waiting, PASS_TURN_STEP)


def pass_turn(m: Match, task: Task) -> None:
    start_turn(m, turn_ended=True)  # the `until: turn` mods expire there


def expire_mods(m: Match, until: int, controller: int, turn_ended: bool = False) -> None:
    """Drop the mods of kind `until` (for UNTIL_NEXT: only those `controller`'s effects made),
    and with `turn_ended` those of kind UNTIL_TURN too."""
    for seat in (0, 1):
        loc = -1
        for being in m.field[seat]:
            loc += 1
            if being is not None and being.mods:
                kept = [
                    mod
                    for mod in being.mods
                    if (mod[1] != until or (controller != NOBODY and mod[2] != controller))
                    and not (turn_ended and mod[1] == UNTIL_TURN)
                ]
                if len(kept) != len(being.mods):
                    own_being(m, seat, loc).mods = kept


# -- the main phase (R9-R12, R18-R19, G10-G11) -----------------------------------------------------


def ask_main(m: Match, task: Task) -> None:
    """T_MAIN: the active player's next action. (The most frequent step: it poses the decision
    itself, `offer` inlined.)"""
    seat = m.active
    if m.searching and offers_more(m, seat):
        # two options or more: the decision is made now, its options listed when read
        options: tuple[Any, ...] = ()
        asking = main_decision(m)
    else:
        options = main_options(m)
        if len(options) == 1:
            end_turn(m)  # a lone option is taken at once (state.offer): the turn ends
            return
        asking = Decision(seat, "main", options)
    m.phase = MAIN
    m.decider = seat
    m.options = options
    m.asking = asking
    m.cont = MAIN_ANSWER


def main_options(m: Match) -> tuple[Any, ...]:
    """Every legal main-phase action of the active player (spec §4's `main` row), in the order
    plays, evolutions, attacks, gem draw, equips, activations, end turn."""
    spec = m.spec
    if m.actions >= spec.max_actions_per_turn:
        return END_TURN_ONLY
    seat = m.active
    turn = m.turn
    gems = m.gems_active[seat]
    hand = m.hands[seat]
    own = m.field[seat]
    cost = spec.cost
    plays = spec.play_options
    if spec.replace_only_when_full and None in own:
        open_locs = [loc for loc, b in enumerate(own) if b is None]
        options = [plays[c][loc] for c in hand if cost[c] <= gems for loc in open_locs]
    else:
        options = [option for c in hand if cost[c] <= gems for option in plays[c]]
    attacks: list[tuple[Any, ...]] = []
    equips: list[tuple[Any, ...]] = []
    activations: list[tuple[Any, ...]] = []
    can_attack = turn > 1 or spec.first_turn_attack
    haste = spec.zero_life_haste and not m.lives[seat]
    deck_empty = not m.decks[seat]
    can_equip = gems >= 1 and (deck_empty or not spec.equip_requires_empty_deck)
    per_turn = spec.evolutions_per_being_per_turn
    evolutions = spec.evolutions
    main_skills = spec.main_skills
    loc = -1
    for being in own:
        loc += 1
        if being is None:
            continue
        top = being.stack[-1]
        if (being.evolved != turn or being.evolutions < per_turn) and (
            being.entered != turn or spec.evolve_on_play_turn
        ):
            for new, price, _, per_loc in evolutions[top]:
                if price <= gems and new in hand:
                    options.append(per_loc[loc])
        if (
            can_attack
            and not being.rested
            and being.attacked != turn
            and (haste or (being.entered != turn and being.evolved != turn))
        ):
            attacks.append(spec.attack_life[loc])
            row = spec.attack_being[loc]
            opposing = m.field[1 - seat]
            for target in spec.reach[loc]:
                other = opposing[target]
                if other is not None and other.rested:
                    attacks.append(row[target])
        if can_equip:
            equips.append(spec.equip_options[loc])
        if main_skills[top] and being.main_used != turn:
            for skill in main_skills[top]:
                if skill.cost <= gems:
                    activations.append(("activate", spec.locations[loc], skill.index))
    if attacks:
        options += attacks
    if not deck_empty and gems >= spec.gem_draw_cost:
        options.append(GEM_DRAW)
    if equips:
        options += equips
    if activations:
        options += activations
    options.append(END_TURN)
    return tuple(options)


def recover_beats_none(m: Match) -> bool:
    """At an optional skill's yes or no (`yes` first): is `yes` surely worth at least `no` to
    `evaluate`? So it is for a recover into the seat's own hand in the main phase, when the
    main phase surely goes on after it: `no` leaves the position as it is, `yes` leaves it so
    or adds a card to the hand (its defence, maybe an evolution), and neither ends the turn."""
    _, skill, seat, _ = m.cont
    return (
        skill.op == RECOVER
        and skill.target == ME
        and m.todo[-1:] == [MAIN_STEP]  # no other skill pending: the main phase next
        and offers_more(m, seat)
    )


def offers_more(m: Match, seat: int) -> bool:
    """Whether the main phase surely offers more than `end_turn` (a gem draw, an equip), known
    without listing its options."""
    spec = m.spec
    if m.actions >= spec.max_actions_per_turn:
        return False
    gems = m.gems_active[seat]
    if m.decks[seat]:
        if gems >= spec.gem_draw_cost:
            return True
        if spec.equip_requires_empty_deck:
            return False
    return gems >= 1 and any(being is not None for being in m.field[seat])


def main_decision(m: Match) -> Decision:
    """The active player's main decision, its options listed when first read (`list_main`);
    made so in a search's world (`Match.searching`) only, as a real game's bot reads them all.

    A search bot applies each option to a copy and mostly reads only who decides next and what
    kind of decision it is (after a main action, the same seat's main again; after `end_turn`,
    the other seat's): listing those options was a twentieth of a greedy game's time, for
    nothing. A clone of a match whose decision is not listed yet asks its own
    (`BeingsMatch.clone`), as the contract asks of a lister that reads its state. The decision
    reaches its match by a weak reference: the match holds its decision, and a strong one would
    make every copy a search drops a reference cycle for the garbage collector."""
    return Decision.lazy(m.active, "main", list_main, ref(m))


def list_main(asker: ref[Match]) -> tuple[Any, ...]:
    """The options of the main decision `asker` asked, kept as its pending options too."""
    m = asker()
    assert m is not None  # a decision is read while its match is in play
    m.options = main_options(m)
    return m.options


def listed(m: Match) -> tuple[Any, ...]:
    """The pending decision's options, listed now where they were not yet (a main decision's)."""
    if not m.options and m.asking is not None:
        m.options = m.asking.options
    return m.options


def take_action(m: Match, task: Task) -> None:
    """A_MAIN: the chosen action; the main phase goes on once its skills have resolved (an
    attack and the end of the turn lay their own next steps)."""
    option = task[1]
    what = option[0]
    if what == "end_turn":
        end_turn(m, straight=True)
        return
    m.actions += 1
    seat = m.active
    loc_index = m.spec.loc_index
    if what == "attack":
        declare_attack(m, loc_index[option[1]], option[2])
        return
    todo = m.todo
    waiting = len(todo)
    if what == "play":
        summon(m, seat, option[1], loc_index[option[2]])
    elif what == "evolve":
        evolve(m, seat, option[1], loc_index[option[2]], in_defence=False)
    elif what == "gem_draw":
        gem_draw(m, seat)
    elif what == "equip":
        equip(m, seat, loc_index[option[1]])
    else:  # activate
        activate(m, seat, loc_index[option[1]], option[2])
    if len(todo) == waiting and m.asking is None and not m.over:
        ask_main(m, MAIN_STEP)  # nothing to resolve first: straight on (the most frequent way)
    else:
        todo.insert(waiting, MAIN_STEP)  # the main phase goes on once the skills have resolved


def summon(m: Match, seat: int, card: int, loc: int) -> None:
    """R12, R19: play a card from hand at full cost; an occupied own slot is replaced (G10)."""
    spec = m.spec
    price = spec.cost[card]
    pay(m, seat, price)
    m.tally[seat][S_GEMS_PLAY] += price
    from_hand(m, seat, card)
    if m.field[seat][loc] is not None:
        leave_play(m, seat, loc)  # replaced: to the Abyss, not a battle defeat
        m.totals[G_REPLACED] += 1
    m.field[seat][loc] = Being(m.next_uid, card, spec.power[card], m.turn, m.token)
    m.next_uid += 1
    m.log.append((m.turn, seat, card, PLAYED, 1))
    m.log.append((m.turn, seat, card, K_SUMMONED, 1))
    if spec.triggers[card][PLAY]:
        push_skills(m, seat, loc, PLAY, VIA_SUMMON)


def evolve(m: Match, seat: int, card: int, loc: int, in_defence: bool) -> None:
    """R18, R20, G2, G9: put a higher level of the same Being on top of its stack."""
    spec = m.spec
    being = own_being(m, seat, loc)
    for new, price, skips, _ in spec.evolutions[being.stack[-1]]:
        if new == card:
            break
    else:
        raise AssertionError(f"card {card} does not evolve Being at {loc}")
    pay(m, seat, price)
    purpose = S_GEMS_DEFENCE if in_defence else S_GEMS_SKIP if skips else S_GEMS_EVOLVE
    m.tally[seat][purpose] += price
    from_hand(m, seat, card)
    being.stack.append(card)
    being.printed += spec.power[card]
    if being.evolved == m.turn:
        being.evolutions += 1
    else:
        being.evolved = m.turn
        being.evolutions = 1
    being.attacked = -1  # R14: a newly evolved Being is a new card
    being.main_used = -1  # `turn/main` skills are once per turn per top card
    m.log.append((m.turn, seat, card, PLAYED, 1))
    m.log.append((m.turn, seat, card, K_SKIPPED_ONTO if skips else K_EVOLVED_ONTO, 1))
    m.totals[G_SKIPS if skips else G_EVOLUTIONS] += 1
    a = m.attack
    if in_defence and a is not None and a.defending < 0:
        a.counter += spec.power[card]  # G6: no defending Being, the new top card's power counts
    if spec.play_skill_on_evolve and spec.triggers[card][PLAY]:
        push_skills(m, seat, loc, PLAY, VIA_EVOLVE)


def gem_draw(m: Match, seat: int) -> None:
    """R10: pay gems to draw one Being card."""
    price = m.spec.gem_draw_cost
    pay(m, seat, price)
    m.tally[seat][S_GEMS_DRAW] += price
    m.tally[seat][S_DRAWN_BY_GEMS] += draw(m, seat, 1)


def equip(m: Match, seat: int, loc: int) -> None:
    """R11, G11: an active gem goes onto an own Being (+equip_power) until the next turn."""
    m.gems_active[seat] -= 1
    own_being(m, seat, loc).equipped += 1
    m.tally[seat][S_GEMS_EQUIPPED] += 1


def activate(m: Match, seat: int, loc: int, index: int) -> None:
    """G8: a `turn/main` skill, once per turn per top card, its gem cost paid first."""
    being = own_being(m, seat, loc)
    skill = m.spec.skills[being.stack[-1]][index]
    pay(m, seat, skill.cost)
    m.tally[seat][S_GEMS_ACTIVATE] += skill.cost
    being.main_used = m.turn
    push_activation(m, seat, loc, skill)


# -- the attack (R13-R16, R24-R31, G4-G7, G14) -----------------------------------------------------


def declare_attack(m: Match, loc: int, target_name: str) -> None:
    """Step 1: the attacker rests and is marked; step 2: its `attack` skills resolve."""
    seat = m.active
    spec = m.spec
    being = own_being(m, seat, loc)
    being.rested = True
    being.attacked = m.turn
    if target_name == "life":
        target, target_uid = LIFE, -1
        m.tally[seat][S_ATTACKS_LIFE] += 1
    else:
        target = spec.loc_index[target_name]
        aimed = m.field[1 - seat][target]
        assert aimed is not None  # main_options offers only occupied targets
        target_uid = aimed.uid
        m.tally[seat][S_ATTACKS_BEINGS] += 1
    top = being.stack[-1]
    m.attack = Attack(seat, loc, being.uid, top, target, target_uid)
    m.totals[G_ATTACKS] += 1
    m.log.append((m.turn, seat, top, K_ATTACKS, 1))
    if spec.triggers[top][ATTACK]:
        m.todo.append(AFTER_ATTACK_SKILLS_STEP)
        push_skills(m, seat, loc, ATTACK)
    else:
        after_attack_skills(m, AFTER_ATTACK_SKILLS_STEP)  # no skills to resolve: straight on


def after_attack_skills(m: Match, task: Task) -> None:
    """Step 3: the defender may block, unless the attack has fizzled (G14)."""
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    if not _alive(m, a.seat, a.loc, a.uid) or (
        a.target >= 0 and not _alive(m, 1 - a.seat, a.target, a.target_uid)
    ):
        end_attack(m, fizzled=True)
        return
    offer(m, 1 - a.seat, "block", BLOCK_STEP, block_options(m), BLOCK_ANSWER)


def block_options(m: Match) -> tuple[Any, ...]:
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    spec = m.spec
    side = m.field[1 - a.seat]
    options = [NO_BLOCK]
    for loc in spec.blockers[a.loc]:
        being = side[loc]
        if being is not None and not being.rested:
            options.append(spec.block_options[loc])
    return tuple(options)


def block(m: Match, task: Task) -> None:
    """Step 4 (R26, G5): the blocker becomes the defending Being, rests, its skills resolve."""
    option = task[1]
    if option[0] == "no_block":
        after_block(m, AFTER_BLOCK_STEP)  # straight on
        return
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    seat = 1 - a.seat
    loc = m.spec.loc_index[option[1]]
    being = m.field[seat][loc]
    if m.spec.block_rests_blocker:
        being = own_being(m, seat, loc)
        being.rested = True
    assert being is not None  # block_options offers only Beings that are not rested
    a.defending = loc
    a.defending_uid = being.uid
    a.blocked = True
    m.tally[seat][S_BLOCKS] += 1
    m.totals[G_BLOCKS] += 1
    if m.spec.triggers[being.stack[-1]][BLOCK]:
        m.todo.append(AFTER_BLOCK_STEP)
        push_skills(m, seat, loc, BLOCK)
    else:
        after_block(m, AFTER_BLOCK_STEP)  # no skills to resolve: straight on


def after_block(m: Match, task: Task) -> None:
    """Step 5: a defend step when a Being defends, or on a life attack at 0 life (G6, R31)."""
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    defender = 1 - a.seat
    if not _alive(m, a.seat, a.loc, a.uid) or (
        a.defending >= 0 and not _alive(m, defender, a.defending, a.defending_uid)
    ):
        end_attack(m, fizzled=True)
        return
    if a.defending >= 0 or (a.target == LIFE and not m.lives[defender]):
        defend_step(m, task)
    else:
        resolve_attack(m)


def defend_step(m: Match, task: Task) -> None:
    """T_DEFEND: the defender's next discard or evolution; with only `done` left, the defend
    step ends."""
    options = defend_options(m)
    if len(options) == 1:
        resolve_attack(m)
        return
    # the defend step happens during an attack only; no assert in the decision loop
    seat = 1 - m.attack.seat  # type: ignore[union-attr]
    offer(m, seat, "defend", DEFEND, options, DEFEND_ANSWER)


def defend_options(m: Match) -> tuple[Any, ...]:
    """R27, G6: discard any hand card; evolve the defending Being (any own Being if none)."""
    spec = m.spec
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    seat = 1 - a.seat
    hand = m.hands[seat]
    discards = spec.discard_options
    options = [discards[card] for card in hand]
    gems = m.gems_active[seat]
    own = m.field[seat]
    turn = m.turn
    per_turn = spec.evolutions_per_being_per_turn
    locs = (a.defending,) if a.defending >= 0 else range(len(own))
    for loc in locs:
        being = own[loc]
        if being is None:
            continue
        if being.evolved == turn and being.evolutions >= per_turn:
            continue
        if being.entered == turn and not spec.evolve_on_play_turn:
            continue
        for new, price, _, per_loc in spec.evolutions[being.stack[-1]]:
            if price <= gems and new in hand:
                options.append(per_loc[loc])
    options.append(DONE)
    return tuple(options)


def defend(m: Match, task: Task) -> None:
    """A_DEFEND: a discard adds its power and the step goes on; an evolution's play skills
    resolve first; `done` ends the step."""
    option = task[1]
    what = option[0]
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    seat = 1 - a.seat
    if what == "done":
        resolve_attack(m)
    elif what == "discard":
        card = option[1]
        from_hand(m, seat, card)
        (own_abysses(m) if m.shared & ABYSSES else m.abysses)[seat].append(card)
        gain = m.spec.discard_gain[card]
        a.counter += gain
        m.tally[seat][S_DEFENCE_CARDS] += 1
        m.tally[seat][S_DEFENCE_POWER] += gain
        m.log.append((m.turn, seat, card, K_DEFENCE_POWER, gain))
        defend_step(m, DEFEND_STEP)  # the step goes on
    else:  # evolve in defence (R23); its play skills resolve, then the defend step goes on
        m.todo.append(AFTER_BLOCK_STEP)
        evolve(m, seat, option[1], m.spec.loc_index[option[2]], in_defence=True)


def defence_power(m: Match, defending: Being | None) -> int:
    """G7: the defending Being's base + mods (never multiplied) + the counters so far."""
    own = power(m.spec, defending) if defending is not None else 0
    a = m.attack
    assert a is not None  # asked for during an attack only
    return own + a.counter


def resolve_attack(m: Match) -> None:
    """Step 6 (R28-R31, G7, G13): a life card, a defeated Being, or the end of the game."""
    a = m.attack
    assert a is not None  # set by declare_attack until end_attack
    spec = m.spec
    seat = a.seat
    defender = 1 - seat
    attacker = m.field[seat][a.loc]
    if attacker is None or attacker.uid != a.uid:
        end_attack(m, fizzled=True)
        return
    top = attacker.stack[-1]
    if a.defending < 0 and a.target == LIFE and m.lives[defender]:
        take_life(m, defender)  # R30: no defend step at >= 1 life
        m.totals[G_LIFE_HITS] += 1
        m.log.append((m.turn, seat, top, K_LIFE_TAKEN, 1))
        end_attack(m)
        return
    defending = None
    if a.defending >= 0:
        defending = m.field[defender][a.defending]
        if defending is None or defending.uid != a.defending_uid:
            end_attack(m, fizzled=True)
            return
        kind = spec.multiplier[spec.type_of[top]][spec.type_of[defending.stack[-1]]]
        if kind == DOUBLE:
            m.totals[G_X2] += 1
        elif kind == RESIST:
            m.totals[G_RESISTED] += 1
    held = (
        defence_power(m, defending) >= attack_power(spec, attacker, defending) + spec.defense_margin
    )
    m.tally[defender][S_DEFENDS_WON if held else S_DEFENDS_LOST] += 1
    if defending is None:
        m.totals[G_ZERO_SURVIVED if held else G_ZERO_FAILED] += 1
        if not held:
            m.winner = seat
            m.end_reason = ZERO_LIFE_DEFENSE_FAILED
    elif not held:
        m.log.append((m.turn, seat, top, K_BEINGS_DEFEATED, 1))
        m.log.append((m.turn, defender, defending.stack[-1], K_TIMES_DEFEATED, 1))
        m.tally[seat][S_DEFEATS] += 1
        m.tally[defender][S_LOST] += 1
        leave_play(m, defender, a.defending)
    end_attack(m)


def end_attack(m: Match, fizzled: bool = False) -> None:
    """The attack is over: `until: attack` mods expire and the main phase resumes."""
    expire_mods(m, UNTIL_ATTACK, NOBODY)
    m.attack = None
    if fizzled:
        m.totals[G_FIZZLED] += 1
    if m.winner != NOBODY:
        game_over(m)
        return
    ask_main(m, MAIN_STEP)  # the main phase goes on (the step would run next)


def _alive(m: Match, seat: int, loc: int, uid: int) -> bool:
    being = m.field[seat][loc]
    return being is not None and being.uid == uid


# -- the end (G13, G17, §8) ------------------------------------------------------------------------


def reach_turn_limit(m: Match) -> None:
    """G17: the game ends capped; a draw, or with `tiebreak` more life, then more power wins."""
    spec = m.spec
    m.turn = spec.turn_limit
    m.capped = True
    m.end_reason = TURN_LIMIT
    if spec.cap_result == "tiebreak":
        life = [len(m.lives[s]) for s in range(SEATS)]
        strength = [power_in_play(m, s) for s in range(SEATS)]
        if life[0] != life[1]:
            m.winner = 0 if life[0] > life[1] else 1
        elif strength[0] != strength[1]:
            m.winner = 0 if strength[0] > strength[1] else 1
    game_over(m)


def power_in_play(m: Match, seat: int) -> int:
    return sum(power(m.spec, b) for b in m.field[seat] if b is not None)


def game_over(m: Match) -> None:
    """The end: nothing runs after it (flow.run drops the tasks left), no decision is pending."""
    m.phase = OVER
    m.over = True
    m.options = ()
    for seat in range(SEATS):
        row = m.tally[seat]
        row[S_FINAL_LIFE] = len(m.lives[seat])
        row[S_FINAL_HAND] = len(m.hands[seat])
        row[S_FINAL_DECK] = len(m.decks[seat])
        row[S_FINAL_ABYSS] = len(m.abysses[seat])
        row[S_FINAL_POWER] = power_in_play(m, seat)
    if m.winner != NOBODY and m.tally[m.winner][0]:  # S_ZERO_LIFE_TURN
        m.tally[m.winner][S_COMEBACK] = 1


def result_of(m: Match) -> Result:
    stats: dict[str, float] = {name: float(v) for name, v in zip(GAME_STATS, m.totals, strict=True)}
    for seat in range(SEATS):
        for name, value in zip(SEAT_STATS, m.tally[seat], strict=True):
            stats[f"{name}_{seat}"] = float(value)
    reason = m.end_reason or "in_progress"
    if m.winner != NOBODY:
        return Result.win(m.winner, SEATS, reason, m.turn, capped=m.capped, stats=stats)
    return Result.shared(list(range(SEATS)), SEATS, reason, m.turn, capped=m.capped, stats=stats)


# -- words -----------------------------------------------------------------------------------------


def describe_option(m: Match, option: tuple[Any, ...]) -> str:
    """An option in the game's words, e.g. `attack life with storm_herald_2 at C`."""
    spec = m.spec
    ids = spec.catalog.cards
    what = option[0]
    seat = m.decider
    if what in ("keep", "return", "pick"):
        verb = what
        if what == "pick" and m.asking is not None:
            verb = PICK_VERBS.get(m.cont[1].op, "pick")  # the pick's answer task holds its skill
        return f"{verb} {ids[option[1]]}"
    if what == "play":
        loc = spec.loc_index[option[2]]
        here = m.field[seat][loc]
        replaced = f" replacing {ids[here.stack[-1]]}" if here is not None else ""
        return f"play {ids[option[1]]} at {option[2]}{replaced}"
    if what == "evolve":
        loc = spec.loc_index[option[2]]
        being = m.field[seat][loc]
        assert being is not None  # options name occupied locations only
        return f"evolve {ids[being.stack[-1]]} at {option[2]} to {ids[option[1]]}"
    if what == "attack":
        loc = spec.loc_index[option[1]]
        being = m.field[seat][loc]
        assert being is not None
        attacker = ids[being.stack[-1]]
        if option[2] == "life":
            return f"attack life with {attacker} at {option[1]}"
        target = m.field[1 - seat][spec.loc_index[option[2]]]
        assert target is not None
        return f"attack {ids[target.stack[-1]]} at {option[2]} with {attacker} at {option[1]}"
    if what == "gem_draw":
        return f"draw a card for {spec.gem_draw_cost} gem"
    if what == "equip":
        being = m.field[seat][spec.loc_index[option[1]]]
        assert being is not None
        return f"equip a gem to {ids[being.stack[-1]]} at {option[1]}"
    if what == "activate":
        being = m.field[seat][spec.loc_index[option[1]]]
        assert being is not None
        skill = spec.skills[being.stack[-1]][option[2]]
        return f"activate {ids[being.stack[-1]]} at {option[1]}: {skill.text}"
    if what == "end_turn":
        return "end turn"
    if what == "no_block":
        return "no block"
    if what == "block":
        being = m.field[seat][spec.loc_index[option[1]]]
        assert being is not None
        return f"block with {ids[being.stack[-1]]} at {option[1]}"
    if what == "discard":
        return f"discard {ids[option[1]]} (+{spec.discard_gain[option[1]]})"
    if what == "done":  # the defend step's numbers, as the spec asks the engine to show them
        a = m.attack
        assert a is not None  # `done` is offered in the defend step only
        attacking = m.field[a.seat][a.loc]
        assert attacking is not None
        defending = m.field[1 - a.seat][a.defending] if a.defending >= 0 else None
        hit = attack_power(m.spec, attacking, defending)
        held = defence_power(m, defending)
        return f"done (defence {held} against attack {hit}: {hit + spec.defense_margin} needed)"
    if what == "target":
        side = "own" if option[1] == seat else "opposing"
        being = m.field[option[1]][spec.loc_index[option[2]]]
        assert being is not None
        return f"target {side} {ids[being.stack[-1]]} at {option[2]}"
    if what == "revive_at":
        return f"revive at {option[1]}"
    if what == "first":
        being = m.field[seat][spec.loc_index[option[1]]]
        assert being is not None
        return f"resolve {ids[being.stack[-1]]} at {option[1]} first"
    if what == "yes" and m.asking is not None:
        skill = m.cont[1]  # the optional skill's answer task holds it
        return f"yes ({ids[skill.card]}: {skill.text})"
    return " ".join(str(part) for part in option)  # no


# -- the tasks' handlers (the card effects' are bound in effects.py) --------------------------------

TASKS.bind(T_FINISH_SETUP, finish_setup)
TASKS.bind(T_MULLIGAN, ask_mulligan)
TASKS.bind(A_MULLIGAN, mulligan)
TASKS.bind(T_MAIN, ask_main)
TASKS.bind(A_MAIN, take_action)
TASKS.bind(T_PASS_TURN, pass_turn)
TASKS.bind(T_AFTER_ATTACK_SKILLS, after_attack_skills)
TASKS.bind(A_BLOCK, block)
TASKS.bind(T_AFTER_BLOCK, after_block)
TASKS.bind(T_DEFEND, defend_step)
TASKS.bind(A_DEFEND, defend)
TASKS.check()
