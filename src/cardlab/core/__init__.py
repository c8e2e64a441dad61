"""The shared core: the game API every game implements, option and card-file
handling, and the generic benchmark. The core never imports a game."""

from cardlab.core.contract import (
    TieBreak,
    action_index,
    break_ties,
    illegal_action_message,
)
from cardlab.core.errors import (
    CardDataError,
    CardlabError,
    IllegalActionError,
    OptionError,
    PlayerCountError,
)
from cardlab.core.game import Game, GameState
from cardlab.core.moves import Move
from cardlab.core.options import OptionSpec, resolve_options

__all__ = [
    "CardDataError",
    "CardlabError",
    "Game",
    "GameState",
    "IllegalActionError",
    "Move",
    "OptionError",
    "OptionSpec",
    "PlayerCountError",
    "TieBreak",
    "action_index",
    "break_ties",
    "illegal_action_message",
    "resolve_options",
]
