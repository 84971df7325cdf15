"""Names numbered as they are declared: a game's statistics, counters and other small code
tables, each code written once beside its name instead of a tuple of names and a matching
`range(...)` unpacking kept in step by position."""

from __future__ import annotations

from collections.abc import Iterator


class Names:
    """`S_WINS = SEAT_STATS.add("wins")`: each name's code is `first` plus its place in
    declaration order; the names in that order are `names` (and iterating the table)."""

    def __init__(self, first: int = 0) -> None:
        self.first = first
        self._names: list[str] = []

    def add(self, name: str) -> int:
        if name in self._names:
            raise ValueError(f"'{name}' declared twice")
        self._names.append(name)
        return self.first + len(self._names) - 1

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
