"""The command line as people run it: exit codes, one-line errors naming file:line, no tracebacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app

TINY = Path(__file__).parents[1] / "tinygame" / "site" / "tinyduel" / "config"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def config_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    shutil.copytree(TINY, folder)
    return folder


def assert_one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0]


def test_malformed_yaml(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    (folder / "rules.yaml").write_text("hand_size: 3\npoints_to_win: [3\n")
    assert_one_line_error(
        invoke("validate", "tinyduel", "--config", str(folder)), "rules.yaml:", "invalid YAML"
    )


def test_a_wrong_type(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    text = (
        (folder / "cards.yaml")
        .read_text()
        .replace("{id: four, value: 4}", "{id: four, value: four}")
    )
    (folder / "cards.yaml").write_text(text)
    assert_one_line_error(
        invoke("validate", "tinyduel", "--config", str(folder)), "cards.yaml:5:", "whole number"
    )


def test_an_unknown_card_in_a_deck(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    (folder / "decks.yaml").write_text(
        "decks:\n  plain: {one: 3, two: 3, three: 3, four: 3, fiv: 3, scout: 2, rally: 1}\n"
    )
    assert_one_line_error(
        invoke("validate", "tinyduel", "--config", str(folder)),
        "decks.yaml:2:",
        "unknown card 'fiv'",
    )


def test_an_unknown_game_bot_option_and_override() -> None:
    assert_one_line_error(invoke("simulate", "tinydual"), "did you mean 'tinyduel'")
    assert_one_line_error(
        invoke("simulate", "tinyduel", "--bots", "randm", "--no-report"), "unknown bot 'randm'"
    )
    assert_one_line_error(invoke("simulate", "tinyduel", "--gmaes", "3"), "--gmaes")
    assert_one_line_error(
        invoke("simulate", "tinyduel", "--set", "rules.hand_sise=4", "--no-report"),
        "--set rules.hand_sise=4",
        "hand_size",
    )
    assert_one_line_error(
        invoke("simulate", "tinyduel", "--set", "cards.wild.value=high", "--no-report"),
        "--set cards.wild.value=high",
        "whole number",
    )
    assert_one_line_error(
        invoke("simulate", "tinyduel", "--decks", "plain,wyld", "--no-report"),
        "unknown deck 'wyld'",
    )


def test_simulate_writes_a_run_and_replay_reads_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(
        "simulate",
        "tinyduel",
        "--games",
        "40",
        "--decks",
        "plain,wild",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--no-report",
    )
    assert result.exit_code == 0, result.output
    assert "40 games" in result.output and "0 crashed" in result.output
    assert {"games.parquet", "cards.parquet", "run.json", "crashes.json"} <= {
        p.name for p in out.iterdir()
    }
    replayed = invoke("replay", str(out), "--game", "5")
    assert replayed.exit_code == 0, replayed.output
    assert (
        "seat 0  play" in replayed.output and "wins" in replayed.output or "draw" in replayed.output
    )


def test_a_run_with_bot_parameters_replays_with_the_same_bots(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from balance.sim.replay import replay_from_run

    out = tmp_path / "run"
    result = invoke("simulate", "tinyduel", "--games", "8", "--bots", "mcts:iterations=3,random",
                    "--jobs", "1", "--out", str(out), "--no-report")  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out / "games.parquet").to_pylist()
    assert {row["bot_0"] for row in rows} | {row["bot_1"] for row in rows} == {
        "mcts:iterations=3",
        "random",
    }
    for row in rows:
        again = replay_from_run(out, row["game"])
        assert (again.decisions, again.winner, again.scores) == (
            row["decisions"],
            row["winner"],
            (row["score_0"], row["score_1"]),
        )


def test_games_vocab_validate() -> None:
    assert "tinyduel" in invoke("games").output
    vocab = invoke("vocab", "tinyduel")
    assert vocab.exit_code == 0 and "boost" in vocab.output and "behind" in vocab.output
    assert invoke("validate", "tinyduel").output.startswith("ok: ")


@pytest.mark.parametrize("args", [["--help"], ["games"]])
def test_start_up_imports_no_heavy_module(args: list[str]) -> None:
    """`balance --help` and `balance games` stay fast: no pandas, numpy, matplotlib or game rules."""
    import subprocess
    import sys

    code = (
        f"import sys; from balance.cli import main; sys.argv = ['balance', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('pandas', 'numpy', 'matplotlib', 'pyarrow', 'scipy')"
        " or (m.startswith('balance.games.') and m.count('.') > 2)]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_help_shows_the_defaults_written_in_brackets() -> None:
    # rich reads "[default: ...]" as markup and drops it unless the bracket is escaped
    result = invoke("replay", "--help")
    assert "[default: the first" in " ".join(result.output.split()).replace("│ │", "")


def test_sweep_and_tune_measure_with_the_gates_bots_unless_told(tmp_path: Path) -> None:
    from balance.cli.options import measuring_bots

    # configs/beings/balance.yaml, with beings' own greedy defaults written in
    assert measuring_bots("beings", None, None) == ["greedy:action=main"]
    assert measuring_bots("beings", None, "random,greedy") == ["random", "greedy:action=main"]
    assert measuring_bots("beings", tmp_path, None) == ["random"]  # no balance.yaml there


def test_bad_config_files_are_one_line_naming_the_file(tmp_path: Path) -> None:
    cases = {
        "cards.yaml:1:": lambda f: (f / "cards.yaml").write_text("42\n"),
        "rules.yaml:2:": lambda f: (f / "rules.yaml").write_text("hand_size: 3\nx: \x07\n"),
        "decks.yaml: is a folder": lambda f: ((f / "decks.yaml").unlink(), (f / "decks.yaml").mkdir()),
        "cards.yaml: cannot read": lambda f: ((f / "cards.yaml").unlink(), (f / "cards.yaml").symlink_to(f / "cards.yaml")),
    }  # fmt: skip
    for n, (words, spoil) in enumerate(cases.items()):
        folder = config_copy(tmp_path / str(n))
        spoil(folder)
        out = tmp_path / "never"
        result = invoke(
            "simulate", "tinyduel", "--config", str(folder), "--out", str(out), "--no-report"
        )
        assert_one_line_error(result, words)
        assert not out.exists()


def test_an_alias_bomb_stays_small_in_memory(tmp_path: Path) -> None:
    """A config under 10 MB is read in well under 1 GiB: a bomb is refused, not expanded."""
    import resource
    import subprocess
    import sys

    folder = config_copy(tmp_path)
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for name, previous in zip("bcdefghi", "abcdefgh"):
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
    (folder / "rules.yaml").write_text("\n".join(lines) + "\n")
    code = "from balance.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "validate", "tinyduel", "--config", str(folder)],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2 and "more than 200,000 values" in done.stderr, done.stderr
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kib < 1024 * 1024


def test_a_negative_seed_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("simulate", "tinyduel", "--seed", "-1", "--games", "4", "--out", str(out))
    assert_one_line_error(result, "--seed", "greater than or equal to 0")
    assert not out.exists()
    assert "whole number >= 0" in " ".join(invoke("simulate", "--help").output.split())


def test_more_jobs_than_cores_are_capped_with_one_note(tmp_path: Path) -> None:
    import json

    from balance.sim.runner import available_cores

    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "tinyduel", "--jobs", "1000", "--games", "8", "--out", str(out), "--no-report"])  # fmt: skip
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("note: --jobs 1000")]
    assert len(notes) == 1 and f"using {available_cores()}" in notes[0]
    assert json.loads((out / "run.json").read_text())["jobs"] == available_cores()


def test_a_bad_free_range_is_reported_as_free() -> None:
    assert_one_line_error(
        invoke("tune", "tinyduel", "--free", "rules.hand_size=5:1", "--budget", "10"),
        "--free rules.hand_size=5:1",
        "LOW:HIGH",
    )
