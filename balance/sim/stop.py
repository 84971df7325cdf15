"""Stopping a run on a signal, so that every way of ending it leaves a usable run folder.

SIGINT (Ctrl-C), SIGTERM (what `timeout`, a CI runner or a cluster scheduler sends) and SIGHUP
(the terminal closed) all ask the run to stop. The first one sets the request: the runner stops
handing out batches and kills its workers, and the run commits the games it has. Later signals
are counted and ignored, so a second Ctrl-C cannot cut the folder short while it is written.

The handler raises nothing while the runner waits on worker processes: an exception raised
there could land inside the pool's own bookkeeping (the cause of loky `KeyError` tracebacks
after Ctrl-C). The runner polls the request instead. Only a batch played in this very process
(`--jobs 1`) is interrupted at once, inside `interruptible()`, where nothing shared is written.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


class Stopped(KeyboardInterrupt):
    """A run stopped by a signal. A KeyboardInterrupt, so that code which keeps its finished
    work on Ctrl-C (a sweep, a tune) does the same on SIGTERM and SIGHUP."""


class StopRequest:
    """Set once a stop signal came (or `request()` was called); the runner polls it."""

    def __init__(self) -> None:
        self.signal = ""  # the first stop signal's name, e.g. "SIGTERM"
        self.signum = 0
        self.count = 0  # how many stop signals came
        self._interruptible = False

    def is_set(self) -> bool:
        return self.count > 0

    def request(self, name: str = "stop", signum: int = 0) -> None:
        self.count += 1
        if self.count == 1:
            self.signal, self.signum = name, signum
            if self._interruptible:
                raise Stopped(name)

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Within this block the first stop signal raises `Stopped` at once."""
        if self.is_set():
            raise Stopped(self.signal)
        self._interruptible = True
        try:
            yield
        finally:
            self._interruptible = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.request(signal.Signals(signum).name, signum)


@contextmanager
def stop_on_signals() -> Iterator[StopRequest]:
    """A StopRequest set by SIGINT, SIGTERM or SIGHUP while the block runs; the previous
    handlers come back after it, unless one of those signals came (then the process is ending and
    ignores them). Off the main thread (where Python allows no handler) the request is only set
    by `request()`, and Ctrl-C stays a KeyboardInterrupt."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {}
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)  # no SIGHUP on Windows
        if number is not None:
            previous[number] = signal.signal(number, stop._handle)
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            # after a stop signal the process is ending: further ones (a second Ctrl-C while the
            # finished games are saved, the report written, the workers shut down at exit) are
            # ignored rather than killing it half-way. Ignored, not handled: Python puts
            # handled signals back to their default while it shuts down, ignored ones it keeps.
            signal.signal(number, signal.SIG_IGN if stop.signum else handler)
