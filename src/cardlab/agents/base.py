"""Agent base class, the kind registry and the two simplest agents."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardlab.core import GameState
from cardlab.core.errors import CardlabError

AgentFactory = Callable[..., "Agent"]
_KINDS: dict[str, AgentFactory] = {}


class Agent:
    """Chooses an action for `state.current_player()`. Draws only from `self.rng`."""

    kind = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def step(self, state: GameState) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.kind} seed={self.seed}>"


def register_agent(kind: str) -> Callable[[AgentFactory], AgentFactory]:
    def wrap(factory: AgentFactory) -> AgentFactory:
        _KINDS[kind] = factory
        return factory

    return wrap


def agent_kinds() -> list[str]:
    return sorted(_KINDS)


def make_agent(kind: str, seed: int = 0, **params: Any) -> Agent:
    """`make_agent("greedy", seed=3)`; unknown kinds or parameters raise ValueError."""
    factory = _KINDS.get(kind)
    if factory is None:
        raise CardlabError(f"unknown agent kind {kind!r}; kinds: {', '.join(agent_kinds())}")
    try:
        return factory(seed=seed, **params)
    except TypeError as exc:
        raise CardlabError(f"bad parameter for agent {kind!r}: {exc}") from None


@register_agent("random")
class RandomAgent(Agent):
    """Uniform over the legal actions."""

    kind = "random"

    def step(self, state: GameState) -> int:
        return self.rng.choice(state.legal_actions())


@register_agent("greedy")
class GreedyAgent(Agent):
    """One-step lookahead: the action whose result the game's heuristic likes best.

    Ties are broken by the agent's own generator, so two greedy seats differ."""

    kind = "greedy"

    def step(self, state: GameState) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        best: list[int] = []
        best_value = float("-inf")
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            value = child.heuristic_value(me)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value >= best_value - 1e-9:
                best.append(action)
        return self.rng.choice(best)
