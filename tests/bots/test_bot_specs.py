import pytest

from balance.bots import make_bot, split_bot_specs
from balance.core.errors import ConfigError


def test_commas_separate_seats_but_not_a_bots_parameters() -> None:
    assert split_bot_specs("random,greedy") == ["random", "greedy"]
    assert split_bot_specs("mcts:iterations=200,c=1.4,random") == [
        "mcts:iterations=200,c=1.4",
        "random",
    ]


def test_unknown_bots_and_parameters_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="did you mean 'random'"):
        make_bot("randm")
    with pytest.raises(ConfigError, match="has no parameter 'speed'"):
        make_bot("random:speed=3")
    assert make_bot("random").name == "random"


def test_a_bot_is_named_by_its_whole_spec_so_tables_and_replays_tell_parameters_apart() -> None:
    bot = make_bot("mcts: iterations = 50 ,depth=3")
    assert bot.name == "mcts:iterations=50,depth=3"
    again = make_bot(bot.name)
    assert (again.name, again.iterations, again.depth) == (bot.name, 50, 3)  # type: ignore[attr-defined]
    assert make_bot("greedy:follow=0").name != make_bot("greedy").name
