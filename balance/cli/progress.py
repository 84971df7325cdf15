"""The progress bar every long command shows: games done, games/s, time left (on stderr)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "", style="progress.data.speed")


class Start(Protocol):
    def __call__(self, total: int, done: int = 0) -> None: ...


@contextmanager
def games_progress(label: str) -> Iterator[tuple[Start, Callable[[int], None]]]:
    """Yields (start(total, done), advance(n)) for a run of games; `done` is what a resumed run
    had already played (shown as done, not counted in the speed)."""
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task = progress.add_task(label, total=None)

    def start(total: int, done: int = 0) -> None:
        # shown only once the work is known: an input error before it prints no empty bar
        progress.reset(task, total=total, completed=done)
        progress.start()

    def advance(n: int) -> None:
        progress.advance(task, n)

    try:
        yield start, advance
    finally:
        progress.stop()


def first_lines(text: str, start: Start) -> Start:
    """`start` that first prints `text` (a sweep's or tune's players), once the input is checked
    and before the bar: an input error stays one line."""

    def started(total: int, done: int = 0) -> None:
        typer.echo(text)
        start(total, done)

    return started
