"""WAR in the terminal: the table and the piles' sizes, from the observation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardlab_shelf.war.state import WarState


def render_text(state: WarState, seat: int) -> str:
    obs = state.observation(seat)
    table = ", ".join(c["name"] for c in obs["table"]) or "-"
    last = next((e for e in reversed(obs["log"]) if e["kind"] == "battle"), None)
    said = f"; last battle: {last['turned']} to seat {last['taker']}" if last else ""
    return (f"WAR: battle {obs['battle']} of {obs['battles']}; cards {obs['scores']}; "
            f"on the table: {table}{said}")  # fmt: skip


def render_final(state: WarState) -> str:
    return f"WAR is over ({state.end_reason}): cards {state.returns()}. Winners: {state.winners()}"
