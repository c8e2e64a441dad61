"""The toy game's observation vector, in the game's package as for every game."""

from __future__ import annotations

from typing import Any

from cardlab.adapters.encoding import Writer
from cardlab.core import Game

from . import CARDS


def size(game: Game) -> int:
    return 12 * 3 + game.num_players * 3 + 3


def write(w: Writer, obs: dict[str, Any], game: Game) -> None:
    """Hand, own pick and played cards one-hot; per seat picked/points/hand size."""
    n = game.num_players
    seats = [str(s) for s in range(n)]
    hand = w.block("hand", CARDS)
    for c in obs["hand"]:
        hand[CARDS.index(c)] = 1
    w.one_hot("my_pick", CARDS, CARDS.index(obs["my_pick"]) if obs["my_pick"] else None)
    played = w.block("played", CARDS)
    for c in obs["played"]:
        played[CARDS.index(c)] = 1
    w.scaled("picked", obs["picked"], 1, seats)
    w.scaled("points/20", obs["points"], 20, seats)
    w.scaled("hand_size/12", obs["hand_sizes"], 12, seats)
    w.scaled(
        "table",
        [obs["round"] / 3, obs["deck_size"] / 12, obs["chooser"] == obs["seat"]],
        1,
        ("round/3", "deck/12", "you_choose"),
    )
