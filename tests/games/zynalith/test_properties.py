"""Properties of random zynalith games at every seat count (hypothesis draws seats and seed)."""

from __future__ import annotations

import weakref
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.games.zynalith import rules
from balance.games.zynalith.state import INIT

PROPERTY = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SETUPS = ("standard", "ohne_events", "rauferei")


def check_invariants(g, start_inventory: tuple[int, ...]) -> None:
    spec = g.spec
    assert g.inventory() == start_inventory, "cards were lost or made"
    for seat in range(g.seats):
        assert g.silver[seat] >= 0 and g.zyn[seat] >= 0
        assert g.hp[seat] <= spec.start_hp  # no overheal in the starter set
        inits = [c.stat(INIT) for c in g.front[seat]]
        assert inits == sorted(inits, reverse=True), "a front left INIT order"
        for c in g.front[seat]:
            assert 0 <= c.damage and c.hp_left() <= c.max_hp()
    if g.lines is not None:
        for seat in range(g.seats):
            # line k holds the seat's k-th attacker: along the lines its INIT never rises
            members = [
                g.by_uid[u]
                for line in g.lines
                for u, _ in line
                if u in g.by_uid and g.by_uid[u].owner == seat
            ]
            order = [g.front[seat].index(c) for c in members]
            assert order == sorted(order)


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_random_games_end_and_keep_the_invariants(shipped_spec, seats, seed, setup):
    g = rules.new_game(shipped_spec, [setup] * seats, seed)
    start = g.inventory()
    chooser = Random(seed)
    steps = 0
    while (d := g.decision()) is not None:
        assert d.options and 0 <= d.seat < seats
        g.apply(chooser.randrange(len(d.options)))
        check_invariants(g, start)
        steps += 1
        assert steps < shipped_spec.max_decisions
    result = g.result()
    assert abs(sum(result.scores) - 1.0) < 1e-9
    assert result.end_reason in ("rounds", "elimination")
    assert not result.capped


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_lines_are_formed_in_init_order(shipped_spec, seats, seed):
    g = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    chooser = Random(seed)
    while (d := g.decision()) is not None:
        g.apply(chooser.randrange(len(d.options)))
        if g.lines is not None:
            for seat in range(seats):
                inits = [
                    g.by_uid[u].stat(INIT)
                    for line in g.lines
                    for u, _ in line
                    if u in g.by_uid and g.by_uid[u].owner == seat
                ]
                assert inits == sorted(inits, reverse=True)


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_clones_never_change_and_replay_the_same(shipped_spec, seats, seed):
    g = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    chooser = Random(seed)
    kept = []
    choices = []
    while (d := g.decision()) is not None:
        if len(choices) % 40 == 0:
            copy = g.clone()
            kept.append((len(choices), copy, list(copy.events), copy.inventory(), copy.decision()))
        choice = chooser.randrange(len(d.options))
        choices.append(choice)
        g.apply(choice)
    for step, copy, events, inventory, decision in kept:
        assert (
            copy.events == events and copy.inventory() == inventory and copy.decision() == decision
        )
        for choice in choices[step:]:
            copy.apply(choice)
        assert copy.events == g.events and copy.result() == g.result()


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_determinize_deals_only_what_a_hand_may_hold(shipped_spec, seats, seed):
    g = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    chooser = Random(seed)
    cards = shipped_spec.cards
    step = 0
    while (d := g.decision()) is not None:
        if step % 25 == 0:
            world = g.determinize(d.seat, Random(step))
            assert world.inventory() == g.inventory()
            assert world.decision() == d
            assert world.hand_secret[d.seat] == g.hand_secret[d.seat]
            for seat in range(seats):
                assert all(cards[c].type != 2 for c in world.hand_secret[seat])  # no events
                assert len(world.hand_secret[seat]) == len(g.hand_secret[seat])
        g.apply(chooser.randrange(len(d.options)))
        step += 1


def test_a_clone_and_its_original_draw_the_same_numbers_independently(shipped_spec):
    """clone() forks the game's GameRng (copy-on-first-draw): each side then draws on from the
    shared state, whoever drew first, and neither moves the other's stream."""
    g = rules.new_game(shipped_spec, ["standard"] * 2, 7)
    copy = g.clone()
    first = [g.rng.stream().random() for _ in range(5)]
    assert [copy.rng.stream().random() for _ in range(5)] == first
    again = copy.clone()
    then = [copy.rng.stream().random() for _ in range(3)]
    assert [again.rng.stream().random() for _ in range(3)] == then
    assert [g.rng.stream().random() for _ in range(3)] == then  # went on from where it stood


def test_the_setup_deals_as_random_shuffle_would_from_the_seed(shipped_spec):
    """The piles are the setup's cards shuffled by `Random(seed).shuffle`, creature pile first,
    and play goes on from that stream: the game's draws are the kit's exact shuffle's."""
    g = rules.new_game(shipped_spec, ["standard"] * 2, 11)
    plain = Random(11)
    creature, extra = (list(pile) for pile in shipped_spec.setups["standard"])
    plain.shuffle(creature)
    plain.shuffle(extra)
    if shipped_spec.first_player < 0:
        assert g.first_player == plain.randrange(2)
    for pile, shuffled in zip(g.piles, (creature, extra), strict=True):
        assert len(pile) > 10 and pile == shuffled[: len(pile)]  # dealt from the top (the end)
    assert g.rng.stream().random() == plain.random()


def test_a_world_makes_its_rng_at_its_first_draw_from_the_bots_seed(shipped_spec):
    """determinize() reseeds the world's RNG from the bot's stream: each clone of the world then
    draws that seed's numbers on its own."""
    g = rules.new_game(shipped_spec, ["standard"] * 2, 7)
    world = g.determinize(g.decision().seat, Random(3))
    seed = Random(3).getrandbits(64)  # the world's seed: the bot's first draw
    a, b = world.clone(), world.clone()
    expected = Random(seed)
    numbers = [expected.random() for _ in range(4)]
    assert [a.rng.stream().random() for _ in range(4)] == numbers
    assert [b.rng.stream().random() for _ in range(2)] == numbers[:2]
    assert [world.rng.stream().random() for _ in range(4)] == numbers


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_playing_a_clone_never_moves_the_original(shipped_spec, seats, seed):
    """Clones share creatures, the RNG and the pending decision with their original: clones and
    determinizations played on elsewhere must leave the original's game exactly as it would be."""
    choices = []
    chooser = Random(seed)
    g = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    while (d := g.decision()) is not None:
        choices.append(chooser.randrange(len(d.options)))
        g.apply(choices[-1])
    other = Random(seed + 1)
    h = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    for step, choice in enumerate(choices):
        d = h.decision()
        copy = h.clone() if step % 2 else h.determinize(d.seat, other)
        for _ in range(30):
            if (e := copy.decision()) is None:
                break
            copy.apply(other.randrange(len(e.options)))
        h.apply(choice)
    assert h.events == g.events and h.result() == g.result()


def test_a_turn_lists_its_options_only_when_read(shipped_spec):
    g = rules.new_game(shipped_spec, ["standard"] * 2, 3)
    while (d := g.decision()) is not None and d.kind != "turn":
        g.apply(0)
    assert not d.listed
    copy = g.clone()
    assert not copy.decision().listed and copy.decision() is not d  # its own
    options = d.options  # listed from the state that asked
    assert d.listed and d.options is options
    assert options == rules.turn_options(g, d.seat) == copy.decision().options
    assert d == g.decision() and hash(d) == hash(rules.Decision(d.seat, d.kind, options))
    again = g.clone()
    assert again.decision() is d  # a listed decision is shared


def test_a_copy_a_search_drops_unread_is_freed_at_once(shipped_spec):
    """An unlisted turn decision reaches its state weakly: no reference cycle keeps a dropped
    copy alive for the cyclic garbage collector."""
    g = rules.new_game(shipped_spec, ["standard"] * 2, 3)
    while (d := g.decision()) is not None and d.kind != "turn":
        g.apply(0)
    copy = g.clone()
    copy.apply(len(d.options) - 1)  # pass: the next seat's turn decision, not listed
    assert not copy.decision().listed
    gone = weakref.ref(copy)
    del copy
    assert gone() is None


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_evaluate_stays_in_bounds_and_ignores_what_the_seat_cannot_see(shipped_spec, seats, seed):
    g = rules.new_game(shipped_spec, ["standard"] * seats, seed)
    chooser = Random(seed)
    step = 0
    while (d := g.decision()) is not None:
        if step % 10 == 0:
            for seat in range(seats):
                value = g.evaluate(seat)
                assert -1.0 <= value <= 1.0
                assert g.determinize(seat, Random(step)).evaluate(seat) == value
        g.apply(chooser.randrange(len(d.options)))
        step += 1
    assert g.evaluate(0) == 2.0 * (g.result().scores[0]) - 1.0


@PROPERTY
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS))
def test_values_told_unapplied_are_evaluate_after_the_option_to_the_last_bit(
    shipped_spec, seats, seed, setup
):
    """option_bounds/option_value (greedy's hints): each value told is what `evaluate` gives
    for the deciding seat once the option is applied, exactly, also on a determinization; and
    the action is whole then (greedy never follows a bounded option through): the next
    decision is another seat's, or of the same kind (the next action), or none."""
    g = rules.new_game(shipped_spec, [setup] * seats, seed)
    chooser = Random(seed)
    told = 0
    while (d := g.decision()) is not None:
        for world in (g, g.determinize(d.seat, Random(told))):
            values = world.option_bounds(None)
            if values is None:
                continue
            assert len(values) == len(d.options)
            assert [world.option_value(i) for i in range(len(values))] == values
            among = sorted(chooser.sample(range(len(d.options)), (len(d.options) + 1) // 2))
            some = world.option_bounds(among)  # those of a sample only (greedy's max_options)
            for i, value in enumerate(values):
                assert some is None or some[i] == (value if i in among else None)
                if value is None:
                    continue
                copy = world.clone()
                copy.apply(i)
                assert copy.evaluate(d.seat) == value, d.options[i]
                after = copy.decision()
                assert after is None or after.seat != d.seat or after.kind == d.kind
                told += 1
        g.apply(chooser.randrange(len(d.options)))
    assert told  # every game has takes and passes
