"""Terminal drawing for SUPER COMPUTER, made only from `state.observation(seat)`
so it can never show a card the seat may not see.

Each computer is a grid of small boxes, one per part (9 x 4 characters, a
column apart): the part's type and size inside ("GPU" over "24 GB"), and on each
side either its connector, drawn as its colour's letter (K black, R red, B blue,
G green, Y yellow, P purple) in that colour so the picture reads without colour
too, or the plain border of a bare edge. `legend()` is the key the terminal
prints once and on `?`. A computer too wide for the terminal is listed as rows
of cells instead, one part a line."""

from __future__ import annotations

import shutil
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


NBSP = "\u00a0"
"""Joins what must stay on one line when the terminal wraps ("K black", "+3 / -1")."""
CELL_W = 9
"""A part's box is CELL_W characters wide; boxes stand one column apart."""
ABBREV = {"Motherboard": "MoBo", "Storage": "Stor", "Cooling": "Cool", "Network": "Net"}


def legend() -> str:
    """The key to the grids: what each connector letter means (printed once, and on `?`)."""
    colours = ("black", "red", "blue", "green", "yellow", "purple")
    letters = ", ".join(f"{_conn(c)}{NBSP}{c}" for c in colours)
    return (
        f"[bold]Key[/]: a box is a part; a letter on its side is a connector: {letters} "
        "(K black joins any colour); a plain border is a bare edge. "
        "Type ? at a prompt to see this again."
    )


def _conn(colour: str) -> str:
    letter = LETTER[colour]
    return f"[{STYLE[colour]}]{letter}[/]" if colour != "none" else "-"


def type_name(card: dict[str, Any]) -> str:
    """A part's type in at most 7 characters ("MoBo", "Stor", "GPU")."""
    return str(ABBREV.get(card["type"], card["type"]))[: CELL_W - 2]


def _side(colour: str, border: str) -> str:
    return border if colour == "none" else _conn(colour)


def _box(card: dict[str, Any]) -> list[str]:
    """Four lines: the top edge, the type between the west and east sides, the size,
    the bottom edge; each connector sits in the middle of its side."""
    e = card["edges"]
    half = (CELL_W - 3) // 2
    inner = CELL_W - 2
    size = (card.get("size") or ("4-way" if card.get("four_way") else ""))[:inner]
    return [
        "┌" + "─" * half + _side(e["N"], "─") + "─" * half + "┐",
        _side(e["W"], "│") + escape(type_name(card).center(inner)) + _side(e["E"], "│"),
        "│" + escape(size.center(inner)) + "│",
        "└" + "─" * half + _side(e["S"], "─") + "─" * half + "┘",
    ]


def _width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def grid_lines(computer: list[dict[str, Any]], width: int | None = None) -> list[str]:
    """The computer as boxes: 4 lines per grid row, an x ruler on top, y on the left;
    as rows of cells when the boxes would not fit `width` (the terminal's)."""
    if not computer:
        return ["  (empty)"]
    cells = {(c["x"], c["y"]): c["card"] for c in computer}
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(min(y for _, y in cells), max(y for _, y in cells) + 1)
    if 5 + len(xs) * (CELL_W + 1) > (width or _width()):
        return cell_rows(cells)
    lines = ["     " + " ".join(f"{x:^{CELL_W}}" for x in xs).rstrip()]
    for y in ys:
        rows = ["     ", f"{y:>4} ", "     ", "     "]
        for x in xs:
            card = cells.get((x, y))
            box = _box(card) if card is not None else [" " * CELL_W] * 4
            rows = [r + b + " " for r, b in zip(rows, box, strict=True)]
        lines.extend(r.rstrip() for r in rows)
    return lines


def cell_rows(cells: dict[tuple[int, int], dict[str, Any]]) -> list[str]:
    """The computer one part a line, row by row: its cell, name and the connector on each side."""
    out = []
    for (x, y), card in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        e = card["edges"]
        sides = " ".join(f"{d}:{_conn(e[d])}" for d in "NESW")
        out.append(f"  row {y}, column {x}: {escape(card['name'])} {sides}")
    return out


def card_line(card: dict[str, Any], rnd: int) -> str:
    e = card["edges"]
    edges = " ".join(f"{d}:{_conn(e[d])}" for d in "NESW")
    size = f" {card['size']}" if card["size"] else ""
    four = " 4-way" if card["four_way"] else ""
    r = rnd - 1
    return (
        f"{escape(card['name'])} [{escape(card['type'])}{size}{four}] {edges} "
        f"[green]+{card['green'][r]}[/]{NBSP}/{NBSP}[red]{card['red'][r]}[/] (round{NBSP}{rnd})"
    )


def build_line(build: dict[str, Any], rnd: int) -> str:
    r = rnd - 1
    return (
        f"{escape(build['name'])}: {escape(', '.join(build['requires']))} "
        f"[green]+{build['bonus'][r]}[/]{NBSP}/{NBSP}[red]{build['penalty'][r]}[/]"
    )


def render_text(state: GameState, seat: int) -> str:
    """The table as `seat` sees it: every computer as a grid of boxes, the builds, your hand."""
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
