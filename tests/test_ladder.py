import math

from balance.ladder import ladder


def test_ladder_measures_each_pair_and_level_even_for_bots_with_parameters() -> None:
    result = ladder("arrows", ["random", "greedy: follow=0"], games=1, jobs=1)
    assert result.bots == ["random", "greedy:follow=0"]
    pairs = result.pairs.set_index(["bot", "opponent"])
    first = pairs.loc[("random", "greedy:follow=0")]
    second = pairs.loc[("greedy:follow=0", "random")]
    assert first["deals"] > 0 and math.isfinite(first["estimate"])
    assert first["estimate"] + second["estimate"] == 1.0  # two seats share each game's point
    assert first["ci_low"] <= first["estimate"] <= first["ci_high"]
    assert set(result.levels["bot"]) == {"random", "greedy:follow=0"}
    assert "seat advantage" in set(result.levels["measure"])
