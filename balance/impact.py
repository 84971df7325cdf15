"""`balance impact`: which card is too strong, measured by intervention on common random numbers.

For each card, two changed runs replay deals of the run as the config stands ("as is"): the same
seeds, the same lineups, every seat rotation.

- impact: the card replaced by its baseline (balance.yaml `impact.baseline`: the card takes the
  listed fields of a plain card of its kind, as `--set` would set them), in the lineups where some
  seats hold the card and some do not. Its value: the holders' win rate as is minus with the
  baseline. Where every seat holds the card (a mirror, a shared setup) a replacement changes every
  side alike, so it is not measured there.
- restricted: the holders' bots barred from playing the card (balance.bots.barred; Jaffe et al.
  2012), in every lineup that holds it; in a lineup where every seat holds it, the lineup's first
  position alone is barred and is the side measured. Its value: the side's win rate as is minus
  barred.

Both are paired over deals (balance.stats.impact). The budget is spent by racing: every card
plays a few deals, then each measure whose 95% interval still straddles an edge of the
designer's band [-band, band], or is wider than +-precision, plays on, more deals each round, the
others stop. `max_games` caps the whole run (as-is games included). Repeated looks make a racing
interval a little optimistic; the gate (balance.gate) decides with an SPRT instead.

Every step is kept in a TrialStore (balance.tune): `--resume DIR` replays the race, reading
finished steps back, to the same table. A signal keeps the cards measured so far.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from balance.core.config import fail, read_config, value_at
from balance.core.errors import ConfigError, DataWarning, did_you_mean
from balance.core.registry import load_game
from balance.sim.records import CardTally
from balance.sim.runner import BatchResult, batches, run_batches
from balance.sim.schedule import Lineup, Schedule, make_schedule
from balance.sim.stop import Stopped
from balance.stats.impact import IMPACT_COLUMNS, band_verdict, paired_impact, rank, side_units
from balance.stats.sequential import MIN_UNITS
from balance.tune import Setup, Trial, TrialStore, setup_key

MEASURES = ("impact", "restricted")
FIRST_DEALS = MIN_UNITS  # deals a measure plays before its interval is read
Progress = Callable[[int], None]


class Baseline(BaseModel):
    """balance.yaml `impact.baseline`: what a card is replaced by."""

    model_config = ConfigDict(extra="forbid")
    cards: list[str] = Field(min_length=1)  # plain cards, one per value of `same`
    same: str | None = None  # a card's baseline is the listed card with the same value of this
    fields: list[str] = Field(min_length=1)  # what the card takes from its baseline


class ImpactSettings(BaseModel):
    """balance.yaml `impact`."""

    model_config = ConfigDict(extra="forbid")
    band: float = Field(0.05, gt=0, lt=1)  # the designer's band on |impact|
    precision: float = Field(0.05, gt=0, lt=1)  # the interval's half-width to reach
    baseline: Baseline | None = None


def baselines(
    settings: ImpactSettings, docs: Any, rule_data: Any, cards: Sequence[str]
) -> dict[str, tuple[str, dict[str, object]]]:
    """Per card: (its baseline's id, the overrides that put the baseline's fields on it). A card
    with no baseline of its kind is left out. `docs` are the config's documents, `rule_data` the
    balance.yaml mapping (for errors naming its lines)."""
    rule = settings.baseline
    if rule is None:
        return {}
    where = ("impact", "baseline")
    plain: dict[Any, tuple[str, dict[str, Any]]] = {}
    for i, name in enumerate(rule.cards):
        try:
            text = value_at(docs.data, f"cards.{name}")
        except ConfigError:
            known = [str(c.get("id")) for c in _card_list(docs)]
            raise fail(
                rule_data, (*where, "cards", i), f"no card '{name}'", did_you_mean(name, known)
            ) from None
        if rule.same is not None and rule.same not in text:
            raise fail(
                rule_data,
                (*where, "same"),
                f"card '{name}' has no field '{rule.same}'",
                did_you_mean(rule.same, [str(k) for k in text]),
            )
        for f, wanted in enumerate(rule.fields):
            if wanted in ("id",) or (
                wanted not in text and not any(wanted in c for c in _card_list(docs))
            ):
                raise fail(
                    rule_data,
                    (*where, "fields", f),
                    f"no card has a field '{wanted}' to take from a baseline",
                    did_you_mean(wanted, [str(k) for k in text if k != "id"]),
                )
        plain[text.get(rule.same) if rule.same else None] = (name, text)
    out = {}
    for card in cards:
        text = value_at(docs.data, f"cards.{card}")
        found = plain.get(text.get(rule.same) if rule.same else None)
        if found is None or found[0] == card:
            continue
        name, base = found
        overrides: dict[str, object] = {}
        for wanted in rule.fields:
            if wanted in base:
                value: object = base[wanted]
            elif wanted in text:  # the plain card has none: an empty one of the card's kind
                value = [] if isinstance(text[wanted], list) else {}
            else:
                continue
            overrides[f"cards.{card}.{wanted}"] = _plain(value)
        out[card] = (name, overrides)
    return out


def _card_list(docs: Any) -> list[Any]:
    cards = docs["cards"]
    items = cards.get("cards", []) if isinstance(cards, dict) else cards
    return [c for c in items if isinstance(c, dict)]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# -- the arms of the race -------------------------------------------------------------------------


@dataclass
class Arm:
    """One card's changed run: its trial, and its measure so far."""

    card: str
    measure: str  # impact | restricted
    holders: frozenset[str]  # the decks that hold the card
    trial: Trial
    baseline: str = ""
    result: dict[str, float] = field(default_factory=dict)
    differences: np.ndarray = field(
        default_factory=lambda: np.zeros(0)
    )  # per deal, as is - changed
    deals: int = 0  # deals per lineup it is to have played
    racing: bool = True

    @property
    def seeds(self) -> set[int]:
        return set(self.trial.games["seed"]) if len(self.trial.games) else set()


@dataclass
class ImpactResult:
    table: pd.DataFrame  # one row per card, ranked (balance.stats.impact.rank)
    as_is: Trial
    band: float
    precision: float
    games: int
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)


def choose_cards(text: str, catalog: Any, lineups: Sequence[Lineup]) -> list[str]:
    """`all` (every card a deck of the lineups holds), `deck:NAME` (that deck's cards), or ids."""
    decks = {d for lineup in lineups for d in lineup.decks}
    held = sorted(
        {c for d in decks for c, copies in catalog.decks[d].items() if copies},
        key=lambda c: c,
    )
    if text == "all":
        return [catalog.cards[c] for c in held]
    if text.startswith("deck:"):
        name = text.removeprefix("deck:")
        if name not in catalog.decks:
            raise ConfigError(
                "--cards", None, f"unknown deck '{name}'", did_you_mean(name, list(catalog.decks))
            )
        return [catalog.cards[c] for c in sorted(catalog.decks[name]) if catalog.decks[name][c]]
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in catalog.cards:
            raise ConfigError(
                "--cards", None, f"unknown card '{name}'", did_you_mean(name, list(catalog.cards))
            )
        if catalog.cards.index(name) not in held:
            raise ConfigError(
                "--cards",
                None,
                f"no deck of these lineups holds '{name}'",
                "choose --decks that hold it",
            )
    if not names:
        raise ConfigError("--cards", None, "no card named", "e.g. --cards ember_fox_1 or all")
    return names


def make_arms(
    setup: Setup,
    schedule: Schedule,
    spec: Any,
    cards: Sequence[str],
    replaced: dict[str, tuple[str, dict[str, object]]],
    measures: Sequence[str],
) -> list[Arm]:
    """Every card's arms, each config loaded (and checked) before any game is played."""
    game = load_game(setup.game)
    catalog = spec.catalog
    arms = []
    for card in cards:
        index = catalog.cards.index(card)
        holders = frozenset(d for d, contents in catalog.decks.items() if contents.get(index))
        held = [[d in holders for d in lineup.decks] for lineup in schedule.lineups]
        if "impact" in measures and card in replaced:
            lineups = [i for i, h in enumerate(held) if any(h) and not all(h)]
            if lineups:
                name, overrides = replaced[card]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DataWarning)  # the base config's to report
                    changed = game.load(setup.config_dir, {**setup.overrides, **overrides})
                trial = Trial(
                    dict(overrides), 1, spec=changed, schedule=schedule.pick(lineups),
                    seats=schedule.seats, catalog=catalog, key=f"impact-{card}",
                )  # fmt: skip
                arms.append(Arm(card, "impact", holders, trial, name))
        if "restricted" in measures:
            lineups = [i for i, h in enumerate(held) if any(h)]
            barred = []
            for i in lineups:
                lineup, h = schedule.lineups[i], held[i]
                seats = [
                    card if (x and not all(h)) or (all(h) and s == 0) else ""
                    for s, x in enumerate(h)
                ]
                barred.append(Lineup(lineup.decks, lineup.bots, tuple(seats)))
            trial = Trial(
                {}, 1, spec=spec, schedule=schedule.pick(lineups, barred), seats=schedule.seats,
                catalog=catalog, key=f"restricted-{card}",
            )  # fmt: skip
            arms.append(Arm(card, "restricted", holders, trial))
    return arms


# -- the race -------------------------------------------------------------------------------------


def check_inputs(
    setup: Setup, cards_text: str, settings: ImpactSettings | None, rule_data: Any
) -> None:
    """Raise the ConfigError a race would raise for its cards and baselines, before any output
    (a progress bar) is shown."""
    game = load_game(setup.game)
    spec = game.load(setup.config_dir, setup.overrides)
    schedule = make_schedule(
        game.info, spec.catalog, setup.decks, setup.bots, setup.seats, 1, setup.seed
    )
    cards = choose_cards(cards_text, spec.catalog, schedule.lineups)
    docs = read_config(setup.config_dir, overrides=setup.overrides)
    baselines(settings or ImpactSettings.model_validate({}), docs, rule_data, cards)


def race(
    setup: Setup,
    cards_text: str = "all",
    measures: Sequence[str] = MEASURES,
    max_games: int = 20000,
    band: float | None = None,
    precision: float | None = None,
    settings: ImpactSettings | None = None,
    rule_data: Any = None,
    progress: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
    folder: Path | None = None,
    resume: bool = False,
    decide: Callable[[Arm, float, float], bool] | None = None,
) -> ImpactResult:
    """Measure the cards `cards_text` names (see the module). `decide(arm, band, precision)`
    replaces the racing rule (the gate's SPRT): True once the arm may stop."""
    game = load_game(setup.game)
    settings = settings or ImpactSettings.model_validate({})
    band = settings.band if band is None else band
    precision = settings.precision if precision is None else precision
    spec = game.load(setup.config_dir, setup.overrides)
    schedule = make_schedule(
        game.info, spec.catalog, setup.decks, setup.bots, setup.seats, max_games, setup.seed
    )
    cards = choose_cards(cards_text, spec.catalog, schedule.lineups)
    docs = read_config(setup.config_dir, overrides=setup.overrides)
    replaced = baselines(settings, docs, rule_data, cards)
    as_is = Trial({}, 0, spec=spec, schedule=schedule, seats=schedule.seats, catalog=spec.catalog, key="as-is")  # fmt: skip
    arms = make_arms(setup, schedule, spec, cards, replaced, measures)
    notes = []
    if "impact" in measures:
        if settings.baseline is None:
            notes.append("impact: balance.yaml declares no baseline (impact.baseline)")
        unmeasured = sorted(
            {a.card for a in arms} - {a.card for a in arms if a.measure == "impact"}
        )
        if unmeasured and settings.baseline is not None:
            notes.append(
                f"impact: not measured for {len(unmeasured)} cards (no baseline of their kind, "
                "or every seat holds them: a replacement changes every side alike)"
            )
    store = None
    if folder is not None:
        key = setup_key(
            setup, command="impact", cards=cards, measures=list(measures), max_games=max_games,
            band=band, precision=precision, baseline=settings.model_dump(),
        )  # fmt: skip
        store = TrialStore(folder, key, resume)
        for trial in [as_is, *(a.trial for a in arms)]:
            trial.store = store
    if on_start is not None:
        on_start(max_games, store.stored() if store is not None else 0)
    decide = decide or _precise_enough
    interrupted = False
    for arm in arms:
        arm.deals = FIRST_DEALS
    try:
        while any(a.racing for a in arms):
            live = [a for a in arms if a.racing]
            wanted = max(a.deals for a in live)
            steps = [(as_is, wanted * schedule.games_per_round())] + [
                (a.trial, a.deals * a.trial.schedule.games_per_round()) for a in live
            ]
            held = len(as_is.games) + sum(len(a.trial.games) for a in arms)
            cost = sum(max(0, t.rounded(total) - len(t.games)) for t, total in steps)
            if held + cost > max_games:
                # the cap: the last round shrinks to what is left; an arm that cannot grow stops
                if not _shrink(live, (max_games - held) / cost):
                    break
                continue
            todo = [(t, t.to_play(total)) for t, total in steps]  # finished steps read back
            _play_all(setup, [(t, r) for t, r in todo if r is not None], progress)
            for arm in live:
                _measure(arm, as_is)
                if decide(arm, band, precision) or arm.deals >= schedule.deals:
                    arm.racing = False
                else:
                    arm.deals = min(schedule.deals, _next_deals(arm, band, precision))
    except KeyboardInterrupt:
        interrupted = True
    for arm in arms:  # every step played counts, the last one too (a stop may follow it)
        if len(arm.trial.games):
            _measure(arm, as_is)
    table = _table(cards, arms, band, replaced)
    games = len(as_is.games) + sum(len(a.trial.games) for a in arms)
    return ImpactResult(table, as_is, band, precision, games, interrupted, notes)


def _played_deals(arm: Arm) -> int:
    deals: int = len(arm.trial.games) // arm.trial.schedule.games_per_round()
    return deals


def _shrink(live: Sequence[Arm], share: float) -> bool:
    """Cut each live arm's next step to `share` of it; False if no arm can still grow."""
    grows = False
    for arm in live:
        done = _played_deals(arm)
        arm.deals = done + math.floor((arm.deals - done) * share)
        if arm.deals <= done:
            arm.racing = False
        grows = grows or arm.racing
    return grows


def _measure(arm: Arm, as_is: Trial) -> None:
    base = side_units(as_is.games, arm.holders)
    changed = side_units(arm.trial.games, arm.holders)
    arm.result = paired_impact(base, changed)
    both = base.add_suffix("_1").join(changed.add_suffix("_2"), how="inner")
    arm.differences = (both["y_1"] / both["n_1"] - both["y_2"] / both["n_2"]).to_numpy()


def half_width(result: dict[str, float]) -> float:
    return (result["ci_high"] - result["ci_low"]) / 2


def _precise_enough(arm: Arm, band: float, precision: float) -> bool:
    """Stop once the interval is within +-precision and does not straddle an edge of the band,
    or, at an edge, within +-precision/2 (the band cannot be told apart any finer)."""
    r = arm.result
    if r.get("deals", 0) < FIRST_DEALS or math.isnan(r["ci_low"]):
        return False
    width = half_width(r)
    if band_verdict(r["ci_low"], r["ci_high"], band) == "at the edge":
        return width <= precision / 2
    return width <= precision


def _next_deals(arm: Arm, band: float, precision: float) -> int:
    """Deals per lineup for the next round: enough for the interval to reach its target if its
    spread holds (1/sqrt(deals)), at least a quarter more, at most twice as many."""
    r = arm.result
    width = half_width(r) if not math.isnan(r.get("ci_low", math.nan)) else 2 * precision
    edge = band_verdict(r.get("ci_low", -1), r.get("ci_high", 1), band) == "at the edge"
    target = precision / 2 if edge else precision
    needed = math.ceil(arm.deals * (width / target) ** 2 * 1.1)
    return max(math.ceil(arm.deals * 1.25), min(2 * arm.deals, needed))


def _play_all(
    setup: Setup, steps: list[tuple[Trial, tuple[int, int]]], progress: Progress | None
) -> int:
    """Play every trial's step in one stream of batches (the workers stay busy from one trial to
    the next); a trial takes its games once all its batches are back. Raises Stopped if stopped."""
    jobs = setup.jobs
    total = sum(stop - start for _, (start, stop) in steps)
    size = max(1, total // (jobs * 8))
    work = [
        (k, batch)
        for k, (trial, (start, stop)) in enumerate(steps)
        for batch in batches(setup.game, trial.spec, trial.schedule, size, start, stop)
    ]
    expected = [sum(1 for owner, _ in work if owner == k) for k in range(len(steps))]
    results: list[list[BatchResult]] = [[] for _ in steps]
    played = 0
    stream = run_batches((batch for _, batch in work), jobs, stop=setup.stop)
    for (k, _), result in zip(work, stream):
        results[k].append(result)
        played += len(result.rows)
        if progress is not None:
            progress(len(result.rows))
        if len(results[k]) == expected[k]:
            trial = steps[k][0]
            tally = CardTally(len(trial.spec.catalog.counters))
            for r in results[k]:
                tally.merge(r.tally)
            frames = [r.rows.frame() for r in results[k]]
            trial.extend(pd.concat(frames, ignore_index=True), tally)
    if setup.stop is not None and setup.stop.is_set():
        raise Stopped(setup.stop.signal)
    return played


def _table(
    cards: Sequence[str],
    arms: Sequence[Arm],
    band: float,
    replaced: dict[str, tuple[str, dict[str, object]]],
) -> pd.DataFrame:
    rows = []
    by = {(a.card, a.measure): a for a in arms}
    for card in cards:
        row: dict[str, Any] = {"card": card}
        holders = next((a.holders for a in arms if a.card == card), frozenset())
        row["decks"] = ",".join(sorted(holders))
        row["baseline"] = replaced.get(card, ("", {}))[0]
        for measure in MEASURES:
            arm = by.get((card, measure))
            result = arm.result if arm is not None and arm.result else {}
            row[measure] = result.get("estimate", math.nan)
            for column in IMPACT_COLUMNS[1:]:
                row[f"{measure}_{column}"] = result.get(
                    column, math.nan if column != "deals" else 0
                )
            row[f"{measure}_games"] = len(arm.trial.games) if arm is not None else 0
        rows.append(row)
    return rank(pd.DataFrame(rows), band)
