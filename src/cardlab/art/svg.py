"""Small SVG building blocks for card templates.

Cards are drawn in millimetres: a card body uses the coordinate box
0..CARD_W x 0..CARD_H, so the same markup is a standalone SVG file (for the
browser table) or is placed on a print sheet by a translate, without scaling."""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from cardlab.art.textfit import LINE_HEIGHT, SVG_FONT_FAMILY, FittedText, fit_text

CARD_W = 63.0
"""Poker card width, mm."""
CARD_H = 88.0
"""Poker card height, mm."""
CORNER = 3.0
"""Corner radius of the printed card outline, mm."""


@dataclass(frozen=True)
class CardArt:
    """One card side: its SVG body in card millimetres, and a title for tooltips."""

    title: str
    body: str

    def svg(self) -> str:
        """A standalone SVG document of the card at its physical size."""
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{CARD_W:g}mm" height="{CARD_H:g}mm" viewBox="0 0 {CARD_W:g} {CARD_H:g}">'
            f"<title>{escape(self.title)}</title>{self.body}</svg>"
        )


def fmt(value: float) -> str:
    """A number for an SVG attribute: short, no float noise."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "start",
    bold: bool = False,
    fill: str = "#000",
    extra: str = "",
) -> str:
    """One line of text with its baseline at y."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{fmt(x)}" y="{fmt(y)}" font-family={quoteattr(SVG_FONT_FAMILY)} '
        f'font-size="{fmt(size)}" text-anchor="{anchor}" fill="{fill}"{weight}{extra}>'
        f"{escape(content)}</text>"
    )


def text_block(
    x: float,
    top: float,
    fitted: FittedText,
    *,
    anchor: str = "start",
    bold: bool = False,
    fill: str = "#000",
) -> str:
    """Fitted lines stacked downward from `top` (the top of the first line box)."""
    out = []
    for i, line in enumerate(fitted.lines):
        baseline = top + fitted.size * (0.95 + i * LINE_HEIGHT)
        out.append(text(x, baseline, line, fitted.size, anchor=anchor, bold=bold, fill=fill))
    return "".join(out)


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str = "none",
    stroke: str = "none",
    width: float = 0.3,
    radius: float = 0.0,
    extra: str = "",
) -> str:
    r = f' rx="{fmt(radius)}"' if radius else ""
    return (
        f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}"{r} '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{fmt(width)}"{extra}/>'
    )


def line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    *,
    stroke: str = "#000",
    width: float = 0.3,
    extra: str = "",
) -> str:
    return (
        f'<line x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}" '
        f'stroke="{stroke}" stroke-width="{fmt(width)}"{extra}/>'
    )


def circle(
    cx: float, cy: float, r: float, *, fill: str = "none", stroke: str = "none", width: float = 0.3
) -> str:
    return (
        f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(r)}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{fmt(width)}"/>'
    )


def polygon(
    points: list[tuple[float, float]],
    *,
    fill: str = "none",
    stroke: str = "none",
    width: float = 0.3,
) -> str:
    pts = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{fmt(width)}"/>'


def card_outline(*, fill: str = "#fff", stroke: str = "#000") -> str:
    """The card's rounded outline, drawn just inside the cut line."""
    return rect(
        0.15, 0.15, CARD_W - 0.3, CARD_H - 0.3, fill=fill, stroke=stroke, width=0.3, radius=CORNER
    )


def centred_name(
    name: str,
    *,
    y: float,
    width: float,
    height: float,
    max_size: float,
    min_size: float = 3,
    max_lines: int = 1,
) -> str:
    """A card's name, bold and centred at `y`, shrunk to fit its box; a name that
    cannot fit is reported by card (CardTextOverflowError), never clipped."""
    fitted = fit_text(
        name,
        width=width,
        height=height,
        max_size=max_size,
        min_size=min_size,
        card=name,
        field="name",
        bold=True,
        max_lines=max_lines,
    )
    return text_block(CARD_W / 2, y, fitted, anchor="middle", bold=True)


def banner_face_top(
    label: str, name: str, colour: str, *, name_size: float = 5.5, name_y: float = 12.5
) -> list[str]:
    """Outline, white face, a coloured banner reading `label` and the card's name
    below it: the top of every Deal, Shock, Sector and Build card, one family."""
    return [
        card_outline(fill=colour),
        rect(3, 3, CARD_W - 6, CARD_H - 6, fill="#fff", radius=1.5),
        rect(3, 3, CARD_W - 6, 7, fill=colour, radius=1.5),
        text(CARD_W / 2, 8.2, label, 3.4, anchor="middle", bold=True, fill="#fff"),
        centred_name(name, y=name_y, width=CARD_W - 10, height=7, max_size=name_size),
    ]
