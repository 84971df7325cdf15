"""Determinized Monte-Carlo tree search in the information-set style (SO-ISMCTS).

Every iteration samples a world consistent with what the bot's seat knows
(`state.determinize(seat, rng)`) and walks one shared tree down it. Tree edges are keyed by the
option itself, not its index, because a sampled world may offer other options (another hand for
the opponent); a child's availability count replaces its parent's visit count in UCT, as in
Cowling, Powley and Whitehouse (2012). Leaves are rolled out with random (or greedy) play for at
most `depth` decisions, then scored by the game's `evaluate` for every seat.

Two to five seats: each node keeps a reward per seat and the seat deciding there maximises its
own (max^n backup, Sturtevant 2003). Scores sum to 1 in every game here, so maximising one's own
score is what each player wants; the paranoid alternative (everyone against me) plays far too
defensively with 3+ players.

`iterations` keeps games reproducible; `ms` (a time budget per decision) does not, since how
far a search gets depends on the machine: use it for strength, never for a gate.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from random import Random
from typing import Annotated, Literal

from pydantic import Field
from pydantic.dataclasses import dataclass as checked

from balance.bots.greedy import GreedyBot
from balance.core.contract import Decision, State


@dataclass(slots=True)
class Node:
    visits: int = 0
    available: int = 0
    totals: dict[int, float] = field(default_factory=dict)  # seat -> summed reward in [0, 1]
    children: dict[object, Node] = field(default_factory=dict)


@checked
class MctsBot:
    """Parameters are checked when the bot is made (pydantic): `make_bot` reports a bad one."""

    name: str = "mcts"
    iterations: Annotated[int, Field(gt=0)] = 200
    # > 0: search for this many milliseconds per decision instead (not reproducible)
    ms: Annotated[int, Field(ge=0)] = 0
    c: Annotated[float, Field(ge=0, allow_inf_nan=False)] = (
        0.7  # UCT exploration, rewards in [0, 1]
    )
    rollout: Literal["random", "greedy"] = "random"
    depth: Annotated[int, Field(ge=0)] = 12  # rollout decisions before evaluate scores the position

    def __post_init__(self) -> None:
        self._greedy = GreedyBot(follow=0, max_options=8)

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        seat = decision.seat
        root = Node()
        seats = {seat}
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else 0.0
        done = 0
        while (
            (done < self.iterations)
            if not deadline
            else (time.perf_counter() < deadline or done == 0)
        ):
            self._iterate(state.determinize(seat, rng), root, seats, rng)
            done += 1
        index_of = {option: i for i, option in reversed(list(enumerate(decision.options)))}
        visited = [
            (child.visits, rng.random(), index_of[key])
            for key, child in root.children.items()
            if key in index_of
        ]
        if not visited:
            return rng.randrange(len(decision.options))
        return max(visited)[2]

    def _iterate(self, world: State, root: Node, seats: set[int], rng: Random) -> None:
        path = [root]
        node = root
        while True:
            decision = world.decision()
            if decision is None:
                break
            if len(decision.options) == 1:
                world.apply(0)
                continue
            seats.add(decision.seat)
            untried = []
            for i, option in enumerate(decision.options):
                child = node.children.get(option)
                if child is None:
                    untried.append(i)
                else:
                    child.available += 1
            if untried:
                i = rng.choice(untried)
                child = Node(available=1)
                node.children[decision.options[i]] = child
                world.apply(i)
                path.append(child)
                break
            i = self._select(node, decision, rng)
            node = node.children[decision.options[i]]
            world.apply(i)
            path.append(node)
        rewards = self._play_out(world, seats, rng)
        for visited in path:
            visited.visits += 1
            for s, r in rewards.items():
                visited.totals[s] = visited.totals.get(s, 0.0) + r

    def _select(self, node: Node, decision: Decision, rng: Random) -> int:
        seat = decision.seat
        best, best_value = 0, -math.inf
        for i, option in enumerate(decision.options):
            child = node.children[option]
            value = child.totals.get(seat, 0.0) / child.visits + self.c * math.sqrt(
                math.log(child.available) / child.visits
            )
            value += rng.random() * 1e-9  # ties: the bot's own stream decides
            if value > best_value:
                best, best_value = i, value
        return best

    def _play_out(self, world: State, seats: set[int], rng: Random) -> dict[int, float]:
        for _ in range(self.depth):
            decision = world.decision()
            if decision is None:
                break
            seats.add(decision.seat)
            if len(decision.options) == 1:
                option = 0
            elif self.rollout == "greedy":
                option = self._greedy.choose(world, decision, rng)
            else:
                option = rng.randrange(len(decision.options))
            world.apply(option)
        if world.decision() is None:
            scores = world.result().scores
            return {s: scores[s] for s in range(len(scores))}
        return {s: (world.evaluate(s) + 1.0) / 2.0 for s in seats}
