"""Deals: a seed with a lineup, played in every seat rotation. Its rotations are different games
(mirrors included) on the same seed; batches hold whole deals; the card tally keeps, per deal,
the products of its totals that the intervals over deals need, exactly."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest

from balance.bots import make_bot
from balance.core.contract import DRAWN, OPENING, PLAYED, SCORE_UNITS
from balance.core.registry import load_game
from balance.sim.play import GameRecord, play_game
from balance.sim.records import DEAL_COLUMNS, CardTally
from balance.sim.runner import batches
from balance.sim.schedule import make_schedule
from balance.sim.simulate import RunOptions, simulate


def test_the_rotations_of_a_mirror_deal_are_different_games(tmp_path: Path) -> None:
    simulate(RunOptions("tinyduel", out=tmp_path / "run", games=400, jobs=1))
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    mirrors = games[games["deck_0"] == games["deck_1"]]
    assert len(mirrors) == 2 * 134  # plain vs plain, wild vs wild: 67 deals each
    seen = mirrors.groupby("seed").apply(
        lambda deal: deal[["score_0", "turns", "decisions"]].drop_duplicates().shape[0],
        include_groups=False,
    )
    assert (seen == 2).mean() > 0.5  # the same game twice would show one row per deal

    # choice by choice: no two rotations of a deal play the same game
    game = load_game("tinyduel")
    spec = game.load(game.config_dir)
    schedule = make_schedule(game.info, spec.catalog, "all", ["random"], 2, games=60)
    bots = [make_bot("random")] * 2
    plays: dict[int, list[list[int]]] = defaultdict(list)
    for index in range(schedule.games):
        slot = schedule.slot(index)
        choices: list[int] = []
        plays[slot.deal].append(choices)
        play_game(game, spec, slot.lineup.decks, bots, slot.seed, rotation=slot.rotation,
                  trace=lambda state, decision, option, kept=choices: kept.append(option))  # fmt: skip
    assert all(first != second for first, second in plays.values())


def test_batches_hold_whole_deals() -> None:
    game = load_game("tinyduel")
    spec = game.load(game.config_dir)
    schedule = make_schedule(game.info, spec.catalog, "all", ["random"], 3, games=90)
    cuts = [(b.start, b.stop) for b in batches("tinyduel", spec, schedule, 7)]
    assert all(start % 3 == 0 and stop % 3 == 0 for start, stop in cuts)  # 7 -> 9 games
    assert cuts[0] == (0, 9) and cuts[-1][1] == schedule.games
    with pytest.raises(ValueError, match="split a deal"):
        next(batches("tinyduel", spec, schedule, 6, start=4))


def test_the_card_tally_keeps_exact_sums_over_deals(tmp_path: Path) -> None:
    """cards.parquet against the same sums computed here, game by game, from the games table and
    each game's opening (oddsduel deals and plays its hands when the game is set up)."""
    out = tmp_path / "run"
    simulate(RunOptions("oddsduel", out=out, games=600, jobs=1, batch_size=10))
    games = pd.read_parquet(out / "games.parquet")
    cards = pd.read_parquet(out / "cards.parquet").set_index(["deck", "card"])
    game = load_game("oddsduel")
    spec = game.load(game.config_dir)
    # per deal, per (deck, card): [g, w, d, dw, o, ow, p, pw]; w in score units
    totals: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0] * 8)
    for row in games.itertuples():
        decks = (row.deck_0, row.deck_1)
        state = game.new_game(spec, decks, row.seed)
        marks: dict[tuple[int, int], set[int]] = defaultdict(set)
        for _, seat, card, kind, _ in state.events:
            marks[(seat, card)].add(kind)
        for seat, deck in enumerate(decks):
            won = round(getattr(row, f"score_{seat}") * SCORE_UNITS)
            for card in spec.catalog.decks[deck]:
                kinds = marks[(seat, card)]
                held, opening, played = (
                    bool(kinds & {OPENING, DRAWN}),
                    OPENING in kinds,
                    PLAYED in kinds,
                )
                t = totals[(row.seed, deck, card)]
                for k, value in enumerate((1, won, held, won * held, opening, won * opening,
                                           played, won * played)):  # fmt: skip
                    t[k] += value
    sums: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (_, deck, card), (g, w, d, dw, o, ow, p, pw) in totals.items():
        s = sums[(deck, spec.catalog.cards[card])]
        nd, ndw = g - d, w - dw
        s["deals"] += 1
        for name, value in (("games_sq", g * g), ("games_x_played", g * p), ("played_sq", p * p),
                            ("played_x_played_won", p * pw), ("played_won_sq", pw * pw),
                            ("drawn_sq", d * d), ("drawn_x_drawn_won", d * dw),
                            ("drawn_won_sq", dw * dw), ("opening_sq", o * o),
                            ("opening_x_opening_won", o * ow), ("opening_won_sq", ow * ow),
                            ("not_drawn_sq", nd * nd), ("not_drawn_x_not_drawn_won", nd * ndw),
                            ("not_drawn_won_sq", ndw * ndw), ("drawn_x_not_drawn", d * nd),
                            ("drawn_x_not_drawn_won", d * ndw), ("drawn_won_x_not_drawn", dw * nd),
                            ("drawn_won_x_not_drawn_won", dw * ndw)):  # fmt: skip
            wins = name.count("won") * (2 if name.endswith("_sq") else 1)
            s[name] += value / SCORE_UNITS**wins  # products of score units, back to scores
    assert set(sums) == set(cards.index)
    for key, expected in sums.items():
        for column in DEAL_COLUMNS:
            assert cards.loc[key, column] == pytest.approx(expected[column], rel=1e-12), (
                key,
                column,
            )


def record(decks: tuple[str, ...], scores: tuple[float, ...], error: str = "") -> GameRecord:
    events = [(0, 0, 0, OPENING, 1), (1, 1, 0, DRAWN, 1), (1, 1, 0, PLAYED, 1)]
    return GameRecord(0, decks, ("random",) * 2, -1, scores, 5, 9, False, "x", error,
                      events=events)  # fmt: skip


def test_a_crashed_game_leaves_its_deal_out_and_deals_merge_in_any_grouping() -> None:
    whole, parts = CardTally(0), [CardTally(0), CardTally(0)]
    games = [(0, record(("A", "B"), (1.0, 0.0))), (0, record(("B", "A"), (0.5, 0.5))),
             (1, record(("A", "B"), (0.0, 1.0))), (1, record(("B", "A"), (0.0, 0.0), "boom")),
             (2, record(("A", "A"), (1.0, 0.0))), (2, record(("A", "A"), (0.0, 1.0)))]  # fmt: skip
    for k, (deal, game) in enumerate(games):
        whole.add_game(deal, game)
        parts[k // 4].add_game(deal, game)  # deals 0 and 1, then deal 2
    parts[0].merge(parts[1])
    whole.close_deal()  # a tally adds a deal once the next one starts, or when it is read
    assert parts[0].decks == whole.decks and parts[0].cards == whole.cards
    # deal 1 is left out; A: 2 seat-games in deal 0 (won 1 + 0.5), 4 in deal 2 (won 2)
    games_a, won_a, deals_a, games_sq, games_x_won, won_sq = whole.decks["A"]
    assert (games_a, deals_a, won_a) == (6, 2, 3.5 * SCORE_UNITS)
    assert (games_sq, games_x_won) == (2 * 2 + 4 * 4, (2 * 1.5 + 4 * 2) * SCORE_UNITS)
    assert won_sq == (1.5**2 + 2**2) * SCORE_UNITS**2
