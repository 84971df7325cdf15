"""The `balance` command line: one module per command, and the one error boundary.

A user's mistake (bad YAML, unknown card, game, bot or option, bad override) is printed as one
line, `error: file:line: what is wrong (what to do)`, with exit code 2 and no traceback. Anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup, TyperOption
from typer.exceptions import TyperException

from balance.cli import (
    bench,
    check,
    compare,
    games,
    impact,
    ladder,
    replay,
    report,
    simulate,
    sweep,
    tune,
    validate,
    vocab,
)
from balance.core.errors import ConfigError, RunFailed


class BalanceGroup(TyperGroup):
    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        for command in [self, *self.commands.values()]:
            name_values(command)
        try:
            code = super().main(
                args,
                prog_name or "balance",
                complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except ConfigError as e:
            _fail(e.one_line())
        except RunFailed as e:
            _fail(str(e), code=1)
        except TyperException as e:  # the command line itself: unknown option, missing argument
            ctx = getattr(e, "ctx", None)
            if type(e).__name__ == "NoArgsIsHelpError":  # `balance` alone: the help was shown
                sys.exit(0)
            where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
            _fail(f"{e.format_message()}{where}", code=2 if e.exit_code == 2 else e.exit_code or 1)
        except typer.Abort:
            _fail("aborted", code=130)
        sys.exit(code if isinstance(code, int) else 0)


# typer's labels of a value's Python type -> the word the help shows
VALUE_NAMES = {"<int>": "N", "<int range>": "N", "<float>": "X", "<float range>": "X",
               "<path>": "PATH", "<str>": "TEXT", "<list[str]>": "TEXT", "<bool>": ""}  # fmt: skip


def name_values(command: Any) -> None:
    """Name each option's value in the help as a user writes it (`--games N`, `--out PATH`), and
    a flag's not at all: typer would show Python's types (`<bool>`, `<list[str]>`)."""
    help_option = command.get_help_option(command.context_class(command))  # made once, kept
    for param in [*command.params, help_option]:
        if not isinstance(param, TyperOption) or param.metavar is not None:
            continue
        label = param.display_type(None)  # type: ignore[arg-type]  # a choice's needs none
        param.metavar = "" if param.is_flag else VALUE_NAMES.get(label, label.strip("<>"))


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    sys.exit(code)


app = typer.Typer(
    cls=BalanceGroup,
    help="Monte-Carlo balance analysis for card games: bots play thousands of games, you read the numbers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("games")(games.games)
app.command("vocab")(vocab.vocab)
app.command("validate")(validate.validate)
app.command("simulate")(simulate.simulate)
app.command("replay")(replay.replay)
app.command("report")(report.report)
app.command("compare")(compare.compare)
app.command("check")(check.check)
app.command("sweep")(sweep.sweep)
app.command("tune")(tune.tune)
app.command("impact")(impact.impact)
app.command("ladder")(ladder.ladder)
app.command("bench")(bench.bench)


def main() -> None:
    typer.main.get_command(app)(prog_name="balance")
