"""Code tables that number themselves (balance/core/codes.py)."""

from __future__ import annotations

import pytest

from balance.core.codes import Names


def test_codes_follow_declaration_order_from_first() -> None:
    counters = Names(first=100)
    assert [counters.add("summoned"), counters.add("attacks")] == [100, 101]
    assert counters.names == ("summoned", "attacks") and list(counters) == ["summoned", "attacks"]
    assert len(counters) == 2


def test_a_name_declared_twice_is_refused() -> None:
    stats = Names()
    stats.add("wins")
    with pytest.raises(ValueError, match="'wins' declared twice"):
        stats.add("wins")
