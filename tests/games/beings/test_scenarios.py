"""beings: one test per rule scenario of spec beings.md §11, played by the options' words.

P1 is seat 0 (`first_player: seat0`), P2 is seat 1; odd turns are P1's. Beings set on the table
entered on an earlier turn unless a test says otherwise.
"""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
from beings_kit import (
    GAME,
    P1,
    P2,
    SPEC,
    add_test_beings,
    at,
    being,
    config_copy,
    names,
    play,
    refresh,
    table,
    three_levels,
    words,
)

from balance.games.beings.cards import load_spec
from balance.games.beings.rules import BeingsMatch, attack_power, defence_power, new_game
from balance.games.beings.state import NOBODY, power

# -- §11 scenarios ---------------------------------------------------------------------------------


def test_1_double_damage() -> None:
    m = table(
        p1={"field": {"C": being("tide_oracle_1", "tide_oracle_2")}},
        p2={
            "hand": ["cinder_drake_1"],
            "gems": 0,
            "field": {"L": being("ember_fox_1", rested=True)},
        },
    )
    play(m, "attack ember_fox_1 at L with tide_oracle_2 at C")
    # P2 has no active Being, so `no_block` is its only option and is taken at once.
    assert m.decision().kind == "defend"
    oracle, fox = at(m, P1, "C"), at(m, P2, "L")
    assert attack_power(m.spec, oracle, fox) == 8  # Water + into Fire: 4 × 2
    play(m, "discard cinder_drake_1")
    # only `done` remained, so the defend step ended: 2 + 4 = 6 < 8 + 1
    assert at(m, P2, "L") is None
    assert names(m, m.abysses[P2]) == ["cinder_drake_1", "ember_fox_1"]
    assert at(m, P1, "C") is oracle and oracle.rested
    assert m.decision().kind == "main" and m.decision().seat == P1


def test_2_resist_rounds_up_and_buffs_apply_after(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    add_test_beings(
        folder, three_levels("Test A", "Fire", 7, "{on: attack, do: power, n: 2, target: self}")
    )
    add_test_beings(folder, three_levels("Test B", "Water", 6))
    spec = load_spec(folder)
    m = table(
        spec,
        p1={"field": {"C": being("test_a_1")}},
        p2={"hand": ["frost_hare_1"], "field": {"C": being("test_b_1", rested=True)}},
    )
    play(m, "attack test_b_1 at C with test_a_1 at C")
    a, b = at(m, P1, "C"), at(m, P2, "C")
    assert attack_power(m.spec, a, b) == 6  # ceil(7 / 2) + 2, not ceil((7 + 2) / 2) = 5
    assert defence_power(m, b) == 6
    play(m, "done")  # P2 adds nothing
    assert at(m, P2, "C") is None  # 6 < 6 + 1


def test_3_halving_needs_the_mutual_condition(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    rules = (folder / "rules.yaml").read_text(encoding="utf-8")
    rules += "  X: {strong: [], weak: [Y]}\n  Y: {strong: [], weak: []}\n"
    (folder / "rules.yaml").write_text(rules, encoding="utf-8")
    add_test_beings(folder, three_levels("Test X", "X", 5))
    add_test_beings(folder, three_levels("Test Y", "Y", 9))
    with pytest.warns(UserWarning, match="inert"):
        spec = load_spec(folder)
    m = table(
        spec,
        p1={"field": {"C": being("test_x_1")}},
        p2={"field": {"C": being("test_y_1", rested=True)}},
    )
    play(m, "attack test_y_1 at C with test_x_1 at C")
    assert attack_power(m.spec, at(m, P1, "C"), at(m, P2, "C")) == 5  # not 3: Y is not + into X


def test_4_reach_and_rested_targets() -> None:
    m = table(
        p1={"field": {"L": being("sky_roc_1")}},
        p2={
            "field": {
                "L": being("frost_hare_1"),
                "C": being("grave_moth_1", rested=True),
                "R": being("thunder_ram_1", rested=True),
            }
        },
    )
    attacks = [w for w in words(m) if w.startswith("attack")]
    assert attacks == [
        "attack life with sky_roc_1 at L",
        "attack grave_moth_1 at C with sky_roc_1 at L",
    ]
    assert [o for o in m.decision().options if o[0] == "attack"] == [
        ("attack", "L", "life"),
        ("attack", "L", "C"),
    ]


def test_5_life_hit_takes_the_top_life_card_without_a_defend_step() -> None:
    m = table(
        p1={"field": {"C": being("mountain_titan_1", "mountain_titan_2")}},  # power 9
        p2={
            "life": ["frost_hare_1", "sun_lion_2"],
            "hand": ["ember_fox_1"],
            "field": {"R": being("stone_warden_1")},
        },
    )
    play(m, "attack life with mountain_titan_2 at C")
    assert m.decision().kind == "block"
    play(m, "no block")
    assert len(m.lives[P2]) == 1
    assert names(m, m.hands[P2]) == ["ember_fox_1", "sun_lion_2"]
    assert m.decision().kind == "main" and m.decision().seat == P1  # no `defend` was offered


def zero_life_defence() -> BeingsMatch:
    m = table(
        p1={"field": {"C": being("storm_herald_1", "storm_herald_2")}},  # power 6
        p2={
            "life": 0,
            "gems": 1,
            "hand": ["frost_hare_1", "grave_moth_3", "cinder_drake_1", "stone_warden_2"],
            "field": {"L": being("stone_warden_1")},
        },
    )
    play(m, "attack life with storm_herald_2 at C")
    play(m, "no block")
    assert m.decision().kind == "defend"
    return m


def test_6_zero_life_defence_fails_below_the_threshold() -> None:
    m = zero_life_defence()
    play(m, "discard frost_hare_1")
    play(m, "discard grave_moth_3")
    play(m, "done")  # 2 + 3 = 5 < 6 + 1
    assert m.decision() is None
    result = m.result()
    assert result.winner == P1 and result.end_reason == "zero_life_defense_failed"
    assert not result.capped


def test_6_zero_life_defence_survives_with_discards() -> None:
    m = zero_life_defence()
    play(m, "discard grave_moth_3")
    play(m, "discard cinder_drake_1")
    play(m, "done")  # 3 + 4 = 7
    assert m.decision().kind == "main" and m.winner == NOBODY


def test_6_zero_life_defence_survives_with_an_evolution() -> None:
    m = zero_life_defence()
    play(m, "evolve stone_warden_1 at L to stone_warden_2")  # 1 gem, +3
    assert m.gems_active[P2] == 0
    play(m, "discard cinder_drake_1")
    play(m, "done")  # 3 + 4 = 7
    assert m.decision().kind == "main" and m.winner == NOBODY


def test_7_block_then_evolve_in_defence() -> None:
    m = table(
        p1={"field": {"C": being("blade_automaton_1", "blade_automaton_2")}},  # Metal, 5
        p2={
            "gems": 2,
            "hand": ["stone_warden_2", "stone_warden_3"],
            "field": {"R": being("stone_warden_1")},
        },
    )
    play(m, "attack life with blade_automaton_2 at C")
    play(m, "block with stone_warden_1 at R")
    warden = at(m, P2, "R")
    assert warden.rested and power(m.spec, warden) == 4  # its block skill: +2
    play(m, "evolve stone_warden_1 at R to stone_warden_2")
    assert m.gems_active[P2] == 1
    assert power(m.spec, warden) == 7
    assert not [w for w in words(m) if w.startswith("evolve")]  # once per turn
    play(m, "done")  # 7 >= 5 + 1
    assert at(m, P2, "R") is warden and len(m.lives[P2]) == 3
    assert power(m.spec, warden) == 5  # the block skill's +2 lasted the attack only


@pytest.mark.parametrize("life, offered", [(1, False), (0, True)])
def test_8_summoning_sickness(life: int, offered: bool) -> None:
    m = table(turn=7, p1={"life": life, "gems": 1, "hand": ["thunder_ram_1"]})
    play(m, "play thunder_ram_1 at C")
    assert at(m, P1, "C").entered == 7
    assert (("attack", "C", "life") in m.decision().options) is offered


@pytest.mark.parametrize("life", [0, 1])
def test_9_attack_once_and_the_zero_life_evolve_exception(life: int) -> None:
    m = table(
        p1={
            "life": life,
            "gems": 2,
            "hand": ["storm_herald_3"],
            "field": {"C": being("storm_herald_1", "storm_herald_2")},
        }
    )
    play(m, "attack life with storm_herald_2 at C")
    herald = at(m, P1, "C")
    assert herald.rested
    assert not [w for w in words(m) if w.startswith("attack")]
    play(m, "evolve storm_herald_2 at C to storm_herald_3")  # 5 - 3 = 2 gems
    assert m.gems_active[P1] == 0
    assert not herald.rested  # its play skill readied it
    attacks = [w for w in words(m) if w.startswith("attack")]
    if life == 0:
        assert attacks == ["attack life with storm_herald_3 at C"]
        assert power(m.spec, herald) == 10
    else:
        assert attacks == []


def test_9_a_being_readied_without_evolving_never_attacks_twice() -> None:
    m = table(p1={"life": 0, "field": {"C": being("storm_herald_1", "storm_herald_2")}})
    play(m, "attack life with storm_herald_2 at C")
    at(m, P1, "C").rested = False  # a `ready` effect
    refresh(m)
    assert not [w for w in words(m) if w.startswith("attack")]


@pytest.mark.parametrize("mode, paid", [("fixed", 2), ("difference", 3)])
def test_10_skip_evolution(mode: str, paid: int) -> None:
    spec = GAME.load(GAME.config_dir, {"rules.skip_evolve_cost_mode": mode})
    m = table(
        spec, p1={"gems": 5, "hand": ["sky_roc_2", "sky_roc_3"], "field": {"L": being("sky_roc_1")}}
    )
    play(m, "evolve sky_roc_1 at L to sky_roc_3")
    roc = at(m, P1, "L")
    assert m.gems_active[P1] == 5 - paid
    assert power(spec, roc) == 7 and len(roc.stack) == 2
    assert not [w for w in words(m) if w.startswith("evolve")]


def test_11_replacement() -> None:
    m = table(
        turn=9,
        p1={
            "deck": 0,
            "gems": 1,
            "hand": ["frost_hare_1"],
            "field": {
                "L": being("ember_fox_1"),
                "R": being("sky_roc_1"),
                "C": being("elder_treant_1", "elder_treant_2", equipped=1),
            },
        },
    )
    play(m, "play frost_hare_1 at C replacing elder_treant_2")
    assert names(m, m.abysses[P1]) == ["elder_treant_1", "elder_treant_2"]
    assert m.gems_rested[P1] == 2 and m.gems_active[P1] == 0  # 1 paid, 1 returned rested
    hare = at(m, P1, "C")
    assert names(m, hare.stack) == ["frost_hare_1"] and not hare.rested and hare.entered == 9
    result = m.result()
    assert result.stats["replaced"] == 1 and result.stats["beings_lost_0"] == 0


def test_12_deck_out_and_equip() -> None:
    m = table(
        turn=13,
        p1={"deck": 5, "field": {"L": being("reef_leviathan_1")}},
        p2={"deck": 0, "gems": 3, "hand": ["frost_hare_1"], "field": {"L": being("iron_golem_1")}},
    )
    play(m, "end turn")
    assert m.turn == 14 and m.active == P2 and m.winner == NOBODY
    assert names(m, m.hands[P2]) == ["frost_hare_1"]  # drew nothing
    shown = words(m)
    assert "draw a card for 1 gem" not in shown
    play(m, "equip a gem to iron_golem_1 at L")
    play(m, "equip a gem to iron_golem_1 at L")
    golem = at(m, P2, "L")
    assert power(m.spec, golem) == 6
    play(m, "attack life with iron_golem_1 at L")
    play(m, "no block")
    play(m, "end turn")
    assert m.turn == 15
    play(m, "attack iron_golem_1 at L with reef_leviathan_1 at L")
    leviathan = at(m, P1, "L")
    assert attack_power(m.spec, leviathan, golem) == 4  # Water into Metal: neutral
    assert defence_power(m, golem) == 6 >= 4 + 1 > golem.printed  # 4 alone would not hold
    play(m, "done")
    assert at(m, P2, "L") is golem
    play(m, "end turn")
    assert m.turn == 16
    assert golem.equipped == 0 and m.gems_active[P2] == 3 and m.gems_rested[P2] == 0
    assert power(m.spec, golem) == 4


def test_13_gem_ramp_and_the_first_turn() -> None:
    m = new_game(SPEC, ["primal", "tempest"], 7)
    while m.decision().kind == "mulligan":
        play(m, "keep")
    seen = {P1: [], P2: []}
    for turn in range(1, 9):
        assert m.turn == turn
        seat = m.active
        seen[seat].append(m.gems_active[seat])
        if turn == 1:
            assert len(m.hands[P1]) == 6 and m.gems_active[P1] == 4
            assert not [w for w in words(m) if w.startswith("attack")]
        if turn == 2:
            assert len(m.hands[P2]) == 7 and m.gems_active[P2] == 5
        play(m, "end turn")
    assert seen == {P1: [4, 6, 8, 8], P2: [5, 7, 8, 8]}
    assert m.gem_decks == [0, 0]


def test_14_attack_skill_before_block_and_resist_on_the_blocker() -> None:
    m = table(
        p1={"field": {"C": being("glacier_wyrm_1", "glacier_wyrm_2", "glacier_wyrm_3")}},
        p2={
            "hand": ["reef_leviathan_3", "frost_hare_1"],
            "field": {"L": being("grave_moth_1", rested=True), "R": being("iron_golem_1")},
        },
    )
    play(m, "attack grave_moth_1 at L with glacier_wyrm_3 at C")
    moth, golem, wyrm = at(m, P2, "L"), at(m, P2, "R"), at(m, P1, "C")
    assert power(m.spec, moth) == 0  # the attack skill resolved before the block
    play(m, "block with iron_golem_1 at R")
    assert (
        attack_power(m.spec, wyrm, golem) == 7
    )  # Ice - into Metal and Metal + into Ice: ceil(13/2)
    play(m, "discard reef_leviathan_3")
    assert defence_power(m, golem) == 10
    play(m, "done")  # 10 >= 7 + 1
    assert at(m, P2, "R") is golem and golem.rested
    assert at(m, P2, "L") is moth and power(m.spec, moth) == 2


@pytest.mark.parametrize("cap_result, winner", [("draw", None), ("tiebreak", P1)])
def test_15_turn_cap(cap_result: str, winner: int | None) -> None:
    spec = GAME.load(GAME.config_dir, {"rules.cap_result": cap_result})
    m = table(spec, turn=60, p1={"life": 2}, p2={"life": 1})
    assert m.active == P2
    play(m, "end turn")
    assert m.decision() is None
    result = m.result()
    assert result.capped and result.end_reason == "turn_limit" and result.turns == 60
    assert result.winner == winner
    if winner is None:
        assert result.scores == (0.5, 0.5)


def test_16_mulligan() -> None:
    m = new_game(SPEC, ["primal", "tempest"], 11)
    opening = list(m.hands[P1])
    play(m, f"return {SPEC.catalog.cards[opening[0]]}")
    play(m, f"return {SPEC.catalog.cards[opening[1]]}")
    for _ in range(4):
        play(m, "keep")
    returned = opening[:2]
    assert not set(returned) & set(m.hands[P1])  # the 2 new cards came from the top
    assert len(m.hands[P1]) == 6 and m.returned[P1] == 2
    while m.decision().kind == "mulligan":
        play(m, "keep")
    assert (len(m.hands[P1]), len(m.lives[P1]), len(m.decks[P1])) == (6, 3, 27)
    seen_by_p2 = m.determinize(P2, Random(5))
    assert seen_by_p2.returned[P1] == 2  # public: how many
    assert len(seen_by_p2.hands[P1]) == 6  # private: which, and what came instead
    assert sorted(seen_by_p2.hands[P1] + seen_by_p2.lives[P1] + seen_by_p2.decks[P1]) == sorted(
        m.hands[P1] + m.lives[P1] + m.decks[P1]
    )
