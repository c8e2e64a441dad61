"""UPTIME card art: Supply cards (raw materials, Twists) and Build cards
(Components, Computers, Network, Contracts, Patch), and the two backs.

Every face shows what a player needs across the table: name, kind, the
requisition cost, the ability text and the points."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardlab.art.face import Face
from cardlab.art.svg import (
    CARD_H,
    CARD_W,
    CardArt,
    card_outline,
    centred_name,
    circle,
    polygon,
    rect,
    text,
    text_block,
)
from cardlab.art.textfit import fit_text, text_width

TITLE = "UPTIME"
BACKS = ("Supply", "Build")

KIND_COLOURS = {
    "raw material": "#5f6b73",
    "Twist": "#b23a48",
    "Component": "#2f6690",
    "Computer": "#1b4332",
    "Network": "#7b2cbf",
    "Contract": "#9a6700",
    "Patch": "#c2185b",
}
MATERIAL_PALETTE = ("#8d99ae", "#c26a2d", "#3a8f5c", "#6a4c93")
"""Colours of the four materials in card-file order (the cost pips and the material's disc)."""
MATERIAL_SHAPES = ("square", "circle", "triangle", "diamond")
"""A shape per material, in card-file order, so a cost reads without its colours (in
greyscale, on a black-and-white print, for a colour-blind player): each pip is the
material's shape with the material's initial inside."""
ABILITY_TEXT = {
    "workstation": "On claim: take 1 free raw material of your choice.",
    "blade": "On claim: return 1 Component from your tableau to the bottom of the Build Deck, "
    "then draw 1 Supply card.",
    "tower": "On claim: your next Network Requisition costs 1 fewer raw material (minimum 1).",
    "mainframe": "Counts as 2 Computers toward the Cloud Milestone only (scoring unaffected).",
}
TWIST_TEXT = {
    "power_surge": "Resolves when drawn: take 2 free raw materials of your choice, then go on. "
    "Removed from the game; draw a replacement.",
    "supply_shortage": "Resolves when drawn: the Build Row is not refilled after the next claim "
    "by anyone. Removed from the game; draw a replacement.",
}
MATERIAL_TEXT = (
    "Pay it for Requisitions; bid with it (1 card = 1 bid point). Every 3 left at the end: 1 point."
)
COMPONENT_TEXT = "3 different Component types from your tableau build a Computer. Loose: 0 points."
PATCH_TEXT = (
    "Wild: stands in for 1 raw material or 1 Component type in a Requisition. Or play it on a "
    "Build Row card to Reserve it until your next turn."
)
CONTRACT_TEXT = (
    "Once-around auction, bids paid in raw materials. Keep face-down until final scoring."
)
NETWORK_CAP = "Network points cap at 8 per player."


@dataclass(frozen=True)
class UptimeFace(Face):
    """One UPTIME card as printed. `cost` and `points` are the printed strings
    ("" when the card has none)."""

    kind: str
    cost: str
    ability: str
    points: str
    materials: tuple[int, ...] = ()
    """Materials in the cost (or the material itself), as indices into MATERIAL_PALETTE."""
    marks: tuple[str, ...] = ()
    """The initial of each material in `materials` (the letter inside its pip)."""


def card_art(face: UptimeFace) -> CardArt:
    """The face of one UPTIME card."""
    colour = KIND_COLOURS.get(face.kind, "#333")
    inner_w = CARD_W - 8
    parts = [card_outline(fill=colour), rect(3, 3, CARD_W - 6, CARD_H - 6, fill="#fff", radius=1.5)]
    # kind strip and name
    parts.append(rect(3, 3, CARD_W - 6, 6, fill=colour, radius=1.5))
    parts.append(
        text(CARD_W / 2, 7.3, face.kind.upper(), 3.0, anchor="middle", bold=True, fill="#fff")
    )
    parts.append(
        centred_name(
            face.name, y=10.8, width=inner_w, height=7, max_size=5.5, min_size=3.2, max_lines=1
        )
    )
    # cost
    y = 19.0
    if face.cost:
        parts.append(
            rect(4, y, CARD_W - 8, 12, fill="#f1f3f5", stroke="#adb5bd", width=0.25, radius=1)
        )
        parts.append(text(6, y + 3.6, "COST", 2.4, bold=True, fill="#495057"))
        parts.extend(_material_pips(face.materials, y, face.marks))
        cost = fit_text(
            face.cost,
            width=inner_w - 4 - _pips_width(face.materials),
            height=7.2,
            max_size=3.4,
            min_size=2.2,
            card=face.name,
            field="cost",
            max_lines=2,
        )
        parts.append(text_block(6, y + 4.4, cost))
    parts.append(_emblem(face, colour))
    # ability
    if face.ability:
        ability = fit_text(
            face.ability,
            width=inner_w - 2,
            height=27,
            max_size=3.4,
            min_size=2.2,
            card=face.name,
            field="ability text",
        )
        parts.append(rect(4, 50, CARD_W - 8, 29, fill="#fff", stroke=colour, width=0.3, radius=1))
        parts.append(text_block(6, 51, ability))
    # points and footer
    if face.points:
        parts.append(_points_pill(face, colour))
    parts.append(text(5, 83.8, f"{face.back} · {face.id}", 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def _points_pill(face: UptimeFace, colour: str) -> str:
    """Points in a pill at the bottom right, sized to its text."""
    pts = fit_text(
        face.points,
        width=34,
        height=4.6,
        max_size=4.2,
        min_size=2.4,
        card=face.name,
        field="points",
        bold=True,
        max_lines=1,
    )
    w = max(9.0, text_width(pts.lines[0], pts.size, True) + 3.5)
    x = CARD_W - 4 - w
    return rect(x, 79.6, w, 5.6, fill=colour, radius=2.8) + text(
        x + w / 2,
        82.4 + pts.size * 0.36,
        pts.lines[0],
        pts.size,
        anchor="middle",
        bold=True,
        fill="#fff",
    )


PIP_R = 2.6
"""Half-size of a cost pip, mm: its letter is then 3 mm tall, as big as the cost text."""
PIP_STEP = 5.9


def _pips_width(materials: tuple[int, ...]) -> float:
    """How much of the cost box's width the pips take (the cost text keeps clear of it)."""
    return PIP_STEP * len(materials) + 1.0 if materials else 0.0


def _material_pips(materials: tuple[int, ...], y: float, marks: tuple[str, ...] = ()) -> list[str]:
    """One pip per material at the right of the cost box: the material's shape in its
    colour with its initial inside, so a cost reads at a glance and without colour."""
    x0 = CARD_W - 4 - 0.8 - PIP_R * 1.2 - PIP_STEP * (len(materials) - 1)
    return [
        material_mark(m, x0 + PIP_STEP * i, y + 6.2, PIP_R, marks[i] if i < len(marks) else "")
        for i, m in enumerate(materials)
    ]


def material_mark(material: int, cx: float, cy: float, r: float, letter: str = "") -> str:
    """The material's shape (MATERIAL_SHAPES) of half-size `r` at (cx, cy), in its colour
    with a black outline, and its initial inside in black or white, whichever reads better
    on that colour (and so in greyscale)."""
    fill = _palette(material)
    shape = MATERIAL_SHAPES[material % len(MATERIAL_SHAPES)]
    edge = max(0.15, r * 0.08)
    if shape == "square":
        s = r * 0.9
        mark = rect(
            cx - s, cy - s, 2 * s, 2 * s, fill=fill, stroke="#000", width=edge, radius=r * 0.12
        )
        ty = cy
    elif shape == "circle":
        mark = circle(cx, cy, r, fill=fill, stroke="#000", width=edge)
        ty = cy
    elif shape == "triangle":
        top, base = cy - r * 1.1, cy + r * 0.85
        mark = polygon(
            [(cx, top), (cx + r * 1.15, base), (cx - r * 1.15, base)],
            fill=fill,
            stroke="#000",
            width=edge,
        )
        ty = cy + r * 0.22
    else:  # diamond
        d = r * 1.2
        mark = polygon(
            [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)],
            fill=fill,
            stroke="#000",
            width=edge,
        )
        ty = cy
    if not letter:
        return mark
    size = r * 1.15
    return mark + text(
        cx,
        ty + size * 0.36,
        letter,
        size,
        anchor="middle",
        bold=True,
        fill=_ink_on(fill),
    )


def _ink_on(fill: str) -> str:
    """Black or white, whichever contrasts more with `fill` (WCAG relative luminance):
    a letter with no outline, which PDF renderers draw as cleanly as browsers."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    lum = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    return "#000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#fff"


def _palette(material: int) -> str:
    return MATERIAL_PALETTE[material % len(MATERIAL_PALETTE)]


def _emblem(face: UptimeFace, colour: str) -> str:
    """A simple picture area: a chip for hardware, a coin for contracts, a bolt for twists."""
    cx, cy = CARD_W / 2, 40.5
    if face.kind == "raw material":  # the material's own mark, large
        return material_mark(face.materials[0], cx, cy, 7, face.marks[0] if face.marks else "")
    if face.kind in ("Component", "Computer", "Patch"):
        pins = "".join(
            rect(cx - 6 + 3 * i, cy - 8.5, 1, 2, fill="#000")
            + rect(cx - 6 + 3 * i, cy + 6.5, 1, 2, fill="#000")
            for i in range(5)
        )
        return pins + rect(
            cx - 7, cy - 6.5, 14, 13, fill=colour, stroke="#000", width=0.3, radius=1
        )
    if face.kind == "Network":
        return "".join(
            circle(cx + dx, cy + dy, 2.2, fill=colour) for dx, dy in ((-8, 3), (0, -4), (8, 3))
        ) + (
            f'<polyline points="{cx - 8},{cy + 3} {cx},{cy - 4} {cx + 8},{cy + 3}" fill="none" stroke="{colour}" stroke-width="0.8"/>'
        )
    if face.kind == "Contract":
        return rect(
            cx - 8, cy - 8, 16, 16, fill="#fff", stroke=colour, width=0.6, radius=1
        ) + "".join(rect(cx - 5, cy - 4.5 + 3 * i, 10, 0.8, fill=colour) for i in range(4))
    return f'<polygon points="{cx + 2},{cy - 8} {cx - 5},{cy + 1} {cx},{cy + 1} {cx - 2},{cy + 8} {cx + 5},{cy - 1} {cx},{cy - 1}" fill="{colour}"/>'


def back_art(back: str) -> CardArt:
    """The back of the Supply deck or of the Build deck."""
    colour = "#7f5539" if back == "Supply" else "#1d3557"
    body = [
        card_outline(fill=colour),
        rect(4, 4, CARD_W - 8, CARD_H - 8, stroke="#cad2c5", width=0.6, radius=2),
        text(CARD_W / 2, CARD_H / 2 - 2, "UPTIME", 8, anchor="middle", bold=True, fill="#fff"),
        text(
            CARD_W / 2,
            CARD_H / 2 + 6,
            back.upper(),
            4.5,
            anchor="middle",
            bold=True,
            fill="#cad2c5",
        ),
    ]
    return CardArt(title=f"UPTIME {back} back", body="".join(body))


def card_svg(face: UptimeFace) -> str:
    return card_art(face).svg()


def _initial(name: str) -> str:
    """A material's letter in its pip: its name's first letter or digit."""
    return next((ch.upper() for ch in name if ch.isalnum()), "?")


def faces(cards: Any, options: Mapping[str, Any] | None = None) -> list[UptimeFace]:
    """Face records from UPTIME's loaded card data (`game.cards`, a CardTable), one per
    card id, with the engine's numbering (Supply cards first). `options` are the game's
    rule options: the Patch's printed claim cost follows `patch_cost` (U4)."""
    patch_cost = int((options or {}).get("patch_cost", 1))
    patch_cost_text = "1 raw material of any kind" if patch_cost else "free (patch_cost=0)"
    from cardlab.games.uptime import cards as model

    out = []
    for card, card_id in enumerate(cards.ids):
        k, sub, value = cards.kind[card], cards.sub[card], cards.value[card]
        deck = "Supply" if card < cards.num_supply else "Build"
        mats: tuple[int, ...] = ()
        cost, ability, points, kind = "", "", "", ""
        if k == model.MATERIAL:
            kind, ability, mats = "raw material", MATERIAL_TEXT, (sub,)
        elif k == model.TWIST:
            kind, ability = "Twist", TWIST_TEXT[model.TWISTS[sub]]
        elif k == model.COMPUTER:
            kind, cost = "Computer", "3 different Component types from your tableau"
            ability, points = ABILITY_TEXT[model.ABILITIES[sub]], str(value)
        elif k == model.PATCH:
            kind, cost, ability = "Patch", patch_cost_text, PATCH_TEXT
        elif k == model.COMPONENT:
            mats = cards.component_cost[sub]
            kind, cost = "Component", " + ".join(cards.material_names[m] for m in mats)
            ability = COMPONENT_TEXT
        elif k == model.NETWORK:
            kind = "Network"
            cost = f"{cards.network_cost[card]} raw materials; you need 2+ Computers"
            if sub == 1:
                most = cards.router_max[card]
                points = f"{value} per Computer (max {value * most})"
                ability = f"{value} points per Computer you own, up to {most}. {NETWORK_CAP}"
            else:
                points, ability = str(value), NETWORK_CAP
        elif k == model.CONTRACT:
            kind, cost = "Contract", "Won by bidding (the opener needs 1+ Computer)"
            ability, points = CONTRACT_TEXT, str(value)
        marks = tuple(_initial(cards.material_names[m]) for m in mats)
        out.append(
            UptimeFace(
                card_id, cards.name[card], deck, kind, kind, cost, ability, points, mats, marks
            )
        )
    return out
