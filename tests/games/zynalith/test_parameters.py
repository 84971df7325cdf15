"""The rules.yaml switches of the spec's completions (G4-G16) change what they say they change."""

from __future__ import annotations

import pytest

from balance.games.zynalith import rules
from balance.games.zynalith.cards import load_spec
from balance.games.zynalith.effects import defence_of
from balance.games.zynalith.state import Creature

A, B = 0, 1


def blank(spec, seats: int = 2) -> rules.Zynalith:
    g = rules.new_game(spec, ["standard"] * seats, 0)
    g.asking = None
    g.todo.clear()
    g.queue.clear()
    g.market = [[], []]
    g.piles = [[], []]
    g.discards = [[], []]
    g.hand_open = [[] for _ in range(seats)]
    g.hand_secret = [[] for _ in range(seats)]
    g.hp = [spec.start_hp] * seats
    g.silver = [spec.start_silver] * seats
    g.zyn = [spec.start_zynalith] * seats
    g.round, g.slots, g.start_player, g.active = 1, 5, 0, 0
    return g


def put(g, seat: int, name: str, attack: bool = True) -> Creature:
    cd = g.spec.cards[g.spec.card_id(name)]
    c = Creature(g.next_uid, g.spec.card_id(name), seat, attack, cd.stats, cd.keywords, cd.silver)
    g.next_uid += 1
    g.front[seat].append(c)
    g.front[seat].sort(key=lambda x: -x.stat(0))
    g.by_uid[c.uid] = c
    return c


def quake(g) -> None:
    """The test event `quake` (5 damage to each player) is drawn into the creature row."""
    g.piles[0] = [g.spec.card_id("knappe")] * 5 + [g.spec.card_id("quake")]
    g.todo.append((rules.S_REFRESH, 0, A))
    rules.run(g)


@pytest.mark.parametrize(("vs_effects", "hp"), [(True, 30 - 4), (False, 30 - 5)])
def test_defence_vs_effects(scenario_dir, vs_effects, hp):
    spec = load_spec(scenario_dir, {"rules.defence_vs_effects": vs_effects})
    g = blank(spec)
    put(g, B, "guard", attack=False)
    quake(g)
    assert g.hp[B] == hp


def test_defence_by_cost(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.open_defence_by_cost": True})
    g = blank(spec)
    put(g, B, "knappe", attack=False)  # 2 s: 0
    put(g, B, "durchbohrer", attack=False)  # 8 s: 1
    put(g, B, "drachenkoenigin", attack=False)  # 15 s: 2
    assert defence_of(g, B) == 3


def test_max_attachments_limits_hosts(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.max_attachments": 1})
    g = blank(spec)
    host = put(g, A, "c6405")
    host.attachments.append((99, spec.card_id("runenklinge"), A))
    g.hand_open[A] = [spec.card_id("dornenpanzer")]
    rules.start_turn(g, A)
    words = [g.describe(i) for i in range(len(g.decision().options))]
    assert not any(w.startswith("play dornenpanzer") for w in words)


@pytest.mark.parametrize(("replaces", "row"), [(True, 5), (False, 4)])
def test_event_draw_replaces(scenario_dir, replaces, row):
    spec = load_spec(scenario_dir, {"rules.event_draw_replaces": replaces})
    g = blank(spec)
    g.hp = [99, 99]
    quake(g)
    assert len(g.market[0]) == row


def test_random_first_player_uses_the_state_rng(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.first_player": "random"})
    firsts = {rules.new_game(spec, ["standard"] * 3, seed).first_player for seed in range(30)}
    assert firsts == {0, 1, 2}
    again = [rules.new_game(spec, ["standard"] * 3, seed).first_player for seed in range(5)]
    assert again == [rules.new_game(spec, ["standard"] * 3, seed).first_player for seed in range(5)]


def test_counters_per_window(scenario_dir):
    spec = load_spec(scenario_dir, {"rules.counters_per_window": 2})
    g = blank(spec)
    put(g, A, "c6405")
    put(g, B, "c4313")
    g.hand_open[B] = [spec.card_id("schildwall"), spec.card_id("schildwall")]
    g.silver[B] = 10
    rules.start_combat(g)
    g.apply(1)  # the first Schildwall
    assert g.decision().kind == "counter" and g.decision().seat == B  # a second one may follow


def test_overheal_only_when_the_op_says_so(scenario_dir):
    spec = load_spec(scenario_dir)
    g = blank(spec)
    leech = put(g, A, "c5705_lifesteal")
    put(g, B, "c1102")
    rules.start_combat(g)
    assert g.hp[A] == 30  # lifesteal healed nothing above the maximum (R16)
    assert leech.damage == 0


def test_lineup_must_name_one_setup(scenario_dir):
    from balance.core.errors import ConfigError

    spec = load_spec(scenario_dir)
    with pytest.raises(ConfigError):
        rules.new_game(spec, ["standard", "rauferei"], 0)
    with pytest.raises(ConfigError):
        rules.new_game(spec, ["standard"] * 6, 0)
