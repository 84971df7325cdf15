"""A study, run by hand (not by pytest): the coverage of every 95% interval and the gate's error
rates, on oddsduel, whose true rates are known exactly.

    .venv/bin/python tests/stats/coverage_study.py coverage [--runs 10000] [--deals 100]
    .venv/bin/python tests/stats/coverage_study.py gate [--runs 200] [--max-games 20000]

`coverage` draws runs of deals from the game's odds (oddsduel.truth; nothing is played) and
prints, per measure, the share of runs whose interval holds the truth, for the shipped odds and
for odds where seat luck or deck luck dominates. `gate` plays the real gate (`balance check`,
one process) with one assertion at a time, its band's edge on the truth (a false fail is a
fail) or the truth outside the band by the margin (a false pass is a pass), on `--runs` seeds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "tinygame" / "site"))

from oddsduel.truth import Model, coverage, measures, true_rates, wilson_coverage

from balance.core.registry import load_game

ODDS = {
    "shipped odds": {},
    "seat luck": {"rules.tempo_swing": 450, "rules.draw_chance": 0, "cards.ace.swing": 0,
                  "cards.crown.edge": 0, "cards.rust.edge": 0},
    "deck luck": {"rules.tempo_swing": 0, "rules.draw_chance": 0, "cards.ace.swing": 450},
}  # fmt: skip


def model(overrides: dict[str, object]) -> Model:
    game = load_game("oddsduel")
    return Model.of(game.load(game.config_dir, overrides))


def study_coverage(runs: int, deals: int) -> None:
    for label, overrides in ODDS.items():
        m = model(overrides)
        truth = true_rates(m)
        sample = m.sample(np.random.default_rng(1), runs, deals)
        covered = coverage(sample, truth)
        print(f"\n{label}: {runs:,} runs of {deals} deals of each of 6 lineups")
        for name, rate in sorted(covered.items(), key=lambda item: item[1]):
            print(f"  {rate:.4f}  {name}")
        print(f"  lowest {min(covered.values()):.4f}, highest {max(covered.values()):.4f}")
        decks = [name for name in measures(m) if name.startswith(("deck ", "matchup "))]
        for what, names in (
            ("seat 0 win rate", ["seat 0 win rate"]),
            ("deck and matchup win rates", decks),
        ):
            print(f"  Wilson on games, {what}: {wilson_coverage(sample, truth, names):.4f}")


def scenarios(truth: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(name, what a wrong verdict is, the assertion read, the thresholds' YAML line)."""
    seat = truth["seat 0 win rate"] - 0.5
    bold = truth["deck bold win rate"]
    matchup = truth["matchup bold vs meek win rate"]
    cap = truth["cap rate"]
    iwd = truth["bold/ace iwd"]
    return [
        ("seat advantage on the edge", "fail", "seat advantage", f"seat_advantage: {seat}"),
        ("seat advantage outside", "pass", "seat advantage", f"seat_advantage: {seat - 0.03}"),
        ("deck on the edge", "fail", "deck bold win rate", f"deck_win_rate: [0.3, {bold}]"),
        ("deck outside", "pass", "deck bold win rate", f"deck_win_rate: [0.3, {bold - 0.03}]"),
        ("matchup on the edge", "fail", "matchup bold vs meek", f"matchup_win_rate: [0.3, {matchup}]"),
        ("matchup outside", "pass", "matchup bold vs meek", f"matchup_win_rate: [0.3, {matchup - 0.03}]"),
        ("cap rate on the edge", "fail", "cap rate", f"cap_rate: {cap}"),
        ("cap rate outside", "pass", "cap rate", f"cap_rate: {cap / 2}"),  # H1: twice the band
        ("matchup half a margin inside", "fail", "matchup bold vs meek", f"matchup_win_rate: [0.3, {matchup + 0.015}]"),
        ("card IWD on the edge", "fail", "card ace (bold) IWD", f"cards: {{max_abs_iwd: {iwd}, min_games: 300}}"),
        ("card IWD half a margin inside", "fail", "card ace (bold) IWD", f"cards: {{max_abs_iwd: {iwd + 0.015}, min_games: 300}}"),
        ("card IWD outside", "pass", "card ace (bold) IWD", f"cards: {{max_abs_iwd: {iwd - 0.03}, min_games: 300}}"),
    ]  # fmt: skip


def study_gate(runs: int, max_games: int, only: str | None) -> None:
    from balance.gate import check

    truth = true_rates(model({}))
    folder = Path(tempfile.mkdtemp())
    for name, wrong, read, line in scenarios(truth):
        if only and only not in name:
            continue
        verdicts: dict[str, int] = {}
        games, started = [], time.perf_counter()
        for seed in range(runs):
            path = folder / "balance.yaml"
            path.write_text(f"bots: random\ndecks: all\nseats: 2\nmax_games: {max_games}\n"
                            f"seed: {seed}\n{line}\n")  # fmt: skip
            result = check("oddsduel", thresholds_path=path, jobs=1)
            (a,) = [a for a in result.assertions if a.name == read]
            kind = a.verdict + (" undecided" if a.method.startswith("undecided") else "")
            verdicts[kind] = verdicts.get(kind, 0) + 1
            games.append(result.games)
        wrong_share = sum(n for k, n in verdicts.items() if k.startswith(wrong)) / runs
        print(f"{name:28s} false {wrong}: {wrong_share:.3f} ({runs} runs; {verdicts}); "
              f"games median {int(np.median(games)):,}, {time.perf_counter() - started:.0f} s",
              flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["coverage", "gate"])
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--max-games", type=int, default=20000)
    parser.add_argument("--only", default=None, help="gate: the scenarios whose name holds this")
    args = parser.parse_args()
    if args.what == "coverage":
        study_coverage(args.runs or 10000, args.deals)
    else:
        study_gate(args.runs or 200, args.max_games, args.only)


if __name__ == "__main__":
    main()
