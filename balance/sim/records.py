"""What a run keeps of each game: a row of the games table and the card tally's sufficient statistics.

Workers fill a `GameRows` and a `CardTally` per batch; the main process appends the rows to
`games.parquet` as they arrive and sums the tallies, so a million games never hold a million event
lists in memory. Scores are summed as whole `SCORE_UNITS`, so the sums are exact in any order and
the tables are the same for any number of jobs or batch size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.core.contract import DRAWN, OPENING, PLAYED, SCORE_UNITS, Catalog, Event
from balance.sim.play import GameRecord
from balance.sim.schedule import GameSlot

# The card tally's fields per (deck, card), before the game's own counters.
CARD_FIELDS = (
    "drawn",  # games in which the card was in the seat's hand at some point (GIH)
    "drawn_won",
    "opening",  # games in which it was in the opening hand
    "opening_won",
    "played",  # games in which the seat played it
    "played_won",
    "turn_played_sum",  # sum over those games of the turn it was first played
)


class GameRows:
    """Rows of the games table for one batch, kept as columns."""

    def __init__(self, seats: int, game_stats: tuple[str, ...]) -> None:
        self.seats = seats
        self.game_stats = game_stats
        self.columns: dict[str, list[Any]] = {name: [] for name in games_columns(seats, game_stats)}

    def add(self, slot: GameSlot, record: GameRecord) -> None:
        c = self.columns
        c["game"].append(slot.index)
        c["seed"].append(slot.seed)
        c["rotation"].append(slot.rotation)
        c["seats"].append(self.seats)
        for seat in range(self.seats):
            c[f"deck_{seat}"].append(record.decks[seat])
            c[f"bot_{seat}"].append(record.bots[seat])
            c[f"score_{seat}"].append(record.scores[seat])
        c["winner"].append(record.winner)
        c["turns"].append(record.turns)
        c["decisions"].append(record.decisions)
        c["capped"].append(record.capped)
        c["end_reason"].append(record.end_reason)
        c["error"].append(record.error)
        for name in self.game_stats:
            c[name].append(record.stats.get(name))

    def __len__(self) -> int:
        return len(self.columns["game"])


def games_columns(seats: int, game_stats: tuple[str, ...]) -> list[str]:
    per_seat = [f"{kind}_{s}" for kind in ("deck", "bot", "score") for s in range(seats)]
    fixed = ["winner", "turns", "decisions", "capped", "end_reason", "error"]
    base = ["game", "seed", "rotation", "seats", *per_seat, *fixed]
    # deck_i, bot_i, score_i for any seat count: a statistic may not look like one of them
    clash = [
        name for name in game_stats if name in base or re.fullmatch(r"(deck|bot|score)_\d+", name)
    ]
    if clash:
        raise ValueError(
            f"game statistics {clash} clash with the games table's own columns: rename them"
        )
    return [*base, *game_stats]


@dataclass
class CardTally:
    """Sufficient statistics per deck and per (deck, card), summed over games and batches."""

    counters: int  # how many counters the game declares
    decks: dict[str, list[int]] = field(default_factory=dict)  # deck -> [seat-games, score units]
    cards: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def add_game(
        self, decks: tuple[str, ...], scores: tuple[float, ...], events: list[Event]
    ) -> None:
        units = [round(score * SCORE_UNITS) for score in scores]
        for seat, deck in enumerate(decks):
            totals = self.decks.get(deck)
            if totals is None:
                totals = self.decks[deck] = [0, 0]
            totals[0] += 1
            totals[1] += units[seat]
        # Per (seat, card) in this game: [opening, drawn, first turn played (-1: never),
        # counter sums...], laid out so that a counter event's id is its index.
        seen: dict[tuple[int, int], list[int]] = {}
        width = PLAYED + 1 + self.counters
        for turn, seat, card, kind, value in events:
            mark = seen.get((seat, card))
            if mark is None:
                mark = seen[(seat, card)] = [0] * width
                mark[PLAYED] = -1
            if kind == OPENING:
                mark[OPENING] = 1
            elif kind == DRAWN:
                mark[DRAWN] = 1
            elif kind == PLAYED:
                if mark[PLAYED] < 0:
                    mark[PLAYED] = turn
            else:
                mark[kind] += value
        row_width = len(CARD_FIELDS) + self.counters
        for (seat, card), mark in seen.items():
            key = (decks[seat], card)
            row = self.cards.get(key)
            if row is None:
                row = self.cards[key] = [0] * row_width
            won = units[seat]
            if mark[OPENING] or mark[DRAWN]:
                row[0] += 1
                row[1] += won
            if mark[OPENING]:
                row[2] += 1
                row[3] += won
            if mark[PLAYED] >= 0:
                row[4] += 1
                row[5] += won
                row[6] += mark[PLAYED]
            for k in range(self.counters):
                row[7 + k] += mark[PLAYED + 1 + k]

    def merge(self, other: CardTally) -> None:
        for deck, (games, won) in other.decks.items():
            totals = self.decks.setdefault(deck, [0, 0])
            totals[0] += games
            totals[1] += won
        for key, row in other.cards.items():
            mine = self.cards.get(key)
            if mine is None:
                self.cards[key] = list(row)
            else:
                for i, value in enumerate(row):
                    mine[i] += value

    def rows(self, catalog: Catalog) -> list[dict[str, Any]]:
        """One row per (deck, card) for every deck played: its cards, and any card seen with it."""
        rows = []
        deck_order = [d for d in catalog.decks if d in self.decks]
        for deck in deck_order:
            games, won = self.decks[deck]
            contents = catalog.decks[deck]
            seen = sorted({card for d, card in self.cards if d == deck} | set(contents))
            for card in seen:
                tally = self.cards.get((deck, card), [0] * (len(CARD_FIELDS) + self.counters))
                row: dict[str, Any] = {
                    "deck": deck,
                    "card": catalog.cards[card],
                    "copies": contents.get(card, 0),
                    "games": games,
                }
                for name, value in zip(CARD_FIELDS, tally):
                    row[name] = value / SCORE_UNITS if name.endswith("_won") else value
                row["not_drawn"] = games - tally[0]
                row["not_drawn_won"] = (won - tally[1]) / SCORE_UNITS
                for k, counter in enumerate(catalog.counters):
                    row[f"{counter}_sum"] = tally[len(CARD_FIELDS) + k]
                rows.append(row)
        return rows


class GamesWriter:
    """Appends batches of rows to games.parquet as they arrive, in one row group each."""

    def __init__(self, path: Path, seats: int, game_stats: tuple[str, ...]) -> None:
        import pyarrow as pa

        self.path = path
        self.schema = pa.schema(_arrow_fields(seats, game_stats))
        self._writer: Any = None
        self._pending: list[GameRows] = []
        self._pending_rows = 0
        self.rows = 0

    def write(self, rows: GameRows) -> None:
        self._pending.append(rows)
        self._pending_rows += len(rows)
        self.rows += len(rows)
        if self._pending_rows >= 10_000:  # small enough that the last flush adds little to the run
            self._flush()

    def close(self) -> None:
        import pyarrow.parquet as pq

        self._flush()
        if self._writer is None:  # no game finished: still write the (empty) table
            self._writer = pq.ParquetWriter(self.path, self.schema)
        self._writer.close()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}
        for rows in self._pending:
            for name, values in rows.columns.items():
                columns[name].extend(values)
        table = pa.Table.from_pydict(columns, schema=self.schema)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.path, self.schema)
        self._writer.write_table(table)
        self._pending = []
        self._pending_rows = 0


def _arrow_fields(seats: int, game_stats: tuple[str, ...]) -> list[Any]:
    import pyarrow as pa

    types = {
        "game": pa.int64(),
        "seed": pa.uint64(),
        "rotation": pa.int16(),
        "seats": pa.int16(),
        "winner": pa.int16(),
        "turns": pa.int32(),
        "decisions": pa.int64(),
        "capped": pa.bool_(),
        "end_reason": pa.string(),
        "error": pa.string(),
    }
    fields = []
    for name in games_columns(seats, game_stats):
        if name in types:
            kind = types[name]
        elif name.startswith(("deck_", "bot_")) and name not in game_stats:
            kind = pa.string()
        else:
            kind = pa.float64()  # scores and the game's own statistics
        fields.append(pa.field(name, kind))
    return fields
