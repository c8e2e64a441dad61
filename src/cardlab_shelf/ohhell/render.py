"""OH HELL in the terminal: a seat's view and the final table, from its observation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardlab_shelf.ohhell.state import OhHellState


def render_text(state: OhHellState, seat: int) -> str:
    obs = state.observation(seat)
    bids = ", ".join(
        f"seat {s}: bid {p['bid'] if p['bid'] is not None else '-'} took {p['tricks']}"
        for s, p in enumerate(obs["players"])
    )
    trump = obs["trump"]["name"] if obs["trump"] else "-"
    return "\n".join(
        [
            f"OH HELL: deal {obs['deal']} of {obs['deals']} ({obs['hand_size']} cards), "
            f"trump {trump}; points {obs['scores']}",
            bids,
            "Trick: "
            + (", ".join(f"seat {t['seat']} {t['card']['name']}" for t in obs["trick"]) or "-"),
            "Your hand: " + " ".join(c["name"] for c in obs["hand"]),
        ]
    )


def render_final(state: OhHellState) -> str:
    rows = [f"seat {s}: {int(p)} points" for s, p in enumerate(state.returns())]
    return "OH HELL is over: " + "; ".join(rows) + f". Winners: {state.winners()}"
