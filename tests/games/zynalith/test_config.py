"""zynalith's config: the starter set covers the vocabulary; bad data is refused with file:line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balance.core.errors import ConfigError
from balance.games.zynalith.cards import load_spec
from balance.games.zynalith.effects import (
    KEYWORDS,
    OP_IDS,
    SELECTOR_CODES,
    TRIGGER_IDS,
    VOCABULARY,
)
from balance.games.zynalith.spec import TYPE_CREATURE, TYPE_EVENT
from balance.games.zynalith.state import ATK, INIT

SHIPPED = Path(__file__).resolve().parents[3] / "configs" / "zynalith"


def copy_config(tmp_path: Path) -> Path:
    target = tmp_path / "zynalith"
    shutil.copytree(SHIPPED, target)
    return target


def replace(path: Path, old: str, new: str) -> int:
    """Replace `old` (once) in a config file; the 1-based line it stood on."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line


# -- the shipped starter set --------------------------------------------------------------------


def test_starter_set_covers_every_op_trigger_selector_condition_and_keyword(shipped_spec):
    spec = shipped_spec
    effects = [fx for card in spec.cards for fx in card.effects]
    assert {OP_IDS[fx.op] for fx in effects} == set(OP_IDS)
    assert {TRIGGER_IDS[fx.trigger] for fx in effects} == set(TRIGGER_IDS)
    used = {fx.sel for fx in effects}
    assert used >= set(SELECTOR_CODES.values())
    conditions = {c[0] for fx in effects for c in fx.conds} | (
        {"by"} if any(fx.by for fx in effects) else set()
    )
    assert len(conditions) == len(VOCABULARY.conditions)
    printed = [card.keywords for card in spec.cards]
    for bit in (1, 2, 4):
        assert sum(1 for k in printed if k & bit) >= 2  # each keyword on two creatures
        assert any(fx.op == OP_IDS.index("grant_keyword") and fx.keywords & bit for fx in effects)


def test_every_trigger_on_two_designs(shipped_spec):
    for trigger in range(len(TRIGGER_IDS)):
        designs = [card.id for card in shipped_spec.cards if card.on[trigger]]
        assert len(designs) >= 2, TRIGGER_IDS[trigger]


def test_starter_piles_match_the_spec(shipped_spec):
    creature_pile, extra_pile = shipped_spec.setups["standard"]
    cards = shipped_spec.cards
    assert len(creature_pile) == 40 and len(extra_pile) == 30
    assert sum(1 for c in creature_pile if cards[c].type == TYPE_EVENT) == 3
    assert sum(1 for c in extra_pile if cards[c].type == TYPE_EVENT) == 4
    creatures = [cards[c] for c in creature_pile if cards[c].type == TYPE_CREATURE]
    mean_cost = sum(c.silver for c in creatures) / len(creatures)
    assert 7.0 <= mean_cost <= 8.0
    inits = [c.stats[INIT] for c in {c.id: c for c in creatures}.values()]
    assert sum(1 for v in set(inits) if inits.count(v) >= 3) >= 3  # shared INIT values for swaps
    assert max(c.stats[ATK] for c in creatures) == 8
    assert len(shipped_spec.setups) >= 2
    assert shipped_spec.catalog.shared == frozenset(shipped_spec.setups)


def test_german_words_are_accepted_and_shown():
    for english, german, _doc in KEYWORDS:
        assert german in VOCABULARY.kinds["keyword"] and english in VOCABULARY.kinds["keyword"]
    for word in (
        "Sofort",
        "Kampf",
        "Spielende",
        "Tod",
        "Trauer",
        "Zauber",
        "Ausrüstung",
        "Ausruestung",
        "Eigenschaft",
        "Gier",
        "Verteidigung",
    ):
        assert word in VOCABULARY.triggers


def test_faceless_warrior_is_an_open_idea(tmp_path):
    folder = copy_config(tmp_path)
    replace(folder / "rules.yaml", "open_faceless_warrior: true", "open_faceless_warrior: false")
    spec = load_spec(folder)
    warrior = spec.card_id("gesichtsloser_krieger")
    assert warrior not in spec.setups["standard"][0]


def test_vocab_command_prints_both_words():
    out = subprocess.run(
        [sys.executable, "-m", "balance", "vocab", "zynalith"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0
    for word in ("Sofort", "instant", "Sturmangriff", "charge", "line_enemies", "copy_stats"):
        assert word in out.stdout


# -- bad data -----------------------------------------------------------------------------------


def refused(folder: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_spec(folder)
    return caught.value


def test_wrong_type_names_file_and_line(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(
        folder / "cards.yaml",
        "stats: {init: 6, atk: 4, def: 0, hp: 3}, keywords: [charge]",
        "stats: {init: 6, atk: four, def: 0, hp: 3}, keywords: [charge]",
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "atk" in error.message


def test_unknown_op_names_file_and_line(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "cards.yaml", "{on: Tod, do: damage", "{on: Tod, do: damag")
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown op 'damag'" in error.message and "damage" in error.hint


def test_unknown_trigger_names_file_and_line(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "cards.yaml", "{on: Spielende,", "{on: Spielend,")
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown trigger 'Spielend'" in error.message


def test_unknown_keyword_is_refused(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "cards.yaml", "keywords: [Blutsaugen]", "keywords: [Blutsauger]")
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line


def test_negate_only_on_counters(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(
        folder / "cards.yaml",
        "effects: [{on: instant, do: damage, amount: 3, target: host}]",
        "effects: [{on: instant, do: negate}]",
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "only counters may negate" in error.message


def test_card_in_the_wrong_pile_breaks_construction(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(
        folder / "decks.yaml",
        "      schwaechefluch: 2\n      ansturm: 2\n      blutdurst: 2\n      panzerbrecher: 2\n      feuerball: 2\n      todesurteil: 2",
        "      schwaechefluch: 2\n      ansturm: 2\n      blutdurst: 2\n      panzerbrecher: 2\n      feuerball: 2\n      sturmwolf: 2",
    )
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and error.line == line + 5
    assert "belongs in the creature pile" in error.message


def test_unknown_card_in_a_setup(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "decks.yaml", "      knappe: 2", "      knappen: 2")
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and error.line == line
    assert "did you mean 'knappe'" in error.hint


def test_too_few_cards_for_a_market_row(tmp_path):
    folder = copy_config(tmp_path)
    (folder / "decks.yaml").write_text(
        "default_setup: tiny\nsetups:\n  tiny:\n    creature_pile: {knappe: 2}\n    extra_pile: {ansturm: 5}\n",
        encoding="utf-8",
    )
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and error.line == 4


def test_bad_rule_value(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "rules.yaml", "atk_tie: tiebreak", "atk_tie: coin")
    error = refused(folder)
    assert error.path.endswith("rules.yaml") and error.line == line


def test_two_fronts_is_reserved(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "rules.yaml", "fronts: 1 ", "fronts: 2 ")
    error = refused(folder)
    assert error.line == line and "two fronts" in error.message


def test_validate_command_exits_2_with_one_line(tmp_path):
    folder = copy_config(tmp_path)
    line = replace(folder / "cards.yaml", "{on: Tod, do: damage", "{on: Tod, do: damag")
    out = subprocess.run(
        [sys.executable, "-m", "balance", "validate", "zynalith", "--config", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cards.yaml:{line}:" in lines[0]


def test_an_event_creature_op_without_a_target_is_one_line(tmp_path):
    # a creature op's target defaults to self, which an event does not have
    folder = copy_config(tmp_path)
    line = replace(
        folder / "cards.yaml",
        "amount: 1, duration: round, target: {all: {}}}",
        "amount: 1, duration: round}",
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "an event has no creature of its own for 'self'" in error.message
