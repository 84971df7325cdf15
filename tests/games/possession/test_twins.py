"""possession's option_twins (rules.soothe_twins, rules.discard_twins): an action's Soothe, or a
Swap's discard, said to be another's twin has, for greedy, that option's value, checked by
applying both on positions of seeded greedy games (discards keeping different best Mights
among them, where the seat's Glory chances read the same of either); where a creature watches
Soothes, or an effect could run before the next seat decides, none are told (and such
positions are met)."""

from __future__ import annotations

from random import Random

from balance.bots.greedy import GreedyBot
from balance.core.registry import load_game
from balance.games.possession import rules
from tests.bots.greedy_values import greedy_value

GAME = load_game("possession")
SPEC = GAME.load(GAME.config_dir)
LINEUPS = [("starter", "starter"), ("no_vanilla", "no_vanilla")]


def unhurt_soothes(g: rules.Possession) -> list[int]:
    decision = g.decision()
    assert decision is not None
    return [
        k
        for k, option in enumerate(decision.options)
        if option[0] == "soothe" and (c := g.occ[option[1]]) != rules.EMPTY and g.damage[c] == 0
    ]


def test_twins_have_their_twins_value_and_none_are_told_where_soothes_are_watched() -> None:
    bot = GreedyBot(share_width=1)  # the game's bot default
    twins_checked = watched = 0
    for seed in range(30):
        g = rules.new_game(SPEC, LINEUPS[seed % len(LINEUPS)], seed)
        chooser = Random(seed)
        while (decision := g.decision()) is not None:
            twins = g.option_twins()
            if decision.kind == "swap":
                pass  # discard twins: the test below
            elif decision.kind != "action":
                assert twins is None
            elif twins is not None:
                unhurt = unhurt_soothes(g)
                assert [k for k, twin in enumerate(twins) if twin != k] == unhurt[1:]
                for option, twin in enumerate(twins):
                    if twin != option:
                        assert twin == unhurt[0]
                        mine = greedy_value(g, option, bot, Random(1))
                        assert mine == greedy_value(g, twin, bot, Random(1))
                        twins_checked += 1
            elif len(unhurt := unhurt_soothes(g)) > 1:
                assert rules.soothes_watched(g)
                watched += 1
            option = 0 if len(decision.options) == 1 else bot.choose(g, decision, chooser)
            g.apply(option)
    assert twins_checked >= 100, twins_checked
    assert watched >= 5, watched


def best_kept(g: rules.Possession, card: int) -> int:
    """The highest Might left in the deciding seat's hand once a copy of `card` is discarded."""
    decision = g.decision()
    assert decision is not None
    kept = [g.kind[c] for c in g.hands[decision.seat]]
    kept.remove(card)
    return max(SPEC.might[k] for k in kept)


def test_discard_twins_have_their_twins_value_and_none_are_told_where_effects_could_run() -> None:
    bot = GreedyBot(share_width=1)
    twins_checked = declined = 0
    best_differs = 0  # twins keeping different best Mights (heuristics.best_might_counts)
    for seed in range(30):
        g = rules.new_game(SPEC, LINEUPS[seed % len(LINEUPS)], seed)
        chooser = Random(seed)
        while (decision := g.decision()) is not None:
            if decision.kind == "swap":
                twins = g.option_twins()
                discards = [
                    k for k, option in enumerate(decision.options) if option[0] == "discard"
                ]
                if twins is not None:
                    for option, twin in enumerate(twins):
                        if twin != option:
                            assert option in discards and twin in discards and twin < option
                            mine = greedy_value(g, option, bot, Random(1))
                            assert mine == greedy_value(g, twin, bot, Random(1))
                            twins_checked += 1
                            options = decision.options
                            if best_kept(g, options[option][1]) != best_kept(g, options[twin][1]):
                                best_differs += 1
                elif len(discards) > 1:
                    declined += 1
            option = 0 if len(decision.options) == 1 else bot.choose(g, decision, chooser)
            g.apply(option)
    assert twins_checked >= 30, twins_checked
    assert best_differs >= 30, best_differs
    assert declined >= 30, declined
