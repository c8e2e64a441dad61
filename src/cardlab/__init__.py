"""cardlab: play and playtest new card games."""

from cardlab.core import (
    CardDataError,
    CardlabError,
    Game,
    GameState,
    IllegalActionError,
    OptionError,
    PlayerCountError,
)
from cardlab.games import UnknownGameError, list_games, load_game

__all__ = [
    "CardDataError",
    "CardlabError",
    "Game",
    "GameState",
    "IllegalActionError",
    "OptionError",
    "PlayerCountError",
    "UnknownGameError",
    "list_games",
    "load_game",
    "make_agent",
    "play_game",
]


def __getattr__(name: str) -> object:
    # Agents sit above the games; import them lazily so `import cardlab` stays light.
    if name in ("make_agent", "play_game"):
        from cardlab import agents

        return getattr(agents, name)
    raise AttributeError(name)
