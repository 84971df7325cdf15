"""The rule scenarios of the zynalith spec (section 11), one test each, played by option words."""

from __future__ import annotations

from random import Random

from balance.games.zynalith import rules
from balance.games.zynalith.cards import load_spec
from balance.games.zynalith.effects import defence_of, modify
from balance.games.zynalith.heuristics import combat_preview
from balance.games.zynalith.state import ATK, DEF, HP, INIT, Creature

A, B = 0, 1


# -- helpers -----------------------------------------------------------------------------------


def blank(spec, seats: int = 2, round: int = 1, seed: int = 0) -> rules.Zynalith:
    """A game in `round` with empty fronts, hands, market and piles: the scenario builds the rest."""
    g = rules.new_game(spec, ["standard"] * seats, seed)
    g.asking = None
    g.todo.clear()
    g.queue.clear()
    g.market = [[], []]
    g.piles = [[], []]
    g.discards = [[], []]
    g.hand_open = [[] for _ in range(seats)]
    g.hand_secret = [[] for _ in range(seats)]
    g.hp = [spec.start_hp] * seats  # setup events may have changed them
    g.silver = [spec.start_silver] * seats
    g.zyn = [spec.start_zynalith] * seats
    g.bonus_vp = [0] * seats
    g.round = round
    g.slots = 5
    g.start_player = g.active = 0
    g.events = []
    return g


def card(g, name: str) -> int:
    return g.spec.card_id(name)


def put(g, seat: int, name: str, attack: bool = True, damage: int = 0) -> Creature:
    """Place a creature in `seat`'s front (after the creatures of equal or higher INIT)."""
    cd = g.spec.cards[card(g, name)]
    c = Creature(g.next_uid, card(g, name), seat, attack, cd.stats, cd.keywords, cd.silver)
    g.next_uid += 1
    c.damage = damage
    front = g.front[seat]
    at = sum(1 for other in front if other.stat(INIT) >= cd.stats[INIT])
    front.insert(at, c)
    g.by_uid[c.uid] = c
    return c


def attach(g, host: Creature, name: str, controller: int) -> None:
    host.attachments.append((g.next_uid, card(g, name), controller))
    g.next_uid += 1


def words(g) -> list[str]:
    return [g.describe(i) for i in range(len(g.decision().options))]


def play(g, text: str) -> None:
    """Answer the pending decision with the option described as `text`."""
    shown = words(g)
    assert text in shown, f"no option '{text}' in {shown}"
    g.apply(shown.index(text))


def names(g, cards) -> list[str]:
    return [g.spec.cards[c].id for c in cards]


# -- 1. the seed example -----------------------------------------------------------------------


def test_seed_example(spec):
    g = blank(spec)
    put(g, A, "c6304")
    loser = put(g, B, "c5214", damage=3)
    rules.start_combat(g)
    assert loser.uid not in g.by_uid  # 3 - 1 = 2 damage on 1 HP left: dies
    assert g.hp[B] == 29  # the remaining 1 passes to B
    assert g.silver[B] == 20 + 4  # cost 5 - 1 back
    assert g.zyn[A] == 3 + 1
    assert names(g, g.discards[0]) == ["c5214"]


# -- 2. defence, Verteidigung, Durchschlag, Blutsaugen -------------------------------------------


def test_defence_lifesteal_and_thorns(spec):
    g = blank(spec)
    g.hp[A] = 28
    put(g, A, "c5705_lifesteal")
    put(g, B, "c1102")  # 0 DEF, 2 HP: 7 damage leaves 5 overflow
    thorny = put(g, B, "guard", attack=False)
    attach(g, thorny, "dornenpanzer", B)
    put(g, B, "guard", attack=False)
    assert defence_of(g, B) == 2
    rules.start_combat(g)
    assert g.hp[B] == 30 - 3  # 5 - D 2
    assert g.silver[B] == 20 + 1 + 2  # refund of the 2 s creature; each guard's defence fired once
    assert g.hp[A] == 29  # healed 3 up to 30 (not 31), then Dornenpanzer's 1 pierce


def test_pierce_ignores_defence_and_triggers_no_defence(spec):
    g = blank(spec)
    g.hp[A] = 28
    put(g, A, "c5705_pierce")
    put(g, B, "c1102")
    thorny = put(g, B, "guard", attack=False)
    attach(g, thorny, "dornenpanzer", B)
    put(g, B, "guard", attack=False)
    rules.start_combat(g)
    assert g.hp[B] == 30 - 5
    assert g.silver[B] == 20 + 1  # only the refund: no defence trigger
    assert g.hp[A] == 28


# -- 3. unequal lines ---------------------------------------------------------------------------


def test_unequal_lines(spec):
    g = blank(spec)
    put(g, A, "c7403")
    put(g, A, "c5403_kampf")
    put(g, A, "c2103")
    target = put(g, B, "c4205")
    put(g, B, "guard", attack=False)
    rules.start_combat(g)
    assert target.hp_left() == 1  # line 1: 4 damage on 5 HP
    assert g.zyn[A] == 3 + 1  # only line 1 is won
    assert g.hp[B] == 30 - 3 - 0  # line 2: 4 - 1; line 3: 1 - 1
    assert g.silver[B] == 20 + 2  # defence fired in lines 2 and 3
    assert g.bonus_vp[A] == 0  # no Kampf in an unopposed line


# -- 4. Kampf order -----------------------------------------------------------------------------


def test_kampf_order(spec):
    g = blank(spec)
    x = put(g, A, "x5302")
    y = put(g, B, "y5402")
    rules.start_combat(g)
    assert x.uid not in g.by_uid  # Y's trigger first (ATK 4 > 3): X dies, its trigger is skipped
    assert y.damage == 0  # no hit: Y wins alone
    assert g.zyn[B] == 3 + 1
    assert g.zyn[A] == 3
    assert g.silver[A] == 20 + 4


# -- 5. ties ------------------------------------------------------------------------------------


def test_atk_tie_goes_to_init(spec):
    g = blank(spec)
    put(g, A, "c6405")
    loser = put(g, B, "c3415")
    rules.start_combat(g)
    assert loser.damage == 3  # A wins on INIT; 4 - 1
    assert g.zyn[A] == 4 and g.zyn[B] == 3


def _twins(spec, seed: int) -> tuple[int, int]:
    g = blank(spec, seed=seed)
    a = put(g, A, "c4313")
    b = put(g, B, "c4313")
    rules.start_combat(g)
    return a.damage, b.damage


def test_identical_creatures_tie_by_rng(spec):
    outcomes = {_twins(spec, seed) for seed in range(12)}
    assert outcomes == {(0, 2), (2, 0)}  # the loser takes 3 - 1; either may win
    assert all(_twins(spec, seed) == _twins(spec, seed) for seed in range(4))


def test_atk_tie_no_winner(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.atk_tie": "no_winner"})
    g = blank(spec)
    a = put(g, A, "c4313")
    b = put(g, B, "c4313")
    rules.start_combat(g)
    assert (a.damage, b.damage) == (0, 0)
    assert g.zyn == [3, 3]


# -- 6. Sturmangriff ----------------------------------------------------------------------------


def test_sturmangriff_fights_at_once(spec):
    g = blank(spec, round=2)
    victim = put(g, B, "c5213")
    g.hand_open[A] = [card(g, "sturmwolf")]
    rules.start_turn(g, A)
    play(g, "play sturmwolf from hand in attack")
    assert victim.uid not in g.by_uid  # 4 - 1 = 3 on 3 HP
    assert g.silver[B] == 20 + 4
    assert g.zyn[A] == 4
    assert g.silver[A] == 20 - 6
    play(g, "pass")  # B adds nothing
    play(g, "pass")
    assert g.hp[B] == 30 - 4  # unopposed in the combat phase


def test_sturmangriff_in_defence_does_not_fight(spec):
    g = blank(spec, round=2)
    victim = put(g, B, "c5213")
    g.hand_open[A] = [card(g, "sturmwolf")]
    rules.start_turn(g, A)
    play(g, "play sturmwolf from hand in defence")
    assert victim.damage == 0
    assert g.zyn[A] == 3


# -- 7. banish ----------------------------------------------------------------------------------


def test_banish(spec):
    g = blank(spec)
    durchbohrer = put(g, A, "durchbohrer")  # 8 s
    attach(g, durchbohrer, "runenklinge", A)
    attach(g, durchbohrer, "rueckzugsbefehl", A)
    put(g, B, "death_watch")
    rules.start_turn(g, A)
    play(g, "banish P0 durchbohrer@0")
    assert g.silver[A] == 20 + 7
    assert names(g, g.removed) == ["durchbohrer"]
    assert sorted(names(g, g.discards[1])) == ["rueckzugsbefehl", "runenklinge"]
    assert g.bonus_vp[B] == 0  # no Trauer


# -- 8. refunds and Gier ------------------------------------------------------------------------


def test_greed_and_refunds(spec):
    g = blank(spec)
    g.zyn[A] = 4
    g.hand_open[A] = [card(g, "hortwaechter")]
    rules.start_turn(g, A)
    play(g, "play hortwaechter from hand in attack")
    assert g.silver[A] == 20 - 8 + 2  # Gier on the Z cost, itself included
    assert g.zyn[A] == 0
    hort = g.front[A][0]
    hort.damage = 99
    rules.state_check(g)
    assert g.silver[A] == 14 + 7 and g.zyn[A] == 0  # 8 - 1 back, no Z
    free = put(g, A, "free")
    free.damage = 1
    rules.state_check(g)
    assert g.silver[A] == 21  # a 0 s creature refunds 0


def test_greed_threshold(spec):
    g = blank(spec)
    g.silver[A] = 40
    put(g, A, "greed_watch")
    g.hand_open[A] = [card(g, "feuerspeier"), card(g, "kriegsherr")]
    rules.start_turn(g, A)
    play(g, "play feuerspeier from hand in attack")  # 11 s: no Gier
    assert g.bonus_vp[A] == 0
    play(g, "pass")  # B
    play(g, "play kriegsherr from hand in attack")  # 12 s: Gier
    assert g.bonus_vp[A] == 1
    assert g.zyn[A] == 3 + 1  # Kriegsherr's own Gier (a creature, by its own player)


# -- 9. event at renewal ------------------------------------------------------------------------


def test_event_at_renewal(spec):
    g = blank(spec, round=2)
    dying = put(g, A, "c5403_kampf", damage=2)  # 1 HP left
    put(g, B, "event_watch")
    x = [card(g, n) for n in ("ansturm", "blutdurst", "feuerball", "weitsicht", "dornenpanzer")]
    g.piles[1] = list(reversed(x)) + [card(g, "feuersturm")]  # the event on top, then x1..x5
    g.piles[0] = [card(g, "knappe")] * 6
    rules.start_round(g, 3)
    assert dying.uid not in g.by_uid
    assert g.silver[A] == 20 + 10 + 4  # income, then the refund
    assert g.bonus_vp[B] == 1  # the event trigger fired
    assert names(g, g.discards[1]) == ["feuersturm"]
    assert g.market[1] == x
    assert g.decision().kind == "turn"


# -- 10. take from a pile -----------------------------------------------------------------------


def test_take_from_pile(spec):
    g = blank(spec)
    hidden = [card(g, n) for n in ("ansturm", "blutdurst", "feuerball", "weitsicht", "runenklinge")]
    g.piles[1] = hidden + [card(g, "silberader")]
    rules.start_turn(g, A)
    play(g, "take the extra pile top")
    assert g.silver[A] == 20 - 1 + 3 and g.silver[B] == 20 + 3
    assert g.hand_secret[A] == [hidden[-1]] and g.hand_open[A] == []
    assert any(e[2] == card(g, "silberader") and e[3] == 2 for e in g.events)  # B saw it
    seen_by_b = {tuple(g.determinize(B, Random(s)).hand_secret[A]) for s in range(20)}
    assert len(seen_by_b) > 1  # B cannot tell A's card
    assert {tuple(g.determinize(A, Random(s)).hand_secret[A]) for s in range(5)} == {(hidden[-1],)}


# -- 11. counter --------------------------------------------------------------------------------


def test_counter(spec):
    g = blank(spec)
    victim = put(g, B, "c4205")
    put(g, A, "spell_watch")
    g.hand_open[A] = [card(g, "feuerball"), card(g, "bannspruch")]
    g.hand_open[B] = [card(g, "bannspruch")]
    rules.start_turn(g, A)
    play(g, "play feuerball from hand on P1 c4205@0")
    assert g.decision().seat == B and g.decision().kind == "counter"
    play(g, "counter with bannspruch from hand")
    assert victim.damage == 0
    assert g.silver[A] == 20 - 4 and g.silver[B] == 20 - 3
    assert sorted(names(g, g.discards[1])) == ["bannspruch", "feuerball"]
    assert g.bonus_vp[A] == 1  # `spell` fired once: for Bannspruch
    assert g.decision().kind == "turn" and g.decision().seat == B  # nobody countered Bannspruch


# -- 12. scoring --------------------------------------------------------------------------------


def _scoring(spec, a_front: list[str]) -> rules.Zynalith:
    g = blank(spec, round=5)
    for name in a_front:
        put(g, A, name)
    put(g, B, "kriegsherr")
    g.zyn, g.silver, g.hp = [7, 6], [19, 34], [12, 20]
    rules.end_game(g)
    return g


def test_scoring_tie_goes_to_hp(spec):
    g = _scoring(spec, ["kriegsherr", "feuerspeier"])  # front VP 3
    assert g.final_vp == [11, 11]
    result = g.result()
    assert result.winner == B and result.end_reason == "rounds"


def test_scoring_game_end_vp(spec):
    g = _scoring(spec, ["drachenkoenigin"])  # VP 3 and Spielende: +2 VP
    assert g.final_vp == [13, 11]
    assert g.result().winner == A


# -- 13. elimination ----------------------------------------------------------------------------


def test_elimination_in_combat(spec):
    g = blank(spec)
    g.hp[B] = 2
    put(g, A, "c9605")
    put(g, A, "c5403_kampf")
    put(g, B, "c1103")
    put(g, B, "c2103")
    rules.start_combat(g)
    result = g.result()
    assert result.winner == A and result.end_reason == "elimination"
    assert g.bonus_vp[A] == 0  # line 2 never fought
    assert not g.alive[B] and g.front[B] == []


def test_everyone_out_at_once_ranks_by_vp(spec):
    g = blank(spec)
    g.hp = [4, 3]
    g.zyn = [9, 7]
    g.silver = [0, 0]
    g.piles[0] = [card(g, "knappe")] * 5 + [card(g, "quake")]
    g.todo.append((rules.S_REFRESH, 0, A))
    rules.run(g)
    result = g.result()
    assert not any(g.alive)
    assert result.winner == A and result.end_reason == "elimination"


# -- 14. the Faceless Warrior -------------------------------------------------------------------


def test_faceless_warrior_copies_without_extras(spec):
    """A's front [6/4/0/5, 4/3/1/5 with a +2 ATK equipment]: the Warrior becomes 0/3/1/5."""
    g = blank(spec)
    g.silver[A] = 40
    put(g, A, "c6405")
    host = put(g, A, "c4313")
    host.base[HP] = host.cur[HP] = 5  # 4/3/1/5
    modify(g, host, ATK, 2, from_extra=True, round_only=False)  # what the equipment did
    host.attachments.append((999, card(g, "runenklinge"), A))
    g.hand_open[A] = [card(g, "gesichtsloser_krieger")]
    rules.start_turn(g, A)
    play(g, "play gesichtsloser_krieger from hand in attack")
    warrior = g.front[A][-1]
    assert [warrior.stat(s) for s in (INIT, ATK, DEF, HP)] == [0, 3, 1, 5]


def test_faceless_warrior_alone_dies(spec):
    g = blank(spec)
    g.silver[A] = 40
    g.hand_open[A] = [card(g, "gesichtsloser_krieger")]
    rules.start_turn(g, A)
    play(g, "play gesichtsloser_krieger from hand in attack")
    assert g.front[A] == []
    assert g.silver[A] == 40 - 15 + 14


# -- 15. positions, swap, start player ----------------------------------------------------------


def test_start_player_rotation(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.first_player": 1})
    g = rules.new_game(spec, ["standard", "standard"], 3)
    seats = []
    while g.decision().kind != "turn":
        d = g.decision()
        if d.kind == "draft_pick":
            seats.append(d.seat)
        g.apply(0)
    assert seats[:4] == [1, 0, 1, 0]
    assert g.decision().seat == 0 and g.round == 1  # P_i+1
    while g.round == 1:
        d = g.decision()
        g.apply(words(g).index("pass") if d.kind == "turn" else 0)
    while g.decision().kind != "turn":
        g.apply(0)
    assert g.round == 2 and g.decision().seat == 1


def test_positions_lines_and_swap(spec):
    g = blank(spec)
    put(g, A, "c7000")
    put(g, A, "c5000_kampf", attack=False)
    put(g, A, "c5000")
    put(g, A, "c3000")
    for _ in range(3):
        put(g, B, "c7000")
    lines = [line["members"] for line in combat_preview(g)]
    a_members = [
        [g.spec.cards[g.by_uid[u].card].id for u in m if g.by_uid[u].owner == A] for m in lines
    ]
    assert a_members == [["c7000"], ["c5000"], ["c3000"]]
    assert defence_of(g, A) == 1
    rules.start_turn(g, A)
    shown = words(g)
    assert "swap P0 c5000_kampf@1 with P0 c5000@2" in shown
    assert not any(w.startswith("swap P0 c5000@2 with P0 c3000") for w in shown)
    play(g, "pass")
    play(g, "pass")  # combat: Y in defence never fights
    assert g.bonus_vp[A] == 0


# -- 16. caps -----------------------------------------------------------------------------------


def test_main_action_cap(spec):
    g = blank(spec)
    g.main_actions[A] = spec.max_main_actions_per_round
    g.zyn[A] = 3
    rules.start_turn(g, A)
    assert words(g) == ["pass"]
    assert "max_main_actions_per_round" in g.cap_hits


def test_decision_cap(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.max_decisions": 50})
    g = rules.new_game(spec, ["standard", "standard"], 1)
    chooser = Random(1)
    count = 0
    while (d := g.decision()) is not None:
        g.apply(chooser.randrange(len(d.options)))
        count += 1
    result = g.result()
    assert count == 50
    assert result.end_reason == "decision_cap" and result.capped


# -- beyond section 11: the combat window and charge_timing: in_combat ---------------------------


def test_combat_window_counter(spec):
    """B plays Schildwall (+3 DEF for the round) on its line member: 4 - 4 = 0 damage."""
    g = blank(spec)
    put(g, A, "c6405")
    defender = put(g, B, "c4313")  # DEF 1
    g.hand_open[B] = [card(g, "schildwall")]
    rules.start_combat(g)
    assert g.decision().kind == "counter" and g.decision().seat == B
    play(g, "counter with schildwall from hand on P1 c4313@0")
    assert defender.damage == 0 and defender.uid in g.by_uid
    assert g.zyn[A] == 4  # A still wins the line
    rules.end_round_now(g)
    assert defender.stat(DEF) == 1  # the round's DEF is gone


def test_charge_in_combat_fights_twice(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.charge_timing": "in_combat"})
    g = blank(spec, round=2)
    victim = put(g, B, "c4205")  # 5 HP: two rounds of 4 from Sturmwolf
    g.hand_open[A] = [card(g, "sturmwolf")]
    rules.start_turn(g, A)
    play(g, "play sturmwolf from hand in attack")
    assert victim.damage == 0  # no round on entry
    play(g, "pass")
    play(g, "pass")
    assert victim.uid not in g.by_uid  # the charge round, then the line's normal round
    assert g.zyn[A] == 3 + 2


# -- amendments of 2026-11-25 -------------------------------------------------------------------


def test_an_event_executes_once_per_draw(spec):
    """G6 as amended. Round 3 starts; the extra pile holds Silberader on top of two cards and
    its discard is empty. The renewal executes Silberader (+3 s each) and sets it aside, draws
    the two cards, finds the pile and its discard empty and stops: the row stays short. Only
    when the renewal ends does Silberader join the extra discard."""
    g = blank(spec, round=2)
    two = [card(g, n) for n in ("ansturm", "blutdurst")]
    g.piles[1] = list(reversed(two)) + [card(g, "silberader")]
    g.piles[0] = [card(g, "knappe")] * 6
    rules.start_round(g, 3)
    assert g.silver == [20 + 10 + 3, 20 + 10 + 3]  # once, not once per reshuffle
    assert g.market[1] == two
    assert names(g, g.discards[1]) == ["silberader"] and g.set_aside == []
    assert "max_event_chain" not in g.cap_hits

    # the next draw may execute it again: A takes the extra pile top (the pile reshuffles)
    rules.start_turn(g, A)
    play(g, "take the extra pile top")
    assert g.silver == [33 - 1 + 3, 33 + 3]
    assert g.hand_secret[A] == [] and names(g, g.discards[1]) == ["silberader"]


def test_a_creatures_lifesteal_heals_for_its_own_effect_damage(spec):
    """§6.2 as amended. A's Blutfledermaus (Blutsaugen) deals 1 damage to B when B plays a
    spell (Zauber): A, at 27 HP, heals the 1 it dealt."""
    g = blank(spec)
    g.hp[A] = 27
    put(g, A, "blutfledermaus")
    mine = put(g, B, "c4205", attack=False)  # the spell puts it in attack: B has no defence
    g.hand_open[B] = [card(g, "rueckzugsbefehl")]
    rules.start_turn(g, B)
    play(g, f"play rueckzugsbefehl from hand on P1 c4205@{g.front[B].index(mine)}")
    assert g.hp[B] == 30 - 1
    assert g.hp[A] == 27 + 1
