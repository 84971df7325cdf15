"""Determinized Monte-Carlo tree search in the information-set style (SO-ISMCTS), for one turn.

Every iteration samples a world consistent with what the bot's seat knows
(`state.determinize(seat, rng)`) and walks one shared tree down it. Tree edges are keyed by the
option itself, not its index, because a sampled world may offer other options (another hand for
the opponent); a child's availability count replaces its parent's visit count in UCT, as in
Cowling, Powley and Whitehouse (2012).

What makes it stronger than greedy rather than weaker is where it judges positions. The games'
evaluations are built to compare positions of one seat's turn, action by action (that is how the
greedy bot uses them); a search that scores leaves wherever a random rollout stops (mid-action,
in the opponent's reply) compares positions the evaluation cannot tell apart. So:
- the tree covers the rest of the current turn and stops where the next turn begins
  (`horizon` turns; DESIGN's `State.turn`), the consistent point where positions are compared
  (the TAG framework's MCTS ends rollouts at a turn's end for the same reason);
- a new node is expanded whole: every option is applied and scored by the deciding seat's
  evaluation, as the greedy bot would score it. Those scores are the edges' priors, which order
  untried edges and bias the choice towards them until visits speak (progressive bias, Chaslot
  et al. 2008), and the new node's value is the position after its best-scored option: a
  one-step greedy roll-out that costs nothing more, so a leaf never stands mid-action;
- with `to_horizon`, a new line goes on greedily (each step expanded the same way) until the
  horizon, so every leaf stands where a turn begins. It costs a greedy decision per step, and
  pays where one turn is many decisions or a turn's worth shows only in the reply: possession
  (four phases a turn, 2 turns) and clans (3 turns);
- with `widening`, a node offers only its best-scored options, more as its visits grow
  (progressive widening, Chaslot et al. 2008): where a decision has more options than the
  budget can try, the budget goes to the likely ones. In arrows (about 115 options to a play)
  150 iterations without it tried each option about once and scored 0.52 against greedy (414
  games); with widening 2, 0.74 (414 games).
- with `greedy_root`, the root's widening always offers the greedy bot's own choice too. The
  priors score an option where it leaves the position, mid-action in a game that splits one
  action into several decisions (possession's play, then its action and swap), and widening may
  then never offer the option that greedy, following the action through, would play. In
  possession (80 iterations, 400 games against greedy) 0.630, against about 0.60 without;
- with `rollout`, a new line goes on past its new node without nodes, each step the best-scored
  of a few sampled options (the TAG framework's cheap informed roll-out): a step costs `rollout`
  applications instead of a whole expansion, so more iterations fit the same time. In
  possession it lost more than it saved: 100 iterations with `rollout=3` and `greedy_root`
  (the time of 80 to the horizon) scored 0.562 against greedy (400 games).
Measured in beings against greedy (32 games each, 300 iterations): random roll-outs to the end
of the turn 0.06, roll-outs choosing the best of 4 sampled options 0.41, this 0.61. In
possession (96 games each, 300 iterations): horizon 1 0.40-0.48, horizon 2 to the horizon 0.62.

Each game sets its own budget (`GameInfo.bot_defaults`): the horizon and iterations that keep a
decision near 50 ms there.

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
from typing import Annotated

from pydantic import Field
from pydantic.dataclasses import dataclass as checked

from balance.bots.greedy import GreedyBot
from balance.core.contract import Decision, State

# the greedy bot whose choice the root always offers (`greedy_root`): it shares every follow-up,
# the cheapest of its settings
ROOT_GREEDY = GreedyBot(share_width=1)


@dataclass(slots=True)
class Node:
    prior: float = 0.5  # the evaluation of this edge by the seat that chooses it, in [0, 1]
    visits: int = 0
    available: int = 0
    totals: dict[int, float] = field(default_factory=dict)  # seat -> summed reward in [0, 1]
    children: dict[object, Node] | None = None  # None until expanded


@checked
class MctsBot:
    """Parameters are checked when the bot is made (pydantic): `make_bot` reports a bad one."""

    name: str = "mcts"
    iterations: Annotated[int, Field(gt=0)] = 300
    # > 0: search for this many milliseconds per decision instead (not reproducible)
    ms: Annotated[int, Field(ge=0)] = 0
    c: Annotated[float, Field(ge=0, allow_inf_nan=False)] = (
        0.4  # UCT exploration, rewards in [0, 1]
    )
    # progressive bias: the weight of an edge's prior, fading as 1 / (visits + 1)
    bias: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 1.0
    horizon: Annotated[int, Field(gt=0)] = 1  # the tree ends where this many turns have begun
    # True: a new line is followed by its best-scored options on to the horizon, each step
    # expanded as a node (every leaf stands where a turn begins); False: a leaf is the position
    # after a new node's best-scored option
    to_horizon: bool = False
    # > 0: a node offers its ceil(widening * sqrt(visits + 1)) best-scored options only, so a
    # budget smaller than the options is spent on the likely ones (progressive widening)
    widening: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 0.0
    # > 0: past a line's new node, the line goes on to the horizon without nodes, each step the
    # best-scored of this many sampled options (cheaper steps than to_horizon's whole expansions)
    rollout: Annotated[int, Field(ge=0)] = 0
    # True: the root always offers the greedy bot's own choice, however widening ranks it
    greedy_root: bool = False

    def choose(self, state: State, decision: Decision, rng: Random) -> int:
        seat = decision.seat
        root = Node()
        seats = {seat}  # the seats met so far: each needs its reward wherever it decides
        horizon = state.turn + self.horizon
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else 0.0
        keep = None  # the root option widening always offers
        if self.greedy_root:
            keep = decision.options[ROOT_GREEDY.choose(state, decision, rng)]
        done = 0
        while (
            (done < self.iterations)
            if not deadline
            else (time.perf_counter() < deadline or done == 0)
        ):
            self._iterate(state.determinize(seat, rng), root, seats, horizon, rng, keep)
            done += 1
        index_of = {option: i for i, option in reversed(list(enumerate(decision.options)))}
        children = root.children or {}
        ranked = [
            (child.visits, child.prior, rng.random(), index_of[key])
            for key, child in children.items()
            if key in index_of
        ]
        return max(ranked)[3] if ranked else rng.randrange(len(decision.options))

    def _iterate(
        self,
        world: State,
        root: Node,
        seats: set[int],
        horizon: int,
        rng: Random,
        keep: object = None,
    ) -> None:
        path = [root]
        node = root
        leaf = world
        while True:
            decision = world.decision()
            if decision is None or world.turn >= horizon:
                break
            if len(decision.options) == 1:
                world.apply(0)
                continue
            seats.add(decision.seat)  # before any of its edges is scored: its rewards are whole
            played: tuple[int, State] | None = None
            if node.children is None:
                played = self._expand(node, world, decision)
                if node is not root and self.rollout:
                    leaf = self._roll_out(played[1], horizon, rng)
                    break
                if node is not root and not self.to_horizon:
                    leaf = played[1]
                    break
            i = self._select(node, world, decision, rng, keep if node is root else None)
            node = node.children[decision.options[i]]  # type: ignore[index]
            if played is not None and played[0] == i:
                world = played[1]  # the expansion has played this option already
            else:
                world.apply(i)
            path.append(node)
            leaf = world
        rewards = _rewards(leaf, seats)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s, r in rewards:
                totals[s] = totals.get(s, 0.0) + r

    def _roll_out(self, world: State, horizon: int, rng: Random) -> State:
        """Play on to the horizon, each step the best-scored of `rollout` sampled options."""
        while (decision := world.decision()) is not None and world.turn < horizon:
            count = len(decision.options)
            if count == 1:
                world.apply(0)
                continue
            seat = decision.seat
            tried = rng.sample(range(count), self.rollout) if count > self.rollout else range(count)
            best, best_value = world, -math.inf
            for i in tried:
                copy = world.clone()
                copy.apply(i)
                value = copy.evaluate(seat)
                if value > best_value:
                    best, best_value = copy, value
            world = best
        return world

    def _expand(self, node: Node, world: State, decision: Decision) -> tuple[int, State]:
        """Score every option of `node` for the deciding seat: the best one, and the position
        after it."""
        seat = decision.seat
        children: dict[object, Node] = {}
        best, best_world, best_value = 0, world, -math.inf
        for i, option in enumerate(decision.options):
            copy = world.clone()
            copy.apply(i)
            value = copy.evaluate(seat)
            children[option] = Node(prior=(value + 1.0) / 2.0)
            if value > best_value:
                best, best_world, best_value = i, copy, value
        node.children = children
        return best, best_world

    def _select(
        self, node: Node, world: State, decision: Decision, rng: Random, keep: object = None
    ) -> int:
        seat = decision.seat
        children = node.children
        assert children is not None
        scored: list[tuple[float, int, Node]] = []
        kept: tuple[float, int, Node] | None = None
        for i, option in enumerate(decision.options):
            child = children.get(option)
            if child is None:  # an option this world offers and earlier ones did not
                copy = world.clone()
                copy.apply(i)
                child = children[option] = Node(prior=(copy.evaluate(seat) + 1.0) / 2.0)
            scored.append((child.prior, -i, child))
            if keep is not None and option == keep:
                kept = scored[-1]
        if self.widening > 0:
            # progressive widening: the best-scored options first, more as visits grow
            width = math.ceil(self.widening * math.sqrt(node.visits + 1))
            if width < len(scored):
                offered = sorted(scored, key=lambda entry: entry[:2], reverse=True)[:width]
                if kept is not None and all(entry[2] is not kept[2] for entry in offered):
                    offered.append(kept)
                scored = offered
        best, best_value = 0, -math.inf
        for prior, negative_index, child in scored:
            child.available += 1
            if child.visits == 0:
                value = 2.0 + prior  # untried edges first, the best-scored first
            else:
                value = (
                    child.totals.get(seat, 0.0) / child.visits
                    + self.c * math.sqrt(math.log(child.available) / child.visits)
                    + self.bias * prior / (child.visits + 1)
                )
            value += rng.random() * 1e-9  # ties: the bot's own stream decides
            if value > best_value:
                best, best_value = -negative_index, value
        return best


def _rewards(leaf: State, seats: set[int]) -> list[tuple[int, float]]:
    """Each seat's reward in [0, 1] at the leaf: its final score once the game is over, else its
    evaluation of the position."""
    if leaf.decision() is None:
        scores = leaf.result().scores
        return [(s, scores[s]) for s in range(len(scores))]
    return [(s, (leaf.evaluate(s) + 1.0) / 2.0) for s in seats]
