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
from typing import Any, TypeVar

from balance.core.contract import DRAWN, OPENING, PLAYED, SCORE_UNITS, Catalog
from balance.sim.play import GameRecord
from balance.sim.schedule import GameSlot

Key = TypeVar("Key")

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
DRAWN_AT, DRAWN_WON_AT, OPENING_AT, OPENING_WON_AT, PLAYED_AT, PLAYED_WON_AT = range(6)

# Per deck: seat-games and score units (sums over games), then the deals it was played in and
# the sums over deals of the products of a deal's totals, g (seat-games) and w (score units).
DECK_FIELDS = ("games", "won", "deals", "games_sq", "games_x_won", "won_sq")

# Per (deck, card), after CARD_FIELDS and the counters: sums over deals of the products of a
# deal's totals (d drawn, dw drawn_won, o opening, ow opening_won, p played, pw played_won) with
# each other and with the deck's g and w. Cluster-robust intervals over deals need them
# (balance.stats.intervals); the not-drawn products follow, since not_drawn = g - d.
PRODUCT_FIELDS = (
    "drawn_sq", "drawn_x_drawn_won", "drawn_won_sq", "games_x_drawn", "games_x_drawn_won",
    "won_x_drawn", "won_x_drawn_won", "opening_sq", "opening_x_opening_won", "opening_won_sq",
    "played_sq", "played_x_played_won", "played_won_sq", "games_x_played",
)  # fmt: skip

# cards.parquet's columns after the sums (and `<counter>_sum`): the deals and, per ratio a
# metric is, the sums over deals of its denominator's and numerator's squares and product
# (`a_x_b` is the sum over deals of a * b), and the cross products IWD's two ratios need.
DEAL_COLUMNS = (
    "deals",
    "games_sq", "games_x_played", "played_sq",
    "played_x_played_won", "played_won_sq",
    "drawn_sq", "drawn_x_drawn_won", "drawn_won_sq",
    "opening_sq", "opening_x_opening_won", "opening_won_sq",
    "not_drawn_sq", "not_drawn_x_not_drawn_won", "not_drawn_won_sq",
    "drawn_x_not_drawn", "drawn_x_not_drawn_won", "drawn_won_x_not_drawn",
    "drawn_won_x_not_drawn_won",
)  # fmt: skip


def card_columns(counters: tuple[str, ...]) -> list[str]:
    """cards.parquet's columns, in order."""
    return [
        "deck", "card", "copies", "games", "drawn", "drawn_won", "opening", "opening_won",
        "played", "played_won", "not_drawn", "not_drawn_won", "turn_played_sum",
        *(f"{c}_sum" for c in counters), *DEAL_COLUMNS,
    ]  # fmt: skip


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
    """Sufficient statistics per deck and per (deck, card), summed over games and deals.

    Games come in deal by deal (`add_game(deal, record)`, every rotation of a deal in a row, as a
    batch holds whole deals); a deal's totals are kept apart until the next deal starts or the
    tally is read, then added with their products. A deal in which a game crashed is left out
    whole: its other games would stand without their other seat orders, and every rate here is
    paired over a deal's rotations (the crash is counted in the games table). Every number is a
    whole number (scores in SCORE_UNITS), so sums of products are exact in any order.
    """

    counters: int  # how many counters the game declares
    decks: dict[str, list[int]] = field(default_factory=dict)  # deck -> DECK_FIELDS
    cards: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # see PRODUCT_FIELDS
    # the deal being added: its number, its totals (as `decks`' first two fields and `cards`'
    # sums), and whether one of its games crashed
    deal: int = -1
    deal_decks: dict[str, list[int]] = field(default_factory=dict)
    deal_cards: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    deal_crashed: bool = False

    def add_game(self, deal: int, record: GameRecord) -> None:
        if deal != self.deal:
            self.close_deal()
            self.deal = deal
        if record.error:
            self.deal_crashed = True
            return
        units = [round(score * SCORE_UNITS) for score in record.scores]
        decks = record.decks
        for seat, deck in enumerate(decks):
            totals = self.deal_decks.get(deck)
            if totals is None:
                totals = self.deal_decks[deck] = [0, 0]
            totals[0] += 1
            totals[1] += units[seat]
        # Per (seat, card) in this game: [opening, drawn, first turn played (-1: never),
        # counter sums...], laid out so that a counter event's id is its index.
        seen: dict[tuple[int, int], list[int]] = {}
        width = PLAYED + 1 + self.counters
        for turn, seat, card, kind, value in record.events:
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
            row = self.deal_cards.get(key)
            if row is None:
                row = self.deal_cards[key] = [0] * row_width
            won = units[seat]
            if mark[OPENING] or mark[DRAWN]:
                row[DRAWN_AT] += 1
                row[DRAWN_WON_AT] += won
            if mark[OPENING]:
                row[OPENING_AT] += 1
                row[OPENING_WON_AT] += won
            if mark[PLAYED] >= 0:
                row[PLAYED_AT] += 1
                row[PLAYED_WON_AT] += won
                row[6] += mark[PLAYED]
            for k in range(self.counters):
                row[7 + k] += mark[PLAYED + 1 + k]

    def close_deal(self) -> None:
        """Add the deal being added (unless a game of it crashed) to the sums."""
        if not self.deal_crashed:
            for deck, (g, w) in self.deal_decks.items():
                totals = self.decks.get(deck)
                if totals is None:
                    totals = self.decks[deck] = [0] * len(DECK_FIELDS)
                totals[0] += g
                totals[1] += w
                totals[2] += 1
                totals[3] += g * g
                totals[4] += g * w
                totals[5] += w * w
            base = len(CARD_FIELDS) + self.counters
            for key, sums in self.deal_cards.items():
                g, w = self.deal_decks[key[0]]
                d, dw, o, ow, p, pw = sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]
                row = self.cards.get(key)
                if row is None:
                    row = self.cards[key] = [0] * (base + len(PRODUCT_FIELDS))
                row[:base] = [a + b for a, b in zip(row, sums)]
                # PRODUCT_FIELDS, in order (written out: this runs for every card of every deal)
                row[base] += d * d
                row[base + 1] += d * dw
                row[base + 2] += dw * dw
                row[base + 3] += g * d
                row[base + 4] += g * dw
                row[base + 5] += w * d
                row[base + 6] += w * dw
                row[base + 7] += o * o
                row[base + 8] += o * ow
                row[base + 9] += ow * ow
                row[base + 10] += p * p
                row[base + 11] += p * pw
                row[base + 12] += pw * pw
                row[base + 13] += g * p
        self.deal_decks = {}
        self.deal_cards = {}
        self.deal_crashed = False

    def merge(self, other: CardTally) -> None:
        """Add another tally of other, whole deals (a batch's), field by field."""
        self.close_deal()
        other.close_deal()
        _add_rows(self.decks, other.decks)
        _add_rows(self.cards, other.cards)

    def rows(self, catalog: Catalog) -> list[dict[str, Any]]:
        """One row per (deck, card) for every deck played: its cards, and any card seen with it.
        Columns as `card_columns`; wins in scores (sums of score units / SCORE_UNITS)."""
        self.close_deal()
        rows = []
        deck_order = [d for d in catalog.decks if d in self.decks]
        base = len(CARD_FIELDS) + self.counters
        width = base + len(PRODUCT_FIELDS)
        for deck in deck_order:
            games, won, deals, g_sq, g_w, w_sq = self.decks[deck]
            contents = catalog.decks[deck]
            seen = sorted({card for d, card in self.cards if d == deck} | set(contents))
            for card in seen:
                tally = self.cards.get((deck, card), [0] * width)
                row: dict[str, Any] = {
                    "deck": deck,
                    "card": catalog.cards[card],
                    "copies": contents.get(card, 0),
                    "games": games,
                }
                for name, value in zip(CARD_FIELDS, tally):
                    row[name] = value / SCORE_UNITS if name.endswith("_won") else value
                row["not_drawn"] = games - tally[DRAWN_AT]
                row["not_drawn_won"] = (won - tally[DRAWN_WON_AT]) / SCORE_UNITS
                for k, counter in enumerate(catalog.counters):
                    row[f"{counter}_sum"] = tally[len(CARD_FIELDS) + k]
                row.update(_deal_columns(deals, g_sq, g_w, w_sq, tally[base:]))
                rows.append(row)
        return rows


def _add_rows(mine: dict[Key, list[int]], theirs: dict[Key, list[int]]) -> None:
    for key, values in theirs.items():
        row = mine.get(key)
        if row is None:
            mine[key] = list(values)
        else:
            for i, value in enumerate(values):
                row[i] += value


def _deal_columns(
    deals: int, g_sq: int, g_w: int, w_sq: int, products: list[int]
) -> dict[str, float]:
    """DEAL_COLUMNS from a deck's and a card's sums of products; not drawn = g - d per deal."""
    d_sq, d_dw, dw_sq, g_d, g_dw, w_d, w_dw, o_sq, o_ow, ow_sq, p_sq, p_pw, pw_sq, g_p = products
    unit, unit_sq = SCORE_UNITS, SCORE_UNITS * SCORE_UNITS
    return {
        "deals": deals,
        "games_sq": g_sq,
        "games_x_played": g_p,
        "played_sq": p_sq,
        "played_x_played_won": p_pw / unit,
        "played_won_sq": pw_sq / unit_sq,
        "drawn_sq": d_sq,
        "drawn_x_drawn_won": d_dw / unit,
        "drawn_won_sq": dw_sq / unit_sq,
        "opening_sq": o_sq,
        "opening_x_opening_won": o_ow / unit,
        "opening_won_sq": ow_sq / unit_sq,
        "not_drawn_sq": g_sq - 2 * g_d + d_sq,
        "not_drawn_x_not_drawn_won": (g_w - g_dw - w_d + d_dw) / unit,
        "not_drawn_won_sq": (w_sq - 2 * w_dw + dw_sq) / unit_sq,
        "drawn_x_not_drawn": g_d - d_sq,
        "drawn_x_not_drawn_won": (w_d - d_dw) / unit,
        "drawn_won_x_not_drawn": (g_dw - d_dw) / unit,
        "drawn_won_x_not_drawn_won": (w_dw - dw_sq) / unit_sq,
    }


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
