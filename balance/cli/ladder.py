"""`balance ladder GAME`: bots of several skill levels against each other, their ratings, and the
balance each sees."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from balance.cli.options import (
    ConfigOpt,
    DecksOpt,
    GameArg,
    JobsOpt,
    OutOpt,
    PatchOpt,
    SeedOpt,
    SetOpt,
    measuring_bots,
    overrides_from,
)


def ladder(
    game: GameArg,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="The skill levels, weakest first; the first is rated 0 \\[default: random, the bots of the game's balance.yaml, mcts].",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            min=1,
            help="Games per pair of bots (each way round with more than two seats) and per self-play level.",
        ),
    ] = 400,
    config: ConfigOpt = None,
    decks: DecksOpt = "all",
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            min=1,
            help="Players per game: one bot against copies of the other \\[default: the game's minimum].",
            show_default=False,
        ),
    ] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    patch: PatchOpt = None,
    set_: SetOpt = None,
    out: OutOpt = None,
) -> None:
    """A round robin of bots on mirrored seeds: each bot's rating with its 95% interval, the
    head-to-head scores, and seat and deck balance at each skill level."""
    from balance.bots import split_bot_specs
    from balance.cli.progress import games_progress
    from balance.ladder import ladder as run_ladder
    from balance.report.ladder import applied_text, ladder_summary, render_ladder
    from balance.sim.stop import stop_on_signals

    if bots is None:  # the gate's players between the weakest and the strongest
        names = ["random", *measuring_bots(game, config, None), "mcts"]
    else:
        names = split_bot_specs(bots)
    overrides = overrides_from(patch, set_)
    folder = out or Path("reports") / f"{game}-ladder-{datetime.now():%Y%m%d-%H%M%S}"
    with stop_on_signals() as stop, games_progress(f"ladder {game}") as (start, advance):
        result = run_ladder(
            game, names, games, seats, seed, jobs, advance, start, config, overrides,
            "all" if decks == "all" else [d.strip() for d in decks.split(",")], stop,
        )  # fmt: skip
    applied = applied_text(overrides, patch)
    typer.echo(ladder_summary(result, applied))
    if result.games:
        render_ladder(folder, result, applied)
        typer.echo(f"wrote {folder}")
    if result.signum:
        raise typer.Exit(128 + result.signum)  # the shell's convention for "ended by a signal"
