"""Designer tuning: "what number makes this card fair?"

`sweep` plays every point of a grid of config values on the same seeds (common random numbers)
and names the value whose metric lies closest to the target, with how sure that is: the share
of paired bootstrap resamples of the deals in which that value is still the closest.

`tune` searches free integer parameters for the config that minimises an imbalance objective,
by successive halving over candidates played on the same seeds: every round, each surviving
candidate plays more deals, the worse half is dropped, until a few remain. The objective is the
sum of squared deviations of deck win rates from the fair share plus the squared seat advantage,
each term debiased by the variance of its estimate so that sampling noise does not pass for
imbalance. Among the finalists within noise of the best (the paired bootstrap interval of the
difference in objective reaches 0), the one changing the fewest numbers wins, and among those the
lowest objective (the current config included: a balanced config is left alone).

Both resume (`--resume DIR`): a `TrialStore` keeps, after every step a config plays, its games
and its card tally at that step in `DIR/trials/`. A resumed sweep or tune runs its algorithm
again from the start, with the same options; each step a config already played is read back
instead of played, so every decision is taken on the same numbers and the result is the same
as an uninterrupted run's. Only the step being played when the run stopped is played again.
"""

from __future__ import annotations

import itertools
import json
import math
import shutil
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pandas as pd

from balance.core.config import read_config, value_at
from balance.core.errors import ConfigError, DataWarning, did_you_mean
from balance.core.registry import load_game
from balance.core.runfiles import read_json, replacing, write_json
from balance.core.yamlio import parse_scalar
from balance.sim.records import CardTally
from balance.sim.runner import play_range, resolve_jobs
from balance.sim.schedule import make_schedule
from balance.stats.bootstrap import bootstrap_weights, resampled_ratios
from balance.stats.cards import card_metrics
from balance.stats.units import deal_units, unit_estimate

CARD_MEASURES = {"gih": "gih_wr", "gp": "gp_wr", "oh": "oh_wr", "iwd": "iwd", "play": "play_rate"}
Progress = Callable[[int], None]


# -- what is measured ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    text: str  # as the designer wrote it
    unit: str = ""  # a deal unit (balance.stats.units), or "" for a card metric
    card: str = ""
    deck: str = ""
    measure: str = ""  # a card_metrics column
    target: float | None = None


def parse_metric(text: str, catalog: Any, seats: int, target: float | None) -> Metric:
    """`seat`, `deck:NAME`, `matchup:A:B`, `turns`, or `card:ID[@DECK]:gih|gp|oh|iwd|play`."""
    kind, _, rest = text.partition(":")
    fair = 1.0 / seats
    if kind == "seat":
        return Metric(text, unit="seat advantage", target=0.0 if target is None else target)
    if kind == "turns":
        if target is None:
            raise ConfigError(
                "--metric", None, "turns needs a --target", "e.g. --metric turns --target 20"
            )
        return Metric(text, unit="turns", target=target)
    if kind == "deck":
        _check_deck(rest, catalog)
        return Metric(text, unit=f"deck {rest} win rate", target=fair if target is None else target)
    if kind == "matchup":
        a, _, b = rest.partition(":")
        for deck in (a, b):
            _check_deck(deck, catalog)
        first, second = sorted((a, b))
        if (first, second) != (a, b):
            raise ConfigError(
                "--metric",
                None,
                f"write the matchup as matchup:{first}:{second}",
                "decks in alphabetical order",
            )
        return Metric(text, unit=f"matchup {a} vs {b}", target=0.5 if target is None else target)
    if kind == "card":
        card_part, _, measure = rest.rpartition(":")
        card, _, deck = card_part.partition("@")
        if card not in catalog.cards:
            raise ConfigError(
                "--metric", None, f"unknown card '{card}'", did_you_mean(card, list(catalog.cards))
            )
        if measure not in CARD_MEASURES:
            raise ConfigError(
                "--metric",
                None,
                f"unknown card measure '{measure}'",
                did_you_mean(measure, list(CARD_MEASURES)),
            )
        if deck:
            _check_deck(deck, catalog)
        default = 0.0 if measure == "iwd" else fair if measure != "play" else None
        return Metric(
            text,
            card=card,
            deck=deck,
            measure=CARD_MEASURES[measure],
            target=default if target is None else target,
        )
    raise ConfigError(
        "--metric",
        None,
        f"unknown metric '{text}'",
        "use seat, deck:NAME, matchup:A:B, turns or card:ID:iwd",
    )


def _check_deck(name: str, catalog: Any) -> None:
    if name not in catalog.decks:
        raise ConfigError(
            "--metric", None, f"unknown deck '{name}'", did_you_mean(name, list(catalog.decks))
        )


def default_metric(vary: Sequence[tuple[str, list[Any]]], catalog: Any, seats: int) -> str:
    """A card's change is read on the first deck that holds it; a rule's on the seat advantage."""
    path = vary[0][0]
    parts = path.split(".")
    if parts[0] == "cards" and len(parts) > 2 and parts[1] in catalog.cards:
        card = catalog.cards.index(parts[1])
        holders = [
            d
            for d, contents in catalog.decks.items()
            if card in contents and d not in catalog.shared
        ]
        if holders:
            return f"deck:{holders[0]}"
    return "seat"


# -- the designer's grid ------------------------------------------------------------------------


def parse_values(text: str, given: str = "") -> list[Any]:
    """`3,4,5` as a list; `2:8` or `2:8:2` as an inclusive range of whole numbers. `given` is
    the option as typed (`--free PATH=5:1`), for errors."""
    given = given or f"--vary ...={text}"
    if ":" in text and "," not in text:
        parts = text.split(":")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            raise ConfigError(
                given, None, "a range takes whole numbers", "e.g. 2:8 or 2:8:2"
            ) from None
        if (
            len(numbers) not in (2, 3)
            or (len(numbers) == 3 and numbers[2] <= 0)
            or numbers[1] < numbers[0]
        ):
            raise ConfigError(given, None, "a range is LOW:HIGH or LOW:HIGH:STEP", "e.g. 2:8:2")
        step = numbers[2] if len(numbers) == 3 else 1
        return list(range(numbers[0], numbers[1] + 1, step))
    return [parse_scalar(v.strip()) for v in text.split(",") if v.strip()]


def parse_vary(pairs: Sequence[str]) -> list[tuple[str, list[Any]]]:
    out = []
    for pair in pairs:
        path, sep, values = pair.partition("=")
        if not sep or not values:
            raise ConfigError(
                f"--vary {pair}",
                None,
                "expected PATH=VALUES",
                "e.g. --vary cards.ember_fox_3.power=2:6",
            )
        out.append((path.strip(), parse_values(values, f"--vary {pair}")))
    if not out:
        raise ConfigError(
            "--vary", None, "nothing to vary", "e.g. --vary cards.ember_fox_3.power=2:6"
        )
    return out


def parse_free(pairs: Sequence[str], current: Callable[[str], Any]) -> list[tuple[str, int, int]]:
    """`PATH` (the current value ±3, not below 0) or `PATH=LO:HI`."""
    out = []
    for pair in pairs:
        path, sep, span = pair.partition("=")
        path = path.strip()
        if sep:
            values = parse_values(span, f"--free {pair}")
            if not values or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values
            ):
                raise ConfigError(
                    f"--free {pair}", None, "a free number's range is LOW:HIGH", "e.g. 2:8"
                )
            low, high = min(values), max(values)
        else:
            value = current(path)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(
                    f"--free {pair}",
                    None,
                    f"{path} is {value!r}, not a whole number",
                    "tune whole numbers only",
                )
            low, high = max(0, value - 3), value + 3
        out.append((path, int(low), int(high)))
    return out


# -- playing one config -------------------------------------------------------------------------


@dataclass
class Setup:
    """What every candidate shares: game, seeds, lineups."""

    game: str
    config_dir: Path
    overrides: Mapping[str, object]
    decks: Any
    bots: Sequence[str]
    seats: int | None
    seed: int
    jobs: int
    stop: Any = None  # a StopRequest: a signal ends the step being played (raises Stopped)


class TrialStore:
    """The games every config of a sweep or tune has played, and its card tally after each
    step, in `<folder>/trials/<config hash>.parquet` (the tally states in the file's metadata),
    replaced atomically after every step. `key` names what was run; a resume must match it."""

    def __init__(self, folder: Path, key: Mapping[str, Any], resume: bool) -> None:
        self.folder = folder / "trials"
        self.key = json.loads(json.dumps(dict(key), default=str))
        key_path = self.folder / "setup.json"
        if resume:
            if not key_path.exists():
                raise ConfigError(
                    str(folder),
                    None,
                    "holds nothing to resume (no trials/setup.json)",
                    "drop --resume",
                )
            recorded = read_json(key_path)
            changed = sorted(
                k for k in set(recorded) | set(self.key) if recorded.get(k) != self.key.get(k)
            )
            if changed:
                name = changed[0]
                raise ConfigError(
                    str(key_path),
                    None,
                    f"it was started with {name} {recorded.get(name)}, not {self.key.get(name)}",
                    "give the command it was started with, or drop --resume",
                )
        else:
            shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        write_json(key_path, self.key)

    def stored(self) -> int:
        """Games on record: for a progress bar's start."""
        import pyarrow.parquet as pq

        return sum(pq.read_metadata(p).num_rows for p in self.folder.glob("*.parquet"))

    def restore(self, trial: Trial, total: int) -> bool:
        """Set the trial to its first `total` games and their tally if a step ended there."""
        import pyarrow.parquet as pq

        path = self.folder / f"{trial.key or trial.spec.config_hash}.parquet"
        if not path.exists():
            return False
        table = pq.read_table(path)
        tallies = json.loads((table.schema.metadata or {}).get(b"balance.tallies", b"{}"))
        if str(total) not in tallies or table.num_rows < total:
            return False
        trial.games = table.slice(0, total).to_pandas()
        trial.tally = CardTally.from_state(tallies[str(total)])
        return True

    def save(self, trial: Trial) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        assert trial.tally is not None
        path = self.folder / f"{trial.key or trial.spec.config_hash}.parquet"
        tallies: dict[str, Any] = {}
        if path.exists():
            tallies = json.loads(
                (pq.read_schema(path).metadata or {}).get(b"balance.tallies", b"{}")
            )
        tallies[str(len(trial.games))] = trial.tally.to_state()
        table = pa.Table.from_pandas(trial.games, preserve_index=False)
        metadata = {
            **(table.schema.metadata or {}),
            b"balance.tallies": json.dumps(tallies).encode(),
        }
        with replacing(path) as temporary:
            pq.write_table(table.replace_schema_metadata(metadata), temporary)


@dataclass
class Trial:
    """One config, and the games it has played so far (a prefix of the shared schedule)."""

    values: dict[str, Any]
    changed: int
    games: pd.DataFrame = field(default_factory=pd.DataFrame)
    tally: CardTally | None = None
    catalog: Any = None
    seats: int = 2
    spec: Any = None
    schedule: Any = None
    store: TrialStore | None = None
    key: str = ""  # its name in the store, when its config hash does not tell it apart

    def play(self, setup: Setup, total: int, progress: Progress | None) -> None:
        """Play on until `total` games (whole rounds of every lineup) have been played."""
        todo = self.to_play(total)
        if todo is None:
            return
        games, tally = play_range(
            setup.game, self.spec, self.schedule, *todo, setup.jobs, progress=progress,
            stop_request=setup.stop,
        )  # fmt: skip
        self.extend(games, tally)

    def to_play(self, total: int) -> tuple[int, int] | None:
        """The games (start, stop) still to play to reach `total` games, rounded up to whole
        rounds of every lineup; None if there are none (played, or read back from the store)."""
        done = len(self.games)
        total = self.rounded(total)
        if total <= done:
            return None
        if self.store is not None and self.store.restore(self, total):
            return None
        return done, total

    def rounded(self, total: int) -> int:
        """`total` games rounded up to whole rounds of every lineup, within the schedule."""
        per_round = self.schedule.games_per_round()
        return int(min(self.schedule.games, -(-total // per_round) * per_round))

    def extend(self, games: pd.DataFrame, tally: CardTally) -> None:
        """Add the games `to_play` named and their tally; the store keeps the step."""
        self.games = pd.concat([self.games, games], ignore_index=True)
        if self.tally is None:
            self.tally = tally
        else:
            self.tally.merge(tally)
        if self.store is not None:
            self.store.save(self)

    def units(self) -> dict[str, pd.DataFrame]:
        return deal_units(self.games, self.seats)


def make_trial(
    setup: Setup,
    values: Mapping[str, Any],
    changed: int,
    max_games: int,
    store: TrialStore | None = None,
) -> Trial:
    game = load_game(setup.game)
    with warnings.catch_warnings():
        # doubtful data is the base config's to report; a candidate's would repeat per point
        warnings.simplefilter("ignore", DataWarning)
        spec = game.load(setup.config_dir, {**setup.overrides, **values})
    schedule = make_schedule(
        game.info, spec.catalog, setup.decks, setup.bots, setup.seats, max_games, setup.seed
    )
    return Trial(
        dict(values),
        changed,
        catalog=spec.catalog,
        seats=schedule.seats,
        spec=spec,
        schedule=schedule,
        store=store,
    )


def setup_key(setup: Setup, **more: Any) -> dict[str, Any]:
    """What decides a sweep's or tune's result, for a TrialStore to check a resume against."""
    base = load_game(setup.game).load(setup.config_dir, setup.overrides).config_hash
    return {
        "game": setup.game, "config_hash": base, "overrides": dict(setup.overrides),
        "decks": setup.decks, "bots": list(setup.bots), "seats": setup.seats, "seed": setup.seed,
        **more,
    }  # fmt: skip


# the games behind a card measure: those its rate is taken over (IWD's two rates share the deck's)
CARD_SAMPLE = {"gih_wr": "drawn", "gp_wr": "played", "oh_wr": "opening", "iwd": "games",
               "play_rate": "games"}  # fmt: skip


def measure(trial: Trial, metric: Metric) -> tuple[float, float, float, int]:
    """(estimate, 95% low, 95% high, games behind the estimate) of the metric on the trial's
    games. The last is the estimate's sample, not the games the point played: a deck's win rate
    counts the games the deck played against another deck, a matchup its lineup's games, a card's
    GIH WR the games the card was in hand."""
    if metric.unit:
        values = trial.units().get(metric.unit)
        if values is None or not len(values):
            return math.nan, math.nan, math.nan, 0
        estimate, low, high, _ = unit_estimate(values, metric.unit, trial.seats)
        return estimate, low, high, int(values["n"].sum())
    assert trial.tally is not None
    rows = pd.DataFrame(trial.tally.rows(trial.catalog))
    metrics = card_metrics(rows)
    chosen = metrics[metrics["card"] == metric.card]
    if metric.deck:
        chosen = chosen[chosen["deck"] == metric.deck]
    if not len(chosen):
        return math.nan, math.nan, math.nan, 0
    row = chosen.sort_values("games", ascending=False).iloc[0]
    column = metric.measure
    return (
        float(row[column]),
        float(row.get(f"{column}_low", math.nan)),
        float(row.get(f"{column}_high", math.nan)),
        int(rows.at[row.name, CARD_SAMPLE[column]]),
    )


# -- sweep --------------------------------------------------------------------------------------


@dataclass
class SweepResult:
    metric: Metric
    paths: list[str]
    points: pd.DataFrame  # per grid point: values, estimate, ci_low, ci_high, games (behind the
    # estimate), played (the point's games)
    closest: dict[str, Any]
    sureness: float | None  # share of bootstrap resamples in which the closest point stays closest
    interrupted: bool = False


def sweep(
    setup: Setup,
    vary: Sequence[tuple[str, list[Any]]],
    games: int,
    metric_text: str | None,
    target: float | None,
    progress: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_point: Callable[[SweepResult], None] | None = None,
    folder: Path | None = None,
    resume: bool = False,
) -> SweepResult:
    """With `folder`, every point's games are kept there as they are played, and `resume`
    reads back those of an interrupted sweep run with the same options (see the module)."""
    paths = [path for path, _ in vary]
    grid = [dict(zip(paths, combo)) for combo in itertools.product(*(values for _, values in vary))]
    trials = [
        make_trial(setup, point, 0, games) for point in grid
    ]  # every point checked before any game
    first = trials[0]
    metric = parse_metric(
        metric_text or default_metric(vary, first.catalog, first.seats),
        first.catalog,
        first.seats,
        target,
    )
    if metric.target is None:
        raise ConfigError("--target", None, f"{metric.text} has no natural target", "give --target")
    if folder is not None:
        key = setup_key(setup, command="sweep", vary=list(vary), games=games, metric=metric.text)
        store = TrialStore(folder, key, resume)
        for trial in trials:
            trial.store = store
    if on_start is not None:
        stored = trials[0].store.stored() if trials[0].store is not None else 0
        on_start(sum(min(t.schedule.games, games) for t in trials), stored)
    rows: list[dict[str, Any]] = []
    interrupted = False
    result = SweepResult(metric, paths, pd.DataFrame(), {}, None)
    for trial in trials:
        try:
            trial.play(setup, games, progress)
        except KeyboardInterrupt:
            interrupted = True
            break
        estimate, low, high, behind = measure(trial, metric)
        rows.append(
            {
                **trial.values,
                "estimate": estimate,
                "ci_low": low,
                "ci_high": high,
                "games": behind,  # the estimate's sample
                "played": len(trial.games),  # the point's games, all lineups
            }
        )
        result = _sweep_result(metric, paths, rows, trials[: len(rows)], setup.seed)
        if on_point is not None:
            on_point(result)
    result.interrupted = interrupted
    return result


def _sweep_result(
    metric: Metric, paths: list[str], rows: list[dict[str, Any]], trials: list[Trial], seed: int
) -> SweepResult:
    points = pd.DataFrame(rows)
    distance = (points["estimate"] - metric.target).abs()
    if distance.isna().all():
        return SweepResult(metric, paths, points, {}, None)
    best = int(distance.idxmin())
    closest = {**{p: points.at[best, p] for p in paths}, "estimate": points.at[best, "estimate"]}
    sureness = None
    if metric.unit and len(trials) > 1:
        found = [t.units().get(metric.unit) for t in trials]
        series = [s for s in found if s is not None and len(s)]
        if len(series) == len(found):
            seeds = sorted(set().union(*(s.index for s in series)))
            weights = bootstrap_weights(seeds, seed)
            resampled = np.vstack([resampled_ratios(s, weights) for s in series])
            winners = np.nanargmin(np.abs(resampled - metric.target), axis=0)
            sureness = float(np.mean(winners == best))
    return SweepResult(metric, paths, points, closest, sureness)


# -- tune ---------------------------------------------------------------------------------------


@dataclass
class Candidate:
    trial: Trial
    objective: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan


@dataclass
class TuneResult:
    free: list[tuple[str, int, int]]
    current: dict[str, Any]
    proposal: dict[str, Any]  # only the changed numbers
    before: Candidate
    after: Candidate
    best: Candidate  # the finalist of lowest objective: `after` unless the data cannot tell them apart
    candidates: pd.DataFrame  # every candidate: values, rounds survived, games, objective
    history: pd.DataFrame  # per rung: games spent, candidates, its leader and objective then,
    # the leader's objective on the most games it played, the best of those so far
    games: int
    interrupted: bool = False


def objective_terms(trial: Trial) -> list[tuple[str, pd.DataFrame, float]]:
    """(unit name, per-deal totals, target) per term: each deck's win rate against the fair
    share, and the seat advantage against 0."""
    units = trial.units()
    terms = [(name, units[name], 1.0 / trial.seats) for name in units if name.startswith("deck ")]
    if "seat advantage" in units:
        terms.append(("seat advantage", units["seat advantage"], 0.0))
    return terms


def balance_objective(
    trial: Trial, weights: pd.DataFrame | None = None
) -> tuple[float, float, float]:
    """(objective, 95% low, 95% high): sum over terms of (mean - target)^2 - var(mean), the
    unbiased estimate of the squared deviation; the interval from the paired bootstrap."""
    terms = objective_terms(trial)
    if not terms:
        return math.nan, math.nan, math.nan
    total = 0.0
    for name, values, target in terms:
        estimate, _, _, std_error = unit_estimate(values, name, trial.seats)
        total += (estimate - target) ** 2 - (std_error**2 if math.isfinite(std_error) else 0.0)
    if weights is None:
        return total, math.nan, math.nan
    low, high = _spread(resampled_objective(trial, weights))
    # a sum of squares is never below 0, whatever the debiased estimate's noise says
    return total, max(0.0, total + low), max(0.0, total + high)


def resampled_objective(trial: Trial, weights: pd.DataFrame) -> np.ndarray:
    """The plug-in objective (no debiasing) in each bootstrap resample of the deals."""
    sampled = np.zeros(weights.shape[1])
    for _, values, target in objective_terms(trial):
        sampled += (resampled_ratios(values, weights) - target) ** 2
    return sampled


def _spread(sampled: np.ndarray) -> tuple[float, float]:
    """The 95% bootstrap spread about the resamples' mean, to centre on a debiased estimate."""
    low, high = np.nanpercentile(sampled - np.nanmean(sampled), [2.5, 97.5])
    return float(low), float(high)


def within_noise_of(best: Candidate, weights: pd.DataFrame) -> Callable[[Candidate], bool]:
    """Whether a finalist's objective could be the best's: the 95% interval of its difference
    from the best, paired over the same resampled deals, reaches 0.

    Paired, because the finalists play the same deals: what luck they share cancels in the
    difference. The test this replaces, two 95% intervals that overlap, is far looser (it holds
    for differences up to the sum of both half-widths) and ignores the pairing: on a small budget
    it left a card at power 10 "within noise" of power 3, and the fewest-changes rule kept it."""
    best_sampled = resampled_objective(best.trial, weights)

    def test(c: Candidate) -> bool:
        if c is best:
            return True
        low, _ = _spread(resampled_objective(c.trial, weights) - best_sampled)
        return c.objective - best.objective + low <= 0.0

    return test


def tune(
    setup: Setup,
    free: list[tuple[str, int, int]],
    budget: int,
    max_candidates: int = 32,
    finalists: int = 4,
    progress: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
    folder: Path | None = None,
    resume: bool = False,
) -> TuneResult:
    """With `folder`, every candidate's games are kept there step by step, and `resume` reads
    back those of an interrupted tune run with the same options (see the module)."""
    game = load_game(setup.game)
    docs = read_config(setup.config_dir, overrides=setup.overrides)
    base_spec = game.load(setup.config_dir, setup.overrides)
    current = {path: _current_value(docs.data, base_spec, path) for path, _, _ in free}
    space = [list(range(low, high + 1)) for _, low, high in free]
    paths = [path for path, _, _ in free]
    combos = [dict(zip(paths, combo)) for combo in itertools.product(*space)]
    rng = Random(setup.seed)
    if len(combos) > max_candidates:
        near = sorted(combos, key=lambda c: sum(abs(c[p] - current[p]) for p in paths))[
            : max_candidates // 2
        ]
        rest = [c for c in combos if c not in near]
        combos = near + rng.sample(rest, max_candidates - len(near))
    if current not in combos:
        combos.append(dict(current))

    candidates = [
        Candidate(make_trial(setup, c, numbers_changed(c, current), budget)) for c in combos
    ]  # every candidate checked before anything is written
    store = None
    if folder is not None:
        key = setup_key(
            setup, command="tune", free=free, budget=budget, max_candidates=max_candidates,
            finalists=finalists,
        )  # fmt: skip
        store = TrialStore(folder, key, resume)
        for candidate in candidates:
            candidate.trial.store = store
    baseline = next(c for c in candidates if c.trial.changed == 0)
    if on_start is not None:
        on_start(budget, store.stored() if store is not None else 0)

    per_round = candidates[0].trial.schedule.games_per_round()
    alive = list(candidates)
    rounds = max(1, math.ceil(math.log2(max(1, len(alive) / finalists))) + 1)
    spent, history, survived = 0, [], {id(c): 0 for c in candidates}
    leaders: list[Candidate] = []  # each rung's best, by the objective on that rung's games
    games_each = 0
    interrupted = False
    try:
        for round_number in range(rounds):
            share = (budget - spent) // max(1, (rounds - round_number))
            # whole rounds of the schedule, and never past the budget
            step = max(per_round, share // len(alive) // per_round * per_round)
            if spent + step * len(alive) > budget:
                step = (budget - spent) // len(alive) // per_round * per_round
            if step <= 0:
                break
            games_each += step
            for c in alive:
                before = len(c.trial.games)
                c.trial.play(setup, games_each, progress)
                spent += len(c.trial.games) - before
                c.objective, _, _ = balance_objective(c.trial)
                survived[id(c)] = round_number + 1
            alive.sort(key=lambda c: (c.objective, c.trial.changed))
            leaders.append(alive[0])
            history.append(
                {"games": spent, "candidates": len(alive), "leader": _named(alive[0].trial.values),
                 "leader_objective": alive[0].objective}
            )  # fmt: skip
            if round_number < rounds - 1:
                alive = alive[: max(finalists, len(alive) // 2)]
                if baseline not in alive:  # the current config plays on: a fair before/after
                    alive.append(baseline)
            if spent >= budget:
                break
    except KeyboardInterrupt:
        interrupted = True

    finals = [c for c in alive if len(c.trial.games)]
    seeds = sorted(set().union(*(c.trial.games["seed"] for c in finals))) if finals else []
    weights = bootstrap_weights(seeds, setup.seed) if seeds else None
    for c in finals:
        c.objective, c.ci_low, c.ci_high = balance_objective(c.trial, weights)
    chosen = best = baseline  # stopped before any config finished a step: nothing to propose
    if finals and weights is not None:
        best = min(finals, key=lambda c: c.objective)
        within_noise = list(filter(within_noise_of(best, weights), finals))
        chosen = min(within_noise, key=lambda c: (c.trial.changed, c.objective))
    # Convergence: each rung's leader judged on the most games it played (a leader survives its
    # rung, so on at least the next rung's; on the finalists' games if it is one), and the best
    # of those so far. A rung's own estimate of its leader is the least of many noisy objectives,
    # lucky on few games, so those estimates climb as rungs add games; this only falls.
    for row, leader in zip(history, leaders):
        row["leader_final_objective"] = leader.objective
    if history:
        best_so_far = pd.Series([row["leader_final_objective"] for row in history]).cummin()
        for row, value in zip(history, best_so_far):
            row["best_objective"] = float(value)
    proposal = {p: chosen.trial.values[p] for p in paths if chosen.trial.values[p] != current[p]}
    table = pd.DataFrame([
        {**c.trial.values, "changed": c.trial.changed, "rounds": survived[id(c)], "games": len(c.trial.games), "objective": c.objective}
        for c in candidates
    ]).sort_values(["rounds", "objective"], ascending=[False, True])  # fmt: skip
    return TuneResult(
        free, current, proposal, baseline, chosen, best, table, pd.DataFrame(history), spent,
        interrupted,
    )  # fmt: skip


def _named(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{path}={value}" for path, value in values.items())


def numbers_changed(values: Mapping[str, Any], current: Mapping[str, Any]) -> int:
    """How many numbers a candidate changes. Among the finalists the data cannot tell from the
    best, the fewest win (none: a balanced config is left alone), then the lowest objective: not
    the smallest step, which would stop every proposal short at the edge of the noise."""
    return sum(values[path] != current[path] for path in current)


def _current_value(data: Mapping[str, Any], spec: Any, path: str) -> Any:
    try:
        return value_at(data, path)
    except ConfigError:
        name = path.split(".", 1)[1] if path.startswith("rules.") else ""
        if name and hasattr(spec, name):  # a rule left at its default in rules.yaml
            return getattr(spec, name)
        raise


def setup_from(
    game: str, config_dir: Path | None, overrides: Mapping[str, object], decks: Any, bots: Sequence[str],
    seats: int | None, seed: int, jobs: int | None,
) -> Setup:  # fmt: skip
    folder = config_dir or load_game(game).config_dir
    return Setup(game, folder, dict(overrides), decks, list(bots), seats, seed, resolve_jobs(jobs))
