"""arrows' rules: the nine steps of a turn (R1), the Activation Sequence (R9) and its chains (R11).

Reads top-down: setup; the turn (gain, draw, reveal, play, score, discard, end); the activation
of one card (S0 triggers, Ability Phase 1, conflicts, flip, Ability Phase 2); chains; the end
of the game. The verbs cards and abilities use (destroy, damage, push, move, swap, place, draw)
are state.py's.

The rules run on the kit's flow engine (balance/core/flow.py), over the tasks state.py declares
(TASKS): everything automatic runs until the next decision (or the end) in the order of the stack
`todo`: first the triggered effects of the last action (reading order of their cells), then the
activations that action queued (P orders 2+ with `chain_order`), then the top of the chain stack,
and only when the stack holds nothing else the turn's next step. A task that asks a decision
stays on the stack; the answer task (`ANSWER_*`) takes it off and goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from random import Random
from typing import TYPE_CHECKING, Self

from balance.core import flow
from balance.core.contract import OPENING, Decision, Result
from balance.core.contract import PLAYED as PLAYED_EVENT
from balance.core.eventchain import EventLog
from balance.core.flow import Task
from balance.core.gamerng import GameRng
from balance.games.arrows import effects, heuristics
from balance.games.arrows.state import (
    ANSWER_ABILITY,
    ANSWER_CHAIN_ORDER,
    ANSWER_CONFLICT,
    ANSWER_DISCARD,
    ANSWER_PLAY,
    ANSWER_REVEAL_ORDER,
    ANSWER_TARGET,
    APPLY,
    CONFLICTS_LOST,
    CONFLICTS_WON,
    DIRECTIONS,
    DISCARD,
    END_PHASE,
    END_TURN,
    FLIPPED,
    FLIPS,
    GAIN_AND_DRAW,
    MOVED,
    NO_VIA,
    OPPOSITE,
    PASS,
    PLAY,
    PLAYED,
    PLAYED_COVERED,
    REACTIVATIONS,
    REVEAL,
    REVEALED,
    RUN_ACTIVATION,
    RUN_GROUP,
    RUN_QUEUED,
    RUN_TRIGGER,
    RUN_TURN,
    S0_TRIGGERS,
    S1_ABILITIES,
    S2_CONFLICTS,
    S2_FIND_CONFLICTS,
    S4_ABILITIES,
    SCORE,
    SKIP,
    T_ACTIVE_PLAYS,
    T_CHAINS,
    T_CONFLICTS,
    T_CONFLICTS_BY_ARROW,
    T_COVERED_DESTROYED,
    T_COVERED_PLAYS,
    T_CREDITS_GAINED,
    T_CREDITS_SPENT,
    T_DISCARDS,
    T_DROPPED_TRIGGERS,
    T_FLIPS,
    T_FLIPS_BY_ARROW,
    T_HAND_SIZES,
    T_MAX_CHAIN_DEPTH,
    T_OWN_TURNS,
    T_PASSES,
    T_UNPAID_REVEALS,
    TALLY_SIZE,
    TASKS,
    TURN_END,
    ArrowsState,
    Piece,
    Trigger,
    board_scores,
    count,
    current_atk,
    current_def,
    destroy,
    draw,
    end_game,
    fights,
    mark,
    own,
    own_zones,
    piece_at,
    place,
    queue_activation,
    take_off_board,
    trigger_of,
    winner,
)

if TYPE_CHECKING:
    from balance.games.arrows.spec import ArrowsSpec

ACTIVE, COVERED = 0, 1  # the two ways to play a card (R6)
MODES = ("active", "covered")


class Arrows(ArrowsState):
    """A game of arrows: the contract's methods that run the rules, over the state's data."""

    __slots__ = ()

    def apply(self, option: int) -> None:
        flow.resume(self, option, TASKS)

    def result(self) -> Result:
        return result(self)

    def determinize(self, seat: int, rng: Random) -> Self:
        copy = super().determinize(seat, rng)
        if copy.asking is None:  # options that read hidden cards are computed afresh
            advance(copy)
        return copy

    def evaluate(self, seat: int) -> float:
        return heuristics.evaluate(self, seat)

    def describe(self, option: int) -> str:
        return describe(self, option)

    def option_bounds(self, among: Sequence[int] | None = None) -> list[float | None] | None:
        """Per option of the pending decision (of those `among`, or all), `evaluate` for its
        seat once applied where worked out unapplied, else None (heuristics.covered_values:
        covered plays after which the turn simply passes). A hint for the bots."""
        return heuristics.covered_values(self, among)

    def option_value(self, option: int) -> float | None:
        """`evaluate` for the decision's seat once the option is applied, where `option_bounds`
        worked it out (heuristics.covered_value), else None."""
        return heuristics.covered_value(self, option)

    def option_twins(self) -> list[int] | None:
        """Per option of the pending decision, an earlier option sure to score the same once
        applied, else itself (heuristics.covered_twins: covered plays on one cell). A hint for
        the bots (balance/bots/greedy.py)."""
        return heuristics.covered_twins(self)


# -- setup (§3) --------------------------------------------------------------------------------


def new_game(spec: ArrowsSpec, lineup: Sequence[str], seed: int) -> Arrows:
    """Shuffle both decks, choose the first player, deal `starting_hand` cards each."""
    if len(lineup) != 2:
        raise ValueError(f"arrows is a 2-player game, got a lineup of {len(lineup)}")
    rng = GameRng(seed)
    decks = []
    for name in lineup:
        deck = [
            card for card, copies in sorted(spec.catalog.decks[name].items()) for _ in range(copies)
        ]
        rng.shuffle(deck)
        decks.append(deck)
    first = {"p0": 0, "p1": 1}.get(spec.first_player)
    if first is None:
        first = rng.stream().randrange(2)
    state = Arrows(
        spec=spec,
        rng=rng,
        gen=0,
        seed=seed,
        first=first,
        turn=1,
        active=first,
        step=GAIN_AND_DRAW,
        credits=[spec.starting_credits, spec.starting_credits],
        decks=decks,
        hands=[[], []],
        graveyards=[[], []],
        removed=[],
        zones_shared=False,
        grid=[None] * spec.cells,
        pieces={},
        occupied=0,
        up_sides=[[], []],
        down=[0, 0],
        turn_enders=0,
        next_uid=1,
        scores=[0, 0],
        todo=[(RUN_TURN,)],
        triggers=[],
        queued=[],
        to_reveal=[],
        plays=0,
        acted=False,
        stall=0,
        activations=0,
        marked=[],
        over=False,
        end_reason="",
        tally=[0] * TALLY_SIZE,
        log=EventLog(),
        asking=None,
        cont=(),
    )
    for seat in (first, 1 - first):
        for _ in range(spec.starting_hand):
            if state.decks[seat]:
                card = state.decks[seat].pop()
                state.hands[seat].append(card)
                state.log.append((0, seat, card, OPENING, 1))
    advance(state)
    return state


# -- the loop: everything automatic, up to the next decision -----------------------------------


def advance(s: ArrowsState) -> None:
    """Run until a decision is pending (`s.asking`) or the game is over (`s.asking` None). A
    decision already pending is asked afresh: the task that asked it is still on the stack (a
    determinized copy whose options may read redealt cards, a position set up by hand)."""
    s.asking = None
    flow.run(s, TASKS)


# -- the turn (R1-R13, §4) ---------------------------------------------------------------------


def run_turn(s: ArrowsState, task: Task) -> None:
    """The turn's steps, in order, while no chain is running: up to a decision when P must
    choose, or until a step fires triggers, queues activations (they resolve first: they go on
    the stack above the turn, which stays at the bottom) or ends the game. `s.step` always names
    the step to run next."""
    todo = s.todo
    todo.append(task)  # alone on the stack: anything above it (`fired`) comes from this step
    spec = s.spec
    step = s.step
    while True:
        if step == PLAY:
            if s.plays < spec.plays_per_turn:
                flow.ask(s, play_decision(s), _ANSWER_PLAY)
                return
            step = TURN_END
        if step == TURN_END:
            resolve_turn_end_effects(s)  # on to SCORE
            if todo[-1] is not task:  # fired
                return
            step = SCORE
        if step == SCORE:
            s.scores = board_scores(s)
            step = s.step = DISCARD
        if step == DISCARD:
            hand = s.hands[s.active]
            if len(hand) > spec.hand_limit:
                decision = Decision(s.active, "discard", tuple(sorted(set(hand))))
                flow.ask(s, decision, _ANSWER_DISCARD)
                return
            step = s.step = END_TURN
        if step == END_TURN:
            end_turn(s)  # on to the next player's GAIN_AND_DRAW, unless the game ends
            if s.over:
                return
            step = GAIN_AND_DRAW
        if step == GAIN_AND_DRAW:
            gain_credits_and_draw(s)  # on to REVEAL
            step = REVEAL
        # REVEAL
        waiting = [uid for uid in s.to_reveal if still_covered(s, uid)] if s.to_reveal else []
        s.to_reveal = waiting
        if not waiting:
            step = s.step = PLAY
            continue
        if len(waiting) > 1:
            cells = sorted(s.pieces[uid].cell for uid in waiting)
            flow.ask(s, Decision(s.active, "reveal_order", tuple(cells)), _ANSWER_REVEAL_ORDER)
            return
        reveal(s, s.pieces[waiting[0]])
        if todo[-1] is not task:  # fired
            return


# The answers to the turn's decisions (`play`, `answer_reveal_order`, `discard`): the turn goes
# on after them (it is still on the stack).
_ANSWER_PLAY: Task = (ANSWER_PLAY,)
_ANSWER_REVEAL_ORDER: Task = (ANSWER_REVEAL_ORDER,)
_ANSWER_DISCARD: Task = (ANSWER_DISCARD,)


def answer_reveal_order(s: ArrowsState, task: Task) -> None:
    reveal(s, piece_at(s, task[1]))


def gain_credits_and_draw(s: ArrowsState) -> None:
    """Steps 1 and 2 (R2, R3): +credits unless it is P's own first turn; draw."""
    spec = s.spec
    seat = s.active
    if not (spec.skip_credits_on_own_first_turn and s.tally[T_OWN_TURNS + seat] == 0):
        s.credits[seat] += spec.credits_per_turn
        s.tally[T_CREDITS_GAINED + seat] += spec.credits_per_turn
    draw(s, seat, spec.draw_per_turn)
    # Step 3 reveals the cards covered when it begins; cards covered during it wait (G7).
    # (their order is immaterial: two or more wait for a `reveal_order` decision by cell)
    s.to_reveal = (
        [p.uid for p in s.pieces.values() if not p.face_up and p.controller == seat]
        if s.down[seat]
        else []
    )
    s.step = REVEAL


def still_covered(s: ArrowsState, uid: int) -> bool:
    piece = s.pieces.get(uid)
    return piece is not None and not piece.face_up and piece.controller == s.active


def reveal(s: ArrowsState, piece: Piece) -> None:
    """Step 3 (R4, G7): pay the deferred cost and activate, or go to the graveyard unpaid."""
    seat = s.active
    s.to_reveal = [uid for uid in s.to_reveal if uid != piece.uid]  # shared with clones
    s.acted = True
    if s.credits[seat] < piece.cost_due:  # unpaid_reveal: destroy, without activating
        take_off_board(s, piece)
        own_zones(s)
        s.graveyards[piece.owner].append(piece.card)
        s.tally[T_UNPAID_REVEALS + seat] += 1
        return
    pay(s, seat, piece.cost_due)
    piece = own(s, piece)
    piece.cost_due = 0
    piece.face_up = True
    piece.sides = s.spec.open_sides[piece.card][piece.cell]
    s.down[piece.controller] -= 1
    s.up_sides[piece.controller].append(piece.sides)
    if s.spec.on_turn_end[piece.card]:
        s.turn_enders += 1
    activate(s, piece, REVEALED)


def play_decision(s: ArrowsState) -> Decision:
    """The `play` decision (§4 steps 4-6), its options listed when first read.

    A search copies the state once per option it looks at, and most of those copies end where
    the next player's `play` decision is pending, without reading its options (a look-ahead
    stops when another seat decides): building 100+ option tuples there was ~15% of the cost of
    such a copy. The decision lists them from a snapshot of all they depend on (the hand, the
    credits, the occupied cells), so they are the same whichever state holds it (clones share
    it)."""
    seat = s.active
    return Decision.lazy(
        seat, "play", play_options, s.spec, tuple(s.hands[seat]), s.credits[seat], s.occupied
    )


def play_options(
    spec: ArrowsSpec, hand: Sequence[int], credits: int, occupied: int
) -> tuple[object, ...]:
    """`pass`, and every (card, active|covered, cell) on an empty cell (§4 steps 4-6):
    `mode=active` needs credits >= cost, `mode=covered` is always legal."""
    if not hand:
        return (PASS,)
    pick = open_cells(spec, occupied)
    options: list[object] = [PASS]
    cost = spec.cost
    plays = spec.plays
    for card in sorted(set(hand)) if len(hand) > 1 else hand:
        picked = pick(plays[card])  # the active plays, then as many covered ones
        options += picked if credits >= cost[card] else picked[len(picked) >> 1 :]
    return tuple(options)


# A card's plays on the open cells: from its row of plays on every cell (spec.plays), the entries
# of the cells where it may be played, in cell order: the active ones, then the covered ones.
CellPick = Callable[[Sequence[tuple[int, int, int]]], tuple[tuple[int, int, int], ...]]

# (cells, adjacency rule, occupied cells) -> the board's CellPick. About half the play decisions
# of random games meet a board seen before; the cache is simply cleared when it grows large. One
# object per board, where the covered plays alone are the second half of what it picks: every
# object the cache keeps is one more for each full collection of the cyclic GC to walk (an entry
# of two pickers in a tuple, three objects, made random play ~5% slower in CPU time for as many
# instructions: 2026-11-26).
_OPEN_CELLS: dict[tuple[int, bool, int], CellPick] = {}


# [k][bits] -> the cells 8k ... 8k+7 set in `bits`: a board's empty cells in a few lookups where
# a scan of every cell was a third of a cache miss's cost. Built as far as a board needs.
_CELLS_IN_BYTE: list[tuple[tuple[int, ...], ...]] = []


def cells_in_bytes(cells: int) -> list[tuple[tuple[int, ...], ...]]:
    """`_CELLS_IN_BYTE`, long enough for a board of `cells` cells."""
    while 8 * len(_CELLS_IN_BYTE) < cells:
        k = len(_CELLS_IN_BYTE)
        _CELLS_IN_BYTE.append(
            tuple(tuple(8 * k + i for i in range(8) if (bits >> i) & 1) for bits in range(256))
        )
    return _CELLS_IN_BYTE


def open_cells(spec: ArrowsSpec, occupied: int) -> CellPick:
    """What picks a card's plays on the cells where it may be played: empty (and next to a card,
    with `placement_requires_adjacency`, once the board holds one); the active ones, then the
    covered ones (as many: the covered plays alone are the second half). An itemgetter: a play
    decision lists some hundred options, and it picks them in C, one call per card."""
    key = (spec.cells, spec.placement_requires_adjacency, occupied)
    pick = _OPEN_CELLS.get(key)
    if pick is None:
        if len(_OPEN_CELLS) >= 50_000:
            _OPEN_CELLS.clear()
        free = spec.all_cells & ~occupied  # the empty cells, 8 at a time
        cells: tuple[int, ...] = ()
        for by_bits in cells_in_bytes(spec.cells):
            if not free:
                break
            cells += by_bits[free & 255]
            free >>= 8
        if spec.placement_requires_adjacency and occupied:
            adjacent = spec.adjacent
            cells = tuple([c for c in cells if any((occupied >> n) & 1 for n in adjacent[c])])
        covered = tuple([spec.cells + cell for cell in cells])  # the row's second half
        # two indexes or more (an active and a covered play per cell): itemgetter gives a tuple
        pick = _OPEN_CELLS[key] = itemgetter(*cells, *covered) if cells else _pick_none
    return pick


def _pick_none(row: Sequence[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    return ()


def play(s: ArrowsState, task: Task) -> None:
    """Steps 4-6 (R5-R8), the answer to `play` (its choice last in `task`): an active card is
    paid and activates; a covered one waits (G7)."""
    choice: tuple[int, int, int] | str = task[-1]
    seat = s.active
    if isinstance(choice, str):  # PASS
        s.tally[T_PASSES] += 1
        s.step = TURN_END
        return
    card, mode, cell = choice
    s.hands[seat].remove(card)
    s.plays += 1
    s.acted = True
    s.log.append((s.turn, seat, card, PLAYED_EVENT, 1))
    if mode == ACTIVE:
        cost = s.spec.cost[card]
        s.credits[seat] -= cost  # pay
        s.tally[T_CREDITS_SPENT + seat] += cost
        s.tally[T_ACTIVE_PLAYS + seat] += 1
        activate(s, place(s, seat, card, cell, True, 0, False), PLAYED)
    else:
        s.tally[T_COVERED_PLAYS + seat] += 1
        s.log.append((s.turn, seat, card, PLAYED_COVERED, 1))
        place(s, seat, card, cell, False, s.spec.cost[card], False)


def pay(s: ArrowsState, seat: int, amount: int) -> None:
    s.credits[seat] -= amount
    s.tally[T_CREDITS_SPENT + seat] += amount


def resolve_turn_end_effects(s: ArrowsState) -> None:
    """Step 7 begins with the `turn_end` effects of P's face-up cards, in reading order."""
    if s.turn_enders:
        on_turn_end = s.spec.on_turn_end
        seat = s.active
        for piece in s.pieces.values():  # end_action puts them in reading order
            if on_turn_end[piece.card] and piece.face_up and piece.controller == seat:
                for effect in on_turn_end[piece.card]:
                    s.triggers.append(trigger_of(s, piece, effect, NO_VIA))
        end_action(s)
    s.step = SCORE


def discard(s: ArrowsState, task: Task) -> None:
    """Step 8 (R13, G15), the answer to `discard` (its card last in `task`): one card per
    decision, to the graveyard."""
    card: int = task[-1]
    seat = s.active
    s.hands[seat].remove(card)
    own_zones(s)
    s.graveyards[seat].append(card)
    s.tally[T_DISCARDS + seat] += 1


def end_turn(s: ArrowsState) -> None:
    """Step 9: clear damage and turn-long changes (G5), count stalls, check the end (§8)."""
    spec = s.spec
    seat = s.active
    if s.marked:
        pieces = s.pieces
        for uid in s.marked:
            piece = pieces.get(uid)  # None: it left the board since
            if piece is not None and (
                piece.damage
                or piece.atk_turn
                or piece.def_turn
                or piece.moved
                or piece.reactivations
            ):
                piece = own(s, piece)
                piece.damage = 0
                piece.atk_turn = 0
                piece.def_turn = 0
                piece.moved = False
                piece.reactivations = 0
        s.marked = []
    s.activations = 0
    s.stall = 0 if s.acted else s.stall + 1
    s.tally[T_HAND_SIZES + seat] += len(s.hands[seat])
    s.tally[T_OWN_TURNS + seat] += 1
    if spec.board_full_end == "end_of_turn" and len(s.pieces) == spec.cells:
        end_game(s, "board_full")
    elif s.stall >= spec.stall_turns:
        end_game(s, "stall")
    elif s.turn >= spec.max_turns:
        end_game(s, "turn_cap")
    else:
        s.turn += 1
        s.active = 1 - seat
        s.step = GAIN_AND_DRAW
        s.plays = 0
        s.acted = False


# -- the Activation Sequence (R9, §4 frames) ---------------------------------------------------


# The `ability` decision with nothing to use but `end_phase`, per seat: Decisions are immutable.
_NOTHING_TO_USE = (Decision(0, "ability", (END_PHASE,)), Decision(1, "ability", (END_PHASE,)))
_ANSWER_ABILITY: Task = (ANSWER_ABILITY,)
_ANSWER_CONFLICT: Task = (ANSWER_CONFLICT,)


def run_activation(s: ArrowsState, task: Task) -> None:
    """A card's Activation Sequence, its steps in order (S0 ... S4), up to a decision, or until
    a step fires triggers or queues activations (they resolve first). A card that left the
    board, or is no longer P's face-up card, ends its sequence at once (G4). Before a step acts,
    the activation goes back on the stack as it stands after that step (its task is a tuple),
    so that what the step fires resolves before the sequence goes on."""
    _, uid, reactivation, via, step, used, revived, conflicts = task
    piece = s.pieces.get(uid)
    if piece is None or not piece.face_up or piece.controller != s.active:
        return
    todo = s.todo
    if step == S0_TRIGGERS:
        step = S1_ABILITIES
        card_effects = s.spec.on_reactivate if reactivation else s.spec.on_activate
        if card_effects[piece.card]:
            todo.append((RUN_ACTIVATION, uid, reactivation, via, step, used, revived, conflicts))
            for effect in card_effects[piece.card]:
                s.triggers.append(trigger_of(s, piece, effect, via))
            end_action(s)
            return
        task = (RUN_ACTIVATION, uid, reactivation, via, step, used, revived, conflicts)
    if step == S1_ABILITIES or step == S4_ABILITIES:
        todo.append(task)
        flow.ask(s, ability_decision(s, piece, used, revived, via), _ANSWER_ABILITY)
        return
    fight_and_flip(s, piece, task, step == S2_FIND_CONFLICTS)


def fight_and_flip(s: ArrowsState, piece: Piece, task: Task, find: bool) -> None:
    """From S2 on: the conflicts (found first with `find`, else the ones `task` still holds)
    one by one, the flip, then Ability Phase 2's decision."""
    _, uid, reactivation, via, _, used, revived, conflicts = task
    todo = s.todo
    aimed = s.spec.aimed[piece.card][piece.cell] & s.occupied  # else no conflict, no flip
    if find and aimed:
        conflicts = find_conflicts(s, piece)
    if conflicts:
        waiting = [c for c in conflicts if in_conflict(s, piece, c[0], c[1])]
        if waiting:
            conflicts = tuple(waiting)
            todo.append((RUN_ACTIVATION, uid, reactivation, via, S2_CONFLICTS, used, revived,
                         conflicts))  # fmt: skip
            arrows = tuple(arrow for arrow, _ in conflicts)
            flow.ask(s, Decision(s.active, "conflict", arrows), _ANSWER_CONFLICT)
            return
        conflicts = ()
    # S3_FLIP
    task = (RUN_ACTIVATION, uid, reactivation, via, S4_ABILITIES, used, revived, conflicts)
    todo.append(task)
    if aimed:
        flip(s, piece)
        if s.triggers:
            end_action(s)
        if todo[-1] is not task or s.over:  # what the flip fired goes first
            return
    flow.ask(s, ability_decision(s, piece, used, revived, via), _ANSWER_ABILITY)


def ability_decision(s: ArrowsState, piece: Piece, used: int, revived: int, via: int) -> Decision:
    """Ability Phase 1 or 2: `end_phase` and every usable unused ability."""
    if not s.spec.abilities[piece.card]:
        return _NOTHING_TO_USE[s.active]
    usable = effects.ability_options(s, piece, used, revived, via)
    if not usable:
        return _NOTHING_TO_USE[s.active]
    return Decision(s.active, "ability", (END_PHASE, *usable))


def answer_ability(s: ArrowsState, task: Task) -> None:
    """Ability Phase 1 or 2 (R10): use one ability, or end the phase."""
    choice = task[1]
    todo = s.todo
    frame = todo.pop()
    if choice == END_PHASE:
        if frame[4] == S1_ABILITIES:  # ending a phase fires nothing: the sequence goes on at once
            fight_and_flip(s, s.pieces[frame[1]], frame, True)
        # else the end of Ability Phase 2 is the end of the sequence
        return
    _, uid, reactivation, via, step, used, revived, conflicts = frame
    used, revived = effects.spent(s.spec, used, revived, choice)
    todo.append((RUN_ACTIVATION, uid, reactivation, via, step, used, revived, conflicts))
    effects.use_ability(s, s.pieces[uid], choice)
    end_action(s)


def find_conflicts(s: ArrowsState, piece: Piece) -> tuple[tuple[int, int], ...]:
    """R12: the card's arrows at an opponent face-up card with an arrow pointing back."""
    grid = s.grid
    fight_mask = s.spec.fight_mask
    seat = piece.controller
    found = []
    for arrow, cell, back in s.spec.aims[piece.card][piece.cell]:
        defender = grid[cell]
        if (
            defender is not None
            and defender.face_up
            and defender.controller != seat
            and fight_mask[defender.card] & back
        ):
            found.append((arrow, defender.uid))
    return tuple(found) if found else ()


def in_conflict(s: ArrowsState, piece: Piece, arrow: int, uid: int) -> bool:
    """The pair still qualifies (checked just before it resolves)."""
    spec = s.spec
    cell = spec.neighbor[piece.cell][arrow]
    defender = s.grid[cell] if cell >= 0 else None
    return (
        defender is not None
        and defender.uid == uid
        and defender.face_up
        and defender.controller != piece.controller
        and fights(spec, defender.card, OPPOSITE[arrow])
    )


def answer_conflict(s: ArrowsState, task: Task) -> None:
    """The `conflict` decision's answer: that conflict resolves (G4), the others wait."""
    arrow = task[1]
    todo = s.todo
    _, uid, reactivation, via, step, used, revived, conflicts = todo.pop()
    for i, (conflict_arrow, defender) in enumerate(conflicts):
        if conflict_arrow == arrow:
            conflicts = conflicts[:i] + conflicts[i + 1 :]
            break
    frame = (RUN_ACTIVATION, uid, reactivation, via, step, used, revived, conflicts)
    conflict(s, s.pieces[uid], s.pieces[defender], arrow)  # reads nor changes the stack
    if s.triggers:  # what a death fired resolves before the sequence goes on
        todo.append(frame)
        end_action(s)
    else:  # nothing fired: the sequence goes on at once (the frame would be next anyway)
        run_activation(s, frame)


def conflict(s: ArrowsState, active: Piece, defender: Piece, arrow: int) -> None:
    """G4: simultaneous damage; a card at 0 DEF or below is destroyed."""
    spec = s.spec
    active, defender = own(s, active), own(s, defender)
    mark(s, active)
    mark(s, defender)
    hit, hit_back = current_atk(spec, active), current_atk(spec, defender)
    defender.damage += hit
    active.damage += hit_back
    s.tally[T_CONFLICTS] += 1
    s.tally[T_CONFLICTS_BY_ARROW + arrow] += 1
    defender_dies = current_def(spec, defender) <= 0
    active_dies = current_def(spec, active) <= 0
    if defender_dies:
        count(s, defender, CONFLICTS_LOST)
        if not active_dies:
            count(s, active, CONFLICTS_WON)
        destroy(s, defender, active.card, active.owner)
    if active_dies:
        count(s, active, CONFLICTS_LOST)
        if not defender_dies:
            count(s, defender, CONFLICTS_WON)
        destroy(s, active, defender.card, defender.owner)


def flip(s: ArrowsState, piece: Piece) -> None:
    """S3 (G6, G7): every opponent card the arrows reach with no arrow back, all at once. A
    face-up card changes controller (and reactivates if it moved this turn); a covered card is
    handled by `covered_hit`."""
    spec = s.spec
    seat = piece.controller
    grid = s.grid
    fight_mask = spec.fight_mask
    flipped: list[tuple[int, Piece]] = []
    hit: list[Piece] = []
    for arrow, cell, back in spec.aims[piece.card][piece.cell]:
        target = grid[cell]
        if target is None or target.controller == seat:
            continue
        if not target.face_up:
            hit.append(target)
        elif not fight_mask[target.card] & back:
            flipped.append((arrow, target))
    for arrow, target in flipped:
        target = own(s, target)
        s.up_sides[target.controller].remove(target.sides)
        s.up_sides[seat].append(target.sides)
        target.controller = seat
        s.tally[T_FLIPS] += 1
        s.tally[T_FLIPS_BY_ARROW + arrow] += 1
        count(s, piece, FLIPS)
        count(s, target, FLIPPED)
        for effect in spec.on_flipped[target.card]:
            s.triggers.append(trigger_of(s, target, effect, NO_VIA))
        if target.moved:
            queue_activation(s, target, True, MOVED)
    covered_hit = spec.covered_hit
    for target in hit:
        if covered_hit == "destroy":
            destroy(s, target, piece.card, piece.owner)
        elif covered_hit == "flip":
            target = own(s, target)
            s.down[target.controller] -= 1
            s.down[seat] += 1
            target.controller = seat
            s.tally[T_FLIPS] += 1
            count(s, target, FLIPPED)


# -- chains (R11, G9) --------------------------------------------------------------------------


def end_action(s: ArrowsState) -> None:
    """An atomic action is complete: its triggered effects resolve next, in the reading order
    of their source cells (the next one on top of the stack)."""
    if s.triggers:
        batch = sorted(s.triggers, key=_by_cell)
        todo = s.todo
        for trigger in reversed(batch):
            todo.append((RUN_TRIGGER, trigger))
        s.triggers = []


def _by_cell(trigger: Trigger) -> int:
    return trigger.cell


_ANSWER_TARGET: Task = (ANSWER_TARGET,)


def run_trigger(s: ArrowsState, task: Task) -> None:
    """Resolve the next triggered effect, or ask its `target` decision."""
    trigger: Trigger = task[1]
    effect = trigger.effect
    if effect.conditions and not effects.conditions_hold(
        s, effect, trigger.controller, trigger.cell, trigger.via
    ):
        return
    options = effects.trigger_options(s, trigger)
    if options is None:
        effects.resolve_trigger(s, trigger, None)
        end_action(s)
        return
    if not options:  # no legal target: it fizzles
        return
    s.todo.append(task)
    flow.ask(s, Decision(trigger.controller, "target", options), _ANSWER_TARGET)


def answer_target(s: ArrowsState, task: Task) -> None:
    trigger = s.todo.pop()[1]
    effects.resolve_trigger(s, trigger, task[1])
    end_action(s)


def run_queued(s: ArrowsState, task: Task) -> None:
    """The activations queued since the last ones started: 2+ go on the stack as a group (P
    orders them); one starts at once if still P's face-up card."""
    queued = s.queued
    s.queued = []
    if len(queued) > 1:
        s.todo.append((RUN_GROUP, tuple(queued)))
        return
    piece = s.pieces.get(queued[0][0])
    if piece is not None and piece.face_up and piece.controller == s.active:
        run_activation(s, start_activation(s, queued[0]))  # it runs at once (nothing is above)


_ANSWER_CHAIN_ORDER: Task = (ANSWER_CHAIN_ORDER,)


def run_group(s: ArrowsState, task: Task) -> None:
    """Activations queued together: one starts (last in, first out); 2+ wait for `chain_order`."""
    seat = s.active
    alive = []
    for entry in task[1]:
        piece = s.pieces.get(entry[0])
        if piece is not None and piece.face_up and piece.controller == seat:
            alive.append(entry)
    if len(alive) > 1:
        s.todo.append((RUN_GROUP, tuple(alive)))
        cells = tuple(sorted(s.pieces[uid].cell for uid, _, _ in alive))
        flow.ask(s, Decision(seat, "chain_order", cells), _ANSWER_CHAIN_ORDER)
        return
    if alive:
        s.todo.append(start_activation(s, alive[0]))


def answer_chain_order(s: ArrowsState, task: Task) -> None:
    todo = s.todo
    entries = todo.pop()[1]
    uid = piece_at(s, task[1]).uid
    for i, entry in enumerate(entries):
        if entry[0] == uid:
            todo.append((RUN_GROUP, entries[:i] + entries[i + 1 :]))
            todo.append(start_activation(s, entry))
            return
    todo.append((RUN_GROUP, entries))  # pragma: no cover - an offered cell holds a queued card


def activate(s: ArrowsState, piece: Piece, via: int) -> None:
    """A card played or revealed (R8, R4) activates, at once: what `queue_activation` then
    `run_queued` do, without the `(RUN_QUEUED,)` task's trip through the stack. The same order:
    a play or a reveal fires nothing else and happens only while the turn is alone on the stack
    (nothing queued), and the card is new to the chain stack (it was in a hand, or covered)."""
    if s.activations >= s.spec.max_activations_per_turn:  # the per-turn cap (G9): dropped
        s.tally[T_DROPPED_TRIGGERS] += 1
        return
    s.activations += 1
    if not s.over:  # the last cell ended the game (`board_full_end: immediate`)
        run_activation(s, start_activation(s, (piece.uid, False, via)))


def start_activation(s: ArrowsState, entry: tuple[int, bool, int]) -> Task:
    """A card's Activation Sequence begins: its task, to go on top of the stack (or run at once)."""
    uid, reactivation, via = entry
    todo = s.todo
    # its depth: 1 over the turn alone, else one more than the activations on the stack
    depth = 1 if len(todo) == 1 else 1 + sum(task[0] == RUN_ACTIVATION for task in todo)
    if depth > 1:
        s.tally[T_CHAINS] += 1
    s.tally[T_MAX_CHAIN_DEPTH] = max(s.tally[T_MAX_CHAIN_DEPTH], depth)
    if reactivation:
        count(s, s.pieces[uid], REACTIVATIONS)
    return (RUN_ACTIVATION, uid, reactivation, via, S0_TRIGGERS, 0, 0, ())


# -- the end (§8) ------------------------------------------------------------------------------


def result(s: ArrowsState) -> Result:
    scores = board_scores(s)
    winner_seat = winner(s)
    reason = s.end_reason or "in_progress"
    kw = {"capped": reason == "turn_cap", "stats": game_stats(s, scores)}
    if winner_seat is None:
        return Result.shared([0, 1], 2, reason, s.turn, **kw)
    return Result.win(winner_seat, 2, reason, s.turn, **kw)


def game_stats(s: ArrowsState, scores: list[int]) -> dict[str, float]:
    t = s.tally
    stats: dict[str, float] = {
        "first_player": s.first,
        "board_score_0": scores[0],
        "board_score_1": scores[1],
        "margin": abs(scores[0] - scores[1]),
        "chains": t[T_CHAINS],
        "max_chain_depth": t[T_MAX_CHAIN_DEPTH],
        "conflicts": t[T_CONFLICTS],
        "flips": t[T_FLIPS],
        "covered_destroyed": t[T_COVERED_DESTROYED],
        "dropped_triggers": t[T_DROPPED_TRIGGERS],
        "passes": t[T_PASSES],
    }
    for seat in (0, 1):
        stats[f"credits_gained_{seat}"] = t[T_CREDITS_GAINED + seat]
        stats[f"credits_spent_{seat}"] = t[T_CREDITS_SPENT + seat]
        stats[f"credits_unspent_{seat}"] = s.credits[seat]
        stats[f"active_plays_{seat}"] = t[T_ACTIVE_PLAYS + seat]
        stats[f"covered_plays_{seat}"] = t[T_COVERED_PLAYS + seat]
        stats[f"unpaid_reveals_{seat}"] = t[T_UNPAID_REVEALS + seat]
        stats[f"discards_{seat}"] = t[T_DISCARDS + seat]
        own_turns = t[T_OWN_TURNS + seat]
        stats[f"avg_hand_{seat}"] = t[T_HAND_SIZES + seat] / own_turns if own_turns else 0.0
    for arrow, name in enumerate(DIRECTIONS):
        stats[f"conflicts_{name}"] = t[T_CONFLICTS_BY_ARROW + arrow]
        stats[f"flips_{name}"] = t[T_FLIPS_BY_ARROW + arrow]
    return {key: float(value) for key, value in stats.items()}


# -- words -------------------------------------------------------------------------------------


def describe(s: ArrowsState, option: int) -> str:
    """The pending decision's option in the game's words, e.g. `play lancer_pup active at C3`."""
    decision = s.asking
    if decision is None:
        raise ValueError("the game is over")
    choice = decision.options[option]
    spec = s.spec
    kind = decision.kind
    if choice in (PASS, SKIP, APPLY):
        return str(choice)
    if choice == END_PHASE:
        return "end phase"
    if kind == "play":
        card, mode, cell = choice
        return f"play {spec.catalog.cards[card]} {MODES[mode]} at {spec.cell_names[cell]}"
    if kind == "ability":
        return effects.describe_ability(spec, choice)
    if kind == "conflict":
        piece = s.pieces[s.todo[-1][1]]  # the activation that asks
        target = spec.neighbor[piece.cell][choice]
        return f"conflict {DIRECTIONS[choice]} with {spec.cell_names[target]}"
    if kind == "discard":
        return f"discard {spec.catalog.cards[choice]}"
    words = {"reveal_order": "reveal", "chain_order": "chain", "target": "target"}[kind]
    return f"{words} {spec.cell_names[choice]}"


TASKS.bind(RUN_TURN, run_turn)
TASKS.bind(RUN_ACTIVATION, run_activation)
TASKS.bind(RUN_GROUP, run_group)
TASKS.bind(RUN_QUEUED, run_queued)
TASKS.bind(RUN_TRIGGER, run_trigger)
TASKS.bind(ANSWER_PLAY, play)
TASKS.bind(ANSWER_REVEAL_ORDER, answer_reveal_order)
TASKS.bind(ANSWER_DISCARD, discard)
TASKS.bind(ANSWER_ABILITY, answer_ability)
TASKS.bind(ANSWER_CONFLICT, answer_conflict)
TASKS.bind(ANSWER_TARGET, answer_target)
TASKS.bind(ANSWER_CHAIN_ORDER, answer_chain_order)
TASKS.check()
