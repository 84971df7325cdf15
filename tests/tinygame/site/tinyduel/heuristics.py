"""tinyduel's evaluation for the bots: the point lead over the best other seat."""

from __future__ import annotations

from tinyduel.state import Table


def evaluate(t: Table, seat: int) -> float:
    """In [-1, 1] while the game is on: the lead in points over the best other seat, as a share
    of the points a win takes (rules.Duel.evaluate scores an ended game)."""
    best_other = max(p for s, p in enumerate(t.points) if s != seat)
    return max(-1.0, min(1.0, (t.points[seat] - best_other) / t.spec.points_to_win))
