"""Helpers for the shelf's rules tests: card indices by id, and games played out."""

from __future__ import annotations

import json
import random

import cardlab
from cardlab.core import Game, GameState


def card(game: Game, card_id: str) -> int:
    """The index (action number of its play) of a card id such as ``s12``."""
    return next(i for i, c in enumerate(game.cards.cards) if c.id == card_id)


def cards(game: Game, *ids: str) -> list[int]:
    return sorted(card(game, i) for i in ids)


def play_out(state: GameState, seed: int = 0) -> GameState:
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def random_game(name: str, players: int, seed: int, **options: object) -> GameState:
    return play_out(
        cardlab.load_game(name, players=players, **options).new_initial_state(seed), seed
    )


def names_no_id(state: GameState, seat: int | None, ids: set[str]) -> bool:
    """Whether the seat's observation (the public one for None) names none of `ids`."""
    obs = state.public_observation() if seat is None else state.observation(seat)
    text = json.dumps(obs)
    return not any(f'"{i}"' in text for i in ids)
