"""possession's invariants, checked at every decision of random games at 2-4 players and under
every rule variant: every game ends; cards are conserved across the deck, hands, Possessed,
Wilds, Defender, Support, glory piles and discard; exactly one Wild is face down; no creature
keeps damage at or above its Endure once escapes have resolved."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from balance.core.registry import load_game
from balance.games.possession.effects import endure
from balance.games.possession.rules import Possession, new_game
from balance.games.possession.state import EMPTY

GAME = load_game("possession")
VARIANTS: dict[tuple[tuple[str, object], ...], object] = {}
RULE_VARIANTS = [
    (),
    (("rules.retrigger_position", "keep"),),
    (("rules.face_down_clears_damage", False),),
    (("rules.glory_credit", "damage_source"), ("rules.replaced_card_to", "hand")),
    (("rules.defender_escapes", False), ("rules.glory_to_win", 0)),
    (("rules.cap_result", "draw"), ("rules.first_player", "random"), ("rules.max_chain", 3)),
    (("rules.wild_count", 4), ("rules.starting_hand", 1), ("rules.max_rounds", 8)),
]
DECKS = {
    2: ["starter", "no_vanilla"],
    3: ["starter_big", "no_vanilla"],
    4: ["starter_big", "no_vanilla"],
}
PROPERTY = settings(max_examples=12, deadline=None)


def spec_for(variant: tuple[tuple[str, object], ...]):
    if variant not in VARIANTS:
        VARIANTS[variant] = GAME.load(GAME.config_dir, dict(variant))
    return VARIANTS[variant]


def check(t: Possession, copies: int) -> None:
    zones = t.zone_copies()
    assert sorted(zones) == list(range(copies)), "a copy was lost or doubled"
    decision = t.decision()
    assert 0 <= t.face_down < t.ring, "exactly one Wild is face down"
    if decision.kind not in ("possessed_replacement", "hand_replacement"):  # refills under way
        assert EMPTY not in t.occ[t.ring_base : t.defender] and t.occ[t.defender] != EMPTY
    face_down = t.ring_base + t.face_down
    for option in decision.options:
        if option[0] in ("soothe", "choose", "play"):
            assert option[1] != face_down, "the face-down Wild is offered"
        if option[0] == "command":
            assert t.face_down not in option[1:]
    if decision.kind == "defender_replacement":
        return
    for pos in range(t.support + 1):
        c = t.occ[pos]
        if c == EMPTY or pos == face_down or (pos == t.defender and not t.spec.defender_escapes):
            continue
        assert t.damage[c] < endure(t, c), "a creature kept damage at or above its Endure"


def play_out(
    seats: int, deck: str, variant: tuple[tuple[str, object], ...], seed: int
) -> Possession:
    spec = spec_for(variant)
    t = new_game(spec, [deck] * seats, seed)
    copies = len(t.kind)
    chooser = Random(seed)
    decisions = 0
    while (decision := t.decision()) is not None:
        check(t, copies)
        assert decision.options and 0 <= decision.seat < seats
        assert not t.removed[decision.seat], "a removed player was asked"
        t.apply(chooser.randrange(len(decision.options)))
        decisions += 1
        assert decisions < spec.decision_cap
    assert sorted(t.zone_copies()) == list(range(copies))
    return t


@PROPERTY
@given(
    seats=st.integers(2, 4),
    deck=st.integers(0, 1),
    variant=st.sampled_from(RULE_VARIANTS),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_keep_every_invariant_and_end(seats, deck, variant, seed) -> None:
    t = play_out(seats, DECKS[seats][deck], variant, seed)
    result = t.result()
    assert t.over and result.end_reason in ("glory", "elimination", "cap")
    assert result.capped == (result.end_reason == "cap")
    assert sum(result.scores) == 1.0 or abs(sum(result.scores) - 1.0) < 1e-9
    assert result.turns == t.turn and result.stats["rounds"] <= t.spec.max_rounds
    alive = [s for s in range(seats) if not t.removed[s]]
    assert set(t.winners) <= set(alive)
    places = sorted(int(result.stats[f"placement_{s}"]) for s in range(seats))
    assert places[0] == 1


def test_a_game_at_every_player_count() -> None:
    for seats in (2, 3, 4):
        for seed in range(3):
            t = play_out(seats, DECKS[seats][0], (), seed)
            assert t.over and len(t.result().scores) == seats


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_determinize_keeps_every_zone_size_and_reshuffles_only_hidden_cards(seed, seats) -> None:
    t = new_game(spec_for(()), [DECKS[seats][0]] * seats, seed)
    chooser = Random(seed)
    for _ in range(60):
        decision = t.decision()
        if decision is None:
            break
        seat = decision.seat
        sample = t.determinize(seat, Random(seed))
        assert [len(h) for h in sample.hands] == [len(h) for h in t.hands]
        assert sample.occ == t.occ and sample.deck == t.deck and sample.discard == t.discard
        bit = 1 << seat
        for c in range(len(t.kind)):
            if t.known[c] & bit:
                assert sample.kind[c] == t.kind[c], "a card the seat knows changed"
        t.apply(chooser.randrange(len(decision.options)))
