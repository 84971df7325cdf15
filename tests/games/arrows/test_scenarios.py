"""arrows' rule scenarios (spec §11), one test each, played by the options' words.

P0 moves first. `table.new()` gives an empty board and empty hands with P0 at step 4 of a
mid-game turn; `table.put` sets a card (owned and controlled by a seat) on a cell.
"""

from __future__ import annotations

from random import Random

from balance.games.arrows import rules
from balance.games.arrows.state import (
    REVEAL,
    T_CHAINS,
    T_CONFLICTS,
    T_COVERED_DESTROYED,
    T_FLIPS,
    T_UNPAID_REVEALS,
    current_atk,
    current_def,
)

from .conftest import Frame, chain


def defence(table, s, cell: str) -> int:
    return current_def(table.spec, table.at(s, cell))


def frame_cell(table, s) -> str:
    """The cell of the card whose frame is on top of the chain stack."""
    top = chain(s)[-1]
    assert isinstance(top, Frame)
    return table.spec.cell_names[s.pieces[top.uid].cell]


def test_01_first_turn_credits(spec) -> None:
    s = rules.new_game(spec, ["vanguard", "undergrowth"], seed=1)
    assert s.credits == [50, 50] and s.active == 0
    s.apply(0)  # P0 passes turn 1
    assert (s.turn, s.active, s.credits) == (2, 1, [50, 50])
    s.apply(0)  # P1 passes turn 2
    assert (s.turn, s.active, s.credits) == (3, 0, [55, 50])
    s.apply(0)
    assert (s.turn, s.active, s.credits) == (4, 1, [55, 55])
    s.apply(0)  # four turns without a play or a reveal: the stall rule ends the game
    assert s.decision() is None
    assert s.result().end_reason == "stall"


def test_02_flip(table) -> None:
    s = table.new()
    table.put(s, "D3", "2/2 [N, S]", seat=1)
    table.hand(s, 0, "lancer_pup")
    table.go(s)
    table.play(s, "play lancer_pup active at C3")
    assert s.credits[0] == 47
    assert s.decision().kind == "ability"
    table.play(s, "end phase")  # Phase 1; no conflict: the D3 card has no W arrow
    assert table.at(s, "D3").controller == 0
    table.play(s, "end phase")  # Phase 2; then steps 7-9
    assert s.scores == [2, 0]
    assert s.tally[T_CONFLICTS] == 0


def test_03_simultaneous_damage_and_reset(table) -> None:
    s = table.new()
    table.put(s, "D3", "2/3 [W]", seat=1)
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram active at C3")
    assert "push E" in table.options(s)
    table.play(s, "end phase", "conflict E with D3")
    assert table.at(s, "D3") is None
    assert s.graveyards[1] == [table.card("2/3 [W]")]
    assert defence(table, s, "C3") == 3
    assert table.options(s) == ["end phase"]  # Phase 2: the push on E has no card to push
    table.play(s, "end phase")
    assert defence(table, s, "C3") == 5  # step 9 cleared the damage


def setup_04(table):
    s = table.new()
    table.put(s, "D3", "4/3 [W]", seat=1)  # Y
    table.put(s, "C4", "1/2 [N]", seat=1)  # Z
    table.put(s, "B3", "2/2 [N]", seat=1)  # V
    table.hand(s, 0, "3/4 [E, S, W]")
    table.go(s)
    table.play(s, "play x_3_4_e_s_w active at C3", "end phase")
    return s


def test_04_conflict_order_z_first(table) -> None:
    s = setup_04(table)
    assert table.options(s) == ["conflict E with D3", "conflict S with C4"]
    table.play(s, "conflict S with C4")
    assert defence(table, s, "C3") == 3 and table.at(s, "C4") is None
    table.play(s, "conflict E with D3")
    assert table.at(s, "C3") is None and table.at(s, "D3") is None  # X at -1, Y at 0
    assert table.at(s, "B3").controller == 1  # X's sequence ended: V is not flipped
    assert s.active == 1  # and P0's turn is over


def test_04_conflict_order_y_first(table) -> None:
    s = setup_04(table)
    table.play(s, "conflict E with D3")
    assert table.at(s, "C3") is None and table.at(s, "D3") is None
    assert defence(table, s, "C4") == 2  # Z is never fought
    assert table.at(s, "B3").controller == 1


def test_05_covered_play_deferred_cost(table) -> None:
    s = table.new(turn=7, credits=(12, 50))
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram covered at B2")
    assert s.credits[0] == 12
    ram = table.at(s, "B2")
    assert not ram.face_up and ram.controller == 0 and ram.cost_due == 8
    # P1 sees only "covered, P0": its determinized worlds redeal the card
    seen = {s.determinize(1, Random(i)).grid[ram.cell].card for i in range(20)}
    assert len(seen) > 1
    assert all(s.determinize(0, Random(i)).grid[ram.cell].card == ram.card for i in range(5))
    table.play(s, "pass")  # P1's turn 8
    assert s.turn == 9 and s.active == 0
    assert s.credits[0] == 9  # 12 + 5 at step 1, then 8 paid at the reveal in step 3
    assert table.at(s, "B2").face_up  # a piece is copied on write after a clone: look it up again
    assert s.decision().kind == "ability" and frame_cell(table, s) == "B2"
    assert table.options(s) == ["end phase"]  # its push on E: C2 is empty


def test_06_unpaid_reveal(table) -> None:
    s = table.new(turn=9, credits=(2, 50))
    ram = table.put(s, "B2", "quake_ram", seat=0, covered=True)
    s.step = REVEAL  # after step 1 of turn 9, with 2 credits
    s.to_reveal = [ram.uid]
    s.stall = 3
    table.go(s)
    assert table.at(s, "B2") is None
    assert s.graveyards[0] == [ram.card]
    assert s.decision().kind == "play"  # nothing activated
    assert s.credits[0] == 2
    table.play(s, "pass")
    assert s.stall == 0  # a card was revealed this turn
    assert s.tally[T_UNPAID_REVEALS] == 1


def test_07_covered_card_hit(table) -> None:
    s = table.new()
    hidden = table.put(s, "D3", "trident_guard", seat=1, covered=True)
    table.hand(s, 0, "lancer_pup")
    table.go(s)
    table.play(s, "play lancer_pup active at C3", "end phase")
    assert table.at(s, "D3") is None
    assert s.graveyards[1] == [hidden.card]  # revealed to both players there
    table.play(s, "end phase")
    assert s.scores == [1, 0]
    assert s.tally[T_CONFLICTS] == 0 and s.tally[T_COVERED_DESTROYED] == 1


def test_08_own_card_moved_chain_lifo(table) -> None:
    s = table.new()
    pup = table.put(s, "B2", "lancer_pup", seat=0)
    table.put(s, "C1", "1/1 [E]", seat=1)  # Q
    table.put(s, "D3", "1/2 [W]", seat=1)  # R
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from B2")
    # The Pup reactivates before the Eel continues: its frame is on top, the Eel's below it.
    assert (
        frame_cell(table, s) == "C2" and chain(s)[-1].uid == pup.uid and chain(s)[-1].reactivation
    )
    assert [s.pieces[f.uid].card for f in chain(s)] == [table.card("lodestone_eel"), pup.card]
    table.play(s, "end phase")  # the Pup's Phase 1; its N arrow flips Q
    assert table.at(s, "C1").controller == 0
    table.play(s, "end phase")  # the Pup's Phase 2: back to the Eel's Phase 1
    assert frame_cell(table, s) == "C3"
    table.play(s, "end phase", "conflict E with D3")
    assert table.at(s, "D3") is None
    assert defence(table, s, "C3") == 3
    assert table.at(s, "C2").controller == 0  # the Eel's N arrow at its own Pup: no effect
    assert s.tally[T_CHAINS] == 1


def test_09_opponent_card_moved_flipped_reactivates(table) -> None:
    s = table.new()
    o = table.put(s, "D2", "2/2 [N, W]", seat=1)
    k = table.put(s, "B2", "1/3 [S]", seat=1)
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from D2")
    assert frame_cell(table, s) == "C3"  # O is P1's: nothing reactivates yet
    table.play(s, "end phase")  # no conflict: O has no S arrow; the flip step flips O
    assert o.controller == 0
    assert chain(s)[-1].uid == o.uid and chain(s)[-1].reactivation  # it moved this turn
    table.play(s, "end phase")  # O's Phase 1; its W arrow flips K
    assert k.controller == 0
    assert all(not isinstance(f, Frame) or f.uid != k.uid for f in chain(s))  # K did not move
    table.play(s, "end phase")  # O's Phase 2
    assert frame_cell(table, s) == "C3" and chain(s)[-1].step == 5  # the Eel's Phase 2


def test_09_moved_into_a_conflict_chains(table) -> None:
    s = table.new()
    table.put(s, "D2", "2/2 [N, W]", seat=1)  # O
    f = table.put(s, "B2", "3/3 [E]", seat=0)  # F
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from D2")
    assert chain(s)[-1].uid == f.uid  # F and O point at each other: F reactivates at once
    table.play(s, "end phase", "conflict E with C2")
    assert table.at(s, "C2") is None
    assert current_def(table.spec, f) == 1
    table.play(s, "end phase")  # F's Phase 2; the Eel's Phase 1 follows
    assert frame_cell(table, s) == "C3"
    table.play(s, "end phase")  # no conflict, and the flip step finds C2 empty
    assert s.tally[T_FLIPS] == 0


def test_10_push(table) -> None:
    s = table.new()
    t = table.put(s, "C3", "lancer_pup", seat=1)  # T
    u = table.put(s, "D3", "bronze_sentry", seat=0)  # U
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram active at B3", "push E")
    assert s.graveyards[0] == [u.card]
    assert table.at(s, "D3") is t and t.controller == 1 and t.moved
    assert frame_cell(table, s) == "B3" and len(chain(s)) == 1  # T does not reactivate


def test_10_push_off_the_grid(table) -> None:
    s = table.new()
    off = table.put(s, "E3", "lancer_pup", seat=1)
    table.put(s, "E2", "x_reviver", seat=1)
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram active at D3", "push E")
    assert table.at(s, "E3") is None
    assert s.removed == [off.card] and s.graveyards == [[], []]  # so no revive can reach it


def test_11_revive_budget(table) -> None:
    s = table.new()
    s.graveyards[0] = [
        table.card(n) for n in ("bronze_sentry", "lancer_pup", "ember_scout")
    ]  # 4, 3, 2
    table.hand(s, 0, "x_reviver")
    table.go(s)
    table.play(s, "play x_reviver active at C2")
    assert sorted(table.options(s)) == [
        "end phase",
        "revive S bronze_sentry", "revive S ember_scout", "revive S lancer_pup",
        "revive W bronze_sentry", "revive W ember_scout", "revive W lancer_pup",
    ]  # fmt: skip
    table.play(s, "revive S bronze_sentry")
    # The revived card activates fully before the next `ability` decision of the reviver.
    assert frame_cell(table, s) == "C3"
    table.play(s, "end phase", "end phase")
    assert frame_cell(table, s) == "C2"
    assert table.options(s) == ["end phase", "revive W ember_scout"]  # 6 - 4 = 2 left


def test_12_bonuses_and_synergies(table) -> None:
    for neighbours, alpha_atk, d3_def in ((True, 4, None), (False, 2, 2)):
        s = table.new()
        if neighbours:
            table.put(s, "B3", "lancer_pup", seat=0)
            table.put(s, "C2", "lancer_pup", seat=0)
        table.put(s, "D3", "1/4 [W]", seat=1)
        table.hand(s, 0, "pack_alpha")
        table.go(s)
        table.play(s, "play pack_alpha active at C3")
        assert current_atk(table.spec, table.at(s, "C3")) == alpha_atk  # S0 ran first
        table.play(s, "end phase", "conflict E with D3")
        assert defence(table, s, "C3") == 3
        d3 = table.at(s, "D3")
        assert (d3 is None) if d3_def is None else current_def(table.spec, d3) == d3_def


def test_13_destroyed_trigger_mid_sequence(table) -> None:
    s = table.new()
    table.put(s, "D3", "spark_beetle", seat=1)
    d4 = table.put(s, "D4", "bronze_sentry", seat=0)
    table.hand(s, 0, "3/4 [E, S]")
    table.go(s)
    table.play(s, "play x_3_4_e_s active at C3", "end phase", "conflict E with D3")
    # The Beetle died (X took 1); its trigger resolved before X's sequence went on.
    assert table.at(s, "D3") is None
    assert defence(table, s, "C3") == 2
    assert d4.damage == 1
    assert s.decision().kind == "ability" and frame_cell(table, s) == "C3"


def setup_14(table):
    s = table.new(active=1, turn=30)
    cells = [c for c in table.spec.cell_names if c != "E5"]
    for i, cell in enumerate(cells[:12]):  # P0: 11 face-up and 1 covered
        table.put(s, cell, "moss_hoarder", seat=0, covered=i == 0)
    for i, cell in enumerate(cells[12:]):  # P1: 10 face-up and 2 covered
        table.put(s, cell, "moss_hoarder", seat=1, covered=i < 2)
    table.hand(s, 1, "bronze_sentry")
    return table.go(s)


def test_14_board_full(table) -> None:
    s = setup_14(table)
    table.play(s, "play bronze_sentry active at E5")
    assert s.credits[1] == 46
    assert s.decision() is None  # before the Sentry activates
    result = s.result()
    assert result.winner is None and result.end_reason == "board_full"
    assert result.stats["board_score_0"] == 11 and result.stats["board_score_1"] == 11


def test_14_board_full_at_end_of_turn(table_with) -> None:
    table = table_with(board_full_end="end_of_turn")
    s = setup_14(table)
    table.play(s, "play bronze_sentry active at E5")
    assert s.decision().kind == "ability"  # the card activates first
    while s.decision() is not None and s.active == 1:
        s.apply(0)
    assert s.result().end_reason == "board_full"


def test_15_hand_limit(table) -> None:
    s = table.new()
    hand = ["lancer_pup", "ember_scout", "quake_ram", "pack_alpha", "gale_titan",
            "cinder_imp", "wind_lancer", "siege_tower", "verdict_hawk", "spark_beetle"]  # fmt: skip
    table.hand(s, 0, *hand)
    table.go(s)
    table.play(s, "pass")
    assert s.decision().kind == "discard"
    table.play(s, "discard verdict_hawk")
    assert s.decision().kind == "discard"
    table.play(s, "discard quake_ram")
    assert s.active == 1 and len(s.hands[0]) == 8
    assert sorted(s.graveyards[0]) == sorted([table.card("verdict_hawk"), table.card("quake_ram")])


def test_15_discarded_cards_can_be_revived(table) -> None:
    s = table.new()
    s.graveyards[0] = [table.card("lancer_pup")]
    table.hand(s, 0, "grave_moth")
    table.go(s)
    table.play(s, "play grave_moth active at C2")
    assert "revive S lancer_pup" in table.options(s)


def test_16_stall(table) -> None:
    s = table.new(turn=11)
    table.put(s, "C3", "lancer_pup", seat=0)
    table.go(s)
    table.play(s, "pass", "pass", "pass", "pass")
    result = s.result()
    assert s.decision() is None and result.end_reason == "stall" and result.winner == 0
    assert not result.capped


def setup_16_cap(table, credits):
    s = table.new(active=1, turn=80, credits=credits)
    for i in range(9):
        table.put(s, table.spec.cell_names[i], "lancer_pup", seat=0)
        table.put(s, table.spec.cell_names[10 + i], "lancer_pup", seat=1)
    table.go(s)
    table.play(s, "pass")
    return s.result()


def test_16_cap(table, table_with) -> None:
    result = setup_16_cap(table, (31, 24))
    assert result.end_reason == "turn_cap" and result.capped and result.winner is None
    assert result.scores == (0.5, 0.5)
    result = setup_16_cap(table_with(tiebreak="credits"), (31, 24))
    assert result.winner == 0 and result.capped
