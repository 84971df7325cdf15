"""`balance simulate GAME`: bots play the games; the run's tables and report land in reports/.

`--resume DIR` continues a run that was stopped (a signal, a dead worker, a cut-off machine)
with the options it was started with; options given beside it must agree with them, except those
that do not change the tables (--jobs, --batch-size, --backend, --scheduler, --no-report).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from balance.cli.options import (
    AgainstOpt,
    BackendOpt,
    BatchOpt,
    ConfigOpt,
    DecksOpt,
    GamesOpt,
    JobsOpt,
    MeasureBotsOpt,
    OutOpt,
    PatchOpt,
    SchedulerOpt,
    SeatsOpt,
    SeedOpt,
    SetOpt,
    applied_overrides,
    measuring_bots,
    report_run,
)  # fmt: skip


def simulate(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="The game, e.g. beings (see `balance games`); not needed with --resume.",
            show_default=False,
        ),
    ] = None,
    config: ConfigOpt = None,
    games: GamesOpt = 1000,
    decks: DecksOpt = "all",
    seats: SeatsOpt = None,
    bots: MeasureBotsOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    batch_size: BatchOpt = None,
    backend: BackendOpt = "loky",
    scheduler: SchedulerOpt = None,
    patch: PatchOpt = None,
    set_: SetOpt = None,
    out: OutOpt = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Continue the stopped run in DIR, with the options it was started with; it ends with the tables an uninterrupted run gives.",
            show_default=False,
        ),
    ] = None,
    commit_every: Annotated[
        float,
        typer.Option(
            "--commit-every",
            min=0.0,
            help="Seconds between commits of the finished games to the run folder (or every batch, if batches take longer).",
        ),
    ] = 2.0,
    no_report: Annotated[
        bool, typer.Option("--no-report", help="Write the tables only, no report.")
    ] = False,
    against: AgainstOpt = None,
) -> None:
    """Play bot-vs-bot games and write games.parquet, cards.parquet, run.json and a report."""
    from dataclasses import replace

    from balance.cli.progress import first_lines, games_progress
    from balance.core.errors import ConfigError
    from balance.report.render import players_sentence
    from balance.report.tuning import who_played
    from balance.sim.simulate import RunOptions, resume_options
    from balance.sim.simulate import simulate as run

    command = ["balance", *sys.argv[1:]]
    sets, patched = applied_overrides(patch, set_)
    asked = RunOptions(
        game=game or "",
        config_dir=config,
        overrides={**sets, **(patched["overrides"] if patched else {})},
        sets=sets,
        patch=patched,
        decks="all" if decks == "all" else [d.strip() for d in decks.split(",")],
        bots=measuring_bots(game, config, bots) if game else [],
        seats=seats,
        games=games,
        seed=seed,
        jobs=jobs,
        batch_size=batch_size,
        backend=backend,
        scheduler=scheduler,
        out=out,
        command=command,
        commit_seconds=commit_every,
    )
    if resume is None:
        if not game:
            raise ConfigError(
                "balance simulate", None, "name the game to play", "e.g. balance simulate beings"
            )
        options = asked
    else:
        given = {name for name in ctx.params if _typed(ctx, name)}
        options = resume_options(resume)
        _check_same(options, asked, given, resume)
        options = replace(
            options,
            jobs=jobs,
            batch_size=batch_size or options.batch_size,
            backend=backend if "backend" in given else options.backend,
            scheduler=scheduler,
            command=command,
            commit_seconds=commit_every,
        )
    # who plays, before the games: a designer reads the player model before waiting on it
    who = players_sentence(who_played(options.bots, options.seed, options.sets, options.patch))
    with games_progress(options.game) as (start, advance):
        outcome = run(
            options,
            progress=advance,
            on_start=first_lines(who, start),
            resume=resume is not None,
        )
    if outcome.interrupted:
        stopped = (
            f" (stopped by {outcome.stopped_by}: {outcome.games} of {outcome.planned} games kept;"
            f" continue with balance simulate --resume {outcome.folder})"
        )
    else:
        stopped = ""
    typer.echo(
        f"{outcome.games} games in {outcome.wall_seconds:.1f} s: {outcome.crashed} crashed, "
        f"{outcome.capped} capped{stopped}"
    )
    if outcome.crashed:
        typer.echo(
            f"replay a crash: balance replay {outcome.folder} --game <game> (see crashes.json)"
        )
    # a run stopped by SIGTERM or SIGHUP was asked to end now: no report, which takes seconds
    quick = outcome.signum and outcome.stopped_by != "SIGINT"
    if not no_report and outcome.games and not quick:
        report_run(outcome.folder, against, summary=True)
        typer.echo(f"wrote {outcome.folder / 'report.html'} (open it in a browser)")
    else:
        typer.echo(f"wrote {outcome.folder}")
    if outcome.signum:
        raise typer.Exit(128 + outcome.signum)  # the shell's convention for "ended by a signal"
    if outcome.interrupted and outcome.stopped_by not in ("SIGINT", "stop"):
        typer.echo(f"error: {outcome.stopped_by}", err=True)  # workers kept dying
        raise typer.Exit(1)


def _typed(ctx: typer.Context, name: str) -> bool:
    """Whether the option was given on the command line (not left at its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


# command-line parameter -> the RunOptions field it sets
_DEFINING = {
    "game": "game",
    "config": "config_dir",
    "set_": "overrides",
    "patch": "overrides",
    "decks": "decks",
    "bots": "bots",
    "seats": "seats",
    "games": "games",
    "seed": "seed",
    "out": "out",
}


def _check_same(recorded: Any, asked: Any, given: set[str], folder: Path) -> None:
    """An option given beside --resume must be the run's own: another value would make other
    tables than the run's, or mix two runs in one folder."""
    for parameter, name in _DEFINING.items():
        if parameter not in given:
            continue
        mine, theirs = getattr(asked, name), getattr(recorded, name)
        if name in ("config_dir", "out"):
            mine, theirs = Path(mine).resolve(), Path(theirs).resolve()
        elif name == "decks":
            mine = mine if isinstance(mine, str) else list(mine)
            theirs = theirs if isinstance(theirs, str) else list(theirs)
        elif name == "bots":
            mine, theirs = list(mine), list(theirs)
        if mine != theirs:
            from balance.core.errors import ConfigError

            option = "--" + parameter.rstrip("_") if parameter != "game" else "GAME"
            raise ConfigError(
                option,
                None,
                f"{mine} differs from {theirs}, which the run in {folder} was started with",
                "leave it out to resume the run as it was started",
            )
