"""The game registry: every game is found through the ``cardlab.games``
entry-point group, where its package registers one `GameInfo`
(``uptime = "cardlab.games.uptime.rules:GAME_INFO"``). The three games that
ship with cardlab register the same way as any third-party game, so nothing
here (or anywhere outside a game's own package) lists games by name.

It lives in the core so the lab, adapters, art and bots find games without
importing upward into `cardlab.games` (whose ``__init__`` re-exports this for
older code); a game's package is imported only through its entry point."""

from __future__ import annotations

import functools
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.game import Game
from cardlab.core.plugin import GameInfo
from cardlab.core.variants import Variant

ENTRY_POINT_GROUP = "cardlab.games"


class UnknownGameError(CardlabError):
    """A game name cardlab does not know."""


@functools.cache
def _discover() -> dict[str, GameInfo]:
    found: dict[str, GameInfo] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        info = ep.load()
        if not isinstance(info, GameInfo):
            raise CardlabError(
                f"entry point {ep.name} = {ep.value!r} in group {ENTRY_POINT_GROUP!r} "
                f"is a {type(info).__name__}, not a cardlab GameInfo"
            )
        if info.name != ep.name:
            raise CardlabError(f"entry point {ep.name!r} registers a game named {info.name!r}")
        _check(info)
        found.setdefault(info.name, info)
    return found


def _check(info: GameInfo) -> None:
    try:
        info.check_game_class()
    except ValueError as err:
        raise CardlabError(str(err)) from None


_REGISTERED: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> None:
    """Register a game in this process without installing it (tests, notebooks),
    as OpenSpiel's `register_game`. Installed games use the entry point."""
    _check(info)
    _REGISTERED[info.name] = info


def unregister_game(name: str) -> None:
    _REGISTERED.pop(name, None)


def _games() -> dict[str, GameInfo]:
    return {**_discover(), **_REGISTERED}


def rediscover() -> None:
    """Forget the cached registry (after installing a game in a running process)."""
    _discover.cache_clear()


def list_games() -> list[str]:
    """Names of the games this installation provides."""
    return list(_games())


def all_infos() -> list[GameInfo]:
    return list(_games().values())


def game_info(name: str) -> GameInfo:
    games = _games()
    if name not in games:
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(games)}")
    return games[name]


def game_module(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(game_info(name).package)


def game_class(name: str) -> type[Game]:
    return game_info(name).game_class()


def load_game(
    name: str,
    players: int | None = None,
    cards: str | Path | None = None,
    variant: Variant | str | Path | None = None,
    **options: Any,
) -> Game:
    """Make a game: `load_game("uptime", players=4, patch_cost=0)`; `variant` is a
    `Variant`, a variant file's path or the name of a variant the game ships."""
    info = game_info(name)
    cls = info.game_class()
    if players is None:
        players = info.default_players
    if variant is not None and not isinstance(variant, Variant):
        variant = resolve_variant(name, variant)
    return cls(players, cards=cards, variant=variant, **options)


def render_module(name: str) -> ModuleType:
    module = game_info(name).module("render")
    if module is None:
        raise CardlabError(f"game {name!r} has no render module")
    return module


def packaged_variants(name: str) -> dict[str, Path]:
    """The variants a game ships (``<package>/variants/*.toml``), by name."""
    folder = game_info(name).variants_dir()
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.toml"))}


def resolve_variant(name: str, ref: str | Path) -> Variant:
    """A variant of game `name` from a file path, or by the name of one it ships."""
    from cardlab.core.variants import VariantError, load_variant

    shipped = packaged_variants(name)
    text = str(ref)
    if text in shipped:
        return load_variant(shipped[text], game_info(name))
    path = Path(ref)
    if not path.exists() and not text.endswith(".toml"):
        known = ", ".join(shipped) or "none"
        raise VariantError(
            f"{name} has no packaged variant {text!r} (packaged: {known}); or give a .toml path"
        )
    return load_variant(path, game_info(name))
