"""Players that are programs. Every agent has `step(state) -> action` and its
own seeded generator; `play_game` hands each agent a view of the game
redealt from what its seat knows, never the true state."""

from cardlab.agents import (
    parallel,  # noqa: F401  (the ismcts kind with `workers=N`)
    personas,  # noqa: F401  (registers the personas)
)
from cardlab.agents.base import (
    Agent,
    agent_kinds,
    agent_parameters,
    describe_parameters,
    kinds_for_game,
    make_agent,
    register_agent,
)
from cardlab.agents.ismcts import ISMCTSAgent
from cardlab.agents.play import GameResult, agent_view, play_game
from cardlab.agents.spec import AgentSpec, parse_agent_list, parse_agent_spec

__all__ = [
    "Agent",
    "AgentSpec",
    "GameResult",
    "ISMCTSAgent",
    "agent_kinds",
    "kinds_for_game",
    "agent_parameters",
    "agent_view",
    "describe_parameters",
    "make_agent",
    "parse_agent_list",
    "parse_agent_spec",
    "play_game",
    "register_agent",
]
