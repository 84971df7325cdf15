"""possession's config: bad data is refused naming file:line; the starter set uses every word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.games.possession.cards import load_spec
from balance.games.possession.effects import (
    C_ACTOR,
    C_AMOUNT,
    C_COMPARE,
    C_PLAYER,
    C_SUBJECT,
    C_TURN,
    FACE_DOWN_WILD,
    OPS,
    VOCABULARY,
)
from balance.games.possession.spec import TRIGGERS

GAME = load_game("possession")
ATTACKER = (
    "{role: possessed, on: attack, if: {actor: self}, do: damage, target: each_opponent_possessed,"
)


def copy_config(tmp_path: Path) -> Path:
    folder = tmp_path / "possession"
    shutil.copytree(GAME.config_dir, folder)
    return folder


def edit(folder: Path, document: str, old: str, new: str) -> int:
    """Replace `old` (once) in `<document>.yaml`; return the 1-based line the change is on."""
    path = folder / f"{document}.yaml"
    text = path.read_text()
    assert text.count(old) == 1, f"'{old}' is not once in {document}.yaml"
    at = text.index(old)
    path.write_text(text.replace(old, new))
    return text[:at].count("\n") + 1


def refused(folder: Path) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        load_spec(folder)
    return e.value


def test_the_shipped_config_loads_and_every_deck_is_shared() -> None:
    spec = GAME.load(GAME.config_dir)
    catalog = spec.catalog
    assert len(catalog.cards) == 20
    assert catalog.shared == frozenset(catalog.decks)
    assert catalog.deck_seats == {"starter": (2,), "starter_big": (3, 4), "no_vanilla": (2, 3, 4)}
    assert (
        sum(catalog.decks["starter"].values()) == 40
        and sum(catalog.decks["starter_big"].values()) == 60
    )
    assert spec.setup_size(2) == 15


def test_the_starter_set_uses_every_trigger_op_and_condition_kind() -> None:
    spec = GAME.load(GAME.config_dir)
    effects = [e for by_role in spec.effects for e in by_role if e is not None]
    steps = [s for e in effects for s in e.steps]
    assert {TRIGGERS[e.trigger] for e in effects} == set(TRIGGERS)
    assert {OPS[s.op] for s in steps} == set(OPS)
    kinds = {c[0] for e in effects for c in e.conditions}
    assert kinds == {C_ACTOR, C_SUBJECT, C_PLAYER, C_TURN, C_AMOUNT, C_COMPARE}
    assert any(e.optional for e in effects) and any(len(e.steps) > 1 for e in effects)
    assert any(s.choose or s.b_choose for s in steps) and any(
        s.target == FACE_DOWN_WILD for s in steps
    )
    assert [sum(e.role == r for e in effects) for r in range(3)] == [9, 6, 5]
    shapes = sorted(sum(e is not None for e in by_role) for by_role in spec.effects)
    assert shapes == [0] * 4 + [1] * 12 + [2] * 4


def test_the_vocabulary_declares_every_word_with_a_doc() -> None:
    assert [w.name for w in VOCABULARY.triggers] == list(TRIGGERS)
    assert [w.name for w in VOCABULARY.ops] == list(OPS)
    assert {w.name for w in VOCABULARY.conditions} == {
        "actor",
        "subject",
        "player",
        "turn",
        "amount_at_least",
        "compare",
    }
    for section in VOCABULARY.sections():
        assert all(word.doc for word in section), section.kind
    assert GAME.vocabulary() is VOCABULARY


@pytest.mark.parametrize(
    "old, new, words",
    [
        (
            "{id: stone_hound, name: Stone Hound, might: 3,",
            "{id: stone_hound, name: Stone Hound, might: three,",
            "whole number",
        ),
        (
            "{id: swift_fox, name: Swift Fox, might: 4,",
            "{id: swift_fox, name: Swift Fox, might: 12,",
            "lower the number",
        ),
        (
            "do: damage, target: each_opponent_possessed",
            "do: damag, target: each_opponent_possessed",
            "did you mean 'damage'",
        ),
        (
            "{role: defender, on: attack, do: damage, target: actor",
            "{role: defender, on: atack, do: damage, target: actor",
            "did you mean 'attack'",
        ),
        (
            "{role: defender, on: soothe,",
            "{role: defender, on: soothe, colour: red,",
            "no parameter 'colour'",
        ),
        (
            "target: {choose: each_wild},\n         action: any",
            "target: each_wild,\n         action: any",
            "is a group",
        ),
        ("do: heal, target: adjacent_wilds", "do: ward, target: face_down_wild", "face_down_wild"),
        (
            "{role: possessed, on: drew, if: {player: controller}",
            "{role: possessed, on: drew, if: {actor: self}",
            "has no actor",
        ),
        (
            "on: escaped, if: {subject: opponent_possessed}",
            "on: escaped, if: {subject: opponent}",
            "not allowed",
        ),
        ("of: turn_possessed, op:", "of: each_wild, op:", "one creature"),
        ("- {id: iron_tortoise,", "- {id: stone_hound,", "listed twice"),
    ],
)
def test_bad_cards_are_refused_naming_the_line(tmp_path, old, new, words) -> None:
    folder = copy_config(tmp_path)
    line = edit(folder, "cards", old, new)
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert words in error.one_line()


def test_a_second_effect_for_one_role_is_refused(tmp_path) -> None:
    folder = copy_config(tmp_path)
    line = edit(
        folder,
        "cards",
        ATTACKER,
        "{role: possessed, on: turn_end, do: heal, target: self, amount: 1}\n      - " + ATTACKER,
    )
    error = refused(folder)
    assert "second possessed effect" in error.message and error.line == line + 1


@pytest.mark.parametrize(
    "old, new, words",
    [
        (
            "      stone_hound: 2\n",
            "      stone_hound: 2\n      stone_hund: 1\n",
            "did you mean 'stone_hound'",
        ),
        ("players: [2]", "players: [5]", "2-4"),
    ],
)
def test_bad_decks_are_refused_naming_the_line(tmp_path, old, new, words) -> None:
    folder = copy_config(tmp_path)
    line = edit(folder, "decks", old, new)
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and words in error.one_line()
    assert error.line in (line, line + 1)


def test_a_deck_too_small_for_setup_is_refused(tmp_path) -> None:
    folder = copy_config(tmp_path)
    text = (folder / "decks.yaml").read_text()
    start = text.index("  starter:")
    cards_at = text.index("    cards:", start)
    end = text.index("  starter_big:")
    small = "    cards:\n      stone_hound: 14\n"
    (folder / "decks.yaml").write_text(text[:cards_at] + small + text[end:])
    error = refused(folder)
    assert "setup for 2 players deals 15" in error.message
    assert error.line == text[:cards_at].count("\n") + 1


def test_bad_rules_are_refused_naming_the_line(tmp_path) -> None:
    folder = copy_config(tmp_path)
    line = edit(folder, "rules", "wild_count: 5 ", "wild_count: 3 ")
    error = refused(folder)
    assert error.path.endswith("rules.yaml") and error.line == line
    folder = copy_config(tmp_path / "b")
    line = edit(folder, "rules", "retrigger_position: back", "retrigger_position: front")
    assert refused(folder).line == line
    folder = copy_config(tmp_path / "c")
    line = edit(folder, "rules", "deck: auto", "deck: strater")
    error = refused(folder)
    assert error.line == line and "did you mean 'starter'" in error.one_line()


def test_overrides_reach_rules_and_cards() -> None:
    spec = GAME.load(GAME.config_dir, {"rules.max_rounds": 12, "cards.swift_fox.might": 5})
    assert spec.max_rounds == 12 and spec.might[spec.catalog.cards.index("swift_fox")] == 5
    with pytest.raises(ConfigError) as e:
        GAME.load(GAME.config_dir, {"rules.max_chain": 0})
    assert "--set" in e.value.path


def test_the_game_statistics_fit_the_games_table() -> None:
    from balance.sim.records import games_columns

    catalog = GAME.load(GAME.config_dir).catalog
    for seats in (2, 3, 4):
        columns = games_columns(seats, catalog.game_stats)
        assert len(columns) == len(set(columns))
