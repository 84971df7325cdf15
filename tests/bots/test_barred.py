"""Restricted play: any bot barred from one card, read from the game's own PLAYED events."""

from __future__ import annotations

from balance.bots import make_bot
from balance.bots.barred import Barred
from balance.core.contract import PLAYED
from balance.core.registry import load_game
from balance.sim.play import play_game
from balance.sim.schedule import Lineup, make_schedule


def _duel() -> tuple[object, object]:
    game = load_game("tinyduel")
    return game, game.load(game.config_dir)


def test_a_barred_bot_plays_the_card_only_when_nothing_else_is_left() -> None:
    game, spec = _duel()
    five = spec.catalog.cards.index("five")
    for name in ("random", "greedy"):
        bot = make_bot(name)
        barred = Barred(bot, five, "five")
        free_plays = forced = 0
        for seed in range(40):
            free = play_game(game, spec, ["plain", "plain"], [bot, bot], seed)
            free_plays += sum(
                1 for e in free.events if e[3] == PLAYED and e[2] == five and e[1] == 0
            )
            record = play_game(game, spec, ["plain", "plain"], [barred, bot], seed)
            assert not record.error
            forced += sum(1 for e in record.events if e[3] == PLAYED and e[2] == five and e[1] == 0)
        assert free_plays > 20  # the unbarred bot does play it: the test could fail
        # a hand of three holds only fives rarely: the bar almost never gives way
        assert forced <= free_plays // 10


def test_a_barred_bot_plays_as_the_bot_until_it_first_wants_the_card() -> None:
    game, spec = _duel()
    bot = make_bot("random")
    barred = Barred(bot, spec.catalog.cards.index("wild"), "wild")  # plain holds no wild
    for seed in range(10):
        free = play_game(game, spec, ["plain", "wild"], [bot, bot], seed)
        same = play_game(game, spec, ["plain", "wild"], [barred, bot], seed)
        assert same.events == free.events


def test_a_picked_schedule_keeps_the_seeds_of_its_lineups() -> None:
    game, spec = _duel()
    schedule = make_schedule(game.info, spec.catalog, "all", ["random"], 2, 60, 7)
    assert len(schedule.lineups) == 3
    picked = schedule.pick([2, 0])
    seeds = {}
    for index in range(schedule.games):
        slot = schedule.slot(index)
        seeds[(slot.lineup_index, slot.deal // 3, slot.rotation)] = slot.seed
    for index in range(picked.games):
        slot = picked.slot(index)
        original = (2, 0)[slot.lineup_index]
        assert seeds[(original, slot.deal // 2, slot.rotation)] == slot.seed
    again = picked.pick([1])  # a pick of a pick still names the first schedule's deals
    assert [again.slot(i).seed for i in range(4)] == [picked.slot(i).seed for i in (2, 3, 6, 7)]
    barred = Lineup(("plain", "wild"), ("random", "random"), ("five", ""))
    assert barred.rotated(1) == Lineup(("wild", "plain"), ("random", "random"), ("", "five"))
