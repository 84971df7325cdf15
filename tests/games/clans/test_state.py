"""clans' copies: a clone shares its original's RNG until one of them draws (copy on first draw),
yet both draw exactly what the original alone would have drawn; a determinized copy's decks
keep their cards, and their order stays undecided until a draw."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.core.registry import load_game
from balance.games.clans import effects as fx
from balance.games.clans import heuristics, rules
from balance.games.clans.cards import ClansSpec
from balance.games.clans.state import draw, recount, replaced

GAME = load_game("clans")
SPEC: ClansSpec = GAME.load(GAME.config_dir)
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def midgame(seed: int, steps: int = 20) -> rules.Clans:
    g = rules.new_game(SPEC, ["draft", "draft"], seed)
    chooser = Random(seed)
    for _ in range(steps):
        decision = g.decision()
        if decision is None:
            break
        g.apply(chooser.randrange(len(decision.options)))
    return g


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), original_first=st.booleans())
def test_a_clone_and_its_original_draw_the_same_numbers_independently(
    seed: int, original_first: bool
) -> None:
    g = midgame(seed)
    expected = Random()
    expected.setstate(g.rng.stream().getstate())
    want = [expected.random() for _ in range(5)]
    copy = g.clone()
    assert copy.rng is not None
    first, second = (g, copy) if original_first else (copy, g)
    assert [first.rng.stream().random() for _ in range(5)] == want
    assert [
        second.rng.stream().random() for _ in range(5)
    ] == want  # the first draws moved only its own
    assert first.rng.stream() is not second.rng.stream()


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_clones_of_clones_draw_the_same_cards(seed: int) -> None:
    g = midgame(seed)
    a = g.clone()
    b = a.clone()
    drawn = []
    for state in (b, g, a):
        for seat in (0, 1):  # enough cards to draw
            deck = [*state.deck[seat], *state.discard[seat]]
            state.rng.shuffle(deck)
            state.deck = replaced(state.deck, seat, tuple(deck))
            state.discard = replaced(state.discard, seat, ())
        draw(state, 0, 3)
        drawn.append(state.hand[0][-3:])
    assert drawn[0] == drawn[1] == drawn[2]


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), bot=st.integers(0, 2**32 - 1))
def test_a_determinized_copy_draws_from_its_own_stream(seed: int, bot: int) -> None:
    g = midgame(seed)
    state_before = g.rng.stream().getstate()
    world = g.determinize(0, Random(bot))
    again = g.determinize(0, Random(bot))
    deck = sorted(world.deck[0])
    draw(world, 0, 2)
    draw(again, 0, 2)
    assert world.hand == again.hand  # the same bot stream, the same world
    assert sorted(world.deck[0] + world.hand[0][-2:]) == deck or len(deck) < 2
    assert g.rng.stream().getstate() == state_before  # the real game's dice never moved


LINEUPS = [("draft", "draft")] + [
    (a, b)
    for a in sorted(SPEC.armies)
    for b in sorted(SPEC.armies)
    if SPEC.catalog.clash((a, b)) is None  # armies that share a clan never meet (G17b)
]


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_the_army_summary_is_always_what_a_recount_gives(
    seed: int, lineup: tuple[str, str]
) -> None:
    g = rules.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    while (decision := g.decision()) is not None:
        kept = g.board[:]
        assert (kept, g.actives, g.special_slots) == recount(g.clone()), (
            "a change missed the summary"
        )
        g.apply(chooser.randrange(len(decision.options)))
    assert (g.board, g.actives, g.special_slots) == recount(g.clone())


def selectors_of(spec: ClansSpec) -> list[tuple[int, object]]:
    """(card, selector) of every per-selector and count condition in the card set."""
    found = []
    for card in range(len(spec.card_name)):
        for group in (spec.on_play, spec.on_activate, spec.on_veteran, spec.ongoing_military):
            for entry in group[card]:
                if entry.per is not None:
                    found.append((card, entry.per))
                for cond in entry.conditions:
                    if cond[0] == fx.C_COUNT:
                        found.append((card, cond[1]))
    return found


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_counting_from_the_summary_matches_walking_the_armies(
    seed: int, lineup: tuple[str, str]
) -> None:
    g = rules.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    selectors = selectors_of(SPEC)
    assert any(sel.simple for _, sel in selectors)
    while (decision := g.decision()) is not None:
        for card, sel in selectors:
            for controller in (0, 1):
                src = (controller, 0, g.serial[controller][0], card)
                assert fx.count_matching(g, sel, controller, src) == len(
                    fx.matching(g, sel, controller, src)
                )
        g.apply(chooser.randrange(len(decision.options)))


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_remembered_actions_are_what_the_rules_give_now(seed: int, lineup: tuple[str, str]) -> None:
    """The D3 memo is shared by a game and its copies: copies that try every option of a
    decision (as a search does) must each get the options their own position has."""
    g = rules.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    while (decision := g.decision()) is not None:
        world = g.determinize(decision.seat, Random(seed))
        for option in range(len(decision.options)):
            copy = world.clone()
            copy.apply(option)
            if (after := copy.decision()) is not None and after.kind == "action":
                assert after.options == rules._action_options(copy, after.seat)[0]
        g.apply(chooser.randrange(len(decision.options)))


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_a_kept_evaluation_is_never_stale(seed: int, lineup: tuple[str, str]) -> None:
    """Clans.evaluate keeps its last value until the next apply: asked again, before and after
    applies, of clones and of determinized copies, it is always what heuristics work out now."""
    g = rules.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    while (decision := g.decision()) is not None:
        world = g.determinize(decision.seat, Random(seed))
        for state in (g, g.clone(), world):
            for seat in (0, 1, 1, 0):
                assert state.evaluate(seat) == heuristics.evaluate(state, seat)
        g.apply(chooser.randrange(len(decision.options)))


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_a_clone_resumes_where_its_original_stood_and_leaves_it_as_it_was(
    seed: int, steps: int
) -> None:
    """The pending work is tuples on the flow engine's stack: a clone copies the list and shares
    the tasks, so playing the clone to the end changes nothing of the original's, which then
    plays the same choices to the same end."""
    g = midgame(seed, steps)
    todo, asking, cont = g.todo[:], g.asking, g.cont
    assert all(type(task) is tuple for task in todo)
    copy = g.clone()
    chooser = Random(seed)
    choices = []
    while (decision := copy.decision()) is not None:
        choices.append(chooser.randrange(len(decision.options)))
        copy.apply(choices[-1])
    assert (g.todo, g.asking, g.cont) == (todo, asking, cont)
    for choice in choices:
        g.apply(choice)
    assert g.over and g.result() == copy.result() and g.events == copy.events
