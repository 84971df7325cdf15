"""possession's rule scenarios (spec §11), one test each, played by the options' words.

A is seat 0 (the Turn Player), B seat 1. The ring is W0..W4 with W0 face down. Cards are
written Might/Endure/Nurture; every card not named in a scenario is a vanilla filler 1/12/0.
"""

from __future__ import annotations

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

from balance.games.possession.effects import action_options
from balance.games.possession.rules import swap_options
from balance.games.possession.state import G_CANCELLED, G_CHAIN_CAPPED, G_MAX_CHAIN, G_RETRIGGERED


def test_1_attack_and_soothe(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: hero, name: Hero, might: 3, endure: 5, nurture: 1}
  - {id: guard, name: Guard, might: 2, endure: 8, nurture: 1}
  - {id: target, name: Target, might: 1, endure: 12, nurture: 0}
""",
    )

    def ready():
        t = table(spec)
        put(t, "P0", "hero")
        put(t, "D", "guard", damage=2)
        put(t, "W3", "target")
        return watch(begin(t, "action"))

    t = ready()
    assert not [w for w in words(t) if "W0" in w], "the face-down Wild is never offered"
    play(t, "attack")
    assert damage(t, "D") == 5 and damage(t, "P0") == 2
    assert logged(t) == [
        ("attack", "hero", "guard", 0),
        ("damaged", "hero", "guard", 3),
        ("damaged", "guard", "hero", 2),
    ]

    t = ready()
    play(t, "soothe W3")
    assert logged(t) == [("soothe", "hero", "target", 0), ("healed", "guard", "guard", 1)]
    assert damage(t, "D") == 1


def test_2_killing_blow(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: hero, name: Hero, might: 3, endure: 5, nurture: 1}
  - {id: brute, name: Brute, might: 4, endure: 6, nurture: 1}
  - {id: heir, name: Heir, might: 2, endure: 5, nurture: 0}
  - {id: x_card, name: X, might: 1, endure: 7, nurture: 0}
""",
    )

    def ready(glory_before: int):
        t = table(spec)
        put(t, "P0", "hero")
        put(t, "D", "brute", damage=4)
        put(t, "S", "heir")
        deck(t, ["x_card", "filler", "filler"])
        glory(t, 0, glory_before)
        return begin(t, "action")

    t = play(ready(1), "attack")
    assert len(t.glory[0]) == 2 and t.kind[t.glory[0][-1]] == t.spec.catalog.cards.index("brute")
    assert at(t, "D") == "heir" and damage(t, "D") == 0
    assert at(t, "S") == "x_card"
    assert damage(t, "P0") == 0, "the escaped Defender does not strike back"

    t = play(ready(2), "attack")
    assert t.decision() is None
    result = t.result()
    assert result.winner == 0 and result.end_reason == "glory"


def test_3_possessed_escape(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: frail, name: Frail, might: 2, endure: 4, nurture: 0}
  - {id: wall, name: Wall, might: 2, endure: 9, nurture: 1}
  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}
  - {id: h_two, name: H2, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec)
    put(t, "P0", "frail", damage=2)
    put(t, "D", "wall")
    deck(t, 10)
    hand(t, 0, ["h_one", "h_two"])
    begin(t, "action")

    play(t, "attack")
    assert t.decision().kind == "possessed_replacement"
    assert words(t) == ["deck", "hand h_one", "hand h_two"]
    play(t, "hand h_two")
    assert at(t, "P0") == "h_two" and damage(t, "P0") == 0
    assert len(t.deck) == 10 and hand_of(t, 0) == ["h_one"]


def test_4_two_player_elimination(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: sapper, name: Sapper, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: attack, do: damage, target: each_wild, amount: 1}]}
  - {id: brittle, name: Brittle, might: 3, endure: 3, nurture: 1}
""",
    )
    t = table(spec)
    put(t, "D", "sapper")
    put(t, "W3", "brittle", damage=2)
    deck(t, 0)
    hand(t, 0, [])
    hand(t, 1, ["filler", "filler"])
    begin(t, "action")

    play(t, "attack")
    assert t.removed == [True, False]
    result = t.result()
    assert t.decision() is None and result.winner == 1 and result.end_reason == "elimination"


def test_5_wild_chain_with_four_players(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: sapper, name: Sapper, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: attack, do: damage, target: each_wild, amount: 1}]}
  - {id: brittle, name: Brittle, might: 3, endure: 3, nurture: 1}
  - {id: mourner, name: Mourner, might: 1, endure: 12, nurture: 0, effects: [
      {role: wild, on: removed, optional: true, do: heal, target: self, amount: 1}]}
  - {id: c_one, name: C1, might: 1, endure: 6, nurture: 0}
  - {id: c_two, name: C2, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec, seats=4)
    put(t, "D", "sapper")
    put(t, "W2", "brittle", damage=2)
    put(t, "W4", "mourner")
    deck(t, 0)
    hand(t, 0, [])
    hand(t, 1, [])
    hand(t, 2, ["c_one", "c_two"])
    hand(t, 3, ["filler"])
    begin(t, "action")

    play(t, "attack")  # W2 escapes; A, then B, cannot refill it
    assert t.removal_order == [0, 1]
    assert t.decision().seat == 2 and t.decision().kind == "hand_replacement"
    assert words(t) == ["hand c_one", "hand c_two"]
    play(t, "hand c_one")
    assert at(t, "W2") == "c_one"
    assert t.decision().kind == "effect_optional" and t.decision().seat == 2, (
        "C decides for the Turn Player"
    )
    play(t, "use")
    assert t.turn_seat == 2 and t.decision().seat == 2 and t.decision().kind == "play", (
        "C's turn is next"
    )
    assert hand_of(t, 3) == ["filler"], "D is not asked"
    result_places = t.result().stats
    assert result_places["placement_1"] < result_places["placement_0"], (
        "a later removal ranks higher"
    )


def test_6_scan_order(tmp_path) -> None:
    hook = "effects: [{{role: {role}, on: attack, do: ward, target: self, amount: 1}}]"
    spec = make_spec(
        tmp_path,
        f"""\
  - {{id: p_hook, name: PH, might: 1, endure: 12, nurture: 0, {hook.format(role="possessed")}}}
  - {{id: w_hook, name: WH, might: 1, endure: 12, nurture: 0, {hook.format(role="wild")}}}
  - {{id: s_hook, name: SH, might: 1, endure: 12, nurture: 0, {hook.format(role="defender")}}}
""",
    )
    t = table(spec, seats=3)
    t.face_down = 3
    for where, card in (
        ("P2", "p_hook"),
        ("P0", "p_hook"),
        ("W1", "w_hook"),
        ("W4", "w_hook"),
        ("S", "s_hook"),
    ):
        put(t, where, card)
    watch(begin(t, "action"))

    play(t, "attack")
    assert queues_at(t)[0] == ["P0", "P2", "W4", "W1", "S"]


def test_7_fifo_and_retrigger(tmp_path) -> None:
    cards = """\
  - {id: striker, name: Striker, might: 2, endure: 9, nurture: 0, effects: [
      {role: possessed, on: attack, if: {actor: self}, do: damage, target: each_wild, amount: 1}]}
  - {id: guard, name: Guard, might: 2, endure: 8, nurture: 1}
  - {id: mender, name: Mender, might: 1, endure: 12, nurture: 0, effects: [
      {role: wild, on: damaged, do: heal, target: subject, amount: 1}]}
  - {id: self_healer, name: Self Healer, might: 1, endure: 12, nurture: 0, effects: [
      {role: wild, on: attack, do: heal, target: self, amount: 1}]}
"""

    def ready(position_rule: str):
        t = table(make_spec(tmp_path, cards, retrigger_position=position_rule))
        put(t, "P0", "striker")
        put(t, "D", "guard")
        put(t, "W1", "mender")
        put(t, "W3", "self_healer")
        return watch(begin(t, "action"))

    t = play(ready("back"), "attack")
    queues = queues_at(t)
    assert queues[0] == ["P0", "W1", "W3"]
    first_binding = t.watch[1][1][1][1]  # W1's bound event: damaged, subject P_A
    assert first_binding[4][0] == t.occ[position(t, "P0")]
    assert queues[1] == ["W3", "W1"], "W1 retriggers on damaged W4 and goes to the back"
    assert [damage(t, w) for w in ("W1", "W2", "W3", "W4")] == [1, 1, 0, 0]
    assert damage(t, "P0") == 2, "P_A keeps d2: W1's first trigger was replaced"
    assert t.game_stats[G_RETRIGGERED] == 1

    t = play(ready("keep"), "attack")
    assert queues_at(t)[1] == ["W1", "W3"]


def test_8_cancellation(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: picker, name: Picker, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: damage, target: {choose: each_wild}, amount: 2}]}
  - {id: weakling, name: Weakling, might: 1, endure: 2, nurture: 0, effects: [
      {role: wild, on: attack, do: ward, target: self, amount: 1}]}
  - {id: newcomer, name: Newcomer, might: 1, endure: 12, nurture: 0, effects: [
      {role: wild, on: replaced, if: {subject: self}, do: ward, target: self, amount: 1}]}
""",
    )
    t = table(spec)
    put(t, "P0", "picker")
    put(t, "W2", "weakling")
    deck(t, ["newcomer", "filler", "filler"])
    watch(begin(t, "action"))

    play(t, "attack")
    assert queues_at(t)[0] == ["P0", "W2"]
    assert words(t) == ["choose W1", "choose W2", "choose W3", "choose W4"]
    play(t, "choose W2")
    assert at(t, "W2") == "newcomer"
    assert t.game_stats[G_CANCELLED] == 1, "W2's entry is skipped"
    assert t.ward[t.occ[position(t, "W2")]] == 1, "Y reacted to its own arrival"


def test_9_swap_and_adjacency(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: old_p, name: Old P, might: 1, endure: 12, nurture: 0}
  - {id: queen, name: Q, might: 1, endure: 12, nurture: 0}
  - {id: hidden, name: Hidden, might: 1, endure: 12, nurture: 0}
""",
    )
    t = table(spec)
    put(t, "P0", "old_p", damage=2)
    put(t, "W2", "queen", damage=1)
    put(t, "W0", "hidden")
    hand(t, 0, [])
    begin(t, "action")

    assert [w for w in words(t) if w.startswith("command")] == [
        "command W1 W2",
        "command W2 W3",
        "command W3 W4",
    ]
    play(t, "attack")
    assert words(t) == ["possess W2", "possess W3"]
    watch(t)
    play(t, "possess W2")
    assert at(t, "P0") == "queen" and damage(t, "P0") == 1
    assert at(t, "W2") == "old_p" and damage(t, "W2") == 0 and t.face_down == 2
    assert t.known[t.occ[position(t, "W0")]] == t.every_seat, "the W0 card turned up"
    assert triggers(t)[:3] == ["traded", "turned_face_down", "turned_face_up"]
    assert [o[1] for o in swap_options(t, 0)] == [0, 4]
    commands = [o[1:] for o in action_options(t, 0) if o[0] == "command"]
    assert sorted(commands) == [(0, 1), (3, 4), (4, 0)]


def test_10_draw_and_play(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}
  - {id: h_two, name: H2, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec)
    hand(t, 0, ["filler"] * 3)
    assert begin(t, "draw").decision().kind == "play", "a hand of 3 draws nothing"
    t = table(spec)
    hand(t, 0, ["filler"] * 2)
    deck(t, 0)
    assert begin(t, "draw").decision().kind == "play", "an empty deck draws nothing"

    t = table(spec)
    hand(t, 0, ["h_one", "h_two"])
    deck(t, 6)
    put(t, "W3", "filler", damage=2)
    old = t.occ[position(t, "W3")]
    begin(t, "draw")
    assert words(t) == ["draw", "skip"]
    play(t, "skip")
    watch(t)
    play(t, "play h_one on W3")
    assert at(t, "W3") == "h_one" and damage(t, "W3") == 0
    assert t.discard[-1] == old
    assert triggers(t) == ["played", "replaced"]
    assert hand_of(t, 0) == ["h_two"]


def test_11_simultaneous_escapes(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: quaker, name: Quaker, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: turn_start, do: damage, target: each_creature, amount: 3}]}
  - {id: e_two, name: E2, might: 1, endure: 2, nurture: 0}
  - {id: e_three, name: E3, might: 1, endure: 3, nurture: 0}
  - {id: e_five, name: E5, might: 1, endure: 5, nurture: 0}
  - {id: e_six, name: E6, might: 1, endure: 6, nurture: 0}
  - {id: x_card, name: X, might: 1, endure: 7, nurture: 0}
  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}
  - {id: h_two, name: H2, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec)
    put(t, "D", "quaker")
    for where, card in (
        ("P0", "e_three"),
        ("P1", "e_six"),
        ("W1", "e_two"),
        ("W2", "e_five"),
        ("W3", "e_five"),
        ("W4", "e_three"),
    ):
        put(t, where, card)
    deck(t, ["x_card"])
    hand(t, 0, ["h_one", "h_two"])
    begin(t)

    assert t.decision().kind == "possessed_replacement", "P_A refills first"
    play(t, "deck")
    assert at(t, "P0") == "x_card"
    assert t.decision().kind == "hand_replacement" and words(t) == ["hand h_one", "hand h_two"]
    play(t, "hand h_one")
    assert (at(t, "W1"), at(t, "W4")) == ("h_one", "h_two")
    assert (at(t, "P1"), at(t, "W2"), at(t, "W3")) == ("e_six", "e_five", "e_five")


def test_12_partial_prevention_and_ward(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: seeker, name: Seeker, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, if: {turn: mine}, do: draw, player: controller, count: 2,
       then: [{do: damage, target: defender, amount: 1}]}]}
  - {id: blaster, name: Blaster, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, do: damage, target: each_wild, amount: 3}]}
""",
    )
    t = table(spec)
    put(t, "P0", "seeker")
    deck(t, 1)
    hand(t, 0, [])
    watch(t)
    begin(t)
    assert ("drew", None, None, 1) in logged(t) and len(t.hands[0]) == 1
    assert damage(t, "D") == 1, "the rest of the effect still applies"

    t = table(spec)
    put(t, "P0", "blaster")
    w2 = put(t, "W2", "filler")
    t.ward[w2] = 2
    watch(t)
    begin(t)
    assert t.ward[w2] == 0 and t.damage[w2] == 1
    assert [e[3] for e in logged(t) if e[0] == "damaged"] == [3, 1, 3, 3]


def test_13_face_down_immunity(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: blaster, name: Blaster, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: turn_start, do: damage, target: each_wild, amount: 2}]}
  - {id: picker, name: Picker, might: 1, endure: 12, nurture: 0, effects: [
      {role: possessed, on: attack, do: damage, target: {choose: each_wild}, amount: 2}]}
  - {id: hollow_thief, name: Hollow Thief, might: 2, endure: 5, nurture: 1, effects: [
      {role: possessed, on: played, if: {player: controller}, optional: true, do: replace,
       target: face_down_wild, from: deck, to: hand}]}
  - {id: secret, name: Secret, might: 1, endure: 6, nurture: 0}
  - {id: top_card, name: Top, might: 1, endure: 6, nurture: 0}
  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}
""",
    )
    t = table(spec)
    put(t, "P0", "blaster")
    begin(t)
    assert [damage(t, f"W{i}") for i in range(5)] == [0, 2, 2, 2, 2]

    t = table(spec)
    put(t, "P0", "picker")
    play(begin(t, "action"), "attack")
    assert "choose W0" not in words(t)

    t = table(spec)
    put(t, "P0", "hollow_thief")
    put(t, "W0", "secret")
    deck(t, ["top_card", "filler"])
    hand(t, 0, ["h_one"])
    begin(t, "play")
    play(t, "play h_one on W1")
    assert t.decision().kind == "effect_optional"
    play(t, "use")
    assert hand_of(t, 0) == ["secret"]
    assert at(t, "W0") == "top_card" and t.face_down == 0
    assert t.known[t.occ[position(t, "W0")]] == 0, "it entered face down, unseen"


def test_14_defender_with_no_replacement(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: hero, name: Hero, might: 3, endure: 5, nurture: 1}
  - {id: weak_d, name: Weak D, might: 1, endure: 3, nurture: 0}
  - {id: h_one, name: H1, might: 1, endure: 6, nurture: 0}
""",
    )

    def ready():
        t = table(spec)
        put(t, "P0", "hero")
        put(t, "D", "weak_d", damage=1)
        empty_support(t)
        deck(t, 0)
        hand(t, 0, ["h_one"])
        return play(begin(t, "action"), "attack")

    t = ready()
    assert t.decision().kind == "defender_replacement"
    assert words(t) == ["hand h_one", "decline"]
    play(t, "hand h_one")
    assert len(t.glory[0]) == 1 and at(t, "D") == "h_one" and damage(t, "D") == 0

    t = play(ready(), "decline")
    assert len(t.glory[0]) == 0 and at(t, "D") == "weak_d" and damage(t, "D") == 0


def test_15_round_cap(tmp_path) -> None:
    spec = make_spec(tmp_path, "", max_rounds=40)

    def last_turn(hand_a: int, hand_b: int):
        t = table(spec)
        t.round, t.turn_seat = 40, 1  # B's turn in round 40
        glory(t, 0, 2)
        glory(t, 1, 2)
        hand(t, 0, ["filler"] * hand_a)
        hand(t, 1, ["filler"] * hand_b)
        return play(begin(t, "swap"), "possess W2")

    result = last_turn(1, 3).result()
    assert result.winner == 1 and result.end_reason == "cap" and result.capped

    result = last_turn(3, 3).result()
    assert result.winner is None and result.scores == (0.5, 0.5) and result.capped


def test_16_chain_cap(tmp_path) -> None:
    spec = make_spec(
        tmp_path,
        """\
  - {id: mender_d, name: Mender, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: damaged, if: {subject: defender}, do: heal, target: defender,
       amount: 1}]}
  - {id: goad_s, name: Goad, might: 1, endure: 12, nurture: 0, effects: [
      {role: defender, on: healed, if: {subject: defender}, do: damage, target: defender,
       amount: 1}]}
""",
    )
    t = table(spec)
    put(t, "D", "mender_d")
    put(t, "S", "goad_s")
    watch(begin(t, "action"))

    play(t, "attack")
    assert len(queues_at(t)) == 1 + 64, "the two effects alternate for 64 resolutions"
    assert t.game_stats[G_CHAIN_CAPPED] == 1 and t.game_stats[G_MAX_CHAIN] == 64
    assert t.decision().kind == "swap", "play moves on"
