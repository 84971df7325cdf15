"""tinyduel's state and rules: play a hidden card, reveal, highest value takes the round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from balance.core.contract import DRAWN, FIRST_COUNTER, OPENING, PLAYED, Decision, Event, Result
from tinyduel.cards import BOOST, DRAW, DuelSpec

ROUND_WON = FIRST_COUNTER + 0
HIDDEN = -1  # no card played yet this round


@dataclass(slots=True)
class Duel:
    spec: DuelSpec
    rng: Random
    decks: list[list[int]]  # per seat, top of the deck last
    hands: list[list[int]]
    played: list[int]  # per seat, this round's face-down card or HIDDEN
    boosts: list[int]  # per seat, value added to this round's card by effects
    discard: list[int]
    points: list[int]
    round: int
    to_play: int  # the seat whose turn it is; -1 once the game is over
    events: list[Event]

    # -- the contract ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Turns begun so far: each seat's play in a round is a turn."""
        seats = len(self.hands)
        if self.to_play < 0:  # over: every turn of the last round was played
            return self.round * seats
        return (self.round - 1) * seats + self.to_play + 1

    def decision(self) -> Decision | None:
        if self.to_play < 0:
            return None
        return Decision(self.to_play, "play", _distinct(self.hands[self.to_play]))

    def apply(self, option: int) -> None:
        seat = self.to_play
        card = _distinct(self.hands[seat])[option]
        play_card(self, seat, card)
        if seat + 1 < len(self.hands):
            self.to_play = seat + 1
        else:
            reveal(self)

    def result(self) -> Result:
        seats = len(self.points)
        best = max(self.points)
        leaders = [s for s in range(seats) if self.points[s] == best]
        reason = "points" if best >= self.spec.points_to_win else "rounds"
        stats = {"rounds": float(self.round)}
        return Result.shared(leaders, seats, reason, self.round, stats=stats)

    def clone(self) -> Duel:
        rng = Random()
        rng.setstate(self.rng.getstate())
        return Duel(
            spec=self.spec,
            rng=rng,
            decks=[list(d) for d in self.decks],
            hands=[list(h) for h in self.hands],
            played=list(self.played),
            boosts=list(self.boosts),
            discard=list(self.discard),
            points=list(self.points),
            round=self.round,
            to_play=self.to_play,
            events=list(self.events),
        )

    def determinize(self, seat: int, rng: Random) -> Duel:
        """Reshuffle what `seat` cannot see: its own deck order, and each opponent's deck, hand
        and face-down card together (their sizes kept)."""
        copy = self.clone()
        copy.rng = Random(rng.getrandbits(64))
        rng.shuffle(copy.decks[seat])
        for other in range(len(copy.hands)):
            if other == seat:
                continue
            has_played = copy.played[other] != HIDDEN
            pool = (
                copy.decks[other] + copy.hands[other] + ([copy.played[other]] if has_played else [])
            )
            rng.shuffle(pool)
            hand_size = len(copy.hands[other])
            copy.hands[other] = pool[:hand_size]
            rest = pool[hand_size:]
            if has_played:
                copy.played[other] = rest.pop()
            copy.decks[other] = rest
        return copy

    def evaluate(self, seat: int) -> float:
        if self.to_play < 0:
            return 2.0 * self.result().scores[seat] - 1.0
        best_other = max(p for s, p in enumerate(self.points) if s != seat)
        return max(-1.0, min(1.0, (self.points[seat] - best_other) / self.spec.points_to_win))

    def describe(self, option: int) -> str:
        card = _distinct(self.hands[self.to_play])[option]
        return f"play {self.spec.catalog.cards[card]}"

    def inventory(self) -> tuple[int, ...]:
        cards = [c for d in self.decks for c in d] + [c for h in self.hands for c in h]
        cards += [c for c in self.played if c != HIDDEN] + self.discard
        return tuple(sorted(cards))

    def public_summary(self) -> str:
        return public_line(self)


def public_line(duel: Duel) -> str:
    """Round, points, and per seat the sizes of its hand and deck and whether it has played."""
    seats = [
        f"seat {s}: {duel.points[s]} points, hand {len(duel.hands[s])}, deck {len(duel.decks[s])}"
        + (", played face down" if duel.played[s] != HIDDEN else "")
        for s in range(len(duel.hands))
    ]
    return f"round {duel.round}; " + "; ".join(seats)


def new_duel(spec: DuelSpec, lineup: Sequence[str], seed: int) -> Duel:
    rng = Random(seed)
    decks = []
    for deck_name in lineup:
        deck = [
            card for card, copies in spec.catalog.decks[deck_name].items() for _ in range(copies)
        ]
        rng.shuffle(deck)
        decks.append(deck)
    seats = len(lineup)
    duel = Duel(
        spec=spec,
        rng=rng,
        decks=decks,
        hands=[[] for _ in range(seats)],
        played=[HIDDEN] * seats,
        boosts=[0] * seats,
        discard=[],
        points=[0] * seats,
        round=1,
        to_play=0,
        events=[],
    )
    for seat in range(seats):
        for _ in range(spec.hand_size):
            card = duel.decks[seat].pop()
            duel.hands[seat].append(card)
            duel.events.append((0, seat, card, OPENING, 1))
    return duel


def play_card(duel: Duel, seat: int, card: int) -> None:
    duel.hands[seat].remove(card)
    duel.played[seat] = card
    duel.events.append((duel.round, seat, card, PLAYED, 1))
    for op, n, only_if_behind in duel.spec.on_play[card]:
        if only_if_behind and duel.points[seat] >= max(duel.points):
            continue
        if op == DRAW:
            for _ in range(n):
                draw(duel, seat)
        elif op == BOOST:
            duel.boosts[seat] += n


def reveal(duel: Duel) -> None:
    """All cards are down: the highest value takes the round (a tie takes nothing)."""
    spec = duel.spec
    values = [spec.values[card] + duel.boosts[seat] for seat, card in enumerate(duel.played)]
    values[0] += spec.seat0_bonus
    best = max(values)
    leaders = [seat for seat, value in enumerate(values) if value == best]
    if len(leaders) == 1:
        winner = leaders[0]
        duel.points[winner] += 1
        duel.events.append((duel.round, winner, duel.played[winner], ROUND_WON, 1))
    duel.discard.extend(duel.played)
    duel.played = [HIDDEN] * len(duel.played)
    duel.boosts = [0] * len(duel.boosts)
    if max(duel.points) >= spec.points_to_win or duel.round >= spec.max_rounds:
        duel.to_play = -1
        return
    duel.round += 1
    for seat in range(len(duel.hands)):
        draw(duel, seat)
    duel.to_play = 0


def draw(duel: Duel, seat: int) -> None:
    if duel.decks[seat]:
        card = duel.decks[seat].pop()
        duel.hands[seat].append(card)
        duel.events.append((duel.round, seat, card, DRAWN, 1))


def _distinct(hand: list[int]) -> tuple[int, ...]:
    """The hand's cards, each id once, in hand order: two copies are one choice."""
    return tuple(dict.fromkeys(hand))
