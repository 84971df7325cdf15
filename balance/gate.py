"""`balance check`: the CI balance-regression gate.

The designer's thresholds (configs/<game>/balance.yaml) become assertions: the seat advantage,
each deck's win rate against the field, each matchup, the cap rate, and optionally each card's
IWD. The gate plays mirrored, seeded rounds of games (every lineup, every seat rotation) and
after each round runs one SPRT per assertion (balance.stats.sequential): it stops as soon as
every assertion is decided, or at `max_games`. There an undecided assertion fails if its
estimate lies outside its band ("undecided at N games; estimate outside the band") and passes,
saying it was undecided, if inside: the gate never passes what it has seen outside the band. A
card whose sample (`min_games` in hand and out of it) is not reached is skipped with the games
it would need.

The unit is the deal (a seed played in every seat order), as fishtest's game pairs: every
estimate, interval and standard error is over deals (balance.stats.intervals). Capped games are
counted one by one in a Bernoulli SPRT whose counts are shrunk by the design effect of the deals
(a deal's games share a seed, so their caps come together).

A baseline records the estimates of a run; `--baseline` replays the baseline's games (same seed,
same count) with the current config and fails on a significant shift beyond the tolerance.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

import balance
from balance.bots import for_game, make_bot, split_bot_specs
from balance.core.config import validate
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.core.yamlio import load_yaml
from balance.impact import Arm, ImpactSettings, race
from balance.report.render import Verdict
from balance.sim.records import CardTally
from balance.sim.runner import play_range, resolve_jobs
from balance.sim.schedule import make_schedule
from balance.stats.cards import card_metrics
from balance.stats.intervals import Z95
from balance.stats.run import load_run, players
from balance.stats.sequential import (
    Band,
    band_verdict_bernoulli,
    band_verdict_normal,
    fixed_sample_verdict,
    games_to_decide,
    interval_verdict,
)
from balance.stats.units import deal_units, unit_estimate
from balance.stats.winrates import seat_count

ROUNDS_PER_STEP = 25  # deals of every lineup played between two looks at the SPRTs


class CardRule(BaseModel):
    """`cards:` the observational IWD per (deck, card), and/or each card's impact by
    intervention (balance.impact: the card against its declared baseline, on the same deals)."""

    model_config = ConfigDict(extra="forbid")
    max_abs_iwd: float | None = Field(None, gt=0)
    min_games: int = Field(500, ge=1)
    max_abs_impact: float | None = Field(None, gt=0)
    impact_games: int = Field(20000, ge=1)  # games the impact assertions may spend in all


class Thresholds(BaseModel):
    """balance.yaml: what the gate plays and the bands it asserts."""

    model_config = ConfigDict(extra="forbid")
    bots: str | list[str] = "random"
    decks: str | list[str] = "all"
    seats: int | None = Field(None, ge=1)
    max_games: int = Field(20000, ge=1)
    seat_advantage: float | None = Field(None, ge=0)
    deck_win_rate: tuple[float, float] | None = None
    matchup_win_rate: tuple[float, float] | None = None
    cap_rate: float | None = Field(None, ge=0, le=1)
    cards: CardRule | None = None
    impact: ImpactSettings | None = None  # what `balance impact` replaces a card by
    alpha: float = Field(0.05, gt=0, lt=0.5)
    beta: float = Field(0.05, gt=0, lt=0.5)
    margin: float = Field(0.03, gt=0)  # H1 lies this far outside a band
    tolerance: float = Field(0.03, ge=0)  # a shift from the baseline this large is a regression
    seed: int = 0


@dataclass
class Assertion:
    name: str
    band: Band
    kind: Literal["normal", "bernoulli", "iwd", "impact"]
    estimate: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    std_error: float = math.nan
    units: int = 0  # deals, games or card samples behind the estimate
    games: int = 0  # games played when it was decided
    verdict: str = ""  # pass | fail | skipped, and for a run's fixed sample: undecided
    method: str = ""  # sprt | undecided at N games; estimate inside/outside the band | low sample
    needed: int = 0  # a card skipped for its sample: about the games that would give it
    to_decide: int = 0  # undecided at the cap: about the games that would decide it


@dataclass
class GateResult:
    game: str
    assertions: list[Assertion]
    games: int
    planned: int
    seed: int
    rules_version: str
    config_hash: str
    stopped_early: bool
    baseline: str = ""
    bots: list[str] = field(default_factory=list)  # per seat, whole specs: the players judged
    overrides: dict[str, object] = field(default_factory=dict)  # --set and --patch, as applied

    @property
    def passed(self) -> bool:
        return all(a.verdict != "fail" for a in self.assertions)


def read_thresholds(path: Path) -> Thresholds:
    data = load_yaml(path)
    return validate(Thresholds, data if data is not None else {})


def check(
    game_name: str,
    config_dir: Path | None = None,
    thresholds_path: Path | None = None,
    overrides: Mapping[str, object] | None = None,
    max_games: int | None = None,
    jobs: int | None = None,
    baseline_path: Path | None = None,
    force: bool = False,
    full: bool = False,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> GateResult:
    """Run the gate. `full` plays every game (for saving a baseline) instead of stopping early."""
    game = load_game(game_name)
    folder = config_dir or game.config_dir
    thresholds_file = thresholds_path or folder / "balance.yaml"
    thresholds = read_thresholds(thresholds_file)
    spec = game.load(folder, overrides or {})
    baseline = (
        read_baseline(baseline_path, game.info.rules_version, force) if baseline_path else None
    )
    bots = for_game(
        game.info,
        split_bot_specs(thresholds.bots)
        if isinstance(thresholds.bots, str)
        else list(thresholds.bots),
    )
    for bot in bots:
        make_bot(bot)
    played_by = baseline.get("bots") if baseline else None
    if played_by and sorted(set(played_by)) != sorted(set(bots)) and not force:
        # a shift between two kinds of players is not a change of the game
        raise ConfigError(str(baseline_path), None, f"baseline was played by {', '.join(sorted(set(played_by)))}, the gate plays {', '.join(sorted(set(bots)))}",
                          "save a new baseline with these bots, or pass --force to compare anyway")  # fmt: skip
    decks = (
        thresholds.decks
        if thresholds.decks == "all" or isinstance(thresholds.decks, list)
        else [thresholds.decks]
    )
    seed = baseline["seed"] if baseline else thresholds.seed
    limit = baseline["games"] if baseline else (max_games or thresholds.max_games)
    schedule = make_schedule(game.info, spec.catalog, decks, bots, thresholds.seats, limit, seed)
    planned = min(
        schedule.games, -(-limit // schedule.games_per_round()) * schedule.games_per_round()
    )
    if on_start is not None:
        on_start(planned)

    lineups = [lineup.decks for lineup in schedule.lineups]
    assertions = _assertions(thresholds, schedule.seats, lineups)
    jobs = resolve_jobs(jobs)
    games = pd.DataFrame()
    tally = CardTally(len(spec.catalog.counters))
    step = schedule.games_per_round() * ROUNDS_PER_STEP
    sequential = baseline is None and not full
    stopped_early = False
    for start in range(0, planned, step):
        stop = min(start + step, planned)
        chunk, chunk_tally = play_range(
            game_name, spec, schedule, start, stop, jobs, progress=progress
        )
        games = pd.concat([games, chunk], ignore_index=True)
        tally.merge(chunk_tally)
        cards = pd.DataFrame(tally.rows(spec.catalog)) if thresholds.cards is not None else None
        _measure(assertions, games, cards, schedule.seats, thresholds)
        if sequential or stop >= planned:  # a run of fixed length looks once, at its end
            for a in assertions:
                if not a.verdict:
                    _sprt(a, thresholds, len(games))
            if all(a.verdict for a in assertions):
                stopped_early = stop < planned
                break
    for a in assertions:
        if not a.verdict:
            _fallback(a, thresholds, len(games))
    played = len(games)
    if thresholds.cards is not None and thresholds.cards.max_abs_impact is not None:
        impact, impact_games = _impact_assertions(
            game_name, folder, thresholds_file, overrides or {}, decks, bots, thresholds, seed,
            jobs, progress,
        )  # fmt: skip
        assertions += impact
        played += impact_games
    if baseline is not None:
        assertions += shifts(assertions, baseline, thresholds.tolerance, len(games))
    return GateResult(
        game_name,
        assertions,
        played,
        planned,
        seed,
        game.info.rules_version,
        spec.config_hash,
        stopped_early,
        str(baseline_path or ""),
        [*(bots * schedule.seats if len(bots) == 1 else bots)],
        dict(overrides or {}),
    )


def run_verdict(games: pd.DataFrame, cards: pd.DataFrame, t: Thresholds) -> list[Assertion]:
    """The gate's assertions judged on a finished run's games (the run's own lineups and seat
    count), at its fixed sample: each estimate and 95% interval over deals, as the gate measures
    them, against its band by `interval_verdict` (wholly inside: pass; wholly outside: fail;
    straddling an edge: undecided). A card short of `min_games` in and out of hand is skipped."""
    seats = seat_count(games)
    decks = games[[f"deck_{s}" for s in range(seats)]].drop_duplicates()
    lineups = [tuple(row) for row in decks.itertuples(index=False)]
    assertions = _assertions(t, seats, lineups)
    _measure(assertions, games, cards if t.cards is not None else None, seats, t)
    for a in assertions:
        a.games = len(games)
        if a.kind == "iwd" and (t.cards is None or a.units < t.cards.min_games):
            a.verdict, a.method = "skipped", "low sample"
        elif math.isnan(a.estimate) or math.isnan(a.ci_low):
            a.verdict, a.method = "skipped", "no games"
        else:
            a.verdict = interval_verdict(a.ci_low, a.ci_high, a.band)
            a.method = f"95% interval at {len(games):,} games"
    return assertions


def _assertions(t: Thresholds, seats: int, lineups: Sequence[Sequence[str]]) -> list[Assertion]:
    out: list[Assertion] = []
    if t.seat_advantage is not None:
        out.append(
            Assertion(
                "seat advantage", Band(-t.seat_advantage, t.seat_advantage, t.margin), "normal"
            )
        )
    own_decks = sorted({d for decks in lineups for d in decks if len(set(decks)) > 1})
    if t.deck_win_rate is not None:
        low, high = t.deck_win_rate
        out += [
            Assertion(f"deck {d} win rate", Band(low, high, t.margin), "normal") for d in own_decks
        ]
    if t.matchup_win_rate is not None and seats == 2:
        low, high = t.matchup_win_rate
        pairs = sorted({tuple(sorted(decks)) for decks in lineups if len(set(decks)) == 2})
        out += [
            Assertion(f"matchup {a} vs {b}", Band(low, high, t.margin), "normal") for a, b in pairs
        ]
    if t.cap_rate is not None:
        out.append(
            Assertion("cap rate", Band(None, t.cap_rate, max(t.cap_rate, 0.005)), "bernoulli")
        )
    return out


def _measure(
    assertions: list[Assertion],
    games: pd.DataFrame,
    cards: pd.DataFrame | None,
    seats: int,
    t: Thresholds,
) -> None:
    """Refresh every undecided assertion's estimate from the games so far and their card tally
    (cards.parquet's rows; None when no card is asserted on)."""
    units = deal_units(games, seats)
    for a in assertions:
        if a.verdict or a.kind == "iwd":
            continue
        values = units.get(a.name)
        if values is None or not len(values):
            continue
        a.estimate, a.ci_low, a.ci_high, a.std_error = unit_estimate(values, a.name, seats)
        # capped games are counted one by one; the deals' SPRTs count deals
        a.units = int(values["n"].sum()) if a.kind == "bernoulli" else len(values)
    if t.cards is not None and t.cards.max_abs_iwd is not None and cards is not None:
        _measure_cards(assertions, cards, t)


def _measure_cards(assertions: list[Assertion], cards: pd.DataFrame, t: Thresholds) -> None:
    assert t.cards is not None
    rule = t.cards
    assert rule.max_abs_iwd is not None
    known = {a.name: a for a in assertions}
    metrics = card_metrics(cards, rule.min_games)
    for row in metrics.itertuples(index=False):
        name = f"card {row.card} ({row.deck}) IWD"
        a = known.get(name)
        if a is None:
            a = Assertion(name, Band(-rule.max_abs_iwd, rule.max_abs_iwd, t.margin), "iwd")
            assertions.append(a)
            known[name] = a
        if a.verdict:
            continue
        a.units = int(min(row.drawn, row.not_drawn))
        a.estimate, a.ci_low, a.ci_high = row.iwd, row.iwd_low, row.iwd_high
        a.std_error = row.iwd_std_error


def _impact_assertions(
    game: str,
    folder: Path,
    thresholds_file: Path,
    overrides: Mapping[str, object],
    decks: Any,
    bots: list[str],
    t: Thresholds,
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> tuple[list[Assertion], int]:
    """One assertion per card with a baseline: |impact| <= max_abs_impact, decided by the same
    normal SPRT as a deck's win rate, on the per-deal paired differences (each card's deals
    played with the card and with its baseline). Cards race (balance.impact): a decided card
    stops, the others play on, until `impact_games` are spent."""
    from balance.tune import Setup

    assert t.cards is not None and t.cards.max_abs_impact is not None
    limit = t.cards.max_abs_impact
    band = Band(-limit, limit, t.margin)
    verdicts: dict[str, str] = {}

    def decide(arm: Arm, _band: float, _precision: float) -> bool:
        d = arm.differences
        if len(d) < 2:
            return False
        mean = float(d.mean())
        variance = float(d.var(ddof=1))
        verdict = band_verdict_normal(mean, variance, len(d), band, t.alpha, t.beta)
        if verdict is not None:
            verdicts[arm.card] = verdict
        return verdict is not None

    setup = Setup(game, folder, dict(overrides), decks, bots, t.seats, seed, jobs)
    settings = t.impact or ImpactSettings.model_validate({})
    result = race(
        setup, "all", ("impact",), t.cards.impact_games, band=limit, settings=settings,
        rule_data=load_yaml(thresholds_file), progress=progress, decide=decide,
    )  # fmt: skip
    out = []
    for row in result.table.itertuples(index=False):
        if not row.impact_deals:
            continue
        a = Assertion(f"card {row.card} impact", band, "impact", row.impact, row.impact_ci_low,
                      row.impact_ci_high, row.impact_std_error, int(row.impact_deals), result.games)  # fmt: skip
        if row.card in verdicts:
            a.verdict, a.method = verdicts[row.card], "sprt"
        else:
            _fallback(a, t, result.games)
        out.append(a)
    return out, result.games


def _sprt(a: Assertion, t: Thresholds, games: int) -> None:
    if math.isnan(a.estimate) or math.isnan(a.std_error):
        return
    if a.kind == "bernoulli":
        # Wald's Bernoulli SPRT on games, its counts divided by the design effect: the variance
        # over deals against the variance the same games would have if independent
        p, n = a.estimate, a.units
        independent = p * (1 - p) / n if n else 0.0
        effect = max(1.0, a.std_error**2 / independent) if independent > 0 else 1.0
        verdict = band_verdict_bernoulli(p * n / effect, n / effect, a.band, t.alpha, t.beta)
    elif a.kind == "iwd":
        if t.cards is None or a.units < t.cards.min_games:
            return
        # the estimate is a difference of two rates over many deals: one normal observation
        # with its own variance
        verdict = band_verdict_normal(
            a.estimate, a.std_error**2, 1, a.band, t.alpha, t.beta, min_units=1
        )
    else:
        verdict = band_verdict_normal(
            a.estimate, (a.std_error**2) * a.units, a.units, a.band, t.alpha, t.beta
        )
    if verdict is not None:
        a.verdict, a.method, a.games = verdict, "sprt", games


def _fallback(a: Assertion, t: Thresholds, games: int) -> None:
    """The games ran out before the SPRT decided: the estimate against the band."""
    a.games = games
    if a.kind == "iwd" and (t.cards is None or a.units < t.cards.min_games):
        a.verdict, a.method = "skipped", "low sample"
        if t.cards is not None and a.units > 0:
            a.needed = math.ceil(games * t.cards.min_games / a.units)
        return
    if math.isnan(a.estimate):
        a.verdict, a.method = "skipped", "no games"
        return
    inside = a.band.contains(a.estimate)
    a.verdict = "pass" if inside else "fail"
    a.method = (
        f"undecided at {games:,} games; estimate {'inside' if inside else 'outside'} the band"
    )
    a.to_decide = games_to_decide(games, a.std_error, a.band.margin)


def shifts(
    assertions: list[Assertion], baseline: dict[str, Any], tolerance: float, games: int
) -> list[Assertion]:
    """One assertion per metric of the baseline: |now - then| beyond the tolerance, significantly.
    Unpaired (the two standard errors added in quadrature): exact for a run on other seeds, and
    on the baseline's own seeds it only widens the interval."""
    out = []
    now = {a.name: a for a in assertions}
    for name, then in baseline["metrics"].items():
        current = now.get(name)
        if current is None or math.isnan(current.estimate) or then["estimate"] is None:
            continue
        shift = current.estimate - then["estimate"]
        se = math.sqrt((current.std_error or 0.0) ** 2 + (then["std_error"] or 0.0) ** 2)
        low, high = shift - Z95 * se, shift + Z95 * se
        band = Band(-tolerance, tolerance, 0.0)
        out.append(Assertion(f"shift of {name}", band, "normal", shift, low, high, se, current.units, games,
                             fixed_sample_verdict(low, high, band), "baseline"))  # fmt: skip
    return out


def save_baseline(result: GateResult, path: Path) -> None:
    metrics = {
        a.name: {
            "estimate": _num(a.estimate),
            "std_error": _num(a.std_error),
            "ci": [_num(a.ci_low), _num(a.ci_high)],
            "units": a.units,
        }
        for a in result.assertions
        if not a.name.startswith("shift of ")
    }
    record = {
        "game": result.game,
        "rules_version": result.rules_version,
        "config_hash": result.config_hash,
        "seed": result.seed,
        "games": result.games,
        "bots": result.bots,
        "overrides": result.overrides,
        "balance_version": balance.__version__,
        "metrics": metrics,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))


def read_baseline(path: Path, rules_version: str, force: bool) -> dict[str, Any]:
    try:
        baseline: object = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(
            str(path), None, "baseline file not found", "save one with --save-baseline"
        ) from None
    except json.JSONDecodeError as e:
        raise ConfigError(
            str(path), e.lineno, f"not a baseline file: {e.msg}", "save one with --save-baseline"
        ) from None
    if not isinstance(baseline, dict):
        raise ConfigError(
            str(path), 1, "not a baseline file: not a JSON object", "save one with --save-baseline"
        )
    if baseline.get("rules_version") != rules_version and not force:
        raise ConfigError(str(path), None, f"baseline is of rules_version {baseline.get('rules_version')}, the game is at {rules_version}",
                          "save a new baseline, or pass --force to compare anyway")  # fmt: skip
    return baseline


def write_junit(result: GateResult, path: Path) -> None:
    """JUnit XML: one testcase per assertion, so CI systems show the gate like tests."""
    from xml.etree import ElementTree as ET

    failures = sum(a.verdict == "fail" for a in result.assertions)
    skipped = sum(a.verdict == "skipped" for a in result.assertions)
    suite = ET.Element("testsuite", name=f"balance check {result.game}", tests=str(len(result.assertions)),
                       failures=str(failures), skipped=str(skipped), errors="0")  # fmt: skip
    for a in result.assertions:
        case = ET.SubElement(suite, "testcase", classname=f"balance.{result.game}", name=a.name)
        detail = describe(a)
        if a.verdict == "fail":
            ET.SubElement(case, "failure", message=detail).text = detail
        elif a.verdict == "skipped":
            ET.SubElement(case, "skipped", message=detail)
        ET.SubElement(case, "system-out").text = detail
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def describe(a: Assertion) -> str:
    band = f"[{_fmt(a.band.low)}, {_fmt(a.band.high)}]"
    need = f"; about {a.needed:,} games would give it its sample" if a.needed else ""
    if a.to_decide > a.games:
        need += f"; about {a.to_decide:,} games would decide it (--max-games)"
    return f"{a.name}: {a.estimate:+.4f} [{a.ci_low:+.4f}, {a.ci_high:+.4f}] in {band}? {a.verdict} ({a.method}{need}, {a.games} games)"


def kind_of(a: Assertion) -> str:
    """The kind of assertion, for the one-line summaries: its name without the deck or card."""
    for prefix, kind in (("shift of ", "shifts from the baseline"), ("deck ", "deck win rates"),
                         ("matchup ", "matchups"), ("card ", "card IWD")):  # fmt: skip
        if a.name.startswith(prefix):
            if kind == "card IWD" and a.kind == "impact":
                return "card impact"
            return kind
    return a.name


def summary_lines(result: GateResult) -> list[str]:
    """One line per kind of assertion that neither failed nor was undecided: how many passed
    (and how), and the cards skipped for their sample, once, with the games they would need."""
    kinds: dict[str, list[Assertion]] = {}
    for a in result.assertions:
        if not needs_attention(a):
            kinds.setdefault(kind_of(a), []).append(a)
    lines = []
    for kind, group in kinds.items():
        passed = [a for a in group if a.verdict == "pass"]
        skipped = [a for a in group if a.verdict == "skipped"]
        parts = []
        if passed:
            methods = sorted({a.method for a in passed})
            parts.append(f"{len(passed)} pass ({', '.join(methods)})")
        low = [a for a in skipped if a.method == "low sample"]
        if low:
            parts.append(_low_sample_line(low))
        other = [a for a in skipped if a.method != "low sample"]
        if other:
            parts.append(f"{len(other)} skipped (no games)")
        lines.append(f"{kind}: " + "; ".join(parts))
    return lines


def undecided_line(result: GateResult) -> str | None:
    """Once, under the assertions the cap left undecided: the games that would decide them."""
    counts = [a.to_decide for a in result.assertions if a.to_decide > a.games]
    if not counts:
        return None
    return (f"{len(counts)} undecided at the cap: about {max(counts):,} games would decide "
            f"{'it' if len(counts) == 1 else 'them'} (--max-games)")  # fmt: skip


def _low_sample_line(low: list[Assertion]) -> str:
    outside = sum(not math.isnan(a.estimate) and not a.band.contains(a.estimate) for a in low)
    needed = [a.needed for a in low if a.needed]
    line = f"{len(low)} skipped, short of their sample in and out of hand"
    if needed:
        line += f": they would need {min(needed):,} to {max(needed):,} games (--max-games)"
    if outside:
        line += f"; {outside} of them estimate outside the band"
    return line


def needs_attention(a: Assertion) -> bool:
    """Failed, or passed without being decided: shown whole, before the rest."""
    return a.verdict == "fail" or a.method.startswith("undecided")


def _fmt(value: float | None) -> str:
    return "-inf" if value is None else f"{value:g}"


def _num(value: float) -> float | None:
    return None if value is None or math.isnan(value) else value


# -- a run's verdict, for its report ------------------------------------------------------------

_RANK = {"fail": 0, "undecided": 1, "pass": 2, "skipped": 3}


def judge_run(folder: Path, baseline_path: Path | None = None) -> Verdict | None:
    """The verdict a run's report opens with: the gate's assertions of the run's balance.yaml
    judged on its games (`run_verdict`), and the shifts since a baseline (the gate's
    `--save-baseline` file: `baseline_path`, else reports/baselines/<game>.json where it
    exists), each judged the same way against the tolerance. None when the run's config has no
    balance.yaml (a plug-in may have none)."""
    run = load_run(folder)
    path = Path(run.manifest.get("config", "")) / "balance.yaml"
    if not path.is_file():
        return None
    t = read_thresholds(path)
    assertions = run_verdict(run.games, run.cards, t)
    judged = split_bot_specs(t.bots) if isinstance(t.bots, str) else list(t.bots)
    played = players(run.games, run.manifest)["bots"]
    note = ""
    if sorted(set(judged)) != sorted(set(played)):
        note = (f"balance.yaml's bands are set for {', '.join(judged)}; this run played "
                f"{', '.join(played)}: read the verdict for those players.")  # fmt: skip
    game = str(run.manifest.get("game"))
    default = Path("reports") / "baselines" / f"{game}.json"
    baseline_file = baseline_path or (default if default.is_file() else None)
    verdict = Verdict(_shown(path), verdict_frame(assertions), judged, note)
    if baseline_file is None:
        return replace(verdict, baseline_note=f"no baseline to compare with ({default} is absent)")
    baseline = read_baseline(baseline_file, str(run.manifest.get("rules_version")), force=True)
    if baseline.get("rules_version") != run.manifest.get("rules_version"):
        return replace(verdict, baseline_note=(
            f"the baseline {baseline_file} is of rules_version {baseline.get('rules_version')}, "
            f"this run of {run.manifest.get('rules_version')}: not compared"))  # fmt: skip
    measured = [a for a in assertions if a.verdict != "skipped"]
    moved = shifts(measured, baseline, t.tolerance, len(run.games))
    for a in moved:
        a.verdict = interval_verdict(a.ci_low, a.ci_high, a.band)
        a.method = "unpaired change against the tolerance"
    recorded = baseline.get("bots")
    how = (f"{baseline.get('games', 0):,} games, seed {baseline.get('seed')}, "
           + (f"bots {', '.join(recorded)}" if recorded else "its bots not recorded"))  # fmt: skip
    if recorded and sorted(set(recorded)) != sorted(set(played)):
        how += f"; this run played {', '.join(played)}, so the change mixes players"
    return replace(
        verdict, baseline=str(baseline_file), shifts=verdict_frame(moved), baseline_note=how
    )


def verdict_frame(assertions: Sequence[Assertion]) -> pd.DataFrame:
    """The assertions as the report's table: red first, then amber, green, skipped."""
    rows = [
        {
            "name": a.name,
            "estimate": _num(a.estimate),
            "ci_low": _num(a.ci_low),
            "ci_high": _num(a.ci_high),
            "band": f"[{_fmt(a.band.low)}, {'inf' if a.band.high is None else _fmt(a.band.high)}]",
            "verdict": a.verdict,
            "method": a.method,
            "order": _RANK.get(a.verdict, 4) * 100_000 + i,
        }
        for i, a in enumerate(assertions)
    ]
    columns = ["name", "estimate", "ci_low", "ci_high", "band", "verdict", "method", "order"]
    return pd.DataFrame(rows, columns=columns)


def _shown(path: Path) -> str:
    """A path as the designer reads it: relative to the working folder where it lies under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
