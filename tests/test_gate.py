"""The CI gate: a balanced config passes, an unbalanced one fails naming the assertion, the
SPRTs keep their error rates, baselines catch shifts, JUnit parses."""

from __future__ import annotations

import json
import math
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.stats.sequential import Band, band_verdict_bernoulli, band_verdict_normal

runner = CliRunner()


def test_the_balanced_config_passes() -> None:
    result = runner.invoke(app, ["check", "tinyduel", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "stopped early" in result.output


def test_one_card_made_far_stronger_fails_naming_the_assertion(tmp_path: Path) -> None:
    junit = tmp_path / "gate.xml"
    result = runner.invoke(
        app,
        ["check", "tinyduel", "--jobs", "1", "--set", "cards.wild.value=9", "--junit", str(junit)],
    )
    assert result.exit_code == 1, result.output
    assert "FAIL: deck plain win rate, deck wild win rate" in result.output
    suite = ElementTree.parse(junit).getroot()
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert suite.get("failures") == "2" and int(suite.get("tests")) == len(cases)
    assert cases["deck wild win rate"].find("failure") is not None
    assert cases["seat advantage"].find("failure") is None


def test_a_bad_thresholds_file_is_one_line_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "balance.yaml"
    bad.write_text("bots: random\nseat_advantage: lots\n")
    result = runner.invoke(app, ["check", "tinyduel", "--thresholds", str(bad)])
    assert result.exit_code == 2 and f"{bad}:2:" in result.output


def test_baselines_pass_unchanged_fail_shifted_and_refuse_other_rules(tmp_path: Path) -> None:
    baseline = tmp_path / "baselines" / "tinyduel.json"
    saved = runner.invoke(
        app,
        [
            "check",
            "tinyduel",
            "--jobs",
            "1",
            "--max-games",
            "1200",
            "--save-baseline",
            str(baseline),
        ],
    )
    assert saved.exit_code == 0, saved.output
    record = json.loads(baseline.read_text())
    assert (
        record["games"] == 1200
        and record["rules_version"] == "1"
        and "seat advantage" in record["metrics"]
    )
    same = runner.invoke(app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline)])
    assert same.exit_code == 0, same.output
    assert "shifts from the baseline: 19 pass (baseline)" in same.output
    verbose = runner.invoke(
        app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline), "--verbose"]
    )
    assert "shift of seat advantage" in verbose.output
    shifted = runner.invoke(
        app,
        [
            "check",
            "tinyduel",
            "--jobs",
            "1",
            "--baseline",
            str(baseline),
            "--set",
            "rules.seat0_bonus=3",
        ],
    )
    assert shifted.exit_code == 1 and "shift of seat advantage" in shifted.output.split("FAIL:")[1]
    record["rules_version"] = "0"
    baseline.write_text(json.dumps(record))
    refused = runner.invoke(app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline)])
    assert refused.exit_code == 2 and "rules_version" in refused.output
    forced = runner.invoke(
        app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline), "--force"]
    )
    assert forced.exit_code == 0, forced.output
    record["rules_version"], record["bots"] = "1", ["mcts", "mcts"]
    baseline.write_text(json.dumps(record))
    other_players = runner.invoke(
        app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline)]
    )
    assert other_players.exit_code == 2 and "baseline was played by mcts" in other_players.output
    baseline.write_text("[]")  # JSON, but not a baseline: one line, not an AttributeError
    not_one = runner.invoke(app, ["check", "tinyduel", "--jobs", "1", "--baseline", str(baseline)])
    assert not_one.exit_code == 2 and "not a baseline file: not a JSON object" in not_one.output


def sequential_verdicts(
    p: float,
    band: Band,
    repeats: int,
    rng: np.random.Generator,
    look_every: int = 25,
    limit: int = 40_000,
    capped: bool = False,
) -> np.ndarray:
    """Run the normal SPRT on streams of Bernoulli(p) units, looking every `look_every` units.
    `capped`: the gate's rule at `limit`, an undecided estimate outside the band fails (inside,
    passes); else undecided is None."""
    verdicts = []
    for _ in range(repeats):
        units = rng.random(limit) < p
        sums = np.cumsum(units)
        verdict = None
        for n in range(look_every, limit + 1, look_every):
            mean = sums[n - 1] / n
            verdict = band_verdict_normal(
                mean, mean * (1 - mean) * n / (n - 1), n, band, 0.05, 0.05
            )
            if verdict:
                break
        if verdict is None and capped:
            verdict = "pass" if band.contains(sums[-1] / limit) else "fail"
        verdicts.append(verdict)
    return np.array(verdicts)


@pytest.mark.parametrize("side", ["high", "low"])
def test_sprt_error_rates_stay_within_alpha_and_beta(side: str) -> None:
    """alpha: failing a rate on the band's edge (still inside); beta: passing one outside by the
    margin. Measured on 400 seeded streams each; tolerance 0.03 for the sampling error of the
    measurement itself (400 trials: sd about 0.011) and for looking only every 25 units."""
    rng = np.random.default_rng(7 if side == "high" else 8)
    band = Band(0.40, 0.60, 0.05)
    edge, outside = (0.60, 0.65) if side == "high" else (0.40, 0.35)
    false_fail = np.mean(sequential_verdicts(edge, band, 400, rng) == "fail")
    false_pass = np.mean(sequential_verdicts(outside, band, 400, rng) == "pass")
    assert false_fail <= 0.05 + 0.03
    assert false_pass <= 0.05 + 0.03
    assert np.all(sequential_verdicts(0.5, band, 50, rng) == "pass")


def capped_false_fails(cap: int, repeats: int, rng: np.random.Generator) -> float:
    """The share of runs failing a rate exactly on the band's high edge (0.5, margin 0.03)."""
    band = Band(None, 0.5, 0.03)
    return float(
        np.mean(sequential_verdicts(0.5, band, repeats, rng, limit=cap, capped=True) == "fail")
    )


def test_the_games_said_to_decide_keep_false_fails_on_the_edge_under_five_percent() -> None:
    from balance.stats.sequential import games_to_decide

    rng = np.random.default_rng(7)
    # at 1,000 units a Bernoulli(0.5) mean has standard error 0.5 / sqrt(1000)
    decisive = games_to_decide(1000, 0.5 / math.sqrt(1000), 0.03)
    assert decisive == 6945  # the margin is 5 standard errors there
    assert capped_false_fails(decisive, 300, rng) <= 0.05 + 0.025
    # a cap where the margin is 3 standard errors fails the edge far more often
    assert capped_false_fails(2500, 300, rng) > 0.10


def test_bernoulli_sprt_for_rare_events() -> None:
    band = Band(None, 0.01, 0.01)
    assert band_verdict_bernoulli(0, 300, band, 0.05, 0.05) == "pass"
    assert band_verdict_bernoulli(0, 100, band, 0.05, 0.05) is None
    assert band_verdict_bernoulli(12, 300, band, 0.05, 0.05) == "fail"


def test_at_max_games_an_undecided_estimate_outside_its_band_fails() -> None:
    from balance.gate import Assertion, Thresholds, _fallback

    band = Band(-0.05, 0.05, 0.03)
    doubtful = Assertion("seat advantage", band, "normal", 0.07, 0.045, 0.098, std_error=0.0125)
    _fallback(doubtful, Thresholds(), 2000)
    assert doubtful.verdict == "fail"
    assert doubtful.method == "undecided at 2,000 games; estimate outside the band"
    # the margin is 2.4 standard errors at 2,000 games: 5 of them need (5 / 2.4)^2 times the games
    assert doubtful.to_decide == math.ceil(2000 * (5 * 0.0125 / 0.03) ** 2) == 8681
    inside = Assertion("seat advantage", band, "normal", 0.01, -0.02, 0.06)
    _fallback(inside, Thresholds(), 2000)
    assert (inside.verdict, inside.method) == (
        "pass",
        "undecided at 2,000 games; estimate inside the band",
    )


def test_at_max_games_the_verdict_comes_first_and_skipped_cards_are_said_once() -> None:
    result = runner.invoke(app, ["check", "tinyduel", "--jobs", "1", "--max-games", "400"])
    assert result.exit_code == 0, result.output
    output = result.output[result.output.index("PASS") :]  # after the progress bar
    assert output.index("PASS") < output.index("seat advantage")
    assert "undecided at 402 games; estimate inside the band" in output
    (cards,) = [line for line in output.splitlines() if "card IWD" in line]
    assert cards.startswith("card IWD: 14 skipped") and "they would need" in cards
    assert "card one (plain) IWD" not in output
    verbose = runner.invoke(app, ["check", "tinyduel", "--jobs", "1", "--max-games", "400", "-v"])
    assert "card one (plain) IWD" in verbose.output and "low sample" in verbose.output


def test_an_undecided_estimate_outside_its_band_fails_at_max_games() -> None:
    args = ["check", "tinyduel", "--jobs", "1", "--max-games", "600", "--set", "cards.wild.value=9"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "FAIL: deck plain win rate, deck wild win rate" in result.output
    assert "undecided at 600 games; estimate outside the band" in result.output
    (line,) = [line for line in result.output.splitlines() if "undecided at the cap" in line]
    assert " undecided at the cap: about " in line and line.endswith(
        "would decide them (--max-games)"
    )
