"""`balance bench`: single-process speed, clone cost and parallel speed-up per game and bot."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Annotated, Any

import typer


def bench(
    games: Annotated[
        list[str] | None,
        typer.Argument(help="Games to measure \\[default: every game].", show_default=False),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Bots to measure, one after another, each playing every seat: random,greedy,mcts.",
        ),
    ] = "random",
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds",
            min=0.5,
            help="Single-process CPU time per game and bot (split over the repeats).",
        ),
    ] = 6.0,
    repeats: Annotated[
        int, typer.Option("--repeats", min=1, help="Repeats behind each median.")
    ] = 3,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, help="Workers for the parallel speed-up (1: skip it).")
    ] = 2,
    json_path: Annotated[
        Path | None,
        typer.Option(
            "--json",
            help="Also write the figures as JSON, for tracking over time.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Measure games/s, decisions/s, µs per decision, clone() µs, the parallel speed-up, the
    median ms a bot takes per choice, and each bot's cost per game against the first one listed
    (`--bots random,greedy`: greedy's game cost in random games). Single-process figures are
    CPU time, so a busy machine barely moves them; the speed-up is wall time."""
    import json
    from dataclasses import asdict
    from datetime import datetime

    from rich.console import Console
    from rich.table import Table

    from balance.bots import split_bot_specs
    from balance.core.registry import game_names
    from balance.sim.bench import bench_game, machine

    console = Console(stderr=True)
    names = games or [n for n in game_names() if n in _builtin()]
    results = []
    for name in names:
        for bot in split_bot_specs(bots):
            results.append(
                bench_game(
                    name,
                    bot,
                    seconds,
                    repeats,
                    jobs,
                    log=lambda line: console.print(line, style="dim"),
                )
            )
    table = Table(
        "game",
        "bot",
        "games/s",
        "decisions/s",
        "min-max",
        "µs/decision",
        "clone µs",
        f"speed-up ×{jobs}",
        "ms/choice",
        "game cost",
        box=None,
    )
    # a game's cost against the first bot measured in the same game (greedy 23.1× random)
    first: dict[str, Any] = {}
    for r in results:
        first.setdefault(r.game, r)
    for r in results:
        base = first[r.game]
        cost = (
            f"{base.games_per_s.median / r.games_per_s.median:.1f}× {base.bot}"
            if r is not base
            else "1×"
        )
        table.add_row(
            r.game, r.bot, f"{r.games_per_s.median:,.1f}",
            f"{r.decisions_per_s.median:,.0f}", f"{r.decisions_per_s.low / 1e3:.1f}k-{r.decisions_per_s.high / 1e3:.1f}k",
            f"{r.us_per_decision.median:.1f}", f"{r.clone_us.median:.1f}", f"{r.speedup:.2f}" if r.speedup else "-",
            f"{r.choose_ms:.2f}", cost,
        )  # fmt: skip
    out = Console()
    if not out.is_terminal:  # a file or a CI log: no terminal width to fit, keep rows whole
        out = Console(width=120)
    out.print(table)
    if json_path is not None:
        record = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(),
                  "settings": {"seconds": seconds, "repeats": repeats, "jobs": jobs}, "results": [asdict(r) for r in results]}  # fmt: skip
        json_path.write_text(json.dumps(record, indent=1))
        Console().print(f"wrote {json_path}")


def _builtin() -> set[str]:
    """Without names, bench measures the games that ship with balance (not test plug-ins)."""
    from balance.core.registry import builtin_names

    return set(builtin_names())
