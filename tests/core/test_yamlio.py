from pathlib import Path

import pytest

from balance.core.errors import ConfigError
from balance.core.yamlio import LineList, LineMap, line_of, parse_yaml


def test_on_stays_a_string_key_and_lines_are_kept() -> None:
    data = parse_yaml(
        "cards:\n  - id: a\n    effects:\n      - {on: play, do: draw}\n", "cards.yaml"
    )
    effect = data["cards"][0]["effects"][0]
    assert "on" in effect and effect["on"] == "play"
    assert isinstance(data, LineMap) and isinstance(data["cards"], LineList)
    assert line_of(data, ("cards", 0, "effects", 0, "do")) == ("cards.yaml", 4)
    assert line_of(data, ("cards", 0, "id")) == ("cards.yaml", 2)


def test_only_true_and_false_are_booleans() -> None:
    data = parse_yaml("a: yes\nb: off\nc: true\nd: False\n", "x.yaml")
    assert data == {"a": "yes", "b": "off", "c": True, "d": False}


def test_a_key_given_twice_is_an_error_with_its_line() -> None:
    with pytest.raises(ConfigError) as e:
        parse_yaml("a: 1\nb: 2\na: 3\n", "rules.yaml")
    assert (e.value.path, e.value.line) == ("rules.yaml", 3)


def test_syntax_errors_name_the_line() -> None:
    with pytest.raises(ConfigError) as e:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", "rules.yaml")
    assert e.value.path == "rules.yaml" and e.value.line is not None and e.value.line >= 2


def test_line_of_stops_at_the_deepest_existing_node() -> None:
    data = parse_yaml("rules:\n  turn_limit: 60\n", "rules.yaml")
    # a missing key is blamed on the mapping that should hold it
    assert line_of(data, ("rules", "missing_key")) == ("rules.yaml", 1)


def test_missing_file(tmp_path: Path) -> None:
    from balance.core.yamlio import load_yaml

    with pytest.raises(ConfigError, match="file not found"):
        load_yaml(tmp_path / "nope.yaml")
