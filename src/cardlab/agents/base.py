"""Agent base class, the kind registry and the two simplest agents."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

from cardlab.core import GameState
from cardlab.core.errors import CardlabError

AgentFactory = Callable[..., "Agent"]
_KINDS: dict[str, AgentFactory] = {}


class Agent:
    """Chooses an action for `state.current_player()`. Draws only from `self.rng`.

    `step` is handed a view of the game redealt from its seat's information
    (see `play.agent_view`), so an agent cannot peek whatever it does with it: its
    `history()` too is the seat's own view of the game (secret choices of other seats
    as the redeal has them)."""

    kind = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        """Play from now on exactly as this agent made afresh with `seed` would.

        Environments that are handed ready agent objects call this on
        ``reset(seed)`` so an episode is reproducible. An agent with more seeded
        state than `rng` (a rollout policy, say) overrides it."""
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


def load_personas() -> dict[str, str]:
    """Import every registered game's personas module (`GameInfo.personas`), so
    its kinds are registered; returns {module name: game}. Cheap after the first
    call (the modules are imported once); a game registered later in the process
    (`register_game`) is picked up by the next call."""
    from cardlab.core.registry import all_infos

    owners: dict[str, str] = {}
    for info in all_infos():
        module = info.module("personas")
        if module is not None:
            owners[module.__name__] = info.name
    return owners


def agent_kinds() -> list[str]:
    load_personas()
    return sorted(_KINDS)


def kinds_for_game(game: str) -> list[str]:
    """Kinds that can play `game`: the generic ones and that game's personas.

    A persona is a kind registered by a game's personas module (`GameInfo.personas`);
    another game's personas do not know its actions."""
    owners = load_personas()
    out = []
    for kind, factory in _KINDS.items():
        owner = owners.get(getattr(factory, "__module__", ""))
        if owner is None or owner == game:
            out.append(kind)
    return sorted(out)


def agent_parameters(kind: str) -> dict[str, Any] | None:
    """The keyword parameters (name -> default) a kind accepts besides `seed`.

    None means the factory takes any keyword (it validates them itself)."""
    factory = _KINDS[kind]
    params: dict[str, Any] = {}
    for name, param in inspect.signature(factory).parameters.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if name == "seed" or param.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        params[name] = None if param.default is inspect.Parameter.empty else param.default
    return params


def describe_parameters(kind: str) -> str:
    """`iterations=None, c=0.7` or `none`: for error messages and `--help` texts."""
    params = agent_parameters(kind)
    if params is None:
        return "any (validated by the agent)"
    return ", ".join(f"{k}={v!r}" for k, v in params.items()) or "none"


def make_agent(kind: str, seed: int = 0, **params: Any) -> Agent:
    """`make_agent("ismcts", seed=3, iterations=300)`.

    An unknown kind or parameter raises a ValueError (CardlabError) that lists
    the kinds or that kind's parameters, so a typo is fixed from the message."""
    factory = _KINDS.get(kind)
    if factory is None:
        load_personas()
        factory = _KINDS.get(kind)
    if factory is None:
        raise CardlabError(f"unknown agent kind {kind!r}; kinds: {', '.join(agent_kinds())}")
    allowed = agent_parameters(kind)
    if allowed is not None:
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise CardlabError(
                f"bad parameter for agent {kind!r}: no parameter "
                f"{', '.join(map(repr, unknown))}; its parameters: {describe_parameters(kind)}"
            )
    try:
        return factory(seed=seed, **params)
    except (TypeError, CardlabError) as exc:
        raise CardlabError(
            f"bad parameter for agent {kind!r}: {exc}; its parameters: {describe_parameters(kind)}"
        ) from None


@register_agent("random")
class RandomAgent(Agent):
    """Uniform over the legal actions: the floor every other bot must beat."""

    kind = "random"

    def step(self, state: GameState) -> int:
        return self.rng.choice(state.legal_actions())


@register_agent("greedy")
class GreedyAgent(Agent):
    """One-step lookahead: the action whose result the game's heuristic likes best.

    Ties are broken by the agent's own generator, so two greedy seats differ.
    It looks ahead in its own redeal of the view: an action that draws a hidden
    card then draws from a deck ordered by the agent's generator, so the choice
    depends on what the seat knows and the agent's seed only."""

    kind = "greedy"

    def step(self, state: GameState) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        state = state.resample_from_infostate(me, self.rng.getrandbits(63))
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
