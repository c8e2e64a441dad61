"""Scenario helpers shared by the RUNWAY rule tests: a known deal and a way to play a
move by its label (so a test reads like the rulebook's sample turn)."""

from __future__ import annotations

from cardlab import load_game
from cardlab.games.runway.scenarios import from_setup

HANDS4 = [
    ["Cash 1", "Network 1", "Tech 1", "Talent 1", "Network 8", "Talent 8"],
    ["Cash 2", "Network 2", "Tech 2", "Talent 2", "Tech 8", "Cash 8"],
    ["Cash 3", "Network 3", "Tech 3", "Talent 3", "Network 5", "Cash 5"],
    ["Cash 4", "Network 4", "Tech 4", "Talent 4", "Network 6", "Cash 6"],
]
HANDS3 = HANDS4[:3]
BENCH = ["Cash 7", "Tech 7", "Talent 7"]


def build(players=3, hands=None, deals=("Conference Badge", "Board Seat"), options=None, **kw):  # type: ignore[no-untyped-def]
    """A start-of-Deal state with the given (or the standard) hands, Bench and Deals."""
    game = load_game("runway", players=players, **(options or {}))
    return from_setup(
        game, hands=hands or HANDS4[:players], bench=kw.pop("bench", BENCH), deals=deals, **kw
    )


def act(state, label: str) -> None:  # type: ignore[no-untyped-def]
    """Apply the one legal action whose label starts with `label`."""
    found = [a for a in state.legal_actions() if state.action_to_string(a).startswith(label)]
    assert len(found) == 1, (label, [state.action_to_string(a) for a in state.legal_actions()])
    state.apply_action(found[0])


def last_deal(reputation, footholds):  # type: ignore[no-untyped-def]
    """Three players before the 12th Deal (Conference Badge), seat 2 pitching last,
    with the given Reputation and Footholds (R11's end and the final table)."""
    closed = [
        "Seed Round",
        "Payment Rails",
        "Bank Charter",
        "Board Seat",
        "Viral Launch",
        "Lab Grant",
        "Patent Pool",
        "Chip Fab",
        "Flea Market",
        "Storefront",
        "Global Exchange",
    ]
    return build(
        deals=("Conference Badge",),
        already_closed=closed,
        last_seat=2,
        reputation=reputation,
        footholds=footholds,
    )
