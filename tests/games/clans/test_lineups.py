"""G17b: lineups only the draft can produce. Two armies meet only with no clan in common, and the
clans neither army holds are flipped, exactly as the draft leaves them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.games.clans import rules
from balance.sim.schedule import make_schedule

from .conftest import GAME

runner = CliRunner()


def test_two_armies_sharing_a_clan_are_refused_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        ["simulate", "clans", "--decks", "goan_sul-justice-lantern,justice-phoenix-sages",
         "--games", "4", "--jobs", "1", "--out", str(out), "--no-report"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output
    assert lines[0].startswith("error: --decks: ")
    for word in ("goan_sul-justice-lantern", "justice-phoenix-sages", "justice"):
        assert word in lines[0]
    assert not out.exists()  # nothing written


def test_replaying_a_seed_with_two_armies_sharing_a_clan_is_refused_in_one_line() -> None:
    result = runner.invoke(
        app,
        [
            "replay",
            "clans",
            "--seed",
            "3",
            "--decks",
            "goan_sul-justice-lantern,justice-phoenix-sages",
        ],
    )
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "both hold justice" in lines[0]


def test_a_mirror_of_an_army_is_refused(spec) -> None:
    with pytest.raises(ConfigError, match="cannot meet itself: it holds"):
        make_schedule(GAME.info, spec.catalog, ["tempest-ironhide-veil"])
    with pytest.raises(ConfigError, match="both hold justice"):
        rules.new_game(spec, ["goan_sul-justice-lantern", "justice-phoenix-sages"], seed=1)


def test_decks_all_pairs_only_armies_with_no_clan_in_common(spec) -> None:
    schedule = make_schedule(GAME.info, spec.catalog, "all", games=1)
    decks = [lineup.decks for lineup in schedule.lineups]
    assert ("draft", "draft") in decks
    armies = [d for d in decks if d != ("draft", "draft")]
    for a, b in armies:
        assert not set(spec.armies[a]) & set(spec.armies[b]), (a, b)
    # every legal pairing of the 16 armies is there, once: 29 of them with the shipped setups
    legal = {
        frozenset((a, b))
        for a in spec.armies
        for b in spec.armies
        if not set(spec.armies[a]) & set(spec.armies[b])
    }
    assert {frozenset(d) for d in armies} == legal and len(armies) == len(legal) == 29


def test_a_fixed_pairing_flips_the_two_clans_neither_army_holds(spec) -> None:
    schedule = make_schedule(GAME.info, spec.catalog, "all", games=1)
    for lineup in schedule.lineups:
        if lineup.decks == ("draft", "draft"):
            continue
        g = rules.new_game(spec, lineup.decks, seed=5)
        held = set(g.clans[0]) | set(g.clans[1])
        assert len(held) == 6 and len(g.flipped) == 2
        assert set(g.flipped) == set(spec.draft_pool) - held
        for seat in (0, 1):
            assert len(g.deck[seat]) + len(g.hand[seat]) == 45
