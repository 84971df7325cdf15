"""beings' properties over random games: every game ends; cards are conserved across deck, hand,
field stacks, Abyss and life area; gems are conserved; a Being's power is the sum of its stack."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from balance.core.contract import OPENING
from balance.core.registry import load_game
from balance.games.beings.rules import BeingsMatch, power_in_play
from balance.games.beings.state import base_power, power

GAME = load_game("beings")
SPEC = GAME.load(GAME.config_dir)
DECKS = sorted(SPEC.catalog.decks)
GAMES = settings(max_examples=12, deadline=None)

seeds = st.integers(0, 2**32 - 1)
decks = st.sampled_from(DECKS)


def zones(m: BeingsMatch, seat: int) -> list[int]:
    stacks = [c for b in m.field[seat] if b is not None for c in b.stack]
    return m.decks[seat] + m.hands[seat] + m.lives[seat] + m.abysses[seat] + stacks


def check_invariants(m: BeingsMatch, lineup: list[str]) -> None:
    spec = m.spec
    sums = (m.hand_defence[:], m.hidden_defence[:])
    m.recount()
    assert (m.hand_defence, m.hidden_defence) == sums  # the running sums kept up to date
    for seat, deck in enumerate(lineup):
        # every card of the seat's deck is in exactly one of its zones
        assert sorted(zones(m, seat)) == sorted(spec.catalog.decks[deck])
        equipped = sum(b.equipped for b in m.field[seat] if b is not None)
        assert m.gem_decks[seat] + m.gems_active[seat] + m.gems_rested[seat] + equipped == (
            spec.gem_deck_size
        )
        assert min(m.gem_decks[seat], m.gems_active[seat], m.gems_rested[seat]) >= 0
        for being in m.field[seat]:
            if being is None:
                continue
            printed = sum(spec.power[c] for c in being.stack)
            assert being.printed == printed  # R20: power is the sum of the stack
            assert base_power(spec, being) == printed + spec.equip_power * being.equipped
            assert power(spec, being) >= 0
            levels = [spec.level[c] for c in being.stack]
            assert levels == sorted(set(levels))  # R18: only upwards, never twice a level
            assert len({spec.being[c] for c in being.stack}) == 1  # one Being's cards


@GAMES
@given(seed=seeds, first=decks, second=decks)
def test_every_game_ends_and_conserves_cards_gems_and_power(
    seed: int, first: str, second: str
) -> None:
    lineup = [first, second]
    m = GAME.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    steps = 0
    check_invariants(m, lineup)
    while (decision := m.decision()) is not None:
        assert len(decision.options) >= 2  # a lone option is applied by the engine
        assert len(set(decision.options)) == len(decision.options)
        m.apply(chooser.randrange(len(decision.options)))
        steps += 1
        assert steps < SPEC.decision_cap
        check_invariants(m, lineup)
    result = m.result()
    assert result.end_reason in ("zero_life_defense_failed", "turn_limit")
    assert result.capped == (result.end_reason == "turn_limit")
    assert 1 <= result.turns <= SPEC.turn_limit
    if result.winner is not None:
        assert not m.lives[1 - result.winner]  # G13: only a player at 0 life loses
    openings = [e for e in m.events if e[3] == OPENING]
    assert len(openings) == 2 * SPEC.opening_hand
    assert result.stats["final_power_0"] == power_in_play(m, 0)


@GAMES
@given(seed=seeds, first=decks, second=decks, at=st.floats(0.0, 1.0))
def test_determinize_hides_only_the_hidden(seed: int, first: str, second: str, at: float) -> None:
    """A sample keeps the seat's hand, the public zones and every size; only deck order, life
    cards and the opponent's hand may differ."""
    lineup = [first, second]
    m = GAME.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    stop = int(at * 150)
    for _ in range(stop):
        if m.decision() is None:
            return
        m.apply(chooser.randrange(len(m.decision().options)))
    if m.decision() is None:
        return
    seat = m.decision().seat
    sample = m.determinize(seat, Random(seed))
    other = 1 - seat
    assert sample.hands[seat] == m.hands[seat]
    assert sample.abysses == m.abysses
    assert [[b and b.stack for b in side] for side in sample.field] == [
        [b and b.stack for b in side] for side in m.field
    ]
    for zone in ("decks", "hands", "lives"):
        assert [len(z) for z in getattr(sample, zone)] == [len(z) for z in getattr(m, zone)]
    assert sorted(sample.decks[seat] + sample.lives[seat]) == sorted(m.decks[seat] + m.lives[seat])
    hidden = sorted(m.hands[other] + m.lives[other] + m.decks[other])
    assert sorted(sample.hands[other] + sample.lives[other] + sample.decks[other]) == hidden
    assert sample.evaluate(seat) == m.evaluate(seat)
    check_invariants(sample, lineup)


VARIANT = GAME.load(
    GAME.config_dir,
    {
        "rules.trigger_order": "choose",
        "rules.cap_result": "tiebreak",
        "rules.block_reach": "reach",
        "rules.replace_only_when_full": True,
        "rules.skip_evolve_cost_mode": "difference",
        "rules.equip_requires_empty_deck": False,
        "rules.evolutions_per_being_per_turn": 2,
        "rules.first_player": "random",
        "rules.turn_limit": 30,
    },
)


@GAMES
@given(seed=seeds, first=decks, second=decks)
def test_variant_rules_play_out_and_clones_never_change(seed: int, first: str, second: str) -> None:
    """Every switch flipped at once: games still end, conserve everything, and clones taken
    along the way are untouched by later play (STYLE item 7)."""
    lineup = [first, second]
    m = GAME.new_game(VARIANT, lineup, seed)
    chooser = Random(seed)
    kept = []
    steps = 0
    while (decision := m.decision()) is not None:
        if steps % 25 == 0:
            twin = m.clone()
            kept.append((twin, list(twin.events), twin.decision(), twin.inventory()))
        m.apply(chooser.randrange(len(decision.options)))
        steps += 1
        check_invariants(m, lineup)
    assert m.result().turns <= VARIANT.turn_limit
    for twin, events, decision, inventory in kept:
        assert twin.events == events and twin.decision() == decision
        assert twin.inventory() == inventory
