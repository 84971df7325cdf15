import pytest

from balance.bots import for_game, make_bot, split_bot_specs
from balance.core.contract import GameInfo
from balance.core.errors import ConfigError
from balance.core.registry import game_names, load_game


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
    bot = make_bot("mcts: iterations = 50 ,horizon=2")
    assert bot.name == "mcts:iterations=50,horizon=2"
    again = make_bot(bot.name)
    assert (again.name, again.iterations, again.horizon) == (bot.name, 50, 2)  # type: ignore[attr-defined]
    assert make_bot("greedy:follow=0").name != make_bot("greedy").name


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mcts:iterations=-1", "iterations=-1: input should be greater than 0"),
        ("mcts:iterations=0", "iterations=0: input should be greater than 0"),
        ("mcts:ms=-5", "ms=-5: input should be greater than or equal to 0"),
        ("mcts:c=nan", "c=nan: input should be a finite number"),
        ("mcts:c=-0.5", "c=-0.5: input should be greater than or equal to 0"),
        ("mcts:horizon=0", "horizon=0: input should be greater than 0"),
        ("mcts:bias=inf", "bias=inf: input should be a finite number"),
        ("greedy:follow=-1", "follow=-1: input should be greater than or equal to 0"),
        ("mcts:iterations=many", "iterations=many: input should be a valid integer"),
        ("greedy:max_options=0", "max_options=0: input should be greater than 0"),
    ],
)
def test_bot_parameters_out_of_their_declared_range_are_config_errors(
    spec: str, words: str
) -> None:
    with pytest.raises(ConfigError, match="bot '") as e:
        make_bot(spec)
    assert words in str(e.value) and e.value.path == "--bots"


def test_parameters_in_range_are_accepted_and_converted() -> None:
    bot = make_bot("mcts:iterations=5,c=0,bias=0,ms=0,horizon=2")
    assert (bot.iterations, bot.c, bot.bias, bot.ms, bot.horizon) == (5, 0.0, 0.0, 0, 2)  # type: ignore[attr-defined]


def test_a_game_writes_its_own_defaults_into_a_bots_spec_where_the_spec_leaves_them_out() -> None:
    info = GameInfo("toy", 2, 2, "1", bot_defaults={"mcts": "horizon=2,iterations=40"})
    # the bot's declaration order, whoever wrote the value; the user's value wins
    assert for_game(info, ["mcts", "mcts:c=0.2,iterations=9", "greedy"]) == [
        "mcts:iterations=40,horizon=2",
        "mcts:iterations=9,c=0.2,horizon=2",
        "greedy",
    ]
    bot = make_bot(for_game(info, ["mcts"])[0])
    assert (bot.iterations, bot.horizon) == (40, 2)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", game_names())
def test_every_games_bot_defaults_make_valid_bots(name: str) -> None:
    info = load_game(name).info
    for kind, params in info.bot_defaults.items():
        spec = for_game(info, [kind])[0]
        assert make_bot(spec).name == spec
        assert all(pair in spec for pair in params.split(","))
