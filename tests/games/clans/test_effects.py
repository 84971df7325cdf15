"""clans' ops, selectors and flipped clans, one small script each (spec §6, G1-G22)."""

from __future__ import annotations

from random import Random

from balance.games.clans import rules
from balance.games.clans.effects import military
from balance.games.clans.state import NOBODY, set_status


def test_fetch_from_deck_is_revealed_and_shuffles(table) -> None:
    g = table.new()
    table.hand(g, 0, "Scribe")
    before = list(g.deck[0])
    table.play(g, "play Scribe in troop column 1")
    assert g.decision().kind == "fetch"
    assert "fetch Sage Knight" in table.options(g) and "none" in table.options(g)
    assert not any(o == "fetch Iron Guard" for o in table.options(g))  # filter: level 2
    table.play(g, "fetch Sage Knight")
    assert g.known[0] == (table.card("Sage Knight"),) and table.card("Sage Knight") in g.hand[0]
    assert sorted(g.deck[0]) == sorted(c for c in before if c != table.card("Sage Knight"))
    assert g.deck[0] != [c for c in before if c != table.card("Sage Knight")]  # shuffled


def test_known_cards_survive_determinize(table) -> None:
    g = table.new()
    table.hand(g, 0, "Scribe", "Iron Guard")
    table.play(g, "play Scribe in troop column 1", "fetch Sage Knight")
    assert g.decision().seat == 1
    for seed in range(10):
        world = g.determinize(1, Random(seed))
        assert table.card("Sage Knight") in world.hand[0] and len(world.hand[0]) == 2
        assert sorted(world.deck[0] + world.hand[0]) == sorted(g.deck[0] + g.hand[0])
        assert world.hand[1] == g.hand[1] and world.decision() == g.decision()


def test_free_play_keeps_clan_needs_unless_ignored(table) -> None:
    g = table.new(p2=("justice", "veil", "tempest"), first=1)
    table.put(g, 1, "Storm Guard", "troop", 1)
    table.hand(g, 1, "Wind Caller", "Veil Guard", "Mirage")
    table.play(g, "play Wind Caller in hero column 1")
    assert g.decision().kind == "free_play"
    assert table.options(g) == ["free_play Veil Guard in troop column 2", "none"]  # level 1 only
    table.play(g, "free_play Veil Guard in troop column 2")
    assert g.grid[1][1] == table.card("Veil Guard") and g.discard[1] == ()  # no off-clan cost

    g = table.new(p2=("justice", "veil", "tempest"), first=1)
    table.put(g, 1, "Storm Guard", "troop", 1)
    table.put(g, 1, "Cloud Warrior", "hero", 1)
    table.hand(g, 1, "Eye of the Storm", "Veil Knight", "High Judge")
    table.play(g, "play Eye of the Storm in immortal column 1")
    shown = table.options(g)
    assert "free_play Veil Knight in hero column 2" not in shown  # no support under column 2
    table.put(g, 1, "Veil Guard", "troop", 2)
    rules.refresh_decision(g)
    assert "free_play Veil Knight in hero column 2" in table.options(g)  # requirements ignored


def test_discard_down_to_your_hand(table) -> None:
    g = table.new(p1=("justice", "ironhide", "phoenix"))
    table.put(g, 0, "Sentinel", "troop", 1)
    table.hand(g, 0, "Scale Keeper", "Iron Guard", "Iron Spear")
    table.hand(g, 1, "Veil Guard", "Night Watch", "Masker", "Mirage", "Phantom")
    table.play(g, "play Scale Keeper in hero column 1")
    for _ in range(3):  # P2 holds 5, P1 now 2
        assert g.decision().kind == "discard" and g.decision().seat == 1
        g.apply(0)
    assert len(g.hand[1]) == 2 and len(g.discard[1]) == 3 and g.decision().seat == 1
    assert g.decision().kind == "action"


def test_drain_and_gain_tokens(table) -> None:
    g = table.new(p1=("justice", "ironhide", "phoenix"), held=(2, 2))
    table.hand(g, 0, "Bailiff")
    table.play(g, "play Bailiff in troop column 1")
    assert (g.held[1], g.owned[1]) == (1, 2)  # one held token spent, still owned

    g = table.new(held=(2, 2))
    table.put(g, 0, "Sage Guard", "troop", 1)
    table.hand(g, 0, "Lorekeeper")
    table.play(g, "play Lorekeeper in hero column 1")
    assert (g.held[0], g.owned[0]) == (3, 3)


def test_ready_returns_a_token_to_held(table) -> None:
    g = table.new(p1=("tempest", "ironhide", "sages"), held=(1, 2))
    g.owned = (2, g.owned[1])
    slot = table.put(g, 0, "Gale Runner", "troop", 1, tokens=1)
    table.hand(g, 0, "Squall")
    table.play(g, "play Squall in troop column 2", "ready P1 Gale Runner (troop column 1)")
    assert g.tokens[0][slot] == 0 and (g.held[0], g.owned[0]) == (2, 2)


def test_trigger_resolves_activate_entries_without_a_token(table) -> None:
    g = table.new(held=(2, 2))
    table.put(g, 0, "Acolyte", "troop", 1)
    table.put(g, 0, "Sage Guard", "troop", 2)
    table.put(g, 0, "Lorekeeper", "hero", 2)
    table.put(g, 0, "Student", "troop", 3)
    mentor = table.put(g, 0, "Mentor", "hero", 3)
    keeper = table.put(g, 0, "Keeper of Keys", "immortal", 2, tokens=1)
    shown_before = table.options(g)
    assert "activate Acolyte (troop column 1)" in shown_before
    table.play(g, "activate Acolyte (troop column 1)")
    # only cards with activate entries can be triggered; the Acolyte never names itself
    assert sorted(table.options(g)) == sorted(
        [
            "trigger P1 Mentor (hero column 3)",
            "trigger P1 Keeper of Keys (immortal column 2)",
            "none",
        ]
    )
    table.play(
        g, "trigger P1 Mentor (hero column 3)", "ready P1 Keeper of Keys (immortal column 2)"
    )
    assert g.tokens[0][mentor] == 0 and g.tokens[0][keeper] == 0 and g.held[0] == 2


def test_return_to_hand_needs_exposure_and_reveals(table) -> None:
    g = table.new(first=1)
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.put(g, 0, "Iron Wall", "hero", 1)
    table.put(g, 0, "Iron Spear", "troop", 2)
    table.put(g, 1, "Veil Guard", "troop", 1)
    table.hand(g, 1, "Mirage")
    table.play(g, "play Mirage in hero column 1")
    assert table.options(g) == [
        "return_to_hand P1 Iron Spear (troop column 2)"
    ]  # Iron Guard is covered
    table.play(g, "return_to_hand P1 Iron Spear (troop column 2)")
    assert g.hand[0] == (table.card("Iron Spear"),) and g.known[0] == (table.card("Iron Spear"),)


def test_flip_down_up_and_release(table) -> None:
    g = table.new(
        p1=("ironhide", "phoenix", "veil"), p2=("justice", "sages", "tempest"), first=1, held=(0, 2)
    )
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.put(g, 0, "Masker", "troop", 2)
    table.put(g, 0, "Veil Guard", "troop", 3)
    table.put(g, 1, "Court Clerk", "troop", 1)
    table.play(g, "activate Court Clerk (troop column 1)", "flip P1 Masker (troop column 2)")
    assert g.face_up[0][1] is False and military(g, 0) == 3 + 2
    table.hand(g, 0, "Shade")
    table.play(g, "play Shade in troop column 4", "flip P1 face-down Masker (troop column 2)")
    assert g.face_up[0][1] is True and military(g, 0) == 3 + 2 + 2 + 1

    g = table.new(p1=("phoenix", "ironhide", "sages"), held=(0, 2))
    captive = table.put(g, 0, "Phoenix Guard", "troop", 1, captured=True)
    table.put(g, 0, "Iron Guard", "troop", 2)
    table.hand(g, 0, "Rebirth Priest")
    assert military(g, 0) == 3
    assert not any(
        o.startswith("play Rebirth Priest") for o in table.options(g)
    )  # no active Phoenix Troop
    table.put(g, 0, "Ember Scout", "troop", 3)
    table.play(
        g, "play Rebirth Priest in hero column 1", "release P1 Phoenix Guard (troop column 1)"
    )
    assert g.captor[0][captive] == NOBODY and military(g, 0) == 3 + 1 + 3 + 3


def test_capture_keeps_support_and_ends_when_the_card_leaves(table) -> None:
    g = table.new(p2=("goan_sul", "veil", "tempest"), first=1)
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.put(g, 0, "Iron Wall", "hero", 1)
    table.put(g, 0, "Iron Spear", "troop", 2)
    table.put(g, 1, "Chain Warden", "troop", 1)
    table.play(
        g, "activate Chain Warden (troop column 1)", "capture P1 Iron Spear (troop column 2)"
    )
    assert g.captor[0][1] == 1 and military(g, 0) == 7
    assert g.grid[0][5] == table.card("Iron Wall")  # the Hero keeps its support


def test_ongoing_add_military_and_rule_mod(table) -> None:
    g = table.new(p1=("ironhide", "lantern", "sages"))
    table.put(g, 0, "Shieldbearer", "troop", 1)
    table.put(g, 0, "Iron Marshal", "hero", 1)
    assert (military(g, 0), military(g, 1)) == (2 + 1 + 3, -1)
    table.put(g, 0, "Lantern Guard", "troop", 2)
    table.put(g, 0, "Gloom Warden", "hero", 2)
    table.hand(
        g, 1, "Veil Guard", "Night Watch", "Masker", "Mirage", "Phantom", "Unveiler", "Veil Knight"
    )
    assert rules.player_rule(g, 1, rules.HAND_LIMIT) == 6  # hand limit 7 - 1
    table.play(g, "draw_small")  # P1's turn ends: P2's 7 cards are above its limit (§4)
    assert g.decision().kind == "discard" and g.decision().seat == 1
    table.play(g, "discard Veil Knight")
    assert len(g.hand[1]) == 6 and g.decision().kind == "action" and g.decision().seat == 1
    set_status(g, 0, 6, False, NOBODY)  # Gloom Warden face down: its ongoing stops
    assert rules.player_rule(g, 1, rules.HAND_LIMIT) == 7


def test_shift_discount_from_storm_sovereign(table) -> None:
    g = table.new(p1=("tempest", "ironhide", "phoenix"))
    table.put(g, 0, "Storm Guard", "troop", 1)
    table.put(g, 0, "Cloud Warrior", "hero", 1)
    table.put(g, 0, "Storm Sovereign", "immortal", 1)
    table.put(g, 0, "Iron Guard", "troop", 2)
    table.hand(g, 0, "Iron Spear", "Pyre Lord")
    assert rules.player_rule(g, 0, rules.SHIFT_DISCOUNT) == 1
    table.play(g, "shift Iron Guard (troop column 2) for Iron Spear")  # cost 1 - 1 = 0
    assert g.decision().seat == 1 and g.hand[0] == (table.card("Pyre Lord"),)


def test_extra_turn_does_not_use_up_the_countdown(table) -> None:
    g = table.new(p1=("tempest", "ironhide", "phoenix"), held=(2, 0))
    table.put(g, 0, "Gale Runner", "troop", 1)
    table.play(g, "draw_small")  # P1
    table.play(g, "pass")  # P2: P1 has 3 turns
    table.play(g, "activate Gale Runner (troop column 1)")  # turn 1, and an extra one
    assert g.decision().seat == 0 and g.countdown == 3
    table.play(g, "pass")
    assert g.battle_totals


def test_veteran_add_military_counts_this_battle_only(table) -> None:
    g = table.new(p1=("ironhide", "phoenix", "sages"), held=(0, 0))
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.put(g, 0, "Iron Guard", "troop", 2)
    table.put(g, 0, "Veteran Captain", "hero", 1)
    table.put(g, 1, "Sentinel", "troop", 1)
    table.put(g, 1, "Sentinel", "troop", 2)
    table.put(g, 1, "Justicar", "hero", 1)
    table.put(g, 1, "Avenger", "hero", 2)
    assert (military(g, 0), military(g, 1)) == (9, 12)
    table.play(g, "pass", "pass")
    log = g.battle_totals
    assert log[3:7] == (9 + 2, 12, 2, 0)  # Captain: +1 per own Troop; Avenger is not behind
    assert military(g, 0) == 9 and g.supremacy == (0, 1)


def test_lantern_flipped_gives_the_wonder_to_the_first_passer(table) -> None:
    g = table.new(held=(0, 0))  # Lantern flipped
    assert g.spec.wonder_to_first_passer
    table.play(g, "pass")
    assert g.wonder == 0


def test_sages_flipped_draws_two(table) -> None:
    g = table.new(p1=("ironhide", "phoenix", "lantern"))
    assert g.spec.draw_small.cards == 2
    table.play(g, "draw_small")
    assert len(g.hand[0]) == 2


def test_veil_flipped_makes_off_clan_troops_cheaper(table) -> None:
    g = table.new(p2=("justice", "lantern", "tempest"))
    assert g.spec.offclan_troop_cost == 1
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.hand(g, 0, "Phoenix Guard", "Scribe")
    table.play(g, "play Phoenix Guard in troop column 2")
    assert g.decision().kind == "pay"
    table.play(g, "pay Scribe")
    assert g.decision().seat == 1


def test_ironhide_flipped_strengthens_immortals(table) -> None:
    g = table.new(p1=("phoenix", "sages", "lantern"))
    assert g.spec.immortal_military_bonus == 1
    table.put(g, 0, "Phoenix Guard", "troop", 1)
    table.put(g, 0, "Flame Warden", "hero", 1)
    table.put(g, 0, "Pyre Lord", "immortal", 1)
    assert military(g, 0) == 3 + 4 + 5 + 1


def test_goan_sul_and_phoenix_flipped_change_the_sacrifice(table) -> None:
    g = table.new(p1=("ironhide", "lantern", "sages"), p2=("justice", "veil", "tempest"))
    assert (g.spec.sacrifice_bonus, g.spec.sacrifice_rounding) == (1, "down")
    assert [rules.sacrifice_count(g.spec, n) for n in (0, 1, 2, 7, 15)] == [0, 1, 2, 4, 8]
    assert [rules.sacrifice_count(table.spec, n) for n in (0, 1, 2, 7, 15)] == [0, 1, 1, 4, 8]


def test_fixed_setup_mode(config) -> None:
    from balance.games.clans.cards import load_spec

    spec = load_spec(config, {"rules.setup_mode": "fixed", "rules.fixed_setup": "setup_3"})
    assert spec.catalog.shared == frozenset({"setup_3"}) and "draft" not in spec.catalog.decks
    g = rules.new_game(spec, ["setup_3", "setup_3"], seed=1)
    names = [[spec.clans[c].id for c in side] for side in g.clans]
    assert names == [["justice", "lantern", "tempest"], ["phoenix", "ironhide", "veil"]]
    assert [spec.clans[c].id for c in g.flipped] == ["goan_sul", "sages"]


def test_final_round_results(table) -> None:
    """G17: after the battle of max_rounds, more Supremacy wins, else a draw. With the defaults
    every battle awards a token, so this needs supremacy_to_win above 2."""
    from dataclasses import replace

    spec = replace(table.spec, supremacy_to_win=3)
    g = table.new(spec=spec, held=(0, 0))
    g.round, g.supremacy = 3, (1, 1)
    table.put(g, 0, "Iron Guard", "troop", 1)
    table.play(g, "pass", "pass")
    assert g.result().winner == 0 and g.result().end_reason == "most_battles"

    g = table.new(p1=("ironhide", "phoenix", "lantern"), spec=spec, held=(0, 0))
    g.round, g.supremacy = 3, (1, 1)
    table.play(g, "pass", "pass")  # 0-0, no Wonder Token (Lantern fielded): both take one
    assert g.supremacy == (2, 2) and g.result().end_reason == "draw_final"
    assert g.result().scores == (0.5, 0.5)


def test_empty_deck_reshuffles_the_discard_pile(table) -> None:
    """G13: an empty deck is formed again from the shuffled discard pile; with both empty the
    draw stops, and nobody loses for it."""
    g = table.new(held=(2, 2))
    rest = g.deck[0][2:]
    g.discard = (g.deck[0][:2], g.discard[1])
    g.deck = ((), g.deck[1])
    table.play(g, "draw_big")  # 3 cards wanted, 2 in the discard pile
    assert len(g.hand[0]) == 2 and g.deck[0] == () and g.discard[0] == ()
    assert not g.over and g.decision().seat == 1
    g.deck = (rest, g.deck[1])  # put the others back, for the inventory


def test_an_entry_without_a_target_does_nothing(table) -> None:
    """G20: the card is played, its entry finds no legal target and does nothing."""
    g = table.new(p2=("goan_sul", "veil", "tempest"), first=1)
    table.hand(g, 1, "Sul Raider")
    table.play(g, "play Sul Raider in troop column 1")  # destroy: P1 has no Troop
    assert g.decision().seat == 0 and g.decision().kind == "action"


def test_two_cards_that_trigger_each_other_loop_on_a_flat_stack(table) -> None:
    # War Drummer and Acolyte each trigger another own card when activated: a loop the rules
    # let run until a player declines or the decision cap (spec §8). Each trigger's task is
    # done as it resolves, so the stack stays as deep as one trigger, however long the loop.
    g = table.new(p1=("ironhide", "phoenix", "sages"))
    table.put(g, 0, "War Drummer", "troop", 1)
    table.put(g, 0, "Acolyte", "troop", 2)
    table.play(g, "activate Acolyte (troop column 2)")
    depths = []
    for _ in range(20):
        shown = table.options(g)
        assert g.decision().kind == "target" and "none" in shown
        table.play(g, next(option for option in shown if option.startswith("trigger")))
        depths.append(len(g.todo))
    assert max(depths) == min(depths) <= 4
    table.play(g, "none")
    assert g.decision().kind == "action" and g.decision().seat == 1
