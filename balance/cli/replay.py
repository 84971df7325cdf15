"""`balance replay`: one game printed decision by decision in the game's own words."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from balance.cli.options import ConfigOpt, MeasureBotsOpt, SetOpt, measuring_bots


def replay(
    target: Annotated[
        str,
        typer.Argument(
            help="A run folder (with --game I), or a game name (with --seed S).", show_default=False
        ),
    ],
    game_index: Annotated[
        int | None,
        typer.Option(
            "--game", help="The game's row in the run's games.parquet.", show_default=False
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            max=2**64 - 1,
            help="The game's seed, a whole number 0 to 2**64-1 (a games.parquet `seed`).",
            show_default=False,
        ),
    ] = None,
    decks: Annotated[
        str | None,
        typer.Option(
            "--decks",
            help="Deck per seat, seat 0 first \\[default: the first deck for every seat].",
            show_default=False,
        ),
    ] = None,
    bots: MeasureBotsOpt = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats", help="Players \\[default: the game's minimum].", show_default=False
        ),
    ] = None,
    config: ConfigOpt = None,
    set_: SetOpt = None,
) -> None:
    """Replay one game: a header (game, seed, decks, bots, overrides), then every decision
    (who chose, among what, and what), each turn marked with the game's public state."""
    from balance.core.config import parse_overrides
    from balance.core.errors import ConfigError
    from balance.core.registry import load_game
    from balance.sim.replay import Replay, from_run, header, play, turn_marker

    step = [0]
    mark = turn_marker(typer.echo)

    def show(state, decision, option) -> None:  # type: ignore[no-untyped-def]
        mark(state, decision)
        step[0] += 1
        choice = state.describe(option)
        others = len(decision.options) - 1
        typer.echo(
            f"{step[0]:>5}  seat {decision.seat}  {decision.kind:<14} {choice}"
            + (f"   (of {others + 1})" if others else "")
        )

    if Path(target).is_dir():
        if game_index is None:
            raise ConfigError(
                "balance replay",
                None,
                "a run folder needs --game I",
                "e.g. balance replay RUN --game 0",
            )
        replay_ = from_run(Path(target), game_index)
    else:
        if seed is None:
            raise ConfigError(
                "balance replay",
                None,
                f"'{target}' is not a run folder, so it needs --seed S",
                "e.g. balance replay beings --seed 7",
            )
        game = load_game(target)
        overrides = parse_overrides(set_ or [])
        spec = game.load(config or game.config_dir, overrides)
        n = seats or game.info.min_seats
        names = [d.strip() for d in decks.split(",")] if decks else [next(iter(spec.catalog.decks))]
        bot_specs = measuring_bots(target, config, bots)
        replay_ = Replay(
            target, config, overrides, seed,
            names * n if len(names) == 1 else names,
            bot_specs * n if len(bot_specs) == 1 else bot_specs,
        )  # fmt: skip
    for line in header(replay_):
        typer.echo(line)
    record = play(replay_, show)
    if record.error:
        typer.echo(f"the game crashed: {record.error}\n{record.trace}")
        raise typer.Exit(1)
    outcome = "a draw" if record.winner < 0 else f"seat {record.winner} wins"
    typer.echo(
        f"{outcome} ({record.end_reason}) after {record.turns} turns, {record.decisions} decisions; scores {list(record.scores)}"
    )
