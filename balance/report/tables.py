"""The report's tables: the statistics' pandas tables as rows of words, for Markdown and HTML."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Column:
    source: str  # the column of the statistics table
    title: str
    # text | int | pct | num | num3 | num4 | signed | flag (yes, or blank) | value (a config
    # value as written: 2, not 2.0), or an interval read
    # from "low,high": interval (percentages), interval3 (signed, 3 places), interval_num (plain,
    # 2 places), interval_num4 (plain, 4 places)
    kind: str = "text"
    # HTML cells coloured by value: "rate" around 1/2, "signed" around 0, "verdict" by its word
    grade: str = ""


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    sort_keys: tuple[tuple[float | str, ...], ...]  # per row, per column: what sorting compares


def shape(frame: pd.DataFrame, columns: Sequence[Column]) -> Table:
    rows, keys = [], []
    for _, record in frame.iterrows():
        shown, sortable = [], []
        for column in columns:
            text, key = _cell(record, column)
            shown.append(text)
            sortable.append(key)
        rows.append(tuple(shown))
        keys.append(tuple(sortable))
    return Table(tuple(columns), tuple(rows), tuple(keys))


def _cell(record: pd.Series, column: Column) -> tuple[str, float | str]:
    if column.kind in ("interval", "interval3", "interval_num", "interval_num4"):
        low_name, high_name = column.source.split(",")
        low, high = record[low_name], record[high_name]
        if _missing(low) or _missing(high):
            return "", math.nan
        if column.kind == "interval_num":
            return f"[{low:.2f}, {high:.2f}]", float(low)
        if column.kind == "interval_num4":
            return f"[{low:.4f}, {high:.4f}]", float(low)
        if column.kind == "interval3" or "iwd" in low_name:
            return f"[{low:+.3f}, {high:+.3f}]", float(low)
        return f"[{low:.1%}, {high:.1%}]", float(low)
    value = record[column.source]
    if _missing(value):
        return "", math.nan
    if column.kind == "int":
        return f"{int(value):,}", float(value)
    if column.kind == "pct":
        return f"{value:.1%}", float(value)
    if column.kind == "num":
        return f"{value:.2f}", float(value)
    if column.kind == "num3":
        return f"{value:.3f}", float(value)
    if column.kind == "num4":
        return f"{value:.4f}", float(value)
    if column.kind == "signed":
        return f"{value:+.3f}", float(value)
    if column.kind == "value":  # a config value: a whole number as one (pandas made it 2.0)
        if isinstance(value, float) and value.is_integer():
            return str(int(value)), float(value)
        return str(value), float(value) if isinstance(value, (int, float)) else str(value)
    if column.kind == "flag":
        return ("yes" if bool(value) else ""), float(bool(value))
    if isinstance(value, (bool, np.bool_)):
        return ("yes" if value else "no"), float(value)
    return str(value), str(value)


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def markdown(table: Table) -> str:
    titles = [c.title for c in table.columns]
    right = [c.kind != "text" for c in table.columns]
    lines = [
        "| " + " | ".join(titles) + " |",
        "|" + "|".join("---:" if r else "---" for r in right) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in table.rows]
    return "\n".join(lines)


def html_table(table: Table, table_id: str, filter_by: str = "") -> str:
    """A sortable table: the script in the page sorts by a header click, using data-key, and
    marks the sorted column with an arrow. With `filter_by` (a column's source), a menu above
    the table shows only the rows of one value (a deck)."""
    head = "".join(
        f'<th aria-sort="none" title="sort by {html.escape(c.title)}">{html.escape(c.title)}</th>'
        for c in table.columns
    )
    body = []
    for row, keys in zip(table.rows, table.sort_keys):
        cells = []
        for text, key, column in zip(row, keys, table.columns):
            numeric = column.kind != "text"
            data = "" if isinstance(key, float) and math.isnan(key) else html.escape(str(key))
            style = _grade(column.grade, key, text)
            cells.append(
                f'<td class="{"num" if numeric else "txt"}" data-key="{data}"{style}>{html.escape(text)}</td>'
            )
        body.append("<tr>" + "".join(cells) + "</tr>")
    menu = ""
    sources = [c.source for c in table.columns]
    if filter_by in sources:
        at = sources.index(filter_by)
        values = sorted({row[at] for row in table.rows})
        options = "".join(
            f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values
        )
        menu = (f'<label class="filter">{html.escape(table.columns[at].title)}: '
                f'<select data-table="{table_id}" data-column="{at}"><option value="">all</option>'
                f"{options}</select></label>")  # fmt: skip
    return f'{menu}<table class="sortable" id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


VERDICT_COLOURS = {"pass": "#c9ecc9", "fail": "#f6c1c1", "undecided": "#fbe3b0"}


def _grade(grade: str, key: float | str, text: str) -> str:
    """A cell's background: green for good, red for bad, by distance from the neutral value."""
    if grade == "verdict":
        colour = VERDICT_COLOURS.get(text.split(" ")[0])
        return f' style="background:{colour}"' if colour else ""
    if not grade or not isinstance(key, float) or math.isnan(key):
        return ""
    centre, span = (0.5, 0.15) if grade == "rate" else (0.0, 0.10)
    strength = max(-1.0, min(1.0, (key - centre) / span))
    hue = 130 if strength > 0 else 0  # green above the neutral value, red below
    return f' style="background:hsl({hue},65%,{100 - 28 * abs(strength):.0f}%)"'
