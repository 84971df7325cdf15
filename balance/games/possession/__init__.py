"""possession: each player possesses a creature, and a ring of Wilds (one face down), a shared
Defender and its Support lie between them, all dealt from one shared deck; a turn is Draw, Play,
Action (Attack, Command, Soothe), Swap. Creatures whose damage reaches their Endure escape and are
replaced, a Defender's escape wins Glory, and one deterministic queue resolves every effect.
"""

from balance.core.contract import GameInfo
from balance.core.package import SHIPPED_CONFIGS, GamePackage

GAME = GamePackage(
    GameInfo(
        name="possession",
        min_seats=2,
        max_seats=4,
        rules_version="2",
        # mcts: four phases a turn and the glory decided in the reply: 2 turns, each line played out;
        # a play's prior is scored before its action and swap, so widening alone may never offer
        # the play greedy makes: the root always offers it (greedy_root)
        # greedy: the swap after each of the 9 actions, and the 9 actions after each play, are
        # alike: each is tried whole once, then one of each group of equal options (greedy.py)
        bot_defaults={
            "mcts": "iterations=80,bias=3,horizon=2,to_horizon=true,widening=1,greedy_root=true",
            "greedy": "share_width=1",
        },
    ),
    "balance.games.possession",
    SHIPPED_CONFIGS / "possession",
)
