"""clans' config: rules.yaml, cards.yaml and decks.yaml, checked and compiled once into `ClansSpec`.

- rules.yaml: every rule number of the spec (§2), with its default.
- cards.yaml: a list of cards (§5), each with effect entries in the vocabulary of `effects.py`.
- decks.yaml: the clans (theme, `flipped` rule modifiers, `win_if`), the `draft_pool`, the
  `fixed_setups` and `bot_clan_ratings`.

What a seat brings (its "deck" in the runner's words) is an *army*: a set of clans. Each side of
each fixed setup is an army, named by its clans (`goan_sul-veil-tempest`). Under the draft no two
players share a clan (G17b), so two armies meet only if they hold no clan in common (the
catalog's `exclusive`): `--decks all` plays every such pairing, never a mirror, and the 2 clans
neither army holds are flipped. One more shared deck
serves both seats at once: `draft` (setup_mode: draft) runs the R2 draft as bot decisions, its
card list the whole pool; with setup_mode: fixed it is named after `fixed_setup` and deals that
setup's p1 clans to seat 0 and p2 clans to seat 1. In every case the pool's clans that nobody
fields are flipped.

Every mistake is a ConfigError naming file:line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from balance.core.config import fail, lookup, no_duplicates, read_config, spec_from_rules, validate
from balance.core.contract import Catalog
from balance.core.effects import Effect
from balance.core.errors import ConfigError
from balance.core.yamlio import line_of
from balance.games.clans import effects as fx
from balance.games.clans.effects import (
    VOCABULARY,
    CardFilterText,
    SelectorText,
    WinIfText,
    compile_filter,
    compile_selector,
)
from balance.games.clans.spec import (
    ANY,
    BOTH,
    OPP,
    RULE_MOD_PARAMS,
    SELF,
    ZONE_DECK,
    ZONE_DISCARD,
    CardFilter,
    Clan,
    ClansSpec,
    Entry,
    TokenDraw,
    derive,
)
from balance.games.clans.state import CLAN_N, STATS


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- rules.yaml -----------------------------------------------------------------------------


class TokenDrawText(_Strict):
    tokens: int = Field(ge=1)
    cards: int = Field(ge=0)


class RulesText(_Strict):
    setup_mode: Literal["draft", "fixed"] = "draft"
    fixed_setup: str | None = None
    draft_order: list[tuple[int, int]] = [(1, 1), (2, 2), (1, 2), (2, 1)]
    first_player_round1: Literal["p1", "p2", "random"] = "p1"
    starting_tokens: int = Field(2, ge=0)
    token_win: int = Field(5, ge=1)
    max_tokens_per_card: int = Field(1, ge=0)
    extra_turns_after_pass: int = Field(3, ge=0)
    starting_hand: int = Field(7, ge=0)
    mulligan_min_troops: int = Field(2, ge=0)
    max_mulligans: int = Field(10, ge=0)
    rows: int = Field(3, ge=1, le=3)
    row_spaces: int = Field(5, ge=1)
    offclan_troop_cost: int = Field(2, ge=0)
    hand_limit: int = Field(7, ge=0)
    draw_small: TokenDrawText = TokenDrawText(tokens=1, cards=1)
    draw_big: TokenDrawText = TokenDrawText(tokens=2, cards=3)
    faceup_win: int = Field(15, ge=1)
    clan_composition: dict[int, int] = {1: 8, 2: 5, 3: 2}
    wonder_to_first_passer: bool = False
    immortal_military_bonus: int = 0
    shift_discount: int = Field(0, ge=0)
    sacrifice_fraction: float = Field(0.5, ge=0.0, le=1.0)
    sacrifice_rounding: Literal["up", "down", "nearest"] = "up"
    sacrifice_bonus: int = Field(0, ge=0)
    supremacy_to_win: int = Field(2, ge=1)
    max_rounds: int = Field(3, ge=1)
    goan_sul_captures_to_win: int = Field(3, ge=1)
    justice_rows_min: int = Field(3, ge=1)
    song_draw_to: int = Field(7, ge=0)
    max_turns_per_round: int = Field(80, ge=1)
    max_decisions: int = Field(4000, ge=1)


# Parameters a flipped clan may not change: they are read before the clans are known.
NOT_FLIPPABLE = ("setup_mode", "fixed_setup", "draft_order", "clan_composition", "max_decisions")


# -- cards.yaml -----------------------------------------------------------------------------


class CardText(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1)
    clan: str
    level: int = Field(ge=1, le=3)
    shift_cost: int = Field(ge=0)
    military: int = Field(ge=0)
    copies: int = Field(1, ge=1)
    token_slot: bool = False
    keywords: list[str] = []
    effects: list[Any] = []
    text: str = ""


class CardsText(RootModel[list[CardText]]):
    pass


# -- decks.yaml -----------------------------------------------------------------------------


class FlippedText(_Strict):
    param: str
    set: Any = None
    add: int | float | None = None


class ClanText(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    theme: str = ""
    flipped: list[FlippedText] = []
    win_if: WinIfText | None = None


class SetupText(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.+-]+$")
    p1: list[str]
    p2: list[str]


class DecksText(_Strict):
    clans: list[ClanText]
    draft_pool: list[str]
    fixed_setups: list[SetupText] = []
    bot_clan_ratings: dict[str, float] = {}


def load_spec(config_dir: Path, overrides: Mapping[str, object] | None = None) -> ClansSpec:
    """Read, check and compile `config_dir`'s rules.yaml, cards.yaml and decks.yaml."""
    docs = read_config(config_dir, documents=("rules", "cards", "decks"), overrides=overrides)
    rules_data, cards_data, decks_data = docs["rules"], docs["cards"], docs["decks"]
    rules = validate(RulesText, rules_data)
    if not isinstance(cards_data, list):
        raise fail(
            cards_data, (), "cards.yaml holds a list of cards", "write - {id: ..., name: ...}"
        )
    cards = validate(CardsText, cards_data).root
    decks = validate(DecksText, decks_data)

    # clans
    clan_index = no_duplicates(
        (clan.id for clan in decks.clans), "clan", decks_data, ("clans",), "id"
    )
    _check_rule_refs(rules, decks, decks_data)

    # cards
    no_duplicates((card.id for card in cards), "card", cards_data, (), "id")
    hint = "give one design `copies` instead"
    names = no_duplicates(
        (card.name for card in cards), "card name", cards_data, (), "name", hint=hint
    )
    card_clan = tuple(
        lookup(clan_index, card.clan, "clan", cards_data, (i, "clan"), f"card '{card.id}'")
        for i, card in enumerate(cards)
    )
    compiled = [
        _compile_card(i, card, cards_data, clan_index, names) for i, card in enumerate(cards)
    ]

    # the pool, the draft and the setups
    pool = [
        lookup(clan_index, clan_id, "clan", decks_data, ("draft_pool", k), "draft_pool")
        for k, clan_id in enumerate(decks.draft_pool)
    ]
    no_duplicates(decks.draft_pool, "clan", decks_data, ("draft_pool",), context="draft_pool")
    if len(pool) < 6:
        raise fail(
            decks_data,
            ("draft_pool",),
            f"draft_pool has {len(pool)} clans, at least 6 are needed",
            "add clans",
        )
    draft_seats: list[int] = []
    per_seat = [0, 0]
    for k, (seat, picks) in enumerate(rules.draft_order):
        if seat not in (1, 2) or picks < 1:
            raise fail(
                rules_data,
                ("draft_order", k),
                "draft_order: each entry is [seat 1 or 2, picks >= 1]",
                "e.g. [1, 1]",
            )
        draft_seats += [seat - 1] * picks
        per_seat[seat - 1] += picks
    if per_seat[0] != per_seat[1] or per_seat[0] == 0:
        raise fail(
            rules_data,
            ("draft_order",),
            f"draft_order gives P1 {per_seat[0]} clans and P2 {per_seat[1]}",
            "give both players the same number",
        )
    if sum(per_seat) > len(pool):
        raise fail(
            rules_data,
            ("draft_order",),
            f"draft_order picks {sum(per_seat)} clans from a pool of {len(pool)}",
            "pick fewer or pool more",
        )
    clans_per_player = per_seat[0]
    setups: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    setup_names = (setup.name for setup in decks.fixed_setups)
    no_duplicates(setup_names, "fixed setup", decks_data, ("fixed_setups",), "name")
    for k, setup in enumerate(decks.fixed_setups):
        sides = []
        for side in ("p1", "p2"):
            chosen = getattr(setup, side)
            context = f"fixed setup '{setup.name}'"
            clans_of_side = [
                lookup(clan_index, c, "clan", decks_data, ("fixed_setups", k, side, j), context)
                for j, c in enumerate(chosen)
            ]
            if len(set(chosen)) != len(chosen) or len(chosen) != clans_per_player:
                raise fail(
                    decks_data,
                    ("fixed_setups", k, side),
                    f"fixed setup '{setup.name}': {side} needs {clans_per_player} different clans",
                    "as the draft gives each player",
                )
            sides.append(_in_pool_order(clans_of_side, pool))
        if set(sides[0]) & set(sides[1]):
            raise fail(
                decks_data,
                ("fixed_setups", k),
                f"fixed setup '{setup.name}': p1 and p2 share a clan",
                "a drafted clan goes to one player",
            )
        setups[setup.name] = (sides[0], sides[1])
    fixed_setup = rules.fixed_setup or (decks.fixed_setups[0].name if decks.fixed_setups else "")
    if rules.setup_mode == "fixed" or rules.fixed_setup:
        loc = ("fixed_setup",) if "fixed_setup" in rules_data else ("setup_mode",)
        lookup(setups, fixed_setup, "fixed setup", rules_data, loc, "fixed_setup")

    # construction: every clan a seat can field meets clan_composition (R5)
    used = set(pool) | {c for pair in setups.values() for side in pair for c in side}
    for c in sorted(used):
        _check_composition(c, cards, decks, decks_data, rules)
    clan_cards = tuple(
        tuple(i for i, card in enumerate(cards) if card.clan == clan.id for _ in range(card.copies))
        for clan in decks.clans
    )
    armies: dict[str, tuple[int, ...]] = {}
    for p1, p2 in setups.values():
        for army in (p1, p2):
            armies.setdefault("-".join(decks.clans[c].id for c in army), army)
    shared = "draft" if rules.setup_mode == "draft" else fixed_setup
    if shared in armies:
        raise fail(
            rules_data,
            ("fixed_setup",),
            f"the shared setup '{shared}' has an army's name",
            "rename the fixed setup",
        )

    ratings = []
    for clan in decks.clans:
        ratings.append(decks.bot_clan_ratings.get(clan.id, 1.0))
    for clan_id in decks.bot_clan_ratings:
        where = ("bot_clan_ratings", clan_id)
        lookup(clan_index, clan_id, "clan", decks_data, where, "bot_clan_ratings")

    decks_of: dict[str, dict[int, int]] = {}
    decks_of[shared] = _card_counts(
        [
            card
            for clan in (pool if shared == "draft" else setups[shared][0] + setups[shared][1])
            for card in clan_cards[clan]
        ]
    )
    for name, army in armies.items():
        decks_of[name] = _card_counts([card for clan in army for card in clan_cards[clan]])
    catalog = Catalog(
        cards=tuple(card.id for card in cards),
        decks=decks_of,
        counters=fx.COUNTERS.names,
        game_stats=game_stat_names([c.id for c in decks.clans], rules.max_rounds),
        shared=frozenset({shared}),
        deck_seats={name: (2,) for name in decks_of},
        exclusive={
            name: frozenset(decks.clans[c].id for c in army) for name, army in armies.items()
        },
    )
    clans = tuple(
        Clan(
            id=c.id,
            name=c.name,
            theme=c.theme,
            flipped=tuple(
                (
                    m.param,
                    "set" if m.set is not None else "add",
                    m.set if m.set is not None else m.add,
                )
                for m in c.flipped
            ),
            win_kind=""
            if c.win_if is None
            else ("captured_by_self" if c.win_if.captured_by_self else "rows_equal"),
            win_min=0
            if c.win_if is None
            else (c.win_if.captured_by_self or c.win_if.rows_equal).min,  # type: ignore[union-attr]
            win_immediate=c.win_if is not None and c.win_if.check == "immediate",
        )
        for c in decks.clans
    )
    ongoing_military = tuple(
        tuple(e for e in es[fx.ONGOING] if e.op == fx.ADD_MILITARY) for es in compiled
    )
    ongoing_rule_mods = tuple(
        tuple(e for e in es[fx.ONGOING] if e.op == fx.RULE_MOD) for es in compiled
    )
    veteran_military = tuple(
        tuple(e for e in es[fx.VETERAN] if e.op == fx.ADD_MILITARY) for es in compiled
    )
    spec = spec_from_rules(
        ClansSpec,
        rules,
        catalog=catalog,
        config_hash=docs.config_hash,
        decision_cap=2 * rules.max_decisions + 100,
        fixed_setup=fixed_setup,
        draft_order=tuple((seat - 1, picks) for seat, picks in rules.draft_order),
        draw_small=TokenDraw(rules.draw_small.tokens, rules.draw_small.cards),
        draw_big=TokenDraw(rules.draw_big.tokens, rules.draw_big.cards),
        clan_composition=tuple(sorted(rules.clan_composition.items())),
        card_name=tuple(card.name for card in cards),
        card_clan=card_clan,
        card_level=tuple(card.level for card in cards),
        card_shift=tuple(card.shift_cost for card in cards),
        card_military=tuple(card.military for card in cards),
        card_slot=tuple(card.token_slot for card in cards),
        card_info=tuple(
            (card.level, clan, card.military) for card, clan in zip(cards, card_clan, strict=True)
        ),
        on_play=tuple(es[fx.PLAY] for es in compiled),
        on_activate=tuple(es[fx.ACTIVATE] for es in compiled),
        on_veteran=tuple(es[fx.VETERAN] for es in compiled),
        ongoing_military=ongoing_military,
        ongoing_rule_mods=ongoing_rule_mods,
        rule_mod_cards=frozenset(card for card, mods in enumerate(ongoing_rule_mods) if mods),
        veteran_military=veteran_military,
        card_special=tuple(
            bool(ongoing_military[card] or veteran_military[card]) for card in range(len(cards))
        ),
        clan_gains_tokens=tuple(
            any(
                entry.op == fx.GAIN_TOKEN
                for card in set(clan_cards[clan])
                for group in compiled[card]
                for entry in group
            )
            for clan in range(len(clans))
        ),
        slot_row=tuple(slot // rules.row_spaces for slot in range(rules.rows * rules.row_spaces)),
        board_stride=CLAN_N + 3 * len(clans),
        clans=clans,
        clan_cards=clan_cards,
        draft_pool=tuple(pool),
        draft_seats=tuple(draft_seats),
        clans_per_player=clans_per_player,
        armies=armies,
        setups=setups,
        shared_setup=shared,
        bot_clan_ratings=tuple(ratings),
        clan_stat_keys=tuple((f"clan_{c.id}", f"flipped_{c.id}", f"pick_{c.id}") for c in clans),
        effective={},
        rule_mod_base=(),
        clan_win=(),
        win_plans={},
        instant_captures=0,
    )
    spec = derive(spec)
    for flipped in _flipped_sets(spec):
        spec.effective[flipped] = (spec, spec.with_flipped(flipped))  # type: ignore[index]
    return spec


def _flipped_sets(spec: ClansSpec) -> set[tuple[int, ...]]:
    """Every set of flipped clans a lineup can give: each pairing of armies with no clan in
    common (G17b), each fixed setup, and each outcome of the draft (while there are at most a
    few thousand)."""
    pool = spec.draft_pool
    armies = spec.armies.values()
    fielded = [set(a) | set(b) for a in armies for b in armies if not set(a) & set(b)]
    fielded += [set(a) | set(b) for a, b in spec.setups.values()]
    sets = {tuple(c for c in pool if c not in f) for f in fielded}
    picked = len(spec.draft_seats)
    if comb(len(pool), picked) <= 5000:
        sets |= {tuple(c for c in pool if c not in chosen) for chosen in combinations(pool, picked)}
    return sets


def game_stat_names(clan_ids: list[str], max_rounds: int) -> tuple[str, ...]:
    """Result.stats keys (spec §9): game numbers, per-round numbers, per-seat numbers, and the
    clans each seat fielded (seat mask: 1 seat 0, 2 seat 1, 3 both), flipped and draft order."""
    names = ["rounds", "capped_rounds", "capped_decisions", "wonder_ties", "shared_ties"]
    for r in range(1, max_rounds + 1):
        names += [f"turns_r{r}", f"first_player_r{r}", f"first_passer_r{r}"]
        names += [f"battle_r{r}_{seat}" for seat in (0, 1)]
        names += [f"veteran_r{r}_{seat}" for seat in (0, 1)]
    for stat in (*STATS, "supremacy", "owned_tokens", "army", "faceup"):
        names += [f"{stat}_{seat}" for seat in (0, 1)]
    for clan_id in clan_ids:
        names += [f"clan_{clan_id}", f"flipped_{clan_id}", f"pick_{clan_id}"]
    return tuple(names)


def _in_pool_order(clans: list[int], pool: list[int]) -> tuple[int, ...]:
    return tuple(sorted(clans, key=lambda c: pool.index(c) if c in pool else len(pool) + c))


def _card_counts(cards: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _check_composition(
    clan: int, cards: list[CardText], decks: DecksText, decks_data: Any, rules: RulesText
) -> None:
    clan_id = decks.clans[clan].id
    have: dict[int, int] = {}
    for card in cards:
        if card.clan == clan_id:
            have[card.level] = have.get(card.level, 0) + card.copies
    for level in sorted(set(have) | set(rules.clan_composition)):
        need = rules.clan_composition.get(level, 0)
        if have.get(level, 0) != need:
            word = ("Troops", "Heroes", "Immortals")[level - 1]
            raise fail(
                decks_data,
                ("clans", clan),
                f"clan '{clan_id}' has {have.get(level, 0)} {word} (level {level}), "
                f"clan_composition asks {need}",
                "fix the copies in cards.yaml or clan_composition in rules.yaml",
            )


def _check_rule_refs(rules: RulesText, decks: DecksText, decks_data: Any) -> None:
    """Flipped modifiers name real, flippable parameters with valid values; win_if minimums are
    numbers or integer parameters."""
    base = rules.model_dump()
    params = [  # what a flipped modifier may name: a parameter, or a field of a nested one
        *base,
        *(
            f"{head}.{leaf}"
            for head, value in base.items()
            if isinstance(value, dict)
            for leaf in value
        ),
    ]
    numbers = [name for name, value in base.items() if type(value) is int]
    for i, clan in enumerate(decks.clans):
        for k, mod in enumerate(clan.flipped):
            loc: tuple[str | int, ...] = ("clans", i, "flipped", k)
            head, _, leaf = mod.param.partition(".")
            lookup(params, mod.param, "rules parameter", decks_data, loc, f"clan '{clan.id}'")
            if head in NOT_FLIPPABLE:
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': '{mod.param}' cannot be flipped",
                    "it is read before the clans are known",
                )
            if (mod.set is None) == (mod.add is None):
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': a flipped modifier has exactly one of set or add",
                    "e.g. {param: hand_limit, set: 5}",
                )
            changed: dict[str, Any] = {
                key: (dict(value) if isinstance(value, dict) else value)
                for key, value in base.items()
            }
            old = changed[head][leaf] if leaf else changed[head]
            if mod.add is not None and (isinstance(old, bool) or not isinstance(old, (int, float))):
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': '{mod.param}' is not a number to add to",
                    "use set",
                )
            new = mod.set if mod.set is not None else old + mod.add
            if leaf:
                changed[head][leaf] = new
            else:
                changed[head] = new
            try:
                checked = RulesText.model_validate(changed)
            except ValidationError as e:
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': {mod.param} would become {new!r}: {e.errors()[0]['msg']}",
                    "fix the modifier",
                ) from None
            value = checked.model_dump()[head]
            if (
                isinstance(old, int)
                and not isinstance(old, bool)
                and (value[leaf] if leaf else value) != new
            ):
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': {mod.param} takes a whole number",
                    "fix the modifier",
                )
        if clan.win_if is not None:
            loc = ("clans", i, "win_if")
            kinds = [
                w for w in (clan.win_if.captured_by_self, clan.win_if.rows_equal) if w is not None
            ]
            if len(kinds) != 1:
                raise fail(
                    decks_data,
                    loc,
                    f"clan '{clan.id}': win_if names exactly one of captured_by_self, rows_equal",
                    "e.g. {captured_by_self: {min: 3}}",
                )
            need = kinds[0].min
            if isinstance(need, str):
                context = f"clan '{clan.id}': win_if min"
                lookup(numbers, need, "whole-number rules parameter", decks_data, loc, context)


def _compile_card(
    index: int, card: CardText, cards_data: Any, clan_index: dict[str, int], names: dict[str, int]
) -> tuple[tuple[Entry, ...], ...]:
    """The card's entries, compiled and grouped by trigger (PLAY, ACTIVATE, VETERAN, ONGOING)."""
    context = f"card '{card.id}'"
    by_trigger: list[list[Entry]] = [[], [], [], []]
    for k, raw in enumerate(card.effects):  # the loaded entries themselves: they know their lines
        effect = VOCABULARY.parse_effect(raw, context)
        entry = _compile_entry(
            effect, context, cards_data, (index, "effects", k), clan_index, names
        )
        by_trigger[entry.trigger].append(entry)
    for k, word in enumerate(card.keywords):
        VOCABULARY.kinds["keyword"].resolve(
            word, *line_of(cards_data, (index, "keywords", k)), context
        )
    if card.token_slot != bool(by_trigger[fx.ACTIVATE]):
        raise fail(
            cards_data,
            (index, "token_slot"),
            f"{context}: token_slot is true exactly when the card has an activate entry",
            f"set token_slot: {str(bool(by_trigger[fx.ACTIVATE])).lower()}",
        )
    if ("veteran" in card.keywords) != bool(by_trigger[fx.VETERAN]):
        raise fail(
            cards_data,
            (index, "keywords"),
            f"{context}: keyword veteran is given exactly when the card has an on: veteran entry",
            "add or remove it",
        )
    return tuple(tuple(group) for group in by_trigger)


def _compile_entry(
    effect: Effect,
    context: str,
    data: Any,
    loc: tuple[Any, ...],
    clan_index: dict[str, int],
    names: dict[str, int],
) -> Entry:
    trigger = fx.TRIGGERS.index(effect.trigger or "")
    op = fx.OPS.index(effect.op)
    p = effect.params
    optional = bool(effect.fields.optional) if effect.fields is not None else False

    def bad(message: str, hint: str = "", key: str | None = None) -> ConfigError:
        return fail(data, loc + ((key,) if key else ()), f"{context}: {message}", hint)

    if trigger == fx.ONGOING and op not in (fx.ADD_MILITARY, fx.RULE_MOD):
        raise bad(
            f"an ongoing entry uses add_military or rule_mod, not {effect.op}",
            "use on: play or on: activate",
            "do",
        )
    if op == fx.RULE_MOD and trigger != fx.ONGOING:
        raise bad("rule_mod is an ongoing effect", "write on: ongoing", "on")
    if op == fx.ADD_MILITARY and trigger not in (fx.ONGOING, fx.VETERAN):
        raise bad(
            "add_military is an ongoing or veteran effect", "write on: ongoing or on: veteran", "on"
        )
    if trigger == fx.VETERAN and op in (fx.EXTRA_TURN, fx.FREE_PLAY_OP):
        raise bad(f"a veteran entry may not use {effect.op}", "use on: play or on: activate", "do")
    if op in fx.TARGETED and effect.target is None:
        raise bad(f"op '{effect.op}' needs a target", "add target: {side: ..., row: ...}")
    if op not in fx.TARGETED and effect.target is not None:
        raise bad(f"op '{effect.op}' takes no target", "remove target:", "target")
    if optional and effect.target is None:
        raise bad("optional applies to an entry with a target", "remove optional:", "optional")

    target = None
    if effect.target is not None:
        text = _selector_text(effect.target, data, loc + ("target",))
        _check_selector_clan(text, data, loc + ("target",), clan_index, context)
        if op in (fx.READY, fx.TRIGGER) and text.this:
            raise bad(f"{effect.op} may not target the source card", "remove this: true", "target")
        if op == fx.CAPTURE and text.side != "opp":
            raise bad("capture marks an opponent's card", "write side: opp", "target")
        if op == fx.READY and text.side != "self":
            raise bad("ready removes the token from an own card", "write side: self", "target")
        if text.chooser == "owner" and text.side == "any":
            raise bad("chooser: owner needs side self or opp", "name the side", "target")
        target = compile_selector(text, op, clan_index)

    conditions = []
    for name, value in effect.conditions.items():
        if name == "military" and trigger == fx.ONGOING:
            raise bad(
                "an ongoing entry cannot depend on military (its own value is part of it)",
                "use on: veteran",
                "if",
            )
        conditions.append(_compile_condition(name, value, data, loc + ("if",), clan_index, context))

    kw: dict[str, Any] = {}
    if op in (fx.DRAW, fx.GAIN_TOKEN):
        kw["n"] = p.n
    elif op == fx.DISCARD_OP:
        if (p.n is None) == (p.down_to is None):
            raise bad(
                "discard takes exactly one of n or down_to", "e.g. n: 1, or down_to: your_hand"
            )
        kw["who"] = SELF if p.who == "self" else OPP
        kw["n"] = p.n or 0
        kw["down_to"] = (
            -1
            if p.down_to is None
            else fx.YOUR_HAND
            if p.down_to == "your_hand"
            else max(0, p.down_to)
        )
    elif op == fx.FETCH_OP:
        kw["zone"] = ZONE_DECK if p.source == "deck" else ZONE_DISCARD
        kw["n"] = p.n
        kw["filter"] = _filter(p.filter, data, loc, clan_index, names, context)
    elif op == fx.DRAIN_TOKEN:
        kw["who"] = SELF if p.who == "self" else OPP
        kw["n"] = p.n
    elif op == fx.FLIP:
        kw["face_up"] = p.face == "up"
        if (
            p.face == "up"
            and target is not None
            and target.state == fx.ACTIVE
            and _selector_text(effect.target, data, loc).state is None
        ):
            target = replace(target, state=fx.FACE_DOWN)  # flipping up names face-down cards
    elif op == fx.FREE_PLAY_OP:
        kw["filter"] = _filter(p.filter, data, loc, clan_index, names, context)
        kw["ignore_requirements"] = p.ignore_requirements
    elif op == fx.ADD_MILITARY:
        kw["n"] = p.n
        kw["who"] = SELF if p.who == "self" else OPP
        if p.per is not None:
            _check_selector_clan(p.per, data, loc + ("per",), clan_index, context)
            kw["per"] = compile_selector(p.per, op, clan_index)
    elif op == fx.RULE_MOD:
        if (p.add is None) == (p.set is None):
            raise bad("rule_mod takes exactly one of add or set", "e.g. add: 1")
        kw["param"] = RULE_MOD_PARAMS.index(p.param)
        kw["who"] = {"self": SELF, "opp": OPP, "both": BOTH}[p.who]
        kw["n"] = p.add or 0
        kw["set_value"] = p.set
    return Entry(
        trigger=trigger, op=op, target=target, conditions=tuple(conditions), optional=optional, **kw
    )


def _selector_text(target: Any, data: Any, loc: tuple[Any, ...]) -> SelectorText:
    """A parsed target as one SelectorText (`{side: opp}` parses as the single selector `side`)."""
    if target.selector == "":
        params: SelectorText = target.params
        return params
    try:
        return SelectorText.model_validate({target.selector: target.params})
    except ValidationError as e:
        raise fail(data, loc, f"target: {e.errors()[0]['msg']}", "fix the selector") from None


def _check_selector_clan(
    text: SelectorText | CardFilterText,
    data: Any,
    loc: tuple[Any, ...],
    clan_index: dict[str, int],
    context: str,
) -> None:
    if text.clan is not None:
        lookup([*clan_index, "this", "other"], text.clan, "clan", data, loc, context)


def _filter(
    text: CardFilterText,
    data: Any,
    loc: tuple[Any, ...],
    clan_index: dict[str, int],
    names: dict[str, int],
    context: str,
) -> CardFilter:
    _check_selector_clan(text, data, loc + ("filter",), clan_index, context)
    if text.name is not None:
        lookup(names, text.name, "card name", data, loc + ("filter",), context)
    return compile_filter(text, clan_index, names)


def _compile_condition(
    name: str, value: Any, data: Any, loc: tuple[Any, ...], clan_index: dict[str, int], context: str
) -> tuple[Any, ...]:
    if name == "count":
        _check_selector_clan(value.selector, data, loc, clan_index, context)
        return (fx.C_COUNT, compile_selector(value.selector, -1, clan_index), value.min, value.max)
    if name == "hand":
        return (
            fx.C_HAND,
            SELF if value.who == "self" else OPP,
            fx.CMP[value.cmp],
            None if value.value == "opp" else value.value,
        )
    if name == "military":
        return (fx.C_MILITARY, fx.STANDING[value])
    if name == "wonder":
        return (fx.C_WONDER, {"self": SELF, "opp": OPP, "supply": ANY}[value])
    if name == "supremacy":
        return (fx.C_SUPREMACY, fx.STANDING[value])
    if name == "opp_passed":
        return (fx.C_OPP_PASSED, bool(value))
    return (fx.C_TOKENS, value.min, value.max)
