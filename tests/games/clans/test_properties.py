"""clans' properties over random games (hypothesis): every game ends; cards are conserved across
deck, hand, army (captured cards included), discard and the set-aside pool; only active (face-up,
uncaptured) cards count for military and for clan requirements; the face-up, token and
Supremacy wins fire exactly when reached."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.core.gamerng import GameRng
from balance.core.registry import load_game
from balance.games.clans import heuristics, rules
from balance.games.clans.cards import ClansSpec
from balance.games.clans.effects import military
from balance.games.clans.state import EMPTY, NOBODY

GAME = load_game("clans")
SPEC: ClansSpec = GAME.load(GAME.config_dir)
LINEUPS = [("draft", "draft")] + [
    (a, b)
    for a in sorted(SPEC.armies)
    for b in sorted(SPEC.armies)
    if SPEC.catalog.clash((a, b)) is None  # armies that share a clan never meet (G17b)
]
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, lineup: tuple[str, str], each=None) -> rules.Clans:
    g = rules.new_game(SPEC, lineup, seed)
    chooser = Random(seed)
    steps = 0
    while (decision := g.decision()) is not None:
        if each is not None:
            each(g)
        g.apply(chooser.randrange(len(decision.options)))
        steps += 1
        assert steps <= SPEC.max_decisions, "the game outlived its own decision cap"
    if each is not None:
        each(g)
    return g


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_every_game_ends(seed: int, lineup: tuple[str, str]) -> None:
    g = random_game(seed, lineup)
    result = g.result()
    assert g.over and sum(result.scores) == 1.0
    assert result.end_reason in {
        "supremacy",
        "tokens",
        "faceup",
        "goan_sul",
        "justice",
        "most_battles",
        "draw_double_supremacy",
        "draw_final",
        "cap_tiebreak",
    }
    assert g.round <= SPEC.max_rounds


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_cards_are_conserved(seed: int, lineup: tuple[str, str]) -> None:
    start: list[tuple[int, ...]] = []

    def conserved(g: rules.Clans) -> None:
        if not g.clans[0]:
            return  # still drafting: every card is in the pool
        zones = []
        for seat in (0, 1):
            army = [c for c in g.grid[seat] if c != EMPTY]
            mine = sorted([*g.deck[seat], *g.hand[seat], *g.discard[seat], *army])
            expected = sorted(c for clan in g.clans[seat] for c in SPEC.clan_cards[clan])
            assert mine == expected, "a card left its owner's deck, hand, army or discard pile"
            zones.append(tuple(mine))
        if not start:
            start.append(g.inventory())
        assert g.inventory() == start[0]

    random_game(seed, lineup, conserved)


def swap_inactive(g: rules.Clans) -> rules.Clans:
    """A copy in which every face-down or captured card is another card of its level, of
    another clan and another military value: what only active cards decide must not change."""
    copy = g.clone()
    spec = copy.spec
    for seat in (0, 1):
        grid = list(copy.grid[seat])
        for slot, card in enumerate(grid):
            if card == EMPTY or (copy.face_up[seat][slot] and copy.captor[seat][slot] == NOBODY):
                continue
            others = [
                c for c in range(len(spec.card_level))
                if spec.card_level[c] == spec.card_level[card]
                and spec.card_clan[c] != spec.card_clan[card]
                and spec.card_military[c] != spec.card_military[card]
            ]  # fmt: skip
            grid[slot] = others[slot % len(others)]
        copy.grid = (tuple(grid), copy.grid[1]) if seat == 0 else (copy.grid[0], tuple(grid))
    return copy


def plays(g: rules.Clans) -> set[tuple]:
    return {o for o in rules.action_options(g, g.active) if o[0] == rules.PLAY}


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_only_active_cards_count(seed: int, lineup: tuple[str, str]) -> None:
    def check(g: rules.Clans) -> None:
        if g.over or not g.clans[0]:
            return
        swapped = swap_inactive(g)
        assert [military(g, s) for s in (0, 1)] == [military(swapped, s) for s in (0, 1)]
        assert [rules.active_count(g, s) for s in (0, 1)] == [
            rules.active_count(swapped, s) for s in (0, 1)
        ]
        if g.decision().kind == "action":
            assert plays(g) == plays(swapped)

    random_game(seed, lineup, check)


def wins_fire_when_reached(g: rules.Clans) -> None:
    spec = g.spec
    reached = []
    for seat in (0, 1):
        reached.append(
            {
                "tokens": g.owned[seat] >= spec.token_win,
                "faceup": rules.active_count(g, seat) >= spec.faceup_win,
                "supremacy": g.supremacy[seat] >= spec.supremacy_to_win,
            }
        )
    if not g.over:
        assert not any(any(r.values()) for r in reached), "a win was reached but did not fire"
        return
    if g.win_type in ("tokens", "faceup", "supremacy"):
        assert reached[g.winner][g.win_type]
    if g.win_type == "draw_double_supremacy":
        assert reached[0]["supremacy"] and reached[1]["supremacy"]


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_wins_fire_exactly_when_reached(seed: int, lineup: tuple[str, str]) -> None:
    random_game(seed, lineup, wins_fire_when_reached)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    filled=st.integers(11, 14),
    down=st.lists(st.integers(0, 14), max_size=2),
    owned=st.integers(2, 4),
    supremacy=st.tuples(st.integers(0, 1), st.integers(0, 1)),
)
def test_wins_fire_near_the_line(
    table, seed: int, filled: int, down: list[int], owned: int, supremacy: tuple[int, int]
) -> None:
    """A P1 army close to 15 face-up cards, tokens close to 5, Supremacy close to 2: random play
    from there never passes a win without it firing, and never fires one early."""
    g = table.new(p1=("ironhide", "phoenix", "sages"), held=(owned, 2))
    g.owned = (owned, g.owned[1])
    g.supremacy = supremacy
    names = {
        "troop": ["Iron Guard", "Iron Guard", "Iron Spear", "Phoenix Guard", "Sage Guard"],
        "hero": ["Iron Wall", "Flame Warden", "Sage Knight", "Lorekeeper", "Breaker"],
        "immortal": [
            "Iron Colossus",
            "Pyre Lord",
            "Grand Sage",
            "Keeper of Keys",
            "Eternal Phoenix",
        ],
    }
    order = [(row, column) for row in ("troop", "hero", "immortal") for column in range(1, 6)]
    for placed, (row, column) in enumerate(order[:filled]):
        table.put(g, 0, names[row][column - 1], row, column, face_down=placed in down)
    for row, column in order[filled:]:
        table.hand(g, 0, names[row][column - 1])
    g.rng = GameRng(seed)
    chooser = Random(seed)
    for _ in range(400):
        wins_fire_when_reached(g)
        decision = g.decision()
        if decision is None:
            break
        g.apply(chooser.randrange(len(decision.options)))


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_determinize_keeps_the_deciders_view_at_every_step(
    seed: int, lineup: tuple[str, str]
) -> None:
    def check(g: rules.Clans) -> None:
        decision = g.decision()
        if decision is None:
            return
        world = g.determinize(decision.seat, Random(seed))
        assert world.decision() == decision
        assert world.evaluate(decision.seat) == g.evaluate(decision.seat)
        if g.clans[0]:
            assert heuristics.features(world, decision.seat) == heuristics.features(
                g, decision.seat
            )
        assert world.inventory() == g.inventory()

    random_game(seed, lineup, check)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(LINEUPS))
def test_options_have_distinct_words(seed: int, lineup: tuple[str, str]) -> None:
    def check(g: rules.Clans) -> None:
        decision = g.decision()
        if decision is not None:
            words = [g.describe(i) for i in range(len(decision.options))]
            assert len(set(words)) == len(words), words

    random_game(seed, lineup, check)
