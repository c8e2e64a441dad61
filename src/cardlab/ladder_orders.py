"""A ladder whose seating order changes from deal to deal, not only its rotation.

`cardlab.ladder` rotates the pool through the seats, so every agent takes every seat
equally often, but a rotation keeps the pool's cyclic order: with `ismcts,greedy,random`
at 4 seats greedy always sits just before random. That matters wherever a neighbour
does. In RUNWAY the seat with the least Reputation pitches last (the catch-up rule),
usually the random bot, so the seat before it pitches with the most information, and in
the rotated ladder that seat was always greedy's: greedy won 45% of its seats against
two ISMCTS at 300 iterations, and 22% when the pool was listed `ismcts,random,greedy`
(60 games each, seed 1).

Here deal `d` seats the pool in the `d`-th of its cyclic orders (the first entry fixed,
the others permuted: (size - 1)! orders, taken in turn), then plays every rotation of
that order as the ladder does: each agent still takes each seat equally often in every
block, and over a multiple of (size - 1)! deals each agent has each other one as its
neighbour on either side equally often. Deal seeds, agent seeds and the table are the
ladder's (`deal_seeds`, `play_rotation`, `tabulate`), so a pool of one order is the
plain ladder game for game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

from cardlab.agents import AgentSpec, parse_agent_spec
from cardlab.agents.spec import check_agent_specs
from cardlab.core import CardlabError, Game
from cardlab.core.registry import load_game
from cardlab.ladder import (
    LadderTable,
    block_size,
    deal_seeds,
    distinct_agents,
    play_rotation,
    seat_pool,
    tabulate,
)


def cyclic_orders(size: int) -> list[tuple[int, ...]]:
    """Every cyclic order of `size` pool entries once: entry 0 first, the rest permuted."""
    return [(0, *rest) for rest in permutations(range(1, size))]


def run_mixed_ladder(
    game: str | Game,
    agents: Sequence[str | AgentSpec],
    players: int | None = None,
    games: int = 100,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LadderTable:
    """`cardlab.ladder.run_ladder` with the pool's cyclic order changed every deal."""
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    if not specs:
        raise CardlabError("a ladder needs at least one agent")
    check_agent_specs(specs)
    distinct, _ = distinct_agents(specs)
    g = game if isinstance(game, Game) else load_game(game, players=players, **(options or {}))
    n = g.num_players
    pool = seat_pool(len(specs), n)  # agent index per pool entry
    size = block_size(len(specs), n)
    orders = cyclic_orders(len(pool))
    deals = max(1, math.ceil(games / size))
    total = deals * size
    results: list[dict[str, Any]] = []
    for deal, deal_seed in enumerate(deal_seeds(seed, deals)):
        order = orders[deal % len(orders)]
        # the pool in this deal's order, as specs (play_rotation seats and seeds by entry)
        seated = [specs[pool[i]] for i in order]
        for rotation in range(size):
            result = play_rotation(g, seated, seed, deal, deal_seed, rotation)
            # play_rotation numbers agents by their first place in `seated`: back to rows
            local, _ = distinct_agents(seated)
            result["seat_agents"] = [distinct.index(local[a]) for a in result["seat_agents"]]
            results.append(result)
            if progress is not None:
                progress(len(results), total)
    return tabulate(g.name, n, seed, [spec.label for spec in distinct], results)
