"""The games that ship with cardlab, one package each, registered by entry point
exactly as a third-party game is. The registry itself is `cardlab.core.registry`;
this re-exports it so ``from cardlab.games import load_game`` keeps working."""

from cardlab.core.registry import (  # noqa: F401  (_REGISTERED: tests register games in-process)
    _REGISTERED,
    ENTRY_POINT_GROUP,
    UnknownGameError,
    all_infos,
    game_class,
    game_info,
    game_module,
    list_games,
    load_game,
    packaged_variants,
    rediscover,
    register_game,
    render_module,
    resolve_variant,
    unregister_game,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "UnknownGameError",
    "all_infos",
    "game_class",
    "game_info",
    "game_module",
    "list_games",
    "load_game",
    "packaged_variants",
    "register_game",
    "rediscover",
    "render_module",
    "resolve_variant",
    "unregister_game",
]
