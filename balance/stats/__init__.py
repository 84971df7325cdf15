"""Statistics: pure functions over a run's counts and tables. Never imports a game.

`load_run(path)` gives a run's tables for a notebook; see balance.stats.run.
"""

from balance.stats.run import Run, load_run, summarize

__all__ = ["Run", "load_run", "summarize"]
