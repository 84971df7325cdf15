"""What a run keeps of each game: a row of the games table and the card tally's sufficient statistics.

Workers fill a `GameRows` and a `CardTally` per batch; the main process hands the rows to a
`GamesWriter` as they arrive and sums the tallies, so a million games never hold a million event
lists in memory. Scores are summed as whole `SCORE_UNITS`, so the sums are exact in any order and
the tables are the same for any number of jobs, batch size, or interruptions and resumes.

How games reach the disk (`GamesWriter`): a parquet file cannot be appended to once closed, and
rewriting its footer in place leaves a moment in which the file is unreadable. So a run commits
its finished games every couple of seconds as one *part file* of its own,
`parts/<first>-<end>.parquet`, complete and written atomically, carrying the crash records of its
games in its metadata; then `checkpoint.json` (atomically) with the number of games committed and
the card tally of exactly those games. `checkpoint.json` is the commit point: games and tally
can never disagree, and a part written after the last checkpoint is simply dropped on resume.
When the run ends, finished or stopped, the parts are consolidated into one `games.parquet`
(streamed a part at a time: memory stays flat) and `crashes.json`, and removed. A resumed run
continues after the last commit and consolidates `games.parquet` and its new parts together.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from balance.core.contract import DRAWN, OPENING, PLAYED, SCORE_UNITS, Catalog
from balance.core.errors import ConfigError
from balance.core.runfiles import CARDS, CRASHES, GAMES, read_json, replacing, write_json
from balance.sim.play import GameRecord
from balance.sim.schedule import GameSlot

if TYPE_CHECKING:
    import pandas as pd

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

    def frame(self) -> pd.DataFrame:
        """The rows as a pandas DataFrame, seeds as uint64 as in games.parquet: pandas alone
        infers int64 for a batch whose seeds are all below 2**63 and uint64 for one with a
        larger seed, and a table of both kinds of batch is float64, which rounds the seeds and
        makes a table depend on how the games were batched (--jobs)."""
        import pandas as pd

        frame = pd.DataFrame(self.columns)
        frame["seed"] = frame["seed"].astype("uint64")
        return frame


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

    def to_state(self) -> dict[str, Any]:
        """The tally as JSON-ready data: every dataclass field, whatever fields it grows, so a
        checkpoint carries all of it. `from_state(t.to_state())` equals `t`."""
        return {f.name: _encode(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> CardTally:
        return cls(**{name: _decode(value) for name, value in state.items()})

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


def _encode(value: Any) -> Any:
    """JSON-ready, keeping what JSON loses: tuples, and mapping keys that are not strings."""
    if isinstance(value, dict):
        return {"dict": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if hasattr(value, "tolist"):  # a numpy array or scalar
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a card tally field holds a {type(value).__name__}, which has no state form")


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


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if "dict" in value:
            return {_decode(k): _decode(v) for k, v in value["dict"]}
        if "tuple" in value:
            return tuple(_decode(v) for v in value["tuple"])
        import numpy as np

        return np.asarray(value["array"], dtype=value["dtype"])
    return value


PARTS = "parts"  # the part files of a run in progress
CHECKPOINT = "checkpoint.json"  # games committed and their card tally: the commit point
ROW_GROUP = 65_536  # rows per row group of the consolidated games.parquet
_CRASHES_KEY = b"balance.crashes"


class GamesWriter:
    """The games table of a run folder and the card tally of the same games, committed together
    (see the module docstring). `start` begins a run; `reopen` continues from the last commit."""

    def __init__(self, folder: Path, seats: int, game_stats: tuple[str, ...], tally: CardTally):
        import pyarrow as pa

        self.folder = folder
        self.schema = pa.schema(_arrow_fields(seats, game_stats))
        self.tally = tally  # of every game added, committed or not
        self.committed = 0  # games committed: a part file and the checkpoint hold them
        self.rows = 0  # games added: committed and pending
        self.crashed = 0
        self._consolidated = 0  # games held by games.parquet
        self._pending: list[GameRows] = []
        self._pending_crashes: list[dict[str, Any]] = []

    @classmethod
    def start(
        cls, folder: Path, seats: int, game_stats: tuple[str, ...], counters: int
    ) -> GamesWriter:
        """A new run in `folder`: what a previous run there wrote of its tables is removed."""
        shutil.rmtree(folder / PARTS, ignore_errors=True)
        for name in (CHECKPOINT, GAMES, CARDS, CRASHES):
            (folder / name).unlink(missing_ok=True)
        return cls(folder, seats, game_stats, CardTally(counters))

    @classmethod
    def reopen(
        cls, folder: Path, seats: int, game_stats: tuple[str, ...], counters: int
    ) -> GamesWriter:
        """The run in `folder` as of its last commit; parts written after it are dropped."""
        import pyarrow.parquet as pq

        tally = CardTally(counters)
        committed = 0
        if (folder / CHECKPOINT).exists():
            checkpoint = read_json(folder / CHECKPOINT)
            committed = int(checkpoint["games"])
            tally = CardTally.from_state(checkpoint["tally"])
        writer = cls(folder, seats, game_stats, tally)
        if (folder / GAMES).exists():
            try:
                writer._consolidated = pq.ParquetFile(folder / GAMES).metadata.num_rows
            except Exception as e:  # noqa: BLE001 - any damage: the same one line
                raise ConfigError(
                    str(folder / GAMES), None, f"cannot read it: {e}", "run it again"
                ) from None
        if writer._consolidated > committed:
            raise ConfigError(
                str(folder),
                None,
                f"{GAMES} holds {writer._consolidated} games but {CHECKPOINT} {committed}",
                "this run cannot be resumed: run it again",
            )
        at = writer._consolidated
        for first, end, path in _parts(folder):
            if end <= writer._consolidated or first >= committed:
                path.unlink()  # already consolidated, or written after the last commit
            elif first == at:
                writer.crashed += len(_part_crashes(path))
                at = end
        if at != committed:
            raise ConfigError(
                str(folder / PARTS),
                None,
                f"games {at}-{committed - 1} are missing",
                "this run cannot be resumed: run it again",
            )
        writer.crashed += len(writer._old_crashes())
        writer.committed = writer.rows = committed
        return writer

    def add(self, rows: GameRows, tally: CardTally, crashes: list[dict[str, Any]]) -> None:
        """The next games, in schedule order."""
        self._pending.append(rows)
        self._pending_crashes.extend(crashes)
        self.tally.merge(tally)
        self.rows += len(rows)
        self.crashed += len(crashes)

    def commit(self) -> None:
        """Put the games added since the last commit on disk, with the tally, in one step."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}
        for rows in self._pending:
            for name, values in rows.columns.items():
                columns[name].extend(values)
        crashes = json.dumps(self._pending_crashes).encode()
        schema = self.schema.with_metadata({_CRASHES_KEY: crashes})
        table = pa.Table.from_pydict(columns, schema=schema)
        (self.folder / PARTS).mkdir(exist_ok=True)
        part = self.folder / PARTS / f"{self.committed:012d}-{self.rows:012d}.parquet"
        with replacing(part) as temporary:
            pq.write_table(table, temporary)
        write_json(self.folder / CHECKPOINT, {"games": self.rows, "tally": self.tally.to_state()})
        self.committed = self.rows
        self._pending, self._pending_crashes = [], []

    def consolidate(self) -> tuple[int, int]:
        """Commit, then make the committed games one games.parquet and one crashes.json, and
        remove the parts. Returns (capped games, decisions) over the whole table."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        self.commit()
        parts = [path for first, _, path in _parts(self.folder) if first >= self._consolidated]
        crashes = self._old_crashes()
        for path in parts:
            crashes.extend(_part_crashes(path))
        write_json(self.folder / CRASHES, crashes)
        capped = decisions = 0
        with (
            replacing(self.folder / GAMES) as temporary,
            pq.ParquetWriter(temporary, self.schema) as out,
        ):
            buffered: list[Any] = []

            def write(tables: list[Any]) -> None:
                nonlocal capped, decisions
                if tables:
                    table = pa.concat_tables(tables)
                    capped += int(pc.sum(table["capped"]).as_py() or 0)
                    decisions += int(pc.sum(table["decisions"]).as_py() or 0)
                    out.write_table(table)

            if self._consolidated:
                old = pq.ParquetFile(self.folder / GAMES)
                for group in range(old.num_row_groups):
                    write([old.read_row_group(group).replace_schema_metadata(None)])
            for path in parts:
                buffered.append(pq.read_table(path).replace_schema_metadata(None))
                if sum(len(t) for t in buffered) >= ROW_GROUP:
                    write(buffered)
                    buffered = []
            write(buffered)
        shutil.rmtree(self.folder / PARTS, ignore_errors=True)
        self._consolidated = self.committed
        return capped, decisions

    def _old_crashes(self) -> list[dict[str, Any]]:
        """The crash records of the games games.parquet holds (crashes.json may hold more: it
        is written before games.parquet is replaced)."""
        if not self._consolidated or not (self.folder / CRASHES).exists():
            return []
        return [c for c in read_json(self.folder / CRASHES) if c["game"] < self._consolidated]


def _parts(folder: Path) -> list[tuple[int, int, Path]]:
    """The part files in `folder`, in game order: (first game, end, path)."""
    found = []
    for path in (folder / PARTS).glob("*.parquet"):
        first, _, end = path.stem.partition("-")
        if first.isdigit() and end.isdigit():
            found.append((int(first), int(end), path))
    return sorted(found)


def _part_crashes(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    crashes: list[dict[str, Any]] = json.loads(metadata.get(_CRASHES_KEY, b"[]"))
    return crashes


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
