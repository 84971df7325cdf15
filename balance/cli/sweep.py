"""`balance sweep GAME --vary PATH=VALUES`: a metric against a card's or a rule's numbers."""

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
    MeasureBotsOpt,
    OutOpt,
    PatchOpt,
    ResumeOpt,
    SeatsOpt,
    SeedOpt,
    SetOpt,
    applied_overrides,
    measuring_bots,
    output_folder,
    overrides_from,
)


def sweep(
    game: GameArg,
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help="PATH=VALUES: 3,4,5 or 2:8 or 2:8:2 (repeat for a grid).",
            show_default=False,
        ),
    ],
    games: Annotated[int, typer.Option("--games", min=1, help="Games per point.")] = 2000,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric",
            help="seat, deck:NAME, matchup:DECK:OTHER, turns, card:ID[@DECK]:gih|gp|oh|iwd|play \\[default: the win rate of a deck holding the card, else seat].",
            show_default=False,
        ),
    ] = None,
    target: Annotated[
        float | None,
        typer.Option(
            "--target",
            help="The value sought \\[default: the fair share for win rates, 0 for seat and IWD].",
            show_default=False,
        ),
    ] = None,
    config: ConfigOpt = None,
    decks: DecksOpt = "all",
    bots: MeasureBotsOpt = None,
    seats: SeatsOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    patch: PatchOpt = None,
    set_: SetOpt = None,
    out: OutOpt = None,
    resume: ResumeOpt = None,
) -> None:
    """Play every point of the grid on the same seeds and name the value closest to the target."""
    from balance.cli.progress import first_lines, games_progress
    from balance.report.render import players_sentence
    from balance.report.tuning import render_sweep, sweep_answer, who_played
    from balance.sim.stop import stop_on_signals
    from balance.tune import parse_vary, setup_from
    from balance.tune import sweep as run_sweep

    setup = setup_from(
        game,
        config,
        overrides_from(patch, set_),
        "all" if decks == "all" else decks.split(","),
        measuring_bots(game, config, bots),
        seats,
        seed,
        jobs,
    )
    folder = output_folder(
        out, resume, Path("reports") / f"{game}-sweep-{datetime.now():%Y%m%d-%H%M%S}"
    )
    sets, patched = applied_overrides(patch, set_)
    players = who_played(setup.bots, seed, sets, patched)

    def write(result) -> None:  # type: ignore[no-untyped-def]
        # after every point, so an interrupted sweep keeps what it finished
        render_sweep(
            folder,
            game,
            result.points,
            result.paths,
            result.metric.text,
            result.metric.target,
            result.closest,
            result.sureness,
            players,
        )

    with stop_on_signals() as setup.stop, games_progress(f"sweep {game}") as (start, advance):
        result = run_sweep(
            setup, parse_vary(vary), games, metric, target, advance,
            first_lines(players_sentence(players), start), write, folder, resume is not None,
        )  # fmt: skip
    assert result.metric.target is not None  # sweep refuses a metric without a target
    from rich.console import Console
    from rich.table import Table

    from balance.report.tuning import sweep_table

    points = sweep_table(result.points, result.paths, result.metric.text)
    shown = Table(*(c.title for c in points.columns), box=None)
    for row in points.rows:
        shown.add_row(*row)
    Console(highlight=False).print(shown)
    typer.echo(
        sweep_answer(
            result.paths, result.metric.text, result.metric.target, result.closest, result.sureness
        )
    )
    if result.interrupted:
        typer.echo(f"interrupted: the finished points are kept (continue: add --resume {folder})")
    typer.echo(f"wrote {folder}")
