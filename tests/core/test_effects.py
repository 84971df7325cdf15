import operator
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from balance.core.effects import EQ, GE, GT, LE, LT, Section, Vocabulary, compare
from balance.core.errors import ConfigError
from balance.core.yamlio import parse_yaml


class Power(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int
    until: Literal["attack", "turn"] = "attack"


class Adjacent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    owner: Literal["friendly", "opponent", "any"] = "any"


class EntryFields(BaseModel):
    model_config = ConfigDict(extra="forbid")
    optional: bool = False


def vocabulary() -> Vocabulary:
    v = Vocabulary("test", entry_fields=EntryFields)
    v.triggers.add("instant", "when played", aliases=("Sofort",))
    v.ops.add("power", "add power", Power)
    v.ops.add("ready", "ready it")
    v.selectors.add("self", "this card")
    v.selectors.add("adjacent", "neighbours", Adjacent)
    v.selectors.add("choose", "a chosen one", str)
    v.conditions.add("my_life_at_most", "life at most n", int)
    return v


def entry(text: str):
    return parse_yaml(text, "cards.yaml")


def test_a_full_entry_is_checked_and_typed() -> None:
    effect = vocabulary().parse_effect(
        entry(
            "on: Sofort\ndo: power\nn: 2\ntarget: {adjacent: {owner: opponent}}\nif: {my_life_at_most: 0}\noptional: true\n"
        ),
        "card 'x'",
    )
    assert effect.trigger == "instant" and effect.op == "power"
    assert effect.params == Power(n=2, until="attack")
    assert effect.target.selector == "adjacent" and effect.target.params.owner == "opponent"
    assert effect.conditions == {"my_life_at_most": 0}
    assert effect.fields.optional is True


def test_selectors_take_a_name_or_a_single_value() -> None:
    v = vocabulary()
    assert (
        v.parse_effect(entry("on: instant\ndo: ready\ntarget: self\n"), "c").target.selector
        == "self"
    )
    assert (
        v.parse_effect(
            entry("on: instant\ndo: ready\ntarget: {choose: each_wild}\n"), "c"
        ).target.params
        == "each_wild"
    )


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("on: instnt\ndo: ready\n", 1, "did you mean 'instant'"),
        ("on: instant\ndo: powr\nn: 1\n", 2, "did you mean 'power'"),
        ("on: instant\ndo: power\nn: two\n", 3, "whole number"),
        ("on: instant\ndo: power\nn: 1\nuntl: turn\n", 4, "did you mean 'until'"),
        ("on: instant\ndo: power\nn: 1\nuntil: forever\n", 4, "attack"),
        ("on: instant\ndo: ready\nn: 1\n", 3, "takes no parameter"),
        ("on: instant\ndo: ready\ntarget: slef\n", 3, "did you mean 'self'"),
        ("on: instant\ndo: ready\nif: {my_life_at_mst: 1}\n", 3, "did you mean 'my_life_at_most'"),
        ("do: ready\n", 1, "add on:"),
    ],
)
def test_mistakes_name_the_line_and_the_nearest_word(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as e:
        vocabulary().parse_effect(entry(text), "card 'x'")
    assert e.value.path == "cards.yaml" and e.value.line == line
    assert words in e.value.one_line()


def test_params_text_for_the_vocab_listing() -> None:
    v = vocabulary()
    assert v.ops.words["power"].params_text() == "n: int, until: attack|turn = attack"
    assert v.triggers.words["instant"].aliases == ("Sofort",)


def test_compare_reads_each_comparison_code() -> None:
    """One comparison for every game's compiled conditions (clans' `lt`..., possession's `<`...)."""
    ops = {LT: operator.lt, LE: operator.le, EQ: operator.eq, GE: operator.ge, GT: operator.gt}
    for code, op in ops.items():
        for a in range(-2, 3):
            for b in range(-2, 3):
                assert compare(a, code, b) is op(a, b), (code, a, b)


def test_a_words_code_is_its_place_in_declaration_order_aliases_included() -> None:
    section = Section("op")
    assert section.add("draw", "draws") == 0
    assert section.add("discard", "discards", aliases=("mill",)) == 1
    assert section.add("rest", "rests") == 2
    assert section.codes() == {"draw": 0, "discard": 1, "mill": 1, "rest": 2}
