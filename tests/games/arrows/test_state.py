"""arrows' copies: the copy-on-write pieces and the copy-on-first-draw RNG keep `clone()` exact."""

from __future__ import annotations

from random import Random

from balance.games.arrows import rules
from balance.games.arrows.state import deal_damage, move


def test_a_clone_and_its_original_draw_the_same_numbers_independently(table) -> None:
    s = table.new()
    copy = s.clone()
    first = [s.rng.stream().random() for _ in range(5)]
    assert copy.rng.stream() is not s.rng.stream()  # shared until one of them draws
    assert [copy.rng.stream().random() for _ in range(5)] == first
    again = copy.clone()
    assert [again.rng.stream().random() for _ in range(3)] == [
        copy.rng.stream().random() for _ in range(3)
    ]


def test_a_determinized_world_draws_from_the_bots_stream(table) -> None:
    s = table.new()
    a, b = s.determinize(0, Random(5)), s.determinize(0, Random(5))
    assert a.rng.stream().random() == b.rng.stream().random()
    assert s.determinize(0, Random(6)).rng.stream().random() != a.rng.stream().random()


def test_changes_to_a_piece_after_a_clone_stay_on_their_side(table) -> None:
    s = table.new()
    table.put(s, "C3", "lancer_pup", seat=0)
    copy = s.clone()
    deal_damage(s, table.at(s, "C3"), 1, -1, -1)
    assert table.at(s, "C3").damage == 1 and table.at(copy, "C3").damage == 0
    move(copy, table.at(copy, "C3"), table.spec.cell_names.index("D3"))
    assert table.at(s, "C3").cell == table.spec.cell_names.index("C3")
    assert table.at(copy, "C3") is None and table.at(copy, "D3").moved
    assert not table.at(s, "C3").moved


def test_counts_and_masks_are_kept_as_the_board_changes(spec) -> None:
    for seed, lineup in enumerate([["crossroads", "undergrowth"], ["undergrowth", "vanguard"]]):
        s = rules.new_game(spec, lineup, seed=seed)
        chooser = Random(seed)
        while (decision := s.decision()) is not None:
            for seat in (0, 1):
                up = sum(p.face_up and p.controller == seat for p in s.pieces.values())
                down = sum(not p.face_up and p.controller == seat for p in s.pieces.values())
                assert (len(s.up_sides[seat]), s.down[seat]) == (up, down)
                sides = [p.sides for p in s.pieces.values() if p.face_up and p.controller == seat]
                assert sorted(s.up_sides[seat]) == sorted(sides)
            assert s.occupied == sum(1 << cell for cell, p in enumerate(s.grid) if p is not None)
            ends = [p for p in s.pieces.values() if p.face_up and spec.on_turn_end[p.card]]
            assert s.turn_enders == len(ends)
            for p in s.pieces.values():
                assert p.sides == (spec.open_sides[p.card][p.cell] if p.face_up else 0)
            s.apply(chooser.randrange(len(decision.options)))


def test_play_options_are_read_lazily_from_a_snapshot(table) -> None:
    s = table.new()
    table.hand(s, 0, "lancer_pup", "gale_titan")
    table.go(s)
    decision = s.decision()
    copy = s.clone()
    s.apply(1)  # the original plays on; the copy's decision still reads the old position
    assert decision.kind == "play" and len(decision.options) == 1 + 2 * 2 * 25
    assert copy.decision() == decision and copy.decision().options == decision.options
    fresh = rules.play_options(table.spec, tuple(copy.hands[0]), copy.credits[0], copy.occupied)
    assert decision.options == fresh
    assert hash(decision) == hash(copy.decision())


def test_decks_and_graveyards_shared_by_a_clone_are_copied_before_a_change(table) -> None:
    s = table.new()
    table.hand(s, 0, *["lancer_pup"] * 9)
    table.go(s)
    copy = s.clone()
    deck, graveyard = list(copy.decks[1]), list(copy.graveyards[0])
    table.play(s, "pass", "discard lancer_pup")  # P0 discards, then P1 draws
    assert s.graveyards[0] == [*graveyard, table.card("lancer_pup")]
    assert len(s.decks[1]) == len(deck) - 1
    assert copy.graveyards[0] == graveyard and copy.decks[1] == deck
