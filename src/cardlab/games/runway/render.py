"""Terminal screens for RUNWAY, drawn only from `state.observation(seat)` so a
screen can never show what the seat may not know.

Each Capital kind is shown by its colour AND its line-mark AND its printed
name (the rulebook: "never color alone"), e.g. "━$ Cash 7━" in green.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

from rich.markup import escape

from cardlab.games.runway.actions import ROLE_NAMES
from cardlab.games.runway.cards import LINE_GLYPHS
from cardlab.games.runway.view import ROLE_WORDS, final_table


def capital_text(card: dict[str, Any]) -> str:
    """A Capital card: colour, line-mark glyphs, symbol and printed name."""
    line = LINE_GLYPHS.get(card["line_mark"], "-")
    body = escape(f"{line}{card['symbol']} {card['name']}{line}")
    return f"[{card['colour']}]{body}[/] ({card['line_mark']})"


def deal_text(deal: dict[str, Any] | None) -> str:
    """A Deal with what winning it does to Hype: a tucked Shock under the default
    `hype_down` shows "Hype -3", never "Hype +3" (R9)."""
    if deal is None:
        return "-"
    shocks = deal.get("shocks", 0)
    change = deal.get("hype_change", deal["hype"])
    hype = f"Hype {'+' if change >= 0 else '-'}{abs(change)}"
    tucked = ""
    if shocks:
        effect = "Hype drops" if change < 0 else "see the rules option"
        tucked = f" [red]({shocks} Shock{'s' if shocks > 1 else ''} tucked: {effect})[/]"
    return f"[bold]{escape(deal['name'])}[/] - {escape(deal['sector'])}, scores {deal['score']}, {hype}{tucked}"


def _width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def render_text(state: Any, seat: int) -> str:
    """The table as `seat` sees it: Deals, Bench, Hype, Footholds, Reputation, hand."""
    o = state.observation(seat)
    total = o["deals_total"]
    when = (
        f"game over after {total} Deals"
        if o["phase"] == "over"
        else f"Deal {o['deals_closed'] + 1} of {total}"
    )
    out = [f"[bold]RUNWAY[/] - seat {seat} - {when}"]
    out.append(f"Deal in play: {deal_text(o['deal_in_play'])}")
    out.append(f"Next Deal:    {deal_text(o['next_deal'])}")
    bonus = f" (rewards +{o['hype_bonus']})" if o["hype_bonus"] else ""
    track = "".join("#" if i < o["hype"] else "." for i in range(10))
    out.append(f"Hype: {o['hype']}/10 {escape('[' + track + ']')}{bonus}")
    out.append("Bench: " + ("  ".join(capital_text(c) for c in o["bench"]) or "empty"))
    out.append(f"Draw pile: {o['draw_pile_count']} cards   Discard: {len(o['discard'])} cards")
    if o["pitch_order"]:
        order = ", ".join(f"Seat {p}" for p in o["pitch_order"])
        out.append(f"Pitch order: {order} (Seat {o['last_seat']} pitches last)")
    for pitch in o["pitched"]:
        out.append(
            f"  Seat {pitch['seat']} pitched {capital_text(pitch['card'])} "
            f"({ROLE_WORDS[ROLE_NAMES.index(pitch['role'])]})"
        )
    sectors = o["sectors"]
    out.append("")
    left = "Footholds left"
    if len("seat  Rep  " + left + "  " + "  ".join(sectors) + "  hand") > _width():
        left, sectors = "Left", [s[:4] for s in sectors]  # narrow terminal: short headings
        out.append(
            "(Left = Footholds left; " + ", ".join(o["sectors"]) + " by their first 4 letters)"
        )
    out.append(f"seat  Rep  {left}  " + "  ".join(sectors) + "  hand")
    for p in range(o["num_players"]):
        marks = [o["footholds"][p][s] for s in o["sectors"]]
        cells = "  ".join(
            f"{('L' if m >= 2 else '') + str(m):>{len(s)}}"
            for s, m in zip(sectors, marks, strict=True)
        )
        you = " (you)" if p == seat else ""
        out.append(
            f"{p:>4}  {o['reputation'][p]:>3}  {o['footholds_left'][p]:>{len(left)}}  {cells}  "
            f"{o['hand_sizes'][p]}{you}"
        )
        known = o["known_in_hands"].get(str(p))
        if known:
            out.append("      known from the Bench: " + ", ".join(capital_text(c) for c in known))
    out.append("(Footholds per Sector; L = locked with a second Foothold)")
    out.append("Your hand: " + ("  ".join(capital_text(c) for c in o["hand"]) or "empty"))
    return "\n".join(out)


_SWAP = re.compile(r"^trade (?P<give>.+) for Bench (?P<take>.+)$")
_DISCARD = re.compile(r"^discard (?P<give>.+) and draw blind$")


def choice_groups(labels: list[str]) -> list[tuple[str, list[tuple[int, str]]]] | None:
    """The trade's options grouped for the terminal: one group per Bench card (what you
    give for it), one for the blind draw from the pile, then the rest; each option keeps
    its number (index + 1). None when the list is not a trade worth grouping."""
    if len(labels) < 8 or not any(_SWAP.match(label) for label in labels):
        return None
    bench: dict[str, list[tuple[int, str]]] = {}
    pile: list[tuple[int, str]] = []
    rest: list[tuple[int, str]] = []
    for i, label in enumerate(labels):
        if m := _SWAP.match(label):
            bench.setdefault(m["take"], []).append((i, f"give {m['give']}"))
        elif m := _DISCARD.match(label):
            pile.append((i, f"discard {m['give']}"))
        else:
            rest.append((i, label))
    groups = [(f"Take {take} from the Bench", items) for take, items in bench.items()]
    if pile:
        groups.append(("Draw blind from the pile (your card goes face-up to the discard)", pile))
    if rest:
        groups.append(("Or", rest))
    return groups


def render_final(state: Any) -> str:
    """The final score table from the public view: each seat's Reputation in parts
    that add up (Deals, Rides, Locks, Sector bonus) and the line that decided."""
    table = final_table(state.public_observation())
    widths = [max(len(c), 5) for c in table.columns]
    rows = [
        "[bold]RUNWAY - final scores[/]",
        "seat    "
        + "  ".join(c.rjust(w) for c, w in zip(table.columns, widths, strict=True))
        + "  Reputation",
    ]
    for row in table.rows:
        star = "  winner" if row.seat in table.winners else ""
        parts = "  ".join(f"{int(x):>{w}}" for x, w in zip(row.parts, widths, strict=True))
        rows.append(f"{row.seat:>4}    {parts}  {int(row.total):>10}{star}")
    rows.append(escape(table.decided_by))
    return "\n".join(rows)
