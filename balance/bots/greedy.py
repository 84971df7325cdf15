"""The greedy bot: one ply on the game's own evaluation, never reading hidden information.

For each option of the decision, it applies the option to a copy of a determinization (a world
consistent with what the seat knows: hidden cards reshuffled, the RNG reseeded from the bot's
stream) and scores the result with `evaluate(seat)`. Where a game splits one action into several
decisions of the same seat (choose a card, then its target, then a discard to pay), the copy is
played on through those follow-ups, each chosen greedily one step at a time, so the action is
scored whole. A follow-up chain ends when another seat decides, a kind of decision already seen
in the chain comes round again (the next action), or after `follow` steps. Where a decision and
its first follow-up are both wide (`follow_wide` options or more: possession's turn, a play among
19, then one of 9 actions, then a swap), the chain ends after that follow-up: the cost of one more
step would be multiplied by both widths, and scoring a play by the best action after it is what
counts (new greedy against the old one, 400 mirrored games: see the pinned choices' docstring).

Ties are broken by the bot's own stream. Long option lists are sampled (`max_options`) so that
a decision's cost stays bounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Annotated

from pydantic import Field
from pydantic.dataclasses import dataclass as checked

from balance.core.contract import Decision, State


@checked
class GreedyBot:
    """Parameters are checked when the bot is made (pydantic): `make_bot` reports a bad one."""

    name: str = "greedy"
    # how many follow-up decisions of the same action are looked through
    follow: Annotated[int, Field(ge=0)] = 3
    # a decision and its first follow-up both this wide: the follow-up is its chain's last step
    follow_wide: Annotated[int, Field(gt=1)] = 9
    # above this many options, a random sample of them is scored
    max_options: Annotated[int, Field(gt=0)] = 32

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        seat = decision.seat
        world = state.determinize(seat, rng)
        options: Sequence[int] = range(len(decision.options))
        if len(decision.options) > self.max_options:
            options = sorted(rng.sample(range(len(decision.options)), self.max_options))
        kind = decision.kind
        kinds = (kind,)
        wide = len(decision.options) >= self.follow_wide
        last = options[-1]
        best_value = -2.0
        best: list[int] = []
        for option in options:
            # the world is this call's own: the last option is tried on it, not on a copy
            copy = world.clone() if option != last else world
            copy.apply(option)
            after = copy.decision()
            if after is None or after.seat != seat or after.kind == kind or not self.follow:
                value = copy.evaluate(seat)  # the action is whole (most are)
            else:
                value = self._follow_through(copy, seat, kinds, wide, rng)
            if value > best_value + 1e-12:
                best_value, best = value, [option]
            elif value > best_value - 1e-12:
                best.append(option)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _follow_through(
        self, state: State, seat: int, kinds: tuple[str, ...], wide: bool, rng: Random
    ) -> float:
        """Play the seat's follow-up decisions greedily one step at a time; the value at the end.
        `wide`: the decision followed is `follow_wide` options or more."""
        value = None  # the value of `state`, when it is known already
        last_step = False  # a wide first follow-up of a wide decision: the chain ends with it
        for _ in range(self.follow):
            decision = state.decision()
            if decision is None or decision.seat != seat or decision.kind in kinds or last_step:
                break
            last_step = wide and len(kinds) == 1 and len(decision.options) >= self.follow_wide
            kinds += (decision.kind,)
            if len(decision.options) == 1:
                state.apply(0)
                value = None
                continue
            best_value, best_state = -2.0, None
            candidates: Sequence[int] = range(len(decision.options))
            if len(decision.options) > self.max_options:
                candidates = rng.sample(range(len(decision.options)), self.max_options)
            last = candidates[-1]
            for option in candidates:
                # `state` is not needed after this step: the last candidate is tried on it
                copy = state.clone() if option != last else state
                copy.apply(option)
                value = copy.evaluate(seat)
                if value > best_value:
                    best_value, best_state = value, copy
            state, value = best_state, best_value  # type: ignore[assignment]
        return state.evaluate(seat) if value is None else value
