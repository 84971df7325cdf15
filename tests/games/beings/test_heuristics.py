"""beings' evaluation (spec §10): what it sees in a position, and the greedy play it leads to.

Positions are set with the kit's `table`; values are compared, never pinned, so that the weights
can be retuned without rewriting these tests.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from random import Random

import pytest
from beings_kit import P1, P2, being, play, table, words

from balance.bots.greedy import GreedyBot
from balance.core.contract import Decision
from balance.games.beings.effects import (
    ATTACK,
    DEFENDER,
    DRAW,
    GAIN_GEMS,
    PLAY,
    POWER,
    REVIVE,
    TURN_END,
    TURN_START,
)
from balance.games.beings.rules import BeingsMatch


def value(m: BeingsMatch, seat: int = P1) -> float:
    return m.evaluate(seat)


def test_the_value_is_in_range_and_zero_sum_in_sign() -> None:
    m = table(
        p1={"hand": ["ember_fox_1", "sky_roc_3"], "field": {"C": being("sky_roc_1")}},
        p2={"hand": ["tide_oracle_1"], "life": 1},
    )
    mine, theirs = value(m, P1), value(m, P2)
    assert -1.0 < theirs < 0.0 < mine < 1.0


def test_more_life_power_and_hand_are_better() -> None:
    base = {"hand": ["ember_fox_1"], "field": {"C": being("sky_roc_1")}}
    even = value(table(p1=base, p2=base))
    assert value(table(p1=base, p2={**base, "life": 2})) > even
    assert (
        value(table(p1={**base, "field": {"C": being("sky_roc_1", "sky_roc_2")}}, p2=base)) > even
    )
    assert value(table(p1={**base, "hand": ["ember_fox_1", "glacier_wyrm_1"]}, p2=base)) > even


def test_a_rested_being_in_reach_of_a_stronger_one_is_a_liability() -> None:
    p2 = {"field": {"C": being("glacier_wyrm_1", "glacier_wyrm_2")}}  # Ice, 8
    active = table(turn=6, p1={"field": {"L": being("thorn_dryad_1")}}, p2=p2)
    rested = table(turn=6, p1={"field": {"L": being("thorn_dryad_1", rested=True)}}, p2=p2)
    assert value(rested) < value(active)


def test_an_attack_that_must_win_is_worth_the_game() -> None:
    """P2 at 0 life with an empty hand and no blocker: attacking life ends the game."""
    m = table(
        p1={"field": {"C": being("reef_leviathan_1")}},
        p2={"life": 0, "hand": [], "gems": 0, "field": {"L": being("ember_fox_1", rested=True)}},
    )
    bot = GreedyBot()
    choice = bot.choose(m, m.decision(), Random(0))
    assert m.describe(choice) == "attack life with reef_leviathan_1 at C"
    play(m, "attack life with reef_leviathan_1 at C")
    assert m.decision() is None and m.result().winner == P1


def test_greedy_defends_with_the_cheapest_card_that_holds() -> None:
    """Stone Warden (2, +2 on block) blocks Iron Golem (4): defence 4 against 4 needs 1 more;
    a 1-power card holds it, and greedy discards that one rather than a 4."""
    m = table(
        p1={"field": {"C": being("iron_golem_1")}},
        p2={
            "hand": ["cinder_drake_1", "grave_moth_2"],
            "gems": 0,
            "field": {"R": being("stone_warden_1")},
        },
    )
    play(m, "attack life with iron_golem_1 at C")
    play(m, "block with stone_warden_1 at R")
    assert m.decision().kind == "defend"
    choice = GreedyBot().choose(m, m.decision(), Random(0))
    assert m.describe(choice) == "discard grave_moth_2 (+1)", words(m)


def test_an_attack_whose_skill_rests_the_being_across_is_bounded_above_its_value() -> None:
    """Roc of the High Winds rests the opposing Being across as it attacks (one fewer blocker,
    one more exposed): each of its attacks is bounded, and each bound holds."""
    m = table(
        p1={"field": {"C": being("sky_roc_1", "sky_roc_2", "sky_roc_3")}},
        p2={
            "hand": ["ember_fox_1", "frost_hare_1"],
            "field": {"C": being("stone_warden_1"), "L": being("iron_golem_1", rested=True)},
        },
    )
    world = m.determinize(P1, Random(0))
    bounds = world.option_bounds()
    assert bounds is not None
    attacks = [index for index, option in enumerate(world.options) if option[0] == "attack"]
    assert len(attacks) >= 2
    for index in attacks:
        bound = bounds[index]
        assert bound is not None, world.describe(index)
        copy = world.clone()
        copy.apply(index)
        assert bound >= copy.evaluate(P1), world.describe(index)


def test_yes_to_an_optional_recover_is_told_best_while_the_main_phase_goes_on() -> None:
    """Morning Herald may recover a level-1 card from the Abyss: where the main phase surely
    goes on after it (a gem draw is left), `yes` is told best unapplied, and it is worth at
    least `no`; with nothing left to do after it, `no` would end the turn: nothing is told."""
    for gems, told in ((5, True), (3, False)):
        m = table(
            p1={
                "hand": ["dawn_seraph_2"],
                "gems": gems,  # (the Herald costs 3; a gem draw 1)
                "abyss": ["ember_fox_1", "frost_hare_1"],
            },
        )
        play(m, "play dawn_seraph_2 at C")
        decision = m.decision()
        assert decision is not None and decision.kind == "optional"
        world = m.determinize(P1, Random(0))
        assert (world.option_best() == (0, None)) is told
        values = []
        for option in range(2):
            copy = world.clone()
            copy.apply(option)
            values.append(copy.evaluate(P1))
        if told:
            assert values[0] >= values[1]


def test_a_shared_beings_kept_terms_are_never_stale() -> None:
    """`Being.terms` keeps what evaluate read of a Being that no match will change again. Along
    random games, with copies taken (and searched) at every step as a bot would, every value
    equals the one worked out afresh with no kept terms."""
    from balance.core.registry import load_game
    from balance.games.beings import heuristics

    game = load_game("beings")
    spec = game.load(game.config_dir)
    rng = Random(5)
    checked = 0
    for seed in range(4):
        m = game.new_game(spec, ["ember_storm", "frost_tide"], seed)
        while (decision := m.decision()) is not None:
            world = m.determinize(decision.seat, rng)
            world.evaluate(P1)  # the world's Beings are shared: their terms are kept now
            for option in range(len(decision.options)):
                copy = world.clone()
                copy.apply(option)
                if copy.decision() is None:
                    continue
                for seat in (P1, P2):
                    kept = heuristics.evaluate(copy, seat)
                    for side in copy.field:
                        for b in side:
                            if b is not None:
                                b.terms = None
                    assert kept == heuristics.evaluate(copy, seat)
                    checked += 1
            m.apply(rng.randrange(len(decision.options)))
    assert checked > 1000


def test_bounds_are_never_below_the_value_and_twins_score_alike() -> None:
    """What a search bot may know of an option unapplied (option_bounds, option_twins,
    option_value) is true: along seeded games (random players, and greedy ones, who reach 0 life
    and its haste often), every bound is at least the value the option leads to, twins lead to
    the same value, and a value known unapplied is that value (to rounding), among them ending
    a defend step that loses the game; plays whose skill gains gems or draws a card, revives
    nothing or cannot resolve on a play, plays after which the turn may end at once, attacks
    by a Being whose skill acts on the defending one (on life: none; on a Being: a power
    mod) and ends of turns whose skills ready gems or add power are bounded too. A bounded
    option is a whole action (its seat decides no more in it), and a defend step's best option
    told unapplied (option_best) has the best value, given to rounding."""
    from balance.bots import make_bot
    from balance.core.registry import load_game

    game = load_game("beings")
    spec = game.load(game.config_dir)
    rng = Random(7)
    greedy = make_bot("greedy")
    seen = Counter[str]()
    for seed in range(6):
        m = game.new_game(spec, ["ember_storm", "frost_tide"], seed)
        while (decision := m.decision()) is not None:
            seen += _hints_hold(m, decision, m.determinize(decision.seat, rng))
            if seed % 2:
                option = greedy.choose(m, decision, rng)
            else:
                option = rng.randrange(len(decision.options))
            m.apply(option)
    assert seen["bounded"] > 2000 and seen["pruned"] > seen["bounded"] // 2
    assert seen["twins"] > 100 and seen["known"] > seen["bounded"] // 3
    assert seen["lost"] > 10 and seen["skilled"] > 10 and seen["best"] > 80
    # plays after which the turn may end at once, plays whose skill draws a card, revives
    # nothing or cannot resolve, attacks on life whose skill acts on a defending Being (there
    # is none), attacks on a Being whose skill weakens it
    assert seen["passing"] > 80 and seen["drawing"] > 50 and seen["reviving"] > 60
    assert seen["unresolved"] > 10 and seen["at_defender"] > 15 and seen["weakened"] > 12
    assert seen["mulligan"] > 20  # a card kept or returned before the hand's last: twins
    assert seen["turn_skills"] > 20  # the end of a turn with `turn/end` or `turn/start` skills
    assert seen["defeated"] > 15  # a defend step ended where the defence fails, told unapplied


def test_bounds_hold_and_change_no_choice_on_changed_configs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hints hold whatever the cards' numbers: on configs with seeded random card edits (a
    power, a cost, a skill dropped), along seeded greedy games, every bound is at least the
    value its option leads to, a value known unapplied is that value, and greedy chooses as it
    does when told no bound. Among the edits, a card that costs no less than its next level,
    whose evolution is then free: evaluate once skipped the hand's evolutions at 0 gems, which
    the bounds counted, so values they claimed exact were not."""
    from balance.core.registry import load_game

    game = load_game("beings")
    base = game.load(game.config_dir)
    cards, decks = list(base.catalog.cards), list(base.catalog.decks)
    bounds_of = BeingsMatch.option_bounds

    def no_bounds(m: BeingsMatch, among: Sequence[int] | None = None) -> list[float | None] | None:
        # bounded decisions stay hinted (greedy shares no chains there), with nothing to prune
        return None if bounds_of(m, among) is None else [None] * len(m.options)

    greedy = GreedyBot()
    seen = Counter[str]()
    for seed in range(10, 16):  # three of them meet a free evolution at 0 gems
        edits = Random(seed)
        # a card that costs no less than its next level (whose evolution is then free), in play
        card = edits.choice([c for c in range(len(cards)) if base.evolutions[c]])
        up = base.evolutions[card][0][0]
        overrides: dict[str, object] = {
            f"cards.{cards[card]}.cost": base.cost[up] + edits.randint(0, 2)
        }
        lineup = [edits.choice([d for d in decks if card in base.catalog.decks[d]])]
        lineup.insert(edits.randrange(2), edits.choice(decks))
        for _ in range(3):
            card, field = edits.choice(cards), edits.choice(("power", "cost", "skills"))
            overrides[f"cards.{card}.{field}"] = (
                [] if field == "skills" else edits.randint(0, 9 if field == "power" else 8)
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a cost out of level order is only a data warning
            spec = game.load(game.config_dir, overrides)
        seen["free"] += any(way[1] == 0 for ways in spec.evolutions for way in ways)
        m = game.new_game(spec, lineup, seed)
        rng = Random(seed)
        while (decision := m.decision()) is not None:
            seen += _hints_hold(m, decision, m.determinize(decision.seat, rng))
            state = rng.getstate()
            option = greedy.choose(m, decision, rng)
            after = rng.getstate()
            rng.setstate(state)
            with monkeypatch.context() as patched:
                patched.setattr(BeingsMatch, "option_bounds", no_bounds)
                assert greedy.choose(m, decision, rng) == option, m.describe(option)
            rng.setstate(after)
            m.apply(option)
    assert seen["bounded"] > 1000 and seen["pruned"] > seen["bounded"] // 2
    assert seen["known"] > seen["bounded"] // 3 and seen["free"] >= 2 and seen["best"] > 100


def _hints_hold(m: BeingsMatch, decision: Decision, world: BeingsMatch) -> Counter[str]:
    """Check a world's hints against the values its options lead to; count what was checked."""
    seen = Counter[str]()
    bounds, twins = world.option_bounds(), world.option_twins()
    if bounds is None and twins is None:
        return seen
    values = []
    whole = []  # per option: the seat decides no more in the same action (the next decision is
    # another seat's, of the same kind, or none), as greedy scores a bounded option
    after_own = []  # per option: the seat decides next (a play that ends the turn: not)
    for option in range(len(decision.options)):
        copy = world.clone()
        copy.apply(option)
        values.append(copy.evaluate(decision.seat))
        after = copy.decision()
        whole.append(after is None or after.seat != decision.seat or after.kind == decision.kind)
        after_own.append(after is not None and after.seat == decision.seat)
    for option, bound in enumerate(bounds or ()):
        if bound is not None:
            assert bound >= values[option], m.describe(option)
            assert whole[option], m.describe(option)
            seen["bounded"] += 1
            seen["pruned"] += bound < max(values)
            what = world.options[option]
            seen["skilled"] += what[0] == "play" and any(
                skill.op == GAIN_GEMS for skill in m.spec.triggers[what[1]][PLAY]
            )
            seen["passing"] += what[0] == "play" and not after_own[option]
            if what[0] == "play":
                ops = {skill.op for skill in m.spec.triggers[what[1]][PLAY]}
                seen["drawing"] += DRAW in ops
                seen["reviving"] += REVIVE in ops
                seen["unresolved"] += POWER in ops  # (the starter set's: only on an evolution)
            if what[0] == "end_turn":
                triggers = m.spec.triggers
                seen["turn_skills"] += any(
                    being is not None and triggers[being.stack[-1]][trigger]
                    for side, trigger in (
                        (decision.seat, TURN_END),
                        (1 - decision.seat, TURN_START),
                    )
                    for being in world.field[side]
                )
            if what[0] == "attack":
                attacker = world.field[decision.seat][m.spec.loc_index[what[1]]]
                assert attacker is not None
                at_defender = any(
                    skill.target == DEFENDER
                    for skill in m.spec.triggers[attacker.stack[-1]][ATTACK]
                )
                seen["at_defender" if what[2] == "life" else "weakened"] += at_defender
            value = world.option_value(option)
            if value is not None:
                assert abs(value - values[option]) < 1e-12, m.describe(option)
                seen["known"] += 1
                seen["lost"] += value == -1.0 and what[0] == "done"
                # ending the step where the defence fails: the Being defeated, worked out
                seen["defeated"] += what[0] == "done" and -1.0 < value < world.evaluate(
                    decision.seat
                )
        else:
            assert world.option_value(option) is None
    found = world.option_best()  # the defend step's best option, told unapplied
    if found is not None:
        best, value = found
        if value is None:  # `yes` to an optional recover: best, its value not told
            assert decision.kind == "optional" and best == 0, m.describe(best)
            assert values[best] >= max(values), m.describe(best)
            seen["recover"] += 1
        else:
            assert abs(value - max(values)) < 1e-12, m.describe(best)
            assert abs(values[best] - max(values)) < 1e-12 and whole[best], m.describe(best)
            seen["best"] += 1
    for option, twin in enumerate(twins or ()):
        if twin != option:
            assert values[twin] == values[option], m.describe(option)
            seen["twins"] += 1
            seen["mulligan"] += decision.kind == "mulligan"
    return seen
