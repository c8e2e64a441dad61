"""A frozen copy of cardlab's ISMCTS as it was before the speed work
(commit 40a59ed), kept as the reference the fast search must match decision for
decision, visit for visit, on the same seed. Not registered as an agent kind.

The original module docstring follows.

Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012).

One tree for the deciding seat. Each iteration redeals what that seat cannot
see (`resample_from_infostate`, from the agent's own generator), walks the tree
with only the actions legal in that redeal, expands one node, plays a short
rollout and scores it with `evaluation.rewards`.

- Nodes are keyed by (acting seat, action), so sub-decisions taken out of turn
  (bids, placements, simultaneous picks) are ordinary nodes of whoever acts.
- A node's statistics are from the perspective of the seat that acted into it,
  so every seat maximises its own reward: this works for any player count.
- UCB uses availability counts (how often the action was legal when its parent
  was visited) instead of the parent's visits, as the paper prescribes, since
  an action is not available in every determinisation.
- Means are normalised per seat to the range of rewards that seat has seen in
  this search (as MuZero normalises values), so `c` keeps its meaning when a
  seat's rewards are all small, e.g. far behind in a 4-player game.

`iterations` is the deterministic mode and the default (1,000); `time_ms`
stops on the wall clock, so the same seed may choose differently run to run.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from cardlab.agents.base import Agent, make_agent
from cardlab.agents.evaluation import eval_scale_for, rewards
from cardlab.core import GameState
from cardlab.core.errors import CardlabError

DEFAULT_ITERATIONS = 1000


class Node:
    """Statistics of one edge: the action that led here, from its actor's view."""

    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}


@dataclass
class SearchStats:
    """What the last `step` did, for the benchmark and for curious tests."""

    iterations: int = 0
    seconds: float = 0.0
    visits: dict[int, int] = field(default_factory=dict)
    values: dict[int, float] = field(default_factory=dict)


class ReferenceISMCTS(Agent):
    """Information-set MCTS; see the module docstring for the design."""

    kind = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        rollout: str = "random",
        rollout_depth: int | None = 12,
        eval_scale: float | None = None,
        normalise: bool = True,
    ) -> None:
        super().__init__(seed)
        if iterations is None and time_ms is None:
            iterations = DEFAULT_ITERATIONS
        _check_positive("iterations", iterations, int)
        _check_positive("time_ms", time_ms, (int, float))
        _check_positive("c", c, (int, float), allow_zero=True)
        _check_positive("rollout_depth", rollout_depth, int, allow_zero=True)
        _check_positive("eval_scale", eval_scale, (int, float))
        self.iterations = iterations
        self.time_ms = time_ms
        self.c = float(c)
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.eval_scale = eval_scale
        if not isinstance(normalise, bool):
            raise CardlabError(f"ismcts: normalise must be true or false, not {normalise!r}")
        self.normalise = normalise
        self._low: list[float] = []
        self._high: list[float] = []
        self.policy: Agent | None = None
        if rollout != "random":
            if rollout == "ismcts":
                raise CardlabError("ismcts: rollout cannot be 'ismcts' (it would never end)")
            try:
                self.policy = make_agent(rollout, seed=self.rng.getrandbits(32))
            except CardlabError as exc:
                raise CardlabError(f"ismcts: bad rollout policy {rollout!r}: {exc}") from None
        self.last_search = SearchStats()

    # -- the search ---------------------------------------------------------------
    def step(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = SearchStats(0, 0.0, {legal[0]: 0}, {})
            return legal[0]
        me = state.current_player()
        width = state.game.num_distinct_actions
        scale = self.eval_scale or eval_scale_for(state)
        root = Node()
        players = state.game.num_players
        self._low, self._high = [math.inf] * players, [-math.inf] * players
        start = time.perf_counter()
        deadline = None if self.time_ms is None else start + self.time_ms / 1000.0
        limit = self.iterations
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(state, me, root, width, scale)
            done += 1
        return self._choose(root, legal, me * width, done, time.perf_counter() - start)

    def _iterate(self, view: GameState, me: int, root: Node, width: int, scale: float) -> None:
        rng = self.rng
        state = view.resample_from_infostate(me, rng.getrandbits(63))
        node = root
        path: list[tuple[Node, int]] = []
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            if not legal:
                break  # an engine bug (no move before the end): score what we have
            child, action, expanded = self._select(node, legal, player * width, player)
            state.apply_action(action)
            path.append((child, player))
            if expanded:
                break
            node = child
        self._rollout(state)
        result = rewards(state, scale)
        for child, player in path:
            child.visits += 1
            child.total += result[player]
        low, high = self._low, self._high
        for player, value in enumerate(result):
            if value < low[player]:
                low[player] = value
            if value > high[player]:
                high[player] = value

    def _select(
        self, node: Node, legal: list[int], base: int, player: int
    ) -> tuple[Node, int, bool]:
        """UCB over the children legal here; an untried legal action is expanded first.

        With `normalise`, a mean counts by where it lies between the lowest and
        highest reward `player` got in this search so far: a seat far behind
        sees rewards that differ by hundredths, which `c` would otherwise swamp."""
        children = node.children
        low, inv = 0.0, 1.0
        if self.normalise:
            span = self._high[player] - self._low[player]
            if span > 1e-9:
                low, inv = self._low[player], 1.0 / span
        untried: list[int] = []
        best: Node | None = None
        best_action = -1
        best_value = -1.0
        c = self.c
        log = math.log
        sqrt = math.sqrt
        for action in legal:
            child = children.get(base + action)
            if child is None:
                untried.append(action)
                continue
            child.avail += 1
            if not untried:
                visits = child.visits
                mean = (child.total / visits - low) * inv
                value = mean + c * sqrt(log(child.avail) / visits)
                if value > best_value:
                    best, best_action, best_value = child, action, value
        if untried:
            action = untried[self.rng.randrange(len(untried))]
            child = Node()
            children[base + action] = child
            return child, action, True
        assert best is not None
        return best, best_action, False

    def _rollout(self, state: GameState) -> None:
        """Play on for `rollout_depth` decisions (None: to the end) with the policy."""
        depth = self.rollout_depth
        rand = self.rng.random  # int(rand() * n) is several times cheaper than randrange(n)
        policy = self.policy
        played = 0
        while not state.is_terminal() and (depth is None or played < depth):
            if policy is None:
                legal = state.legal_actions()
                if not legal:
                    break  # an engine bug (no move before the end): score what we have
                state.apply_action(legal[int(rand() * len(legal))])
            else:
                state.apply_action(policy.step(state))
            played += 1

    def _choose(self, root: Node, legal: list[int], base: int, done: int, seconds: float) -> int:
        """The most visited root action (ties: the better mean, then the first legal)."""
        stats = SearchStats(done, seconds)
        best_action, best_key = legal[0], (-1, -1.0)
        for action in legal:
            child = root.children.get(base + action)
            visits = child.visits if child else 0
            mean = child.total / visits if child and visits else 0.0
            stats.visits[action] = visits
            stats.values[action] = mean
            if (visits, mean) > best_key:
                best_action, best_key = action, (visits, mean)
        self.last_search = stats
        return best_action


def _check_positive(
    name: str, value: object, types: type | tuple[type, ...], allow_zero: bool = False
) -> None:
    if value is None:
        return
    bad_type = isinstance(value, bool) or not isinstance(value, types)
    if bad_type or value < 0 or (value == 0 and not allow_zero):  # type: ignore[operator]
        kind = "a whole number" if types is int else "a number"
        bound = ">= 0" if allow_zero else "> 0"
        raise CardlabError(f"ismcts: {name} must be {kind} {bound}, not {value!r}")
