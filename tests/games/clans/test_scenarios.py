"""clans' rule scenarios (spec §11), one test each, played by the options' words.

P1 is seat 0, P2 seat 1. Unless a test says otherwise the table fields P1: Ironhide, Phoenix,
Sages and P2: Justice, Veil, Tempest, so Goan Sul and Lantern are flipped (one more sacrifice,
the Wonder Token to the first passer); each test picks armies whose flipped clans change none of
the rule values it is about (spec §11).
"""

from __future__ import annotations

from balance.games.clans import rules
from balance.games.clans.effects import military
from balance.games.clans.state import NOBODY


def test_01_draft_and_flipped_clans(spec, table) -> None:
    g = rules.new_game(spec, ["draft", "draft"], seed=7)
    seats = []
    for pick in ("Ironhide", "Goan Sul", "Veil", "Phoenix", "Sages", "Tempest"):
        seats.append(g.decision().seat)
        table.play(g, f"pick {pick}")
    assert seats == [0, 1, 1, 0, 0, 1]
    assert [spec.clans[c].name for c in g.flipped] == ["Justice", "Lantern"]
    assert [spec.clans[c].name for c in g.clans[0]] == ["Phoenix", "Ironhide", "Sages"]
    assert (g.spec.hand_limit, g.spec.song_draw_to, g.spec.wonder_to_first_passer) == (5, 5, True)
    for seat in (0, 1):
        cards = g.deck[seat] + g.hand[seat]
        levels = [sum(1 for c in cards if spec.card_level[c] == lv) for lv in (1, 2, 3)]
        assert (len(cards), levels) == (45, [24, 15, 6])
    assert len(g.pool) == 30  # the flipped clans' cards stay set aside


def mulligan_table(table, seed: int):
    """P2's opening hand holds 1 Troop; P2 is at its mulligan decision."""
    g = table.new(p2=("goan_sul", "veil", "tempest"))
    table.hand(
        g,
        1,
        "Chain Warden",
        "Extortioner",
        "Jailer",
        "Sul Brute",
        "Mirage",
        "Phantom",
        "Night Queen",
    )
    g.todo, g.asking = [(rules.ROUND_START,), (rules.MULLIGAN, 1)], None
    table.reseed(g, seed)
    rules.refresh_decision(g)
    return g


def test_02_mulligan(table) -> None:
    outcomes = {}
    for seed in range(200):
        g = mulligan_table(table, seed)
        assert g.decision().kind == "mulligan" and g.decision().seat == 1
        table.play(g, "mulligan")
        outcomes.setdefault(rules.troops_in(g, g.hand[1]), g)
        if 3 in outcomes and 0 in outcomes:
            break
    g = outcomes[3]
    assert len(g.hand[1]) == 7 and g.mulligans[1] == 1
    assert g.decision().kind == "action"  # no further D2: the round began
    g = outcomes[0]
    assert g.decision().kind == "mulligan" and g.decision().seat == 1  # offered again


def test_03_troop_costs(table) -> None:
    g = table.new()
    table.hand(
        g,
        0,
        "Iron Guard",
        "Phoenix Guard",
        "Iron Guard",
        "Iron Wall",
        "Pyre Lord",
        "Sage Knight",
        "Mentor",
    )
    table.hand(g, 1, "Veil Guard")
    table.play(g, "play Iron Guard in troop column 1")
    assert g.decision().seat == 1 and g.discard[0] == ()  # free: no D4
    table.play(g, "play Veil Guard in troop column 1", "play Phoenix Guard in troop column 2")
    assert g.decision().kind == "pay"
    assert len(g.decision().options) == 5  # the 5 other cards
    table.play(g, "pay Pyre Lord", "pay Sage Knight")
    assert g.discard[0] == (table.card("Pyre Lord"), table.card("Sage Knight"))  # public
    assert len(g.hand[0]) == 3
    table.play(g, "draw_small", "play Iron Guard in troop column 3")
    assert g.decision().seat == 1 and len(g.discard[0]) == 2  # free again


def test_04_face_down_troops(table) -> None:
    g = table.new()
    table.put(g, 0, "Iron Guard", "troop", 1, face_down=True)
    table.put(g, 0, "Phoenix Guard", "troop", 2, face_down=True)
    table.hand(g, 0, "Sage Guard", "Iron Wall")
    shown = table.options(g)
    assert not any(o.startswith("play Iron Wall") for o in shown)
    table.play(g, "play Sage Guard in troop column 3")
    assert g.decision().seat == 1 and g.hand[0] == (table.card("Iron Wall"),) and g.discard[0] == ()


def test_05_immortal_requirement(table) -> None:
    g = table.new(p1=("phoenix", "sages", "lantern"))
    table.put(g, 0, "Phoenix Guard", "troop", 1, face_down=True)
    table.put(g, 0, "Flame Warden", "hero", 1)
    table.put(g, 0, "Sage Guard", "troop", 2)
    table.hand(g, 0, "Pyre Lord")
    assert not any(o.startswith("play Pyre Lord") for o in table.options(g))
    table.put(g, 0, "Student", "troop", 3)
    table.put(g, 0, "Sage Knight", "hero", 3)
    table.put(g, 0, "Great Lantern", "immortal", 3)  # shift cost 4
    table.hand(g, 0, "Scribe", "Acolyte", "Mentor", "Oracle")
    assert not any(o.startswith("play Pyre Lord") for o in table.options(g))
    assert "shift Great Lantern (immortal column 3) for Pyre Lord" in table.options(g)


def test_06_shift_cost_and_name(table) -> None:
    g = table.new(p1=("sages", "tempest", "ironhide"), held=(1, 2))
    g.owned = (2, g.owned[1])  # one of P1's two tokens sits on Keeper of Keys
    table.put(g, 0, "Sage Guard", "troop", 1)
    table.put(g, 0, "Sage Knight", "hero", 1)
    table.put(g, 0, "Keeper of Keys", "immortal", 1, tokens=1)
    table.put(g, 0, "Iron Guard", "troop", 2)
    table.hand(g, 0, "Storm Sovereign", "Iron Guard", "Scribe")
    assert not any(
        o.startswith("shift Iron Guard (troop column 2) for Iron Guard") for o in table.options(g)
    )
    table.play(g, "shift Keeper of Keys (immortal column 1) for Storm Sovereign")
    table.pay_any(g, 2)  # 3 - 1 token
    assert g.hand[0] == () and g.discard[0][0] == table.card("Keeper of Keys")
    assert (g.held[0], g.owned[0]) == (1, 2) and g.tokens[0][10] == 0
    assert g.grid[0][10] == table.card("Storm Sovereign")
    assert g.decision().seat == 0 and g.decision().kind == "action"  # the extra turn


def test_07_pass_and_countdown(table) -> None:
    g = table.new(held=(1, 2))
    table.hand(g, 1, "Veil Guard", "Night Watch", "Masker")
    assert "pass" not in table.options(g)
    table.play(g, "draw_small", "draw_small")  # P1 spends its token; P2 draws
    table.play(g, "pass")  # P1, with 0 tokens
    for name, column in (("Veil Guard", 1), ("Night Watch", 2), ("Masker", 3)):
        assert g.decision().seat == 1 and g.decision().kind == "action" and not g.battle_totals
        table.play(g, f"play {name} in troop column {column}")
    assert (
        len(g.battle_totals) == rules.ROUND_LOG
    )  # P2 took exactly 3 turns in a row, then the battle

    g = table.new(held=(0, 0))
    table.play(g, "pass")
    table.hand(g, 1, "Veil Guard", "Night Watch")
    table.play(g, "play Veil Guard in troop column 1", "pass")  # P2's second countdown turn
    assert g.battle_totals[:1] == (3,)  # the battle began at once: P1's pass, P2's 2 turns

    g = table.new(p2=("goan_sul", "veil", "justice"), held=(0, 2))  # Tempest flipped
    assert g.spec.extra_turns_after_pass == 2
    table.play(g, "pass", "draw_small", "draw_small")
    assert g.round == 2


def test_08_hand_limit(table) -> None:
    g = table.new(first=1)
    assert g.spec.hand_limit == 7  # Justice fielded, not flipped
    table.hand(g, 1, "Veil Guard", "Night Watch", "Masker", "Mirage", "Phantom", "Unveiler")
    table.play(g, "draw_big")
    assert len(g.hand[1]) == 9
    for _ in range(2):
        assert g.decision().kind == "discard" and g.decision().seat == 1
        g.apply(0)
    assert len(g.hand[1]) == 7 and g.decision().seat == 0

    g = table.new(p2=("goan_sul", "veil", "tempest"), first=1)  # Justice flipped: hand limit 5
    table.hand(g, 1, "Veil Guard", "Night Watch", "Masker", "Mirage", "Phantom", "Unveiler")
    table.play(g, "draw_big")
    table.pay_any(g, 4)
    assert len(g.hand[1]) == 5 and g.decision().seat == 0


def fourteen_each(table, g) -> None:
    """Armies of 14 military each (vanilla cards)."""
    for name, row, column in (
        ("Iron Guard", "troop", 1),
        ("Iron Guard", "troop", 2),
        ("Iron Wall", "hero", 1),
        ("Lantern Knight", "hero", 2),
    ):
        table.put(g, 0, name, row, column)
    for name, row, column in (
        ("Sentinel", "troop", 1),
        ("Sentinel", "troop", 2),
        ("Justicar", "hero", 1),
        ("Veil Knight", "hero", 2),
    ):
        table.put(g, 1, name, row, column)
    assert (military(g, 0), military(g, 1)) == (14, 14)


def test_09_ties(table) -> None:
    lantern_fielded = {"p1": ("ironhide", "phoenix", "lantern"), "held": (0, 0)}
    g = table.new(**lantern_fielded)
    fourteen_each(table, g)
    g.wonder = 1
    table.play(g, "pass", "pass")
    assert g.supremacy == (0, 1)

    g = table.new(**lantern_fielded)
    fourteen_each(table, g)
    g.supremacy = (1, 1)
    table.play(g, "pass", "pass")
    result = g.result()
    assert g.supremacy == (2, 2) and result.winner is None
    assert result.end_reason == "draw_double_supremacy" and result.scores == (0.5, 0.5)


def veteran_table(table, p1_lamp_bearer: bool = True):
    """Base totals 13-13, P2 first; both Lamp Bearers stand on non-Lantern Troops."""
    g = table.new(
        p1=("ironhide", "phoenix", "lantern"),
        p2=("goan_sul", "lantern", "tempest"),
        first=1,
        held=(0, 0),
    )
    for name, row, column in (
        ("Iron Guard", "troop", 1),
        ("Iron Spear", "troop", 2),
        ("War Drummer", "troop", 3),
        ("Iron Wall", "hero", 2),
    ):
        table.put(g, 0, name, row, column)
    if p1_lamp_bearer:
        table.put(g, 0, "Lamp Bearer", "hero", 1)  # shifted in earlier: no active Lantern Troop
    else:
        table.put(g, 0, "Flame Adept", "troop", 4)
    for name, row, column in (
        ("Sul Spearman", "troop", 1),
        ("Lamp Bearer", "hero", 1),
        ("Sul Spearman", "troop", 2),
        ("Sul Brute", "hero", 2),
        ("Chain Warden", "troop", 3),
    ):
        table.put(g, 1, name, row, column)
    return g


def test_10_veteran_order(table) -> None:
    g = veteran_table(table)
    assert (military(g, 0), military(g, 1)) == (13, 13)
    table.play(g, "pass", "pass")  # P2 (first) passes, then P1: the battle
    assert g.battle_totals[3:5] == (13, 13)
    assert g.wonder == 0  # P2's Lamp Bearer took it first, then P1's (Song has not returned it yet)
    assert g.supremacy == (1, 0) and g.decision().kind == "sacrifice"

    g = veteran_table(table, p1_lamp_bearer=False)
    assert (military(g, 0), military(g, 1)) == (13, 13)
    table.play(g, "pass", "pass")
    assert g.wonder == 1 and g.supremacy == (0, 1)


def test_11_song_for_the_dead(table) -> None:
    g = table.new(
        p1=("ironhide", "phoenix", "goan_sul"), p2=("justice", "sages", "veil"), held=(0, 0)
    )
    g.owned = (3, g.owned[1])
    for name, row, column in (
        ("Iron Guard", "troop", 1),
        ("Iron Guard", "troop", 2),
        ("Phoenix Guard", "troop", 3),
        ("Iron Spear", "troop", 4),
        ("Iron Wall", "hero", 1),
        ("Flame Warden", "hero", 2),
        ("Warlord of Iron", "immortal", 1),
    ):
        table.put(g, 0, name, row, column)
    captive = table.put(g, 1, "Scribe", "troop", 1, captured=True)  # play: fetch; must not fire
    assert g.captor[1][captive] == 0
    table.play(g, "pass", "pass")
    assert g.supremacy == (1, 0) and g.captor[1][captive] == NOBODY
    assert g.decision().kind == "sacrifice" and g.decision().seat == 0
    assert sorted(table.options(g)) == sorted(
        [
            "sacrifice Warlord of Iron (immortal column 1)",
            "sacrifice Flame Warden (hero column 2)",
            "sacrifice Phoenix Guard (troop column 3)",
            "sacrifice Iron Spear (troop column 4)",
        ]
    )
    for _ in range(4):
        assert g.decision().seat == 0
        g.apply(0)
    assert g.decision().seat == 1 and g.decision().kind == "sacrifice"
    g.apply(0)
    assert len(g.hand[0]) == 7 and len(g.hand[1]) == 7
    assert g.held[0] == 3 and g.wonder == NOBODY
    assert g.round == 2 and g.first == 1 and g.decision().seat == 1
    assert g.known[1] == () and g.discard[1] == (table.card("Scribe"),)  # no fetch resolved


def test_12_token_win_mid_effect(table) -> None:
    g = table.new(held=(2, 2))
    g.owned = (4, g.owned[1])
    table.put(g, 0, "Sage Guard", "troop", 1)
    table.put(g, 0, "Sage Knight", "hero", 1)
    table.hand(
        g,
        0,
        "Keeper of Keys",
        "Iron Guard",
        "Iron Guard",
        "Iron Spear",
        "Iron Spear",
        "Iron Wall",
        "Pyre Lord",
        "Scribe",
    )
    table.play(g, "play Keeper of Keys in immortal column 1")
    result = g.result()
    assert g.owned[0] == 5 and result.winner == 0 and result.end_reason == "tokens"
    assert len(g.hand[0]) == 7  # the hand-limit step never ran


def full_grid(table, g, face_down_troop: bool = False) -> None:
    """14 active cards of P1, the column-5 Immortal missing; Pyre Lord in hand."""
    troops = ["Iron Guard", "Iron Guard", "Iron Spear", "Iron Spear", "Phoenix Guard"]
    heroes = ["Iron Wall", "Iron Marshal", "Breaker", "Flame Warden", "Rekindler"]
    for column, name in enumerate(troops, 1):
        table.put(g, 0, name, "troop", column, face_down=face_down_troop and column == 1)
    for column, name in enumerate(heroes, 1):
        table.put(g, 0, name, "hero", column)
    for column, name in enumerate(
        ["Iron Colossus", "Warlord of Iron", "Keeper of Keys", "Grand Sage"], 1
    ):
        table.put(g, 0, name, "immortal", column)
    table.hand(g, 0, "Pyre Lord")


def test_13_face_up_win(table) -> None:
    g = table.new()
    full_grid(table, g)
    assert rules.active_count(g, 0) == 14 and not g.over
    table.play(g, "play Pyre Lord in immortal column 5")
    assert g.result().winner == 0 and g.result().end_reason == "faceup"

    g = table.new()
    full_grid(table, g, face_down_troop=True)
    table.play(g, "play Pyre Lord in immortal column 5")  # Pyre Lord's own draw 2 resolves
    assert rules.active_count(g, 0) == 14 and not g.over
    assert not any(o.startswith("shift Iron Guard (troop column 1)") for o in table.options(g))


def test_14_goan_sul_win(table) -> None:
    g = table.new(p1=("ironhide", "phoenix", "sages"), p2=("goan_sul", "veil", "tempest"), first=1)
    for column, name in enumerate(["Iron Guard", "Iron Guard", "Iron Spear"], 1):
        table.put(g, 0, name, "troop", column, captured=column < 3)
    table.put(g, 1, "Chain Warden", "troop", 1)
    table.play(
        g, "activate Chain Warden (troop column 1)", "capture P1 Iron Spear (troop column 3)"
    )
    assert g.result().winner == 1 and g.result().end_reason == "goan_sul"

    g = table.new(p1=("ironhide", "phoenix", "sages"), p2=("justice", "veil", "tempest"), first=1)
    assert table.clan("goan_sul") in g.flipped
    for column, name in enumerate(["Iron Guard", "Iron Guard", "Student"], 1):
        table.put(g, 0, name, "troop", column, captured=column < 3)
    table.put(g, 1, "Bailiff", "troop", 1)
    table.put(g, 1, "Magistrate", "hero", 1)
    table.play(g, "activate Magistrate (hero column 1)", "capture P1 Student (troop column 3)")
    assert not g.over and g.captor[0].count(1) == 3


def test_15_justice_win_exposure_and_support(table) -> None:
    g = table.new(p1=("justice", "ironhide", "phoenix"), held=(0, 2))
    for column, name in enumerate(["Sentinel", "Sentinel", "Warden of Law"], 1):
        table.put(g, 0, name, "troop", column)
    for column, name in enumerate(["Justicar", "Arbiter", "Avenger"], 1):
        table.put(g, 0, name, "hero", column)
    table.put(g, 0, "High Judge", "immortal", 1)
    table.put(g, 0, "Iron Colossus", "immortal", 2)
    table.hand(
        g,
        0,
        "Equilibrium",
        "Iron Guard",
        "Iron Guard",
        "Iron Spear",
        "Iron Spear",
        "Iron Wall",
        "Breaker",
        "Pyre Lord",
        "Ember Scout",
    )
    table.play(g, "play Equilibrium in immortal column 3")
    assert not g.over and g.decision().kind == "discard"  # the hand-limit step comes first
    table.pay_any(g, 1)
    assert g.result().winner == 0 and g.result().end_reason == "justice"

    g = table.new(
        p1=("justice", "ironhide", "phoenix"), p2=("ironhide", "veil", "tempest"), first=1
    )
    for column, name in enumerate(["Sentinel", "Sentinel", "Warden of Law"], 1):
        table.put(g, 0, name, "troop", column, captured=column == 3)
    for column, name in enumerate(["Justicar", "Arbiter", "Avenger"], 1):
        table.put(g, 0, name, "hero", column)
    table.put(g, 0, "High Judge", "immortal", 1)
    table.put(g, 0, "Iron Colossus", "immortal", 2)
    assert rules.clan_win_at_turn_end(g, 0) == ""  # the captured Troop breaks 3/3/3
    table.put(g, 1, "Iron Guard", "troop", 1)
    table.put(g, 1, "Iron Wall", "hero", 1)
    table.hand(g, 1, "Warlord of Iron")
    table.play(g, "play Warlord of Iron in immortal column 1")
    shown = table.options(g)
    assert "destroy P1 Avenger (hero column 3)" in shown
    assert "destroy P1 Warden of Law (troop column 3)" not in shown


def test_16_caps(spec, table) -> None:
    g = table.new(p1=("sages", "ironhide", "phoenix"), p2=("sages", "veil", "tempest"), held=(1, 1))
    for seat in (0, 1):
        table.put(g, seat, "Sage Guard", "troop", 1)
        table.put(g, seat, "Mentor", "hero", 1, tokens=1)
        table.put(g, seat, "Keeper of Keys", "immortal", 1)
    table.put(g, 0, "Iron Guard", "troop", 2)
    turns = 0
    while not g.battle_totals:
        seat = g.decision().seat
        on_keeper = g.tokens[seat][10] > 0
        if on_keeper:
            table.play(
                g,
                "activate Mentor (hero column 1)",
                f"ready P{seat + 1} Keeper of Keys (immortal column 1)",
            )
        else:
            table.play(
                g,
                "activate Keeper of Keys (immortal column 1)",
                f"ready P{seat + 1} Mentor (hero column 1)",
            )
        turns += 1
    assert turns == spec.max_turns_per_round == 80
    assert g.capped_rounds == 1 and g.supremacy == (1, 0)

    capped = table.new(spec=load_with(spec, max_decisions=50), held=(2, 2))
    capped.supremacy = [1, 0]
    capped.decisions = 48
    table.play(capped, "draw_small", "draw_small")
    result = capped.result()
    assert result.winner == 0 and result.end_reason == "cap_tiebreak" and result.capped


def load_with(spec, **rules_values):
    from dataclasses import replace

    return replace(spec, **rules_values)


# -- amendments of 2026-11-25 ----------------------------------------------------------------


def test_g17a_song_release_completing_fifteen_face_up_cards_wins_before_any_sacrifice(
    table,
) -> None:
    """P1's grid is full, but P2 holds P1's column-5 Troop captured: 14 face-up cards. P1 wins
    the battle; Song for the Dead releases the Troop, P1 has 15 face-up cards and wins at once."""
    g = table.new(held=(0, 0))
    troops = ["Iron Guard", "Iron Guard", "Iron Spear", "Iron Spear", "Phoenix Guard"]
    heroes = ["Iron Wall", "Iron Marshal", "Breaker", "Flame Warden", "Rekindler"]
    immortals = ["Iron Colossus", "Warlord of Iron", "Keeper of Keys", "Grand Sage", "Pyre Lord"]
    for row, names in (("troop", troops), ("hero", heroes), ("immortal", immortals)):
        for column, name in enumerate(names, 1):
            table.put(g, 0, name, row, column, captured=(row, column) == ("troop", 5))
    assert rules.active_count(g, 0) == 14 and not g.over
    table.play(g, "pass", "pass")
    assert g.supremacy == (1, 0)  # the battle did not end the game
    result = g.result()
    assert result.winner == 0 and result.end_reason == "faceup"
    assert rules.active_count(g, 0) == 15 and g.round == 1  # nothing was sacrificed


def test_hand_limit_binds_the_other_player_at_the_turn_end(table) -> None:
    """P2's Mirage returns P1's Troop to P1's hand of 7: at the end of P2's turn P1, not only
    the active player, discards down to 7 (§4 step 1 as amended)."""
    g = table.new(first=1)
    table.put(g, 0, "Iron Guard", "troop", 1)
    hand = ["Iron Spear", "Iron Spear", "Iron Wall", "Breaker", "Pyre Lord", "Scribe", "Mentor"]
    table.hand(g, 0, *hand)
    table.put(g, 1, "Veil Guard", "troop", 1)
    table.hand(g, 1, "Mirage")
    table.play(g, "play Mirage in hero column 1", "return_to_hand P1 Iron Guard (troop column 1)")
    assert len(g.hand[0]) == 8 and len(g.hand[1]) == 0
    decision = g.decision()
    assert decision.kind == "discard" and decision.seat == 0  # P1 discards at P2's turn end
    table.play(g, "discard Scribe")
    assert len(g.hand[0]) == 7 and g.discard[0] == (table.card("Scribe"),)
    assert g.decision().kind == "action" and g.decision().seat == 0  # then P1's turn begins
