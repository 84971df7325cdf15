"""The event log a state keeps: its own events in front of a frozen chain its clones share."""

from __future__ import annotations

from balance.core.contract import Event
from balance.core.eventchain import EventLog


def event(k: int) -> Event:
    return (k, 0, k, 2, 1)


def test_a_fork_shares_the_events_so_far_and_each_side_logs_on_alone() -> None:
    log = EventLog()
    log += [event(1), event(2)]
    copy = log.fork()
    assert log.every() == copy.every() == [event(1), event(2)]
    assert not log and not copy  # both logs start empty in front of the shared chunk
    assert log.frozen is copy.frozen
    log.append(event(3))
    copy.append(event(4))
    again = copy.fork()
    copy.append(event(5))
    assert log.every() == [event(1), event(2), event(3)]
    assert copy.every() == [event(1), event(2), event(4), event(5)]
    assert again.every() == [event(1), event(2), event(4)]


def test_forking_an_empty_log_adds_no_chunk() -> None:
    log = EventLog()
    log.append(event(1))
    first = log.fork()
    chain = log.frozen
    second = log.fork()
    assert log.frozen is chain and second.frozen is chain and first.frozen is chain


def test_every_is_a_new_list_each_read() -> None:
    log = EventLog()
    log.append(event(1))
    events = log.every()
    events.append(event(9))
    assert log.every() == [event(1)]
