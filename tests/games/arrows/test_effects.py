"""arrows' card effects and chain mechanics beyond the §11 scenarios: every op and trigger of the
starter set, `chain_order`, `target` decisions, the G9 caps, and the rules.yaml switches."""

from __future__ import annotations

from random import Random

from balance.games.arrows import rules
from balance.games.arrows.state import (
    T_CHAINS,
    T_DROPPED_TRIGGERS,
    T_MAX_CHAIN_DEPTH,
    current_atk,
    current_def,
)

from .conftest import Frame, chain


def top_card(table, s) -> str:
    top = chain(s)[-1]
    assert isinstance(top, Frame)
    return table.spec.catalog.cards[s.pieces[top.uid].card]


def test_chain_order_when_two_cards_reactivate_together(table) -> None:
    s = table.new()
    table.put(s, "D2", "2/2 [N, W]", seat=1)  # O, pulled onto C2 between two of P0's cards
    table.put(s, "B2", "3/3 [E]", seat=0)
    table.put(s, "C1", "3/3 [S]", seat=0)
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from D2")
    assert s.decision().kind == "chain_order"
    assert table.options(s) == ["chain C1", "chain B2"]
    table.play(s, "chain C1", "end phase", "conflict S with C2")
    assert table.at(s, "C2") is None  # O died in C1's conflict
    table.play(s, "end phase")
    assert top_card(table, s) == "x_3_3_e"  # B2 runs next, with no conflict left
    table.play(s, "end phase", "end phase")
    assert top_card(table, s) == "lodestone_eel"
    assert s.tally[T_MAX_CHAIN_DEPTH] == 2 and s.tally[T_CHAINS] == 2


def test_reactivation_cap_drops_and_counts(table_with) -> None:
    table = table_with(max_reactivations_per_card_per_turn=0)
    s = table.new()
    table.put(s, "B2", "lancer_pup", seat=0)
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from B2")
    assert top_card(table, s) == "lodestone_eel"  # the Pup's reactivation was dropped
    assert s.tally[T_DROPPED_TRIGGERS] == 1


def test_activation_cap_per_turn(table_with) -> None:
    table = table_with(max_activations_per_turn=1)
    s = table.new()
    s.graveyards[0] = [table.card("lancer_pup")]
    table.hand(s, 0, "grave_moth")
    table.go(s)
    table.play(s, "play grave_moth active at C2", "revive S lancer_pup")
    assert top_card(table, s) == "grave_moth" and s.tally[T_DROPPED_TRIGGERS] == 1


def test_swap_moves_both_and_only_the_other_card_reactivates(table) -> None:
    s = table.new()
    own = table.put(s, "C2", "lancer_pup", seat=0)
    table.hand(s, 0, "tide_trickster")
    table.go(s)
    table.play(s, "play tide_trickster active at C3", "swap N")
    assert table.spec.catalog.cards[table.at(s, "C2").card] == "tide_trickster"
    assert table.at(s, "C3") is own and own.moved
    assert top_card(table, s) == "lancer_pup" and len(chain(s)) == 2


def test_mirror_stag_reactivate_bonus(table) -> None:
    s = table.new()
    stag = table.put(s, "C3", "mirror_stag", seat=0)
    table.hand(s, 0, "tide_trickster")
    table.go(s)
    table.play(s, "play tide_trickster active at C4", "swap N")  # the Stag moves to C4
    assert top_card(table, s) == "mirror_stag"
    table.play(s, "end phase")
    assert current_atk(table.spec, stag) == 4 and current_def(table.spec, stag) == 6


def test_place_covered_is_free_and_reveals_next_turn(table) -> None:
    s = table.new(credits=(3, 50))
    table.hand(s, 0, "seed_sprite", "gale_titan")
    table.go(s)
    table.play(s, "play seed_sprite active at C3", "place_covered N gale_titan")
    titan = table.at(s, "C2")
    assert not titan.face_up and titan.cost_due == 0 and s.hands[0] == []
    table.play(s, "end phase", "end phase", "pass")  # P1 passes turn 6
    assert titan.face_up and s.credits[0] == 5  # revealed at no cost on P0's next turn


def test_rust_magnet_pulls_only_opponent_cards(table) -> None:
    s = table.new()
    table.put(s, "B2", "lancer_pup", seat=0)
    table.put(s, "D2", "lancer_pup", seat=1)
    table.hand(s, 0, "rust_magnet")
    table.go(s)
    table.play(s, "play rust_magnet active at C3")
    assert table.options(s) == ["end phase", "pull N from D2"]


def test_lodestone_eel_pulls_any_card_but_not_itself(table) -> None:
    s = table.new()
    table.put(s, "B2", "lancer_pup", seat=0)
    table.put(s, "D2", "lancer_pup", seat=1)
    table.put(s, "C1", "2/2 [E]", seat=1, covered=True)
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3")
    assert table.options(s) == ["end phase", "pull N from C1", "pull N from D2", "pull N from B2"]


def test_cinder_imp_damage_and_covered_cards(table) -> None:
    s = table.new()
    table.put(s, "D3", "trident_guard", seat=1)
    table.hand(s, 0, "cinder_imp")
    table.go(s)
    table.play(s, "play cinder_imp active at C3", "damage E")
    assert current_def(table.spec, table.at(s, "D3")) == 2
    s2 = table.new()
    table.put(s2, "D3", "elder_grove", seat=1, covered=True)
    table.hand(s2, 0, "cinder_imp")
    table.go(s2)
    table.play(s2, "play cinder_imp active at C3", "damage E")
    assert table.at(s2, "D3") is None  # any damage destroys a covered card


def test_ash_marksman_only_when_behind(table) -> None:
    for scores, offered in (([0, 1], True), ([1, 1], False)):
        s = table.new()
        s.scores = scores
        table.put(s, "D3", "gale_titan", seat=1)
        table.hand(s, 0, "ash_marksman")
        table.go(s)
        table.play(s, "play ash_marksman active at C3")
        assert ("damage E" in table.options(s)) is offered
    s = table.new()
    s.scores = [2, 5]
    titan = table.put(s, "D3", "gale_titan", seat=1)
    table.hand(s, 0, "ash_marksman")
    table.go(s)
    table.play(s, "play ash_marksman active at C3", "damage E")
    assert titan.damage == 3  # amount: atk


def test_verdict_hawk_destroys_only_face_up_cost_7_or_less(table) -> None:
    for name, covered, offered in (("ash_marksman", False, True), ("quake_ram", False, False),
                                   ("lancer_pup", True, False)):  # fmt: skip
        s = table.new()
        table.put(s, "C2", name, seat=1, covered=covered)
        table.hand(s, 0, "verdict_hawk")
        table.go(s)
        table.play(s, "play verdict_hawk active at C3")
        assert ("destroy N" in table.options(s)) is offered
        if offered:
            table.play(s, "destroy N")
            assert table.at(s, "C2") is None and s.graveyards[1] == [table.card(name)]


def test_ember_choir_needs_a_fire_neighbour(table) -> None:
    for neighbour, atk in (("ember_scout", 4), ("lancer_pup", 3)):
        s = table.new()
        table.put(s, "B3", neighbour, seat=0)
        table.hand(s, 0, "ember_choir")
        table.go(s)
        table.play(s, "play ember_choir active at C3")
        assert current_atk(table.spec, table.at(s, "C3")) == atk


def test_turncoat_fox_flipped_draws_for_its_previous_controller(table) -> None:
    s = table.new()
    table.put(s, "C2", "turncoat_fox", seat=1)  # [N, W]: nothing points back at the Pup
    table.hand(s, 0, "lancer_pup")
    table.go(s)
    table.play(s, "play lancer_pup active at C3", "end phase")
    assert table.at(s, "C2").controller == 0
    assert len(s.hands[1]) == 1 and s.hands[0] == []


def test_moss_hoarder_turn_end_income_only_when_poor(table) -> None:
    for credits, after in ((20, 23), (21, 21)):
        s = table.new(credits=(credits, 50))
        table.put(s, "A1", "moss_hoarder", seat=0)
        table.go(s)
        table.play(s, "pass")
        assert s.credits[0] == after


def test_root_oracle_draws_only_when_revealed(table) -> None:
    s = table.new()
    table.hand(s, 0, "root_oracle", "root_oracle")
    table.go(s)
    table.play(s, "play root_oracle active at C3")
    assert len(s.hands[0]) == 1
    table.play(s, "end phase", "end phase")
    s2 = table.new(turn=7, credits=(50, 50))
    table.hand(s2, 0, "root_oracle")
    table.go(s2)
    table.play(s2, "play root_oracle covered at C3", "pass")  # P0 covered; P1 passes
    assert table.at(s2, "C3").face_up
    assert len(s2.hands[0]) == 2  # the draw of step 2 and the Oracle's


def test_target_decision_is_made_by_the_effects_controller(table) -> None:
    s = table.new()
    table.put(s, "A1", "lancer_pup", seat=1)
    table.put(s, "E5", "lancer_pup", seat=1)
    table.hand(s, 0, "x_sniper")
    table.go(s)
    table.play(s, "play x_sniper active at C3")
    decision = s.decision()
    assert decision.kind == "target" and decision.seat == 0
    assert table.options(s) == ["target A1", "target E5", "skip"]
    table.play(s, "target E5")
    assert table.at(s, "E5").damage == 1 and table.at(s, "A1").damage == 0


def test_spark_beetle_trigger_targets_are_chosen_by_its_controller(table) -> None:
    """A destroyed trigger of P1's card resolves in P0's turn, for P1."""
    s = table.new()
    table.put(s, "D3", "spark_beetle", seat=1)
    table.hand(s, 0, "3/4 [E, S]")
    table.go(s)
    table.play(s, "play x_3_4_e_s active at C3", "end phase", "conflict E with D3")
    assert current_def(table.spec, table.at(s, "C3")) == 2


def test_covered_hit_flip_and_immune(table_with) -> None:
    for mode in ("flip", "immune"):
        table = table_with(covered_hit=mode)
        s = table.new()
        hidden = table.put(s, "D3", "trident_guard", seat=1, covered=True)
        table.hand(s, 0, "lancer_pup")
        table.go(s)
        table.play(s, "play lancer_pup active at C3", "end phase")
        assert table.at(s, "D3") is hidden and not hidden.face_up
        assert hidden.controller == (0 if mode == "flip" else 1)


def test_push_off_board_to_graveyard(table_with) -> None:
    table = table_with(push_off_board="graveyard")
    s = table.new()
    off = table.put(s, "E3", "spark_beetle", seat=1)
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram active at D3", "push E")
    assert s.removed == [] and s.graveyards[1] == [off.card]


def test_ability_arrows_do_not_fight_when_switched_off(table_with) -> None:
    for fight, conflicts in ((True, 1), (False, 0)):
        table = table_with(ability_arrows_fight=fight)
        s = table.new()
        table.put(s, "D3", "2/3 [W]", seat=1)
        table.hand(s, 0, "quake_ram")  # its E arrow carries the push
        table.go(s)
        table.play(s, "play quake_ram active at C3", "end phase")
        assert (s.decision().kind == "conflict") is bool(conflicts)
        if not fight:
            assert table.at(s, "D3").controller == 1  # no flip either


def test_placement_adjacency(table_with) -> None:
    table = table_with(placement_requires_adjacency=True)
    s = table.new()
    table.hand(s, 0, "lancer_pup")
    table.go(s)
    assert len(table.options(s)) == 1 + 2 * 25  # an empty board: any cell
    s = table.new()
    table.put(s, "A1", "lancer_pup", seat=1)
    table.hand(s, 0, "lancer_pup")
    table.go(s)
    assert sorted(o.split()[-1] for o in table.options(s)[1:]) == sorted(["A2", "B1", "B2"] * 2)


def test_open_cells_on_a_large_board(table_with) -> None:
    """The empty cells are read 8 at a time from bit tables: on a board past 8 bytes, every
    empty cell and only those, in cell order."""
    spec = table_with(board_cols=26, board_rows=26).spec
    rng = Random(3)
    for _ in range(50):
        occupied = rng.getrandbits(spec.cells)
        pick = rules.open_cells(spec, occupied)
        empty = [c for c in range(spec.cells) if not (occupied >> c) & 1]
        row = spec.plays[0]
        assert list(pick(row)) == [(0, 0, c) for c in empty] + [(0, 1, c) for c in empty]


def test_two_plays_per_turn(table_with) -> None:
    table = table_with(plays_per_turn=2)
    s = table.new()
    table.hand(s, 0, "lancer_pup", "ember_scout", "moss_hoarder")
    table.go(s)
    table.play(s, "play lancer_pup covered at A1", "play ember_scout covered at B1")
    assert s.active == 1 and s.plays == 0


def test_score_covered(table_with) -> None:
    table = table_with(score_covered=True)
    s = table.new()
    table.put(s, "A1", "lancer_pup", seat=0, covered=True)
    table.go(s)
    table.play(s, "pass")
    assert s.scores == [1, 0]


def test_first_player(table_with) -> None:
    spec = table_with(first_player="p1").spec
    assert rules.new_game(spec, ["vanguard", "vanguard"], 3).active == 1
    spec = table_with(first_player="random").spec
    assert {rules.new_game(spec, ["vanguard", "vanguard"], seed).first for seed in range(20)} == {
        0,
        1,
    }


def test_determinize_redeals_only_what_the_seat_cannot_see(table) -> None:
    s = rules.new_game(table.spec, ["vanguard", "undergrowth"], seed=5)
    chooser = Random(5)
    for _ in range(40):
        s.apply(chooser.randrange(len(s.decision().options)))
    seat = s.decision().seat
    other = 1 - seat
    for i in range(10):
        world = s.determinize(seat, Random(i))
        assert world.hands[seat] == s.hands[seat]
        assert len(world.hands[other]) == len(s.hands[other])
        assert sorted(world.decks[seat]) == sorted(s.decks[seat])
        assert world.graveyards == s.graveyards and world.credits == s.credits
        for cell, piece in enumerate(s.grid):
            if piece is not None and (piece.face_up or piece.owner == seat):
                assert world.grid[cell].card == piece.card
        assert world.inventory() == s.inventory()


def test_reveal_order_each_card_finishes_before_the_next(table) -> None:
    s = table.new(turn=7)
    first = table.put(s, "A1", "lancer_pup", seat=0, covered=True)
    second = table.put(s, "E5", "ember_scout", seat=0, covered=True)
    table.go(s)
    table.play(s, "pass", "pass")  # P0's turn 7, then P1's turn 8
    assert s.turn == 9 and s.decision().kind == "reveal_order"
    assert table.options(s) == ["reveal A1", "reveal E5"]
    table.play(s, "reveal E5")
    assert second.face_up and not first.face_up  # E5 runs its whole sequence first
    assert s.decision().kind == "ability" and top_card(table, s) == "ember_scout"
    table.play(s, "end phase", "end phase")
    assert first.face_up and top_card(table, s) == "lancer_pup"


def test_cards_covered_during_step_3_wait_for_the_next_turn(table) -> None:
    s = table.new(turn=7)
    sprite = table.put(s, "C3", "seed_sprite", seat=0, covered=True)
    table.hand(s, 0, "gale_titan")
    table.go(s)
    table.play(s, "pass", "pass")
    assert sprite.face_up  # revealed alone: no reveal_order decision
    table.play(s, "place_covered N gale_titan", "end phase", "end phase")
    titan = table.at(s, "C2")
    assert not titan.face_up and s.decision().kind == "play"  # it waits for P0's turn 11
