"""tinyduel's compiled spec: the rule numbers and the card table, made by cards.load_spec and
read by every other module of the game. Imports balance.core only."""

from __future__ import annotations

from dataclasses import dataclass

from balance.core.contract import Catalog

# The ops of a compiled effect (effects.py names their words).
DRAW, BOOST = 0, 1


@dataclass(frozen=True, slots=True)
class DuelSpec:
    catalog: Catalog
    config_hash: str
    decision_cap: int
    # rules.yaml, copied by field name (spec_from_rules)
    hand_size: int
    points_to_win: int
    max_rounds: int
    seat0_bonus: int
    # the card table, by card id
    values: tuple[int, ...]  # printed value
    on_play: tuple[tuple[tuple[int, int, bool], ...], ...]  # (op, n, only_if_behind) per effect
