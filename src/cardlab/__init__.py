"""cardlab: play and playtest new card games."""

# First, before any engine module loads: compiled engines when a fresh build exists,
# the plain source otherwise or with CARDLAB_PURE=1 (cardlab/_compiled.py says why).
from cardlab import _compiled

_compiled.install()

from cardlab.core import (  # noqa: E402
    CardDataError,
    CardlabError,
    Game,
    GameState,
    IllegalActionError,
    OptionError,
    PlayerCountError,
)
from cardlab.games import UnknownGameError, list_games, load_game  # noqa: E402

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
