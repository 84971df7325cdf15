"""Bots, made from specs such as `random`, `greedy` or `mcts:iterations=200,c=1.4`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from balance.core.contract import Bot, GameInfo
from balance.core.errors import ConfigError, did_you_mean


def _random() -> type:
    from balance.bots.random import RandomBot

    return RandomBot


def _greedy() -> type:
    from balance.bots.greedy import GreedyBot

    return GreedyBot


def _mcts() -> type:
    from balance.bots.mcts import MctsBot

    return MctsBot


# name -> the bot's class, imported when first asked for
BOTS: dict[str, Callable[[], type]] = {"random": _random, "greedy": _greedy, "mcts": _mcts}


def split_bot_specs(text: str) -> list[str]:
    """`"mcts:iterations=200,c=1.4,random"` -> `["mcts:iterations=200,c=1.4", "random"]`:
    a comma separates seats, except before another `key=value` of the same bot."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise ConfigError(
                "--bots", None, f"empty bot name in '{text}'", "e.g. --bots random,greedy"
            )
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_bot(spec: str) -> Bot:
    """A bot from its spec `name` or `name:key=value,...`; unknown names and keys are ConfigErrors.

    Values are checked by the bot's own declaration (a pydantic dataclass: types and bounds, such
    as `iterations > 0`), so a bot states its limits once, where its parameters are defined.

    The bot is named by its whole spec (`mcts:iterations=50`), so the games table tells bots of
    one kind with different parameters apart, and a replay rebuilds the very bot that played.
    """
    name, cls, pairs = _parse(spec)
    params = dict(pairs)  # the bot's declaration converts and checks each value
    label = _label(name, pairs)
    try:
        bot: Bot = cls(name=label, **params)
    except ValidationError as e:
        error = e.errors()[0]
        key = str(error["loc"][0]) if error["loc"] else "?"
        message = error["msg"][:1].lower() + error["msg"][1:]
        fields = _fields(cls)
        default = fields[key].default if key in fields else "..."
        raise ConfigError(
            "--bots",
            None,
            f"bot '{name}': {key}={params.get(key)}: {message}",
            f"e.g. {name}:{key}={default}",
        ) from None
    return bot


def for_game(info: GameInfo, specs: Sequence[str]) -> list[str]:
    """Each spec with the game's own defaults (`GameInfo.bot_defaults`) written in for the
    parameters it leaves out, in the order the bot declares them: `mcts` in a game whose turns
    need a deeper search becomes `mcts:iterations=100,horizon=2,...`. So the tables, the report
    and a replay name the very bot that played, and `mcts` means a bot fit for each game."""
    written = []
    for spec in specs:
        name, cls, given = _parse(spec)
        _, _, defaults = _parse(f"{name}:{info.bot_defaults.get(name, '')}")
        params = {**dict(defaults), **dict(given)}
        order = list(_fields(cls))
        written.append(_label(name, sorted(params.items(), key=lambda kv: order.index(kv[0]))))
    return written


def _parse(spec: str) -> tuple[str, type, list[tuple[str, str]]]:
    """A spec's bot name, its class and its `key=value` pairs as written (keys checked)."""
    name, _, params_text = spec.partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ConfigError("--bots", None, f"unknown bot '{name}'", did_you_mean(name, list(BOTS)))
    cls = BOTS[name]()
    fields = _fields(cls)
    pairs: list[tuple[str, str]] = []
    for pair in filter(None, (p.strip() for p in params_text.split(","))):
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(
                "--bots",
                None,
                f"bot '{name}': expected key=value, got '{pair}'",
                f"e.g. {name}:{next(iter(fields), 'key')}=...",
            )
        if key not in fields:
            raise ConfigError(
                "--bots",
                None,
                f"bot '{name}' has no parameter '{key}'",
                did_you_mean(key, list(fields)) if fields else "it takes none",
            )
        pairs.append((key, value.strip()))
    return name, cls, pairs


def _fields(cls: type) -> dict[str, dataclasses.Field[object]]:
    return {f.name: f for f in dataclasses.fields(cls) if f.name != "name"}


def _label(name: str, pairs: Sequence[tuple[str, str]]) -> str:
    return f"{name}:{','.join(f'{k}={v}' for k, v in pairs)}" if pairs else name
