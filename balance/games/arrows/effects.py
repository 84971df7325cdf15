"""arrows' card vocabulary (§6) and what card effects do on the board.

An effect is `{on: <trigger>, do: <op>, <op params>, target: <selector>, if: <conditions>,
arrow: <dir>, optional: bool}`. `compile_effect` turns a checked entry into a `CardEffect` of ints;
`ability_options`, `use_ability`, `trigger_options` and `resolve_trigger` carry them out.
The effect's controller is the controller of the card carrying it, and `owner:` in selectors and
conditions means "controlled by", relative to that controller (a flipped card is friendly to its
new controller). A covered card shows no arrows, stats or element (G7): it never matches an
`element:` filter, a `max_cost/max_atk/max_def` limit, nor a `modify_stats` target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from balance.core.contract import PLAYED
from balance.core.effects import Effect, Vocabulary
from balance.core.errors import ConfigError
from balance.games.arrows.spec import (
    ADJACENT_COUNT,
    AMOUNT_ATK,
    CREDITS,
    NO_LIMIT,
    SCORE_DIFF,
    VIA,
    ArrowsSpec,
    CardEffect,
    CardFilterRule,
    Condition,
    TargetRule,
)
from balance.games.arrows.state import (
    ABILITIES_USED,
    DIRECTIONS,
    NO_VIA,
    REVIVED,
    REVIVED_COUNT,
    T_CREDITS_GAINED,
    VIAS,
    ArrowsState,
    Piece,
    Trigger,
    after_moves,
    count,
    current_atk,
    current_def,
    deal_damage,
    destroy,
    draw,
    mark,
    move,
    own,
    own_zones,
    piece_at,
    place,
    push,
    queue_activation,
    swap,
)

if TYPE_CHECKING:
    from balance.games.arrows.spec import ArrowsSpec

Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
Owner = Literal["friendly", "opponent", "any"]
Face = Literal["up", "covered", "any"]
Count = Annotated[int, Field(ge=0)]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EntryFields(_Params):
    arrow: Direction | None = None
    optional: bool = False


class PullParams(_Params):
    owner: Owner = "any"


class DamageParams(_Params):
    amount: int | Literal["atk"]

    @field_validator("amount", mode="before")
    @classmethod
    def _amount(cls, value: object) -> object:
        if value != "atk" and (type(value) is not int or value < 0):
            raise ValueError("the amount is a whole number of 0 or more, or atk")
        return value


class PlaceParams(_Params):
    free: bool = True


class ModifyParams(_Params):
    atk: int = 0
    def_: int = Field(0, alias="def")
    until: Literal["end_of_turn", "permanent"] = "end_of_turn"


class GainParams(_Params):
    amount: Count


class DrawParams(_Params):
    amount: Count = 1


class CardFilter(_Params):
    owner: Owner = "any"
    face: Face = "any"
    element: str | None = None
    pick: Literal["one", "all"] = "one"


class CountParams(_Params):
    owner: Owner = "any"
    face: Face = "any"
    element: str | None = None
    min: int | None = None
    max: int | None = None


class Range(_Params):
    min: int | None = None
    max: int | None = None


class TargetParams(_Params):
    owner: Owner = "any"
    face: Face = "any"
    max_cost: int | None = None
    max_atk: int | None = None
    max_def: int | None = None


VOCABULARY = Vocabulary("arrows", entry_fields=EntryFields)

_t = VOCABULARY.triggers
_t.add("ability", "P uses it in Ability Phase 1 or 2; needs `arrow:`; once per activation")
_t.add("activate", "S0 of a new activation (played, revealed, revived): bonuses & synergies")
_t.add("reactivate", "S0 of a reactivation (the card moved, or was flipped after moving)")
_t.add("flipped", "the card has just changed controller; resolves for the new controller")
_t.add("destroyed", "the card has just gone to the graveyard; `adjacent` uses its last cell")
_t.add("turn_end", "step 7 of its controller's turn, before the score update; face-up only")

_o = VOCABULARY.ops
_o.add("push", "the arrow card moves one cell on; a card on the landing cell is destroyed first")
_o.add("pull", "onto the empty arrow cell: a card orthogonally adjacent to it", PullParams)
_o.add("swap", "this card and the arrow card exchange cells (this card does not reactivate)")
_o.add("destroy", "the target card goes to its owner's graveyard")
_o.add("damage", "adds damage to the target (`atk`: this card's current ATK)", DamageParams)
_o.add("place_covered", "a card from hand onto the empty arrow cell, covered", PlaceParams)
_o.add("revive", "a card from your graveyard onto the empty arrow cell, within the cost budget")
_o.add("modify_stats", "changes a face-up card's ATK/DEF modifiers", ModifyParams)
_o.add("gain_credits", "the target player (default controller) gains credits", GainParams)
_o.add("draw", "the target player (default controller) draws cards", DrawParams)

_s = VOCABULARY.selectors
_s.add("self", "the card carrying the effect")
_s.add("arrow", "the card on the arrow cell (the default for abilities)")
_s.add("controller", "the effect's controller (a player)")
_s.add("opponent", "the effect controller's opponent (a player)")
_s.add(
    "adjacent", "cards on the 8 cells around this card; pick one (a decision) or all", CardFilter
)
_s.add("board", "cards anywhere on the board; pick one (a decision) or all", CardFilter)

_c = VOCABULARY.conditions
_c.add(
    "adjacent_count",
    "the number of matching cards around this card is within min..max",
    CountParams,
)
_c.add(
    "via",
    "this activation came from one of these: played, revealed, revived, moved",
    list[Literal["played", "revealed", "revived", "moved"]],
)
_c.add("credits", "the controller's credits are within min..max", Range)
_c.add(
    "score_diff", "controller's last recorded score minus the opponent's, within min..max", Range
)
_c.add("target", "the target card matches (owner, face, max_cost, max_atk, max_def)", TargetParams)

# -- compiled form ------------------------------------------------------------------------------

TRIGGERS = tuple(word.name for word in VOCABULARY.triggers)
ABILITY, ACTIVATE, REACTIVATE, FLIPPED, DESTROYED, TURN_END = range(6)
OPS = tuple(word.name for word in VOCABULARY.ops)
PUSH, PULL, SWAP, DESTROY, DAMAGE, PLACE_COVERED, REVIVE, MODIFY_STATS, GAIN_CREDITS, DRAW = range(
    10
)
SELECTORS = tuple(word.name for word in VOCABULARY.selectors)
SELF, ARROW, CONTROLLER, OPPONENT, ADJACENT, BOARD = range(6)

ABILITY_ONLY = frozenset({PUSH, PULL, SWAP, PLACE_COVERED, REVIVE})  # §5: movement & placement
CARD_OPS = frozenset({DESTROY, DAMAGE, MODIFY_STATS})
PLAYER_OPS = frozenset({GAIN_CREDITS, DRAW})
OWNERS = {"any": 0, "friendly": 1, "opponent": 2}
ANY_OWNER, FRIENDLY, ENEMY = 0, 1, 2
FACES = {"any": 0, "up": 1, "covered": 2}
ANY_FACE, FACE_UP, FACE_COVERED = 0, 1, 2
NO_ELEMENT = -1


def compile_effect(
    effect: Effect, card: int, arrows: tuple[int, ...], elements: dict[str, int]
) -> CardEffect:
    """The fast form of one checked entry, with the cross-checks §5 asks for (file:line errors)."""
    trigger = TRIGGERS.index(effect.trigger or "")
    op = OPS.index(effect.op)
    fields: EntryFields = effect.fields
    where = (effect.file, effect.line)
    arrow = DIRECTIONS.index(fields.arrow) if fields.arrow is not None else -1
    if trigger == ABILITY and arrow < 0:
        raise ConfigError(*where, f"ability '{effect.op}' names no arrow", "add arrow: <direction>")
    if arrow >= 0 and arrow not in arrows:
        names = ", ".join(DIRECTIONS[a] for a in arrows)
        raise ConfigError(
            *where, f"arrow {fields.arrow} is not one of the card's arrows", f"use one of {names}"
        )
    if op in ABILITY_ONLY and trigger != ABILITY:
        raise ConfigError(
            *where, f"'{effect.op}' may only be an arrow ability", "write on: ability"
        )

    selector = _default_selector(trigger, op)
    filter_rule = None
    if effect.target is not None:
        selector = SELECTORS.index(effect.target.selector)
        if effect.target.params is not None:
            filter_rule = _filter(effect.target.params, elements)
    allowed = _selectors_for(op)
    if selector not in allowed:
        names = ", ".join(SELECTORS[s] for s in sorted(allowed))
        raise ConfigError(
            *where, f"'{effect.op}' cannot target '{SELECTORS[selector]}'", f"use one of {names}"
        )
    if selector == ARROW and arrow < 0:
        raise ConfigError(*where, "target 'arrow' needs an arrow", "add arrow: <direction>")

    conditions: list[Condition] = []
    target_rule = None
    for name, value in effect.conditions.items():
        if name == "target":
            if op not in CARD_OPS and op not in (PUSH, PULL, SWAP):
                raise ConfigError(
                    *where,
                    f"'{effect.op}' has no target card to check",
                    "remove the target condition",
                )
            target_rule = TargetRule(
                OWNERS[value.owner],
                FACES[value.face],
                _limit(value.max_cost),
                _limit(value.max_atk),
                _limit(value.max_def),
            )
        elif name == "via":
            if trigger not in (ABILITY, ACTIVATE, REACTIVATE):
                raise ConfigError(
                    *where,
                    f"'via' has no meaning for on: {effect.trigger}",
                    "use it with ability, activate or reactivate",
                )
            conditions.append(Condition(VIA, 0, 0, vias=sum(1 << VIAS.index(v) for v in value)))
        elif name == "adjacent_count":
            rule = CardFilterRule(
                OWNERS[value.owner], FACES[value.face], _element(value.element, elements), False
            )
            conditions.append(Condition(ADJACENT_COUNT, _low(value.min), _high(value.max), rule))
        else:
            kind = CREDITS if name == "credits" else SCORE_DIFF
            conditions.append(Condition(kind, _low(value.min), _high(value.max)))

    params = effect.params
    amount = 0
    if op == DAMAGE:
        amount = AMOUNT_ATK if params.amount == "atk" else params.amount
    elif op in PLAYER_OPS:
        amount = params.amount
    return CardEffect(
        card=card,
        trigger=trigger,
        op=op,
        arrow=arrow,
        optional=fields.optional,
        selector=selector,
        filter=filter_rule,
        amount=amount,
        pull_owner=OWNERS[params.owner] if op == PULL else ANY_OWNER,
        free=params.free if op == PLACE_COVERED else True,
        atk=params.atk if op == MODIFY_STATS else 0,
        def_=params.def_ if op == MODIFY_STATS else 0,
        permanent=op == MODIFY_STATS and params.until == "permanent",
        conditions=tuple(conditions),
        target_rule=target_rule,
    )


def _default_selector(trigger: int, op: int) -> int:
    if op in PLAYER_OPS:
        return CONTROLLER
    return ARROW if trigger == ABILITY else SELF


def _selectors_for(op: int) -> frozenset[int]:
    if op in PLAYER_OPS:
        return frozenset({CONTROLLER, OPPONENT})
    if op in CARD_OPS:
        return frozenset({SELF, ARROW, ADJACENT, BOARD})
    return frozenset({ARROW})  # movement and placement act on the arrow cell itself


def _filter(params: CardFilter, elements: dict[str, int]) -> CardFilterRule:
    return CardFilterRule(
        OWNERS[params.owner],
        FACES[params.face],
        _element(params.element, elements),
        params.pick == "one",
    )


def _element(name: str | None, elements: dict[str, int]) -> int:
    if name is None:
        return NO_ELEMENT
    return elements.setdefault(name, len(elements))


def _limit(value: int | None) -> int:
    return NO_LIMIT if value is None else value


def _low(value: int | None) -> int:
    return -NO_LIMIT if value is None else value


def _high(value: int | None) -> int:
    return NO_LIMIT if value is None else value


# -- conditions and targets --------------------------------------------------------------------


def conditions_hold(
    s: ArrowsState, effect: CardEffect, controller: int, cell: int, via: int
) -> bool:
    """The effect's `if:` conditions other than `target:` (that one filters targets)."""
    for condition in effect.conditions:
        kind = condition.kind
        if kind == VIA:
            if via == NO_VIA or not (condition.vias >> via) & 1:
                return False
        elif kind == ADJACENT_COUNT:
            count = 0
            rule = condition.filter
            for neighbour in s.spec.adjacent[cell]:
                piece = s.grid[neighbour]
                if piece is not None and matches(s.spec, rule, controller, piece):
                    count += 1
            if not condition.low <= count <= condition.high:
                return False
        elif kind == CREDITS:
            if not condition.low <= s.credits[controller] <= condition.high:
                return False
        else:  # SCORE_DIFF, from the last recorded scores (step 7)
            diff = s.scores[controller] - s.scores[1 - controller]
            if not condition.low <= diff <= condition.high:
                return False
    return True


def matches(spec: ArrowsSpec, rule: CardFilterRule | None, controller: int, piece: Piece) -> bool:
    if rule is None:
        return True
    if rule.owner == FRIENDLY and piece.controller != controller:
        return False
    if rule.owner == ENEMY and piece.controller == controller:
        return False
    if rule.face == FACE_UP and not piece.face_up:
        return False
    if rule.face == FACE_COVERED and piece.face_up:
        return False
    # A covered card shows no element (G7).
    return rule.element == NO_ELEMENT or (
        piece.face_up and spec.element[piece.card] == rule.element
    )


def target_allowed(
    spec: ArrowsSpec, rule: TargetRule | None, controller: int, piece: Piece
) -> bool:
    """The `target:` condition on a target card; a covered card has no cost, ATK or DEF to show."""
    if rule is None:
        return True
    if rule.owner == FRIENDLY and piece.controller != controller:
        return False
    if rule.owner == ENEMY and piece.controller == controller:
        return False
    if rule.face == FACE_UP and not piece.face_up:
        return False
    if rule.face == FACE_COVERED and piece.face_up:
        return False
    limited = rule.max_cost < NO_LIMIT or rule.max_atk < NO_LIMIT or rule.max_def < NO_LIMIT
    if limited:
        if not piece.face_up:
            return False
        if spec.cost[piece.card] > rule.max_cost or current_atk(spec, piece) > rule.max_atk:
            return False
        if current_def(spec, piece) > rule.max_def:
            return False
    return True


def card_targets(
    s: ArrowsState, effect: CardEffect, controller: int, uid: int, cell: int
) -> list[Piece]:
    """The legal target cards of a card op, in reading order (empty: it fizzles)."""
    spec = s.spec
    selector = effect.selector
    if selector == SELF:
        piece = s.pieces.get(uid)
        candidates = [piece] if piece is not None else []
    elif selector == ARROW:
        target_cell = spec.neighbor[cell][effect.arrow]
        piece = s.grid[target_cell] if target_cell >= 0 else None
        candidates = [piece] if piece is not None else []
    elif selector == ADJACENT:
        candidates = []
        for neighbour in spec.adjacent[cell]:
            piece = s.grid[neighbour]
            if piece is not None and matches(spec, effect.filter, controller, piece):
                candidates.append(piece)
    else:  # BOARD
        candidates = [
            p for p in s.grid if p is not None and matches(spec, effect.filter, controller, p)
        ]
    if effect.op == MODIFY_STATS:
        candidates = [p for p in candidates if p.face_up]
    if effect.target_rule is not None:
        candidates = [
            p for p in candidates if target_allowed(spec, effect.target_rule, controller, p)
        ]
    if len(candidates) > 1:
        candidates.sort(key=_by_cell)
    return candidates


def _by_cell(piece: Piece) -> int:
    return piece.cell


def _distinct(cards: list[int]) -> list[int]:
    return sorted(set(cards))


# -- arrow abilities (S1, S4) ----------------------------------------------------------------


def ability_options(
    s: ArrowsState, piece: Piece, used: int, revived: int, via: int
) -> list[tuple[int, int, int]]:
    """Every usable ability with its sub-choice: `(arrow, op, cell or card or -1)`. The card's
    activation has used the abilities of the arrows in bit mask `used`, revived cards of total
    cost `revived`, and began `via`."""
    spec = s.spec
    cell = piece.cell
    controller = piece.controller
    options: list[tuple[int, int, int]] = []
    for effect in spec.abilities[piece.card]:
        arrow = effect.arrow
        if (used >> arrow) & 1:
            continue
        arrow_cell = spec.neighbor[cell][arrow]
        if arrow_cell < 0:  # arrows that point off the grid do nothing (G1)
            continue
        if effect.conditions and not conditions_hold(s, effect, controller, cell, via):
            continue
        op = effect.op
        occupant = s.grid[arrow_cell]
        if op == PUSH or op == SWAP:
            if occupant is not None and target_allowed(
                spec, effect.target_rule, controller, occupant
            ):
                options.append((arrow, op, -1))
        elif op == PULL:
            if occupant is None:
                for source in spec.orthogonal[arrow_cell]:
                    pulled = s.grid[source]
                    if pulled is None or pulled is piece:
                        continue
                    if effect.pull_owner == FRIENDLY and pulled.controller != controller:
                        continue
                    if effect.pull_owner == ENEMY and pulled.controller == controller:
                        continue
                    if target_allowed(spec, effect.target_rule, controller, pulled):
                        options.append((arrow, op, source))
        elif op == PLACE_COVERED:
            if occupant is None:
                options.extend((arrow, op, card) for card in _distinct(s.hands[controller]))
        elif op == REVIVE:
            if occupant is None:
                budget = spec.cost[piece.card] - revived
                options.extend(
                    (arrow, op, card)
                    for card in _distinct(s.graveyards[controller])
                    if spec.cost[card] <= budget
                )
        elif op in CARD_OPS:
            targets = card_targets(s, effect, controller, piece.uid, cell)
            if targets:
                if effect.filter is not None and effect.filter.pick_one:
                    options.extend((arrow, op, target.cell) for target in targets)
                else:
                    options.append((arrow, op, -1))
        else:  # a player op: always a legal target
            options.append((arrow, op, -1))
    return options


def spent(
    spec: ArrowsSpec, used: int, revived: int, option: tuple[int, int, int]
) -> tuple[int, int]:
    """An activation's `used` and `revived` once it has used the ability `option` (G8: once per
    arrow; a revive spends from the budget of the card's cost)."""
    arrow, op, choice = option
    return used | 1 << arrow, revived + spec.cost[choice] if op == REVIVE else revived


def use_ability(s: ArrowsState, piece: Piece, option: tuple[int, int, int]) -> None:
    """One ability use: an atomic action (its triggers and activations follow it, §4 Chains).
    The activation's record of it (`used`, `revived`) is the caller's: `spent`."""
    spec = s.spec
    arrow, op, choice = option
    effect = spec.ability_at[piece.card][arrow]
    assert effect is not None
    count(s, piece, ABILITIES_USED)
    arrow_cell = spec.neighbor[piece.cell][arrow]
    controller = piece.controller
    if op == PUSH:
        push(s, piece, piece_at(s, arrow_cell), arrow)
    elif op == PULL:
        pulled = piece_at(s, choice)
        move(s, pulled, arrow_cell)
        after_moves(s, [pulled])
    elif op == SWAP:
        other = piece_at(s, arrow_cell)
        swap(s, piece, other)
        after_moves(s, [other])  # a card never reactivates because it swapped itself (G9)
    elif op == PLACE_COVERED:
        s.hands[controller].remove(choice)
        cost_due = 0 if effect.free else spec.cost[choice]
        place(s, controller, choice, arrow_cell, False, cost_due, effect.free)
        s.log.append((s.turn, controller, choice, PLAYED, 1))
    elif op == REVIVE:
        own_zones(s)
        s.graveyards[controller].remove(choice)
        revived = place(s, controller, choice, arrow_cell, True, 0, False)
        count(s, revived, REVIVED_COUNT)
        queue_activation(s, revived, False, REVIVED)
    elif op in CARD_OPS:
        if choice >= 0:
            targets = [piece_at(s, choice)]
        else:
            targets = card_targets(s, effect, controller, piece.uid, piece.cell)
        _card_op(s, effect, targets, piece.card, piece.owner, current_atk(spec, piece))
    else:
        _player_op(s, effect, controller)


# -- triggered effects (S0, flipped, destroyed, turn_end) ---------------------------------------


def trigger_options(s: ArrowsState, trigger: Trigger) -> tuple[object, ...] | None:
    """The `target` decision a trigger opens (pick: one, or optional), () if it fizzles, or None
    when it resolves on its own."""
    effect = trigger.effect
    if effect.op in CARD_OPS:
        targets = card_targets(s, effect, trigger.controller, trigger.uid, trigger.cell)
        if not targets:
            return ()
        if effect.filter is not None and effect.filter.pick_one:
            cells = tuple(target.cell for target in targets)
            return (*cells, "skip") if effect.optional else cells
    return ("apply", "skip") if effect.optional else None


def resolve_trigger(s: ArrowsState, trigger: Trigger, choice: object) -> None:
    """Carry out a triggered effect; `choice` is its `target` decision's option (or None)."""
    if choice == "skip":
        return
    effect = trigger.effect
    if effect.op in CARD_OPS:
        if isinstance(choice, int):
            targets = [piece_at(s, choice)]
        else:
            targets = card_targets(s, effect, trigger.controller, trigger.uid, trigger.cell)
        source = s.pieces.get(trigger.uid)
        atk = current_atk(s.spec, source) if source is not None else trigger.atk
        _card_op(s, effect, targets, trigger.card, trigger.owner, atk)
    else:
        _player_op(s, effect, trigger.controller)


def _card_op(
    s: ArrowsState, effect: CardEffect, targets: list[Piece], card: int, owner: int, atk: int
) -> None:
    spec = s.spec
    for target in targets:
        if target.uid not in s.pieces:  # destroyed earlier in this same effect
            continue
        if effect.op == DESTROY:
            destroy(s, target, card, owner)
        elif effect.op == DAMAGE:
            deal_damage(
                s, target, atk if effect.amount == AMOUNT_ATK else effect.amount, card, owner
            )
        else:  # MODIFY_STATS
            target = own(s, target)
            mark(s, target)
            if effect.permanent:
                target.atk_perm += effect.atk
                target.def_perm += effect.def_
            else:
                target.atk_turn += effect.atk
                target.def_turn += effect.def_
            if effect.def_ < 0 and current_def(spec, target) <= 0:
                destroy(s, target, card, owner)


def _player_op(s: ArrowsState, effect: CardEffect, controller: int) -> None:
    player = controller if effect.selector == CONTROLLER else 1 - controller
    if effect.op == GAIN_CREDITS:
        s.credits[player] += effect.amount
        s.tally[T_CREDITS_GAINED + player] += effect.amount
    else:
        draw(s, player, effect.amount)


def describe_ability(spec: ArrowsSpec, option: tuple[int, int, int]) -> str:
    arrow, op, choice = option
    words = f"{OPS[op]} {DIRECTIONS[arrow]}"
    if op == PULL:
        return f"{words} from {spec.cell_names[choice]}"
    if op in (PLACE_COVERED, REVIVE):
        return f"{words} {spec.catalog.cards[choice]}"
    if choice >= 0:
        return f"{words} at {spec.cell_names[choice]}"
    return words
