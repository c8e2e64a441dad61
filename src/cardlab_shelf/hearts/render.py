"""HEARTS in the terminal: a seat's view and the final table, from its observation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardlab_shelf.hearts.state import HeartsState


def render_text(state: HeartsState, seat: int) -> str:
    obs = state.observation(seat)
    lines = [
        f"HEARTS: deal {obs['deal']} of {obs['deals']} (pass {obs['pass_direction']}); "
        f"points {obs['scores']} (fewest win)",
        "Trick: "
        + (", ".join(f"seat {t['seat']} {t['card']['name']}" for t in obs["trick"]) or "-"),
        "Hearts broken" if obs["hearts_broken"] else "Hearts not broken yet",
        "Your hand: " + " ".join(c["name"] for c in obs["hand"]),
    ]
    if obs["you"]["chosen to pass"]:
        lines.append("Chosen to pass: " + " ".join(c["name"] for c in obs["you"]["chosen to pass"]))
    return "\n".join(lines)


def render_final(state: HeartsState) -> str:
    scores = state.returns()
    rows = [f"seat {s}: {int(p)} points" for s, p in enumerate(scores)]
    return (
        "HEARTS is over (fewest points win): " + "; ".join(rows) + f". Winners: {state.winners()}"
    )
