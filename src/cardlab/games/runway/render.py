"""Terminal screens for RUNWAY, drawn only from `state.observation(seat)` so a
screen can never show what the seat may not know.

Each Capital kind is shown by its colour AND its line-mark AND its printed
name (the rulebook: "never color alone"), e.g. "━$ Cash 7━" in green.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from cardlab.games.runway.cards import LINE_GLYPHS


def capital_text(card: dict[str, Any]) -> str:
    """A Capital card: colour, line-mark glyphs, symbol and printed name."""
    line = LINE_GLYPHS.get(card["line_mark"], "-")
    body = escape(f"{line}{card['symbol']} {card['name']}{line}")
    return f"[{card['colour']}]{body}[/] ({card['line_mark']})"


def deal_text(deal: dict[str, Any] | None) -> str:
    if deal is None:
        return "-"
    shocks = deal.get("shocks", 0)
    tucked = f" [red]+{shocks} Shock{'s' if shocks > 1 else ''} tucked[/]" if shocks else ""
    return (
        f"[bold]{escape(deal['name'])}[/] - {escape(deal['sector'])}, scores {deal['score']}, "
        f"Hype +{deal['hype']}{tucked}"
    )


def render_text(state: Any, seat: int) -> str:
    """The table as `seat` sees it: Deals, Bench, Hype, Footholds, Reputation, hand."""
    o = state.observation(seat)
    out = [f"[bold]RUNWAY[/] - seat {seat} - Deal {o['deals_closed'] + 1} of 12"]
    out.append(f"Deal in play: {deal_text(o['deal_in_play'])}")
    out.append(f"Next Deal:    {deal_text(o['next_deal'])}")
    bonus = f" (rewards +{o['hype_bonus']})" if o["hype_bonus"] else ""
    track = "".join("#" if i < o["hype"] else "." for i in range(10))
    out.append(f"Hype: {o['hype']}/10 {escape('[' + track + ']')}{bonus}")
    out.append("Bench: " + ("  ".join(capital_text(c) for c in o["bench"]) or "empty"))
    out.append(f"Draw pile: {o['draw_pile_count']} cards   Discard: {len(o['discard'])} cards")
    if o["pitch_order"]:
        order = ", ".join(f"seat {p}" for p in o["pitch_order"])
        out.append(f"Pitch order: {order} (seat {o['last_seat']} pitches last)")
    for pitch in o["pitched"]:
        out.append(
            f"  seat {pitch['seat']} pitched {capital_text(pitch['card'])} [{pitch['role']}]"
        )
    sectors = o["sectors"]
    out.append("")
    out.append("seat  Rep  Footholds left  " + "  ".join(sectors) + "  hand")
    for p in range(o["num_players"]):
        marks = [o["footholds"][p][s] for s in sectors]
        cells = "  ".join(
            f"{('L' if m >= 2 else '') + str(m):>{len(s)}}"
            for s, m in zip(sectors, marks, strict=True)
        )
        you = " (you)" if p == seat else ""
        out.append(
            f"{p:>4}  {o['reputation'][p]:>3}  {o['footholds_left'][p]:>14}  {cells}  "
            f"{o['hand_sizes'][p]}{you}"
        )
        known = o["known_in_hands"].get(str(p))
        if known:
            out.append("      known from the Bench: " + ", ".join(capital_text(c) for c in known))
    out.append("(Footholds per Sector; L = locked with a second Foothold)")
    out.append("Your hand: " + ("  ".join(capital_text(c) for c in o["hand"]) or "empty"))
    return "\n".join(out)


def render_final(state: Any) -> str:
    """The final score table, with the tie-break level that decided if one did."""
    info = state.info()
    winners = state.winners()
    rows = [
        "[bold]RUNWAY - final scores[/]",
        "seat  Reputation  Deals won  Sectors locked  Sector bonus  Rides",
    ]
    for p in range(len(info["reputation"])):
        star = "  winner" if p in winners else ""
        rows.append(
            f"{p:>4}  {info['reputation'][p]:>10}  {info['deals_won'][p]:>9}  "
            f"{info['sectors_locked'][p]:>14}  {info['sector_bonus'][p]:>12}  "
            f"{info['ride_points'][p]:>5}{star}"
        )
    level = info["tiebreak"]
    if level is None:
        rows.append("Decided by Reputation alone.")
    elif level == "shared":
        rows.append("Tied on Reputation, Sectors locked and Deals won: the win is shared.")
    else:
        rows.append(f"Tied on Reputation; decided by the tie-break: {level.replace('_', ' ')}.")
    return "\n".join(rows)
