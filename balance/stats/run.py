"""A run's tables for notebooks and reports: `load_run(path)` and the summary it answers with.

>>> from balance.stats import load_run
>>> run = load_run("reports/beings-20261122-101500")
>>> run.games, run.cards, run.manifest          # the files, as pandas tables and a dict
>>> run.decks(), run.matchups(), run.card_metrics(), run.summary()
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from balance.core.runfiles import CARDS, GAMES, read_manifest, read_table
from balance.stats.cards import MIN_GAMES, card_metrics
from balance.stats.metagame import metagame
from balance.stats.outcomes import game_length, ludii_summary, outcome_rates
from balance.stats.winrates import deck_table, matchup_table, seat_advantage, seat_count, seat_table


@dataclass(frozen=True)
class Run:
    folder: Path
    games: pd.DataFrame
    cards: pd.DataFrame
    manifest: dict[str, Any]

    def seats(self) -> pd.DataFrame:
        return seat_table(self.games)

    def decks(self) -> pd.DataFrame:
        return deck_table(self.games)

    def matchups(self) -> pd.DataFrame:
        return matchup_table(self.games)

    def card_metrics(self, min_games: int = MIN_GAMES) -> pd.DataFrame:
        return card_metrics(self.cards, min_games)

    def summary(self) -> dict[str, Any]:
        return summarize(self)


def load_run(path: str | Path) -> Run:
    """The run written by `balance simulate` into `path`: finished, or stopped by a signal or a
    dead worker (its finished games). A folder whose files are missing or damaged is a
    ConfigError naming the file."""
    folder = Path(path)
    manifest = read_manifest(folder)
    return Run(folder, read_table(folder / GAMES), read_table(folder / CARDS), manifest)


def players(games: pd.DataFrame, manifest: dict[str, Any]) -> dict[str, Any]:
    """Who played and on what: the bots per seat (whole specs, as the games table records them:
    the bots the run actually played), the run seed, the `--set` overrides and the patch."""
    seats = seat_count(games)
    bots = []
    for seat in range(seats):
        names = list(dict.fromkeys(games[f"bot_{seat}"].astype(str)))
        bots.append(" / ".join(names))
    if not bots:
        bots = [str(b) for b in (manifest.get("options") or {}).get("bots", [])]
    patch = manifest.get("patch") or None
    overrides = dict(manifest.get("overrides") or {})
    if "set" in manifest:
        sets = dict(manifest["set"] or {})
    else:  # a run from before run.json told --set from --patch: every override
        sets = overrides
    return {"bots": bots, "seed": manifest.get("seed"), "set": sets, "patch": patch,
            "overrides": overrides}  # fmt: skip


def summarize(run: Run) -> dict[str, Any]:
    """summary.json: the fields DESIGN.md names, then the players, the seat advantage, rates and
    game metrics."""
    outcomes = outcome_rates(run.games)
    seats = run.seats()
    metrics = run.card_metrics()
    rates = ("play_rate", "gp_wr", "gih_wr", "oh_wr", "gnd_wr", "iwd")
    card_columns = ["deck", "card", *(f"{r}{end}" for r in rates for end in ("", "_low", "_high")),
                    "gih_wr_vs_deck", "deck_wr", "mean_turn_played", "drawn", "played", "games",
                    "low_sample"]  # fmt: skip
    card_columns += [c for c in metrics.columns if c.endswith("_per_game_played")]
    summary = {
        "game": run.manifest.get("game"),
        "players": players(run.games, run.manifest),
        "games": outcomes["games"],
        "crashed": outcomes["crashed"],
        "capped": outcomes["capped"],
        "draws": outcomes["draws"],
        "seats": _records(
            seats[["seat", "games", "deals", "win_rate", "ci_low", "ci_high", "decided_win_rate"]]
        ),
        "decks": _records(run.decks()[["deck", "games", "deals", "win_rate", "ci_low", "ci_high"]]),
        "matchups": _records(run.matchups()),
        "cards": _records(metrics[card_columns]),
        "turns": game_length(run.games)["turns"],
        "decisions": game_length(run.games)["decisions"],
        "seat_advantage": seat_advantage(run.games),
        "rates": {k: v for k, v in outcomes.items() if k.endswith(("_rate", "_ci"))},
        "metrics": ludii_summary(seats, outcomes),
        "rules_version": run.manifest.get("rules_version"),
        "config_hash": run.manifest.get("config_hash"),
        # the Nash mix of decks, dominated decks and cycles (two-player runs with every pairing)
        "metagame": metagame(run.games, int(run.manifest.get("seed") or 0)).summary(),
    }
    ready: dict[str, Any] = json_ready(summary)
    return ready


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = frame.to_dict(orient="records")
    return records


def json_ready(value: Any) -> Any:
    """JSON-ready: numpy scalars to Python, NaN to None."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
