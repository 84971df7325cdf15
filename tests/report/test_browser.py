"""report.html in a real browser: Debian's chromium, headless and offline, renders every section
and every interactive plot with no script error. `.ci/run` installs chromium; where it is absent
the test is skipped and says so."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from balance.cli.options import report_run
from balance.sim.simulate import RunOptions, simulate

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SECTIONS = ("At a glance", "Seats", "Decks", "Matchups", "How games end", "Cards",
            "Definitions", "Run")  # fmt: skip
PLOTS = ("seats", "decks", "matchups", "length", "cards", "iwd")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (.ci/run installs Debian's chromium: apt-get install chromium)",
)


def browse(page: Path, profile: Path) -> tuple[str, list[str]]:
    """The page's DOM once its scripts ran, and the console messages of uncaught errors."""
    done = subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=3000", "--dump-dom", page.as_uri()],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    errors = [line for line in console if "Uncaught" in line or "Error" in line]
    return done.stdout, errors


def test_the_browser_check_sees_a_script_error(tmp_path: Path) -> None:
    """The check below could fail: a page whose script throws is caught."""
    page = tmp_path / "bad.html"
    page.write_text("<html><body><p>x</p><script>no_such_function();</script></body></html>")
    _, errors = browse(page, tmp_path / "profile")
    assert errors and "no_such_function" in errors[0]


def test_report_renders_every_section_and_plot_with_no_script_error(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(RunOptions("tinyduel", out=out, games=400, jobs=1, sets={"rules.points_to_win": 3},
                        overrides={"rules.points_to_win": 3}))  # fmt: skip
    report_run(out, None)
    dom, errors = browse(out / "report.html", tmp_path / "profile")
    assert not errors, errors
    titles = re.findall(r"<h2>([^<]+)</h2>", dom)
    assert [t for t in titles if t in SECTIONS] == list(SECTIONS)
    assert "Verdict " in dom and "players: " in dom.lower()
    for name in PLOTS:  # plotly drew each: its svg is in the plot's div
        start = dom.index(f'id="plot-{name}"')
        drawn = dom[start : start + 4000]
        assert "plot-container" in drawn and "main-svg" in drawn, f"plot {name} not drawn"
    # the card table: a deck filter menu and sort arrows on its headers
    assert re.search(r'<select data-table="t\d+" data-column="0">', dom)
    assert 'aria-sort="none"' in dom
