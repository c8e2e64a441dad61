"""Per-game personas: bots with distinct, documented strategies.

They live in each game's own package (`GameInfo.personas`, by default
``<package>.personas``), the shipped games exactly as a plugin; each module
registers its kinds with `register_agent`. Importing this package loads every
registered game's personas (`cardlab.agents.base.load_personas`)."""

from cardlab.agents.base import load_personas

load_personas()
