"""`balance compare`: two runs side by side, with the change and its interval."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def compare(
    run_a: Annotated[Path, typer.Argument(help="The earlier run folder (A).", show_default=False)],
    run_b: Annotated[Path, typer.Argument(help="The later run folder (B).", show_default=False)],
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Also write the comparison as one self-contained HTML page to this file.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Compare two runs: every table both have (seats, decks, matchups, outcomes, cards) side by
    side with the change B − A and its 95% interval, paired where the runs played the same deals."""
    from rich.console import Console
    from rich.table import Table

    from balance.core.errors import ConfigError
    from balance.report.render import comparison, table_names, write_comparison
    from balance.stats.run import load_run

    for folder in (run_a, run_b):
        if not (folder / "run.json").is_file():
            raise ConfigError(str(folder), None, "not a run folder (no run.json)",
                              "give two folders written by balance simulate")  # fmt: skip
    section = comparison(load_run(run_a), load_run(run_b))
    console = Console(highlight=False)
    console.print(section.text, markup=False)
    for name, table in zip(table_names(), section.tables, strict=True):
        shown = Table(*(c.title for c in table.columns), title=name, title_justify="left", box=None)
        for row in table.rows:
            shown.add_row(*row)
        console.print(shown if table.rows else f"{name}: no row both runs have", markup=False)
    if html is not None:
        typer.echo(f"wrote {write_comparison(section, html)}")
