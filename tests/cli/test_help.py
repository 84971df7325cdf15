"""Every command's --help says what the command is for, in words: no Python type leaks
(`<bool>`, `<list[str]>`) and no emoji (rich reads `:A:` as one)."""

from __future__ import annotations

import re
import unicodedata

import pytest
import typer
from typer.testing import CliRunner

from balance.cli import app

COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
# what the help's frames and the texts' own words may use beyond ASCII
ALLOWED = set("─│╭╮╰╯−µ±…")


def test_every_command_is_listed() -> None:
    assert {"simulate", "report", "compare", "replay", "check", "sweep", "tune"} <= set(COMMANDS)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_names_its_purpose_and_leaks_no_type_or_emoji(command: str) -> None:
    args = [command, "--help"] if command else ["--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = result.output
    group = typer.main.get_command(app)
    purpose = (group.commands[command].help if command else group.help) or ""  # type: ignore[attr-defined]
    first = purpose.strip().split("\n")[0]
    assert len(first) > 20, f"{command}: its help says no purpose"
    assert " ".join(first.split()[:6]) in " ".join(text.split()), f"{command}: purpose not shown"
    # typer labels an argument's type (`<str>`, bench's `<list[str]>`) with no way to name it:
    # the options' values and flags are named (balance.cli.name_values)
    options = text.split("Options")[-1]
    for leak in ("<bool>", "list[", "[str]", "<str>", "<int", "<float", "<path>"):
        assert leak not in options, f"{command} --help shows {leak}"
    for leak in ("<bool>", "<class", "typing.", "NoneType"):
        assert leak not in text, f"{command} --help shows {leak}"
    odd = {c for c in text if ord(c) > 127 and c not in ALLOWED}
    assert not odd, f"{command} --help shows {[unicodedata.name(c, c) for c in odd]}"
    assert not re.search(r"\\\[", text), f"{command} --help shows an escaped bracket"
