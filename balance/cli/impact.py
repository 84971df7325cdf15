"""`balance impact GAME`: each card's effect on its deck's win rate, by intervention."""

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
    measuring_bots,
    output_folder,
    overrides_from,
)


def impact(
    game: GameArg,
    cards: Annotated[
        str,
        typer.Option("--cards", help="Cards to measure: ID,ID..., deck:NAME (its cards), or all."),
    ] = "all",
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games to spend in all, as-is games included.")
    ] = 20000,
    band: Annotated[
        float | None,
        typer.Option(
            "--band",
            help="The designer's band on |impact| \\[default: balance.yaml impact.band, else 0.05].",
            show_default=False,
        ),
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision",
            help="Play a card on until its interval is within +-this \\[default: impact.precision, else 0.05].",
            show_default=False,
        ),
    ] = None,
    measures: Annotated[
        str, typer.Option("--measures", help="impact, restricted, or both (comma-separated).")
    ] = "impact,restricted",
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
    """Rank the cards by how much they move their deck's win rate (same deals, card vs baseline)."""
    import math
    import time

    import balance
    from balance.cli.progress import games_progress
    from balance.core.errors import ConfigError, did_you_mean
    from balance.core.registry import load_game
    from balance.core.runfiles import write_atomic, write_json
    from balance.core.yamlio import load_yaml
    from balance.gate import read_thresholds
    from balance.impact import MEASURES, check_inputs, race
    from balance.report.impact import impact_section, metagame_section
    from balance.sim.stop import stop_on_signals
    from balance.stats.metagame import metagame
    from balance.stats.run import json_ready
    from balance.tune import setup_from

    chosen = tuple(m.strip() for m in measures.split(",") if m.strip())
    for m in chosen:
        if m not in MEASURES:
            raise ConfigError(
                "--measures", None, f"unknown measure '{m}'", did_you_mean(m, MEASURES)
            )
    if not chosen:
        raise ConfigError("--measures", None, "no measure named", "use impact,restricted")
    overrides = overrides_from(patch, set_)
    setup = setup_from(
        game, config, overrides, "all" if decks == "all" else decks.split(","),
        measuring_bots(game, config, bots), seats, seed, jobs,
    )  # fmt: skip
    path = setup.config_dir / "balance.yaml"
    settings, rule_data = None, None
    if path.exists():
        settings = read_thresholds(path).impact
        rule_data = load_yaml(path)
    check_inputs(setup, cards, settings, rule_data)
    folder = output_folder(
        out, resume, Path("reports") / f"{game}-impact-{datetime.now():%Y%m%d-%H%M%S}"
    )
    started = time.monotonic()
    with stop_on_signals() as setup.stop, games_progress(f"impact {game}") as (start, advance):
        result = race(
            setup, cards, chosen, games, band, precision, settings, rule_data, advance, start,
            folder, resume is not None,
        )  # fmt: skip
    wall = time.monotonic() - started
    meta = metagame(result.as_is.games, setup.seed) if len(result.as_is.games) else None
    table = result.table
    table.to_parquet(folder / "impact.parquet", index=False)
    bot_text = ",".join(setup.bots)
    summary = {
        "game": game,
        "balance_version": balance.__version__,
        "rules_version": load_game(game).info.rules_version,
        "bots": setup.bots,
        "overrides": overrides,
        "decks": setup.decks,
        "seed": setup.seed,
        "measures": list(chosen),
        "band": result.band,
        "precision": result.precision,
        "games": result.games,
        "wall_seconds": round(wall, 1),
        "interrupted": result.interrupted,
        "notes": result.notes,
        "cards": table.to_dict(orient="records"),
        "metagame": meta.summary() if meta is not None else {"note": "no games"},
    }
    write_json(folder / "summary.json", json_ready(summary))
    heading = f"# {game}: card impact\n\nBots: {bot_text}; overrides: {overrides or 'none'}; " \
        f"{result.games:,} games in {wall:,.0f} s.\n\n"  # fmt: skip
    notes = "".join(f"- {n}\n" for n in result.notes)
    body = impact_section(table, result.band, bot_text)
    if meta is not None:
        body += "\n" + metagame_section(meta)
    write_atomic(folder / "report.md", heading + notes + ("\n" if notes else "") + body)
    typer.echo(f"players: {bot_text}; overrides: {overrides or 'none'}")
    for note in result.notes:
        typer.echo(note)
    for row in table.head(10).itertuples(index=False):
        parts = [f"{row.card:>24}"]
        for measure in chosen:
            value = getattr(row, measure)
            if not math.isnan(value):
                low, high = getattr(row, f"{measure}_ci_low"), getattr(row, f"{measure}_ci_high")
                verdict = getattr(row, f"{measure}_verdict")
                parts.append(f"{measure} {value:+.3f} [{low:+.3f}, {high:+.3f}] {verdict:<11}")
        typer.echo("  ".join(parts))
    typer.echo(f"{result.games:,} games in {wall:,.0f} s")
    if result.interrupted:
        typer.echo(
            f"interrupted: the cards measured so far are kept (continue: add --resume {folder})"
        )
    typer.echo(f"wrote {folder}")
