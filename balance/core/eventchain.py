"""A game's events as a chain of frozen chunks that copies share.

Search bots copy a state many times per decision; copying its whole event list each time would
cost the game's length. So a state keeps its events since it was last copied in a list of its
own (`log`), and the earlier ones as a chain `(earlier chain, (event, ...))` of tuples that never
change, shared by every copy (beings, clans and arrows keep their events so).
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
