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


def test_an_alias_bomb_is_refused_without_expanding_it() -> None:
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for name, previous in zip("bcdefgh", "abcdefg"):
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
    with pytest.raises(ConfigError, match="more than 200,000 values") as e:
        parse_yaml("\n".join(lines) + "\n", "rules.yaml")
    assert (e.value.path, e.value.line) == ("rules.yaml", 6)  # 9**6 values: refused at f


def test_an_alias_inside_its_own_anchor_is_a_loop() -> None:
    with pytest.raises(ConfigError, match=r"alias \*a stands inside the value it names") as e:
        parse_yaml("x: 1\na: &a [1, *a]\n", "rules.yaml")
    assert e.value.line == 2


def test_aliases_within_the_limit_still_work() -> None:
    data = parse_yaml("base: &b {power: 2, cost: 1}\none: *b\ntwo: {<<: *b, name: x}\n", "c.yaml")
    assert data["one"] == {"power": 2, "cost": 1} and data["two"] == {
        "power": 2,
        "cost": 1,
        "name": "x",
    }


def test_deep_nesting_is_one_error_not_a_recursion_error() -> None:
    with pytest.raises(ConfigError, match="nested more than 100 levels") as e:
        parse_yaml("a: " + "[" * 50_000 + "]" * 50_000 + "\n", "rules.yaml")
    assert e.value.line == 1


def test_a_control_character_names_its_line() -> None:
    with pytest.raises(ConfigError, match="#x0000 is not allowed") as e:
        parse_yaml("a: 1\nb: \x00\n", "rules.yaml")
    assert (e.value.path, e.value.line) == ("rules.yaml", 2)


def test_a_file_that_is_not_a_mapping_is_named(tmp_path: Path) -> None:
    from balance.core.yamlio import load_yaml

    (tmp_path / "cards.yaml").write_text("42\n")
    with pytest.raises(ConfigError, match="holds the value '42', not a mapping or a list") as e:
        load_yaml(tmp_path / "cards.yaml", "cards.yaml")
    assert e.value.path == "cards.yaml"


def test_a_folder_or_a_symlink_loop_in_place_of_a_file(tmp_path: Path) -> None:
    from balance.core.yamlio import load_yaml

    (tmp_path / "dir.yaml").mkdir()
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_yaml(tmp_path / "dir.yaml")
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    with pytest.raises(ConfigError, match="cannot read it") as e:
        load_yaml(tmp_path / "a.yaml")
    assert e.value.path == str(tmp_path / "a.yaml")
