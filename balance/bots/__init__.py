"""Bots, made from specs such as `random`, `greedy` or `mcts:iterations=200,c=1.4`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from balance.core.contract import Bot
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

    The bot is named by its whole spec (`mcts:iterations=50`), so the games table tells bots of
    one kind with different parameters apart, and a replay rebuilds the very bot that played.
    """
    name, _, params_text = spec.partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ConfigError("--bots", None, f"unknown bot '{name}'", did_you_mean(name, list(BOTS)))
    cls = BOTS[name]()
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "name"}
    params: dict[str, object] = {}
    written: list[str] = []
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
        params[key] = _convert(name, key, value.strip(), fields[key].type)
        written.append(f"{key}={value.strip()}")
    label = f"{name}:{','.join(written)}" if written else name
    return cls(name=label, **params)


def _convert(bot: str, key: str, value: str, annotation: object) -> object:
    kind = str(annotation)
    try:
        if "int" in kind:
            return int(value)
        if "float" in kind:
            return float(value)
        if "bool" in kind:
            if value.lower() not in ("true", "false", "1", "0"):
                raise ValueError(value)
            return value.lower() in ("true", "1")
    except ValueError:
        raise ConfigError(
            "--bots",
            None,
            f"bot '{bot}': {key}={value} is not a valid {kind}",
            f"give {key} a {kind}",
        ) from None
    return value
