"""arrows' config: the starter set as §7 describes it, and bad data refused with file:line."""

from __future__ import annotations

import shutil
import warnings
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.games.arrows.cards import CostWarning, load_spec
from balance.games.arrows.effects import OPS, TRIGGERS, VOCABULARY

GAME = load_game("arrows")


@pytest.fixture(scope="module")
def shipped():
    with warnings.catch_warnings():
        warnings.simplefilter("error", CostWarning)  # the starter set keeps to the guideline
        return GAME.load(GAME.config_dir)


def config_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    shutil.copytree(GAME.config_dir, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / f"{name}.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def line_of(folder: Path, name: str, fragment: str) -> int:
    lines = (folder / f"{name}.yaml").read_text().splitlines()
    return next(i + 1 for i, line in enumerate(lines) if fragment in line)


def refused(folder: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_spec(folder)
    return caught.value


# -- the starter set (§7) -----------------------------------------------------------------------


def test_starter_set_uses_every_op_and_trigger(shipped) -> None:
    ops = {OPS[e.op] for card in range(len(shipped.catalog.cards)) for e in _effects(shipped, card)}
    triggers = {
        TRIGGERS[e.trigger]
        for card in range(len(shipped.catalog.cards))
        for e in _effects(shipped, card)
    }
    assert ops == set(OPS)
    assert triggers == set(TRIGGERS)
    conditions = (Path(GAME.config_dir) / "cards.yaml").read_text()
    for word in VOCABULARY.conditions.words:
        assert f"{word}:" in conditions


def _effects(spec, card):
    return (*spec.abilities[card], *spec.on_activate[card], *spec.on_reactivate[card],
            *spec.on_flipped[card], *spec.on_destroyed[card], *spec.on_turn_end[card])  # fmt: skip


def test_starter_set_shape(shipped) -> None:
    spec = shipped
    assert len(spec.catalog.cards) == 27
    in_decks = set()
    for name in ("vanguard", "undergrowth"):
        deck = spec.catalog.decks[name]
        assert sum(deck.values()) == 60 and len(deck) == 15 and set(deck.values()) == {4}
        in_decks |= set(deck)
    assert in_decks == set(range(27))  # every card is in one of the spec's two decks
    for name, deck in spec.catalog.decks.items():
        bands = Counter()
        for card, copies in deck.items():
            cost = spec.cost[card]
            band = 0 if cost <= 3 else 1 if cost <= 5 else 2 if cost <= 7 else 3 if cost <= 9 else 4
            bands[band] += copies
        assert [bands[b] for b in range(5)] == [12, 16, 16, 12, 4], name
    shared = set(spec.catalog.decks["vanguard"]) & set(spec.catalog.decks["undergrowth"])
    assert len(shared) == 3 and all(not spec.abilities[c] for c in shared)
    for card in range(27):
        cost, atk, arrows = spec.cost[card], spec.atk[card], len(spec.arrows[card])
        assert 2 <= cost <= 12 and 1 <= spec.def_[card] <= 9
        assert 1 <= atk <= (7 if cost >= 10 else 6)
        low, high = (1, 3) if cost <= 3 else (2, 5) if cost <= 7 else (3, 8 if cost == 12 else 7)
        assert low <= arrows <= high, spec.catalog.cards[card]
    assert sum(len(a) == 8 for a in spec.arrows) <= 1
    assert len(spec.catalog.decks) >= 3  # a real matchup matrix


def test_vocabulary_prints_from_the_registry() -> None:
    result = CliRunner().invoke(app, ["vocab", "arrows"])
    assert result.exit_code == 0, result.output
    for word in ("place_covered", "turn_end", "adjacent_count", "score_diff", "board"):
        assert word in result.output


def test_validate_the_shipped_config() -> None:
    result = CliRunner().invoke(app, ["validate", "arrows"])
    assert result.exit_code == 0 and "27 cards, 3 decks" in result.output


# -- bad data: one line naming file:line -------------------------------------------------------


def test_a_wrong_type(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "cost: 3, atk: 2, def: 3", "cost: three, atk: 2, def: 3")
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line_of(
        folder, "cards", "cost: three"
    )
    assert "whole number" in error.one_line()


def test_an_unknown_op(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "do: push}", "do: shove}")
    error = refused(folder)
    assert (
        error.line == line_of(folder, "cards", "do: shove")
        and "unknown op 'shove'" in error.message
    )


def test_an_unknown_trigger(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "{on: turn_end,", "{on: turn_ends,")
    error = refused(folder)
    assert (
        error.line == line_of(folder, "cards", "on: turn_ends")
        and "did you mean 'turn_end'" in error.hint
    )


def test_an_ability_on_an_arrow_the_card_lacks(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(
        folder,
        "cards",
        "{on: ability, arrow: S, do: revive}]}",
        "{on: ability, arrow: E, do: revive}]}",
    )
    error = refused(folder)
    assert (
        error.line == line_of(folder, "cards", "arrow: E, do: revive")
        and "not one of the card's arrows" in error.message
    )


def test_movement_only_as_an_ability(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "{on: ability, arrow: N, do: swap}", "{on: activate, do: swap}")
    error = refused(folder)
    assert (
        error.line == line_of(folder, "cards", "on: activate, do: swap")
        and "arrow ability" in error.message
    )


def test_an_unknown_card_field(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "name: Lancer Pup,", "name: Lancer Pup, power: 3,")
    error = refused(folder)
    assert (
        error.line == line_of(folder, "cards", "power: 3")
        and "unknown field 'power'" in error.message
    )


def test_a_deck_of_the_wrong_size(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(
        folder,
        "decks",
        "cards: {spark_beetle: 4, ember_scout: 4,",
        "cards: {spark_beetle: 3, ember_scout: 4,",
    )
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and error.line == line_of(
        folder, "decks", "spark_beetle: 3"
    )
    assert "59 cards" in error.message


def test_too_many_copies(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(
        folder,
        "decks",
        "cards: {spark_beetle: 4, ember_scout: 4,",
        "cards: {spark_beetle: 5, ember_scout: 3,",
    )
    error = refused(folder)
    assert error.line == line_of(folder, "decks", "spark_beetle: 5") and "max_copies" in error.hint


def test_an_unknown_card_in_a_deck(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(
        folder, "decks", "lancer_pup: 4,\n            bronze", "lancer_pupp: 4,\n            bronze"
    )
    error = refused(folder)
    assert (
        error.line == line_of(folder, "decks", "lancer_pupp")
        and "did you mean 'lancer_pup'" in error.hint
    )


def test_a_bad_rule_value(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "rules", "covered_hit: destroy", "covered_hit: explode")
    error = refused(folder)
    assert error.path.endswith("rules.yaml") and error.line == line_of(
        folder, "rules", "covered_hit:"
    )


def test_diagonal_arrows_with_four_directions(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "rules", "directions: 8", "directions: 4")
    error = refused(folder)
    assert "only N, E, S, W" in error.message and error.path.endswith("cards.yaml")


def test_the_cli_refuses_with_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "do: push}", "do: shove}")
    result = CliRunner().invoke(app, ["validate", "arrows", "--config", str(folder)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "cards.yaml:" in lines[0] and "shove" in lines[0]


def test_cost_guideline_is_a_warning(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    edit(folder, "cards", "cost: 3, atk: 2, def: 3", "cost: 12, atk: 2, def: 3")
    with pytest.warns(CostWarning, match="lancer_pup"):
        spec = load_spec(folder)
    assert spec.cost[spec.catalog.cards.index("lancer_pup")] == 12
