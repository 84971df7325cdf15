"""arrows' position features (§10) and the evaluation behind `State.evaluate(seat)`."""

from __future__ import annotations

from balance.games.arrows.state import ArrowsState


def evaluate(s: ArrowsState, seat: int) -> float:
    if s.over:
        return 2.0 * s.result().scores[seat] - 1.0
    other = 1 - seat
    score = [0, 0]
    covered = [0, 0]
    for piece in s.pieces.values():
        if piece.face_up:
            score[piece.controller] += 1
        else:
            covered[piece.controller] += 1
    x = (score[seat] - score[other]) + 0.3 * (covered[seat] - covered[other])
    x += 0.02 * (s.credits[seat] - s.credits[other]) + 0.1 * (len(s.hands[seat]) - len(s.hands[other]))
    return x / (abs(x) + 3.0)
