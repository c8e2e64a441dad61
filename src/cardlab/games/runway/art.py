"""RUNWAY card art: 32 Capital cards, 12 Deals, the card file's Shocks (6 in the
box), 4 Sector table cards, and a back for each of the two decks: the Capital deck
and the Deal deck (Deals shuffled with the Shocks; the Sector table cards wear it
too), so the decks stay apart face down. Face ids are the
engine's card ids (actions.py), so a Shock count other than six keeps every
other card's id.

The rulebook promises each Capital kind "reads by color, line-mark, and
printed name — never color alone": a Capital face carries its kind's colour,
its line-mark drawn as a frame and a band (solid, dashed, dotted, double), its
symbol drawn as a shape, and the kind's name, so the kinds stay apart in
greyscale and for colour-blind players."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardlab.art.face import Face
from cardlab.art.svg import (
    CARD_H,
    CARD_W,
    CardArt,
    banner_face_top,
    card_outline,
    centred_name,
    circle,
    fmt,
    line,
    polygon,
    rect,
    text,
    text_block,
)
from cardlab.art.textfit import fit_text
from cardlab.games.runway.actions import SECTOR0

TITLE = "RUNWAY"
BACKS = ("Capital", "Deal")
"""The two decks, each with its own back: Capital cards; Deals, Shocks and table cards."""
MARK_BAND_Y = 19.0
"""Top of the line-mark band on a Capital face (mm); tests sample this region."""
MARK_BAND_H = 5.0

MATCH_TEXT = {
    "cash": "Matches {sector}. May pitch on any Deal; winning outside {sector} scores 1 less.",
    "network": "Matches {sector}. May Ride any other Deal: +1 Reputation if it closes with a winner.",
    "tech": "Matches {sector} only.",
    "talent": "Matches {sector} only.",
}
SHOCK_TEXT = (
    "Tuck under the Deal it arrived with. When that Deal closes with a winner, "
    "Hype drops by the Deal's Hype cost (not below 0) instead of rising."
)


@dataclass(frozen=True)
class CapitalStyle:
    """How one Capital kind reads: name, symbol, colour and line-mark."""

    role: str
    name: str
    symbol: str
    colour: str
    line_mark: str


@dataclass(frozen=True)
class RunwayFace(Face):
    """One RUNWAY card as printed; fields that a kind of card lacks are None."""

    style: CapitalStyle | None = None
    number: int | None = None
    sector: str | None = None
    score: int | None = None
    hype: int | None = None
    text: str = ""


def card_art(face: RunwayFace) -> CardArt:
    """The face of one RUNWAY card."""
    if face.category == "Capital":
        return _capital(face)
    if face.category == "Deal":
        return _deal(face)
    if face.category == "Shock":
        return _panel_card(face, "#343a40", "SHOCK", _bolt())
    return _panel_card(face, "#495057", "SECTOR", _sector_flag())


def _capital(face: RunwayFace) -> CardArt:
    style = face.style
    assert style is not None and face.number is not None
    parts = [card_outline(fill="#fff", stroke="#000")]
    parts.append(_line_mark(style.line_mark, 3.5, 3.5, CARD_W - 7, CARD_H - 7, style.colour))
    parts.append(_mark_band(style.line_mark, style.colour))
    parts.append(text(7, 14, str(face.number), 9, bold=True))
    parts.append(text(CARD_W - 7, 14, str(face.number), 9, anchor="end", bold=True))
    parts.append(
        centred_name(
            face.name, y=26.5, width=CARD_W - 14, height=6, max_size=5, min_size=3, max_lines=1
        )
    )
    parts.append(_symbol(style.role, CARD_W / 2, 45, 10, style.colour))
    parts.append(
        text(
            CARD_W / 2,
            62,
            f"{style.name.upper()} · {style.line_mark} line",
            3,
            anchor="middle",
            bold=True,
            fill="#212529",
        )
    )
    rule = fit_text(
        face.text,
        width=CARD_W - 14,
        height=12,
        max_size=3.1,
        min_size=2.2,
        card=face.name,
        field="rule text",
    )
    parts.append(text_block(CARD_W / 2, 65, rule, anchor="middle"))
    parts.append(text(CARD_W - 7, 82.5, str(face.number), 9, anchor="end", bold=True))
    parts.append(text(7, 82.5, face.id, 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def _deal(face: RunwayFace) -> CardArt:
    parts = banner_face_top("DEAL", face.name, "#1d3557")
    parts.append(rect(6, 22, CARD_W - 12, 9, fill="#e9ecef", radius=1.5))
    parts.append(text(CARD_W / 2, 28.3, f"Sector: {face.sector}", 4, anchor="middle", bold=True))
    parts.append(_stat(CARD_W / 2 - 13, 46, "SCORE", str(face.score), "#1d3557"))
    parts.append(_stat(CARD_W / 2 + 13, 46, "HYPE", f"+{face.hype}", "#e76f51"))
    rule = fit_text(
        face.text,
        width=CARD_W - 12,
        height=18,
        max_size=3.1,
        min_size=2.2,
        card=face.name,
        field="rule text",
    )
    parts.append(text_block(CARD_W / 2, 60, rule, anchor="middle"))
    parts.append(text(6, 83.5, face.id, 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def _panel_card(face: RunwayFace, colour: str, label: str, picture: str) -> CardArt:
    parts = banner_face_top(label, face.name, colour, name_size=6, name_y=13)
    parts.append(picture)
    rule = fit_text(
        face.text,
        width=CARD_W - 12,
        height=26,
        max_size=3.3,
        min_size=2.2,
        card=face.name,
        field="rule text",
    )
    parts.append(text_block(CARD_W / 2, 52, rule, anchor="middle"))
    parts.append(text(6, 83.5, face.id, 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def _stat(cx: float, cy: float, label: str, value: str, colour: str) -> str:
    return (
        circle(cx, cy, 8, fill=colour)
        + text(cx, cy + 3, value, 8.5, anchor="middle", bold=True, fill="#fff")
        + text(cx, cy + 11.5, label, 2.8, anchor="middle", bold=True, fill=colour)
    )


def _dash(style: str) -> str:
    return {
        "dashed": ' stroke-dasharray="3 1.8"',
        "dotted": ' stroke-dasharray="0.01 1.5" stroke-linecap="round"',
    }.get(style, "")


def _line_mark(style: str, x: float, y: float, w: float, h: float, colour: str) -> str:
    """The kind's frame, drawn in its line-mark pattern."""
    if style == "double":
        return rect(x, y, w, h, stroke=colour, width=0.7, radius=2) + rect(
            x + 1.6, y + 1.6, w - 3.2, h - 3.2, stroke=colour, width=0.7, radius=1.5
        )
    width = 1.2 if style == "dotted" else 1.0
    return rect(
        x + 0.5, y + 0.5, w - 1, h - 1, stroke=colour, width=width, radius=2, extra=_dash(style)
    )


def _mark_band(style: str, colour: str) -> str:
    """A band of three rules in the line-mark pattern: the kind's mark at a glance,
    dark enough to read in greyscale whatever the colour."""
    out = []
    for i in range(3):
        y = MARK_BAND_Y + 0.8 + i * 1.7
        if style == "double":
            out.append(line(7, y - 0.35, CARD_W - 7, y - 0.35, stroke="#000", width=0.3))
            out.append(line(7, y + 0.35, CARD_W - 7, y + 0.35, stroke="#000", width=0.3))
        else:
            out.append(line(7, y, CARD_W - 7, y, stroke="#000", width=0.8, extra=_dash(style)))
    return rect(
        6, MARK_BAND_Y - 0.5, CARD_W - 12, MARK_BAND_H, fill=colour, extra=' fill-opacity="0.35"'
    ) + "".join(out)


def _symbol(role: str, cx: float, cy: float, r: float, colour: str) -> str:
    """The kind's symbol as a shape ($ coin, ◎ rings, ▲ triangle, ★ star)."""
    if role == "cash":
        return circle(cx, cy, r, fill=colour, stroke="#000", width=0.4) + text(
            cx, cy + r * 0.5, "$", r * 1.4, anchor="middle", bold=True, fill="#fff"
        )
    if role == "network":
        return (
            circle(cx, cy, r, fill="none", stroke=colour, width=2)
            + circle(cx, cy, r * 0.5, fill=colour)
            + circle(cx, cy, r + 1, stroke="#000", width=0.3)
        )
    if role == "tech":
        return polygon(
            [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)],
            fill=colour,
            stroke="#000",
            width=0.4,
        )
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.42
        ang = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    return polygon(pts, fill=colour, stroke="#000", width=0.4)


def _bolt() -> str:
    cx, cy = CARD_W / 2, 34
    return (
        f'<polygon points="{fmt(cx + 4)},{fmt(cy - 11)} {fmt(cx - 7)},{fmt(cy + 2)} {fmt(cx)},{fmt(cy + 2)} '
        f'{fmt(cx - 3)},{fmt(cy + 11)} {fmt(cx + 7)},{fmt(cy - 2)} {fmt(cx)},{fmt(cy - 2)}" fill="#343a40"/>'
    )


def _sector_flag() -> str:
    cx, cy = CARD_W / 2, 34
    return rect(
        cx - 12, cy - 9, 24, 18, fill="#e9ecef", stroke="#495057", width=0.5, radius=2
    ) + line(cx - 12, cy, cx + 12, cy, stroke="#495057", width=0.4)


BACK_COLOURS = {"Capital": ("#14213d", "#fca311"), "Deal": ("#3d1421", "#a3fcd1")}
"""Each deck's back: ground and stripe colours (dark navy/amber, dark wine/mint)."""


def back_art(back: str = "Capital") -> CardArt:
    """The back of one deck: the Capital deck's stripes rise to the right, the Deal
    deck's fall, in other colours, and each names its deck, so the two stacks are
    told apart face down even in greyscale."""
    if back not in BACK_COLOURS:
        raise ValueError(f"RUNWAY has no {back!r} back; backs: {', '.join(BACKS)}")
    ground, stripe = BACK_COLOURS[back]
    parts = [card_outline(fill=ground)]
    for i in range(7):
        y1, y2 = (20 + i * 8, 12 + i * 8) if back == "Capital" else (12 + i * 8, 20 + i * 8)
        parts.append(line(8, y1, CARD_W - 8, y2, stroke=stripe, width=0.5))
    parts.append(
        rect(
            8,
            CARD_H / 2 - 8,
            CARD_W - 16,
            18,
            fill=ground,
            stroke=stripe,
            width=0.6,
            radius=2,
        )
    )
    parts.append(
        text(CARD_W / 2, CARD_H / 2 + 1.5, "RUNWAY", 8, anchor="middle", bold=True, fill="#fff")
    )
    parts.append(
        text(CARD_W / 2, CARD_H / 2 + 7, back.upper(), 4, anchor="middle", bold=True, fill=stripe)
    )
    return CardArt(title=f"RUNWAY {back} back", body="".join(parts))


def card_svg(face: RunwayFace) -> str:
    return card_art(face).svg()


def faces(cards: Any, options: Mapping[str, Any] | None = None) -> list[RunwayFace]:
    """Face records from RUNWAY's loaded card data (`game.cards`, a RunwayCards),
    numbered as the engine numbers them (see games/runway/actions.py)."""
    styles = [CapitalStyle(k.role, k.name, k.symbol, k.colour, k.line_mark) for k in cards.kinds]
    sector_of = dict(zip((s.role for s in styles), cards.sectors, strict=True))
    out: list[RunwayFace] = []
    for style, kind in zip(styles, cards.kinds, strict=True):
        rule = MATCH_TEXT[style.role].format(sector=sector_of[style.role])
        for number in kind.numbers:  # printed numbers in card order (1-8 in the box)
            out.append(
                RunwayFace(
                    _id(len(out)),
                    f"{style.name} {number}",
                    "Capital",
                    "Capital",
                    style=style,
                    number=number,
                    text=rule,
                )
            )
    for deal in cards.deals:
        out.append(
            RunwayFace(
                _id(len(out)),
                deal.name,
                "Deal",
                "Deal",
                sector=deal.sector,
                score=deal.score,
                hype=deal.hype,
                text=_deal_text(styles, sector_of, deal.sector, deal.hype),
            )
        )
    for name, number in zip(cards.shock_names, cards.shock_cards, strict=True):
        out.append(RunwayFace(_id(number), name, "Deal", "Shock", text=SHOCK_TEXT))
    for i, (style, sector) in enumerate(zip(styles, cards.sectors, strict=True)):
        out.append(
            RunwayFace(
                _id(SECTOR0 + i),
                sector,
                "Deal",
                "Sector",
                sector=sector,
                text=f"Matched by {style.name} ({style.symbol}). Deals sit beside this card. "
                "A second Foothold here: +2 at once.",
            )
        )
    return out


def _deal_text(
    styles: list[CapitalStyle], sector_of: dict[str, str], sector: str, hype: int
) -> str:
    kind = next(s for s in styles if sector_of[s.role] == sector)
    return f"Matched by {kind.name} ({kind.symbol}). Won: Hype +{hype}. Dumped: Hype stays."


def _id(n: int) -> str:
    return f"rw{n:02d}"
