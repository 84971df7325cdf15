"""A run's report: summary.json, plots/*.png, report.md and one self-contained report.html.

"At a glance" opens with the verdict: the gate's assertions (configs/<game>/balance.yaml) judged
on the run's games, each green (its 95% interval wholly inside the band), red (wholly outside) or
amber (straddling an edge: undecided), then the players, the seed, the overrides and patch, and
what changed since the baseline or the run given with `--against`. The verdict is computed by
the gate (balance.gate.run_verdict) and handed in as a `Verdict`: the report draws it.

The HTML opens offline: its plots are interactive (plotly, its script inlined once), its tables
sort on a header click and filter by deck, and the page states the run's manifest and the
definition of every metric. report.md carries the same tables with PNG plots. Each section is
one function of the run, so a new section is one more function in `SECTIONS`.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance.report import figures, plots
from balance.report.cardfacts import card_facts
from balance.report.tables import Column, Table, html_table, markdown, shape
from balance.stats.compare import card_changes, compare_tables, shared_deals
from balance.stats.outcomes import end_reasons, game_statistics, lineup_outcomes
from balance.stats.run import Run, load_run, players, summarize

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
    (
        "GIH WR vs deck",
        (
            "The card's GIH WR minus its deck's win rate in the same games: above 0, the deck "
            "wins more often with the card in hand than on average."
        ),
    ),
    (
        "verdict",
        (
            "The gate's assertions (balance.yaml's bands) on this run's games: green when the 95% "
            "interval lies wholly inside the band, red when wholly outside, amber (undecided) when "
            "it straddles an edge; a card short of its sample in and out of hand is skipped."
        ),
    ),
    (
        "change",
        (
            "B − A between two runs, with its 95% interval: paired over the deals both played "
            "(the same seeds) where they played the same deals, else unpaired."
        ),
    ),
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
CARD_METRIC_COLUMNS = (
    Column("copies", "copies", "int"), Column("play_rate", "play rate", "pct"),
    Column("gp_wr", "GP WR", "pct", "rate"), Column("gih_wr", "GIH WR", "pct", "rate"),
    Column("gih_wr_low,gih_wr_high", "GIH WR 95%", "interval"),
    Column("gih_wr_vs_deck", "GIH WR vs deck", "signed", "signed"),
    Column("oh_wr", "OH WR", "pct", "rate"), Column("gnd_wr", "GND WR", "pct", "rate"),
    Column("iwd", "IWD", "signed", "signed"), Column("iwd_low,iwd_high", "IWD 95%", "interval"),
    Column("mean_turn_played", "turn played", "num"), Column("low_sample", "low sample", "flag"),
)  # fmt: skip
VERDICT_COLUMNS = (
    Column("verdict", "verdict", grade="verdict"), Column("name", "assertion"),
    Column("estimate", "estimate", "num4"), Column("ci_low,ci_high", "95% interval", "interval_num4"),
    Column("band", "band"), Column("method", "how"),
)  # fmt: skip
CHANGE_COLUMNS = (
    Column("a", "A", "num4"), Column("b", "B", "num4"), Column("change", "change B − A", "signed", "signed"),
    Column("ci_low,ci_high", "95% interval", "interval_num4"), Column("pairing", "pairing"),
)  # fmt: skip
REPLAYS_SHOWN = 20  # capped and crashed games listed with their replay command, each


@dataclass(frozen=True)
class Verdict:
    """The gate's assertions judged on the run (see balance.gate.run_verdict), to draw.

    `assertions` and `shifts` have the columns name, estimate, ci_low, ci_high, band, verdict
    (pass | fail | undecided | skipped) and method."""

    source: str  # the thresholds file
    assertions: pd.DataFrame
    bots: list[str] = field(default_factory=list)  # the bots balance.yaml judges with
    note: str = ""  # about the verdict: bands set for other bots, or why there is none
    baseline: str = ""  # the baseline file compared with ("" for none)
    shifts: pd.DataFrame | None = None  # one row per baseline metric: the change since
    baseline_note: str = ""  # how the baseline was played, or why it is not compared


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[Table] = field(default_factory=list)
    plots: list[Path] = field(default_factory=list)  # PNG, for report.md
    figures: list[str] = field(default_factory=list)  # interactive <div>s, for report.html
    filters: dict[int, str] = field(default_factory=dict)  # table index -> column to filter by


@dataclass(frozen=True)
class Context:
    """What every section function reads."""

    run: Run
    summary: dict[str, Any]
    plot_dir: Path
    verdict: Verdict | None = None
    against: Run | None = None


def render_report(
    folder: Path,
    formats: tuple[str, ...] = ("html", "md"),
    verdict: Verdict | None = None,
    against: Path | None = None,
) -> list[Path]:
    """Write summary.json, the plots and the report files into the run folder. `verdict`: the
    gate's assertions on the run; `against`: an earlier run folder to compare with."""
    run = load_run(folder)
    other = load_run(against) if against is not None else None
    summary = summarize(run)
    if verdict is not None:
        summary["verdict"] = _records(verdict.assertions)
        summary["verdict_source"] = verdict.source
        if verdict.shifts is not None:
            summary["baseline"] = {"file": verdict.baseline, "shifts": _records(verdict.shifts)}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1, default=_plain))
    context = Context(run, summary, folder / "plots", verdict, other)
    context.plot_dir.mkdir(exist_ok=True)
    sections = [s for make in SECTIONS if (s := make(context)) is not None]
    written = [folder / "summary.json"]
    if "md" in formats:
        written.append(_write_markdown(folder / "report.md", run, sections))
    if "html" in formats:
        title = f"Balance report: {run.manifest.get('game')}"
        written.append(_write_html(folder / "report.html", title, sections))
    return written


# -- At a glance --------------------------------------------------------------------------------


def glance_section(c: Context) -> Section:
    lines = _verdict_lines(c.verdict)
    lines.append(players_line(c.run))
    lines += _change_lines(c)
    lines += _fact_lines(c.run, c.summary)
    section = Section("At a glance", "\n".join(lines))
    if c.verdict is not None and len(c.verdict.assertions):
        shown = c.verdict.assertions.sort_values("order")
        section.tables.append(shape(shown, VERDICT_COLUMNS))
    return section


def verdict_headline(verdict: Verdict | None) -> str:
    """`FAIL: 2 red, 1 amber, 9 green, 40 skipped against FILE`, or why there is no verdict."""
    if verdict is None:
        return "no verdict"
    if not len(verdict.assertions):
        return f"no verdict: {verdict.note or 'no assertion applies to this run'}"
    counts = verdict.assertions["verdict"].value_counts()
    red, amber = int(counts.get("fail", 0)), int(counts.get("undecided", 0))
    word = "FAIL" if red else "UNDECIDED" if amber else "PASS"
    parts = [f"{red} red", f"{amber} amber", f"{int(counts.get('pass', 0))} green"]
    if counts.get("skipped", 0):
        parts.append(f"{int(counts['skipped'])} skipped (short of their sample)")
    return f"Verdict {word}: {', '.join(parts)} against {verdict.source}"


def verdict_rows(verdict: Verdict | None) -> pd.DataFrame:
    """The red and amber assertions, red first: what needs the designer's eye."""
    if verdict is None or not len(verdict.assertions):
        return pd.DataFrame(columns=["name", "verdict"])
    return verdict_rows_of(verdict.assertions)


def _verdict_lines(verdict: Verdict | None) -> list[str]:
    if verdict is None:
        return ["No verdict: the run's config has no balance.yaml to judge it by."]
    lines = [verdict_headline(verdict) + "."]
    if verdict.note and len(verdict.assertions):
        lines.append(verdict.note)
    return lines + flagged_lines(verdict_rows(verdict), assertion_text)


SHOWN_WHOLE = 8  # red lines shown one by one; amber ones too when at most AMBER_WHOLE


def flagged_lines(rows: pd.DataFrame, text: Callable[[dict[str, Any]], str]) -> list[str]:
    """One line per red row (up to SHOWN_WHOLE), then the amber ones: one by one when few,
    else named on one line, so the first screen stays short."""
    red = rows[rows["verdict"] == "fail"].to_dict(orient="records")
    amber = rows[rows["verdict"] == "undecided"].to_dict(orient="records")
    lines = [f"RED: {text(row)}" for row in red[:SHOWN_WHOLE]]
    if len(red) > SHOWN_WHOLE:
        lines.append(f"RED: and {len(red) - SHOWN_WHOLE} more (the table below)")
    if len(amber) <= 3:
        lines += [f"AMBER: {text(row)}" for row in amber]
    else:
        names = ", ".join(row["name"] for row in amber[:SHOWN_WHOLE])
        more = f" and {len(amber) - SHOWN_WHOLE} more" if len(amber) > SHOWN_WHOLE else ""
        lines.append(f"AMBER (undecided: more games would tell): {names}{more}")
    return lines


_COLOUR_WORD = {"fail": "RED", "undecided": "AMBER", "pass": "GREEN", "skipped": "SKIPPED"}


def assertion_text(row: dict[str, Any]) -> str:
    where = {"fail": "outside", "undecided": "straddles", "pass": "inside"}.get(
        row["verdict"], "vs"
    )
    return (
        f"{row['name']} {row['estimate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] "
        f"{where} {row['band']}"
    )


def verdict_rows_of(assertions: pd.DataFrame) -> pd.DataFrame:
    return assertions[assertions["verdict"].isin(["fail", "undecided"])].sort_values("order")


def players_line(run: Run) -> str:
    """The player model: bots (whole specs), seed, overrides and patch, as the run applied them."""
    return players_sentence(players(run.games, run.manifest))


def players_sentence(who: Mapping[str, Any]) -> str:
    """`Players: ...; seed N.` from a record of who played (bots, seed, set, patch), as
    balance.stats.run.players gives it and sweep and tune record it."""
    return (
        f"Players: {players_text(who['bots'], who['set'], who['patch'])[9:]}; seed {who['seed']}."
    )


def players_text(
    bots: Sequence[str], sets: Mapping[str, object], patch: Mapping[str, Any] | None
) -> str:
    """`players: ...` in one line: bots per seat (whole specs), the --set overrides and the
    patch (its file and its overrides). The report, the terminal and the gate say it alike."""
    if len(set(bots)) == 1:
        shown = f"{bots[0]} in every seat"
    else:
        shown = ", ".join(f"seat {i}: {b}" for i, b in enumerate(bots))
    listed = ", ".join(f"{k}={_value(v)}" for k, v in sets.items()) or "none"
    patched = "none"
    if patch:
        values = ", ".join(f"{k}={_value(v)}" for k, v in patch["overrides"].items())
        patched = f"{patch['file']} ({values})"
    return f"players: {shown}; overrides (--set): {listed}; patch: {patched}"


def _value(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _change_lines(c: Context) -> list[str]:
    if c.against is not None:
        return _against_lines(c.run, c.against)
    verdict = c.verdict
    if verdict is None:
        return []
    if verdict.shifts is None:
        return [f"Changes: {verdict.baseline_note}"] if verdict.baseline_note else []
    shifts = verdict.shifts
    counts = shifts["verdict"].value_counts()
    red, amber = int(counts.get("fail", 0)), int(counts.get("undecided", 0))
    head = (
        f"Since the baseline {verdict.baseline} ({verdict.baseline_note}): {red} red (moved "
        f"beyond its tolerance), {amber} amber (may have), {int(counts.get('pass', 0))} green."
    )
    lines = [head]
    return lines + flagged_lines(verdict_rows_of(shifts), _shift_text)


def _shift_text(row: dict[str, Any]) -> str:
    return (
        f"{row['name']} {row['estimate']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] "
        f"against the tolerance {row['band']}"
    )


def _against_lines(run: Run, against: Run) -> list[str]:
    tables = compare_tables(against.games, run.games)
    a, b, both = shared_deals(against.games, run.games)
    pairing = f"paired over {both:,} shared deals" if both and both == a == b else "unpaired"
    lines = [f"Since {against.folder} (A; this run is B, {pairing}):"]
    decks = tables["decks"]
    seats = tables["seats"]
    rows = []
    if len(seats):
        rows.append(("seat 0 win rate", seats.iloc[0]))
    rows += [(f"deck {r['deck']} win rate", r) for _, r in decks.iterrows()]
    for name, row in rows:
        sure = row["ci_low"] > 0 or row["ci_high"] < 0
        lines.append(
            f"{name} {row['a']:.1%} -> {row['b']:.1%} ({row['change']:+.1%} "
            f"[{row['ci_low']:+.1%}, {row['ci_high']:+.1%}]{'' if sure else ', within noise'})"
        )
    return lines


def _fact_lines(run: Run, summary: dict[str, Any]) -> list[str]:
    m = run.manifest
    adv = summary["seat_advantage"]
    decks = run.decks()
    metrics = run.card_metrics()
    lines = [
        (
            f"{summary['games']:,} games of {m.get('game')} (rules_version {m.get('rules_version')}, "
            f"config {m.get('config_hash')}): {summary['crashed']} crashed, "
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
    return lines


# -- the other sections -------------------------------------------------------------------------


def seats_section(c: Context) -> Section:
    seats = c.run.seats()
    section = Section("Seats", "Does the first player win too often? Seat 0 moves first.",
                      [shape(seats, SEAT_COLUMNS)])  # fmt: skip
    if len(seats):
        section.plots.append(
            plots.seat_plot(seats, c.summary["seat_advantage"], c.plot_dir / "seats.png")
        )
        section.figures.append(figures.seat_plot(seats))
    return section


def decks_section(c: Context) -> Section | None:
    decks = c.run.decks()
    if not len(decks):
        return None
    fair = 1.0 / len(c.run.seats())
    return Section("Decks", "Is a deck too strong? Each deck against the field, mirrors left out.",
                   [shape(decks.sort_values("win_rate", ascending=False), DECK_COLUMNS)],
                   [plots.deck_forest(decks, fair, c.plot_dir / "decks.png")],
                   [figures.deck_forest(decks, fair)])  # fmt: skip


def matchups_section(c: Context) -> Section | None:
    matchups = c.run.matchups()
    if not len(matchups):
        return None
    return Section("Matchups", "Row deck's win rate against the column deck.",
                   [shape(matchups, MATCHUP_COLUMNS)],
                   [plots.matchup_heatmap(matchups, c.plot_dir / "matchups.png")],
                   [figures.matchup_heatmap(matchups)], filters={0: "deck"})  # fmt: skip


def endings_section(c: Context) -> Section:
    summary, run = c.summary, c.run
    games = run.games[run.games["error"] == ""]
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
    ending = Section(
        "How games end",
        "Capped games are counted apart from natural ends, per lineup.",
        [
            shape(outcome, (Column("what", "outcome"), Column("rate", "rate", "pct"), Column("low,high", "95% interval", "interval"))),
            shape(end_reasons(run.games), (Column("end_reason", "end reason"), Column("games", "games", "int"), Column("share", "share", "pct"))),
            shape(lineup_outcomes(run.games), (Column("lineup", "lineup"), Column("games", "games", "int"), Column("cap_rate", "capped", "pct"),
                              Column("draw_rate", "draws", "pct"), Column("crash_rate", "crashed", "pct"))),
            shape(lengths, (Column("measure", "length"), Column("mean", "mean", "num"),
                            Column("ci_low,ci_high", "95% interval", "interval_num"), Column("p10", "p10", "num"),
                            Column("p50", "median", "num"), Column("p90", "p90", "num"))),
            shape(metric_rows, (Column("metric", "game metric"), Column("value", "value", "num"))),
        ],
    )  # fmt: skip
    if len(games):
        ending.plots.append(plots.length_histogram(games, c.plot_dir / "length.png"))
        ending.figures.append(figures.length_histogram(games))
    return ending


def replays_section(c: Context) -> Section | None:
    """The capped and crashed games, each with the command that plays it again."""
    games = c.run.games
    odd = games[games["capped"] | (games["error"] != "")]
    if not len(odd):
        return None
    rows = []
    for kind, part in (("crashed", odd[odd["error"] != ""]), ("capped", odd[odd["capped"]])):
        for record in part.head(REPLAYS_SHOWN).to_dict(orient="records"):
            seats = int(record["seats"])
            rows.append({
                "what": kind, "game": record["game"], "seed": record["seed"],
                "decks": " vs ".join(str(record[f"deck_{s}"]) for s in range(seats)),
                "replay": f"balance replay {c.run.folder} --game {record['game']}",
                "error": str(record["error"]).splitlines()[0] if record["error"] else "",
            })  # fmt: skip
    table = pd.DataFrame(rows)
    crashed, capped = int((games["error"] != "").sum()), int(games["capped"].sum())
    text = (
        f"{crashed} crashed and {capped} capped games; up to {REPLAYS_SHOWN} of each, with the "
        "command that replays it decision by decision (crashes.json holds every crash)."
    )
    columns = (Column("what", "what"), Column("game", "game", "int"), Column("seed", "seed"),
               Column("decks", "decks"), Column("replay", "replay"), Column("error", "error"))  # fmt: skip
    return Section("Capped and crashed games", text, [shape(table, columns)])


def cards_section(c: Context) -> Section:
    metrics = c.run.card_metrics()
    facts = _facts(c.run)
    table = metrics.merge(facts, on="card", how="left") if len(facts.columns) > 1 else metrics
    fact_columns = [Column(name, name) for name in facts.columns if name != "card"]
    columns = (Column("deck", "deck"), Column("card", "card"), *fact_columns, *CARD_METRIC_COLUMNS)
    section = Section(
        "Cards",
        "Which card over- or under-performs? Each card's own numbers and text beside its metrics "
        "(as the run played it, overrides applied); sort by a header, filter by deck. IWD > 0: "
        "drawing it helps; GIH WR vs deck > 0: its deck wins more often with it in hand.",
        [shape(table.sort_values("iwd", ascending=False), columns)],
        filters={0: "deck"},
    )
    counters = [col for col in metrics.columns if col.endswith("_per_game_played")]
    if counters:
        counter_columns = (
            Column("deck", "deck"),
            Column("card", "card"),
            *(
                Column(
                    k,
                    k.removesuffix("_per_game_played").replace("_", " ") + " / game played",
                    "num",
                )
                for k in counters
            ),
        )
        section.tables.append(shape(metrics, counter_columns))
        section.filters[1] = "deck"
    if len(metrics.dropna(subset=["gih_wr"])):
        section.plots.append(plots.card_scatter(metrics, c.plot_dir / "cards.png"))
        section.figures.append(figures.card_scatter(metrics))
    if metrics["iwd"].notna().any():
        section.plots.append(plots.iwd_bars(metrics, c.plot_dir / "iwd.png"))
        section.figures.append(figures.iwd_bars(metrics))
    return section


def _facts(run: Run) -> pd.DataFrame:
    config = run.manifest.get("config")
    if not config:
        return pd.DataFrame(columns=["card"])
    facts = card_facts(Path(config), run.manifest.get("overrides") or {})
    for name in facts.columns:  # whole numbers read as floats where some cards lack the field
        facts[name] = facts[name].map(_fact_text)
    return facts


def _fact_text(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def statistics_section(c: Context) -> Section | None:
    extra = game_statistics(c.run.games)
    if not len(extra):
        return None
    return Section("Game statistics", "The game's own per-game numbers.",
                   [shape(extra, (Column("statistic", "statistic"), Column("mean", "mean", "num"), Column("p10", "p10", "num"),
                                  Column("p50", "median", "num"), Column("p90", "p90", "num")))])  # fmt: skip


def comparison_section(c: Context) -> Section | None:
    """With --against RUN: every table both runs have, side by side, with the change."""
    if c.against is None:
        return None
    return comparison(c.against, c.run, "this run")


COMPARED_TABLES = (("seats", ("seat",)), ("decks", ("deck",)), ("matchups", ("deck", "opponent")),
                   ("outcomes", ("measure",)))  # fmt: skip


def comparison(a: Run, b: Run, b_name: str = "") -> Section:
    """Every table runs A and B both have, row by row: A, B, the change B − A and its 95%
    interval (balance.stats.compare), paired over the deals both played where they played the
    same ones. Its tables, in order: seats, decks, matchups, outcomes, cards (`table_names`)."""
    tables = compare_tables(a.games, b.games)
    deals_a, deals_b, both = shared_deals(a.games, b.games)
    text = (
        f"A: {a.folder} ({players_line(a)}) B: {b_name or b.folder} ({players_line(b)}) Change "
        f"B − A with its 95% interval; the runs share {both:,} of their {deals_a:,} and "
        f"{deals_b:,} deals, so rows over the same deals are paired. Card metrics are unpaired "
        "(cards.parquet keeps sums over deals, not each deal's counts)."
    )
    section = Section("Compared with an earlier run", text)
    for name, keys in COMPARED_TABLES:
        table = tables[name].assign(
            pairing=lambda t: t["paired"].map({True: "paired", False: "unpaired"})
        )
        section.tables.append(shape(table, (*(Column(k, k) for k in keys), *CHANGE_COLUMNS)))
    cards = card_changes(a.card_metrics(), b.card_metrics())
    cards = cards.assign(pairing="unpaired")
    section.tables.append(shape(cards, (Column("deck", "deck"), Column("card", "card"),
                                        Column("measure", "measure"), *CHANGE_COLUMNS)))  # fmt: skip
    section.filters[len(section.tables) - 1] = "deck"
    return section


def table_names() -> list[str]:
    """The names of `comparison`'s tables, in order."""
    return [name for name, _ in COMPARED_TABLES] + ["cards"]


def write_comparison(section: Section, path: Path) -> Path:
    """The comparison as one self-contained page (sortable, filterable tables)."""
    return _write_html(path, f"Balance: {section.title.lower()}", [section])


def definitions_section(c: Context) -> Section:
    definitions = pd.DataFrame(DEFINITIONS, columns=["term", "definition"])
    return Section("Definitions", "", [shape(definitions, (Column("term", "term"), Column("definition", "definition")))])  # fmt: skip


def run_section(c: Context) -> Section:
    manifest = pd.DataFrame(
        [{"field": k, "value": _manifest_value(v)} for k, v in c.run.manifest.items()]
    )
    return Section(
        "Run", "", [shape(manifest, (Column("field", "field"), Column("value", "value")))]
    )


def _manifest_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


SECTIONS: list[Callable[[Context], Section | None]] = [
    glance_section,
    comparison_section,
    seats_section,
    decks_section,
    matchups_section,
    endings_section,
    replays_section,
    cards_section,
    statistics_section,
    definitions_section,
    run_section,
]


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(frame.to_json(orient="records"))
    return records


def _plain(value: object) -> object:
    return value.item() if hasattr(value, "item") else str(value)


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
th::after{content:" \\2195";color:#aaa}th[aria-sort=ascending]::after{content:" \\25B2";color:#222}
th[aria-sort=descending]::after{content:" \\25BC";color:#222}
div.lead{background:#f7f9fb;padding:.8em 1em;border-left:4px solid #4a7ab5}div.lead div{margin:.15em 0}
div.lead .v-fail{background:#f6c1c1;padding:.1em .4em}div.lead .v-undecided{background:#fbe3b0;padding:.1em .4em}
div.lead .v-head{font-weight:600}label.filter{display:block;margin-top:1em;font-size:.9em}
.plot{margin:1em 0}
"""

_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th').forEach(function(th, col){
    var ascending = false;
    th.addEventListener('click', function(){
      ascending = !ascending;
      table.querySelectorAll('th').forEach(function(other){ other.setAttribute('aria-sort', 'none'); });
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
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
document.querySelectorAll('select[data-table]').forEach(function(select){
  select.addEventListener('change', function(){
    var table = document.getElementById(select.dataset.table);
    var col = parseInt(select.dataset.column, 10);
    Array.from(table.tBodies[0].rows).forEach(function(row){
      row.style.display = (!select.value || row.cells[col].textContent === select.value) ? '' : 'none';
    });
  });
});
"""


def page(title: str, body: str, head_script: str = "") -> str:
    """A self-contained page: style, the table-sorting script and `head_script` (plotly.js)
    inline."""
    script = f"<script>{head_script}</script>" if head_script else ""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style>{script}</head><body>{body}<script>{_SCRIPT}</script></body></html>")  # fmt: skip


def _write_html(path: Path, title: str, sections: list[Section]) -> Path:
    parts = [f"<h1>{html.escape(title)}</h1>"]
    table_number = 0
    interactive = any(section.figures for section in sections)
    for number, section in enumerate(sections):
        anchor = f"s{number}"
        parts.append(f"<section id='{anchor}'><h2>{html.escape(section.title)}</h2>")
        if section.title == "At a glance":
            parts.append(_glance_html(section.text))
        elif section.text:
            parts.append(f"<p>{html.escape(section.text)}</p>")
        for index, table in enumerate(section.tables):
            table_number += 1
            wrapped = html_table(table, f"t{table_number}", section.filters.get(index, ""))
            parts.append(
                f"<div class='scroll'>{wrapped}</div>" if len(table.rows) > 25 else wrapped
            )
        if interactive:  # the PNGs are report.md's; the page draws the interactive twins
            parts += [f"<div class='plot'>{figure}</div>" for figure in section.figures]
        else:
            for plot in section.plots:
                data = base64.b64encode(plot.read_bytes()).decode()
                parts.append(
                    f"<img alt='{html.escape(plot.stem)}' src='data:image/png;base64,{data}'>"
                )
        parts.append("</section>")
    script = figures.script() if interactive else ""
    path.write_text(page(title, "".join(parts), script), encoding="utf-8")
    return path


def _glance_html(text: str) -> str:
    """The verdict's lines coloured: red, amber, and the headline in bold."""
    lines = []
    for number, line in enumerate(text.splitlines()):
        css = ("v-fail" if line.startswith("RED:") else "v-undecided" if line.startswith("AMBER")
               else "v-head" if number == 0 else "")  # fmt: skip
        lines.append(f"<div class='{css}'>{html.escape(line)}</div>")
    return f"<div class='lead'>{''.join(lines)}</div>"


def terminal_summary(folder: Path, verdict: Verdict | None = None) -> None:
    """A short summary for the terminal: first the players (bots, seed, overrides, patch) and
    the verdict with its red and amber assertions, then seats, decks, and the top and bottom
    cards by IWD."""
    from rich.console import Console
    from rich.table import Table as RichTable

    run = load_run(folder)
    console = Console(highlight=False)
    console.print(players_line(run), markup=False)
    if verdict is not None:
        colour = "red" if "FAIL" in verdict_headline(verdict) else "yellow"
        colour = "green" if "PASS" in verdict_headline(verdict) else colour
        console.print(f"[{colour}]{verdict_headline(verdict)}[/{colour}]")
        for row in verdict_rows(verdict).head(10).to_dict(orient="records"):
            console.print(f"  {_COLOUR_WORD[row['verdict']]}: {assertion_text(row)}", markup=False)
        hidden = len(verdict_rows(verdict)) - 10
        if hidden > 0:
            console.print(f"  ... and {hidden} more in the report", markup=False)
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
