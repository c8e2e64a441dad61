"""Whether a move may be taken back: the safety test behind the table's undo.

A move may be undone only while it taught the mover nothing it could not know
already, and asking must not teach it anything either. So the verdict is
reached in worlds the mover cannot tell apart, never in the true one: before
the move is applied, what the mover cannot see is redealt `REDEALS` times
(`resample_from_infostate(mover, seed)`, seeds fixed by the table, the seat and
the step), the move is applied in each redeal, and it is undoable only when in
every one of them

- no audience's hidden set changed (nothing was revealed to anyone, nothing was
  drawn into the mover's hand, no card moved out of sight), by the engine's own
  account (`hidden_card_ids`, `public_hidden_card_ids`),
- no card left a ``hidden:*`` zone (a draw from a deck is never undone, whoever
  saw it), and
- what the mover sees afterwards (its observation and, when it decides again,
  its moves and their labels) is the same as in all the others.

The redeals depend only on the mover's information state and the seeds, so the
verdict is the same in every world the mover cannot tell apart: whether a move
can be undone says nothing about the hidden cards. The true result must also
look to the mover like the redeals' common one (a belt for a difference the
redeals missed); that comparison reads only what the mover is shown anyway.

What stays is the public move itself (the log line, a bid, a pass), which the
other seats saw and which undo takes back in plain view. The engines are
deterministic from seed + actions, so the state after an undo is the state the
log without its last row rebuilds (a restart rebuilds the same)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.core import GameState

REDEALS = 32
"""Redeals of the mover's unseen cards a move is tried on before it is called undoable.

A verdict from samples can miss: a move whose result differs on a share f of the
redeals passes all of them with chance (1 - f) ** REDEALS. UPTIME's free materials
that depend on the Supply Deck differ on 13-75% of redeals (random games, 60 redeals
each), so at 32 the worst seen is missed 1.2% of the time (8 redeals: 33%); the cost is
one verdict per human move, judged when first asked (`table_undo.UndoBook.verdict`)."""

DEPENDS = "what your move showed you depends on cards you cannot see, so it cannot be undone"


@dataclass(frozen=True)
class Sight:
    """What each audience may not see at one moment, and the cards in hidden zones."""

    seats: tuple[frozenset[str], ...]
    public: frozenset[str]
    in_hidden_zones: frozenset[str]


def sight(state: GameState, players: int) -> Sight:
    zones = state.zones()
    hidden_zone_ids: set[str] = set()
    for key, ids in zones.items():
        if key.startswith("hidden:"):
            hidden_zone_ids.update(ids)
    return Sight(
        seats=tuple(frozenset(state.hidden_card_ids(p)) for p in range(players)),
        public=frozenset(state.public_hidden_card_ids()),
        in_hidden_zones=frozenset(hidden_zone_ids),
    )


def why_not_undoable(before: Sight, after: Sight) -> str | None:
    """None when the move between the two sights revealed and drew nothing; else why."""
    if before.in_hidden_zones - after.in_hidden_zones:
        return "your move drew a card from a deck, so it cannot be undone"
    for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
        if was != now:
            return f"your move changed what seat {seat} can see, so it cannot be undone"
    if before.public != after.public:
        return "your move changed what everyone can see, so it cannot be undone"
    return None


def seen_by(state: GameState, mover: int) -> tuple[Any, ...]:
    """What `mover` is shown of `state`: its observation and, on its own decision, its
    moves with their labels (compared with ==, which is fast on the nested values)."""
    obs = state.observation(mover)
    if state.is_terminal() or state.current_player() != mover:
        return (obs,)
    return (obs, [(a, state.action_to_string(a)) for a in state.legal_actions()])


@dataclass(frozen=True)
class Forecast:
    """The verdict the redeals reached before the move: why it cannot be undone (None:
    it can), and what the mover then sees after it in every redeal."""

    reason: str | None
    seen: tuple[Any, ...] | None


def forecast(
    state: GameState, mover: int, action: int, players: int, seeds: Sequence[int]
) -> Forecast:
    """Try `action` on a redeal of what `mover` cannot see for each seed (`state` is
    the position before the move; it is not changed). Reads the true state only
    through `resample_from_infostate`, so the answer is the mover's alone."""
    seen: tuple[Any, ...] | None = None
    for seed in seeds:
        world = state.resample_from_infostate(mover, seed)
        before = sight(world, players)
        world.apply_action(action)
        reason = why_not_undoable(before, sight(world, players))
        if reason is not None:
            return Forecast(reason, None)
        shown = seen_by(world, mover)
        if seen is not None and shown != seen:
            return Forecast(DEPENDS, None)
        seen = shown
    return Forecast(None, seen)


def verdict(fc: Forecast, after: GameState, mover: int) -> str | None:
    """The undo verdict once the move is applied (`after`): the redeals' verdict, and
    the mover's true view must be theirs (it is what the mover is shown anyway)."""
    if fc.reason is not None:
        return fc.reason
    if fc.seen is not None and seen_by(after, mover) != fc.seen:
        return DEPENDS
    return None
