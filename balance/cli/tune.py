"""`balance tune GAME --free PATH[=LO:HI]`: search numbers that balance the game."""

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


def tune(
    game: GameArg,
    free: Annotated[
        list[str],
        typer.Option(
            "--free",
            help="A whole number to tune: PATH (current ±3) or PATH=LO:HI (repeatable).",
            show_default=False,
        ),
    ],
    budget: Annotated[int, typer.Option("--budget", min=1, help="Games to spend in all.")] = 20000,
    objective: Annotated[
        str,
        typer.Option(
            "--objective",
            help="What to minimise: balance (deck win rates off the fair share, squared, plus the seat advantage squared).",
        ),
    ] = "balance",
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
    """Propose new values for the free numbers, as a patch of only the changed ones."""
    from balance.cli.progress import first_lines, games_progress
    from balance.core.config import read_config
    from balance.core.errors import ConfigError
    from balance.core.registry import load_game
    from balance.report.render import players_sentence
    from balance.report.tuning import change_text, render_tune, who_played
    from balance.sim.stop import stop_on_signals
    from balance.tune import _current_value, parse_free, setup_from
    from balance.tune import tune as run_tune

    if objective != "balance":
        raise ConfigError("--objective", None, f"unknown objective '{objective}'", "use balance")
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
    docs = read_config(setup.config_dir, overrides=setup.overrides)
    spec = load_game(game).load(setup.config_dir, setup.overrides)
    free_numbers = parse_free(free, lambda path: _current_value(docs.data, spec, path))
    folder = output_folder(
        out, resume, Path("reports") / f"{game}-tune-{datetime.now():%Y%m%d-%H%M%S}"
    )
    sets, patched = applied_overrides(patch, set_)
    players = who_played(setup.bots, seed, sets, patched)
    with stop_on_signals() as setup.stop, games_progress(f"tune {game}") as (start, advance):
        result = run_tune(
            setup, free_numbers, budget, progress=advance,
            on_start=first_lines(players_sentence(players), start), folder=folder,
            resume=resume is not None,
        )  # fmt: skip
    if not result.games:
        typer.echo(
            f"interrupted before any config finished a step (continue: add --resume {folder})"
        )
        return
    before = (result.before.objective, result.before.ci_low, result.before.ci_high)
    after = (result.after.objective, result.after.ci_low, result.after.ci_high)
    render_tune(
        folder,
        game,
        result.current,
        result.proposal,
        before,
        after,
        result.candidates,
        result.history,
        result.games,
        players,
        result.best.trial.values,
    )
    typer.echo(
        f"proposal: {change_text(result.current, result.proposal, result.best.trial.values)}"
    )
    typer.echo(
        f"objective before {before[0]:.4f} [{before[1]:.4f}, {before[2]:.4f}], after {after[0]:.4f} [{after[1]:.4f}, {after[2]:.4f}] ({result.games:,} games)"
    )
    if result.interrupted:
        typer.echo(
            f"interrupted: the proposal is from the games finished so far (continue: add --resume {folder})"
        )
    typer.echo(
        f"wrote {folder / 'patch.yaml'} (apply: balance check {game} --patch {folder / 'patch.yaml'})"
    )
