"""The skill ladder's report: the bots' ratings first, then bot against bot, and balance
measured at each skill level, every figure with its 95% interval over deals."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from balance.report import plots
from balance.report.tables import Column, Table, shape
from balance.report.tuning import _write


def applied_text(overrides: Mapping[str, object], patch: Path | None = None) -> str:
    """The config changes a run played with, in the words of --set (and the patch's name)."""
    changes = ", ".join(f"{path}={value}" for path, value in overrides.items()) or "none"
    return f"{changes} (patch {patch})" if patch is not None else changes


def ladder_summary(result: Any, applied: str) -> str:
    """The terminal's and the report's answer: who plays, the ratings, then the head-to-head.
    `result` is a balance.ladder.LadderResult (typed Any: the report layer does not import the
    ladder, which imports it)."""
    share = 1.0 / result.seats
    lines = [
        f"ladder {result.game}: bots {', '.join(result.bots)}; {result.seats} seats; decks {_decks(result.decks)}",
        f"config {result.config_dir}; overrides: {applied}",
        f"{result.games:,} games"
        + (f" of {result.planned:,} (stopped by {result.stopped_by})" if result.stopped_by else ""),
        "",
    ]  # fmt: skip
    if len(result.ratings):
        deals = int(result.pairs["deals"].max()) if len(result.pairs) else 0
        lines.append(
            f"rating (Elo scale, {result.bots[0]} = 0; 95% interval over deals, up to {deals} per pair)"
        )
        width = max(len(bot) for bot in result.bots)
        for _, row in result.ratings.iterrows():
            interval = f"[{_elo(row['ci_low'])}, {_elo(row['ci_high'])}]"
            lead = f"  {_elo(row['lead'])} [{_elo(row['lead_low'])}, {_elo(row['lead_high'])}] over {row['below']}" if row["below"] else ""  # fmt: skip
            lines.append(
                f"  {row['bot']:<{width}}  {_elo(row['rating']):>6}  {interval:<16}{lead}".rstrip()
            )
        unrated = [bot for bot in result.bots if bot not in set(result.ratings["bot"])]
        if unrated:
            lines.append(f"  not rated (stopped before their games): {', '.join(unrated)}")
    else:
        lines.append("rating: stopped before any pairing finished")
    if len(result.pairs):
        lines += ["", f"head to head: the bot's mean score per game, alone against copies of the opponent (fair share {share:.0%})"]  # fmt: skip
        for _, row in result.pairs.iterrows():
            predicted = f"  ratings say {row['expected']:.1%}" if "expected" in row and pd.notna(row["expected"]) else ""  # fmt: skip
            lines.append(
                f"  {row['bot']} vs {row['opponent']}: {row['estimate']:.1%} [{row['ci_low']:.1%}, {row['ci_high']:.1%}] ({row['deals']} deals){predicted}"
            )
    return "\n".join(lines)


def render_ladder(folder: Path, result: Any, applied: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "game": result.game,
        "bots": result.bots,
        "seats": result.seats,
        "config": str(result.config_dir),
        "overrides": dict(result.overrides),  # --set and the patch's, as applied
        "applied": applied,  # the same in words, with the patch's file
        "decks": result.decks if isinstance(result.decks, str) else list(result.decks),
        "games": result.games,
        "planned": result.planned,
        "stopped_by": result.stopped_by,
        "ratings": result.ratings.to_dict(orient="records"),
        "pairs": result.pairs.to_dict(orient="records"),
        "levels": result.levels.to_dict(orient="records"),
    }
    (folder / "ladder.json").write_text(json.dumps(record, indent=1, default=str))
    images = []
    if len(result.pairs):
        images.append(plots.bot_heatmap(result.pairs, folder / "bots.png"))
    if len(result.levels):
        images.append(plots.levels_plot(result.levels, 1.0 / result.seats, folder / "levels.png"))
    tables: list[Table] = []
    if len(result.ratings):
        tables.append(_ratings_table(result.ratings))
    if len(result.pairs):
        tables += [_matrix(result.pairs, result.bots), _pairs_table(result.pairs)]
    tables += [_level_table(result.levels, bot) for bot in result.bots if _has(result.levels, bot)]
    _write(folder, "ladder", f"Skill ladder: {result.game}", ladder_summary(result, applied), tables, images)  # fmt: skip
    return [folder / "ladder.json", folder / "ladder.md", folder / "ladder.html", *images]


def _ratings_table(ratings: pd.DataFrame) -> Table:
    frame = ratings.assign(
        shown=ratings["rating"].map(_elo),
        interval=[f"[{_elo(lo)}, {_elo(hi)}]" for lo, hi in zip(ratings["ci_low"], ratings["ci_high"], strict=True)],
    )  # fmt: skip
    frame["lead_shown"] = [
        f"{_elo(g)} [{_elo(lo)}, {_elo(hi)}] over {b}" if b else ""
        for g, lo, hi, b in zip(
            frame["lead"], frame["lead_low"], frame["lead_high"], frame["below"], strict=True
        )
    ]
    return shape(frame, (Column("bot", "bot (strongest first)"), Column("shown", "rating (Elo scale)"),
                         Column("interval", "95% interval"), Column("lead_shown", "lead over the next bot down, 95% interval")))  # fmt: skip


def _matrix(pairs: pd.DataFrame, bots: list[str]) -> Table:
    """Row bot's mean score against the column bot, with its interval."""
    cells = pairs.assign(
        cell=[f"{e:.1%} [{lo:.1%}, {hi:.1%}]" for e, lo, hi in zip(pairs["estimate"], pairs["ci_low"], pairs["ci_high"], strict=True)]
    ).pivot(index="bot", columns="opponent", values="cell")  # fmt: skip
    present = [b for b in bots if b in cells.index or b in cells.columns]
    cells = cells.reindex(index=present, columns=present).fillna("").reset_index()
    return shape(
        cells, (Column("bot", "row bot's score against"), *(Column(b, b) for b in present))
    )


def _pairs_table(pairs: pd.DataFrame) -> Table:
    columns = [Column("bot", "bot"), Column("opponent", "opponent"), Column("deals", "deals", "int"),
               Column("estimate", "mean score", "pct"), Column("ci_low,ci_high", "95% interval", "interval")]  # fmt: skip
    if "expected" in pairs:
        columns.append(Column("expected", "the ratings predict", "pct"))
    return shape(pairs, columns)


def _level_table(levels: pd.DataFrame, bot: str) -> Table:
    rows = levels[levels["bot"] == bot]
    frame = rows.assign(
        shown=[_signed(m, e) for m, e in zip(rows["measure"], rows["estimate"], strict=True)],
        interval=[f"[{_signed(m, lo)}, {_signed(m, hi)}]" for m, lo, hi in zip(rows["measure"], rows["ci_low"], rows["ci_high"], strict=True)],
    )  # fmt: skip
    return shape(frame, (Column("measure", f"every seat {bot}"), Column("deals", "deals", "int"),
                         Column("shown", "estimate"), Column("interval", "95% interval")))  # fmt: skip


def _elo(value: float) -> str:
    """Whole Elo points, signed; -0.4 shows as +0, not -0."""
    return f"{round(value) + 0:+d}" if pd.notna(value) else "n/a"


def _signed(measure: str, value: float) -> str:
    """A seat advantage is a difference from the fair share (signed); a win rate is a rate."""
    return f"{value:+.1%}" if measure == "seat advantage" else f"{value:.1%}"


def _has(levels: pd.DataFrame, bot: str) -> bool:
    return bool(len(levels)) and bool((levels["bot"] == bot).any())


def _decks(decks: Any) -> str:
    return decks if isinstance(decks, str) else ",".join(decks)
