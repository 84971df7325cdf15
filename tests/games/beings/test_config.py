"""beings' config: bad card data is refused with file:line (and exit code 2 from the CLI), the
starter set is what spec §7 asks for, and the vocabulary comes from the registry."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.core.registry import load_game
from balance.games.beings.cards import load_spec
from balance.games.beings.effects import (
    CONDITION_CODES,
    OP_CODES,
    SELECTOR_CODES,
    TRIGGER_CODES,
    VOCABULARY,
)

GAME = load_game("beings")
SPEC = GAME.load(GAME.config_dir)


def config_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "beings"
    shutil.copytree(GAME.config_dir, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> int:
    """Replace `old` (once) in `<name>.yaml`; return the 1-based line it was on."""
    path = folder / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not unique in {name}.yaml"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def refused(folder: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_spec(folder)
    return caught.value


def test_a_deck_of_35_cards_is_refused(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    ids = [SPEC.catalog.cards[c] for c in SPEC.catalog.decks["primal"]][:35]
    path = folder / "decks.yaml"
    text = path.read_text(encoding="utf-8")
    line = text.count("\n") + 2  # the new deck's `cards:` line
    path.write_text(
        text + f"  short:\n    cards: [{', '.join(ids)}]\n    gems: 8\n", encoding="utf-8"
    )
    error = refused(folder)
    assert error.path.endswith("decks.yaml") and error.line == line
    assert "deck 'short' has 35 Being cards" in error.message and "36" in error.message


def test_a_being_missing_a_level_is_refused(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    first = edit(folder, "cards", "  - {id: sky_roc_1,", "  - {id: sky_roc_1,")
    edit(
        folder,
        "cards",
        "  - {id: sky_roc_2, being: Sky Roc, level: 2, title: Thunderwing Roc, "
        "type: Wind, cost: 3, power: 3}\n",
        "",
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == first
    assert "Sky Roc" in error.message and "level 2" in error.message


def test_an_unknown_type_is_refused(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    line = edit(
        folder, "cards", "title: Cinder Drake, type: Fire,", "title: Cinder Drake, type: Fyre,"
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown type 'Fyre'" in error.message and "Fire" in error.hint


def test_an_unknown_op_is_refused(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    line = edit(
        folder,
        "cards",
        "{on: play, do: defeat, target: choose_opp",
        "{on: play, do: destroy, target: choose_opp",
    )
    error = refused(folder)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown op 'destroy'" in error.message and "defeat" in error.hint


@pytest.mark.parametrize(
    "name, old, new, words",
    [
        ("decks", "    gems: 8\n    gem_art: [ruby", "    gems: 7\n    gem_art: [ruby", "7 gems"),
        (
            "decks",
            "Ember Fox, Cinder Drake, Stone Warden",
            "Ember Fox, Ember Fox, Stone Warden",
            "listed twice",
        ),
        ("decks", "beings: [Tide Oracle,", "beings: [Tide Orakel,", "unknown Being"),
        (
            "cards",
            "level: 3, title: Sunfire Kitsune",
            "level: 4, title: Sunfire Kitsune",
            "above levels",
        ),
        (
            "cards",
            "type: Wind, cost: 3, power: 2,",
            "type: Ice, cost: 3, power: 2,",
            "all levels of a Being share one type",
        ),
        (
            "cards",
            (
                "Verdant Matron, type: Nature, cost: 3, power: 2,\n     skills: [{on: turn, "
                "timing: end,"
            ),
            ("Verdant Matron, type: Nature, cost: 3, power: 2,\n     skills: [{on: turn,"),
            "needs a timing",
        ),
        (
            "cards",
            "{on: attack, do: rest, target: across}",
            "{on: attack, do: rest, target: me}",
            "targets a Being",
        ),
        (
            "cards",
            "do: draw, n: 1, target: me, if: {hand_at_most: 5}",
            "do: draw, n: 1, target: me, if: {hand_at_mots: 5}",
            "unknown condition",
        ),
        (
            "rules",
            "  Fire:   {strong: [Nature, Ice],",
            "  Fire:   {strong: [Nature, Water],",
            "both + and -",
        ),
        ("rules", "  R: [C, R]", "  R: [C, X]", "unknown location"),
        ("rules", "turn_limit: 60 ", "turn_limit: sixty ", "whole number"),
    ],
)
def test_bad_data_names_file_and_line(
    tmp_path: Path, name: str, old: str, new: str, words: str
) -> None:
    folder = config_copy(tmp_path)
    line = edit(folder, name, old, new)
    error = refused(folder)
    assert error.path.endswith(f"{name}.yaml")
    assert error.line is not None and abs(error.line - line) <= 1, (error.line, line)
    assert words in error.one_line()


def test_the_cli_refuses_bad_data_with_one_line_and_exit_code_2(tmp_path: Path) -> None:
    folder = config_copy(tmp_path)
    line = edit(
        folder, "cards", "title: Cinder Drake, type: Fire,", "title: Cinder Drake, type: Fyre,"
    )
    outcome = CliRunner().invoke(app, ["validate", "beings", "--config", str(folder)])
    assert outcome.exit_code == 2
    shown = outcome.output.strip()
    assert len(shown.splitlines()) == 1
    assert re.search(rf"cards\.yaml:{line}: card 'cinder_drake_1': unknown type 'Fyre'", shown)


def test_the_starter_set_is_spec_section_7() -> None:
    cards = SPEC.catalog.cards
    assert len(cards) == 72 and len(SPEC.being_names) == 24
    per_type = {t: 0 for t in SPEC.types}
    for being in range(24):
        first = SPEC.being.index(being)
        per_type[SPEC.types[SPEC.type_of[first]]] += 1
    assert set(per_type.values()) == {2}
    assert len(SPEC.catalog.decks) >= 4
    for name, deck in SPEC.catalog.decks.items():
        assert sum(deck.values()) == 36 and len(SPEC.deck_beings[name]) == 12
        curve = sorted(SPEC.cost[c] for c in deck if SPEC.level[c] == 1)
        assert len(curve) == 12 and curve[0] == 1
    assert SPEC.warnings == ()  # the shipped chart is mirrored and every level costs more


def test_the_starter_set_uses_every_word_of_the_vocabulary() -> None:
    skills = [s for card in SPEC.skills for s in card]
    assert {s.op for s in skills} == set(OP_CODES.values())
    assert {s.trigger for s in skills} == set(TRIGGER_CODES.values())  # every turn timing too
    assert {s.target for s in skills} == set(SELECTOR_CODES.values())
    assert {code for s in skills for code, _ in s.conditions} == set(CONDITION_CODES.values())
    assert any(s.optional for s in skills) and any(s.cost for s in skills)
    assert {s.pick_random for s in skills if s.op == OP_CODES["discard"]} == {True, False}
    assert {s.active for s in skills if s.op == OP_CODES["gain_gems"]} == {True, False}


def test_the_vocabulary_is_the_registry_and_every_word_has_a_doc() -> None:
    assert GAME.vocabulary() is VOCABULARY
    assert {w.name for w in VOCABULARY.ops} == set(OP_CODES)
    assert {w.name for w in VOCABULARY.selectors} == set(SELECTOR_CODES)
    assert {w.name for w in VOCABULARY.conditions} == set(CONDITION_CODES)
    for section in VOCABULARY.sections():
        for word in section:
            assert word.doc, f"{section.kind} '{word.name}' has no doc"
    outcome = CliRunner().invoke(app, ["vocab", "beings"])
    assert outcome.exit_code == 0
    for word in ("revive", "choose_opp", "type_advantage", "in_reach", "timing"):
        assert word in outcome.output


def test_overrides_reach_the_spec() -> None:
    spec = GAME.load(GAME.config_dir, {"rules.turn_limit": 40, "cards.ember_fox_1.power": 3})
    assert spec.turn_limit == 40
    assert spec.power[spec.catalog.cards.index("ember_fox_1")] == 3
    assert spec.config_hash != SPEC.config_hash
