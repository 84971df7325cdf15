"""The true rates of an oddsduel schedule, and a sampler of its deals, both from `oddsduel.odds`.

A deal of a lineup is a state (the two tempos, and each deck's hand: which cards were in the
opening hand and which were drawn; a mirror's two seats hold the same shuffle) with exact
probabilities, and per seat rotation four outcomes with exact probabilities (stall, draw, seat 0
wins the duel, seat 1 wins it). Everything `balance` measures of a game is a quantity summed
over a deal's games (a score, a game, a capped game, a card in hand and its score, ...), so:
- `true_rates` gives each measure's true value, the ratio of the expected totals;
- `sample` draws runs of deals (numpy, no game played) and gives, per run, the sums over its
  deals of each total and of the products of two totals: all an interval over deals needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from oddsduel.odds import ROLL, OddsSpec, chances, turns

OUTCOMES = ("stall", "draw", "first", "second")  # the fate roll's two ends, then the duel's
CARD_TOTALS = ("games", "won", "drawn", "drawn_won", "not_drawn", "not_drawn_won", "opening",
               "opening_won", "played", "played_won")  # fmt: skip


@dataclass(frozen=True)
class Hand:
    probability: float
    opening: Counter[int]  # card id -> copies in the opening hand
    drawn: Counter[int]  # card id -> copies drawn after it

    def holds(self, card: int) -> bool:
        return bool(self.opening[card] or self.drawn[card])


def hands(spec: OddsSpec, deck: str) -> list[Hand]:
    """Every hand the deck can deal, with its probability (each order of the copies alike)."""
    cards = spec.deck_list[deck]
    size = spec.hand_size + spec.draws
    found: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    orders = list(permutations(range(len(cards)), size))
    for order in orders:
        picked = [cards[i] for i in order]
        found[tuple(sorted(picked[: spec.hand_size])), tuple(sorted(picked[spec.hand_size :]))] += 1
    return [Hand(n / len(orders), Counter(a), Counter(b)) for (a, b), n in found.items()]


def lineups_of(spec: OddsSpec) -> list[tuple[str, str]]:
    """`--decks all`'s lineups, in the schedule's order."""
    names = list(spec.catalog.decks)
    return [(a, b) for i, a in enumerate(names) for b in names[i:]]


class Quantities:
    """The names of the per-deal totals, each a column of `sample_deals`' arrays."""

    def __init__(self, spec: OddsSpec, lineups: Sequence[tuple[str, str]]) -> None:
        names = ["seat 0", "seat 1", "games", "draws", "caps", "turns"]
        decks = sorted({d for lineup in lineups for d in lineup})
        for deck in decks:
            names += [f"deck {deck}", f"deck {deck} games"]
        for a, b in lineups:
            if a != b:
                names += [f"matchup {a} vs {b}", f"matchup {a} vs {b} games"]
        self.cards = [(deck, card) for deck in decks for card in sorted(spec.catalog.decks[deck])]
        for deck, card in self.cards:
            names += [f"{deck}/{card} {total}" for total in CARD_TOTALS]
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}


def _lineup_table(
    spec: OddsSpec, lineup: tuple[str, str], q: Quantities
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(state probabilities [S], outcome probabilities [S, 2, 4], totals [S, 2, 4, Q]) of a
    lineup: per state, per rotation, per outcome, what one game adds to each quantity."""
    a, b = lineup
    hands_a = hands(spec, a)
    pairs = (
        [(h, h) for h in hands_a] if a == b else [(h, g) for h in hands_a for g in hands(spec, b)]
    )
    probs, odds, adds = [], [], []
    for t0 in (0, 1):
        for t1 in (0, 1):
            for ha, hb in pairs:
                probs.append(0.25 * ha.probability * (1.0 if a == b else hb.probability))
                state_odds, state_adds = [], []
                for rotation in (0, 1):
                    decks = (a, b) if rotation == 0 else (b, a)
                    held = (ha, hb) if rotation == 0 else (hb, ha)
                    o, t = _game(spec, decks, (t0, t1), held, lineup, q)
                    state_odds.append(o)
                    state_adds.append(t)
                odds.append(state_odds)
                adds.append(state_adds)
    return np.array(probs), np.array(odds), np.array(adds)


def _game(
    spec: OddsSpec,
    decks: tuple[str, str],
    tempo: tuple[int, int],
    held: tuple[Hand, Hand],
    lineup: tuple[str, str],
    q: Quantities,
) -> tuple[list[float], list[np.ndarray]]:
    """One game's four outcome probabilities and, per outcome, its totals."""
    swing = [sum(spec.swing[c] * n for c, n in (h.opening + h.drawn).items()) for h in held]
    stall, draw, first = chances(spec, decks, tempo, swing)
    duel = (ROLL - stall - draw) / ROLL
    odds = [stall / ROLL, draw / ROLL, duel * first / ROLL, duel * (ROLL - first) / ROLL]
    scores = ((0.5, 0.5), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0))
    totals = []
    for k, outcome in enumerate(OUTCOMES):
        t = np.zeros(len(q.names))
        i = q.index
        t[i["seat 0"]], t[i["seat 1"]] = scores[k]
        t[i["games"]] = 1
        t[i["draws"]] = outcome in ("stall", "draw")
        t[i["caps"]] = outcome == "stall"
        t[i["turns"]] = turns(tempo, swing[0] > 0, outcome == "draw", outcome == "stall")
        mirror = decks[0] == decks[1]
        for seat, deck in enumerate(decks):
            if not mirror:
                t[i[f"deck {deck}"]] += scores[k][seat]
                t[i[f"deck {deck} games"]] += 1
                first_deck, second_deck = sorted(lineup)
                if deck == first_deck:
                    t[i[f"matchup {first_deck} vs {second_deck}"]] += scores[k][seat]
                    t[i[f"matchup {first_deck} vs {second_deck} games"]] += 1
            for card in spec.catalog.decks[deck]:
                name = f"{deck}/{card}"
                in_hand, opening = held[seat].holds(card), bool(held[seat].opening[card])
                played = in_hand and tempo[seat] == 1
                won = scores[k][seat]
                for total, value in (("games", 1), ("won", won), ("drawn", in_hand),
                                     ("drawn_won", won * in_hand), ("not_drawn", not in_hand),
                                     ("not_drawn_won", won * (not in_hand)), ("opening", opening),
                                     ("opening_won", won * opening), ("played", played),
                                     ("played_won", won * played)):  # fmt: skip
                    t[i[f"{name} {total}"]] += value
        totals.append(t)
    return odds, totals


@dataclass
class Model:
    """A schedule's deals: per lineup, every (state, outcome of each rotation) a deal can be,
    with its probability and its totals."""

    spec: OddsSpec
    lineups: list[tuple[str, str]]
    quantities: Quantities
    deals: list[tuple[np.ndarray, np.ndarray]]  # per lineup: probabilities [C], totals [C, Q]

    @staticmethod
    def of(spec: OddsSpec, lineups: Sequence[tuple[str, str]] | None = None) -> Model:
        chosen = list(lineups) if lineups is not None else lineups_of(spec)
        q = Quantities(spec, chosen)
        deals = []
        for lineup in chosen:
            probs, odds, adds = _lineup_table(spec, lineup, q)
            # a deal: its state, then each rotation's outcome, rolled independently
            p = probs[:, None, None] * odds[:, 0, :, None] * odds[:, 1, None, :]
            totals = adds[:, 0, :, None, :] + adds[:, 1, None, :, :]
            keep = p.reshape(-1) > 0
            deals.append((p.reshape(-1)[keep], totals.reshape(-1, len(q.names))[keep]))
        return Model(spec, chosen, q, deals)

    def expected_totals(self) -> np.ndarray:
        """Per quantity, its expected total over one deal of every lineup."""
        return sum(p @ totals for p, totals in self.deals)

    def sample(self, rng: np.random.Generator, repeats: int, deals: int) -> Sample:
        """`repeats` runs of `deals` deals of every lineup."""
        counts = [rng.multinomial(deals, p / p.sum(), size=repeats) for p, _ in self.deals]
        return Sample(self, counts)


class Sample:
    """Runs of deals, as counts of each kind of deal per run; sums over a run's deals are
    computed for many totals at once (`prepare`), then read one by one."""

    def __init__(self, model: Model, counts: list[np.ndarray]) -> None:
        self.model = model
        self.counts = [c.astype(float) for c in counts]  # per lineup: [repeats, C]
        self.sums: dict[tuple[str, str], np.ndarray] = {}

    def prepare(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Sum the products of these pairs of totals ("" for a total alone) in one pass."""
        missing = list(dict.fromkeys(pair for pair in pairs if pair not in self.sums))
        if not missing:
            return
        index = self.model.quantities.index
        result = 0.0
        for counts, (_, totals) in zip(self.counts, self.model.deals):
            columns = np.stack(
                [totals[:, index[a]] * (totals[:, index[b]] if b else 1.0) for a, b in missing],
                axis=1,
            )
            result = result + counts @ columns
        for k, pair in enumerate(missing):
            self.sums[pair] = np.asarray(result)[:, k]

    def total(self, a: str) -> np.ndarray:
        """Per run, the sum over its deals of the total `a`."""
        return self.product(a, "")

    def product(self, a: str, b: str) -> np.ndarray:
        """Per run, the sum over its deals of the product of the totals `a` and `b`."""
        self.prepare([(a, b)])
        return self.sums[(a, b)]


def true_rates(model: Model) -> dict[str, float]:
    """Each measure's true value: the ratio of its expected totals."""
    e = dict(zip(model.quantities.names, model.expected_totals()))
    out = {
        "seat 0 win rate": e["seat 0"] / e["games"],
        "seat 1 win rate": e["seat 1"] / e["games"],
        "draw rate": e["draws"] / e["games"],
        "cap rate": e["caps"] / e["games"],
        "turns": e["turns"] / e["games"],
    }
    for name in model.quantities.names:
        if name.startswith(("deck ", "matchup ")) and not name.endswith(" games"):
            out[f"{name} win rate"] = e[name] / e[f"{name} games"]
    for deck, card in model.quantities.cards:
        c = {t: e[f"{deck}/{card} {t}"] for t in CARD_TOTALS}
        label = f"{deck}/{model.spec.catalog.cards[card]}"
        for metric, y, n in (("play_rate", c["played"], c["games"]),
                             ("gp_wr", c["played_won"], c["played"]),
                             ("gih_wr", c["drawn_won"], c["drawn"]),
                             ("oh_wr", c["opening_won"], c["opening"]),
                             ("gnd_wr", c["not_drawn_won"], c["not_drawn"])):  # fmt: skip
            out[f"{label} {metric}"] = y / n if n > 0 else float("nan")
        out[f"{label} iwd"] = out[f"{label} gih_wr"] - out[f"{label} gnd_wr"]
    return out


# a cards.parquet row's sums ("" for a total alone) and sums of products over deals
CARD_PAIRS = (
    ("games", ""), ("drawn", ""), ("opening", ""), ("played", ""), ("not_drawn", ""),
    ("drawn_won", ""), ("opening_won", ""), ("played_won", ""), ("not_drawn_won", ""),
    ("games", "games"), ("games", "played"), ("played", "played"), ("played", "played_won"),
    ("played_won", "played_won"), ("drawn", "drawn"), ("drawn", "drawn_won"),
    ("drawn_won", "drawn_won"), ("opening", "opening"), ("opening", "opening_won"),
    ("opening_won", "opening_won"), ("not_drawn", "not_drawn"), ("not_drawn", "not_drawn_won"),
    ("not_drawn_won", "not_drawn_won"), ("drawn", "not_drawn"), ("drawn", "not_drawn_won"),
    ("drawn_won", "not_drawn"), ("drawn_won", "not_drawn_won"),
)  # fmt: skip


def measures(model: Model) -> dict[str, tuple[str, str]]:
    """The measures of the games table: name -> (its total, the games or seat-games it is over)."""
    out = {
        "seat 0 win rate": ("seat 0", "games"),
        "seat 1 win rate": ("seat 1", "games"),
        "draw rate": ("draws", "games"),
        "cap rate": ("caps", "games"),
        "turns": ("turns", "games"),
    }
    for name in model.quantities.names:
        if name.startswith(("deck ", "matchup ")) and not name.endswith(" games"):
            out[f"{name} win rate"] = (name, f"{name} games")
    return out


def intervals(sample: Sample) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per measure, the 95% intervals over deals of every run of the sample: the games table's
    measures through `ratio_interval`, the cards' through `card_metrics` on a cards table."""
    import pandas as pd

    from balance.stats.cards import card_metrics
    from balance.stats.intervals import DealSums, ratio_interval

    out = {}
    wanted = [(a, b) for y, n in measures(sample.model).values()
              for a, b in ((y, ""), (n, ""), (y, y), (n, y), (n, n))]  # fmt: skip
    for deck, card in sample.model.quantities.cards:
        wanted += [(f"{deck}/{card} {a}", f"{deck}/{card} {b}" if b else "")
                   for a, b in CARD_PAIRS]  # fmt: skip
    sample.prepare(wanted)
    for name, (y, n) in measures(sample.model).items():
        sums = DealSums(sample.total(y), sample.total(n), sample.product(y, y),
                        sample.product(n, y), sample.product(n, n))  # fmt: skip
        _, low, high, _ = ratio_interval(sums, 0.0, np.inf if name == "turns" else 1.0)
        out[name] = (low, high)
    rows = []
    catalog = sample.model.spec.catalog
    for deck, card in sample.model.quantities.cards:
        label = f"{deck}/{catalog.cards[card]}"
        t = {total: f"{deck}/{card} {total}" for total in CARD_TOTALS}
        columns = {"deck": deck, "card": label, "copies": catalog.decks[deck][card],
                   "turn_played_sum": 0.0, "deals": 0}  # fmt: skip
        for a, b in CARD_PAIRS:
            if not b:
                columns[a] = sample.total(t[a])
            else:
                columns[f"{a}_sq" if a == b else f"{a}_x_{b}"] = sample.product(t[a], t[b])
        rows.append(pd.DataFrame(columns))
    metrics = card_metrics(pd.concat(rows, ignore_index=True))
    for label, part in metrics.groupby("card", sort=False):
        for metric in ("play_rate", "gp_wr", "gih_wr", "oh_wr", "gnd_wr", "iwd"):
            out[f"{label} {metric}"] = (part[f"{metric}_low"].to_numpy(),
                                        part[f"{metric}_high"].to_numpy())  # fmt: skip
    return out


def coverage(sample: Sample, truth: dict[str, float]) -> dict[str, float]:
    """Per measure with a true value, the share of the sample's runs whose interval holds it."""
    out = {}
    for name, (low, high) in intervals(sample).items():
        if not np.isnan(truth[name]):
            out[name] = float(np.mean((low <= truth[name]) & (truth[name] <= high)))
    return out


def wilson_coverage(sample: Sample, truth: dict[str, float], names: Sequence[str]) -> float:
    """The share of runs in which Wilson's score interval on the games (the tables' interval
    before intervals over deals) holds the truth, pooled over these measures."""
    z = 1.959963984540054
    hits = []
    for name in names:
        y, n = measures(sample.model)[name]
        wins, games = sample.total(y), sample.total(n)
        p, z2 = wins / games, z * z
        centre = (p + z2 / (2 * games)) / (1 + z2 / games)
        half = z * np.sqrt(p * (1 - p) / games + z2 / (4 * games**2)) / (1 + z2 / games)
        hits.append((centre - half <= truth[name]) & (truth[name] <= centre + half))
    return float(np.mean(hits))
