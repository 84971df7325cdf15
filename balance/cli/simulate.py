"""`balance simulate GAME`: bots play the games; the run's tables and report land in reports/."""

from __future__ import annotations

import sys

import typer

from balance.cli.options import (
    BackendOpt,
    BatchOpt,
    BotsOpt,
    ConfigOpt,
    DecksOpt,
    GameArg,
    GamesOpt,
    JobsOpt,
    OutOpt,
    PatchOpt,
    SchedulerOpt,
    SeatsOpt,
    SeedOpt,
    SetOpt,
    overrides_from,
)  # fmt: skip


def simulate(
    game: GameArg,
    config: ConfigOpt = None,
    games: GamesOpt = 2000,
    decks: DecksOpt = "all",
    seats: SeatsOpt = None,
    bots: BotsOpt = "random",
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    batch_size: BatchOpt = None,
    backend: BackendOpt = "loky",
    scheduler: SchedulerOpt = None,
    patch: PatchOpt = None,
    set_: SetOpt = None,
    out: OutOpt = None,
    no_report: bool = typer.Option(False, "--no-report", help="Write the tables only, no report."),
) -> None:
    """Play bot-vs-bot games and write games.parquet, cards.parquet, run.json and a report."""
    from balance.bots import split_bot_specs
    from balance.cli.progress import games_progress
    from balance.sim.simulate import RunOptions
    from balance.sim.simulate import simulate as run

    options = RunOptions(
        game=game,
        config_dir=config,
        overrides=overrides_from(patch, set_),
        decks="all" if decks == "all" else [d.strip() for d in decks.split(",")],
        bots=split_bot_specs(bots),
        seats=seats,
        games=games,
        seed=seed,
        jobs=jobs,
        batch_size=batch_size,
        backend=backend,
        scheduler=scheduler,
        out=out,
        command=["balance", *sys.argv[1:]],
    )
    with games_progress(f"{game}") as (start, advance):
        outcome = run(options, progress=advance, on_start=start)
    stopped = " (interrupted: the finished games are kept)" if outcome.interrupted else ""
    typer.echo(
        f"{outcome.games} games in {outcome.wall_seconds:.1f} s: {outcome.crashed} crashed, "
        f"{outcome.capped} capped{stopped}"
    )
    if outcome.crashed:
        typer.echo(
            f"replay a crash: balance replay {outcome.folder} --game <game> (see crashes.json)"
        )
    if not no_report and outcome.games:
        from balance.report.render import render_report, terminal_summary

        terminal_summary(outcome.folder)
        render_report(outcome.folder)
    typer.echo(f"wrote {outcome.folder}")
