"""`balance report RUN`: (re)write a run's report from its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from balance.cli.options import AgainstOpt, report_run


def report(
    run: Annotated[
        Path, typer.Argument(help="A run folder written by balance simulate.", show_default=False)
    ],
    format: Annotated[str, typer.Option("--format", help="html, md, or both.")] = "both",
    against: AgainstOpt = None,
) -> None:
    """Write a run's report: the verdict against balance.yaml first, then summary.json, plots,
    report.md and report.html."""
    from balance.core.errors import ConfigError, did_you_mean

    choices = {"html": ("html",), "md": ("md",), "both": ("html", "md")}
    if format not in choices:
        raise ConfigError(
            "--format", None, f"unknown format '{format}'", did_you_mean(format, list(choices))
        )
    for path in report_run(run, against, choices[format]):
        typer.echo(f"wrote {path}")
