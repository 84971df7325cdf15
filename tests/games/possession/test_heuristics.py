"""possession's evaluation (spec §10) on arranged tables: the Glory race reads who can make the
Defender escape next, hidden hands count by their size, the cap's tiebreak takes over at the
end; and the greedy bot, which plays by it, kills when it can and does not hand a kill over.

A is seat 0 (the Turn Player), B seat 1; every card not named is a vanilla filler 1/12/0.
"""

from __future__ import annotations

from random import Random

import pytest
from possession_kit import begin, deck, empty_support, hand, make_spec, play, put, table, words

from balance.bots.greedy import GreedyBot
from balance.games.possession.heuristics import evaluate, glory_chances


@pytest.fixture
def starter(tmp_path):
    return make_spec(tmp_path, starter=True)


def greedy_choice(t) -> str:
    decision = t.decision()
    return t.describe(GreedyBot().choose(t, decision, Random(1)))


def test_a_kill_in_reach_of_the_seat_about_to_act_counts_as_its_glory(starter) -> None:
    t = table(starter)
    put(t, "P0", "swift_fox")  # Might 4
    put(t, "D", "stone_hound", damage=3)  # 3 left
    begin(t, "action")
    assert glory_chances(t, 0) == [1.0, 0.0]
    near = evaluate(t, 0)
    far = table(starter)
    put(far, "P0", "swift_fox")
    put(far, "D", "stone_hound")  # 6 left: out of reach
    begin(far, "action")
    assert glory_chances(far, 0)[0] == 0.0 and near > evaluate(far, 0) + 0.15
    assert evaluate(t, 1) < evaluate(far, 1)


def test_once_a_seat_has_acted_the_next_seat_threatens_first(starter) -> None:
    t = table(starter)
    put(t, "P0", "swift_fox")
    put(t, "P1", "stone_hound")  # Might 3
    put(t, "D", "iron_tortoise", damage=5)  # 3 left
    hand(t, 1, [])
    begin(t, "swap")  # A's Action is behind it: B acts next
    assert glory_chances(t, 0) == [0.0, 1.0]
    assert evaluate(t, 0) < 0 < evaluate(t, 1)


def test_a_hidden_hand_threatens_by_its_size(starter) -> None:
    chances = []
    for size in (0, 1, 3):
        t = table(starter)
        put(t, "P1", "iron_tortoise")  # Might 1: only a played card could reach
        put(t, "D", "stone_hound", damage=3)  # 3 left
        hand(t, 1, ["swift_fox"] * size)
        begin(t, "swap")
        chances.append(glory_chances(t, 0)[1])
    assert chances[0] == 0.0 < chances[1] < chances[2] < 1.0
    assert glory_chances(t, 1)[1] == 1.0, "B knows its own hand"


def test_after_the_deck_a_seat_with_no_hand_card_cannot_score(starter) -> None:
    t = table(starter)
    put(t, "P1", "swift_fox")
    put(t, "D", "stone_hound", damage=3)
    deck(t, 0)
    empty_support(t)
    hand(t, 1, [])
    begin(t, "swap")
    assert glory_chances(t, 0)[1] == 0.0, "the Defender would only drop to 0 damage"
    hand(t, 1, ["filler"])
    assert glory_chances(t, 0)[1] == 1.0, "a hand card to place as the Defender"


@pytest.mark.parametrize("wear, gainer", [(1, 0), (0, 1)])
def test_a_defender_about_to_wear_out_is_the_turn_players_glory(tmp_path, wear, gainer) -> None:
    spec = make_spec(tmp_path, starter=True, defender_wear=wear)
    t = table(spec)
    put(t, "D", "stone_hound", damage=5)  # 1 left: the wear at the end of A's turn finishes it
    begin(t, "swap")
    chances = [0.0, 0.0]
    chances[gainer] = 1.0
    assert glory_chances(t, 0) == chances, "without the wear, B's Might 1 finishes it"


def test_in_the_last_round_the_caps_tiebreak_decides(starter) -> None:
    t = table(starter)
    hand(t, 0, ["filler"] * 3)
    hand(t, 1, ["filler"])
    t.round = t.spec.max_rounds
    begin(t, "swap")
    assert evaluate(t, 0) > 0.7 and evaluate(t, 1) < -0.7


def test_evaluate_reads_no_hidden_card(starter) -> None:
    t = table(starter)
    put(t, "P1", "iron_tortoise")
    put(t, "D", "stone_hound", damage=3)
    hand(t, 1, ["filler", "filler"])
    begin(t, "swap")
    before = evaluate(t, 0)
    hand(t, 1, ["swift_fox", "stone_hound"])  # other cards, same size: A cannot tell
    assert evaluate(t, 0) == before


def test_greedy_kills_the_defender_when_it_can(starter) -> None:
    t = table(starter)
    put(t, "P0", "stone_hound")  # Might 3
    put(t, "D", "iron_tortoise", damage=5)  # 3 left
    begin(t, "action")
    assert greedy_choice(t) == "attack"


def test_greedy_does_not_hand_the_next_seat_a_kill_when_the_last_blow_takes_the_glory(
    tmp_path,
) -> None:
    spec = make_spec(tmp_path, starter=True, glory_credit="turn_player")
    t = table(spec)
    put(t, "P0", "stone_hound")  # Might 3: 5 - 3 leaves 2, in reach of B's Might 2
    put(t, "P1", "titan_shell")
    put(t, "D", "bramble_sprite")  # 2/5/1, undamaged
    hand(t, 1, [])
    begin(t, "action")
    assert "attack" in words(t) and greedy_choice(t) != "attack"


def test_greedy_softens_the_defender_when_the_next_seats_kill_would_credit_its_work(
    starter,
) -> None:
    t = table(starter)  # the same table under most_damage: B's 2 to finish it is less than 3
    put(t, "P0", "stone_hound")
    put(t, "P1", "titan_shell")
    put(t, "D", "bramble_sprite")
    hand(t, 1, [])
    begin(t, "action")
    assert greedy_choice(t) == "attack"
    play(t, "attack")
    assert glory_chances(t, 0) == [1.0, 0.0]


def test_greedy_does_not_attack_when_the_next_seats_kill_would_outweigh_its_work(
    starter,
) -> None:
    t = table(starter)
    put(t, "P0", "iron_tortoise")  # Might 1: 5 - 1 leaves 4, B's Might 4 finishes it with more
    put(t, "P1", "swift_fox")
    put(t, "D", "bramble_sprite")
    hand(t, 1, [])
    begin(t, "action")
    assert greedy_choice(t) != "attack"


def test_under_most_damage_a_seats_work_on_the_defender_counts_towards_a_glory(starter) -> None:
    t = table(starter)
    put(t, "P0", "iron_tortoise")  # Might 1, out of reach: no kill this round
    put(t, "P1", "iron_tortoise")
    put(t, "D", "titan_shell")  # 2/8/0
    hand(t, 1, [])
    begin(t, "action")
    before = evaluate(t, 0)
    play(t, "attack")
    mine, theirs = glory_chances(t, 0)
    assert 0.5 / 8 < mine <= 1 / 8 and theirs == 0.0, "A dealt 1 of its 8 Endure"
    assert evaluate(t, 0) > before


def test_greedy_plays_a_strong_card_to_reach_the_kill(starter) -> None:
    t = table(starter)
    put(t, "P0", "iron_tortoise")  # Might 1
    put(t, "D", "stone_hound", damage=2)  # 4 left
    hand(t, 0, ["swift_fox", "old_willow"])
    begin(t, "play")
    assert greedy_choice(t) == "play swift_fox on P0"
    play(t, "play swift_fox on P0")
    assert greedy_choice(t) == "attack"
