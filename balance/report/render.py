"""A run's report: summary.json, plots/*.png, report.md and one self-contained report.html.

The HTML opens offline: plots are embedded as data, tables sort on a header click, and the page
states the run's manifest and the definition of every metric.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance.report import plots
from balance.report.tables import Column, Table, html_table, markdown, shape
from balance.stats.outcomes import end_reasons, game_statistics, lineup_outcomes
from balance.stats.run import Run, load_run, summarize

DEFINITIONS = (
    (
        "score",
        "1 for a win, 1/k for a k-way shared win or draw, 0 for a loss; a win rate is a mean score.",
    ),
    (
        "deal",
        (
            "One seed with one lineup, played in every seat rotation: the rotations share the seed's "
            "cards (paired), while the bots draw afresh in each, so no two games are the same game."
        ),
    ),
    (
        "interval",
        (
            "95% interval over deals: a deal's games share its cards, so the deal is the unit "
            "(cluster-robust, with Agresti-Coull-like pseudo-deals at the edges); IWD's counts that "
            "GIH WR and GND WR come from the same deals. A deal with a crashed game is left out."
        ),
    ),
    ("seat", "Seat 0 moves first. Every deal is played in every seat rotation on the same seed."),
    (
        "seat advantage",
        "Seat 0's win rate minus the fair share 1/N, on paired seeds (deck strength cancels).",
    ),
    ("deck win rate", "The deck's mean score against the field; mirror games are left out."),
    (
        "matchup",
        (
            "Row deck's mean score against the column deck, both seat orders pooled; a mirror is "
            "1/2 by construction and has no interval."
        ),
    ),
    ("play rate", "Share of the deck's games in which the card was played."),
    ("GP WR", "Win rate in the games in which the card was played."),
    ("GIH WR", "Win rate in the games in which the card was in hand (opening hand or drawn)."),
    ("OH WR", "Win rate in the games in which the card was in the opening hand."),
    ("GND WR", "Win rate in the games in which the card never reached the hand."),
    ("IWD", "Improvement when drawn: GIH WR − GND WR. Positive: drawing the card helps."),
    ("low sample", "Fewer than 200 games in hand or not in hand: read its rates with care."),
    ("balance", "1 − the largest gap between seats' win rates (Ludii)."),
    ("completion", "Share of games that ended by the rules: not capped, not crashed (Ludii)."),
    ("drawishness", "Share of draws and shared wins (Ludii)."),
    (
        "capped",
        "Games ended by a safety cap (turn limit, decision cap); counted apart from natural ends.",
    ),
)

SEAT_COLUMNS = (
    Column("seat", "seat", "int"), Column("games", "games", "int"), Column("deals", "deals", "int"),
    Column("win_rate", "win rate", "pct"),
    Column("ci_low,ci_high", "95% interval", "interval"), Column("advantage", "vs fair share", "signed"),
    Column("decided_win_rate", "win rate, decided games", "pct"),
)  # fmt: skip
DECK_COLUMNS = (
    Column("deck", "deck"), Column("games", "games", "int"), Column("deals", "deals", "int"),
    Column("win_rate", "win rate", "pct"),
    Column("ci_low,ci_high", "95% interval", "interval"),
)  # fmt: skip
MATCHUP_COLUMNS = (
    Column("deck", "deck"), Column("opponent", "opponent"), Column("games", "games", "int"),
    Column("win_rate", "win rate", "pct"), Column("ci_low,ci_high", "95% interval", "interval"),
    Column("first_win_rate", "moving first", "pct"), Column("second_win_rate", "moving second", "pct"),
)  # fmt: skip
CARD_COLUMNS = (
    Column("deck", "deck"), Column("card", "card"), Column("copies", "copies", "int"),
    Column("play_rate", "play rate", "pct"), Column("gp_wr", "GP WR", "pct"), Column("gih_wr", "GIH WR", "pct"),
    Column("gih_wr_low,gih_wr_high", "GIH WR 95%", "interval"),
    Column("oh_wr", "OH WR", "pct"), Column("gnd_wr", "GND WR", "pct"), Column("iwd", "IWD", "signed"),
    Column("iwd_low,iwd_high", "IWD 95%", "interval"), Column("mean_turn_played", "turn played", "num"),
    Column("low_sample", "low sample"),
)  # fmt: skip


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)


def render_report(folder: Path, formats: tuple[str, ...] = ("html", "md")) -> list[Path]:
    """Write summary.json, the plots and the report files into the run folder."""
    run = load_run(folder)
    summary = summarize(run)
    (folder / "summary.json").write_text(json.dumps(summary, indent=1))
    sections = build_sections(run, summary, folder / "plots")
    written = [folder / "summary.json"]
    if "md" in formats:
        written.append(_write_markdown(folder / "report.md", run, sections))
    if "html" in formats:
        written.append(_write_html(folder / "report.html", run, sections))
    return written


def build_sections(run: Run, summary: dict[str, Any], plot_dir: Path) -> list[Section]:
    plot_dir.mkdir(exist_ok=True)
    games = run.games[run.games["error"] == ""]
    seats = run.seats()
    decks = run.decks()
    matchups = run.matchups()
    metrics = run.card_metrics()
    n = len(seats)
    sections = [Section("At a glance", _headline(run, summary, decks, metrics))]

    seat_section = Section(
        "Seats",
        "Does the first player win too often? Seat 0 moves first.",
        [shape(seats, SEAT_COLUMNS)],
    )
    if len(seats):
        seat_section.plots.append(
            plots.seat_plot(seats, summary["seat_advantage"], plot_dir / "seats.png")
        )
    sections.append(seat_section)

    if len(decks):
        sections.append(Section("Decks", "Is a deck too strong? Each deck against the field, mirrors left out.",
                                [shape(decks.sort_values("win_rate", ascending=False), DECK_COLUMNS)],
                                [plots.deck_forest(decks, 1.0 / n, plot_dir / "decks.png")]))  # fmt: skip
    if len(matchups):
        sections.append(Section("Matchups", "Row deck's win rate against the column deck.",
                                [shape(matchups, MATCHUP_COLUMNS)],
                                [plots.matchup_heatmap(matchups, plot_dir / "matchups.png")]))  # fmt: skip

    outcome = pd.DataFrame([
        {"what": "crashed", "rate": summary["rates"]["crash_rate"], "low": summary["rates"]["crash_ci"][0], "high": summary["rates"]["crash_ci"][1]},
        {"what": "capped", "rate": summary["rates"]["cap_rate"], "low": summary["rates"]["cap_ci"][0], "high": summary["rates"]["cap_ci"][1]},
        {"what": "draw or shared win", "rate": summary["rates"]["draw_rate"], "low": summary["rates"]["draw_ci"][0], "high": summary["rates"]["draw_ci"][1]},
    ])  # fmt: skip
    lengths = pd.DataFrame(
        [
            {"measure": k, **v}
            for k, v in (("turns", summary["turns"]), ("decisions", summary["decisions"]))
        ]
    )
    metric_rows = pd.DataFrame([{"metric": k, "value": v} for k, v in summary["metrics"].items()])
    ends = end_reasons(run.games)
    by_lineup = lineup_outcomes(run.games)
    ending = Section(
        "How games end",
        "Capped games are counted apart from natural ends, per lineup.",
        [
            shape(outcome, (Column("what", "outcome"), Column("rate", "rate", "pct"), Column("low,high", "95% interval", "interval"))),
            shape(ends, (Column("end_reason", "end reason"), Column("games", "games", "int"), Column("share", "share", "pct"))),
            shape(by_lineup, (Column("lineup", "lineup"), Column("games", "games", "int"), Column("cap_rate", "capped", "pct"),
                              Column("draw_rate", "draws", "pct"), Column("crash_rate", "crashed", "pct"))),
            shape(lengths, (Column("measure", "length"), Column("mean", "mean", "num"),
                            Column("ci_low,ci_high", "95% interval", "interval_num"), Column("p10", "p10", "num"),
                            Column("p50", "median", "num"), Column("p90", "p90", "num"))),
            shape(metric_rows, (Column("metric", "game metric"), Column("value", "value", "num"))),
        ],
    )  # fmt: skip
    if len(games):
        ending.plots.append(plots.length_histogram(games, plot_dir / "length.png"))
    sections.append(ending)

    card_section = Section("Cards", "Which card over- or under-performs? Sort by a header; IWD > 0: drawing it helps.",
                           [shape(metrics.sort_values("iwd", ascending=False), CARD_COLUMNS)])  # fmt: skip
    counters = [c for c in metrics.columns if c.endswith("_per_game_played")]
    if counters:
        counter_columns = (
            Column("deck", "deck"),
            Column("card", "card"),
            *(
                Column(
                    c,
                    c.removesuffix("_per_game_played").replace("_", " ") + " / game played",
                    "num",
                )
                for c in counters
            ),
        )
        card_section.tables.append(shape(metrics, counter_columns))
    if len(metrics.dropna(subset=["gih_wr"])):
        card_section.plots.append(plots.card_scatter(metrics, plot_dir / "cards.png"))
    if metrics["iwd"].notna().any():
        card_section.plots.append(plots.iwd_bars(metrics, plot_dir / "iwd.png"))
    sections.append(card_section)

    extra = game_statistics(run.games)
    if len(extra):
        sections.append(Section("Game statistics", "The game's own per-game numbers.",
                                [shape(extra, (Column("statistic", "statistic"), Column("mean", "mean", "num"), Column("p10", "p10", "num"),
                                               Column("p50", "median", "num"), Column("p90", "p90", "num")))]))  # fmt: skip
    definitions = pd.DataFrame(DEFINITIONS, columns=["term", "definition"])
    sections.append(
        Section(
            "Definitions",
            "",
            [shape(definitions, (Column("term", "term"), Column("definition", "definition")))],
        )
    )
    manifest = pd.DataFrame(
        [
            {"field": k, "value": json.dumps(v) if isinstance(v, (list, dict)) else str(v)}
            for k, v in run.manifest.items()
        ]
    )
    sections.append(
        Section("Run", "", [shape(manifest, (Column("field", "field"), Column("value", "value")))])
    )
    return sections


def _headline(run: Run, summary: dict[str, Any], decks: pd.DataFrame, metrics: pd.DataFrame) -> str:
    m = run.manifest
    adv = summary["seat_advantage"]
    lines = [
        (
            f"{summary['games']:,} games of {m.get('game')} (rules_version {m.get('rules_version')}, "
            f"config {m.get('config_hash')}), seed {m.get('seed')}: {summary['crashed']} crashed, "
            f"{summary['capped']} capped, {summary['draws']} draws."
        ),
    ]
    if adv.get("value") is not None:
        lines.append(
            f"Seat advantage (seat 0 − fair share): {adv['value']:+.3f} [{adv['ci_low']:+.3f}, {adv['ci_high']:+.3f}] over {adv['deals']:,} paired deals."
        )
    if len(decks) > 1 and decks["win_rate"].nunique() > 1:
        best, worst = decks.loc[decks["win_rate"].idxmax()], decks.loc[decks["win_rate"].idxmin()]
        lines.append(
            f"Strongest deck: {best['deck']} {best['win_rate']:.1%} [{best['ci_low']:.1%}, {best['ci_high']:.1%}]; weakest: {worst['deck']} {worst['win_rate']:.1%}."
        )
    sure = metrics[~metrics["low_sample"]].dropna(subset=["iwd"])
    if len(sure):
        top, bottom = sure.loc[sure["iwd"].idxmax()], sure.loc[sure["iwd"].idxmin()]
        lines.append(
            f"Highest IWD: {top['card']} ({top['deck']}) {top['iwd']:+.3f}; lowest: {bottom['card']} ({bottom['deck']}) {bottom['iwd']:+.3f}."
        )
    return "\n".join(lines)


def _write_markdown(path: Path, run: Run, sections: list[Section]) -> Path:
    parts = [f"# Balance report: {run.manifest.get('game')}"]
    for section in sections:
        parts.append(f"## {section.title}")
        if section.text:
            parts.append(section.text.replace("\n", "  \n"))
        parts += [markdown(t) for t in section.tables]
        parts += [f"![{p.stem}](plots/{p.name})" for p in section.plots]
    path.write_text("\n\n".join(parts) + "\n")
    return path


_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1150px;color:#222;line-height:1.45}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:1em 0;font-size:.88em}th,td{padding:.25em .6em;border-bottom:1px solid #eee}
th{background:#f4f6f8;cursor:pointer;position:sticky;top:0;text-align:left}th:hover{background:#e6ebf0}
td.num{text-align:right;font-variant-numeric:tabular-nums}img{max-width:100%;display:block;margin:1em 0}
p.lead{white-space:pre-line;background:#f7f9fb;padding:.8em 1em;border-left:4px solid #4a7ab5}
.scroll{max-height:32em;overflow:auto}
"""

_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th').forEach(function(th, col){
    var ascending = false;
    th.addEventListener('click', function(){
      ascending = !ascending;
      var body = table.tBodies[0];
      var rows = Array.from(body.rows);
      rows.sort(function(a, b){
        var x = a.cells[col].dataset.key, y = b.cells[col].dataset.key;
        var nx = parseFloat(x), ny = parseFloat(y);
        var both = !isNaN(nx) && !isNaN(ny);
        if (x === '' && y !== '') return 1;
        if (y === '' && x !== '') return -1;
        var order = both ? nx - ny : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function(r){ body.appendChild(r); });
    });
  });
});
"""


def page(title: str, body: str) -> str:
    """A self-contained page: style and the table-sorting script inline."""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>{body}<script>{_SCRIPT}</script></body></html>")  # fmt: skip


def _write_html(path: Path, run: Run, sections: list[Section]) -> Path:
    title = f"Balance report: {run.manifest.get('game')}"
    parts = [f"<h1>{html.escape(title)}</h1>"]
    table_number = 0
    for section in sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.text:
            css = " class='lead'" if section.title == "At a glance" else ""
            parts.append(f"<p{css}>{html.escape(section.text)}</p>")
        for table in section.tables:
            table_number += 1
            wrapped = html_table(table, f"t{table_number}")
            parts.append(
                f"<div class='scroll'>{wrapped}</div>" if len(table.rows) > 25 else wrapped
            )
        for plot in section.plots:
            data = base64.b64encode(plot.read_bytes()).decode()
            parts.append(f"<img alt='{html.escape(plot.stem)}' src='data:image/png;base64,{data}'>")
    path.write_text(page(title, "".join(parts)), encoding="utf-8")
    return path


def terminal_summary(folder: Path) -> None:
    """A short summary for the terminal: seats, decks, and the top and bottom cards by IWD."""
    from rich.console import Console
    from rich.table import Table as RichTable

    run = load_run(folder)
    console = Console()
    seats = run.seats()
    adv = summarize_advantage(run)
    table = RichTable(
        "seat",
        "games",
        "win rate",
        "95% interval",
        title=f"Seats (seat 0 moves first; advantage {adv})",
        title_justify="left",
        box=None,
    )
    for _, row in seats.iterrows():
        table.add_row(
            str(int(row["seat"])),
            f"{int(row['games']):,}",
            f"{row['win_rate']:.1%}",
            f"[{row['ci_low']:.1%}, {row['ci_high']:.1%}]",
        )
    console.print(table)
    decks = run.decks()
    if len(decks):
        table = RichTable(
            "deck",
            "games",
            "win rate",
            "95% interval",
            title="Decks against the field",
            title_justify="left",
            box=None,
        )
        for _, row in decks.sort_values("win_rate", ascending=False).iterrows():
            table.add_row(
                row["deck"],
                f"{int(row['games']):,}",
                f"{row['win_rate']:.1%}",
                f"[{row['ci_low']:.1%}, {row['ci_high']:.1%}]",
            )
        console.print(table)
    metrics = run.card_metrics()
    sure = (
        metrics[~metrics["low_sample"]].dropna(subset=["iwd"]).sort_values("iwd", ascending=False)
    )
    if not len(sure) and len(metrics):
        console.print(
            "Cards by IWD: no card has 200 games both in and out of hand yet; run more games."
        )
    if len(sure):
        table = RichTable(
            "card",
            "deck",
            "IWD",
            "95% interval",
            "GIH WR",
            "play rate",
            title="Cards by IWD: top and bottom 5",
            title_justify="left",
            box=None,
        )
        shown = pd.concat([sure.head(5), sure.tail(5)]).drop_duplicates(subset=["deck", "card"])
        for _, row in shown.iterrows():
            table.add_row(
                row["card"],
                row["deck"],
                f"{row['iwd']:+.3f}",
                f"[{row['iwd_low']:+.3f}, {row['iwd_high']:+.3f}]",
                f"{row['gih_wr']:.1%}",
                f"{row['play_rate']:.1%}",
            )
        console.print(table)


def summarize_advantage(run: Run) -> str:
    from balance.stats.winrates import seat_advantage

    adv = seat_advantage(run.games)
    if adv["deals"] == 0:
        return "n/a"
    return f"{adv['value']:+.3f} [{adv['ci_low']:+.3f}, {adv['ci_high']:+.3f}]"
