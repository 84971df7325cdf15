"""The report's plots (matplotlib, Agg, PNG). Each takes a table and a path and writes one file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display, no GUI toolkit

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

DPI = 110


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def _errors(table: pd.DataFrame, value: str, low: str, high: str) -> np.ndarray:
    return np.vstack(
        [(table[value] - table[low]).clip(lower=0), (table[high] - table[value]).clip(lower=0)]
    )


def deck_forest(decks: pd.DataFrame, fair: float, path: Path) -> Path:
    """Each deck's win rate against the field with its 95% interval, against the fair share."""
    table = decks.sort_values("win_rate")
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(table) + 1.4))
    y = np.arange(len(table))
    ax.errorbar(
        table["win_rate"],
        y,
        xerr=_errors(table, "win_rate", "ci_low", "ci_high"),
        fmt="o",
        color="#1f4e79",
        capsize=3,
    )
    ax.axvline(fair, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y, [f"{d}  (n={n:,})" for d, n in zip(table["deck"], table["games"])])
    ax.set_xlabel("win rate against the field (95% interval)")
    ax.set_title("Decks")
    return _save(fig, path)


def matchup_heatmap(matchups: pd.DataFrame, path: Path) -> Path:
    """Row deck's win rate against the column deck, annotated with the rate and the games."""
    rates = matchups.pivot(index="deck", columns="opponent", values="win_rate")
    games = matchups.pivot(index="deck", columns="opponent", values="games")
    size = max(4.0, 0.9 * len(rates) + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    image = ax.imshow(rates.to_numpy(dtype=float), cmap="RdBu", vmin=0.2, vmax=0.8)
    ax.set_xticks(range(len(rates.columns)), rates.columns, rotation=45, ha="right")
    ax.set_yticks(range(len(rates.index)), rates.index)
    for i in range(len(rates.index)):
        for j in range(len(rates.columns)):
            value = rates.iat[i, j]
            if pd.notna(value):
                ax.text(
                    j,
                    i,
                    f"{value:.0%}\nn={int(games.iat[i, j]):,}",
                    ha="center",
                    va="center",
                    fontsize=8,
                )
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck")
    ax.set_title("Matchups: row deck's win rate")
    fig.colorbar(image, ax=ax, shrink=0.8)
    return _save(fig, path)


def seat_plot(seats: pd.DataFrame, advantage: dict[str, float], path: Path) -> Path:
    """Each seat's win rate (seat 0 moves first) against the fair share 1/N."""
    n = len(seats)
    fig, ax = plt.subplots(figsize=(1.2 * n + 3, 3.2))
    ax.bar(
        seats["seat"].astype(str),
        seats["win_rate"],
        yerr=_errors(seats, "win_rate", "ci_low", "ci_high"),
        color="#4a7ab5",
        capsize=4,
    )
    ax.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("seat (0 moves first)")
    ax.set_ylabel("win rate")
    value, low, high = advantage["value"], advantage["ci_low"], advantage["ci_high"]
    ax.set_title(f"Seat advantage of seat 0: {value:+.3f} [{low:+.3f}, {high:+.3f}]")
    return _save(fig, path)


def length_histogram(games: pd.DataFrame, path: Path) -> Path:
    """How long games last, in turns."""
    turns = games["turns"]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    whole_turns = turns.max() - turns.min() < 80  # one bar per turn, else 40 bars
    bins: Any = np.arange(turns.min(), turns.max() + 2) - 0.5 if whole_turns else 40
    ax.hist(turns, bins=bins, color="#6b8e23")
    ax.axvline(turns.median(), color="black", linewidth=1, label=f"median {turns.median():.0f}")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title("Game length")
    return _save(fig, path)


def card_scatter(metrics: pd.DataFrame, path: Path) -> Path:
    """GIH WR against play rate, coloured by IWD; the strongest outliers are named."""
    table = metrics.dropna(subset=["gih_wr", "play_rate"])
    fig, ax = plt.subplots(figsize=(8, 5.5))
    limit = max(0.05, float(table["iwd"].abs().max()) if len(table) else 0.05)
    points = ax.scatter(
        table["play_rate"],
        table["gih_wr"],
        c=table["iwd"],
        cmap="RdBu",
        vmin=-limit,
        vmax=limit,
        s=28,
        edgecolors="grey",
        linewidths=0.4,
    )
    for _, row in pd.concat([table.nlargest(4, "iwd"), table.nsmallest(4, "iwd")]).iterrows():
        ax.annotate(
            f"{row['card']} ({row['deck']})",
            (row["play_rate"], row["gih_wr"]),
            fontsize=7,
            xytext=(3, 3),
            textcoords="offset points",
        )
    ax.set_xlabel("play rate")
    ax.set_ylabel("GIH WR (win rate when in hand)")
    ax.set_title("Cards")
    fig.colorbar(points, ax=ax, label="IWD")
    return _save(fig, path)


def iwd_bars(metrics: pd.DataFrame, path: Path, count: int = 12) -> Path:
    """The cards with the highest and lowest IWD, with intervals (low-sample cards left out,
    unless every card is low-sample)."""
    table = metrics.dropna(subset=["iwd"])
    sure = table[~table["low_sample"]]
    title = (
        "Improvement when drawn" if len(sure) else "Improvement when drawn (every card: low sample)"
    )
    table = sure if len(sure) else table
    if len(table) > 2 * count:
        table = pd.concat([table.nsmallest(count, "iwd"), table.nlargest(count, "iwd")])
    table = table.drop_duplicates(subset=["deck", "card"]).sort_values("iwd")
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(table) + 1.4))
    y = np.arange(len(table))
    colours = ["#b2182b" if v < 0 else "#2166ac" for v in table["iwd"]]
    ax.barh(
        y, table["iwd"], xerr=_errors(table, "iwd", "iwd_low", "iwd_high"), color=colours, capsize=2
    )
    ax.set_yticks(y, [f"{c} ({d})" for c, d in zip(table["card"], table["deck"])], fontsize=8)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("IWD = GIH WR − GND WR (95% interval)")
    ax.set_title(title)
    return _save(fig, path)


def sweep_plot(
    points: pd.DataFrame, paths: list[str], metric: str, target: float, path: Path
) -> Path:
    """The metric against the first varied number, one line per value of the others."""
    x = paths[0]
    groups = points.groupby(paths[1:]) if len(paths) > 1 else [((), points)]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, rows in groups:
        rows = rows.sort_values(x)
        label = (
            ", ".join(
                f"{p}={v}" for p, v in zip(paths[1:], key if isinstance(key, tuple) else (key,))
            )
            or None
        )
        ax.errorbar(
            rows[x],
            rows["estimate"],
            yerr=_errors(rows, "estimate", "ci_low", "ci_high"),
            marker="o",
            capsize=3,
            label=label,
        )
    ax.axhline(target, color="grey", linestyle="--", linewidth=1, label=f"target {target:g}")
    ax.set_xlabel(x)
    ax.set_ylabel(metric)
    ax.legend(fontsize=8)
    ax.set_title(f"Sweep: {metric} (95% intervals)")
    return _save(fig, path)


def convergence_plot(history: pd.DataFrame, path: Path) -> Path:
    """Per rung of the search: the best objective found so far (it never climbs) and the rung's
    leader, each judged on the most games it played (balance.tune's history)."""
    fig, ax = plt.subplots(figsize=(7, 3.5))
    if len(history):
        ax.plot(history["games"], history["best_objective"], marker="o", drawstyle="steps-post",
                label="best so far")  # fmt: skip
        ax.scatter(history["games"], history["leader_final_objective"], marker="x",
                   color="grey", label="the rung's leader")  # fmt: skip
        for _, row in history.iterrows():
            ax.annotate(
                f"{int(row['candidates'])} left",
                (row["games"], row["best_objective"]),
                fontsize=7,
                xytext=(3, 3),
                textcoords="offset points",
            )
        ax.legend(fontsize=8)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("games played")
    ax.set_ylabel("objective (lower is fairer)")
    ax.set_title("Tuning convergence: each config on the most games it played")
    return _save(fig, path)


def bot_heatmap(pairs: pd.DataFrame, path: Path) -> Path:
    """Row bot's win rate against the column bot."""
    rates = pairs.pivot(index="bot", columns="opponent", values="estimate")
    fig, ax = plt.subplots(figsize=(1.3 * len(rates.columns) + 2.5, 1.0 * len(rates.index) + 1.8))
    image = ax.imshow(rates.to_numpy(dtype=float), cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(rates.columns)), rates.columns)
    ax.set_yticks(range(len(rates.index)), rates.index)
    for i in range(len(rates.index)):
        for j in range(len(rates.columns)):
            value = rates.iat[i, j]
            if pd.notna(value):
                ax.text(j, i, f"{value:.0%}", ha="center", va="center")
    ax.set_title("Bots: row bot's win rate")
    fig.colorbar(image, ax=ax, shrink=0.8)
    return _save(fig, path)


def levels_plot(levels: pd.DataFrame, fair: float, path: Path) -> Path:
    """Seat advantage and deck win rates at each skill level, with intervals."""
    measures = list(dict.fromkeys(levels["measure"]))
    bots = list(dict.fromkeys(levels["bot"]))
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(measures) * max(1, len(bots) / 2) + 1.5))
    for k, bot in enumerate(bots):
        rows = levels[levels["bot"] == bot].set_index("measure").reindex(measures)
        y = np.arange(len(measures)) + (k - (len(bots) - 1) / 2) * 0.22
        ax.errorbar(
            rows["estimate"],
            y,
            xerr=_errors(rows, "estimate", "ci_low", "ci_high"),
            fmt="o",
            capsize=3,
            label=bot,
        )
    ax.set_yticks(range(len(measures)), measures)
    ax.axvline(0.0, color="grey", linewidth=0.8)
    ax.axvline(fair, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("estimate (seat advantage around 0; win rates around the fair share)")
    ax.legend()
    ax.set_title("Balance at each skill level")
    return _save(fig, path)
