"""beings' card effects (spec §6): every op, trigger, selector and condition of the starter set,
each shown on the card that uses it, played by the options' words."""

from __future__ import annotations

import pytest
from beings_kit import GAME, P1, P2, at, being, names, play, table, words

from balance.games.beings.rules import attack_power
from balance.games.beings.state import power


def test_discard_at_random_on_attack() -> None:  # Cinder Drake L2
    m = table(
        p1={"field": {"C": being("cinder_drake_1", "cinder_drake_2")}},
        p2={"hand": ["frost_hare_1", "sky_roc_1"], "field": {"L": being("sun_lion_1")}},
    )
    play(m, "attack life with cinder_drake_2 at C")
    assert m.decision().kind == "block"  # the attack skill resolved first
    assert len(m.hands[P2]) == 1 and len(m.abysses[P2]) == 1


def test_discard_picked_by_its_owner() -> None:  # Mire Serpent L2
    m = table(
        p1={"field": {"C": being("mire_serpent_1", "mire_serpent_2")}},
        p2={"hand": ["frost_hare_1", "sky_roc_1"], "field": {"L": being("sun_lion_1")}},
    )
    play(m, "attack life with mire_serpent_2 at C")
    assert m.decision().kind == "pick_card" and m.decision().seat == P2
    play(m, "discard sky_roc_1")
    assert m.decision().kind == "block"
    assert names(m, m.hands[P2]) == ["frost_hare_1"]
    assert names(m, m.abysses[P2]) == ["sky_roc_1"]


def test_defeat_a_chosen_opposing_being_within_the_filter() -> None:  # Cinder Drake L3
    m = table(
        p1={"gems": 6, "hand": ["cinder_drake_3"]},
        p2={
            "field": {
                "L": being("frost_hare_1"),
                "C": being("sky_roc_1", "sky_roc_2"),
                "R": being("ember_fox_1"),
            }
        },
    )
    play(m, "play cinder_drake_3 at C")
    assert m.decision().kind == "target"
    assert words(m) == ["target opposing frost_hare_1 at L", "target opposing ember_fox_1 at R"]
    play(m, "target opposing ember_fox_1 at R")  # sky_roc (6) is above max_power 4
    assert at(m, P2, "R") is None and names(m, m.abysses[P2]) == ["ember_fox_1"]
    assert m.result().stats["beings_lost_1"] == 1


def test_gain_gems_active_and_rested() -> None:  # Thorn Dryad L2, Blade Automaton L1
    m = table(p1={"gems": 5, "gem_deck": 3, "hand": ["thorn_dryad_2", "blade_automaton_1"]})
    play(m, "play thorn_dryad_2 at L")
    assert (m.gems_active[P1], m.gems_rested[P1], m.gem_decks[P1]) == (4, 2, 2)
    play(m, "play blade_automaton_1 at C")
    assert (m.gems_active[P1], m.gems_rested[P1], m.gem_decks[P1]) == (2, 5, 1)


def test_ready_gems_at_turn_end() -> None:  # Thorn Dryad L3 and Iron Golem L3
    m = table(
        p1={
            "gems": 3,
            "field": {
                "L": being("thorn_dryad_1", "thorn_dryad_3"),
                "R": being("iron_golem_1", "iron_golem_3"),
            },
        }
    )
    play(m, "draw a card")
    play(m, "draw a card")
    assert m.gems_rested[P1] == 2
    play(m, "end turn")
    assert m.gems_active[P1] == 3 and m.gems_rested[P1] == 0  # both readied one


def test_power_until_your_next_turn_on_a_chosen_own_being() -> None:  # Elder Treant L3
    m = table(
        p1={"field": {"C": being("elder_treant_1", "elder_treant_3"), "L": being("frost_hare_1")}}
    )
    play(m, "end turn")
    assert m.decision().kind == "target" and m.decision().seat == P1
    play(m, "target own frost_hare_1 at L")
    hare = at(m, P1, "L")
    assert power(m.spec, hare) == 4 and m.active == P2  # it holds through P2's turn
    play(m, "end turn")
    assert m.active == P1 and power(m.spec, hare) == 2  # expired at P1's next turn start


def test_a_blocker_that_readies_itself() -> None:  # Mountain Titan L3
    m = table(
        p1={"field": {"C": being("sky_roc_1")}},
        p2={
            "hand": ["frost_hare_1"],
            "field": {"R": being("mountain_titan_1", "mountain_titan_3")},
        },
    )
    play(m, "attack life with sky_roc_1 at C")
    play(m, "block with mountain_titan_3 at R")
    assert not at(m, P2, "R").rested


def test_an_activated_skill_with_a_cost_once_per_turn() -> None:  # Gale Sprite L2
    m = table(
        p1={"gems": 3, "field": {"L": being("gale_sprite_1", "gale_sprite_2")}},
        p2={
            "field": {
                "L": being("frost_hare_1"),
                "C": being("sky_roc_1"),
                "R": being("ember_fox_1"),
            }
        },
    )
    play(m, "activate gale_sprite_2 at L")
    assert words(m) == ["target opposing frost_hare_1 at L", "target opposing sky_roc_1 at C"]
    play(m, "target opposing sky_roc_1 at C")  # in reach of L; R is not
    assert at(m, P2, "C").rested and m.gems_active[P1] == 2
    assert not [w for w in words(m) if w.startswith("activate")]
    assert "attack sky_roc_1 at C with gale_sprite_2 at L" in words(m)


def test_rest_the_being_across_before_the_block() -> None:  # Sky Roc L3
    m = table(
        p1={"field": {"C": being("sky_roc_1", "sky_roc_3")}},
        p2={"field": {"C": being("stone_warden_1"), "L": being("frost_hare_1")}},
    )
    play(m, "attack life with sky_roc_3 at C")
    assert at(m, P2, "C").rested
    assert words(m) == ["no block", "block with frost_hare_1 at L"]


def test_draw_on_play() -> None:  # Frost Hare L3
    m = table(p1={"gems": 3, "hand": ["frost_hare_3"]})
    play(m, "play frost_hare_3 at L")
    assert len(m.hands[P1]) == 1 and len(m.decks[P1]) == 9


@pytest.mark.parametrize("answer, hand", [("yes", ["ember_fox_1"]), ("no", [])])
def test_an_optional_recover_of_a_level_1_card(answer: str, hand: list[str]) -> None:
    m = table(p1={"gems": 3, "hand": ["dawn_seraph_2"], "abyss": ["ember_fox_1", "sky_roc_2"]})
    play(m, "play dawn_seraph_2 at C")  # Dawn Seraph L2
    assert m.decision().kind == "optional"
    play(m, answer)
    assert names(m, m.hands[P1]) == hand  # only one level-1 card: picked at once


def test_all_own_power_for_the_turn() -> None:  # Dawn Seraph L3
    m = table(
        turn=4,
        p1={"field": {"C": being("dawn_seraph_1", "dawn_seraph_3"), "L": being("frost_hare_1")}},
    )
    play(m, "end turn")  # P2's turn 4 ends; P1's turn 5 starts with the skill
    assert m.active == P1
    assert power(m.spec, at(m, P1, "L")) == 3 and power(m.spec, at(m, P1, "C")) == 8
    play(m, "end turn")
    assert power(m.spec, at(m, P1, "L")) == 2


@pytest.mark.parametrize("via", ["evolve", "summon"])
def test_revive_only_via_evolve(via: str) -> None:  # Sun Lion L2
    m = table(
        p1={
            "gems": 4,
            "hand": ["sun_lion_2"],
            "abyss": ["frost_hare_1", "sky_roc_1"],
            "field": {"C": being("sun_lion_1")},
        }
    )
    if via == "summon":
        play(m, "play sun_lion_2 at L")
        assert m.decision().kind == "main" and len(m.abysses[P1]) == 2
        return
    play(m, "evolve sun_lion_1 at C to sun_lion_2")
    assert m.decision().kind == "pick_card"
    play(m, "revive sky_roc_1")
    assert words(m) == ["revive at L", "revive at R"]
    play(m, "revive at R")
    roc = at(m, P1, "R")
    assert names(m, roc.stack) == ["sky_roc_1"] and not roc.rested and roc.entered == m.turn
    assert names(m, m.abysses[P1]) == ["frost_hare_1"]


def test_revive_on_summon_skips_without_an_empty_location() -> None:  # Wisp Shepherd L2
    m = table(
        p1={
            "gems": 3,
            "hand": ["wisp_shepherd_2"],
            "abyss": ["frost_hare_1"],
            "field": {"L": being("sky_roc_1"), "C": being("ember_fox_1"), "R": being("sun_lion_1")},
        }
    )
    play(m, "play wisp_shepherd_2 at R replacing sun_lion_1")
    assert m.decision().kind == "main" and "frost_hare_1" in names(m, m.abysses[P1])


@pytest.mark.parametrize("life, bonus", [(0, 3), (1, 0)])
def test_attack_power_at_my_life_at_most(life: int, bonus: int) -> None:  # Sun Lion L3
    m = table(
        p1={"life": life, "field": {"C": being("sun_lion_1", "sun_lion_3")}},
        p2={"hand": ["frost_hare_1"], "field": {"C": being("sky_roc_1", rested=True)}},
    )
    play(m, "attack sky_roc_1 at C with sun_lion_3 at C")
    assert attack_power(m.spec, at(m, P1, "C"), at(m, P2, "C")) == 8 + bonus


@pytest.mark.parametrize("hand, drawn", [(6, 1), (7, 0)])
def test_draw_if_hand_at_most(hand: int, drawn: int) -> None:  # Tide Oracle L2
    # checked as the skill resolves, when the Oracle has left the hand: 5, then 6 cards
    cards = [
        "frost_hare_1",
        "sky_roc_1",
        "ember_fox_1",
        "sun_lion_1",
        "gale_sprite_1",
        "thorn_dryad_1",
    ][: hand - 1] + ["tide_oracle_2"]
    m = table(p1={"gems": 3, "hand": cards})
    play(m, "play tide_oracle_2 at L")
    assert len(m.hands[P1]) == hand - 1 + drawn


def test_recover_on_evolve_and_activated_recover() -> None:  # Tide Oracle L3, Wisp Shepherd L3
    m = table(
        p1={
            "gems": 4,
            "hand": ["tide_oracle_3"],
            "abyss": ["sky_roc_2"],
            "field": {"C": being("tide_oracle_1", "tide_oracle_2")},
        }
    )
    play(m, "evolve tide_oracle_2 at C to tide_oracle_3")
    assert names(m, m.hands[P1]) == ["sky_roc_2"]
    m = table(
        p1={
            "gems": 2,
            "abyss": ["sky_roc_2", "frost_hare_1", "ember_fox_2"],
            "field": {"C": being("wisp_shepherd_1", "wisp_shepherd_3")},
        }
    )
    play(m, "activate wisp_shepherd_3 at C")
    play(m, "recover ember_fox_2")
    assert names(m, m.hands[P1]) == ["ember_fox_2"] and m.gems_active[P1] == 0


@pytest.mark.parametrize("opp_life, bonus", [(0, 1), (1, 0)])
def test_attack_power_at_opp_life_at_most(opp_life: int, bonus: int) -> None:  # Thunder Ram L1
    m = table(
        p1={"field": {"C": being("thunder_ram_1")}},
        p2={
            "life": opp_life,
            "hand": ["frost_hare_1"],
            "field": {"C": being("reef_leviathan_1", rested=True)},
        },
    )
    play(m, "attack reef_leviathan_1 at C with thunder_ram_1 at C")
    assert attack_power(m.spec, at(m, P1, "C"), at(m, P2, "C")) == 1 + bonus


@pytest.mark.parametrize("card", ["thunder_ram_3", "night_stalker_2"])
def test_attack_power_against_a_being_only(card: str) -> None:  # target_kind: being
    stack = {
        "thunder_ram_3": ("thunder_ram_1", "thunder_ram_3"),
        "night_stalker_2": ("night_stalker_1", "night_stalker_2"),
    }[card]
    m = table(
        p1={"field": {"C": being(*stack)}},
        p2={"hand": ["frost_hare_1"], "field": {"C": being("sky_roc_1", rested=True)}},
    )
    base = at(m, P1, "C").printed
    play(m, f"attack sky_roc_1 at C with {card} at C")
    assert attack_power(m.spec, at(m, P1, "C"), at(m, P2, "C")) == base + 2
    m = table(p1={"field": {"C": being(*stack)}}, p2={"life": 1})
    play(m, f"attack life with {card} at C")
    assert at(m, P1, "C").mods == [] and len(m.lives[P2]) == 0


def test_block_skill_power() -> None:  # Iron Golem L2
    m = table(
        p1={"field": {"C": being("sky_roc_1")}},
        p2={"hand": ["frost_hare_1"], "field": {"R": being("iron_golem_1", "iron_golem_2")}},
    )
    play(m, "attack life with sky_roc_1 at C")
    play(m, "block with iron_golem_2 at R")
    assert power(m.spec, at(m, P2, "R")) == 9


@pytest.mark.parametrize("deck, bonus", [(0, 3), (5, 0)])
def test_turn_start_power_if_deck_empty(deck: int, bonus: int) -> None:  # Blade Automaton L3
    m = table(
        turn=4, p1={"deck": deck, "field": {"C": being("blade_automaton_1", "blade_automaton_3")}}
    )
    play(m, "end turn")
    automaton = at(m, P1, "C")
    assert m.active == P1 and power(m.spec, automaton) == 6 + bonus
    play(m, "end turn")
    assert power(m.spec, automaton) == 6 + bonus  # until P1's next turn


def test_turn_end_power_on_self_and_optional_recover_via_evolve() -> None:  # Grave Moth L2/L3
    m = table(p1={"field": {"L": being("grave_moth_1", "grave_moth_2")}})
    play(m, "end turn")
    assert power(m.spec, at(m, P1, "L")) == 4
    m = table(
        p1={
            "gems": 3,
            "hand": ["grave_moth_3"],
            "abyss": ["frost_hare_1"],
            "field": {"L": being("grave_moth_1", "grave_moth_2")},
        }
    )
    play(m, "evolve grave_moth_2 at L to grave_moth_3")
    play(m, "yes")
    assert names(m, m.hands[P1]) == ["frost_hare_1"]


def test_a_block_that_defeats_the_attacker_fizzles_the_attack() -> None:  # Ancestor Spirit L3
    m = table(
        p1={"field": {"C": being("sky_roc_1", "sky_roc_2")}},  # power 6
        p2={
            "hand": ["frost_hare_1"],
            "field": {"R": being("ancestor_spirit_1", "ancestor_spirit_3")},
        },
    )
    play(m, "attack life with sky_roc_2 at C")
    play(m, "block with ancestor_spirit_3 at R")
    assert m.decision().kind == "defend"  # 6 > max_power 5: the attacker stays
    m = table(
        p1={"field": {"C": being("sky_roc_1")}},  # power 3
        p2={
            "hand": ["frost_hare_1"],
            "field": {"R": being("ancestor_spirit_1", "ancestor_spirit_3")},
        },
    )
    play(m, "attack life with sky_roc_1 at C")
    play(m, "block with ancestor_spirit_3 at R")
    assert at(m, P1, "C") is None and m.decision().kind == "main"
    assert m.result().stats["fizzled"] == 1 and len(m.lives[P2]) == 3


@pytest.mark.parametrize("how, weakened", [("evolve", True), ("play", False)])
def test_all_opp_power_if_stack_at_least(how: str, weakened: bool) -> None:  # Plague Wyrm L3
    m = table(
        p1={"gems": 6, "hand": ["plague_wyrm_3"], "field": {"C": being("plague_wyrm_1")}},
        p2={"field": {"L": being("frost_hare_1"), "R": being("sky_roc_1")}},
    )
    if how == "evolve":
        play(m, "evolve plague_wyrm_1 at C to plague_wyrm_3")  # skip: a stack of 2
    else:
        play(m, "play plague_wyrm_3 at L")
    assert power(m.spec, at(m, P2, "R")) == (2 if weakened else 3)


@pytest.mark.parametrize("target, bonus", [("thorn_dryad_1", 2), ("sky_roc_1", 0)])
def test_attack_power_with_type_advantage(target: str, bonus: int) -> None:  # Ember Fox L3
    m = table(
        p1={"field": {"C": being("ember_fox_1", "ember_fox_3")}},
        p2={"hand": ["frost_hare_1"], "field": {"C": being(target, rested=True)}},
    )
    play(m, f"attack {target} at C with ember_fox_3 at C")
    fox = at(m, P1, "C")
    assert sum(mod[0] for mod in fox.mods) == bonus


def test_trigger_order_choose_lets_the_owner_order_simultaneous_skills() -> None:
    spec = GAME.load(GAME.config_dir, {"rules.trigger_order": "choose"})
    m = table(
        spec,
        p1={
            "field": {
                "L": being("grave_moth_1", "grave_moth_2"),
                "R": being("thorn_dryad_1", "thorn_dryad_3"),
            }
        },
    )
    play(m, "end turn")
    assert m.decision().kind == "order_triggers"
    assert words(m) == ["resolve grave_moth_2 at L first", "resolve thorn_dryad_3 at R first"]
    play(m, "resolve thorn_dryad_3 at R first")
    assert m.active == P2 and power(spec, at(m, P1, "L")) == 4


def test_only_the_top_cards_skills_are_live() -> None:  # R21: Stone Warden L1 under its L2
    m = table(
        p1={"field": {"C": being("sky_roc_1")}},
        p2={"hand": ["frost_hare_1"], "field": {"R": being("stone_warden_1", "stone_warden_2")}},
    )
    play(m, "attack life with sky_roc_1 at C")
    play(m, "block with stone_warden_2 at R")
    assert power(m.spec, at(m, P2, "R")) == 5  # 2 + 3, no +2 from the L1 underneath
