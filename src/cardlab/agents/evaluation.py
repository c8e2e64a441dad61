"""Rewards in [0, 1] for every seat, for search: UCB's exploration constant `c`
only means the same thing across games and player counts if rewards share a scale.

- A finished game: 1 for the winner (after the tie-break chain), 0 for the
  others, blended with a little of the score share below so a search that
  cannot win still prefers to lose by less.
- A game cut off early: a soft-max over the seats' `heuristic_value`, a
  stand-in for "probability that this seat wins": the shares sum to 1 and
  equal positions give every seat 1/n, the fair share.
"""

from __future__ import annotations

import math

from cardlab.core import GameState

DEFAULT_EVAL_SCALE = 3.0
"""Points of heuristic lead that multiply a seat's share by e (about 2.7)."""

TERMINAL_MARGIN_WEIGHT = 0.1
"""How much of a finished game's reward comes from the score share, not the win."""


def eval_scale_for(state: GameState) -> float:
    """A game may set `eval_scale` on its Game class when its points run larger."""
    return float(getattr(state.game, "eval_scale", DEFAULT_EVAL_SCALE))


def heuristic_values(state: GameState) -> list[float]:
    """Every seat's `heuristic_value`.

    A game may define `heuristic_values()` returning all seats at once: most
    evaluations compare every seat, so seat by seat costs n times the work."""
    all_at_once = getattr(state, "heuristic_values", None)
    if all_at_once is not None:
        return list(all_at_once())
    return [state.heuristic_value(p) for p in range(state.game.num_players)]


def score_shares(state: GameState, scale: float) -> list[float]:
    """Soft-max of each seat's `heuristic_value` divided by `scale`."""
    values = [v / scale for v in heuristic_values(state)]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def rewards(state: GameState, scale: float) -> list[float]:
    """Per-seat reward in [0, 1] of a finished or cut-off game."""
    return blend_with_winners(state, score_shares(state, scale))


def blend_with_winners(state: GameState, shares: list[float]) -> list[float]:
    """The score shares of a cut-off game as they are; of a finished one, mostly who
    won, with `TERMINAL_MARGIN_WEIGHT` of the shares kept as the margin."""
    if not state.is_terminal():
        return shares
    winners = state.winners()
    keep = 1.0 - TERMINAL_MARGIN_WEIGHT
    return [
        keep * (1.0 if p in winners else 0.0) + TERMINAL_MARGIN_WEIGHT * share
        for p, share in enumerate(shares)
    ]
