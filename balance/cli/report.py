"""`balance report RUN`: (re)write a run's report from its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    run: Annotated[
        Path, typer.Argument(help="A run folder written by balance simulate.", show_default=False)
    ],
    format: Annotated[str, typer.Option("--format", help="html, md, or both.")] = "both",
) -> None:
    """Write summary.json, plots and report.md / report.html for a run."""
    from balance.core.errors import ConfigError, did_you_mean
    from balance.report.render import render_report

    choices = {"html": ("html",), "md": ("md",), "both": ("html", "md")}
    if format not in choices:
        raise ConfigError(
            "--format", None, f"unknown format '{format}'", did_you_mean(format, list(choices))
        )
    for path in render_report(run, choices[format]):
        typer.echo(f"wrote {path}")
