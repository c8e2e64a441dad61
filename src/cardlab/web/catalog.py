"""Which games and bots the server offers, described for the lobby as JSON.

The server asks this catalog rather than the registry directly so tests can
serve a small toy game while the real engines are still being written."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cardlab.core import Game
from cardlab.core.errors import CardlabError
from cardlab.core.registry import game_class, game_info, list_games

ISMCTS_STRENGTHS = {"quick": 100, "solid": 400, "strong": 1500}
"""ISMCTS strength choices offered at a table, as iterations per decision."""


class Catalog:
    """Game classes by name plus the agent kinds a seat may be given."""

    def __init__(self, games: dict[str, type[Game]] | None = None) -> None:
        self.games = games if games is not None else installed_games()

    def names(self) -> list[str]:
        return list(self.games)

    def game_class(self, name: Any) -> type[Game]:
        if not isinstance(name, str) or name not in self.games:
            raise CardlabError(
                f"unknown game {name!r}; games: {', '.join(self.games) or 'none yet'}"
            )
        return self.games[name]

    def load(self, name: str, players: int, options: dict[str, Any]) -> Game:
        return self.game_class(name)(players, **options)

    def describe(self, name: str) -> dict[str, Any]:
        from cardlab.core.plugin import lowest_wins
        from cardlab.web.lobby import option_words

        cls = self.game_class(name)
        about = option_words(name)
        return {
            "name": name,
            "title": getattr(cls, "title", name),
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "default_players": getattr(cls, "default_players", cls.min_players),
            "options": [
                {
                    "name": spec.name,
                    "allowed": list(spec.allowed),
                    **option_values(spec),
                    "default": spec.default,
                    "doc": spec.doc,
                    "ruling": spec.ruling,
                }
                | lever_fields(spec)
                # the option as the game's player rules explain it, when they do
                | ({"about": about[spec.name]} if spec.name in about else {})
                for spec in cls.option_specs
            ],
            "bots": bot_kinds_for(name),
            "box_minutes": box_minutes(name),
            "score_direction": "lowest" if lowest_wins(name) else "highest",
        }


def box_minutes(name: str) -> dict[str, list[float]]:
    """How long a game lasts by player count, as the box says (`GameInfo.box_minutes`);
    empty for a game the registry does not know (a test's toy catalog)."""
    try:
        return {str(n): list(r) for n, r in game_info(name).box_minutes.items()}
    except Exception:
        return {}


def option_values(spec: Any) -> dict[str, Any]:
    """What a table request may give an option: `type` ("boolean", "integer" or
    "string"), its `grid` (the listed values, the default first; the same as
    `allowed`) and its `range` ([low, high]: any whole number in it is accepted too;
    None for an option that takes only its grid)."""
    first = spec.allowed[0]
    kind = (
        "boolean" if isinstance(first, bool) else "integer" if isinstance(first, int) else "string"
    )
    low, high = getattr(spec, "low", None), getattr(spec, "high", None)
    return {
        "type": kind,
        "grid": list(spec.allowed),
        "range": [low, high] if low is not None and high is not None else None,
    }


def lever_fields(spec: Any) -> dict[str, Any]:
    """What the lobby shows of an option that is a rule lever: `lever` true,
    the rulebook `passage` it changes, what a designer would try it for (`purpose`),
    for an integer lever the whole range `low`..`high` it accepts (`allowed` is then
    the grid of suggested values, the rule as written first; both None for a listed
    lever), and `says`, the changed rule as a sentence with ``{value}`` ("" when the
    lever has none). A plain option gets none of these keys (its JSON is unchanged)."""
    lev = getattr(spec, "lever", None)
    if lev is None:
        return {}
    return {
        "lever": True,
        "passage": lev.passage,
        "purpose": lev.purpose,
        "low": spec.low,
        "high": spec.high,
        "says": lev.says,
    }


def installed_games() -> dict[str, type[Game]]:
    """The registry's games that import cleanly (an engine mid-rewrite is skipped)."""

    games = {}
    for name in list_games():
        try:
            games[name] = game_class(name)
        except Exception:
            logging.getLogger("cardlab.web").warning("game %s is not loadable; not offered", name)
    return games


def bot_kinds_for(game: str) -> list[dict[str, Any]]:
    """Agent kinds that play `game` (agents.base.kinds_for_game: the generic kinds and
    that game's own personas; another game's personas do not know its actions)."""
    from cardlab.agents.base import kinds_for_game

    kinds = []
    for kind in kinds_for_game(game):
        entry: dict[str, Any] = {"kind": kind}
        if "ismcts" in kind or "mcts" in kind:
            entry["strengths"] = ISMCTS_STRENGTHS
        kinds.append(entry)
    return kinds


AgentFactory = Callable[..., Any]
