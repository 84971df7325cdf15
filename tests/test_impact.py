"""Card impact on the tiny game, whose answers are known: `wild` at value 3 is the baseline card
`three` itself (impact exactly 0); at value 7 it is the strongest card of its deck."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import DataWarning
from balance.core.yamlio import load_yaml
from balance.gate import check, read_thresholds
from balance.impact import race
from balance.sim.stop import StopRequest
from balance.tune import setup_from

runner = CliRunner()
CONFIG = Path(__file__).parent / "tinygame" / "site" / "tinyduel" / "config"


def _race(overrides: dict[str, object], games: int, **more: object) -> object:
    setup = setup_from("tinyduel", None, overrides, ["plain", "wild"], ["random"], 2, 0, 1)
    setup.stop = more.pop("stop", None)
    settings = read_thresholds(CONFIG / "balance.yaml").impact
    return race(setup, "all", max_games=games, settings=settings,
                rule_data=load_yaml(CONFIG / "balance.yaml"), **more)  # type: ignore[arg-type]  # fmt: skip


def test_a_card_made_strong_ranks_first_and_its_baseline_twin_has_no_impact() -> None:
    strong = _race({"cards.wild.value": 7}, 4000).table  # type: ignore[attr-defined]
    first = strong.iloc[0]
    assert first["card"] == "wild" and first["baseline"] == "three"
    assert first["impact_ci_low"] > 0.05 and first["impact_verdict"] == "above"
    assert first["restricted_ci_low"] > 0  # barring the strong card costs its deck too
    # a card held by both decks has no replacement impact (it would change both sides)
    assert strong.set_index("card").loc["one", "impact_deals"] == 0
    fair = _race({}, 2000, measures=("impact",)).table.set_index("card")  # type: ignore[attr-defined]
    # wild at 3 is `three`: the replayed deals are the same games, the difference exactly 0
    assert fair.loc["wild", "impact"] == 0.0
    assert fair.loc["wild", "impact_ci_low"] < 0 < fair.loc["wild", "impact_ci_high"]
    assert fair.loc["wild", "impact_verdict"] == "inside"


def test_racing_spends_games_on_the_cards_still_at_the_edge() -> None:
    table = _race({"cards.wild.value": 7}, 6000).table.set_index("card")  # type: ignore[attr-defined]
    decided = table.loc["wild", "restricted_games"]
    straddling = table[table["restricted_verdict"] == "at the edge"]["restricted_games"]
    assert len(straddling) and (straddling > decided).all()


def test_an_interrupted_race_resumes_to_the_uninterrupted_table(tmp_path: Path) -> None:
    whole = _race({"cards.wild.value": 7}, 3000, folder=tmp_path / "whole").table  # type: ignore[attr-defined]
    stop = StopRequest()
    calls = []

    def stop_soon(n: int) -> None:
        calls.append(n)
        if len(calls) == 3:
            stop.request()

    cut = _race(
        {"cards.wild.value": 7}, 3000, folder=tmp_path / "cut", stop=stop, progress=stop_soon
    )
    assert cut.interrupted  # type: ignore[attr-defined]
    resumed = _race({"cards.wild.value": 7}, 3000, folder=tmp_path / "cut", resume=True).table  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(resumed, whole)


def test_a_bad_baseline_is_one_line_naming_its_line(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    for name in ("rules", "cards", "decks"):
        (config / f"{name}.yaml").write_text((CONFIG / f"{name}.yaml").read_text())
    text = (CONFIG / "balance.yaml").read_text().replace("cards: [three]", "cards: [thre]")
    (config / "balance.yaml").write_text(text)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["impact", "tinyduel", "--config", str(config), "--out", str(out), "--jobs", "1"]
    )
    assert result.exit_code == 2
    line = text.splitlines().index(next(l for l in text.splitlines() if "thre]" in l)) + 1
    assert result.output.count("\n") == 1 and f"balance.yaml:{line}:" in result.output
    assert "no card 'thre'" in result.output and "three" in result.output
    assert not out.exists()
    (config / "balance.yaml").write_text(
        text.replace("cards: [thre]", "cards: [three], same: levle")
    )
    result = runner.invoke(app, ["impact", "tinyduel", "--config", str(config), "--jobs", "1"])
    assert result.exit_code == 2 and "has no field 'levle'" in result.output


def test_the_command_writes_the_table_summary_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["impact", "tinyduel", "--decks", "all", "--set", "cards.wild.value=7",
                                 "--games", "3000", "--jobs", "1", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    table = pd.read_parquet(out / "impact.parquet")
    assert table.iloc[0]["card"] == "wild"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["bots"] == ["random"] and summary["cards"][0]["card"] == "wild"
    assert set(summary["metagame"]["decks"]) == {"plain", "wild"}
    weights = {row["deck"]: row["weight"] for row in summary["metagame"]["mix"]}
    assert weights["wild"] > 0.99  # the stronger deck is the whole equilibrium
    report = (out / "report.md").read_text()
    assert "## Card impact" in report and "## Metagame" in report


def test_the_gate_asserts_each_cards_impact(tmp_path: Path) -> None:
    thresholds = tmp_path / "balance.yaml"
    thresholds.write_text(
        "bots: random\ndecks: [plain, wild]\nseats: 2\nmax_games: 400\n"
        "cards: {max_abs_impact: 0.05, impact_games: 4000}\n"
        "impact: {baseline: {cards: [three], fields: [value, effects]}}\n"
    )
    strong = check(
        "tinyduel", thresholds_path=thresholds, overrides={"cards.wild.value": 7}, jobs=1
    )
    wild = next(a for a in strong.assertions if a.name == "card wild impact")
    assert wild.verdict == "fail" and wild.method == "sprt" and not strong.passed
    fair = check("tinyduel", thresholds_path=thresholds, jobs=1)
    wild = next(a for a in fair.assertions if a.name == "card wild impact")
    assert wild.verdict == "pass"


def test_beings_cards_take_the_fields_of_the_vanilla_being_of_their_level() -> None:
    from balance.core.config import read_config
    from balance.core.registry import load_game
    from balance.impact import baselines

    folder = load_game("beings").config_dir
    settings = read_thresholds(folder / "balance.yaml").impact
    assert settings is not None
    docs = read_config(folder)
    cards = ["ember_fox_1", "ember_fox_3", "cinder_drake_3", "frost_hare_1"]
    replaced = baselines(settings, docs, load_yaml(folder / "balance.yaml"), cards)
    assert replaced["ember_fox_1"] == (
        "frost_hare_1",
        {"cards.ember_fox_1.cost": 1, "cards.ember_fox_1.power": 2},  # neither has skills
    )
    assert replaced["ember_fox_3"][0] == "stone_warden_3"
    assert replaced["cinder_drake_3"][1]["cards.cinder_drake_3.skills"] == []  # its skill is gone
    assert "frost_hare_1" not in replaced  # the baseline itself has nothing to be measured against
    with warnings.catch_warnings():  # level 3 at cost 4, as level 2: doubtful data, not an error
        warnings.simplefilter("ignore", DataWarning)
        spec = load_game("beings").load(folder, replaced["cinder_drake_3"][1])
    assert spec.config_hash != load_game("beings").load(folder).config_hash
