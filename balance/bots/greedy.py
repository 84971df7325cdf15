"""The greedy bot: one ply on the game's own evaluation, never reading hidden information.

For each option of the decision, it applies the option to a copy of a determinization (a world
consistent with what the seat knows: hidden cards reshuffled, the RNG reseeded from the bot's
stream) and scores the result with `evaluate(seat)`. Where a game splits one action into several
decisions of the same seat (choose a card, then its target, then a discard to pay), the copy is
played on through those follow-ups, each chosen greedily one step at a time, so the action is
scored whole. A follow-up chain ends when another seat decides, a kind of decision already seen
in the chain comes round again (the next action), a decision of the kind each action begins
with (`action`, where the game has one), or after `follow` steps.

Where a decision and its first follow-up are both wide (`follow_wide` options or more:
possession's turn, a play among ~19, then one of 9 actions, then a swap), following every chain
to the end would multiply the cost by both widths. The chains stop after that follow-up, and only
the `follow_best` options best there go on to the end and are chosen between: the same choice as
following all of them in all but a few positions (0.4% of possession's pinned ones), at about
half the cost of a play decision.

The chains of a wide decision's options mostly meet the same decisions (possession's 9 actions
after each of ~19 plays, its swap after each action), and many options of such a decision come out
equal (Commands that change nothing, Soothes of unhurt cards). So the first decision of a chain,
when `share_width` options wide or wider, is tried whole by the first chain that meets it (the
same kind and options), and by the others only one of each group of its options that came out
equal there; the best few cut chains share their next decisions likewise. The default shares
only a wide first follow-up of a wide decision (after a play, possession's other plays try about
3 actions of 9; the best three plays are those found by trying every action in 99.9% of 1,368
positions of greedy games); possession shares every one (`share_width=1`, its bot default: its
actions then try about 3 swaps of 4.4, with the best action the same in all of 962 positions).

Ties are broken by the bot's own stream. Long option lists are sampled (`max_options`) so that
a decision's cost stays bounded.

A game's state may tell some options' values without their being applied (beings, clans, arrows
and possession do), by optional methods that change no choice, only its cost:
- `option_bounds(among)`: per option of the pending decision, an upper bound on `evaluate(seat)`
  once it is applied, or None. The game gives one only for an option after which the seat does
  not decide again in the same action. Bounded options are tried last, best bound first, and
  those whose bound is below the best value found are never applied: they could not be chosen.
  `among`: the options sampled (`max_options`), else None (all); the others' bounds are unread,
  and the game may leave them None.
- `option_twins()`: per option, an earlier option whose value it surely has (else itself), e.g.
  two discards of the same worth: it takes that value unapplied. Where all are twins of the
  first (beings' mulligan of a card before the hand's last), none is applied: they all tie.
- `option_value(option)`: asked after `option_bounds(among)` of the same state, for a bounded option
  that must be scored: its value once applied where the bounds' work told it exactly, else None.
- `option_bound(option)`: asked after `option_bounds(among)` of the same state, of a bounded option
  when its bound comes first: a tighter bound where that one was loose (cheap to give for all
  options), else None. The option then waits again with it; most are never asked.
- `option_best()`: None, or (option, value): an option whose value once applied is surely at
  least every other option's (clans: the payment giving up the card its hand counts least),
  and that value where the game knows it unapplied, the next decision then being surely
  another seat's or of the same kind (else None). In a follow-up, the best value is then that
  option's alone, where it is the chain's last step (the next decision is another seat's, or
  a kind already seen, or no steps are left); where the chain goes on, the options are tried
  as before, since which of equally valued options is taken (the first listed) then matters,
  unless the best is the first listed (beings: `yes` to an optional recover into the hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from heapq import heapify, heappop, heappush
from random import Random
from typing import Annotated, Any

from pydantic import Field
from pydantic.dataclasses import dataclass as checked

from balance.core.contract import Decision, State
from balance.core.gamerng import sample_indices

DROPPED = -3.0  # the value of an option left out: below every value `evaluate` gives
BOUND_MARGIN = 1e-9  # a bound this far below the best value: far outside the ties (1e-12)
# where a follow-up chain was stopped: its state, the kinds of decision seen, the steps left
Chain = tuple[State, tuple[str, ...], int]
# a chain's first decision, by its kind and options -> the options worth trying there
Alike = dict[tuple[str, tuple[Any, ...]], list[int]]


@checked
class GreedyBot:
    """Parameters are checked when the bot is made (pydantic): `make_bot` reports a bad one."""

    name: str = "greedy"
    # how many follow-up decisions of the same action are looked through
    follow: Annotated[int, Field(ge=0)] = 3
    # a decision and its first follow-up both this wide: the chains stop after the follow-up,
    # and only the best `follow_best` there go on to the end
    follow_wide: Annotated[int, Field(gt=1)] = 9
    follow_best: Annotated[int, Field(gt=0)] = 3
    # above this many options, a random sample of them is scored
    max_options: Annotated[int, Field(gt=0)] = 32
    # a chain's first decision this wide or wider, in a wide decision: tried whole by the first
    # chain that meets it, by the others one of each group of its options that came out equal
    share_width: Annotated[int, Field(gt=0)] = 9
    # the kind of decision each of a seat's actions begins with, where the game has one (beings:
    # `main`, its turn's choice of action): a chain that meets it ends there, the seat's next
    # action (a turn passed to the seat within its chain: a defend step ending the other's turn)
    action: str = ""

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        seat = decision.seat
        world = state.determinize(seat, rng)
        options: Sequence[int] = range(len(decision.options))
        if len(decision.options) > self.max_options:
            options = sorted(sample_indices(len(decision.options), self.max_options, rng))
        kind = decision.kind
        kinds = (kind,)
        wide = len(decision.options) >= self.follow_wide
        bounds, twins = _hints(world, options if isinstance(options, list) else None)
        if (
            bounds is None
            and twins is not None
            and twins[options[-1]] == options[0]  # (most lists fail here: at once)
            and all(twins[option] == options[0] for option in options)
        ):
            return rng.choice(list(options))  # all score alike: all tie, none need be applied
        # the world is this call's own: the last option is tried on it, not on a copy (unless
        # bounded options wait to be tried after it)
        last = options[-1] if bounds is None else -1
        values = [DROPPED] * len(options)  # per option (in `options`' order), once tried
        cut: list[tuple[int, Chain]] = []  # (index in `values`, where its chain stopped)
        whole: dict[int, float] = {}  # option -> its value, where no chain was cut
        waiting: list[tuple[float, int, int]] = []  # bounded: (bound, index in `values`, option)
        tried: Iterable[tuple[int, int]] = enumerate(options)  # (index, option): now, in order
        if bounds is not None:
            waiting = [
                (bound, index, option)
                for index, option in enumerate(options)
                if (bound := bounds[option]) is not None
            ]
            tried = [
                (index, option) for index, option in enumerate(options) if bounds[option] is None
            ]
        # a chain's first decision (its kind and options) -> its options worth trying: one per
        # value seen when it was first tried whole (`share_width`)
        alike: Alike | None = {} if wide else None
        for index, option in tried:
            if twins is not None and (twin := twins[option]) != option and twin in whole:
                values[index] = whole[twin]
                continue
            copy = world.clone() if option != last else world
            copy.apply(option)
            after = copy.decision()
            if (
                after is None
                or after.seat != seat
                or after.kind == kind
                or after.kind == self.action
                or not self.follow
            ):
                value = whole[option] = copy.evaluate(seat)  # the action is whole (most are)
                if twins is not None:  # its twins take it, also where their first is unsampled
                    whole.setdefault(twins[option], value)
                values[index] = value
                continue
            value, rest = self._follow_through(copy, seat, kinds, self.follow, wide, rng, alike)
            if rest is not None:
                cut.append((index, rest))
            else:
                whole[option] = value
            values[index] = value
        if cut:
            # ranked by the value where their chains stopped, the best few go on to the end and
            # are chosen between by that value; the others drop out
            ranked = sorted(cut, key=lambda item: -values[item[0]])  # stable: ties in order
            for index, _ in ranked[self.follow_best :]:
                values[index] = DROPPED
            alike = {}  # the chains go on to their next decisions: alike again, mostly
            for index, (rest_state, rest_kinds, steps) in sorted(
                ranked[: self.follow_best], key=lambda item: item[0]
            ):
                values[index] = self._follow_through(
                    rest_state, seat, rest_kinds, steps, False, rng, alike
                )[0]
        if waiting:
            # best bound first; from the first bound below the best value found on, none can be
            # chosen (nor tie), so they are never applied. A loose bound is tightened when it
            # comes first, and waits again with its tight one.
            found = max(values)
            value_of = getattr(world, "option_value", None)
            tighten = getattr(world, "option_bound", None)
            floor = found - BOUND_MARGIN  # those bounded below it now are never tried
            heap = [
                (-bound, index, option, tighten is None)
                for bound, index, option in waiting
                if bound >= floor
            ]
            heapify(heap)
            while heap:
                bound, index, option, tight = heappop(heap)
                bound = -bound
                if bound < found - BOUND_MARGIN:
                    break
                if not tight:
                    tighter = tighten(option)  # type: ignore[misc]
                    if tighter is not None:
                        heappush(heap, (-tighter, index, option, True))
                        continue
                if twins is not None and (twin := twins[option]) != option and twin in whole:
                    values[index] = whole[twin]
                    continue
                known: float | None = value_of(option) if value_of is not None else None
                if known is None:
                    copy = world.clone()
                    copy.apply(option)
                    known = copy.evaluate(seat)
                values[index] = whole[option] = known
                found = max(found, known)
        best_value = -2.0
        best: list[int] = []
        for option, value in zip(options, values, strict=True):
            if value > best_value + 1e-12:
                best_value, best = value, [option]
            elif value > best_value - 1e-12:
                best.append(option)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _follow_through(
        self,
        state: State,
        seat: int,
        kinds: tuple[str, ...],
        steps: int,
        wide: bool,
        rng: Random,
        alike: Alike | None = None,
    ) -> tuple[float, Chain | None]:
        """Play the seat's follow-up decisions greedily one step at a time, up to `steps`; the
        value at the end. `wide`: the decision followed is `follow_wide` options or more, so a
        first follow-up as wide is the last step; the chain's rest is returned when it could go
        on from there (its state, kinds seen and steps left), else None. `alike`: the options
        worth trying at the chain's first decision, per kind and options, shared by the wide
        decision's chains (the first chain to meet one tries it whole and records them)."""
        value = None  # the value of `state`, when it is known already
        last_step = False  # a wide first follow-up of a wide decision: the chain stops after it
        for step in range(steps):
            decision = state.decision()
            if (
                decision is None
                or decision.seat != seat
                or decision.kind in kinds
                or decision.kind == self.action
            ):
                break
            if last_step:
                value = state.evaluate(seat) if value is None else value
                return value, (state, kinds, steps - step)
            last_step = wide and len(kinds) == 1 and len(decision.options) >= self.follow_wide
            kinds += (decision.kind,)
            if len(decision.options) == 1:
                state.apply(0)
                value = None
                continue
            best_value, best_state = -2.0, None
            candidates: Sequence[int] = range(len(decision.options))
            among = None
            if len(decision.options) > self.max_options:
                candidates = among = sample_indices(len(decision.options), self.max_options, rng)
            elif alike is None or step or len(decision.options) < self.share_width:
                # all are tried, unshared: the game's best option alone may tell their best
                alone = _best_alone(state, seat, kinds, steps - step - 1, self.action)
                if alone is not None:
                    best_value, after = alone
                    if after is None:
                        return best_value, None  # told unapplied: the chain ends with it
                    state, value = after, best_value
                    continue
            bounds, twins = _hints(state, among)
            tried: set[int] = set()
            seen: dict[float, int] | None = None  # value -> the first option that gave it
            # sharing groups by the values of the options tried, so not where bounds skip some;
            # a twin skipped has the value of its twin, tried before it: the groups are the same
            if (
                alike is not None
                and not step
                and bounds is None
                and len(decision.options) >= self.share_width
            ):
                key = (decision.kind, decision.options)
                shared = alike.get(key)
                if shared is None:
                    seen = {}
                else:
                    candidates = shared
            # the first option (in `candidates`' order) of the best value is chosen; bounded
            # options are tried last, best bound first, so that most are never applied
            order: Sequence[int] = candidates
            first = 0  # where the best option so far stands in `candidates`
            at: dict[int, int] | None = None
            if bounds is not None:
                at = {option: index for index, option in enumerate(candidates)}
                order = [option for option in candidates if bounds[option] is None]
                bounded = [
                    (-b, option) for option in candidates if (b := bounds[option]) is not None
                ]
                order += [option for _, option in sorted(bounded, key=lambda item: item[0])]
            last = order[-1]
            tighten = getattr(state, "option_bound", None) if bounds is not None else None
            for option in order:
                # an option bounded below the best, or a twin of one tried, cannot be better
                if bounds is not None and (bound := bounds[option]) is not None:
                    if bound < best_value:
                        break  # and so are those after it
                    if tighten is not None and (tighter := tighten(option)) is not None:
                        if tighter < best_value:
                            continue  # the others' bounds are loose: they may be above it
                        bound = tighter
                    if bound == best_value and at[option] > first:  # type: ignore[index]
                        continue  # it could at most tie, after the best
                if twins is not None:
                    if twins[option] in tried:
                        continue
                    tried.add(option)
                # `state` is not needed after this step: the last option is tried on it
                copy = state.clone() if option != last else state
                copy.apply(option)
                value = copy.evaluate(seat)
                if seen is not None and value not in seen:
                    seen[value] = option
                if value > best_value or (
                    value == best_value and at is not None and at[option] < first
                ):
                    best_value, best_state = value, copy
                    if at is not None:
                        first = at[option]
            if seen is not None:
                alike[key] = sorted(seen.values())  # type: ignore[index]
            state, value = best_state, best_value  # type: ignore[assignment]
        return (state.evaluate(seat) if value is None else value), None


def _best_alone(
    state: State, seat: int, kinds: tuple[str, ...], steps: int, action: str
) -> tuple[float, State | None] | None:
    """The best value of the pending follow-up, from the game's `option_best()` alone, where
    that follow-up is the chain's last step (`kinds` includes its own; `steps` left after it)
    or its best option is the first listed: with the state it leads to (the option applied on
    a copy), or with None where the game told the value unapplied; else None: try them all.
    `action`: the bot's (a chain ends there)."""
    best_of = getattr(state, "option_best", None)
    found = best_of() if best_of is not None else None
    if found is None:
        return None
    best, known = found
    if known is not None:
        return known, None
    copy = state.clone()
    copy.apply(best)
    after = copy.decision()
    if (
        best
        and steps
        and after is not None
        and after.seat == seat
        and after.kind not in kinds
        and after.kind != action
    ):
        # the chain goes on from the option taken: the first best listed, which is `best`
        # only where it is the first (of equal values, trying them all takes the first)
        return None
    return copy.evaluate(seat), copy


def _hints(
    state: State, among: Sequence[int] | None
) -> tuple[Sequence[float | None] | None, Sequence[int] | None]:
    """What the game can tell of the pending decision's options unapplied: their bounds (of
    the options `among`, or all) and twins (optional methods of a state, see the module doc)."""
    bounds_of = getattr(state, "option_bounds", None)
    twins_of = getattr(state, "option_twins", None)
    return (
        bounds_of(among) if bounds_of is not None else None,
        twins_of() if twins_of is not None else None,
    )
