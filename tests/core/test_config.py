import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from balance.core.config import (
    apply_override,
    lookup,
    no_duplicates,
    parse_overrides,
    read_config,
    spec_from_rules,
    validate,
)
from balance.core.errors import ConfigError
from balance.core.yamlio import parse_yaml

TINY = Path(__file__).parents[1] / "tinygame" / "site" / "tinyduel" / "config"


def docs(text_by_name: dict[str, str]) -> dict:
    return {name: parse_yaml(text, f"{name}.yaml") for name, text in text_by_name.items()}


def test_overrides_reach_rules_cards_by_id_and_nested_lists() -> None:
    data = docs(
        {
            "rules": "turn_limit: 60\n",
            "cards": "cards:\n  - {id: fox, power: 2, skills: [{on: play, do: draw, n: 1}]}\n",
        }
    )
    apply_override(data, "rules.turn_limit", "40")
    apply_override(data, "rules.cap_result", "tiebreak")  # a key the file leaves at its default
    apply_override(data, "cards.fox.power", 5)
    apply_override(data, "cards.fox.skills.0.n", "3")
    assert data["rules"]["turn_limit"] == 40 and data["rules"]["cap_result"] == "tiebreak"
    assert data["cards"]["cards"][0]["power"] == 5
    assert data["cards"]["cards"][0]["skills"][0]["n"] == 3


def test_an_unknown_card_in_an_override_suggests_the_nearest() -> None:
    data = docs({"cards": "cards:\n  - {id: ember_fox, power: 2}\n"})
    with pytest.raises(ConfigError) as e:
        apply_override(data, "cards.embr_fox.power", 3)
    assert "ember_fox" in e.value.hint and e.value.path.startswith("--set cards.embr_fox.power")


def test_an_unknown_document_is_refused() -> None:
    with pytest.raises(ConfigError, match="no document 'rule'"):
        apply_override(docs({"rules": "a: 1\n"}), "rule.a", 2)


def test_parse_overrides_reads_values_as_yaml() -> None:
    assert parse_overrides(["rules.a=4", "rules.b=true", "rules.c=[1, 2]", "rules.d=draw"]) == {
        "rules.a": 4,
        "rules.b": True,
        "rules.c": [1, 2],
        "rules.d": "draw",
    }
    with pytest.raises(ConfigError, match="PATH=VALUE"):
        parse_overrides(["rules.a"])


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn_limit: int = 60
    cap_result: str = "draw"


def test_schema_errors_name_file_and_line() -> None:
    data = parse_yaml("turn_limit: 60\ncap_reslt: draw\n", "rules.yaml")
    with pytest.raises(ConfigError) as e:
        validate(Rules, data)
    assert (e.value.path, e.value.line) == ("rules.yaml", 2)
    assert "cap_result" in e.value.hint
    data = parse_yaml("turn_limit: sixty\n", "rules.yaml")
    with pytest.raises(ConfigError) as e:
        validate(Rules, data)
    assert (e.value.path, e.value.line) == ("rules.yaml", 1) and "whole number" in e.value.hint


def test_a_bad_override_is_blamed_on_the_override() -> None:
    data = {"rules": parse_yaml("turn_limit: 60\n", "rules.yaml")}
    apply_override(data, "rules.turn_limit", "soon")
    with pytest.raises(ConfigError) as e:
        validate(Rules, data["rules"])
    assert e.value.path == "--set rules.turn_limit=soon" and e.value.line is None


def test_read_config_hash_follows_the_content(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    shutil.copytree(TINY, folder)
    plain = read_config(folder)
    changed = read_config(folder, overrides={"rules.seat0_bonus": 1})
    same = read_config(folder, overrides={"rules.seat0_bonus": 0})
    assert plain.config_hash != changed.config_hash
    assert plain.config_hash == same.config_hash


def test_lookup_gives_the_code_or_an_unknown_name_error_at_its_line() -> None:
    data = parse_yaml(
        "decks:\n  - {id: red, cards: [fox, wolf]}\n  - {id: blue, cards: [foz]}\n", "d.yaml"
    )
    table = {"fox": 0, "wolf": 1}
    assert lookup(table, "wolf", "card", data, ("decks", 0, "cards", 1)) == 1
    assert lookup(["fox", "wolf"], "wolf", "card", data, ()) == 1  # a list of names: the index
    with pytest.raises(ConfigError) as e:
        lookup(table, "foz", "card", data, ("decks", 1, "cards", 0), "deck 'blue'")
    assert e.value.one_line() == "d.yaml:3: deck 'blue': unknown card 'foz' (did you mean 'fox'?)"


def test_no_duplicates_names_the_second_of_two_equal_names() -> None:
    data = parse_yaml("cards:\n  - {id: fox}\n  - {id: wolf}\n  - {id: fox}\n", "c.yaml")
    ids = [card["id"] for card in data["cards"]]
    assert no_duplicates(ids[:2], "card", data, ("cards",), "id") == {"fox": 0, "wolf": 1}
    with pytest.raises(ConfigError) as e:
        no_duplicates(ids, "card", data, ("cards",), "id")
    assert e.value.one_line() == "c.yaml:4: card 'fox' is listed twice (give each card its own id)"
    pool = parse_yaml("pool:\n  - a\n  - b\n  - a\n", "p.yaml")
    with pytest.raises(ConfigError) as e:
        no_duplicates(pool["pool"], "clan", pool, ("pool",), context="pool")
    assert e.value.one_line() == "p.yaml:4: pool: clan 'a' is listed twice (list each clan once)"


@dataclass(frozen=True)
class TinySpec:
    turn_limit: int
    cap_result: str
    seats: tuple[int, ...]
    decision_cap: int


@dataclass(frozen=True)
class RulesSpec:
    turn_limit: int
    cap_result: str


class SeatRules(Rules):
    seats: list[int] = [2, 3]


def test_spec_from_rules_copies_the_rules_by_name_and_refuses_a_mismatch() -> None:
    rules = SeatRules(turn_limit=40)
    spec = spec_from_rules(TinySpec, rules, decision_cap=400)
    assert spec == TinySpec(40, "draw", (2, 3), 400)  # a list arrives as a tuple
    assert spec_from_rules(TinySpec, rules, decision_cap=1, cap_result="x").cap_result == "x"
    with pytest.raises(TypeError, match=r"TinySpec\.seats is neither a field of Rules"):
        spec_from_rules(TinySpec, Rules(), decision_cap=400)  # the spec has a field the rules lack
    with pytest.raises(TypeError, match=r"SeatRules\.seats is not a field of RulesSpec"):
        spec_from_rules(RulesSpec, rules)  # the rules have a field the spec lacks
    assert spec_from_rules(RulesSpec, rules, compiled_elsewhere=("seats",)) == RulesSpec(40, "draw")
    with pytest.raises(TypeError, match="compiled_elsewhere names 'seat'"):
        spec_from_rules(TinySpec, rules, compiled_elsewhere=("seat",), decision_cap=1)
