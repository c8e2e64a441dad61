"""The parts of the game API every engine shares, written once.

- **Action type policy** (`action_index`): an action is an int; integers from
  NumPy (or anything registered as `numbers.Integral`) are accepted and turned
  into a plain int; `bool` (an int subclass) and every other type (floats,
  strings, None) are refused with `IllegalActionError`. `GameState` applies it
  before every engine's `apply_action` runs, so a float that compares equal to
  a legal action can never reach an engine or its history.
- **One illegal-action message** (`illegal_action_message`): what was played,
  by whom, in which decision, and the legal actions with their labels.
- **One tie-break helper** (`break_ties`): per-seat key tuples (points first,
  then each tie-break level; higher is better, so "fewest" keys are negated)
  -> the winners and the level that decided.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardlab.core.errors import IllegalActionError

if TYPE_CHECKING:
    from cardlab.core.game import GameState

SHOWN_LEGAL = 12
"""How many legal actions an illegal-action message lists."""

SHARED = "shared"
"""The tie-break level when every key is equal: the winners share the win."""


def action_index(state: GameState, action: object) -> int:
    """`action` as a plain int, or IllegalActionError if it is not an integer.

    Called on every `apply_action` (the fast path, a plain int, never gets here:
    see `GameState.__init_subclass__`)."""
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(illegal_action_message(state, action))


def illegal_action_message(state: GameState, action: object, detail: str = "") -> str:
    """The one message for a refused action; `detail` says more about the pending
    decision in the game's words (e.g. what a payment still needs)."""
    if state.is_terminal():
        return f"action {action!r} refused: the game is over"
    kind = state.decision_kind()
    where = f"{kind}: {detail}" if detail else kind
    legal = state.legal_actions()
    shown = ", ".join(f"{a}={_label(state, a)}" for a in legal[:SHOWN_LEGAL])
    if len(legal) > SHOWN_LEGAL:
        shown += f", ... ({len(legal)} in all)"
    seat = state.current_player()
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        return (
            f"action {action!r} is not an action: actions are ints (NumPy integers too), "
            f"not {type(action).__name__}; seat {seat} decides now ({where}); legal: {shown}"
        )
    return (
        f"action {action!r} ({_label(state, int(action))}) is not legal for seat {seat} now "
        f"({where}); legal: {shown}"
    )


def _label(state: GameState, action: int) -> str:
    try:
        return state.action_to_string(action)
    except Exception:  # an out-of-range number has no label; the message still helps
        return "no such action"


@dataclass(frozen=True)
class TieBreak:
    """The winners and the level that decided: None when the first key (points)
    alone decided, a level name from `levels`, or `SHARED` when all keys tie."""

    winners: list[int]
    level: str | None


def break_ties(
    keys: Mapping[int, Sequence[float]] | Sequence[Sequence[float]], levels: Sequence[str]
) -> TieBreak:
    """Winners by lexicographic keys, the rulebooks' tie-break chains written once.

    `keys` maps each competing seat (or, as a sequence, seat i) to its key tuple:
    points first, then one entry per name in `levels`, higher is better (negate a
    "fewest" rule). Seats still tied after every level share the win."""
    # list/tuple first: the engines pass lists, and an isinstance check against the
    # Mapping ABC costs more than the rest of a 4-seat tie-break (search ranks every
    # finished copy).
    if isinstance(keys, (list, tuple)):
        per_seat = dict(enumerate(keys))
    else:
        per_seat = dict(keys) if isinstance(keys, Mapping) else dict(enumerate(keys))
    if not per_seat:
        raise ValueError("break_ties needs at least one seat")
    width = len(levels) + 1
    for seat, key in per_seat.items():
        if len(key) != width:
            raise ValueError(
                f"seat {seat}: a key of {len(key)} values for points plus {len(levels)} levels"
            )
    # The chain level by level (keep the seats at the top of each key in turn) is the
    # same as: the winners are the seats with the lexicographically greatest key; every
    # other seat drops out at the first key where it falls short of that; the level that
    # decided is the deepest such drop. Written that way it is one pass (search ranks
    # every finished copy).
    seats = sorted(per_seat)
    rows = [tuple(per_seat[p]) for p in seats]
    best = max(rows)
    winners: list[int] = []
    deepest = 0
    for seat, row in zip(seats, rows, strict=True):
        if row == best:
            winners.append(seat)
            continue
        depth = 0
        while row[depth] == best[depth]:
            depth += 1
        if depth > deepest:
            deepest = depth
    if len(winners) > 1:
        return TieBreak(winners, SHARED)
    return TieBreak(winners, None if deepest == 0 else levels[deepest - 1])
