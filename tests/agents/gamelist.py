"""The games the agent tests run on: the toy game (the `cardlab new-game`
template with `sabotage` on, agents_toy.py) at every player count, and each real
engine that has landed (its package exposes GAME)."""

from __future__ import annotations

from agents_toy import INFO, toy

import cardlab
from cardlab.core import Game
from cardlab.games import game_class


def real_games() -> list[str]:
    """Every discovered game. One that fails to load fails here, loudly: a game of the
    repository that does not register is a bug, not a skip."""
    names = list(cardlab.list_games())
    for name in names:
        game_class(name)
    return names


def game_setups() -> list[tuple[str, int]]:
    """(game name, players) for every supported player count; "toy" is the template."""
    setups = [("toy", n) for n in range(INFO.min_players, INFO.max_players + 1)]
    for name in real_games():
        cls = game_class(name)
        setups += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return setups


def make_game(name: str, players: int) -> Game:
    return toy(players) if name == "toy" else cardlab.load_game(name, players=players)


def seats_for(name: str) -> int:
    """Three seats, or the nearest count the game plays (HEARTS is four, WAR two)."""
    cls = game_class(name)
    return max(cls.min_players, min(cls.max_players, 3))


def bots_around(name: str, human: int, make) -> list:
    """A bot (`make(seed)`) in every seat of `name` at `seats_for` but the human's."""
    return [None if s == human else make(s + 1) for s in range(seats_for(name))]


def asks_nothing(name: str) -> bool:
    """A game with one action in all (WAR): every move is forced, and the terminal plays
    forced moves itself, so a human seat is never asked anything."""
    return cardlab.load_game(name, players=seats_for(name)).num_distinct_actions == 1


def games_that_ask() -> list[str]:
    """The games in which a human seat has decisions to make (not WAR)."""
    return [name for name in real_games() if not asks_nothing(name)]
