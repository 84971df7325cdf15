"""The report's tables: the statistics' pandas tables as rows of words, for Markdown and HTML."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Column:
    source: str  # the column of the statistics table
    title: str
    # text | int | pct | num | num3 | num4 | signed, or an interval read from "low,high":
    # interval (percentages), interval3 (signed, 3 places), interval_num (plain, 2 places)
    kind: str = "text"


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
    if column.kind in ("interval", "interval3", "interval_num"):
        low_name, high_name = column.source.split(",")
        low, high = record[low_name], record[high_name]
        if _missing(low) or _missing(high):
            return "", math.nan
        if column.kind == "interval_num":
            return f"[{low:.2f}, {high:.2f}]", float(low)
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
    if isinstance(value, (bool,)) or str(value) in ("True", "False"):
        return ("yes" if str(value) == "True" else ""), str(value)  # "False" as text is no
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


def html_table(table: Table, table_id: str) -> str:
    """A sortable table: the script in the page sorts by a header click, using data-key."""
    head = "".join(f"<th>{html.escape(c.title)}</th>" for c in table.columns)
    body = []
    for row, keys in zip(table.rows, table.sort_keys):
        cells = []
        for text, key, column in zip(row, keys, table.columns):
            numeric = column.kind != "text"
            data = "" if isinstance(key, float) and math.isnan(key) else html.escape(str(key))
            cells.append(
                f'<td class="{"num" if numeric else "txt"}" data-key="{data}">{html.escape(text)}</td>'
            )
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="sortable" id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
