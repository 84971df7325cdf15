"""`balance ladder GAME`: bots of several skill levels against each other, and the balance each sees."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from balance.cli.options import GameArg, JobsOpt, OutOpt, SeatsOpt, SeedOpt


def ladder(
    game: GameArg,
    bots: Annotated[
        str, typer.Option("--bots", help="The skill levels, weakest first.")
    ] = "random,greedy,mcts",
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games per pair of bots and per self-play level.")
    ] = 400,
    seats: SeatsOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    out: OutOpt = None,
) -> None:
    """A round robin of bots on mirrored seeds, and seat and deck balance at each skill level."""
    from balance.bots import split_bot_specs
    from balance.cli.progress import games_progress
    from balance.ladder import ladder as run_ladder
    from balance.report.ladder import render_ladder

    names = split_bot_specs(bots)
    folder = out or Path("reports") / f"{game}-ladder-{datetime.now():%Y%m%d-%H%M%S}"
    with games_progress(f"ladder {game}") as (start, advance):
        result = run_ladder(game, names, games, seats, seed, jobs, advance, start)
    for _, row in result.pairs.iterrows():
        typer.echo(
            f"{row['bot']:>24} vs {row['opponent']:<24} {row['estimate']:6.1%}  [{row['ci_low']:.1%}, {row['ci_high']:.1%}]  ({row['deals']} deals)"
        )
    seat_count = seats or 2
    render_ladder(folder, game, result.pairs, result.levels, result.games, seat_count)
    typer.echo(f"wrote {folder}")
