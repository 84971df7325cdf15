"""possession's completions (spec §2) and the starter set's effects, played by words.

A is seat 0 (the Turn Player), B seat 1; every card not named is a vanilla filler 1/12/0.
"""

from __future__ import annotations

import pytest
from possession_kit import (
    at,
    begin,
    damage,
    deck,
    empty_support,
    glory,
    hand,
    hand_of,
    logged,
    make_spec,
    play,
    position,
    put,
    queues_at,
    table,
    triggers,
    watch,
    words,
)

from balance.core.contract import DRAWN
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.games.possession.effects import endure, might
from balance.games.possession.rules import new_game
from balance.games.possession.state import G_CANCELLED


@pytest.fixture
def starter(tmp_path):
    return make_spec(tmp_path, starter=True)


# -- completions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "credit, gainer", [("turn_player", 0), ("damage_source", 1), ("most_damage", 1)]
)
def test_g2_glory_goes_to_the_turn_player_or_the_damage_source(tmp_path, credit, gainer) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: sniper, name: Sniper, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: damage, target: defender, amount: 5}]}
  - {id: frail_d, name: Frail D, might: 1, endure: 5, nurture: 0}
""",
        glory_credit=credit,
    )
    t = table(spec)
    put(t, "P1", "sniper")  # B's Possessed finishes the Defender on A's turn
    put(t, "D", "frail_d")
    play(begin(t, "action"), "attack")
    assert [len(pile) for pile in t.glory] == [int(gainer == 0), int(gainer == 1)]


def test_g2_a_defender_that_never_escapes(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        "  - {id: frail_d, name: Frail D, might: 1, endure: 2, nurture: 0}\n",
        defender_escapes=False,
    )
    t = table(spec)
    put(t, "D", "frail_d", damage=5)
    play(begin(t, "action"), "attack")
    assert at(t, "D") == "frail_d" and damage(t, "D") == 6 and damage(t, "P0") == 1
    assert t.glory == [[], []]


def test_g4_a_card_played_over_goes_to_the_hand_when_the_rules_say_so(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        "  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}\n",
        replaced_card_to="hand",
    )
    t = table(spec)
    old = put(t, "W3", "filler", damage=2)
    hand(t, 0, ["h_one"])
    play(begin(t, "play"), "play h_one on W3")
    assert t.hands[0] == [old] and t.damage[old] == 0
    assert (1, 0, t.kind[old], DRAWN, 1) in t.events, "a card entering the hand counts as drawn"


def test_g10_damage_stays_when_face_down_does_not_clear(tmp_path) -> None:
    spec = make_spec(tmp_path, "", face_down_clears_damage=False)
    t = table(spec)
    old_p = put(t, "P0", "filler", damage=3)
    hand(t, 0, [])
    play(begin(t, "swap"), "possess W2")
    assert t.occ[position(t, "W2")] == old_p and t.damage[old_p] == 3 and t.face_down == 2


def test_g10_a_revealed_card_escapes_when_it_turns_up_at_its_endure(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        "  - {id: glass, name: Glass, might: 1, endure: 2, nurture: 0}\n",
        face_down_clears_damage=False,
    )
    t = table(spec)
    put(t, "W0", "glass", damage=2)  # face down with damage: immune until revealed
    hand(t, 0, [])
    play(begin(t, "swap"), "possess W2")
    assert at(t, "W0") == "filler", "it turned up at damage >= Endure, escaped and was refilled"
    assert t.discard[-1] != t.occ[position(t, "W0")]


def test_g12_a_removed_players_pending_trigger_is_cancelled_and_the_next_player_takes_over(
    tmp_path,
) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: sapper, name: Sapper, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, if: {actor: self}, do: damage, target: each_wild, amount: 1}]}
  - {id: brittle, name: Brittle, might: 3, endure: 3, nurture: 1}
  - {id: listener, name: Listener, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: heal, target: self, amount: 1}]}
""",
    )
    t = table(spec, seats=4)
    put(t, "P0", "sapper")
    put(t, "P1", "listener")
    put(t, "W3", "brittle", damage=2)
    deck(t, 0)
    hand(t, 0, [])
    hand(t, 1, [])
    hand(t, 2, ["filler"])
    hand(t, 3, ["filler"])
    watch(begin(t, "action"))
    play(t, "attack")  # queue [P_A, P_B]; P_A's effect makes W3 escape: A, then B, are removed
    assert queues_at(t)[0][:1] == ["-"] and len(t.watch[1][1]) == 2
    assert t.removal_order == [0, 1] and t.game_stats[G_CANCELLED] == 1, "P_B's is cancelled"
    assert t.turn_seat == 2 and t.decision().seat == 2, (
        "C, who made the Turn Player's choices, plays next"
    )


def test_g7_moving_does_not_cancel_a_pending_trigger(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: mover, name: Mover, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: trade_places,
       a: {choose: each_wild}, b: {choose: each_wild}}]}
  - {id: waiter, name: Waiter, might: 1, endure: 12, nurture: 0, effects: [
      {role: wild, on: attack, do: ward, target: self, amount: 2}]}
""",
    )
    t = table(spec)
    put(t, "P0", "mover")
    waiter = put(t, "W2", "waiter")
    play(begin(t, "action"), "attack")
    play(t, "choose W2")
    play(t, "choose W3")
    assert t.occ[position(t, "W3")] == waiter and t.ward[waiter] == 2


def test_first_player_random_and_deck_auto(starter) -> None:
    game = load_game("possession")
    spec = game.load(game.config_dir, {"rules.first_player": "random"})
    firsts = {new_game(spec, ["auto"] * 3, seed).turn_seat for seed in range(20)}
    assert firsts == {0, 1, 2}
    with pytest.raises(ConfigError):
        new_game(spec, ["starter", "no_vanilla"], 0)


def test_modifiers_for_the_turn_expire(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: booster, name: Booster, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, if: {turn: mine}, do: modify, target: self,
       stat: might, amount: 2, duration: turn}]}
""",
    )
    t = table(spec)
    c = put(t, "P0", "booster")
    begin(t)
    assert might(t, c) == 3
    while t.turn_seat == 0:
        t.apply(0)
    assert might(t, c) == 1


# -- the starter set's effects --------------------------------------------------------------


def test_gale_raven_makes_a_chosen_wild_act(starter) -> None:
    t = table(starter)
    put(t, "P0", "gale_raven")
    put(t, "W3", "swift_fox")
    begin(t, "action")
    play(t, "command W1 W2")
    assert t.decision().kind == "effect_choice"
    play(t, "choose W3")
    assert t.decision().kind == "effect_action" and "attack" in words(t)
    play(t, "attack")
    assert damage(t, "D") == 4 and damage(t, "W3") == 1


def test_war_drummer_may_attack_after_a_command(starter) -> None:
    t = table(starter)
    put(t, "W4", "war_drummer")
    play(begin(t, "action"), "command W1 W2")
    assert t.decision().kind == "effect_optional"
    play(t, "use")
    assert damage(t, "D") == 2 and damage(t, "W4") == 1


def test_war_drummer_gets_ward_when_it_enters_as_a_possessed(starter) -> None:
    t = table(starter)
    hand(t, 0, ["war_drummer"])
    play(begin(t, "play"), "play war_drummer on P0")
    assert t.ward[t.occ[0]] == 2


def test_bog_witch_makes_the_turn_player_discard_after_a_soothe(starter) -> None:
    t = table(starter)
    put(t, "D", "bog_witch")
    hand(t, 0, ["stone_hound", "swift_fox"])
    play(begin(t, "action"), "soothe P0")
    assert t.decision().kind == "effect_discard"
    play(t, "discard swift_fox")
    assert hand_of(t, 0) == ["stone_hound"]


def test_veil_trickster_turns_a_wild_down_after_a_discard_and_trades_when_revealed(starter) -> None:
    t = table(starter)
    put(t, "P0", "veil_trickster")
    put(t, "W2", "veil_trickster")
    hand(t, 0, ["stone_hound"])
    play(begin(t, "swap"), "discard stone_hound")
    assert t.decision().kind == "effect_choice"
    watch(t)
    play(t, "choose W2")  # W2 turns down and the W0 card turns up
    assert t.face_down == 2
    assert triggers(t)[:2] == ["turned_face_down", "turned_face_up"]

    t = table(starter)
    put(t, "W0", "veil_trickster")
    hand(t, 0, [])
    play(begin(t, "swap"), "possess W2")  # W0 is revealed
    assert t.decision().kind == "effect_choice" and "choose W0" not in words(t)
    play(t, "choose W4")
    assert at(t, "W4") == "veil_trickster"


def test_doom_owl_makes_a_worn_possessed_escape_at_turn_end(starter) -> None:
    t = table(starter)
    put(t, "D", "doom_owl")
    put(t, "P0", "stone_hound", damage=4)  # 3/6/1: 2 left, 1 after the counter
    hand(t, 0, [])
    play(begin(t, "action"), "attack")
    play(t, "possess W2")  # the new Possessed (a filler) is healthy: nothing escapes
    assert t.decision().seat == 1
    t = table(starter)
    put(t, "D", "doom_owl")
    put(t, "P0", "stone_hound", damage=2)
    hand(t, 0, ["swift_fox"])
    hound = t.occ[0]
    play(begin(t, "action"), "attack")  # 6 - 5 = 1 left
    play(t, "discard swift_fox")  # turn end: it escapes; the deck refills it (the one option)
    assert t.discard[-1] == hound and t.occ[0] != hound


def test_grave_bell_rewards_the_others_and_grows_as_it_moves_up(starter) -> None:
    t = table(starter)
    put(t, "P0", "swift_fox")
    put(t, "D", "filler", damage=8)
    bell = put(t, "S", "grave_bell")
    hand(t, 1, [])
    play(begin(t, "action"), "attack")
    assert len(t.glory[0]) == 1 and t.occ[t.defender] == bell
    assert len(t.hands[1]) == 1 and endure(t, bell) == 6


def test_night_mare_heals_its_owner_when_an_opponent_is_removed(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: sapper, name: Sapper, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: attack, do: damage, target: each_wild, amount: 1}]}
  - {id: brittle, name: Brittle, might: 3, endure: 3, nurture: 1}
""",
        starter=True,
    )
    t = table(spec, seats=3)
    put(t, "D", "sapper")
    put(t, "W3", "brittle", damage=2)
    put(t, "P2", "night_mare", damage=3)
    deck(t, 0)
    hand(t, 0, [])
    hand(t, 1, ["filler"])
    play(begin(t, "action"), "attack")
    assert t.removed[0] and damage(t, "P2") == 0


def test_titan_shell_wards_itself_after_a_heavy_hit(starter) -> None:
    t = table(starter)
    put(t, "P0", "swift_fox")
    put(t, "D", "titan_shell")
    play(begin(t, "action"), "attack")
    assert t.ward[t.occ[t.defender]] == 2


def test_oracle_moth_gains_might_when_it_trades_places(starter) -> None:
    t = table(starter)
    moth = put(t, "W1", "oracle_moth")
    play(begin(t, "action"), "command W1 W2")
    assert might(t, moth) == 2 and t.occ[position(t, "W2")] == moth


def test_banshee_draws_when_an_opposing_possessed_escapes(starter) -> None:
    t = table(starter)
    put(t, "P1", "banshee")
    put(t, "P0", "filler", damage=11)
    deck(t, 5)
    hand(t, 1, [])
    play(begin(t, "action"), "attack")
    play(t, "deck")
    assert len(t.hands[1]) == 1


def test_ember_imp_thorn_warden_mist_heron_bramble_sprite_and_pale_lantern(starter) -> None:
    t = table(starter)
    put(t, "P0", "ember_imp")
    put(t, "D", "thorn_warden")
    play(begin(t, "action"), "attack")
    assert damage(t, "P1") == 1 and damage(t, "P0") == 3  # counter 2 + thorn 1

    t = table(starter)
    put(t, "P0", "old_willow")
    put(t, "W2", "mist_heron")
    put(t, "W1", "bramble_sprite", damage=2)
    put(t, "W3", "filler", damage=2)
    play(begin(t, "action"), "soothe W4")
    assert damage(t, "W1") == 1 and damage(t, "W3") == 1
    assert t.ward[t.occ[position(t, "W1")]] == 1

    t = table(starter)
    put(t, "P0", "pale_lantern", damage=2)
    hand(t, 0, [])
    play(begin(t, "draw"), "draw")
    assert damage(t, "P0") == 1


def test_mist_heron_may_heal_a_chosen_wild_at_turn_start(starter) -> None:
    t = table(starter)
    put(t, "P0", "mist_heron")
    put(t, "W2", "filler", damage=3)
    begin(t)
    play(t, "use")
    play(t, "choose W2")
    assert damage(t, "W2") == 2


def test_damage_logs_name_source_and_amount(tmp_path) -> None:
    spec = make_spec(tmp_path, "  - {id: hero, name: Hero, might: 3, endure: 5, nurture: 1}\n")
    t = table(spec)
    put(t, "P0", "hero")
    watch(begin(t, "action"))
    play(t, "attack")
    assert ("damaged", "hero", "filler", 3) in logged(t)


def test_an_escape_of_the_face_down_wild_refills_it_face_down_unseen(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: banisher, name: Banisher, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, do: escape, target: face_down_wild}]}
  - {id: secret, name: Secret, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec)
    put(t, "P0", "banisher")
    secret = put(t, "W0", "secret")
    begin(t)
    assert t.discard[-1] == secret and t.face_down == 0
    assert t.known[t.occ[position(t, "W0")]] == 0


def test_a_possessed_that_cannot_be_replaced_removes_its_owner(tmp_path) -> None:
    spec = make_spec(tmp_path, "")
    t = table(spec)
    put(t, "P0", "filler", damage=11)
    deck(t, 0)
    hand(t, 0, [])
    play(begin(t, "action"), "attack")
    assert t.result().winner == 1 and t.result().end_reason == "elimination"


def test_the_defender_slot_is_refilled_from_the_deck_when_support_is_empty(tmp_path) -> None:
    spec = make_spec(tmp_path, "  - {id: x_card, name: X, might: 1, endure: 7, nurture: 0}\n")
    t = table(spec)
    put(t, "D", "filler", damage=11)
    empty_support(t)
    deck(t, ["x_card", "filler", "filler"])
    glory(t, 0, 0)
    play(begin(t, "action"), "attack")
    assert at(t, "D") == "x_card" and at(t, "S") == "filler"


def test_preview_plays_an_option_and_its_nested_choices_on_a_copy(starter) -> None:
    t = table(starter)
    put(t, "P0", "gale_raven")
    begin(t, "action")
    before = (list(t.occ), list(t.damage), t.decision())
    option = words(t).index("command W1 W2")
    after = t.preview(option)
    assert (list(t.occ), list(t.damage), t.decision()) == before, "the game itself is untouched"
    assert after.decision().kind == "swap", "the chosen Wild's action was answered by the policy"
    assert after.occ[position(after, "W1")] == t.occ[position(t, "W2")]
