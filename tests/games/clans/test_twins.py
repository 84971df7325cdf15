"""clans' option_twins (rules.pay_twins): an option said to be another's twin has, for greedy,
that option's value, checked by applying both on positions of seeded greedy games."""

from __future__ import annotations

from itertools import pairwise
from random import Random

from balance.bots.greedy import GreedyBot
from balance.core.registry import load_game
from balance.games.clans import heuristics, rules
from balance.games.clans.cards import ClansSpec
from tests.bots.greedy_values import greedy_value

GAME = load_game("clans")
SPEC: ClansSpec = GAME.load(GAME.config_dir)
LINEUPS = sorted(
    (a, b) for a in SPEC.armies for b in SPEC.armies if SPEC.catalog.clash((a, b)) is None
)


def test_twins_have_their_twins_value() -> None:
    bot = GreedyBot()
    checked = {"more to give up": 0, "the turn's end": 0}
    for seed in range(24):
        lineup = LINEUPS[seed % len(LINEUPS)]
        g = rules.new_game(SPEC, lineup, seed)
        chooser = Random(seed)
        while (decision := g.decision()) is not None:
            twins = g.option_twins()
            if twins is not None:
                frame = rules.asked(g)
                last = frame[2] < 2 or len(g.hand[frame[1]]) < 2
                for option, twin in enumerate(twins):
                    if twin != option:
                        mine = greedy_value(g, option, bot, Random(1))
                        assert abs(mine - greedy_value(g, twin, bot, Random(1))) <= 1e-12
                        checked["the turn's end" if last else "more to give up"] += 1
            option = 0 if len(decision.options) == 1 else bot.choose(g, decision, chooser)
            g.apply(option)
    assert min(checked.values()) >= 5, checked


def test_the_best_payment_scores_at_least_every_other() -> None:
    """option_best (rules.pay_best): the option named scores at least every other option, ties
    included, and the value told unapplied (rules.given_up_value) is the value once applied,
    with no follow-up of the seat next (what greedy's `_best_alone` relies on); naming the
    card counted most instead fails here."""
    bot = GreedyBot()
    checked = strict = told = 0
    for seed in range(24):
        lineup = LINEUPS[seed % len(LINEUPS)]
        g = rules.new_game(SPEC, lineup, seed)
        chooser = Random(seed)
        while (decision := g.decision()) is not None:
            found = g.option_best()
            if found is not None:
                best, known = found
                assert 0 <= best < len(decision.options)
                if known is not None:  # told unapplied: exactly the value, and the chain ends
                    copy = g.clone()
                    copy.apply(best)
                    assert known == copy.evaluate(decision.seat), (seed, decision.kind)
                    after = copy.decision()
                    assert (
                        after is None or after.seat != decision.seat or after.kind == decision.kind
                    )
                    told += 1
                top = greedy_value(g, best, bot, Random(1))
                for option in range(len(decision.options)):
                    value = greedy_value(g, option, bot, Random(1))
                    assert value <= top + 1e-12, (seed, decision.kind, option, best)
                    strict += value < top - 1e-12
                checked += 1
            option = 0 if len(decision.options) == 1 else bot.choose(g, decision, chooser)
            g.apply(option)
    assert checked >= 20 and strict >= 5 and told >= 10, (checked, strict, told)


def test_the_race_rises_with_the_battles_chance() -> None:
    """heuristics._race does not fall as this battle's chance p rises (pay_best's proof), over
    every score and round count the shipped rules allow."""
    need, rounds = SPEC.supremacy_to_win, SPEC.max_rounds
    for mine in range(need + 1):
        for theirs in range(need + 1):
            for left in range(rounds + 1):
                for f in range(101):
                    values = [heuristics._race(mine, theirs, left, need, p, f) for p in range(101)]
                    assert all(a <= b + 1e-12 for a, b in pairwise(values))
