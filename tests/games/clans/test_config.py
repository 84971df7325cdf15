"""clans' config: bad card data is refused with file:line (exit 2 on the command line), and the
starter set is what spec §7 asks for."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.core.errors import ConfigError
from balance.games.clans import effects as fx
from balance.games.clans.cards import ClansSpec, load_spec
from balance.games.clans.effects import VOCABULARY


def replace_line(path: Path, old: str, new: str) -> int:
    """Replace the first line containing `old` (by `new` in that line); return its line number."""
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines, 1):
        if old in line:
            lines[number - 1] = line.replace(old, new)
            path.write_text("\n".join(lines) + "\n")
            return number
    raise AssertionError(f"{old!r} not in {path}")


def refused(folder: Path) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_spec(folder)
    return info.value


def test_shipped_config_loads(spec: ClansSpec) -> None:
    assert len(spec.catalog.cards) == 88
    assert len(spec.armies) == 16 and spec.catalog.shared == frozenset({"draft"})
    assert sum(spec.catalog.decks["draft"].values()) == 120
    assert all(sum(spec.catalog.decks[army].values()) == 45 for army in spec.armies)


def test_wrong_type(config: Path) -> None:
    line = replace_line(
        config / "cards.yaml", "military: 3, copies: 2}", "military: many, copies: 2}"
    )
    error = refused(config)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "military" in error.message


def test_unknown_op(config: Path) -> None:
    line = replace_line(config / "cards.yaml", "do: extra_turn}", "do: extra_turns}")
    error = refused(config)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown op 'extra_turns'" in error.message and "extra_turn" in error.hint


def test_unknown_trigger(config: Path) -> None:
    line = replace_line(
        config / "cards.yaml", "{on: play, do: draw, n: 1}", "{on: played, do: draw, n: 1}"
    )
    error = refused(config)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "unknown trigger 'played'" in error.message


def test_clan_breaking_the_composition(config: Path) -> None:
    replace_line(
        config / "cards.yaml", "military: 3, copies: 2}", "military: 3, copies: 3}"
    )  # Sul Spearman
    line = replace_line(config / "decks.yaml", "  - id: goan_sul", "  - id: goan_sul")
    error = refused(config)
    assert error.path.endswith("decks.yaml") and error.line == line
    assert "9 Troops" in error.message and "asks 8" in error.message


def test_fixed_setup_with_two_clans(config: Path) -> None:
    line = replace_line(
        config / "decks.yaml", "p1: [goan_sul, justice, lantern]", "p1: [goan_sul, justice]"
    )
    error = refused(config)
    assert error.path.endswith("decks.yaml") and error.line == line
    assert "needs 3 different clans" in error.message


def test_token_slot_must_match_activate(config: Path) -> None:
    line = replace_line(
        config / "cards.yaml", "copies: 2, token_slot: true,", "copies: 2, token_slot: false,"
    )
    error = refused(config)
    assert error.path.endswith("cards.yaml") and error.line == line
    assert "token_slot" in error.message


def test_ongoing_entry_ops(config: Path) -> None:
    line = replace_line(
        config / "cards.yaml",
        "{on: ongoing, do: add_military, n: 1, who: self}",
        "{on: ongoing, do: draw, n: 1}",
    )
    error = refused(config)
    assert error.line == line and "ongoing entry uses add_military or rule_mod" in error.message


def test_veteran_entry_ops(config: Path) -> None:
    line = replace_line(
        config / "cards.yaml", "{on: veteran, do: draw, n: 1}", "{on: veteran, do: extra_turn}"
    )
    error = refused(config)
    assert error.line == line and "veteran entry may not use extra_turn" in error.message


def test_trigger_may_not_target_its_source(config: Path) -> None:
    text = "effects: [{on: activate, do: trigger, optional: true, target: {side: self}}]}"
    line = replace_line(config / "cards.yaml", text, text.replace("{side: self}", "{this: true}"))
    error = refused(config)
    assert error.line == line and "may not target the source card" in error.message


def test_flipped_parameter_must_exist(config: Path) -> None:
    line = replace_line(
        config / "decks.yaml", "{param: hand_limit, set: 5}", "{param: hand_limits, set: 5}"
    )
    error = refused(config)
    assert error.path.endswith("decks.yaml") and error.line == line
    assert "hand_limit" in error.hint


def test_fixed_setup_must_exist(config: Path) -> None:
    line = replace_line(config / "rules.yaml", "fixed_setup: setup_1", "fixed_setup: setup_9")
    error = refused(config)
    assert error.path.endswith("rules.yaml") and error.line == line
    assert "setup_9" in error.message


def test_pool_needs_six_clans(config: Path) -> None:
    line = replace_line(
        config / "decks.yaml",
        "draft_pool: [goan_sul, justice, phoenix, lantern, tempest, ironhide, veil, sages]",
        "draft_pool: [goan_sul, justice, phoenix, lantern, tempest]",
    )
    error = refused(config)
    assert error.line == line and "at least 6" in error.message


def test_bad_override_names_the_set(config: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_spec(config, {"cards.gs_raider.military": -1})
    assert "--set cards.gs_raider.military=-1" in info.value.path


def test_command_line_refuses_with_one_line(config: Path) -> None:
    line = replace_line(config / "cards.yaml", "do: extra_turn}", "do: extra_turns}")
    result = CliRunner().invoke(app, ["validate", "clans", "--config", str(config)])
    assert result.exit_code == 2, result.output
    lines = [text for text in result.output.splitlines() if text.strip()]
    assert (
        len(lines) == 1 and f"cards.yaml:{line}:" in lines[0] and "Traceback" not in result.output
    )


def test_the_on_key_stays_a_word() -> None:
    """PyYAML (YAML 1.1) reads a bare `on:` as True; the loader keeps it the trigger word."""
    text = "- {id: x, effects: [{on: play, do: draw}]}"
    assert True in yaml.safe_load(text)[0]["effects"][0]
    from balance.core.yamlio import parse_yaml

    assert "on" in parse_yaml(text, "cards.yaml")[0]["effects"][0]


def test_starter_set_uses_every_op_and_trigger(spec: ClansSpec) -> None:
    ops_by_clan: dict[int, set[str]] = {}
    triggers_by_clan: dict[int, set[str]] = {}
    groups = (
        spec.on_play,
        spec.on_activate,
        spec.on_veteran,
        spec.ongoing_military,
        spec.ongoing_rule_mods,
    )
    for card in range(len(spec.card_name)):
        clan = spec.card_clan[card]
        for group in groups:
            for entry in group[card]:
                ops_by_clan.setdefault(clan, set()).add(fx.OPS[entry.op])
                triggers_by_clan.setdefault(clan, set()).add(fx.TRIGGERS[entry.trigger])
    used_ops = set().union(*ops_by_clan.values())
    used_triggers = set().union(*triggers_by_clan.values())
    assert used_ops == set(VOCABULARY.ops.words)
    assert used_triggers == set(VOCABULARY.triggers.words)
    for op in VOCABULARY.ops.words:
        clans = sum(1 for ops in ops_by_clan.values() if op in ops)
        assert clans >= (1 if op == "gain_token" else 2), op
    for trigger in VOCABULARY.triggers.words:
        clans = sum(1 for triggers in triggers_by_clan.values() if trigger in triggers)
        assert clans >= (4 if trigger == "veteran" else 2), trigger


def test_starter_set_follows_section_7(spec: ClansSpec) -> None:
    gainers = [
        c
        for c in range(len(spec.card_name))
        if any(e.op == fx.GAIN_TOKEN for e in spec.on_play[c] + spec.on_activate[c])
    ]
    assert len(gainers) <= 3 and {spec.clans[spec.card_clan[c]].id for c in gainers} == {"sages"}
    totals = {
        clan.id: sum(spec.card_military[c] for c in spec.clan_cards[i])
        for i, clan in enumerate(spec.clans)
    }
    assert all(36 <= total <= 44 for total in totals.values())
    assert max(totals, key=totals.get) == "ironhide" and min(totals, key=totals.get) == "sages"
    designs = {clan: len(set(spec.clan_cards[i])) for i, clan in enumerate(spec.clans)}
    assert set(designs.values()) == {11}
    drafted: dict[int, int] = {}
    faced: set[frozenset[int]] = set()
    for p1, p2 in spec.setups.values():
        for clan in p1 + p2:
            drafted[clan] = drafted.get(clan, 0) + 1
        faced |= {frozenset((a, b)) for a in p1 for b in p2}
    assert len(spec.setups) >= 8 and min(drafted.values()) >= 3 and len(faced) == 28


def test_vocabulary_words_have_docs() -> None:
    for section in VOCABULARY.sections():
        for word in section:
            assert word.doc, f"{section.kind} '{word.name}' has no doc"


SPEC_DEFAULTS = {  # spec §2, with G2's and G3's setup values
    "setup_mode": "draft", "draft_order": [[1, 1], [2, 2], [1, 2], [2, 1]],
    "first_player_round1": "p1", "starting_tokens": 2, "token_win": 5, "max_tokens_per_card": 1,
    "extra_turns_after_pass": 3, "starting_hand": 7, "mulligan_min_troops": 2, "max_mulligans": 10,
    "rows": 3, "row_spaces": 5, "offclan_troop_cost": 2, "hand_limit": 7,
    "draw_small": {"tokens": 1, "cards": 1}, "draw_big": {"tokens": 2, "cards": 3},
    "faceup_win": 15, "clan_composition": {1: 8, 2: 5, 3: 2}, "wonder_to_first_passer": False,
    "immortal_military_bonus": 0, "shift_discount": 0, "sacrifice_fraction": 0.5,
    "sacrifice_rounding": "up", "sacrifice_bonus": 0, "supremacy_to_win": 2, "max_rounds": 3,
    "goan_sul_captures_to_win": 3, "justice_rows_min": 3, "song_draw_to": 7,
    "max_turns_per_round": 80, "max_decisions": 4000,
}  # fmt: skip


def test_rules_yaml_lists_every_parameter_at_its_default(spec: ClansSpec) -> None:
    from balance.core.yamlio import load_yaml, plain
    from balance.games.clans.cards import RulesText

    shipped = plain(load_yaml(Path(spec_folder()) / "rules.yaml"))
    assert set(shipped) == set(RulesText.model_fields)
    for name, value in SPEC_DEFAULTS.items():
        assert shipped[name] == value, name
        assert hasattr(spec, name), name  # a plain attribute of the compiled spec
    assert spec.hand_limit == 7 and spec.draw_small.cards == 1 and spec.fixed_setup == "setup_1"


def spec_folder() -> Path:
    from balance.core.registry import load_game

    return load_game("clans").config_dir


@pytest.mark.parametrize(
    "name, old, new, message, hint",
    [
        ("decks", "draft_pool: [goan_sul, justice,", "draft_pool: [goan_sul, justic,",
         "draft_pool: unknown clan 'justic'", "did you mean 'justice'?"),
        ("decks", "draft_pool: [goan_sul, justice,", "draft_pool: [goan_sul, goan_sul,",
         "draft_pool: clan 'goan_sul' is listed twice", "list each clan once"),
        ("decks", "{name: setup_2,", "{name: setup_1,",
         "fixed setup 'setup_1' is listed twice", "give each fixed setup its own name"),
        ("decks", "bot_clan_ratings: {goan_sul: 1.0,", "bot_clan_ratings: {goan_su: 1.0,",
         "bot_clan_ratings: unknown clan 'goan_su'", "did you mean 'goan_sul'?"),
        ("decks", "  - id: justice", "  - id: goan_sul",
         "clan 'goan_sul' is listed twice", "give each clan its own id"),
        ("cards", "filter: {clan: phoenix, level: 1}", "filter: {clan: phenix, level: 1}",
         "unknown clan 'phenix'", "did you mean 'phoenix'?"),
    ],
)  # fmt: skip
def test_unknown_and_repeated_names_are_one_line_at_their_line(
    config: Path, name: str, old: str, new: str, message: str, hint: str
) -> None:
    """Every unknown name and every name listed twice is refused the same way (core's lookup and
    no_duplicates): the file and line of the name, what is wrong, and what to write instead."""
    line = replace_line(config / f"{name}.yaml", old, new)
    error = refused(config)
    assert error.path.endswith(f"{name}.yaml") and error.line == line
    assert message in error.message and error.hint == hint
