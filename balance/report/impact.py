"""The report's card-impact and metagame sections, as Markdown: each a self-contained function
of its table (balance.impact's ranked table, balance.stats.metagame's Metagame)."""

from __future__ import annotations

import math

import pandas as pd

from balance.stats.metagame import Metagame


def _signed(value: float) -> str:
    return (
        "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:+.3f}"
    )


def _interval(low: float, high: float) -> str:
    if math.isnan(low) or math.isnan(high):
        return ""
    return f"[{low:+.3f}, {high:+.3f}]"


def impact_section(table: pd.DataFrame, band: float, bots: str) -> str:
    """Cards ranked by impact: each card's deck win rate as is minus with its baseline, and as is
    minus with the card's side barred from playing it, with paired 95% intervals over deals and
    where each stands against the band."""
    lines = [
        "## Card impact",
        "",
        (
            f"Which card moves its deck's win rate? Measured by intervention, {bots} bots: the "
            "same deals played as is and with the card replaced by its baseline (impact), and "
            "with its side's bot barred from playing it (restricted play). Positive: the card "
            f"helps its side. Band: +-{band:g}; verdicts: above, below, inside the band or at "
            "the edge (undecided)."
        ),
        "",
        (
            "| rank | card | decks | baseline | impact | 95% interval | verdict | deals "
            "| restricted | 95% interval | verdict | deals |"
        ),
        "|---:|---|---|---|---:|---|---|---:|---:|---|---|---:|",
    ]
    for i, row in enumerate(table.itertuples(index=False), start=1):
        lines.append(
            f"| {i} | {row.card} | {row.decks} | {row.baseline} | {_signed(row.impact)} "
            f"| {_interval(row.impact_ci_low, row.impact_ci_high)} | {row.impact_verdict} "
            f"| {int(row.impact_deals)} | {_signed(row.restricted)} "
            f"| {_interval(row.restricted_ci_low, row.restricted_ci_high)} "
            f"| {row.restricted_verdict} | {int(row.restricted_deals)} |"
        )
    return "\n".join(lines) + "\n"


def metagame_section(meta: Metagame) -> str:
    """The Nash mix of decks with bootstrap intervals, dominated decks and cycles."""
    lines = ["## Metagame", ""]
    if meta.note:
        return "\n".join([*lines, f"No metagame: {meta.note}.", ""])
    lines += [
        (
            "If both players choose their deck knowing the matchups, the equilibrium mix (Nash, "
            "zero-sum) plays each deck this often; 95% intervals from resampled deals. A deck "
            "at 0 is one no informed player needs."
        ),
        "",
        "| deck | weight | 95% interval | in resamples |",
        "|---|---:|---|---:|",
    ]
    for row in meta.mix.itertuples(index=False):
        lines.append(
            f"| {row.deck} | {row.weight:.3f} | [{row.ci_low:.3f}, {row.ci_high:.3f}] "
            f"| {row.played:.0%} |"
        )
    lines.append("")
    for d in meta.dominated:
        lines.append(f"- {d['deck']} is dominated by {d['by']} ({d['sureness']:.0%} of resamples)")
    for c in meta.cycles:
        a, b, z = c["cycle"]
        lines.append(
            f"- cycle: {a} beats {b} beats {z} beats {a} (weakest edge {c['weakest']:.3f}, "
            f"{c['sureness']:.0%} of resamples)"
        )
    if not meta.dominated and not meta.cycles:
        lines.append("- no dominated deck, no cycle")
    return "\n".join(lines) + "\n"
