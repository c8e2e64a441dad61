"""The check of the engine's move descriptions (`GameState.describe_action`).

Programs read what a move does from its description, never its label, so the
description must be well formed and must never name a card the deciding seat may not
know: the table sends it in that seat's frame, and a bot or an RL agent may read it."""

from __future__ import annotations

import json

from cardlab.core.game import GameState
from cardlab.core.moves import Move
from cardlab.testing.failures import ConformanceError


def expect(ok: object, message: str) -> None:
    if not ok:
        raise ConformanceError(message)


def check_moves(state: GameState) -> None:
    """Every legal action has a `Move` with a kind, JSON-ready, naming only cards of
    the game that the deciding seat may see, and cells as (x, y) int pairs."""
    seat = state.current_player()
    known = {cid for ids in state.zones().values() for cid in ids}
    hidden = state.hidden_card_ids(seat)
    for action in state.legal_actions():
        move = state.describe_action(action)
        expect(isinstance(move, Move), f"describe_action({action}) is not a Move: {move!r}")
        named = move.named_ids()
        unknown = named - known
        expect(not unknown, f"action {action} ({move.kind}) names cards no zone holds: {unknown}")
        peeked = named & hidden
        expect(
            not peeked,
            f"seat {seat}: action {action} ({state.action_to_string(action)!r}, {move.kind}) "
            f"names cards the seat may not see: {sorted(peeked)}",
        )
        for cell in move.cells:
            expect(
                len(cell) == 2 and all(type(v) is int for v in cell),
                f"action {action} ({move.kind}): a cell {cell!r} is not an (x, y) int pair",
            )
        json.dumps(move.to_json())
