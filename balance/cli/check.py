"""`balance check GAME`: the CI balance gate. Exit 0 all pass, 1 an assertion failed, 2 bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from balance.cli.options import (
    ConfigOpt,
    GameArg,
    JobsOpt,
    PatchOpt,
    SetOpt,
    applied_overrides,
    overrides_from,
)

FileOpt = Path | None


def check(
    game: GameArg,
    config: ConfigOpt = None,
    thresholds: Annotated[
        FileOpt,
        typer.Option(
            "--thresholds",
            help="Thresholds file \\[default: <config>/balance.yaml].",
            show_default=False,
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            min=1,
            help="Stop here if not every assertion is decided \\[default: balance.yaml's].",
            show_default=False,
        ),
    ] = None,
    junit: Annotated[
        FileOpt,
        typer.Option(
            "--junit", help="Write JUnit XML, one testcase per assertion.", show_default=False
        ),
    ] = None,
    baseline: Annotated[
        FileOpt,
        typer.Option(
            "--baseline",
            help="Compare against this baseline on its seeds; fail on a significant shift.",
            show_default=False,
        ),
    ] = None,
    save_baseline: Annotated[
        FileOpt,
        typer.Option(
            "--save-baseline",
            help="Play every game up to --max-games and record the estimates here.",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Compare with a baseline of another rules_version.")
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Show every assertion, not only the failed and undecided."
        ),
    ] = False,
    jobs: JobsOpt = None,
    patch: PatchOpt = None,
    set_: SetOpt = None,
) -> None:
    """Play seeded, mirrored games until every balance assertion is decided (SPRT)."""
    from rich.console import Console
    from rich.table import Table

    from balance.cli.progress import games_progress
    from balance.gate import check as run_check
    from balance.gate import needs_attention, summary_lines, undecided_line, write_junit
    from balance.gate import save_baseline as write_baseline
    from balance.report.render import players_text

    with games_progress(f"check {game}") as (start, advance):
        result = run_check(
            game, config, thresholds, overrides_from(patch, set_), max_games, jobs,
            baseline, force, full=save_baseline is not None, progress=advance, on_start=start,
        )  # fmt: skip
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # CI logs: one line per assertion
    early = " (stopped early: every assertion decided)" if result.stopped_early else ""
    failed = [a.name for a in result.assertions if a.verdict == "fail"]
    sets, patched = applied_overrides(patch, set_)
    console.print(
        ("PASS" if not failed else f"FAIL: {', '.join(failed)}")
        + f"\n{players_text(result.bots, sets, patched)}; seed {result.seed}"
        + f"\n{result.games:,} of at most {result.planned:,} games{early}",
        highlight=False,
        markup=False,
    )
    shown = [a for a in result.assertions if verbose or needs_attention(a)]
    if shown:
        table = Table("assertion", "estimate", "95% interval", "band", "games", "verdict", box=None)
        for a in shown:
            low = "-inf" if a.band.low is None else f"{a.band.low:g}"
            high = "inf" if a.band.high is None else f"{a.band.high:g}"
            colour = {"pass": "green", "fail": "red"}.get(a.verdict, "yellow")
            colour = "yellow" if needs_attention(a) and a.verdict == "pass" else colour
            table.add_row(
                a.name, f"{a.estimate:.4f}", f"[{a.ci_low:.4f}, {a.ci_high:.4f}]", f"[{low}, {high}]",
                f"{a.games:,}", f"[{colour}]{a.verdict}[/{colour}] ({a.method})",
            )  # fmt: skip
        console.print(table)
    if (line := undecided_line(result)) is not None:
        console.print(line, highlight=False)
    if not verbose:
        for line in summary_lines(result):
            console.print(line, highlight=False)
    if junit is not None:
        write_junit(result, junit)
        console.print(f"wrote {junit}")
    if save_baseline is not None:
        write_baseline(result, save_baseline)
        console.print(f"wrote {save_baseline}")
    raise typer.Exit(0 if result.passed else 1)
