"""tinyduel's card text: the words effects are written with, compiling an entry into the spec's
(op, n, only_if_behind), and resolving a card's `play` effects on a table."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from balance.core.effects import Effect, Vocabulary
from tinyduel.spec import BOOST, DRAW
from tinyduel.state import Table, draw


class Amount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(ge=1)


VOCABULARY = Vocabulary("tinyduel")
VOCABULARY.triggers.add("play", "the card is played")
VOCABULARY.ops.add("draw", "the target player draws n cards", Amount)
VOCABULARY.ops.add("boost", "this card's value rises by n this round", Amount)
VOCABULARY.selectors.add("me", "the card's player")
VOCABULARY.conditions.add("behind", "the card's player has fewer points than the leader", bool)


def compile_effect(effect: Effect) -> tuple[int, int, bool]:
    """A checked entry as (op, n, only_if_behind)."""
    op = DRAW if effect.op == "draw" else BOOST
    return op, effect.params.n, bool(effect.conditions.get("behind", False))


def on_play(t: Table, seat: int, card: int) -> None:
    """The played card's effects, in listed order."""
    for op, n, only_if_behind in t.spec.on_play[card]:
        if only_if_behind and t.points[seat] >= max(t.points):
            continue
        if op == DRAW:
            for _ in range(n):
                draw(t, seat)
        elif op == BOOST:
            t.boosts[seat] += n
