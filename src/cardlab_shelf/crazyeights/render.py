"""CRAZY EIGHTS in the terminal: a seat's view and the final table."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardlab_shelf.crazyeights.state import CrazyEightsState


def render_text(state: CrazyEightsState, seat: int) -> str:
    obs = state.observation(seat)
    top = obs["top"]["name"] if obs["top"] else "-"
    follow = "any card" if obs["any_card"] else obs["suit_to_follow"]
    sizes = ", ".join(f"seat {s}: {p['cards in hand']}" for s, p in enumerate(obs["players"]))
    return "\n".join(
        [
            f"CRAZY EIGHTS: deal {obs['deal']} of {obs['deals']}; points {obs['scores']}",
            f"Discard pile: {top} (follow {follow}); stock {obs['stock']} cards; hands {sizes}",
            "Your hand: " + " ".join(c["name"] for c in obs["hand"]),
        ]
    )


def render_final(state: CrazyEightsState) -> str:
    rows = [f"seat {s}: {int(p)} points" for s, p in enumerate(state.returns())]
    return "CRAZY EIGHTS is over: " + "; ".join(rows) + f". Winners: {state.winners()}"
