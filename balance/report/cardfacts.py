"""Each card's own numbers and text, for the card tables: read from the run's cards.yaml with the
run's overrides applied, so a card shows the power it was played with.

Every game writes its cards as a list of mappings with an `id` (DESIGN.md: card text is data), so
one reader serves every game, plug-ins included: a card's scalar fields become columns in the
file's order (a nested mapping such as `cost: {silver: 2}` gives `cost silver`), a list of plain
values is joined (`arrows: [N, E]`), and its effect lists (`{on: ..., do: ...}` entries) become
one line of text in the designer's own words.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from balance.core.config import read_config
from balance.core.errors import ConfigError, DataWarning
from balance.core.yamlio import plain


def card_facts(config_dir: Path, overrides: Mapping[str, object]) -> pd.DataFrame:
    """One row per card id: its fields and `text`. Empty when the config no longer loads (a
    run's config folder moved or changed shape): the metrics stand without the facts."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)
            documents = read_config(config_dir, ("cards",), overrides)
    except ConfigError:
        return pd.DataFrame(columns=["card"])
    cards = plain(documents["cards"])
    if isinstance(cards, dict):
        cards = cards.get("cards", [])
    rows = [_facts(card) for card in cards if isinstance(card, dict) and "id" in card]
    frame = pd.DataFrame(rows)
    if not len(frame):
        return pd.DataFrame(columns=["card"])
    text = frame.pop("text") if "text" in frame else pd.Series("", index=frame.index)
    frame["text"] = text.fillna("")
    return frame


def _facts(card: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {"card": str(card["id"])}
    text: list[str] = []
    for key, value in card.items():
        if key == "id":
            continue
        if isinstance(value, dict):
            for inner, number in value.items():
                row[f"{key} {inner}"] = _scalar(number)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            text += [effect_text(v) for v in value]
        elif isinstance(value, list):
            if value:
                row[key] = " ".join(str(v) for v in value)
        elif key == "text":
            text.insert(0, str(value))
        else:
            row[key] = value
    row["text"] = "; ".join(t for t in text if t)
    return row


def effect_text(entry: Mapping[str, Any]) -> str:
    """`{on: attack, do: power, n: 2, target: self}` -> `on attack: power n=2 target=self`."""
    head = f"on {entry['on']}: " if "on" in entry else ""
    verb = str(entry.get("do", ""))
    rest = " ".join(f"{k}={_inline(v)}" for k, v in entry.items() if k not in ("on", "do"))
    return f"{head}{verb} {rest}".strip()


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return str(value)


def _scalar(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else _inline(value)
