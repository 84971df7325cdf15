"""The skill ladder's report: bot against bot, and balance measured at each skill level."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from balance.report import plots
from balance.report.tables import Column, shape
from balance.report.tuning import _write


def render_ladder(
    folder: Path, game: str, pairs: pd.DataFrame, levels: pd.DataFrame, games: int, seats: int
) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ladder.json").write_text(json.dumps({"game": game, "games": games, "pairs": pairs.to_dict(orient="records"),
                                                    "levels": levels.to_dict(orient="records")}, indent=1))  # fmt: skip
    images = [
        plots.bot_heatmap(pairs, folder / "bots.png"),
        plots.levels_plot(levels, 1.0 / seats, folder / "levels.png"),
    ]
    wide = levels.pivot(index="measure", columns="bot", values="estimate").reset_index()
    bots = [c for c in wide.columns if c != "measure"]
    tables = [
        shape(pairs, (Column("bot", "bot"), Column("opponent", "opponent"), Column("deals", "deals", "int"),
                      Column("estimate", "win rate", "pct"), Column("ci_low,ci_high", "95% interval", "interval"))),
        shape(wide, (Column("measure", "measure at each skill level"), *(Column(b, b, "num3") for b in bots))),
    ]  # fmt: skip
    lines = []
    for _, row in pairs.iterrows():
        lines.append(
            f"{row['bot']} against {row['opponent']}: {row['estimate']:.1%} [{row['ci_low']:.1%}, {row['ci_high']:.1%}]"
        )
    text = (
        f"{games:,} games of {game}; each deal in every seat order, decks both ways round.\n"
        + "\n".join(lines)
    )
    _write(folder, "ladder", f"Skill ladder: {game}", text, tables, images)
    return [folder / "ladder.json", folder / "ladder.md", folder / "ladder.html", *images]
