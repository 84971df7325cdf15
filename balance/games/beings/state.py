"""beings' state: both players' zones, the Beings in play, the attack under way, and the flow.

State is data. The few zone moves that rules and card effects share (draw, lose a life card, leave
play, gain gems, pay) live here as plain functions; what may happen when lives in rules.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from balance.core.codes import Names
from balance.core.contract import DRAWN, FIRST_COUNTER, Decision
from balance.core.eventchain import EventLog, Logged
from balance.core.flow import Task, Tasks
from balance.core.gamerng import GameRng

if TYPE_CHECKING:
    from collections.abc import Callable

    from balance.games.beings.spec import BeingsSpec

# -- the flow ---------------------------------------------------------------------------------
# The game runs on the kit's flow engine (balance/core/flow.py): the steps of the turn and the
# card effects still to resolve are tasks on `todo`; a step that needs a choice poses it
# (`offer`) and names the task that takes the answer. `phase` says what kind of decision is
# pending (what the bounds in rules.py and the heuristics read), OVER once the game has ended.
RUN, MULLIGAN, MAIN, BLOCK, DEFEND, EFFECT, OVER = range(7)

# The tasks, declared in the engine's table; effects.py binds the card effects' handlers and
# rules.py the rest. A `T_*` task runs a step; an `A_*` task takes the answer to a decision
# (the chosen option appended last).
TASKS: Tasks[Match] = Tasks("beings")
T_FINISH_SETUP = TASKS.declare("finish_setup")  # life cards, starting gems, turn 1
T_MULLIGAN = TASKS.declare("mulligan")  # (T_MULLIGAN, seat, index, marks): keep or return?
A_MULLIGAN = TASKS.declare("mulligan_answer")
T_MAIN = TASKS.declare("main")  # the active player's main-phase decision
A_MAIN = TASKS.declare("main_answer")
T_PASS_TURN = TASKS.declare("pass_turn")  # the turn-end skills have resolved: next turn
T_AFTER_ATTACK_SKILLS = TASKS.declare("after_attack_skills")  # the block step, unless fizzled
A_BLOCK = TASKS.declare("block_answer")
T_AFTER_BLOCK = TASKS.declare("after_block")  # the defend step, or the attack resolves
T_DEFEND = TASKS.declare("defend")  # the defender's next discard or evolve, or done
A_DEFEND = TASKS.declare("defend_answer")
# (T_EFFECT, seat, loc, uid, skill, via): a skill of the Being `uid` at (seat, loc) resolves
T_EFFECT = TASKS.declare("effect")
A_OPTIONAL = TASKS.declare("optional_answer")  # (A_OPTIONAL, skill, seat, loc, yes/no)
A_TARGET = TASKS.declare("target_answer")  # (A_TARGET, skill, seat, target)
# (T_PICK, skill, who, left, seat): `who` picks the next of `left` cards for the skill
T_PICK = TASKS.declare("pick")
A_PICK = TASKS.declare("pick_answer")  # (A_PICK, skill, who, left, seat, pick)
T_REVIVE_LOC = TASKS.declare("revive_loc")  # (T_REVIVE_LOC, seat, card): where it enters
A_REVIVE_LOC = TASKS.declare("revive_loc_answer")  # (A_REVIVE_LOC, seat, card, location)
# (T_ORDER, seat, trigger, sources): the owner orders simultaneous triggers, (loc, uid) each
T_ORDER = TASKS.declare("order")
A_ORDER = TASKS.declare("order_answer")  # (A_ORDER, seat, trigger, sources, first)
# Zones a match may share with its clones (`Match.shared`), both seats' at once
DECKS, LIVES, ABYSSES = 1, 2, 4

NOBODY = -1
LIFE = -1  # an attack's target when it aims at the life area

# -- the game's own per-card counters (event FIRST_COUNTER + k), Catalog.counters order ----------
COUNTERS = Names(FIRST_COUNTER)
K_SUMMONED = COUNTERS.add("summoned")  # played from hand at full cost
K_EVOLVED_ONTO = COUNTERS.add("evolved_onto")  # a Being evolved one level onto this card
K_SKIPPED_ONTO = COUNTERS.add("skipped_onto")  # a Being skip-evolved onto this card
K_ATTACKS = COUNTERS.add("attacks")  # attacks declared with this card on top
K_LIFE_TAKEN = COUNTERS.add("life_taken")  # life cards taken by attacks with this card on top
# Beings defeated in battle by attacks with this card on top
K_BEINGS_DEFEATED = COUNTERS.add("beings_defeated")
# this card was the top of a Being defeated (battle or effect)
K_TIMES_DEFEATED = COUNTERS.add("times_defeated")
# power added by discarding this card in a defend step
K_DEFENCE_POWER = COUNTERS.add("defence_power")
K_SKILLS = COUNTERS.add("skill_resolutions")  # this card's skills that resolved
K_MULLIGAN_RETURNED = COUNTERS.add("mulligan_returned")  # returned in the mulligan

# -- per-seat tallies (spec §9), reported as `<name>_<seat>` in Result.stats ---------------------
SEAT_STATS = Names()
S_ZERO_LIFE_TURN = SEAT_STATS.add("zero_life_turn")  # turn the seat first reached 0 life (0: never)
S_DECK_OUT_TURN = SEAT_STATS.add("decked_out_turn")  # turn the seat's Being deck ran out (0: never)
S_COMEBACK = SEAT_STATS.add("comeback_win")  # 1 if the seat won after being at 0 life
S_GEMS_PLAY = SEAT_STATS.add("gems_play")  # gems spent by purpose ...
S_GEMS_EVOLVE = SEAT_STATS.add("gems_evolve")
S_GEMS_SKIP = SEAT_STATS.add("gems_skip_evolve")
S_GEMS_DRAW = SEAT_STATS.add("gems_draw")
S_GEMS_DEFENCE = SEAT_STATS.add("gems_defence_evolve")
S_GEMS_ACTIVATE = SEAT_STATS.add("gems_activate")
S_GEMS_EQUIPPED = SEAT_STATS.add("gems_equipped")
S_DRAWN_BY_GEMS = SEAT_STATS.add("cards_drawn_by_gems")
S_ATTACKS_LIFE = SEAT_STATS.add("attacks_life")
S_ATTACKS_BEINGS = SEAT_STATS.add("attacks_beings")
S_BLOCKS = SEAT_STATS.add("blocks")
S_DEFENDS_WON = SEAT_STATS.add("defend_steps_won")
S_DEFENDS_LOST = SEAT_STATS.add("defend_steps_lost")
S_DEFENCE_CARDS = SEAT_STATS.add("defence_cards")
S_DEFENCE_POWER = SEAT_STATS.add("defence_power")
S_DEFEATS = SEAT_STATS.add("beings_defeated")  # opposing Beings this seat defeated in battle
S_LOST = SEAT_STATS.add("beings_lost")  # own Beings defeated (battle or effect)
S_MULLIGAN = SEAT_STATS.add("mulligan_returned")
S_FINAL_LIFE = SEAT_STATS.add("final_life")
S_FINAL_HAND = SEAT_STATS.add("final_hand")
S_FINAL_DECK = SEAT_STATS.add("final_deck")
S_FINAL_ABYSS = SEAT_STATS.add("final_abyss")
S_FINAL_POWER = SEAT_STATS.add("final_power")

# -- game-level tallies (spec §9) ---------------------------------------------------------------
GAME_STATS = Names()
G_FIRST_SEAT = GAME_STATS.add("first_seat")
G_ATTACKS = GAME_STATS.add("attacks")
G_LIFE_HITS = GAME_STATS.add("life_hits")
G_BLOCKS = GAME_STATS.add("blocks")
G_ZERO_SURVIVED = GAME_STATS.add("zero_life_defences_survived")
G_ZERO_FAILED = GAME_STATS.add("zero_life_defences_failed")
G_EVOLUTIONS = GAME_STATS.add("evolutions")
G_SKIPS = GAME_STATS.add("skip_evolutions")
G_REPLACED = GAME_STATS.add("replaced")
G_FIZZLED = GAME_STATS.add("fizzled")
G_X2 = GAME_STATS.add("attacks_x2")  # attacks resolved at × double_multiplier
G_RESISTED = GAME_STATS.add("attacks_resisted")  # attacks resolved at ÷ resist_divisor


class Being:
    """A Being in play: its stack of cards (bottom to top) at one location, and its marks.

    `printed` caches the sum of the stack's printed power; turn marks hold the turn number of the
    event (-1: never). `mods` are skill modifiers `(n, until, controller)`.

    Clones of a match share their Beings (copy on write): `owner` is the token of the match that
    may change this object in place; any other match copies it first (`own_being`). So a Being
    whose owner is not its match's token never changes again: `terms` keeps what the evaluation
    reads of such a Being (heuristics.being_terms), worked out once for every clone that shares
    it; None until then, and always None on a Being its match may still change.
    """

    __slots__ = (
        "attacked",
        "entered",
        "equipped",
        "evolutions",
        "evolved",
        "main_used",
        "mods",
        "owner",
        "printed",
        "rested",
        "stack",
        "terms",
        "uid",
    )

    def __init__(self, uid: int, card: int, printed: int, turn: int, owner: object) -> None:
        self.uid = uid  # identifies this Being while it stays in play (its pending skills too)
        self.stack = [card]
        self.printed = printed
        self.rested = False
        self.entered = turn
        self.evolved = -1
        self.evolutions = 0  # evolutions on turn `evolved`
        self.attacked = -1
        self.main_used = -1  # turn a `turn/main` skill of the current top card was activated
        self.equipped = 0
        self.mods: list[tuple[int, int, int]] = []
        self.owner = owner
        self.terms: tuple[Any, ...] | None = None

    def copy(self, owner: object) -> Being:
        twin = Being.__new__(Being)
        twin.uid = self.uid
        twin.stack = self.stack[:]
        twin.printed = self.printed
        twin.rested = self.rested
        twin.entered = self.entered
        twin.evolved = self.evolved
        twin.evolutions = self.evolutions
        twin.attacked = self.attacked
        twin.main_used = self.main_used
        twin.equipped = self.equipped
        twin.mods = self.mods[:]
        twin.owner = owner
        twin.terms = None  # the copy is made to be changed
        return twin


class Attack:
    """The attack under way. `target` is a location of the defender or LIFE; `defending` is the
    location of the defending Being (the blocker once declared, else the target Being; -1: none).
    """

    __slots__ = (
        "blocked",
        "card",
        "counter",
        "defending",
        "defending_uid",
        "loc",
        "seat",
        "target",
        "target_uid",
        "uid",
    )

    def __init__(self, seat: int, loc: int, uid: int, card: int, target: int, target_uid: int):
        self.seat = seat  # the attacking player
        self.loc = loc
        self.uid = uid
        self.card = card  # the attacker's top card when declared (its statistics)
        self.target = target
        self.target_uid = target_uid
        self.defending = target
        self.defending_uid = target_uid
        self.blocked = False
        self.counter = 0  # defence added by discards, and evolutions with no defending Being

    def copy(self) -> Attack:
        twin = Attack.__new__(Attack)
        twin.seat = self.seat
        twin.loc = self.loc
        twin.uid = self.uid
        twin.card = self.card
        twin.target = self.target
        twin.target_uid = self.target_uid
        twin.defending = self.defending
        twin.defending_uid = self.defending_uid
        twin.blocked = self.blocked
        twin.counter = self.counter
        return twin


@dataclass(slots=True, eq=False, weakref_slot=True)
class Match(Logged):
    """One game of beings. Seats are 0 and 1; `first` is the seat of Player 1.

    Zones are lists with their top at the end (Being decks, life areas); `field[seat][loc]` is a
    Being or None. The flow is the kit's (`todo`, `asking`, `cont`, `over`: balance/core/flow.py);
    the pending decision's seat and options are also kept as `decider` and `options`, and its
    kind of step as `phase`, for the bounds and heuristics that read them.

    Cloning is cheap because clones share what they have not changed yet: Beings (copied by the
    first match that changes one, see `own_being`), the RNG (the kit's GameRng, copied by the
    first that draws), the events logged before the clone (the kit's EventLog), and the zones
    that change seldom: the Being decks, the life areas and the Abysses (`shared`: copied by
    the first match that changes them, see `own_decks`). A search copies a match once per move
    it tries, and most of its copies change none of those: copying them was a third of a copy.
    """

    spec: BeingsSpec
    rng: GameRng  # every draw of the game: `rng.shuffle(cards)`, `rng.stream()` for the others
    token: object  # this match's mark on the Beings it may change in place
    seed: int
    first: int
    turn: int
    active: int  # whose turn it is
    phase: int
    decider: int
    options: tuple[Any, ...]
    todo: list[Task]  # the tasks to run, the last one next (tuples: a clone copies one list)
    asking: Decision | None
    cont: Task
    over: bool
    attack: Attack | None
    actions: int  # main-phase actions this turn
    next_uid: int
    decks: list[list[int]]
    hands: list[list[int]]
    lives: list[list[int]]
    abysses: list[list[int]]
    gem_decks: list[int]
    gems_active: list[int]
    gems_rested: list[int]
    field: list[list[Being | None]]
    returned: list[int]  # cards each seat returned in the mulligan (public)
    winner: int
    end_reason: str
    capped: bool
    # The events (the kit's EventLog: log with `log.append`; a clone shares the earlier ones)
    log: EventLog
    tally: list[list[int]]  # per seat, SEAT_STATS order
    totals: list[int]  # GAME_STATS order
    # Running sums for the evaluation (kept by `to_hand` / `from_hand`, checked by `recount`):
    hand_defence: list[int]  # per seat, the discard defence of its hand
    hidden_defence: list[int]  # per seat, that of its deck, life and hand (unseen by the other)
    # Per option of the pending decision, what `option_bounds` worked out of `evaluate` exactly
    # (rules.BeingsMatch.option_value); None until it is asked, and again once a move is made.
    known: list[float | None] | None
    # The zones this match shares with a clone (DECKS | LIVES | ABYSSES): copied before a change
    shared: int
    # Where `option_bounds` bounded some options loosely: per option, its tighter bound (None if
    # it has none), its exact value joining `known` (rules.BeingsMatch.option_bound).
    tighten: Callable[[Match, int], float | None] | None
    # The defend step's bounds, where `option_best` worked them out (with `known`) and told no
    # best option: `option_bounds` gives them without working them out again. None likewise.
    bounded: list[float | None] | None
    # A search's world (determinize and its clones): its main decisions list their options only
    # when read (rules.main_decision); a real game's list them at once, as its bots read them all
    searching: bool

    def clone(self) -> Self:
        """An exact copy, the RNG state and hidden zones included. What the copy shares with
        this match (Beings, the RNG) is copied by whichever changes it first; the events so far
        become a frozen chunk both keep."""
        new = Match.__new__(type(self))
        self.token = object()  # the Beings now belong to neither match
        new.token = object()
        new.spec = self.spec
        new.rng = self.rng.fork()
        new.seed = self.seed
        new.first = self.first
        new.turn = self.turn
        new.active = self.active
        new.phase = self.phase
        new.decider = self.decider
        new.options = self.options
        new.todo = self.todo[:]
        new.asking = self.asking
        new.cont = self.cont
        new.over = self.over
        new.attack = self.attack.copy() if self.attack is not None else None
        new.actions = self.actions
        new.next_uid = self.next_uid
        hands = self.hands
        new.decks = self.decks  # shared until either match changes them (`own_decks`)
        new.lives = self.lives
        new.abysses = self.abysses
        self.shared = new.shared = DECKS | LIVES | ABYSSES
        new.hands = [hands[0][:], hands[1][:]]
        new.gem_decks = self.gem_decks[:]
        new.gems_active = self.gems_active[:]
        new.gems_rested = self.gems_rested[:]
        new.field = [self.field[0][:], self.field[1][:]]
        new.returned = self.returned  # replaced by `mulligan`, never changed
        new.winner = self.winner
        new.end_reason = self.end_reason
        new.capped = self.capped
        new.log = self.log.fork()  # this match's events so far join the chain both now share
        new.tally = [self.tally[0][:], self.tally[1][:]]
        new.totals = self.totals[:]
        new.hand_defence = self.hand_defence[:]
        new.hidden_defence = self.hidden_defence[:]
        new.known = new.tighten = new.bounded = None
        new.searching = self.searching
        return new

    def recount(self) -> None:
        """Set the running sums from the zones (after a setup or a test laid them by hand)."""
        gain = self.spec.discard_gain.__getitem__
        self.hand_defence = [sum(map(gain, hand)) for hand in self.hands]
        self.hidden_defence = [
            sum(map(gain, self.decks[s])) + sum(map(gain, self.lives[s])) + self.hand_defence[s]
            for s in (0, 1)
        ]


def offer(m: Match, seat: int, kind: str, phase: int, options: tuple[Any, ...], cont: Task) -> None:
    """Pose `seat` a decision of `kind` (a `phase` step) whose answer goes to `cont`; a lone
    option is no choice and is taken at once (spec §4): `cont` runs next with it."""
    if len(options) == 1:
        m.todo.append((*cont, options[0]))
        return
    m.phase = phase
    m.decider = seat
    m.options = options
    m.asking = Decision(seat, kind, options)
    m.cont = cont


def own_decks(m: Match) -> list[list[int]]:
    """Both Being decks, ready to be changed in place (copied first where shared)."""
    if m.shared & DECKS:
        m.decks = [m.decks[0][:], m.decks[1][:]]
        m.shared &= ~DECKS
    return m.decks


def own_lives(m: Match) -> list[list[int]]:
    """Both life areas, ready to be changed in place (copied first where shared)."""
    if m.shared & LIVES:
        m.lives = [m.lives[0][:], m.lives[1][:]]
        m.shared &= ~LIVES
    return m.lives


def own_abysses(m: Match) -> list[list[int]]:
    """Both Abysses, ready to be changed in place (copied first where shared)."""
    if m.shared & ABYSSES:
        m.abysses = [m.abysses[0][:], m.abysses[1][:]]
        m.shared &= ~ABYSSES
    return m.abysses


def own_being(m: Match, seat: int, loc: int) -> Being:
    """The Being at (seat, loc), ready to be changed in place: a Being this match shares with a
    clone is replaced by its own copy first."""
    being = m.field[seat][loc]
    assert being is not None
    if being.owner is not m.token:
        being = being.copy(m.token)
        m.field[seat][loc] = being
    return being


# -- zone moves shared by the rules and the card effects ----------------------------------------


def base_power(spec: BeingsSpec, being: Being) -> int:
    """G7 `base`: the stack's printed power plus equipped gems."""
    return being.printed + spec.equip_power * being.equipped


def power(spec: BeingsSpec, being: Being) -> int:
    """A Being's power as filters and defence read it: base + skill mods, never below 0."""
    total = being.printed + spec.equip_power * being.equipped
    for mod in being.mods:
        total += mod[0]
    return max(0, total)


def attack_power(spec: BeingsSpec, attacker: Being, defending: Being | None) -> int:
    """G7, R16: the attacker's base, doubled or halved (rounded up) by type, then skill mods.
    Takes the spec, not the match: the evaluation calls it in its inner loops too."""
    base = attacker.printed + spec.equip_power * attacker.equipped
    if defending is not None:
        ratio = spec.ratio[spec.type_of[attacker.stack[-1]]][spec.type_of[defending.stack[-1]]]
        if ratio is not None:
            base = -(-base * ratio[0] // ratio[1])  # rounded up
    for mod in attacker.mods:
        base += mod[0]
    return max(0, base)


def draw(m: Match, seat: int, n: int) -> int:
    """Draw up to n Being cards (G12: an empty deck draws nothing). Returns how many came."""
    deck = (own_decks(m) if m.shared & DECKS else m.decks)[seat]
    hand = m.hands[seat]
    drawn = 0
    while drawn < n and deck:
        card = deck.pop()
        hand.append(card)
        m.hand_defence[seat] += m.spec.discard_gain[card]
        m.log.append((m.turn, seat, card, DRAWN, 1))
        drawn += 1
    if drawn and not deck and not m.tally[seat][S_DECK_OUT_TURN]:
        m.tally[seat][S_DECK_OUT_TURN] = m.turn
    return drawn


def take_life(m: Match, seat: int) -> None:
    """R30: the top life card joins its owner's hand."""
    card = (own_lives(m) if m.shared & LIVES else m.lives)[seat].pop()
    m.hands[seat].append(card)
    m.hand_defence[seat] += m.spec.discard_gain[card]
    m.log.append((m.turn, seat, card, DRAWN, 1))
    if not m.lives[seat] and not m.tally[seat][S_ZERO_LIFE_TURN]:
        m.tally[seat][S_ZERO_LIFE_TURN] = m.turn


def from_hand(m: Match, seat: int, card: int) -> None:
    """The card leaves the hand for a public zone (the field or the Abyss)."""
    m.hands[seat].remove(card)
    gain = m.spec.discard_gain[card]
    m.hand_defence[seat] -= gain
    m.hidden_defence[seat] -= gain


def from_hand_at(m: Match, seat: int, index: int) -> int:
    """The hand's card at `index` leaves it for a public zone; returns the card."""
    card = m.hands[seat].pop(index)
    gain = m.spec.discard_gain[card]
    m.hand_defence[seat] -= gain
    m.hidden_defence[seat] -= gain
    return card


def to_hand(m: Match, seat: int, card: int) -> None:
    """A card from a public zone (the Abyss) joins the hand."""
    m.hands[seat].append(card)
    gain = m.spec.discard_gain[card]
    m.hand_defence[seat] += gain
    m.hidden_defence[seat] += gain


def leave_play(m: Match, seat: int, loc: int) -> Being:
    """The whole stack goes to its owner's Abyss; equipped gems return to the zone rested."""
    being = m.field[seat][loc]
    assert being is not None
    m.field[seat][loc] = None
    (own_abysses(m) if m.shared & ABYSSES else m.abysses)[seat].extend(being.stack)
    m.gems_rested[seat] += being.equipped
    return being


def gain_gems(m: Match, seat: int, n: int, active: bool = True) -> int:
    """G3: move up to n gems from the gem deck to the gem zone."""
    k = min(m.gem_decks[seat], n)
    m.gem_decks[seat] -= k
    if active:
        m.gems_active[seat] += k
    else:
        m.gems_rested[seat] += k
    return k


def pay(m: Match, seat: int, n: int) -> None:
    """Paying N gems rests N active gems (they are identical: no choice)."""
    m.gems_active[seat] -= n
    m.gems_rested[seat] += n
