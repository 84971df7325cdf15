"""arrows' hints for greedy (heuristics.covered_values, covered_twins): a covered play's value
worked out unapplied, and a covered play's twin, each checked against greedy's own scoring
(the option applied) on the play decisions of seeded greedy games; where the turn does not
simply pass (an opponent's covered card to reveal, a discard due...), no value is told, and such
positions are met."""

from __future__ import annotations

from random import Random

from balance.bots.greedy import GreedyBot
from balance.core.registry import load_game
from balance.games.arrows import rules
from tests.bots.greedy_values import greedy_value

GAME = load_game("arrows")
SPEC = GAME.load(GAME.config_dir)
DECKS = sorted(SPEC.catalog.decks)


def test_covered_values_and_twins_are_greedys_own_values() -> None:
    bot = GreedyBot()
    valued = twinned = declined = 0
    for seed in range(6):
        s = rules.new_game(SPEC, (DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)]), seed)
        chooser = Random(seed)
        while (decision := s.decision()) is not None:
            if decision.kind == "play":
                values = s.option_bounds()
                twins = s.option_twins()
                covered = [
                    k
                    for k, option in enumerate(decision.options)
                    if isinstance(option, tuple) and option[1] == rules.COVERED
                ]
                if values is None:
                    declined += bool(covered)
                else:
                    for k, value in enumerate(values):
                        assert (value is not None) == (k in covered)
                        if value is not None and k % 3 == 0:  # a third: the test stays quick
                            assert value == greedy_value(s, k, bot, Random(1))
                            assert s.option_value(k) == value
                            valued += 1
                if twins is not None:
                    for k, twin in enumerate(twins):
                        if twin != k and k % 3 == 0:
                            assert twin in covered and twin < k
                            mine = greedy_value(s, k, bot, Random(1))
                            assert mine == greedy_value(s, twin, bot, Random(1))
                            twinned += 1
            option = 0 if len(decision.options) == 1 else bot.choose(s, decision, chooser)
            s.apply(option)
    assert valued >= 300, valued
    assert twinned >= 300, twinned
    assert declined >= 5, declined


def test_no_value_is_told_where_the_opponent_reveals_a_covered_card(table) -> None:
    def position(opponent_covered: bool) -> rules.Arrows:
        s = table.new()
        table.put(s, "D3", "2/3 [W]", seat=1, covered=opponent_covered)
        table.hand(s, 0, "3/4 [E, S, W]", "1/2 [N]")
        return table.go(s)

    s = position(False)
    assert s.option_bounds() is not None and s.option_twins() is not None
    # the opponent's covered card activates at its turn's start: its conflicts could read ours
    s = position(True)
    assert s.option_bounds() is None and s.option_twins() is None
