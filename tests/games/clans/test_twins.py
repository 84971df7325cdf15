"""clans' option_twins (rules.pay_twins): an option said to be another's twin has, for greedy,
that option's value, checked by applying both on positions of seeded greedy games."""

from __future__ import annotations

from random import Random

from balance.bots.greedy import GreedyBot
from balance.core.registry import load_game
from balance.games.clans import rules
from balance.games.clans.cards import ClansSpec

GAME = load_game("clans")
SPEC: ClansSpec = GAME.load(GAME.config_dir)
LINEUPS = sorted(
    (a, b) for a in SPEC.armies for b in SPEC.armies if SPEC.catalog.clash((a, b)) is None
)


def greedy_value(g: rules.Clans, option: int, bot: GreedyBot, rng: Random) -> float:
    """`option`'s value as greedy scores it unhinted: evaluate once applied, through the same
    seat's follow-up decisions of other kinds."""
    decision = g.decision()
    assert decision is not None
    copy = g.clone()
    copy.apply(option)
    after = copy.decision()
    if after is None or after.seat != decision.seat or after.kind == decision.kind:
        return copy.evaluate(decision.seat)
    return bot._follow_through(copy, decision.seat, (decision.kind,), bot.follow, False, rng)[0]


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
                frame = g.stack[-1]
                last = frame[2] < 2 or len(g.hand[frame[1]]) < 2
                for option, twin in enumerate(twins):
                    if twin != option:
                        mine = greedy_value(g, option, bot, Random(1))
                        assert abs(mine - greedy_value(g, twin, bot, Random(1))) <= 1e-12
                        checked["the turn's end" if last else "more to give up"] += 1
            option = 0 if len(decision.options) == 1 else bot.choose(g, decision, chooser)
            g.apply(option)
    assert min(checked.values()) >= 5, checked
