"""Fixtures for zynalith's tests: the shipped spec, and a spec with extra test creatures whose
stats are the ones the spec's scenarios (section 11) name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from balance.core.package import SHIPPED_CONFIGS
from balance.games.zynalith.cards import load_spec

SHIPPED = SHIPPED_CONFIGS / "zynalith"

# Test creatures named after their stats INIT/ATK/DEF/HP (and cost), plus small trigger watchers.
TEST_CARDS = """
  - {id: c6304, name: A 6/3/0/4, type: creature, cost: {silver: 5}, stats: {init: 6, atk: 3, def: 0, hp: 4}}
  - {id: c5214, name: B 5/2/1/4, type: creature, cost: {silver: 5}, stats: {init: 5, atk: 2, def: 1, hp: 4}}
  - {id: c5705_lifesteal, name: Leech, type: creature, cost: {silver: 9}, stats: {init: 5, atk: 7, def: 0, hp: 5}, keywords: [lifesteal]}
  - {id: c5705_pierce, name: Piercer, type: creature, cost: {silver: 9}, stats: {init: 5, atk: 7, def: 0, hp: 5}, keywords: [pierce]}
  - {id: c1102, name: Fodder, type: creature, cost: {silver: 2}, stats: {init: 1, atk: 1, def: 0, hp: 2}}
  - {id: guard, name: Guard, type: creature, cost: {silver: 3}, stats: {init: 1, atk: 0, def: 0, hp: 3},
     effects: [{on: defence, do: gain, resource: silver, amount: 1, target: controller}]}
  - {id: c7403, name: Seven, type: creature, cost: {silver: 5}, stats: {init: 7, atk: 4, def: 0, hp: 3}}
  - {id: c5403_kampf, name: Five, type: creature, cost: {silver: 5}, stats: {init: 5, atk: 4, def: 0, hp: 3},
     effects: [{on: combat, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: c2103, name: Two, type: creature, cost: {silver: 2}, stats: {init: 2, atk: 1, def: 0, hp: 3}}
  - {id: c4205, name: Four, type: creature, cost: {silver: 5}, stats: {init: 4, atk: 2, def: 0, hp: 5}}
  - {id: x5302, name: X, type: creature, cost: {silver: 5}, stats: {init: 5, atk: 3, def: 0, hp: 2},
     effects: [{on: combat, do: damage, amount: 2, target: line_enemies}]}
  - {id: y5402, name: Y, type: creature, cost: {silver: 5}, stats: {init: 5, atk: 4, def: 0, hp: 2},
     effects: [{on: combat, do: damage, amount: 2, target: line_enemies}]}
  - {id: c6405, name: A 6/4/0/5, type: creature, cost: {silver: 5}, stats: {init: 6, atk: 4, def: 0, hp: 5}}
  - {id: c3415, name: B 3/4/1/5, type: creature, cost: {silver: 5}, stats: {init: 3, atk: 4, def: 1, hp: 5}}
  - {id: c4313, name: Twin, type: creature, cost: {silver: 5}, stats: {init: 4, atk: 3, def: 1, hp: 3}}
  - {id: c5213, name: B 5/2/1/3, type: creature, cost: {silver: 5}, stats: {init: 5, atk: 2, def: 1, hp: 3}}
  - {id: free, name: Free, type: creature, cost: {silver: 0}, stats: {init: 1, atk: 1, def: 0, hp: 1}}
  - {id: greed_watch, name: Greed watcher, type: creature, cost: {silver: 1}, stats: {init: 1, atk: 0, def: 0, hp: 9},
     effects: [{on: greed, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: event_watch, name: Event watcher, type: creature, cost: {silver: 1}, stats: {init: 1, atk: 0, def: 0, hp: 9},
     effects: [{on: event, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: spell_watch, name: Spell watcher, type: creature, cost: {silver: 1}, stats: {init: 1, atk: 0, def: 0, hp: 9},
     effects: [{on: spell, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: death_watch, name: Death watcher, type: creature, cost: {silver: 1}, stats: {init: 1, atk: 0, def: 0, hp: 9},
     effects: [{on: mourning, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: c9605, name: Big, type: creature, cost: {silver: 5}, stats: {init: 9, atk: 6, def: 0, hp: 5}}
  - {id: c1103, name: Small, type: creature, cost: {silver: 2}, stats: {init: 1, atk: 1, def: 0, hp: 3}}
  - {id: c7000, name: X7, type: creature, cost: {silver: 1}, stats: {init: 7, atk: 0, def: 0, hp: 9}}
  - {id: c5000_kampf, name: Y5, type: creature, cost: {silver: 1}, stats: {init: 5, atk: 0, def: 0, hp: 9},
     effects: [{on: combat, do: gain, resource: vp, amount: 1, target: controller}]}
  - {id: c5000, name: V5, type: creature, cost: {silver: 1}, stats: {init: 5, atk: 0, def: 0, hp: 9}}
  - {id: c3000, name: W3, type: creature, cost: {silver: 1}, stats: {init: 3, atk: 0, def: 0, hp: 9}}
  - {id: quake, name: Quake, type: event, pile: creature,
     effects: [{on: instant, do: damage, amount: 5, target: each_player}]}
  - {id: vp_at_end, name: Glory, type: extra, kind: property, cost: {silver: 1},
     effects: [{on: game_end, do: gain, resource: vp, amount: 2, target: controller}]}
"""


def scenario_config(folder: Path) -> Path:
    """A copy of the shipped config with the test creatures appended to cards.yaml."""
    target = folder / "zynalith"
    shutil.copytree(SHIPPED, target)
    with (target / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write(TEST_CARDS)
    return target


@pytest.fixture(scope="session")
def shipped_spec():
    return load_spec(SHIPPED)


@pytest.fixture(scope="session")
def scenario_dir(tmp_path_factory) -> Path:
    return scenario_config(tmp_path_factory.mktemp("zynalith_scenarios"))


@pytest.fixture(scope="session")
def spec(scenario_dir):
    return load_spec(scenario_dir)
