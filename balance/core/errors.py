"""The two kinds of failure: a user's mistake in a config or command, and a bug in a game's rules."""

from __future__ import annotations

from collections.abc import Sequence


class ConfigError(Exception):
    """A user's mistake: bad YAML, unknown card, bad option. Shown as one line, exit code 2.

    `path` is a file, or the command-line text at fault (`--set rules.x=1`); `line` is 1-based.
    """

    def __init__(self, path: str | None, line: int | None, message: str, hint: str = "") -> None:
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.path:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.message}{hint}"


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """A hint naming the nearest known word, or listing the known words when none is near."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    shown = ", ".join(sorted(known)[:12])
    more = ", ..." if len(known) > 12 else ""
    return f"expected one of: {shown}{more}"


class DataWarning(UserWarning):
    """Legal but doubtful data (a level that costs less than the one below it): shown, never
    fatal. Tuning, which loads the config once per candidate, shows only the base config's."""


class RunFailed(Exception):
    """The machinery failed, not the user's input nor a game's rules: workers kept dying on one
    batch. Shown as one line, exit code 1; the run folder keeps the games finished before."""
