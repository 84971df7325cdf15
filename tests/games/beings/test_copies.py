"""beings' cheap copies: clones share Beings, the RNG and the event log until one side changes
them. These tests check that sharing is never visible: whatever is done to a clone (or to its
original), the other one stays exactly as it was and plays on exactly as it would have."""

from __future__ import annotations

from random import Random

from balance.core.registry import load_game
from balance.games.beings.rules import BeingsMatch, main_options

GAME = load_game("beings")
SPEC = GAME.load(GAME.config_dir)
DECKS = sorted(SPEC.catalog.decks)


def snapshot(m: BeingsMatch) -> tuple:
    """Everything a match holds, as plain values (its RNG as the numbers it would draw next)."""
    field = tuple(
        tuple(
            None
            if b is None
            else (
                b.uid,
                tuple(b.stack),
                b.printed,
                b.rested,
                b.entered,
                b.evolved,
                b.evolutions,
                b.attacked,
                b.main_used,
                b.equipped,
                tuple(b.mods),
            )
            for b in side
        )
        for side in m.field
    )
    a = m.attack
    attack = None if a is None else tuple(getattr(a, name) for name in a.__slots__)
    rng = m.rng.fork().stream().getstate()  # the stream's state, read on a fork of it
    return (
        m.turn,
        m.active,
        m.phase,
        m.cont,
        m.decision(),
        tuple(tuple(map(tuple, zone)) for zone in (m.decks, m.hands, m.lives, m.abysses)),
        tuple(m.gem_decks),
        tuple(m.gems_active),
        tuple(m.gems_rested),
        field,
        attack,
        tuple(m.todo),
        tuple(m.events),
        tuple(map(tuple, m.tally)),
        tuple(m.totals),
        rng,
        m.winner,
    )


def test_a_clone_and_its_original_draw_the_same_numbers_independently() -> None:
    m = GAME.new_game(SPEC, DECKS[:2], 3)
    twin = m.clone()
    first = [m.rng.stream().random() for _ in range(5)]
    assert [twin.rng.stream().random() for _ in range(5)] == first  # m's draws did not move twin
    again = m.clone()
    assert [again.rng.stream().random() for _ in range(3)] == [
        m.rng.stream().random() for _ in range(3)
    ]


def test_a_determinized_copy_and_its_clones_draw_the_same_numbers() -> None:
    m = GAME.new_game(SPEC, DECKS[:2], 4)
    world = m.determinize(0, Random(1))
    twin = world.clone()
    assert [world.rng.stream().random() for _ in range(4)] == [
        twin.rng.stream().random() for _ in range(4)
    ]
    other = m.determinize(0, Random(2))
    assert other.rng.stream().random() != world.clone().rng.stream().random()


def test_playing_every_option_on_clones_never_changes_the_original() -> None:
    """The greedy bot's pattern: clone, apply one option, look at the copy; at every step of
    random games, every option, with the original checked whole afterwards."""
    for seed in range(6):
        m = GAME.new_game(SPEC, [DECKS[seed % 2], DECKS[seed // 2 % 2]], seed)
        chooser = Random(seed)
        while (decision := m.decision()) is not None:
            before = snapshot(m)
            world = m.determinize(decision.seat, Random(seed))
            world_before = snapshot(world)
            for option in range(len(decision.options)):
                copy = world.clone()
                copy.apply(option)
                while (d := copy.decision()) is not None and d.seat == decision.seat:
                    copy.apply(0)  # follow-ups too (and their draws, if any)
                copy.evaluate(decision.seat)
            assert snapshot(world) == world_before
            assert snapshot(m) == before
            m.apply(chooser.randrange(len(decision.options)))


def test_an_original_played_on_never_changes_its_clones() -> None:
    """The other direction: clones taken along a game stay as they were, and each replays the
    rest of the game exactly (random discards included) when given the same choices."""
    for seed in range(6):
        m = GAME.new_game(SPEC, [DECKS[seed % 2], DECKS[seed // 2 % 2]], seed)
        chooser = Random(seed)
        kept = []
        choices: list[int] = []
        while (decision := m.decision()) is not None:
            if len(choices) % 7 == 0:
                twin = m.clone()
                kept.append((len(choices), twin, snapshot(twin)))
            choices.append(chooser.randrange(len(decision.options)))
            m.apply(choices[-1])
        end = snapshot(m)
        for step, twin, seen in kept:
            assert snapshot(twin) == seen, f"clone from step {step} changed"
            for option in choices[step:]:
                twin.apply(option)
            assert snapshot(twin) == end, f"clone from step {step} played differently"


def test_a_search_worlds_main_decision_lists_its_options_when_read() -> None:
    """A search world (determinize and its clones) lists a main decision's options only when
    they are read (rules.main_decision), a real game at once; a clone taken before they were read
    lists those of its own position, the same as listed at once, even once its original is
    gone."""
    unlisted = 0
    for seed in range(4):
        m = GAME.new_game(SPEC, [DECKS[seed % 2], DECKS[seed // 2 % 2]], seed)
        chooser = Random(seed)
        while (decision := m.decision()) is not None:
            assert decision.listed  # a real game's bots read them all
            world = m.determinize(decision.seat, Random(seed))
            for option in range(len(decision.options)):
                copy = world.clone()
                copy.apply(option)
                after = copy.decision()
                # listed at once only where it may be a lone `end_turn` (applied at once)
                if after is None or after.kind != "main" or after.listed:
                    continue
                unlisted += 1
                twin = copy.clone()
                del copy, after  # the twin's decision must not need its original
                assert twin.decision().options == main_options(twin)
            m.apply(chooser.randrange(len(decision.options)))
    assert unlisted > 100
