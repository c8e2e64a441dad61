"""Whether a move may be taken back: the safety test behind the table's undo.

A move may be undone only while it taught nobody anything. The table compares
what every audience (each seat, the mover included, and the public view) may
not see before and after the move, by the engine's own account
(`hidden_card_ids`, `public_hidden_card_ids`), and every card id in a
``hidden:*`` zone (decks, face-down piles). The move is undoable when

- no audience's hidden set changed (nothing was revealed to anyone, nothing was
  drawn into the mover's hand, no card moved out of sight), and
- no card left a hidden zone (a draw from a deck is never undone, whoever saw it).

What stays is the public move itself (the log line, a bid, a pass), which the
other seats saw and which undo takes back in plain view. The engines are
deterministic from seed + actions, so the state after an undo is the state the
log without its last row rebuilds (a restart rebuilds the same)."""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core import GameState


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
