"""arrows' bot hooks (§10): features, evaluation, preview and the default nested policy."""

from __future__ import annotations

from random import Random

from balance.games.arrows import heuristics, rules


def test_default_policy_fights_the_conflict_it_survives_first(table) -> None:
    s = table.new()
    table.put(s, "D3", "4/3 [W]", seat=1)  # Y: its 4 ATK would destroy X (DEF 4)
    table.put(s, "C4", "1/2 [N]", seat=1)  # Z: the one X survives
    table.hand(s, 0, "3/4 [E, S, W]")
    table.go(s)
    table.play(s, "play x_3_4_e_s_w active at C3", "end phase")
    assert s.describe(heuristics.default_choice(s)) == "conflict S with C4"


def test_default_policy_uses_an_ability_that_gains(table) -> None:
    s = table.new()
    table.put(s, "D3", "2/3 [W]", seat=1)
    table.put(s, "E3", "lancer_pup", seat=1)
    table.hand(s, 0, "quake_ram")
    table.go(s)
    table.play(s, "play quake_ram active at C3")
    # Pushing the D3 card onto E3 destroys the Pup there: one opponent card fewer.
    assert heuristics.preview(s, table.options(s).index("push E")) == (1, 1)
    assert s.describe(heuristics.default_choice(s)) == "push E"


def test_default_policy_chains_the_card_that_flips_most(table) -> None:
    s = table.new()
    table.put(s, "D2", "2/2 [N, W]", seat=1)
    table.put(s, "B2", "3/3 [E]", seat=0)
    table.put(s, "C1", "1/5 [N, E, S, W]", seat=0)
    table.put(s, "D1", "2/2 [N]", seat=1)  # C1 would flip it
    table.hand(s, 0, "lodestone_eel")
    table.go(s)
    table.play(s, "play lodestone_eel active at C3", "pull N from D2")
    assert s.decision().kind == "chain_order"
    assert s.describe(heuristics.default_choice(s)) == "chain C1"


def test_default_policy_discards_the_dearest_card_out_of_reach(table) -> None:
    s = table.new(credits=(10, 50))
    table.hand(s, 0, *["lancer_pup"] * 8, "gale_titan", "verdict_hawk")
    table.go(s)
    table.play(s, "pass")
    assert s.describe(heuristics.default_choice(s)) == "discard verdict_hawk"


def test_features_and_exposure(table) -> None:
    s = table.new()
    pup = table.put(s, "C3", "lancer_pup", seat=0)
    table.put(s, "B3", "lancer_pup", seat=0)
    table.put(s, "D4", "lancer_pup", seat=1, covered=True)
    f = heuristics.features(s, 0)
    assert (f["score_diff"], f["opponent_covered"], f["empty_cells"]) == (2, 1, 22)
    assert heuristics.exposure(s, pup) == 5  # 8 sides, less its N and E arrows and its own B3
    assert heuristics.threats(s, pup.cell, [table.card("2/2 [N]")]) == 1  # from C4: no S arrow back
    assert heuristics.threats(s, pup.cell, [table.card("1/2 [W]")]) == 0  # from D3: a lost conflict
    assert heuristics.placement_outlook(
        s, 1, table.card("3/4 [E, S, W]"), table.spec.cell_names.index("C2")
    ) == (0, 1, False)


def test_a_whole_game_by_the_default_policy(spec) -> None:
    s = rules.new_game(spec, ["vanguard", "undergrowth"], seed=3)
    while s.decision() is not None:
        s.apply(heuristics.default_choice(s))
    assert s.result().end_reason in ("board_full", "stall", "turn_cap")


def test_evaluate_stays_in_range_and_reads_only_known_cards(spec) -> None:
    s = rules.new_game(spec, ["crossroads", "undergrowth"], seed=11)
    chooser = Random(1)
    while (decision := s.decision()) is not None:
        for seat in (0, 1):
            value = s.evaluate(seat)
            assert -1.0 <= value <= 1.0
            assert s.determinize(seat, Random(2)).evaluate(seat) == value
        s.apply(chooser.randrange(len(decision.options)))
    assert s.evaluate(0) in (-1.0, 0.0, 1.0)


def test_evaluation_reads_a_lead_an_exposed_card_and_the_stage_of_the_game(table) -> None:
    safe, exposed = table.new(), table.new()
    table.put(safe, "A1", "elder_grove", seat=0)  # arrows on every side the corner has
    table.put(exposed, "C3", "elder_grove", seat=0)  # no NW arrow: B2 could flip it
    for s in (safe, exposed):
        table.go(s)
    assert safe.evaluate(0) > exposed.evaluate(0) > 0
    assert safe.evaluate(1) == -safe.evaluate(0)
    late = table.new()
    for i, cell in enumerate(["B1", "C1", "D1", "E1", "B2", "C2", "D2", "E2"]):
        table.put(late, cell, "elder_grove", seat=i % 2)
    table.put(late, "A1", "elder_grove", seat=0)
    table.go(late)
    assert late.evaluate(0) > safe.evaluate(0), "a one-card lead counts for more later"


def test_evaluation_at_the_end_is_the_result(spec) -> None:
    s = rules.new_game(spec, ["crossroads", "vanguard"], seed=5)
    chooser = Random(5)
    while (decision := s.decision()) is not None:
        s.apply(chooser.randrange(len(decision.options)))
    scores = s.result().scores
    assert [s.evaluate(seat) for seat in (0, 1)] == [2 * x - 1 for x in scores]
