"""Options shared by several commands, as `Annotated` aliases: one wording everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

GameArg = Annotated[
    str, typer.Argument(help="The game, e.g. beings (see `balance games`).", show_default=False)
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Config folder with rules.yaml, cards.yaml, decks.yaml \\[default: the game's shipped configs/<game>/].",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override a config number: cards.<card>.<field>=4, rules.<name>=7 (repeatable).",
        show_default=False,
    ),
]
GamesOpt = Annotated[
    int,
    typer.Option(
        "--games",
        min=1,
        help="How many games (rounded up to whole seat rotations of every lineup).",
    ),
]
DecksOpt = Annotated[
    str,
    typer.Option(
        "--decks",
        help="Lineup: A,B (one deck per seat, or one for all), or 'all' for every pairing.",
    ),
]
SeatsOpt = Annotated[
    int | None,
    typer.Option(
        "--seats",
        min=1,
        help="Players per game \\[default: the number of --bots, else the game's minimum].",
        show_default=False,
    ),
]
MeasureBotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        help="Bot per seat, or one for all: random, greedy, mcts:iterations=200 \\[default: the bots of the game's balance.yaml, as the gate plays].",
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int,
    typer.Option(
        "--seed", min=0, help="Run seed, a whole number >= 0: the same seed gives the same tables."
    ),
]


def _cap_jobs(jobs: int | None) -> int | None:
    """More workers than cores only adds processes (and memory): cap, and say so in one line."""
    if jobs is None or jobs <= 0:
        return jobs
    from balance.sim.runner import available_cores

    cores = available_cores()
    if jobs > cores:
        typer.echo(
            f"note: --jobs {jobs} is more than this machine's {cores} cores: using {cores}",
            err=True,
        )
        return cores
    return jobs


JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        help="Worker processes, at most the machine's cores \\[default: all cores].",
        show_default=False,
        callback=_cap_jobs,
    ),
]
BatchOpt = Annotated[
    int | None,
    typer.Option(
        "--batch-size",
        min=1,
        help="Games per task sent to a worker \\[default: automatic].",
        show_default=False,
    ),
]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="Where games run: loky (this machine), dask, or ray.")
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Cluster address for --backend dask (tcp://host:8786) or ray.",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Run folder \\[default: reports/<game>-<timestamp>].", show_default=False
    ),
]
ResumeOpt = Annotated[  # impact, sweep, tune (simulate reads its options from the run)
    Path | None,
    typer.Option(
        "--resume",
        help="Continue the interrupted run written to DIR: give the command it was started with; "
        "it ends with the result an uninterrupted run gives.",
        show_default=False,
    ),
]
PatchOpt = Annotated[
    Path | None,
    typer.Option(
        "--patch",
        help="A patch file of PATH: VALUE overrides (as balance tune writes), applied after --set.",
        show_default=False,
    ),
]


def overrides_from(patch: Path | None, sets: list[str] | None) -> dict[str, object]:
    """The overrides of --set PATH=VALUE, then --patch FILE: a tuning patch, proposed for a config
    changed by --set, wins over the --set it answers."""
    from balance.core.config import load_patch, parse_overrides

    return {**parse_overrides(sets or []), **(load_patch(patch) if patch else {})}


def applied_overrides(
    patch: Path | None, sets: list[str] | None
) -> tuple[dict[str, object], dict[str, Any] | None]:
    """The --set overrides, and the patch as the run records it: its file and its overrides."""
    from balance.core.config import load_patch, parse_overrides

    patched = {"file": str(patch), "overrides": load_patch(patch)} if patch else None
    return parse_overrides(sets or []), patched


def measuring_bots(game: str, config: Path | None, bots: str | None) -> list[str]:
    """The bots given, else the ones the game's balance.yaml names: every command measures
    balance with the players the gate judges it by (random when a game has no balance.yaml,
    as a plug-in may not); the output names them either way."""
    from balance.bots import for_game, split_bot_specs
    from balance.core.registry import load_game

    package = load_game(game)
    if bots is not None:
        return for_game(package.info, split_bot_specs(bots))
    from balance.gate import read_thresholds

    path = (config or package.config_dir) / "balance.yaml"
    if not path.exists():
        return ["random"]
    named = read_thresholds(path).bots
    return for_game(package.info, split_bot_specs(named) if isinstance(named, str) else list(named))


def output_folder(out: Path | None, resume: Path | None, default: Path) -> Path:
    """Where a sweep or tune writes: the folder to resume, else --out, else `default`."""
    if resume is not None and out is not None and out.resolve() != resume.resolve():
        from balance.core.errors import ConfigError

        raise ConfigError(
            "--out", None, f"{out} is not {resume}, the folder to resume", "give one of them"
        )
    return resume or out or default


AgainstOpt = Annotated[
    Path | None,
    typer.Option(
        "--against",
        help="Compare with this: an earlier run folder (every table side by side, paired where the runs share seeds) or a baseline file from balance check --save-baseline \\[default: reports/baselines/<game>.json where it exists].",
        show_default=False,
    ),
]


def report_run(folder: Path, against: Path | None, formats: tuple[str, ...] = ("html", "md"),
               summary: bool = False) -> list[Path]:  # fmt: skip
    """Judge the run by its balance.yaml (the gate's assertions), then write its report (and,
    with `summary`, print the terminal summary first). `against`: a run folder or a baseline."""
    from balance.core.errors import ConfigError
    from balance.gate import judge_run
    from balance.report.render import render_report, terminal_summary

    if against is not None and not against.exists():
        raise ConfigError(str(against), None, "no such run folder or baseline file",
                          "give a run folder or a file written by balance check --save-baseline")  # fmt: skip
    earlier = against if against is not None and against.is_dir() else None
    baseline = against if against is not None and against.is_file() else None
    verdict = judge_run(folder, baseline)
    if summary:
        terminal_summary(folder, verdict)
    return render_report(folder, formats, verdict, earlier)
