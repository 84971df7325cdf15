"""Helpers for beings' tests: a table to set a position on, and play-by-words.

`table(p1={...}, p2={...}, turn=5)` gives a match in the main phase of `turn` with each side's
hand, life, deck, gems and Beings in place; `play(m, "attack life with storm_herald_2 at C")`
applies the option described by those words.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from balance.core import flow
from balance.core.registry import load_game
from balance.games.beings.cards import BeingsSpec
from balance.games.beings.rules import MAIN_STEP, BeingsMatch, new_game
from balance.games.beings.state import TASKS, Being

GAME = load_game("beings")
SPEC: BeingsSpec = GAME.load(GAME.config_dir)
P1, P2 = 0, 1
FILLER = "reef_leviathan_2"  # an unremarkable card for life areas and decks


# -- helpers -------------------------------------------------------------------------------------


def cid(spec: BeingsSpec, name: str) -> int:
    return spec.catalog.cards.index(name)


def being(
    *stack: str,
    rested: bool = False,
    equipped: int = 0,
    entered: int | None = None,
) -> dict[str, Any]:
    return {"stack": stack, "rested": rested, "equipped": equipped, "entered": entered}


def table(
    spec: BeingsSpec = SPEC, turn: int = 5, p1: dict | None = None, p2: dict | None = None
) -> BeingsMatch:
    """A match in the main phase of `turn`, each side given as {hand, life, deck, abyss, gems,
    gem_deck, field: {loc: being(...)}} (life and deck as a count of filler cards or a list)."""
    m = new_game(spec, ["primal", "tempest"], 0)
    m.events = []  # no events from the dealt setup
    m.turn = turn
    m.active = P1 if turn % 2 else P2
    for seat, side in enumerate((p1 or {}, p2 or {})):
        m.hands[seat] = [cid(spec, c) for c in side.get("hand", [])]
        m.lives[seat] = _zone(spec, side.get("life", 3))
        m.decks[seat] = _zone(spec, side.get("deck", 10))
        m.abysses[seat] = [cid(spec, c) for c in side.get("abyss", [])]
        # one gem by default: with a deck, `draw a card` keeps the main decision a real choice
        # (a lone `end turn` would be applied at once and the turns would run on)
        m.gems_active[seat] = side.get("gems", 1)
        m.gems_rested[seat] = 0
        m.gem_decks[seat] = side.get("gem_deck", 0)
        m.field[seat] = [None] * len(spec.locations)
        for name, b in side.get("field", {}).items():
            first, *rest = (cid(spec, c) for c in b["stack"])
            entered = b["entered"] if b["entered"] is not None else turn - 2
            placed = Being(m.next_uid, first, spec.power[first], entered, m.token)
            m.next_uid += 1
            for card in rest:
                placed.stack.append(card)
                placed.printed += spec.power[card]
            placed.rested = b["rested"]
            placed.equipped = b["equipped"]
            m.field[seat][spec.loc_index[name]] = placed
    m.attack = None
    m.actions = 0
    refresh(m)
    return m


def _zone(spec: BeingsSpec, value: int | list[str]) -> list[int]:
    if isinstance(value, int):
        return [cid(spec, FILLER)] * value
    return [cid(spec, c) for c in value]


def refresh(m: BeingsMatch) -> None:
    """Recompute the main-phase decision after a test changed the table by hand."""
    m.recount()
    m.asking = None
    m.todo = [MAIN_STEP]
    flow.run(m, TASKS)


def words(m: BeingsMatch) -> list[str]:
    d = m.decision()
    return [m.describe(i) for i in range(len(d.options))] if d else []


def play(m: BeingsMatch, text: str) -> None:
    """Apply the pending option described as `text` (exactly, or as its unique prefix)."""
    shown = words(m)
    found = [i for i, w in enumerate(shown) if w == text]
    if not found:
        found = [i for i, w in enumerate(shown) if w.startswith(text)]
    assert len(found) == 1, f"{text!r} is not one option of {m.decision().kind}: {shown}"
    m.apply(found[0])


def at(m: BeingsMatch, seat: int, loc: str) -> Being | None:
    return m.field[seat][m.spec.loc_index[loc]]


def names(m: BeingsMatch, cards: list[int]) -> list[str]:
    return [m.spec.catalog.cards[c] for c in cards]


def config_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "beings"
    shutil.copytree(GAME.config_dir, folder)
    return folder


def add_test_beings(folder: Path, text: str) -> None:
    with (folder / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write(text)


def three_levels(being_name: str, type_name: str, power_l1: int, skill: str = "") -> str:
    """Three YAML card lines of a test Being (every Being needs all levels)."""
    slug = being_name.lower().replace(" ", "_")
    skills = f", skills: [{skill}]" if skill else ""
    return "".join(
        f"  - {{id: {slug}_{lv}, being: {being_name}, level: {lv}, type: {type_name}, "
        f"cost: {lv}, power: {power_l1 if lv == 1 else 1}{skills if lv == 1 else ''}}}\n"
        for lv in (1, 2, 3)
    )
