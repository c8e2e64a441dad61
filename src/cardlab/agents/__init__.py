"""Players that are programs. Every agent has `step(state) -> action` and its
own seeded generator; `play_game` hands each agent a view of the game
redealt from what its seat knows, never the true state."""

from cardlab.agents.base import Agent, make_agent, register_agent
from cardlab.agents.play import GameResult, agent_view, play_game
from cardlab.agents import personas  # noqa: F401  (registers the personas)

__all__ = ["Agent", "GameResult", "agent_view", "make_agent", "play_game", "register_agent"]
