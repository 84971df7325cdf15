"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play",
2012): any bot, barred from playing one card.

The bot chooses as it always does. If its choice would play the barred card and some other
option would not, it chooses again, among the options that would not, through `Without`: a view
of the game whose pending decision offers only those. If every option plays the card, it plays
it: the restriction never leaves a seat without a move (nor a game without an end).

"Would play" is read from the game itself, the one way every game shares: the option is applied
to a copy and the copy's new events are searched for a PLAYED event of the card by the seat. A
copy of the real game answers for the cards the seat can see; an option whose effect is a blind
draw (a card turned up and put into play at once, as zynalith's events are) must not be barred
for what the seat cannot know, so a play counts only if a determinized copy (the unseen cards
reshuffled) shows it too.

Cost: a copy and one application of the chosen option per decision (a greedy bot applies every
option already); only where the bot wanted the card, one more per option and a second choice.
Until the bot first wants the card, a barred seat makes exactly the moves an unbarred one makes
(the same choices, the same random draws), so restricted games stay paired with unrestricted
ones played on the same seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from balance.core.contract import PLAYED, Bot, Decision, Event, Result, State


class Barred:
    """`bot`, barred from playing the card `card` (its id in the catalog)."""

    def __init__(self, bot: Bot, card: int, card_name: str) -> None:
        self.bot = bot
        self.card = card
        # the games table names the restriction with the bot
        self.name = f"{bot.name} without {card_name}"

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        choice = self.bot.choose(state, decision, rng)
        seat = decision.seat
        if not plays(state, choice, seat, self.card, rng):
            return choice
        allowed = [
            option
            for option in range(len(decision.options))
            if option != choice and not plays(state, option, seat, self.card, rng)
        ]
        if not allowed:
            return choice  # nothing else to do: the card may be played
        view = Without(state, allowed)
        return allowed[self.bot.choose(view, view.decision(), rng)]  # type: ignore[arg-type]


def plays(state: State, option: int, seat: int, card: int, rng: Random) -> bool:
    """Whether applying `option` makes `seat` play `card`, on a copy of the game and on a
    determinized copy alike. `rng` (the bot's stream) is only read: the determinization draws
    from a copy of it, so the bot's own choices are not moved."""
    if not _plays_in(state.clone(), option, seat, card):
        return False
    peek = Random()
    peek.setstate(rng.getstate())
    return _plays_in(state.determinize(seat, peek), option, seat, card)


def _plays_in(copy: State, option: int, seat: int, card: int) -> bool:
    before = len(copy.events)
    copy.apply(option)
    return any(
        event[3] == PLAYED and event[2] == card and event[1] == seat
        for event in copy.events[before:]
    )


class Without:
    """A game whose pending decision offers only the options `allowed` (indexes into the real
    decision's), renumbered 0..k-1, until one is applied; from then on it is the game itself.
    Copies and determinizations keep the renumbering, as a bot's look-ahead needs."""

    __slots__ = ("allowed", "state")

    def __init__(self, state: State, allowed: Sequence[int] | None) -> None:
        self.state = state
        self.allowed = allowed  # None once an option was applied

    @property
    def events(self) -> list[Event]:
        return self.state.events

    @property
    def turn(self) -> int:
        return self.state.turn

    def decision(self) -> Decision | None:
        decision = self.state.decision()
        if self.allowed is None or decision is None:
            return decision
        options = decision.options
        return Decision(decision.seat, decision.kind, tuple(options[i] for i in self.allowed))

    def apply(self, option: int) -> None:
        if self.allowed is not None:
            option = self.allowed[option]
            self.allowed = None
        self.state.apply(option)

    def result(self) -> Result:
        return self.state.result()

    def clone(self) -> Without:
        return Without(self.state.clone(), self.allowed)

    def determinize(self, seat: int, rng: Random) -> Without:
        return Without(self.state.determinize(seat, rng), self.allowed)

    def evaluate(self, seat: int) -> float:
        return self.state.evaluate(seat)

    def describe(self, option: int) -> str:
        return self.state.describe(option if self.allowed is None else self.allowed[option])

    def inventory(self) -> tuple[int, ...]:
        return self.state.inventory()
