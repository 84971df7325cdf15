"""Reports of sweeps and tuning: a table, a plot, Markdown and a self-contained HTML page."""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from balance.report import plots
from balance.report.tables import Column, Table, html_table, markdown, shape


def who_played(bots: Sequence[str], seed: int, sets: Mapping[str, object],
               patch: Mapping[str, Any] | None) -> dict[str, Any]:  # fmt: skip
    """The player model of a sweep or tune, as a simulate run records it (balance.stats.run
    .players): the bots (whole specs), the seed, the --set overrides and the patch."""
    return {"bots": list(bots), "seed": seed, "set": dict(sets), "patch": patch}


def render_sweep(folder: Path, game: str, points: pd.DataFrame, paths: list[str], metric: str, target: float,
                 closest: dict[str, Any], sureness: float | None, players: Mapping[str, Any]) -> list[Path]:  # fmt: skip
    from balance.report.render import players_sentence

    folder.mkdir(parents=True, exist_ok=True)
    points.to_csv(folder / "sweep.csv", index=False)
    plot = plots.sweep_plot(points, paths, metric, target, folder / "sweep.png")
    answer = (
        players_sentence(players) + "\n" + sweep_answer(paths, metric, target, closest, sureness)
    )
    record = {
        "game": game,
        "players": players,
        "metric": metric,
        "target": target,
        "closest": closest,
        "sureness": sureness,
        "points": points.to_dict(orient="records"),
    }
    (folder / "sweep.json").write_text(json.dumps(record, indent=1, default=_plain))
    table = sweep_table(points, paths, metric)
    _write(folder, "sweep", f"Sweep of {game}: {metric}", answer, [table], [plot])
    return [
        folder / "sweep.csv",
        folder / "sweep.json",
        folder / "sweep.md",
        folder / "sweep.html",
        plot,
    ]


def sweep_table(points: pd.DataFrame, paths: list[str], metric: str) -> Table:
    """One row per grid point: its values, the metric's estimate, its interval, and the games
    behind the estimate (its sample: a deck's win rate counts the deck's games against another
    deck, not every game the point played)."""
    columns = [
        *(Column(p, p, "value") for p in paths),
        Column("estimate", metric, "num3"),
        Column("ci_low,ci_high", "95% interval", "interval3"),
        Column("games", "games behind it", "int"),
    ]
    return shape(points, columns)


def sweep_answer(
    paths: list[str], metric: str, target: float, closest: dict[str, Any], sureness: float | None
) -> str:
    if not closest:
        return "No point could be measured."
    values = ", ".join(f"{p} = {closest[p]}" for p in paths)
    sure = (
        f"; it stays the closest in {sureness:.0%} of paired bootstrap resamples"
        if sureness is not None
        else ""
    )
    return (
        f"Closest to the target {metric} = {target:g}: {values} ({closest['estimate']:.3f}){sure}."
    )


def render_tune(folder: Path, game: str, current: dict[str, Any], proposal: dict[str, Any], before: tuple[float, float, float],
                after: tuple[float, float, float], candidates: pd.DataFrame, history: pd.DataFrame, games: int,
                players: Mapping[str, Any], best: Mapping[str, Any]) -> list[Path]:  # fmt: skip
    from balance.report.render import players_sentence

    folder.mkdir(parents=True, exist_ok=True)
    patch = folder / "patch.yaml"
    who = players_sentence(players)
    lines = [
        (
            f"# balance tune {game}: objective {before[0]:.4f} [{before[1]:.4f}, {before[2]:.4f}] -> "
            f"{after[0]:.4f} [{after[1]:.4f}, {after[2]:.4f}] over {games:,} games"
        ),
        f"# {who} (the numbers are balanced for these players)",
        f"# apply with: balance check {game} --patch patch.yaml (or one --set per line)",
    ]
    lines += [f"{path}: {json.dumps(value)}" for path, value in proposal.items()] or [
        f"{{}}  # {change_text(current, proposal, best)}"
    ]
    patch.write_text("\n".join(lines) + "\n")
    candidates.to_csv(folder / "candidates.csv", index=False)
    plot = plots.convergence_plot(history, folder / "convergence.png")
    record = {"game": game, "players": players, "current": current, "proposal": proposal, "best": best,
              "objective_before": before, "objective_after": after, "games": games,
              "history": history.to_dict(orient="records")}  # fmt: skip
    (folder / "tune.json").write_text(json.dumps(record, indent=1, default=_plain))
    change = change_text(current, proposal, best, "→")
    answer = (f"{who}\nProposal: {change}.\nImbalance objective before {before[0]:.4f} [{before[1]:.4f}, {before[2]:.4f}], "
              f"after {after[0]:.4f} [{after[1]:.4f}, {after[2]:.4f}] ({games:,} games on common seeds).")  # fmt: skip
    paths = list(current)
    columns = [*(Column(p, p, "int") for p in paths), Column("changed", "numbers changed", "int"), Column("rounds", "rounds survived", "int"),
               Column("games", "games", "int"), Column("objective", "objective", "num4")]  # fmt: skip
    _write(folder, "tune", f"Tuning {game}", answer, [shape(candidates, columns)], [plot])
    return [patch, folder / "tune.json", folder / "tune.md", folder / "tune.html", plot]


def change_text(current: Mapping[str, Any], proposal: Mapping[str, Any], best: Mapping[str, Any],
                arrow: str = "->") -> str:  # fmt: skip
    """The proposal in words; a proposal of no change says so, and why when the best finalist
    changes something: its objective is not told apart from the current numbers'."""
    if proposal:
        return ", ".join(f"{p}: {current[p]} {arrow} {v}" for p, v in proposal.items())
    moved = ", ".join(f"{p}={v}" for p, v in best.items() if v != current[p])
    if not moved:
        return "no change (the current numbers are the best found)"
    return (f"no change: the best found ({moved}) is within noise of the current numbers, paired "
            "over the same deals (a larger --budget may tell them apart)")  # fmt: skip


def _write(
    folder: Path, stem: str, title: str, answer: str, tables: list[Any], images: list[Path]
) -> None:
    md = [
        f"# {title}",
        answer.replace("\n", "  \n"),
        *(markdown(t) for t in tables),
        *(f"![{p.stem}]({p.name})" for p in images),
    ]
    (folder / f"{stem}.md").write_text("\n\n".join(md) + "\n")
    lead = html.escape(answer).replace("\n", "<br>")
    body = [f"<h1>{html.escape(title)}</h1>", f"<p class='lead'>{lead}</p>"]
    body += [html_table(t, f"t{i}") for i, t in enumerate(tables)]
    body += [
        f"<img alt='{p.stem}' src='data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        for p in images
    ]
    from balance.report.render import page

    (folder / f"{stem}.html").write_text(page(title, "".join(body)), encoding="utf-8")


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else str(value)
