"""The game contract: what every game, bot and runner agrees on.

A game is a state machine. Every choice a player makes is a `Decision` with a finite list of
options; a bot answers with an index. All randomness comes from the state's own seeded RNG, so a
game is reproduced exactly from its seed and its list of choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any, Final, Protocol, Self, TypeVarTuple

if TYPE_CHECKING:
    from balance.core.effects import Vocabulary

# Standard card events every game emits into `State.events` as
# (turn, seat, card_id, event_id, value). The runner reduces them into card statistics.
OPENING = 0  # the card is in `seat`'s opening hand (after any mulligan)
DRAWN = 1  # the card entered `seat`'s hand after the opening hand
PLAYED = 2  # `seat` played the card (its first such event in a game gives "turn played")
FIRST_COUNTER = 3  # event_id FIRST_COUNTER + k adds `value` to the game's k-th counter

# Scores are kept as integer units so that sums are exact in any order (1/k for k <= 5 and 1/2
# are all whole numbers of 1/60): the same run gives the same tables for any batch size.
SCORE_UNITS = 60

Event = tuple[int, int, int, int, int]
Inputs = TypeVarTuple("Inputs")  # what a lazy decision lists its options from


@dataclass(frozen=True, slots=True)
class GameInfo:
    name: str  # package and CLI name: "clans"
    min_seats: int
    max_seats: int
    rules_version: str  # bump when outcomes may change; runs and baselines record it
    # this game's own defaults per bot kind, as a spec's parameters ({"mcts": "horizon=2"}):
    # a search's budget depends on how long a turn is; `balance.bots.for_game` writes them in
    bot_defaults: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)


class Decision:
    """A seat's choice: `seat` answers with an index into `options`, the game's own option
    objects (finite, ordered, never empty). `kind` is the game's own word for it: "play",
    "block", "target", "order".

    The options are given at once, `Decision(seat, kind, options)`, or listed when first read,
    `Decision.lazy(seat, kind, lister, *inputs)`: the first read of `options` calls
    `lister(*inputs)` and keeps its tuple, and every later read returns that tuple. Why: a search
    copies the state once per option it looks at, and most copies end where the next seat's
    decision is pending without reading its options (a look-ahead stops when another seat
    decides); listing a hundred options there is much of the copy's cost. A game lists lazily
    only where that pays (a turn's main choice), and eagerly everywhere else.

    A decision never changes as anyone can see: `seat`, `kind` and the options it lists are
    fixed when it is made (`Final`: mypy refuses a write), so states and their clones may share
    one. Its one write is the cache that keeps the listed options, and only `options` writes it.
    For that, `lister(*inputs)` must give the same tuple whenever it is called: give it a
    snapshot of all the options depend on (arrows' `play`), or the asking state itself when that
    state does not change before the options are read (a state's `apply` reads them first) and
    its `clone()` asks its own decision again rather than share an unlisted one (zynalith's
    `turn`). Equality, hashing, repr and pickling see the listed options, as an eager decision's.
    """

    __slots__ = ("_inputs", "_lister", "_options", "kind", "seat")

    def __init__(self, seat: int, kind: str, options: tuple[Any, ...]) -> None:
        self.seat: Final[int] = seat
        self.kind: Final[str] = kind
        self._options: tuple[Any, ...] | None = options
        # unset on an eager decision: only `options` reads them, and only while `_options` is None
        self._lister: Callable[..., tuple[Any, ...]] | None
        self._inputs: tuple[Any, ...]

    @classmethod
    def lazy(
        cls,
        seat: int,
        kind: str,
        lister: Callable[[*Inputs], tuple[Any, ...]],
        *inputs: *Inputs,
    ) -> Decision:
        """A decision whose options are `lister(*inputs)`, listed at their first read (see the
        class: the same tuple whenever it is called)."""
        decision = cls.__new__(cls)
        decision.seat = seat  # type: ignore[misc]  # __init__'s two Final fields, set once here
        decision.kind = kind  # type: ignore[misc]
        decision._options = None
        decision._lister = lister
        decision._inputs = inputs
        return decision

    @property
    def options(self) -> tuple[Any, ...]:
        options = self._options
        if options is None:  # the first read of a lazy decision
            lister = self._lister
            assert lister is not None
            options = self._options = lister(*self._inputs)
            self._lister = None  # a listed decision holds nothing of what it was listed from
            self._inputs = ()
        return options

    @property
    def listed(self) -> bool:
        """Whether the options are listed already (always, for a decision made eagerly)."""
        return self._options is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.seat, self.kind, self.options) == (other.seat, other.kind, other.options)

    def __hash__(self) -> int:
        return hash((self.seat, self.kind, self.options))

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat!r}, kind={self.kind!r}, options={self.options!r})"

    def __reduce__(self) -> tuple[type[Decision], tuple[int, str, tuple[Any, ...]]]:
        return Decision, (self.seat, self.kind, self.options)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended. `scores[i]` is 1 for a win, 1/k for a k-way shared win or draw, else 0."""

    winner: int | None  # the winning seat, or None for a draw or a shared win
    scores: tuple[float, ...]
    end_reason: str
    turns: int
    capped: bool = False
    stats: Mapping[str, float] = field(default_factory=dict)  # names from Catalog.game_stats

    @staticmethod
    def win(seat: int, seats: int, end_reason: str, turns: int, **kw: object) -> Result:
        scores = tuple(1.0 if s == seat else 0.0 for s in range(seats))
        return Result(seat, scores, end_reason, turns, **kw)  # type: ignore[arg-type]

    @staticmethod
    def shared(
        winners: Sequence[int], seats: int, end_reason: str, turns: int, **kw: object
    ) -> Result:
        """A draw among `winners` (all seats for a plain draw); a single winner is a win."""
        if len(winners) == 1:
            return Result.win(winners[0], seats, end_reason, turns, **kw)
        share = 1.0 / len(winners)
        scores = tuple(share if s in winners else 0.0 for s in range(seats))
        return Result(None, scores, end_reason, turns, **kw)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Catalog:
    """What the runner and the statistics need to know of a compiled config, in plain data."""

    cards: tuple[str, ...]  # card_id (the index) -> the card's id in cards.yaml
    decks: Mapping[str, Mapping[int, int]]  # what a seat may bring -> {card_id: copies}
    counters: tuple[str, ...] = ()  # the game's own per-card counters (event FIRST_COUNTER + k)
    game_stats: tuple[str, ...] = ()  # the keys of Result.stats, one games-table column each
    # Decks that serve every seat at once (a shared setup, a draft): a lineup that names one
    # names it for all its seats, and `--decks all` plays each once instead of pairing it.
    shared: frozenset[str] = frozenset()
    # Seat counts a deck is made for (a 2-player and a 4-player setup); a deck not named: any.
    deck_seats: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    # What a deck holds that no other deck of its lineup may hold (clans: an army's clans, as the
    # draft gives each clan to one player): two decks whose sets meet never share a lineup, and a
    # deck holding any such item never meets itself. A deck not named holds none.
    exclusive: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def clash(self, decks: Sequence[str]) -> tuple[str, str, str] | None:
        """Two decks of the lineup `decks` (seat order) and an item both hold, or None."""
        for i, first in enumerate(decks):
            held = self.exclusive.get(first)
            if not held:
                continue
            for second in decks[i + 1 :]:
                both = held & self.exclusive.get(second, frozenset())
                if both:
                    return first, second, min(both)
        return None


class GameSpec(Protocol):
    """A compiled, immutable config: built once per worker, never mutated (so its members are
    read-only here: a frozen dataclass's fields are)."""

    @property
    def catalog(self) -> Catalog: ...

    @property
    def config_hash(self) -> str: ...

    @property
    def decision_cap(self) -> int:
        """The play loop's safety cap; reaching it records the game as capped."""
        ...


class State(Protocol):
    @property
    def events(self) -> list[Event]:
        """Every card event of the game so far, oldest first."""
        ...

    @property
    def turn(self) -> int:
        """Turns begun so far: it grows by one as each turn begins, a turn in the game's own
        sense (a seat's turn; in zynalith, a main action). Search bots end their look-ahead at a
        turn's end, where positions are alike enough to compare; replays mark turns with it."""
        ...

    def decision(self) -> Decision | None:
        """The pending decision, or None once the game is over."""
        ...

    def apply(self, option: int) -> None: ...

    def result(self) -> Result: ...

    def clone(self) -> Self:
        """An exact copy, the RNG state and hidden zones included, that plays on independently
        of this state. It is copy-on-write, and this is the contract:

        - It may share with this state what neither changes in place (the spec, tuples, frozen
          event chunks, a pending `Decision`: listing a lazy one's options changes nothing
          anyone sees), and mutable parts (the game RNG, zones, pieces, rarely changed lists)
          on one condition: from the clone on, both sides treat them as shared, and whichever
          side changes a shared part first copies it and changes its own copy (a side about to
          draw copies the RNG, or seeds its own, before the draw).
        - So `clone()` may write into this state, but only that bookkeeping: a "shared" flag, an
          owner token or generation, the events so far moved into a frozen chunk both keep.
        - Neither side may ever write into a shared part. Whatever the copy then does, this
          state's observable state (`decision()` and its options, `evaluate(seat)`,
          `public_summary()`, `inventory()`, `events`, `turn`, and every later step it plays,
          its RNG's draws included) is what it would have been had it never been cloned; and
          the copy is as untouched by what this state does.

        Why: search bots clone for every line they look at, and most of those copies change a
        few zones and never draw; copying a `Random` (625 words of state) and every zone on each
        clone costs more than the rest of the copy. `determinize` is a clone plus a reshuffle
        and keeps the same contract. tests/test_contract.py checks both directions for every
        registered game."""
        ...

    def determinize(self, seat: int, rng: Random) -> Self:
        """A copy in which all `seat` cannot see is reshuffled and the RNG reseeded from `rng`."""
        ...

    def evaluate(self, seat: int) -> float:
        """A value in [-1, 1] for `seat`, computed only from what `seat` may know."""
        ...

    def describe(self, option: int) -> str:
        """The pending decision's option `option` in the game's words."""
        ...

    def inventory(self) -> tuple[int, ...]:
        """Every card of the game wherever it is, as sorted card ids: constant during a game."""
        ...

    def public_summary(self) -> str:
        """The state in one line, from public information only (what every seat sees: no hand's
        or deck's contents, only their sizes): `balance replay` prints it as each turn begins.
        A determinized copy, for any seat, has the same summary (the contract test checks)."""
        ...

    # A state may also offer `option_bounds(among)`, `option_twins()`, `option_value(option)`,
    # `option_bound(option)` and `option_best()`: what it can tell of the pending decision's
    # options without applying them (an upper bound on each one's evaluation, an earlier option
    # sure to score the same, a bound that is the value itself, a tighter bound asked only when
    # needed, the option surely best with its value when known). They are optional, so not
    # members of this protocol; greedy reads them when present and makes the same choices, only
    # cheaper (balance.bots.greedy says how; beings has the first four, clans twins and best).


class Game(Protocol):
    info: GameInfo
    config_dir: Path  # the shipped default config folder

    def load(self, config_dir: Path, overrides: Mapping[str, object] | None = None) -> GameSpec: ...

    def new_game(self, spec: GameSpec, lineup: Sequence[str], seed: int) -> State: ...

    def vocabulary(self) -> Vocabulary:
        """The game's card vocabulary."""
        ...


class Bot(Protocol):
    """Chooses an option. A bot keeps no state between calls: one instance may serve several
    seats and games, everything it needs comes in as arguments (its randomness from `rng`)."""

    name: str

    def choose(self, state: State, decision: Decision, rng: Random) -> int: ...
