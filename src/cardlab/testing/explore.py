"""The rare-crash hunt (check **explore**): a coverage-guided action sampler.

Uniform random play reaches a branch that needs several unlikely choices in a
row (every seat passing in the first round, a sabotage right after a pass...)
once in hundreds of games. The explorer keeps a count of every kind of action
it has taken, keyed by the decision kind and the label's shape (digits folded:
``lay tc07`` and ``lay tc12`` are one shape), and at each decision takes the
least-taken shape among the legal ones with probability `GREED` (ties broken at
random), otherwise a uniform choice. So the rare choices (a pass among many
cards, an option's decision) get taken as often as the common ones, and the
positions behind them are reached within seconds. Every state gets the cheap
checks (labels, decision kinds) and every `FULL_EVERY`-th one the full
per-state check; anything the game raises is a failure under the name of the
check that was running ("explore" while it plays), with the game's seed and
the actions that reproduce it."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from dataclasses import dataclass

from cardlab.core import Game, GameState
from cardlab.testing.checks import (
    all_ids,
    check_decision_kind,
    check_end,
    check_labels,
    check_state,
    expect,
    play_checked,
)
from cardlab.testing.failures import checking, replaying
from cardlab.testing.redeal import RedealStats

GREED = 0.5
"""Share of decisions that take the least-taken shape instead of a uniform pick."""
FULL_EVERY = 7
"""Every this-many decisions of an explored game get the full per-state check."""
_DIGITS = re.compile(r"\d+")


@dataclass
class ExploreStats:
    games: int = 0
    decisions: int = 0
    shapes: int = 0
    """Distinct (decision kind, label shape) pairs taken."""


def shape(state: GameState, action: int) -> tuple[str, str]:
    return state.decision_kind(), _DIGITS.sub("#", state.action_to_string(action))


def explore(
    game: Game,
    *,
    seconds: float,
    seed: int,
    max_decisions: int,
    stats: RedealStats | None = None,
    kinds: frozenset[str] | None = None,
    min_games: int = 1,
) -> ExploreStats:
    """Play coverage-guided games for about `seconds` (at least `min_games`), seeds
    ``seed * 100_003 + 50_000 + i``, checking as described above."""
    rng = random.Random(seed * 31 + 17)
    taken: Counter[tuple[str, str]] = Counter()
    out = ExploreStats()
    deadline = time.monotonic() + seconds
    while out.games < min_games or time.monotonic() < deadline:
        game_seed = seed * 100_003 + 50_000 + out.games
        if stats is not None:
            stats.seed = game_seed
        out.decisions += _one_game(game, game_seed, rng, taken, max_decisions, stats, kinds)
        out.games += 1
    out.shapes = len(taken)
    return out


def _one_game(
    game: Game,
    seed: int,
    rng: random.Random,
    taken: Counter[tuple[str, str]],
    max_decisions: int,
    stats: RedealStats | None,
    kinds: frozenset[str] | None,
) -> int:
    trail: list[int] = []
    with replaying(game, seed, trail), checking("explore"):
        state = game.new_initial_state(seed)
        expected = all_ids(state)
        while not state.is_terminal():
            if len(trail) % FULL_EVERY == FULL_EVERY - 1:
                check_state(state, rng, expected, stats, kinds)
            with checking("labels"):
                check_labels(state)
            with checking("decision_kinds"):
                check_decision_kind(state, kinds)
            legal = state.legal_actions()
            shapes = [shape(state, a) for a in legal]
            if rng.random() < GREED:
                least = min(taken[s] for s in shapes)
                pick = rng.choice([i for i, s in enumerate(shapes) if taken[s] == least])
            else:
                pick = rng.randrange(len(legal))
            taken[shapes[pick]] += 1
            trail.append(legal[pick])
            play_checked(state, trail[-1], "explore")
            with checking("ends"):
                expect(
                    len(trail) <= max_decisions,
                    f"game did not end within {max_decisions} decisions",
                )
        check_end(state, expected)
    return len(trail)
