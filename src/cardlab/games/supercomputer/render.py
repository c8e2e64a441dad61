"""Terminal drawing for SUPER COMPUTER, made only from `state.observation(seat)`
so it can never show a card the seat may not see.

Each computer is a grid of 7 x 3 character cells; a connector is drawn as its
colour's letter (K black, R red, B blue, G green, Y yellow, P purple) in that
colour, so the picture reads without colour too; "-" is a bare edge."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from cardlab.core import GameState
from cardlab.games.supercomputer.view import final_table

STYLE = {
    "black": "bold white on grey23",
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "purple": "bold magenta",
}
LETTER = {"none": "-", "black": "K", "red": "R", "blue": "B", "green": "G", "yellow": "Y"}
LETTER["purple"] = "P"


def _conn(colour: str) -> str:
    letter = LETTER[colour]
    return f"[{STYLE[colour]}]{letter}[/]" if colour != "none" else "-"


def _short(card: dict[str, Any]) -> str:
    abbrev = {"Motherboard": "MoBo", "Storage": "Stor", "Cooling": "Cool", "Network": "Net"}
    text = abbrev.get(card["type"], card["type"][:4])
    if card["size"] and len(text) + len(card["size"].split()[0]) <= 5:
        text += card["size"].split()[0]
    return escape(text[:5].center(5))


def grid_lines(computer: list[dict[str, Any]]) -> list[str]:
    """The computer as text lines: 3 lines per grid row, with an x ruler on top."""
    if not computer:
        return ["  (empty)"]
    cells = {(c["x"], c["y"]): c["card"] for c in computer}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    lines = ["     " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows = [f"{'':>5}", f"{y:>4} ", f"{'':>5}"]
        for x in range(min(xs), max(xs) + 1):
            card = cells.get((x, y))
            if card is None:
                rows = [r + " " * 7 for r in rows]
                continue
            e = card["edges"]
            rows[0] += f"+--{_conn(e['N'])}--+"
            rows[1] += f"{_conn(e['W'])}{_short(card)}{_conn(e['E'])}"
            rows[2] += f"+--{_conn(e['S'])}--+"
        lines.extend(rows)
    return lines


def card_line(card: dict[str, Any], rnd: int) -> str:
    e = card["edges"]
    edges = " ".join(f"{d}:{_conn(e[d])}" for d in "NESW")
    size = f" {card['size']}" if card["size"] else ""
    four = " 4-way" if card["four_way"] else ""
    r = rnd - 1
    return (
        f"{escape(card['name'])} [{escape(card['type'])}{size}{four}] {edges} "
        f"[green]+{card['green'][r]}[/] / [red]{card['red'][r]}[/] (round {rnd})"
    )


def build_line(build: dict[str, Any], rnd: int) -> str:
    r = rnd - 1
    return (
        f"{escape(build['name'])}: {escape(', '.join(build['requires']))} "
        f"[green]+{build['bonus'][r]}[/] / [red]{build['penalty'][r]}[/]"
    )


def render_text(state: GameState, seat: int) -> str:
    obs = state.observation(seat)
    rnd = obs["round"]
    out = [
        f"[bold]SUPER COMPUTER[/]  round {rnd}/3, turn {obs['turn']}/7, "
        f"passing {obs['passing']}   scores: {obs['scores']}",
        f"Now: {escape(obs['decision'])}",
    ]
    for p in obs["players"]:
        who = "you" if p["seat"] == seat else "opponent"
        out.append(
            f"\n[bold]{who}[/] (seat {p['seat']}): hand {p['hand_size']}, "
            f"4-way attached {p['four_way_attached']}, scrapped {p['scrapped_total']}"
            + (", has picked" if p["has_picked"] else "")
        )
        out.extend(grid_lines(p["computer"]))
        if p["placing"]:
            out.append("  placing: " + card_line(p["placing"], rnd))
        if p["scrap"]:
            out.append("  scrap: " + ", ".join(escape(c["name"]) for c in p["scrap"]))
        for b in p["race_won"]:
            out.append("  won build: " + build_line(b, rnd))
        if "known_hand" in p:
            out.append(
                "  you know their hand: " + ", ".join(escape(c["name"]) for c in p["known_hand"])
            )
        if "known_hand_and_pick" in p:
            names = ", ".join(escape(n) for n in p["known_hand_and_pick"])
            out.append(f"  their hand + secret pick: {names}")
    if obs["race"]:
        out.append("\n[bold]Face-up builds (race)[/]")
        out.extend("  " + build_line(b, rnd) for b in obs["race"])
    you = obs["you"]
    out.append("\n[bold]Your builds[/]")
    for b in you["builds"]:
        out.append("  " + build_line(b, rnd))
    for b in you["build_offer"]:
        out.append("  offered: " + build_line(b, rnd))
    if you["pending_pick"]:
        out.append("[bold]Your secret pick[/]: " + card_line(you["pending_pick"], rnd))
    out.append("[bold]Your hand[/]")
    out.extend("  " + card_line(c, rnd) for c in you["hand"])
    return "\n".join(out)


def render_final(state: GameState) -> str:
    """Final table (view.final_table): per round parts, scrap and build points adding
    up to each seat's total, the winners and the tie-break line that decided."""
    table = final_table(state.public_observation())
    head = "seat " + "".join(f"{c:>10}" for c in table.columns) + "     total"
    lines = ["[bold]SUPER COMPUTER: final scores[/]", head]
    for row in table.rows:
        mark = "  winner" if row.seat in table.winners else ""
        cells = "".join(f"{int(v):>10}" for v in row.parts)
        lines.append(f"{row.seat:>4} {cells}{int(row.total):>10}{mark}")
    lines.append(f"Decided by: {escape(table.decided_by)}.")
    lines.extend(escape(note) for note in table.notes)
    return "\n".join(lines)
