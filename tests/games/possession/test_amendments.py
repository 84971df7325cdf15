"""possession's completions of 2026-11-25, played by words: G15 exhaustion (a turn started on an
empty deck hurts the player's Possessed, more each time), G16 Glory for the work (a Defender's
escape credits the player whose Possessed dealt it the most damage) and G17 wear (the Defender
takes damage at the end of every turn).

A is seat 0 (the Turn Player), B seat 1; every card not named is a vanilla filler 1/12/0.
Each hand holds five fillers, so no turn offers a draw and each Swap can discard one.
"""

from __future__ import annotations

import pytest
from possession_kit import begin, damage, deck, hand, logged, make_spec, play, put, table, watch

from balance.games.possession.rules import Possession

HITTERS = """\
  - {id: anvil, name: Anvil, might: 0, endure: 6, nurture: 0}
  - {id: pebble, name: Pebble, might: 1, endure: 12, nurture: 0}
  - {id: club, name: Club, might: 2, endure: 12, nurture: 0}
  - {id: axe, name: Axe, might: 4, endure: 12, nurture: 0}
  - {id: sniper, name: Sniper, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: damage, target: defender, amount: 2}]}
"""


def ready(t: Possession) -> Possession:
    hand(t, 0, ["filler"] * 5)
    hand(t, 1, ["filler"] * 5)
    return t


def rest_of_turn(t: Possession, action: str) -> None:
    """From the Play phase: pass, `action`, then discard a filler at the Swap."""
    play(t, "pass")
    play(t, action)
    play(t, "discard filler")


def glory(t: Possession) -> list[int]:
    return [len(pile) for pile in t.glory]


# -- G15 exhaustion ---------------------------------------------------------------------------


def test_g15_each_players_own_turns_on_an_empty_deck_cost_1_2_3(tmp_path) -> None:
    t = ready(table(make_spec(tmp_path)))
    deck(t, 0)
    begin(watch(t))  # A's first turn on an empty deck
    assert damage(t, "P0") == 1
    assert ("damaged", None, "filler", 1) in logged(t), "exhaustion has no source creature"
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P1") == 1, "B's first turn on an empty deck: 1, though the game's second"
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P0") == 1 + 2, "A's second: 2 (a count over the game would say 3)"
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P1") == 1 + 2
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P0") == 1 + 2 + 3
    assert t.exhausted == (3, 2)


def test_g15_the_count_starts_once_the_deck_is_empty(tmp_path) -> None:
    t = table(make_spec(tmp_path))
    hand(t, 0, ["filler"] * 2)  # below 3: A may draw the deck's last card
    hand(t, 1, ["filler"] * 5)
    deck(t, ["filler"])
    begin(t)
    assert damage(t, "P0") == 0, "the deck still held a card as A's turn started"
    play(t, "draw")
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P1") == 1
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "P0") == 1, "A's first turn started on an empty deck"


def test_g15_exhaustion_0_is_off(tmp_path) -> None:
    t = ready(table(make_spec(tmp_path, exhaustion=0)))
    deck(t, 0)
    begin(t)
    for _ in range(3):
        rest_of_turn(t, "command W1 W2")
    assert damage(t, "P0") == 0 and damage(t, "P1") == 0 and t.exhausted == (0, 0)


# -- G16 Glory for the work -------------------------------------------------------------------


@pytest.mark.parametrize(
    "credit, gainer", [("most_damage", 1), ("turn_player", 0), ("damage_source", 0)]
)
def test_g16_the_glory_goes_to_the_most_damage_not_the_final_blow(tmp_path, credit, gainer) -> None:
    spec = make_spec(tmp_path, HITTERS, glory_credit=credit, defender_wear=0)
    t = ready(table(spec))
    put(t, "P0", "pebble")
    put(t, "P1", "axe")
    put(t, "D", "anvil")  # Endure 6
    begin(t, "play")
    rest_of_turn(t, "attack")  # A: 1
    rest_of_turn(t, "attack")  # B: 4, the Defender at 5
    assert glory(t) == [0, 0] and t.work == (1, 4)
    play(t, "pass")
    play(t, "attack")  # A's 1 makes it escape
    expected = [0, 0]
    expected[gainer] = 1
    assert glory(t) == expected, f"{credit}: A dealt 2 and the final blow, B dealt 4"
    assert t.work == (0, 0), "the next Defender's count starts afresh"


@pytest.mark.parametrize(
    "credit, gainer", [("most_damage", 1), ("turn_player", 0), ("damage_source", 1)]
)
def test_g16_a_tie_goes_to_the_player_who_dealt_the_final_damage(tmp_path, credit, gainer) -> None:
    spec = make_spec(tmp_path, HITTERS, glory_credit=credit, defender_wear=0)
    t = ready(table(spec))
    put(t, "P0", "club")
    put(t, "P1", "sniper")  # after any attack, B's Possessed deals the Defender 2
    put(t, "D", "anvil", damage=2)  # 4 left
    begin(t, "action")
    play(t, "attack")  # A's 2, then B's sniper 2 on A's turn: 2 each, B's last
    expected = [0, 0]
    expected[gainer] = 1
    assert glory(t) == expected


def test_g16_a_tie_with_no_players_final_damage_goes_to_the_turn_player(tmp_path) -> None:
    spec = make_spec(tmp_path, HITTERS)  # the shipped wear: 1 at every turn's end
    t = ready(table(spec))
    put(t, "P0", "club")
    put(t, "P1", "club")
    put(t, "D", "anvil", damage=1)  # 5 left
    begin(t, "play")
    rest_of_turn(t, "attack")  # A: 2, then the wear: 2 left
    rest_of_turn(t, "attack")  # B: 2, B dealt the last Possessed damage; the wear: 0 left
    assert glory(t) == [0, 1], "2 each; the wear has no source, so B, the Turn Player, gains"


def test_g16_a_removed_players_work_earns_nothing(tmp_path) -> None:
    spec = make_spec(tmp_path, HITTERS, defender_wear=0)
    t = ready(table(spec, seats=3))
    put(t, "P0", "pebble")
    put(t, "D", "anvil", damage=5)
    t.work = (1, 0, 4)
    t.own_rare()
    t.removed[2] = True
    begin(t, "action")
    play(t, "attack")
    assert glory(t) == [1, 0, 0], "C dealt the most but left the game: A dealt more than B"


# -- G17 wear ---------------------------------------------------------------------------------


def test_g17_the_defender_wears_1_at_the_end_of_every_turn(tmp_path) -> None:
    t = ready(table(make_spec(tmp_path)))
    begin(watch(t), "play")
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "D") == 1
    events = logged(t)
    turn_end = events.index(("turn_end", None, None, 0))
    assert events[turn_end + 1] == ("damaged", None, "filler", 1), "in the turn_end step, no source"
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "D") == 2 and t.work == (0, 0), "the wear is nobody's work"


def test_g17_wear_0_is_off(tmp_path) -> None:
    t = ready(table(make_spec(tmp_path, defender_wear=0)))
    begin(t, "play")
    rest_of_turn(t, "command W1 W2")
    rest_of_turn(t, "command W1 W2")
    assert damage(t, "D") == 0
