"""The report's interactive plots (plotly), for report.html: hover for values and intervals, zoom,
and a deck filter (click a deck in the legend to hide or show it). Each function takes the same
table as its PNG twin in plots.py and returns an HTML <div>; the page embeds plotly.js once
(`script()`), so report.html stays one file that opens offline.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

# The matchup scale: 50% is white and 35% / 65% are full colour, so 46% and 55% are visibly
# tinted (a 0.2-0.8 scale left them white).
MATCHUP_SPAN = 0.15
BLUE, GREY = "#2166ac", "#888888"


def script() -> str:
    """plotly.js, to inline once in the page's head."""
    return str(get_plotlyjs())


def _div(fig: go.Figure, name: str) -> str:
    fig.update_layout(margin={"l": 10, "r": 10, "t": 50, "b": 10}, template="plotly_white")
    html: str = fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=f"plot-{name}",
        config={"displaylogo": False, "responsive": True},
    )
    return html


def _spread(table: pd.DataFrame, value: str, low: str, high: str) -> dict[str, object]:
    return {
        "type": "data",
        "symmetric": False,
        "array": (table[high] - table[value]).clip(lower=0),
        "arrayminus": (table[value] - table[low]).clip(lower=0),
    }


def deck_forest(decks: pd.DataFrame, fair: float) -> str:
    table = decks.sort_values("win_rate")
    fig = go.Figure(
        go.Scatter(
            x=table["win_rate"], y=table["deck"], mode="markers",
            error_x=_spread(table, "win_rate", "ci_low", "ci_high"),
            customdata=table[["ci_low", "ci_high", "games", "deals"]],
            hovertemplate="%{y}: %{x:.1%} [%{customdata[0]:.1%}, %{customdata[1]:.1%}]"
            "<br>%{customdata[2]:,} games, %{customdata[3]:,} deals<extra></extra>",
            marker={"color": BLUE, "size": 9},
        )
    )  # fmt: skip
    fig.add_vline(x=fair, line_dash="dash", line_color=GREY, annotation_text="fair share")
    fig.update_layout(
        title="Decks: win rate against the field (95% interval)",
        xaxis_tickformat=".0%",
        height=140 + 34 * len(table),
    )
    return _div(fig, "decks")


def matchup_heatmap(matchups: pd.DataFrame) -> str:
    rates = matchups.pivot(index="deck", columns="opponent", values="win_rate")
    low = matchups.pivot(index="deck", columns="opponent", values="ci_low")
    high = matchups.pivot(index="deck", columns="opponent", values="ci_high")
    games = matchups.pivot(index="deck", columns="opponent", values="games")
    hover = [
        [
            f"{d} vs {o}: {rates.at[d, o]:.1%}"
            + (f" [{low.at[d, o]:.1%}, {high.at[d, o]:.1%}]" if pd.notna(low.at[d, o]) else " (mirror)")
            + f"<br>{int(games.at[d, o]):,} games"
            if pd.notna(rates.at[d, o]) else ""
            for o in rates.columns
        ]
        for d in rates.index
    ]  # fmt: skip
    fig = go.Figure(
        go.Heatmap(
            z=rates.to_numpy(dtype=float), x=list(rates.columns), y=list(rates.index),
            zmid=0.5, zmin=0.5 - MATCHUP_SPAN, zmax=0.5 + MATCHUP_SPAN, colorscale="RdBu",
            text=[[f"{v:.0%}" if pd.notna(v) else "" for v in row] for row in rates.to_numpy()],
            texttemplate="%{text}", hovertext=hover, hovertemplate="%{hovertext}<extra></extra>",
            colorbar={"tickformat": ".0%", "title": "win rate"},
        )
    )  # fmt: skip
    fig.update_layout(
        title="Matchups: row deck's win rate against the column deck",
        xaxis_title="opponent",
        yaxis_title="deck",
        height=220 + 40 * len(rates),
    )
    return _div(fig, "matchups")


def seat_plot(seats: pd.DataFrame) -> str:
    n = len(seats)
    fig = go.Figure(
        go.Bar(
            x=seats["seat"].astype(str), y=seats["win_rate"],
            error_y=_spread(seats, "win_rate", "ci_low", "ci_high"),
            customdata=seats[["ci_low", "ci_high", "games"]],
            hovertemplate="seat %{x}: %{y:.1%} [%{customdata[0]:.1%}, %{customdata[1]:.1%}]"
            "<br>%{customdata[2]:,} games<extra></extra>",
            marker_color=BLUE,
        )
    )  # fmt: skip
    fig.add_hline(y=1.0 / n, line_dash="dash", line_color=GREY, annotation_text="fair share")
    fig.update_layout(
        title="Seats: win rate (seat 0 moves first)",
        xaxis_title="seat",
        yaxis_tickformat=".0%",
        height=320,
    )
    return _div(fig, "seats")


def length_histogram(games: pd.DataFrame) -> str:
    fig = go.Figure(go.Histogram(x=games["turns"], marker_color="#6b8e23", name="games"))
    fig.add_vline(x=float(games["turns"].median()), line_color="black", annotation_text="median")
    fig.update_layout(title="Game length", xaxis_title="turns", yaxis_title="games", height=320)
    return _div(fig, "length")


def card_scatter(metrics: pd.DataFrame) -> str:
    """GIH WR against play rate, one trace per deck (the legend filters by deck)."""
    table = metrics.dropna(subset=["gih_wr", "play_rate"])
    fig = go.Figure()
    for deck, rows in table.groupby("deck", sort=True):
        fig.add_trace(
            go.Scatter(
                x=rows["play_rate"], y=rows["gih_wr"], mode="markers", name=str(deck),
                error_y=_spread(rows, "gih_wr", "gih_wr_low", "gih_wr_high"),
                customdata=rows[["card", "gih_wr_low", "gih_wr_high", "iwd", "iwd_low", "iwd_high"]],
                hovertemplate="<b>%{customdata[0]}</b> (" + str(deck) + ")<br>play rate %{x:.1%}"
                "<br>GIH WR %{y:.1%} [%{customdata[1]:.1%}, %{customdata[2]:.1%}]"
                "<br>IWD %{customdata[3]:+.3f} [%{customdata[4]:+.3f}, %{customdata[5]:+.3f}]"
                "<extra></extra>",
            )
        )  # fmt: skip
    fig.update_layout(
        title="Cards: GIH WR against play rate (click a deck to hide it)",
        xaxis_title="play rate",
        yaxis_title="GIH WR (win rate when in hand)",
        xaxis_tickformat=".0%",
        yaxis_tickformat=".0%",
        height=520,
    )
    return _div(fig, "cards")


def iwd_bars(metrics: pd.DataFrame) -> str:
    """Every card's IWD with its interval, one trace per deck (the legend filters by deck)."""
    table = metrics.dropna(subset=["iwd"]).sort_values("iwd")
    fig = go.Figure()
    for deck, rows in table.groupby("deck", sort=True):
        fig.add_trace(
            go.Bar(
                x=rows["iwd"], y=rows["card"] + " (" + str(deck) + ")", orientation="h",
                name=str(deck), error_x=_spread(rows, "iwd", "iwd_low", "iwd_high"),
                customdata=rows[["iwd_low", "iwd_high", "drawn", "not_drawn"]],
                hovertemplate="%{y}: IWD %{x:+.3f} [%{customdata[0]:+.3f}, %{customdata[1]:+.3f}]"
                "<br>in hand %{customdata[2]:,} games, not %{customdata[3]:,}<extra></extra>",
            )
        )  # fmt: skip
    fig.add_vline(x=0, line_color="black")
    fig.update_layout(
        title="Improvement when drawn (IWD = GIH WR − GND WR, 95% interval)",
        yaxis={"categoryorder": "array", "categoryarray": list(table["card"] + " (" + table["deck"] + ")")},
        height=160 + 16 * len(table),
        barmode="overlay",
    )  # fmt: skip
    return _div(fig, "iwd")
