"""A game's events as a chain of frozen chunks that copies share.

Search bots copy a state many times per decision; copying its whole event list each time would
cost the game's length. So a state keeps its events since it was last copied in a list of its
own (`log`), and the earlier ones as a chain `(earlier chain, (event, ...))` of tuples that never
change, shared by every copy. `EventLog` is that log, whole: every game (and the template) keeps
its events in one.
"""

from __future__ import annotations

from balance.core.contract import Event

Chain = tuple["Chain | None", tuple[Event, ...]]


def unchain(chain: Chain | None, log: list[Event]) -> list[Event]:
    """Every event, oldest first: the chain's chunks, then `log` (a new list)."""
    chunks: list[list[Event] | tuple[Event, ...]] = [log]
    node = chain
    while node is not None:
        node, chunk = node
        chunks.append(chunk)
    out: list[Event] = []
    for events in reversed(chunks):
        out += events
    return out


class Logged:
    """A game state that keeps its card events in an `EventLog`, its field `log`: `events` (the
    contract's) reads them all, oldest first (a new list: read it at the end of a game, not in a
    loop); setting it starts the log afresh from a list (tests set up a scene that way)."""

    __slots__ = ()
    log: EventLog

    @property
    def events(self) -> list[Event]:
        return self.log.every()

    @events.setter
    def events(self, events: list[Event]) -> None:
        log = self.log  # this state's own (a clone has its own EventLog, `fork`)
        log.frozen = None
        log[:] = events


class EventLog(list[Event]):
    """A state's card events: this list holds the ones logged since the state was last cloned
    (log with `append`: a list's own), `frozen` the earlier ones, a chain shared with clones.

    `fork()` is all a clone does with it. It is the bookkeeping `State.clone` may write into the
    original (core/contract.py): the events so far become a frozen chunk, and both sides go on
    with an empty list of their own in front of the same chain, so a clone copies no event."""

    __slots__ = ("frozen",)

    def __init__(self, frozen: Chain | None = None) -> None:
        super().__init__()
        self.frozen = frozen

    def fork(self) -> EventLog:
        """The log for a clone of this state (see the class)."""
        if self:
            self.frozen = (self.frozen, tuple(self))
            self.clear()
        # an empty list as __init__ would leave it, made without two Python calls: a search
        # clones many times per choice, and this is a fair part of a cheap clone's cost
        copy = _empty(EventLog)
        copy.frozen = self.frozen
        return copy

    def every(self) -> list[Event]:
        """Every event, oldest first (a new list): `State.events`."""
        return unchain(self.frozen, self)


_empty = list.__new__
