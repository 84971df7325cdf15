"""The one play loop: a game from its seed, bots answering its decisions, to a GameRecord."""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random

from balance.core.contract import Bot, Decision, Event, Game, GameSpec, Result, State
from balance.core.seeding import bot_seed

# Called before each choice is applied: (state, decision, chosen option). For replays and tests.
Trace = Callable[[State, Decision, int], None]


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    decks: tuple[str, ...]  # per seat, seat 0 first
    bots: tuple[str, ...]
    winner: int  # the winning seat, or -1 for a draw, a shared win or a crash
    scores: tuple[float, ...]
    turns: int
    decisions: int
    capped: bool
    end_reason: str
    error: str = ""  # empty unless the game raised
    choices: tuple[int, ...] = ()  # kept only for a crashed game, to replay it
    trace: str = ""  # the crash's traceback
    stats: dict[str, float] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)


def play_game(
    game: Game,
    spec: GameSpec,
    decks: Sequence[str],
    bots: Sequence[Bot],
    seed: int,
    trace: Trace | None = None,
    forced: Sequence[int] | None = None,
    rotation: int = 0,
) -> GameRecord:
    """Play one game. Each seat's bot draws from its own stream, derived from the game's seed and
    the seat rotation of its deal (so a deal's rotations are different games, mirrors included).

    With `forced`, those choices are made first (a replay), then the bots carry on. A game that
    raises is returned as a record with its error and the choices that led there.
    """
    seats = len(decks)
    bot_names = tuple(bot.name for bot in bots)
    rngs = [Random(bot_seed(seed, seat, rotation)) for seat in range(seats)]
    choices: list[int] = []
    cap = spec.decision_cap
    state: State | None = None
    try:
        state = game.new_game(spec, decks, seed)
        decisions = 0
        decision = state.decision()
        while decision is not None:
            if decisions >= cap:
                return _capped(seed, decks, bot_names, state, decisions)
            if forced is not None and decisions < len(forced):
                option = forced[decisions]
            elif len(decision.options) == 1:
                option = 0
            else:
                option = bots[decision.seat].choose(state, decision, rngs[decision.seat])
            if trace is not None:
                trace(state, decision, option)
            choices.append(option)
            state.apply(option)
            decisions += 1
            decision = state.decision()
        result = state.result()
    except Exception as e:  # noqa: BLE001 - a rules bug must not end the run: record what replays it
        return GameRecord(
            seed=seed,
            decks=tuple(decks),
            bots=bot_names,
            winner=-1,
            scores=(0.0,) * seats,
            turns=0,
            decisions=len(choices),
            capped=False,
            end_reason="error",
            error=f"{type(e).__name__}: {e}",
            choices=tuple(choices),
            trace=traceback.format_exc(),
        )
    return _record(seed, decks, bot_names, state, result, decisions)


def _record(
    seed: int,
    decks: Sequence[str],
    bots: tuple[str, ...],
    state: State,
    result: Result,
    decisions: int,
) -> GameRecord:
    return GameRecord(
        seed=seed,
        decks=tuple(decks),
        bots=bots,
        winner=-1 if result.winner is None else result.winner,
        scores=result.scores,
        turns=result.turns,
        decisions=decisions,
        capped=result.capped,
        end_reason=result.end_reason,
        stats=dict(result.stats),
        events=state.events,
    )


def _capped(
    seed: int, decks: Sequence[str], bots: tuple[str, ...], state: State, decisions: int
) -> GameRecord:
    """The safety cap: the game is stopped and scored as a draw among all seats."""
    seats = len(decks)
    result = Result.shared(list(range(seats)), seats, "decision_cap", 0, capped=True)
    return _record(seed, decks, bots, state, result, decisions)
