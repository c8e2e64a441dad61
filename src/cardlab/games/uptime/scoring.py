"""UPTIME scoring (U14, U15) and the tie-break chain (U17).

Pure functions over a state's public data, so the lab, the renderer and the
bots all score the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.contract import break_ties
from cardlab.games.uptime.cards import COMPUTER, CONTRACT, NETWORK

if TYPE_CHECKING:
    from cardlab.games.uptime.state import UptimeState

NETWORK_CAP = 8
"""Network points (Cables + Routers) count at most 8 per player (rulebook, U14)."""

TIEBREAK_LEVELS = ("most_computers", "most_contracts", "fewest_draw_pass", "turn_order")


def breakdown(state: UptimeState, seat: int) -> dict[str, int]:
    """Points of `seat` by source; 'total' is the sum the game is won on."""
    t = state.columns  # the typed columns (compiled: no name lookups on the CardTable)
    computers = cables = routers = contracts = 0
    n_comp = state.computers[seat]
    router_cards: list[int] = []
    for c in state.tableau[seat]:
        k = t.kind[c]
        if k == COMPUTER:  # lever computer_points overrides the printed value (0: printed)
            computers += t.computer_points or t.value[c]
        elif k == NETWORK:
            if t.sub[c] == 0:
                cables += t.value[c]
            else:
                router_cards.append(c)
        elif k == CONTRACT:
            contracts += t.value[c]
    if t.router_per_computer:  # the game's router_rule is "per_computer"
        # U14: every Router counts every Computer you own, up to its maximum (3).
        for r in router_cards:
            routers += t.value[r] * min(n_comp, t.router_max[r])
    else:
        # Option: each Computer is attached to one Router only.
        left = n_comp
        for r in router_cards:
            attached = min(left, t.router_max[r])
            routers += t.value[r] * attached
            left -= attached
    network = min(NETWORK_CAP, cables + routers)
    # U15: 1 point per 3 (lever leftover_rate; 0: nothing); Patches and Components score 0
    rate = t.leftover_rate
    leftovers = state.material_count(seat) // rate if rate else 0
    total = computers + network + contracts + leftovers
    return {
        "computers": computers,
        "network": network,
        "network_uncapped": cables + routers,
        "contracts": contracts,
        "leftovers": leftovers,
        "total": total,
    }


def points(state: UptimeState) -> list[int]:
    return [breakdown(state, p)["total"] for p in range(state.num_players)]


def tiebreak_keys(state: UptimeState, seat: int) -> tuple[int, int, int, int]:
    """The chain after points (U17): most Computers, most Contracts, fewest
    Draw/Pass actions, earliest in turn order (from the seeded first player)."""
    return (
        state.computers[seat],
        state.contracts[seat],
        -state.draw_pass[seat],
        -((seat - state.first_player) % state.num_players),
    )


def rank(state: UptimeState, pts: list[int] | None = None) -> tuple[int, str | None]:
    """The single winner and the tie-break level that decided (None: points alone).
    `pts`: the points per seat when the caller has them already."""
    if pts is None:
        pts = points(state)
    keys = [(pts[p], *tiebreak_keys(state, p)) for p in range(state.num_players)]
    result = break_ties(keys, TIEBREAK_LEVELS)
    if len(result.winners) != 1:  # pragma: no cover
        raise AssertionError("turn order always separates seats")
    return result.winners[0], result.level
