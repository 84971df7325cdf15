"""beings' rules.yaml switches (spec §2): each non-default value changes play as documented."""

from __future__ import annotations

from typing import Any

import pytest
from beings_kit import GAME, P1, P2, SPEC, at, being, names, play, table, words

from balance.games.beings.rules import new_game
from balance.games.beings.state import power


def spec_with(**rules: Any):
    return GAME.load(GAME.config_dir, {f"rules.{k}": v for k, v in rules.items()})


def attacks(m) -> list[str]:
    return [w for w in words(m) if w.startswith("attack")]


def test_first_player_seat1_and_random() -> None:
    m = new_game(spec_with(first_player="seat1"), ["primal", "tempest"], 3)
    assert m.first == P2 and m.decision().seat == P2  # P1 is seat 1: it decides first
    firsts = {
        new_game(spec_with(first_player="random"), ["primal", "tempest"], s).first
        for s in range(12)
    }
    assert firsts == {0, 1}


def test_no_mulligan_and_other_setup_numbers() -> None:
    spec = spec_with(
        mulligan_allowed=False,
        opening_hand=5,
        life_cards=2,
        start_gems_first=1,
        start_gems_second=4,
    )
    m = new_game(spec, ["primal", "tempest"], 3)
    assert m.decision().kind == "main" and m.turn == 1
    assert (len(m.hands[P1]), len(m.lives[P1]), m.gems_active[P1]) == (5, 2, 3)
    assert (len(m.hands[P2]), len(m.lives[P2]), m.gems_active[P2]) == (5, 2, 4)


def test_first_player_draws_and_may_attack_on_turn_1() -> None:
    spec = spec_with(
        first_player_skips_draw=False, first_turn_attack=True, draw_per_turn=2, gems_per_turn=3
    )
    m = table(spec, turn=0, p1={"field": {"C": being("sky_roc_1", entered=-1)}})
    play(m, "end turn")  # turn 0 is P2's: P1's turn 1 starts
    assert m.turn == 1 and len(m.hands[P1]) == 2 and m.gems_active[P1] == 1
    assert attacks(m) == ["attack life with sky_roc_1 at C"]


def test_gem_draw_cost_and_equip_before_deck_out() -> None:
    spec = spec_with(gem_draw_cost=2, equip_requires_empty_deck=False, equip_power=2)
    m = table(spec, p1={"gems": 2, "field": {"C": being("sky_roc_1")}})
    play(m, "equip a gem to sky_roc_1 at C")
    assert power(spec, at(m, P1, "C")) == 5
    assert "draw a card for 2 gem" not in words(m)  # 1 gem left


def test_replace_only_when_full() -> None:
    spec = spec_with(replace_only_when_full=True)
    m = table(
        spec,
        p1={
            "gems": 2,
            "hand": ["frost_hare_1"],
            "field": {"L": being("sky_roc_1"), "C": being("ember_fox_1")},
        },
    )
    assert [w for w in words(m) if w.startswith("play")] == ["play frost_hare_1 at R"]


@pytest.mark.parametrize("reach, blockers", [("any", ["L", "R"]), ("reach", ["L"])])
def test_block_reach(reach: str, blockers: list[str]) -> None:
    m = table(
        spec_with(block_reach=reach),
        p1={"field": {"L": being("sky_roc_1")}},
        p2={"field": {"L": being("frost_hare_1"), "R": being("ember_fox_1")}},
    )
    play(m, "attack life with sky_roc_1 at L")
    shown = [w.split(" at ")[-1] for w in words(m) if w.startswith("block")]
    assert shown == blockers


def test_a_blocker_may_stay_active() -> None:
    m = table(
        spec_with(block_rests_blocker=False),
        p1={"field": {"C": being("sky_roc_1")}},
        p2={"hand": ["frost_hare_1"], "field": {"L": being("stone_warden_1")}},
    )
    play(m, "attack life with sky_roc_1 at C")
    play(m, "block with stone_warden_1 at L")
    assert not at(m, P2, "L").rested


def test_no_evolution_on_the_play_turn_and_two_evolutions_per_turn() -> None:
    spec = spec_with(evolve_on_play_turn=False)
    m = table(spec, p1={"gems": 6, "hand": ["sky_roc_1", "sky_roc_2"]})
    play(m, "play sky_roc_1 at L")
    assert not [w for w in words(m) if w.startswith("evolve")]
    spec = spec_with(evolutions_per_being_per_turn=2)
    m = table(
        spec, p1={"gems": 6, "hand": ["sky_roc_2", "sky_roc_3"], "field": {"L": being("sky_roc_1")}}
    )
    play(m, "evolve sky_roc_1 at L to sky_roc_2")
    play(m, "evolve sky_roc_2 at L to sky_roc_3")
    assert power(spec, at(m, P1, "L")) == 10


def test_play_skills_may_stay_silent_on_evolve() -> None:
    spec = spec_with(play_skill_on_evolve=False)
    m = table(
        spec,
        p1={
            "life": 0,
            "gems": 2,
            "hand": ["storm_herald_3"],
            "field": {"C": being("storm_herald_1", "storm_herald_2")},
        },
    )
    play(m, "attack life with storm_herald_2 at C")
    play(m, "evolve storm_herald_2 at C to storm_herald_3")
    assert at(m, P1, "C").rested and not attacks(m)


def test_evolve_min_cost() -> None:
    spec = spec_with(evolve_min_cost=2)
    m = table(spec, p1={"gems": 3, "hand": ["sky_roc_2"], "field": {"L": being("sky_roc_1")}})
    play(m, "evolve sky_roc_1 at L to sky_roc_2")  # the gap is 1
    assert m.gems_active[P1] == 1


def test_no_zero_life_haste() -> None:
    m = table(
        spec_with(zero_life_haste=False), p1={"life": 0, "gems": 1, "hand": ["thunder_ram_1"]}
    )
    play(m, "play thunder_ram_1 at C")
    assert not attacks(m)


@pytest.mark.parametrize(
    "rules, survives",
    [
        ({}, False),  # 8 vs 4 + 4: 8 < 9
        ({"defense_margin": 0}, True),  # 8 >= 8
        ({"double_multiplier": 1}, True),  # 4 vs 8
        ({"discard_defense_divisor": 2}, False),  # +2 only
    ],
)
def test_combat_numbers(rules: dict, survives: bool) -> None:
    spec = spec_with(**rules)
    m = table(
        spec,
        p1={"field": {"C": being("tide_oracle_1", "tide_oracle_2")}},  # Water 4
        p2={
            "gems": 0,
            "hand": ["cinder_drake_1", "frost_hare_1"],
            "field": {"L": being("cinder_drake_1", rested=True)},
        },
    )  # Fire 4
    play(m, "attack cinder_drake_1 at L with tide_oracle_2 at C")
    play(m, "discard cinder_drake_1")
    play(m, "done")
    assert (at(m, P2, "L") is not None) is survives


def test_resist_divisor() -> None:
    m = table(
        spec_with(resist_divisor=3),
        p1={"field": {"C": being("reef_leviathan_1", "reef_leviathan_2")}},
        p2={
            "gems": 0,
            "hand": ["frost_hare_1"],
            "field": {"C": being("thorn_dryad_1", rested=True)},
        },
    )
    play(m, "attack thorn_dryad_1 at C with reef_leviathan_2 at C")  # Water - into Nature
    from balance.games.beings.rules import attack_power

    assert attack_power(m.spec, at(m, P1, "C"), at(m, P2, "C")) == 3  # ceil(8 / 3)


def test_locations_and_reach_are_data() -> None:
    spec = GAME.load(
        GAME.config_dir,
        {"rules.locations": ["W", "E"], "rules.reach": {"W": ["W"], "E": ["W", "E"]}},
    )
    assert spec.locations == ("W", "E") and spec.reach == ((0,), (0, 1))
    m = table(
        spec,
        p1={"field": {"W": being("sky_roc_1")}},
        p2={
            "field": {
                "W": being("frost_hare_1", rested=True),
                "E": being("ember_fox_1", rested=True),
            }
        },
    )
    assert attacks(m) == [
        "attack life with sky_roc_1 at W",
        "attack frost_hare_1 at W with sky_roc_1 at W",
    ]


def test_max_actions_per_turn() -> None:
    m = table(spec_with(max_actions_per_turn=2), p1={"gems": 5})
    play(m, "draw a card")
    play(m, "draw a card")
    assert m.active == P2  # only `end turn` remained, and it was taken


def test_turn_limit_and_levels() -> None:
    spec = spec_with(turn_limit=10)
    m = table(spec, turn=10)
    play(m, "end turn")
    assert m.result().capped and m.result().turns == 10
    assert SPEC.levels == 3 and names(m, [SPEC.evolutions[0][-1][0]]) == ["ember_fox_3"]
