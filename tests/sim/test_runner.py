"""The runner: same command, same seed -> same tables, whatever the jobs or batch size."""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from random import Random

import pandas as pd
import pytest

import balance.bots as bots_module
from balance.core.contract import Decision, State
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.schedule import make_schedule
from balance.sim.simulate import RunOptions, simulate


def run(tmp_path: Path, name: str, **kw) -> Path:
    out = tmp_path / name
    simulate(RunOptions("tinyduel", out=out, **kw))
    return out


def tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(folder / "games.parquet"), pd.read_parquet(folder / "cards.parquet")


def test_tables_do_not_depend_on_jobs_or_batch_size(tmp_path: Path) -> None:
    one = tables(run(tmp_path, "a", games=600, jobs=1, batch_size=600))
    small = tables(run(tmp_path, "b", games=600, jobs=1, batch_size=7))
    two = tables(run(tmp_path, "c", games=600, jobs=2, batch_size=13))
    for other in (small, two):
        pd.testing.assert_frame_equal(one[0], other[0])
        pd.testing.assert_frame_equal(one[1], other[1])


def test_a_different_seed_gives_different_games(tmp_path: Path) -> None:
    a, _ = tables(run(tmp_path, "a", games=100, jobs=1, seed=1))
    b, _ = tables(run(tmp_path, "b", games=100, jobs=1, seed=2))
    assert not a["seed"].equals(b["seed"])


def test_every_deal_is_played_in_every_seat_rotation(tmp_path: Path) -> None:
    games, _ = tables(run(tmp_path, "a", games=60, jobs=1, decks=["plain", "wild"]))
    for seed, deal in games.groupby("seed"):
        assert sorted(deal["rotation"]) == [0, 1]
        assert sorted(deal["deck_0"]) == ["plain", "wild"]


def test_schedule_covers_every_pairing_once_with_its_rotations() -> None:
    game = load_game("tinyduel")
    spec = game.load(game.config_dir)
    schedule = make_schedule(game.info, spec.catalog, "all", ["random"], 2, games=12)
    assert [lineup.decks for lineup in schedule.lineups] == [
        ("plain", "plain"),
        ("plain", "wild"),
        ("wild", "wild"),
    ]
    assert schedule.games == 12
    three = make_schedule(
        game.info, spec.catalog, ["plain", "wild", "wild"], ["random"], 3, games=3
    )
    seats = [three.slot(i).lineup.decks for i in range(3)]
    assert seats == [
        ("plain", "wild", "wild"),
        ("wild", "wild", "plain"),
        ("wild", "plain", "wild"),
    ]


def test_card_tally_counts_match_the_games(tmp_path: Path) -> None:
    games, cards = tables(run(tmp_path, "a", games=200, jobs=1, decks=["plain", "wild"]))
    plain = cards[cards["deck"] == "plain"]
    seat_games = (games[[f"deck_{s}" for s in range(2)]] == "plain").sum().sum()
    assert (plain["games"] == seat_games).all()
    assert (plain["drawn"] + plain["not_drawn"] == plain["games"]).all()
    assert (plain["played"] <= plain["games"]).all()
    wins = sum(games.loc[games[f"deck_{s}"] == "plain", f"score_{s}"].sum() for s in range(2))
    assert (plain["drawn_won"] + plain["not_drawn_won"]).round(9).eq(round(wins, 9)).all()


@dataclass
class CrashingBot:
    """Raises on its third decision: stands in for a rules bug."""

    name: str = "crasher"

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        if len(state.events) > 8:
            raise RuntimeError("boom")
        return 0


def test_a_game_that_raises_is_recorded_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(bots_module.BOTS, "crasher", lambda: CrashingBot)
    out = tmp_path / "run"
    outcome = simulate(
        RunOptions(
            "tinyduel",
            out=out,
            games=20,
            jobs=1,
            decks=["plain", "wild"],
            bots=["crasher", "random"],
        )
    )
    games, _ = tables(out)
    crashes = json.loads((out / "crashes.json").read_text())
    assert outcome.crashed == len(crashes) == 20 and len(games) == 20
    assert (games["error"] == "RuntimeError: boom").all()
    first = crashes[0]
    game = load_game("tinyduel")
    record = play_game(
        game,
        game.load(game.config_dir),
        first["decks"],
        [CrashingBot(), CrashingBot()],
        first["seed"],
        forced=first["choices"],
    )
    assert record.error == "RuntimeError: boom"  # seed + choices reproduce it


def test_ctrl_c_keeps_the_finished_batches(tmp_path: Path) -> None:
    out = tmp_path / "run"
    seen = []

    def interrupt_after_two(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    outcome = simulate(
        RunOptions("tinyduel", out=out, games=100, jobs=1, batch_size=10),
        progress=interrupt_after_two,
    )
    games, cards = tables(out)
    manifest = json.loads((out / "run.json").read_text())
    assert outcome.interrupted and manifest["interrupted"]
    assert len(games) == 20 == manifest["games"] and list(games["game"]) == list(range(20))
    assert cards["games"].max() > 0


def test_run_manifest_has_the_design_fields(tmp_path: Path) -> None:
    manifest = json.loads((run(tmp_path, "a", games=10, jobs=1) / "run.json").read_text())
    for key in (
        "version",
        "game",
        "rules_version",
        "config_hash",
        "command",
        "seed",
        "jobs",
        "backend",
        "started",
        "finished",
        "wall_seconds",
        "games",
        "crashed",
        "git_commit",
    ):
        assert key in manifest


def test_a_worker_plays_each_batch_with_the_spec_that_batch_carries() -> None:
    from balance.sim.runner import batches, spec_of

    game = load_game("beings")
    shipped = game.load(game.config_dir)
    changed = game.load(game.config_dir, {"cards.ember_fox_1.power": 9})
    schedule = make_schedule(game.info, shipped.catalog, "all", ["random"], None, 8, 1)
    first = next(batches("beings", shipped, schedule, 4))
    second = next(batches("beings", changed, schedule, 4))
    for batch, spec in ((first, shipped), (second, changed), (first, shipped)):
        assert spec_of(batch).config_hash == spec.config_hash
    assert shipped.config_hash != changed.config_hash


@pytest.mark.parametrize("batch_size", [1, 2, 7, 50])
def test_every_batch_holds_whole_deals(batch_size: int) -> None:
    """A deal (one seed, every seat rotation) is never split between batches, so per-deal sums
    can be made in a worker; a range that would split a deal is refused."""
    from balance.sim.runner import batches

    game = load_game("tinyduel")
    spec = game.load(game.config_dir)
    schedule = make_schedule(game.info, spec.catalog, ["plain", "wild", "wild"], ["random"], 3, 60)
    ranges = [(b.start, b.stop) for b in batches("tinyduel", spec, schedule, batch_size)]
    assert ranges[0][0] == 0 and ranges[-1][1] == schedule.games
    assert all(stop == start for (_, stop), (start, _) in pairwise(ranges))
    assert all(start % 3 == 0 and stop % 3 == 0 for start, stop in ranges)
    with pytest.raises(ValueError, match="split a deal"):
        next(batches("tinyduel", spec, schedule, batch_size, 4, 39))


def test_a_batch_that_keeps_killing_its_worker_ends_the_run_with_one_error() -> None:
    """Each loss replaces the workers and submits the batches in flight again, in order;
    RETRIES losses in a row without a batch back give up with RunFailed."""
    from balance.core.errors import RunFailed
    from balance.sim.runner import RETRIES, WorkerLost, batches, stream

    class DoomedPool:
        in_flight = 2

        def __init__(self) -> None:
            self.submitted: list[int] = []
            self.replaced = 0

        def submit(self, batch):  # type: ignore[no-untyped-def]
            self.submitted.append(batch.start)
            return batch

        def result(self, handle, timeout):  # type: ignore[no-untyped-def]
            raise WorkerLost("killed by signal 9")

        def replace_workers(self) -> bool:
            self.replaced += 1
            return True

        def cancel(self, handles) -> None:  # type: ignore[no-untyped-def]
            pass

    game = load_game("tinyduel")
    spec = game.load(game.config_dir)
    schedule = make_schedule(game.info, spec.catalog, "all", ["random"], 2, 60)
    pool = DoomedPool()
    lost: list[str] = []
    with pytest.raises(RunFailed, match=r"a worker died playing games 0-9, 3 times in a row"):
        list(stream(pool, batches("tinyduel", spec, schedule, 10), on_lost=lost.append))
    assert pool.replaced == RETRIES - 1 and len(lost) == RETRIES
    assert pool.submitted == [0, 10] * RETRIES  # the same batches, in the same order


def test_a_batch_of_small_seeds_keeps_them_uint64_so_tables_do_not_depend_on_batching() -> None:
    from balance.sim.records import GameRows

    small, large = GameRows(2, ()), GameRows(2, ())
    small.columns["seed"] = [1, 2]
    large.columns["seed"] = [2**63 + 1, 3]
    for rows in (small, large):
        for name, values in rows.columns.items():
            if name != "seed":
                values.extend([0, 0])
    joined = pd.concat([small.frame(), large.frame()], ignore_index=True)
    # pandas alone: int64 then uint64, joined as float64, which rounds 2**63 + 1
    assert joined["seed"].dtype == "uint64"
    assert joined["seed"].tolist() == [1, 2, 2**63 + 1, 3]
