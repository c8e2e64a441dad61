"""SUPER COMPUTER card art: Part cards (connectors on the edges, size banner,
green and red points per round, the "<4" mark) and Build cards (requirements,
bonus and penalty per round), with a back for each deck.

A connector shows its colour AND its letter (the engine's LETTERS: K = black,
universal), so a grid can be matched without telling colours apart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    rect,
    text,
    text_block,
)
from cardlab.art.textfit import fit_text

TITLE = "SUPER COMPUTER"
BACKS = ("Part", "Build")
EDGES = ("north", "east", "south", "west")
CONNECTOR_COLOURS = {
    "black": ("#111111", "K", "#fff"),
    "red": ("#d62828", "R", "#fff"),
    "blue": ("#1d4ed8", "B", "#fff"),
    "green": ("#2b9348", "G", "#fff"),
    "yellow": ("#f4c20d", "Y", "#000"),
    "purple": ("#7b2cbf", "P", "#fff"),
}
"""Connector colour name -> (fill, letter, letter colour). Letters match the engine's."""
GREEN, RED = "#2b9348", "#c1121f"


@dataclass(frozen=True)
class PartFace(Face):
    """One Part card: edge connectors north/east/south/west ("none" for a bare edge)."""

    type: str = ""
    edges: tuple[str, str, str, str] = ("none", "none", "none", "none")
    size: str = ""
    green: tuple[int, int, int] = (0, 0, 0)
    red: tuple[int, int, int] = (0, 0, 0)
    lt4: bool = False


@dataclass(frozen=True)
class BuildFace(Face):
    """One Build card: requirement lines and the bonus and penalty per round."""

    requires: tuple[str, ...] = ()
    bonus: tuple[int, int, int] = (0, 0, 0)
    penalty: tuple[int, int, int] = (0, 0, 0)


def card_art(face: Face) -> CardArt:
    """The face of one Part or Build card."""
    if isinstance(face, PartFace):
        return _part(face)
    if isinstance(face, BuildFace):
        return _build(face)
    raise TypeError(f"not a SUPER COMPUTER face: {face!r}")


def _part(face: PartFace) -> CardArt:
    four_way = all(e != "none" for e in face.edges)
    parts = [card_outline(fill="#f8f9fa", stroke="#000")]
    parts.append(
        rect(9, 9, CARD_W - 18, CARD_H - 18, fill="#fff", stroke="#adb5bd", width=0.3, radius=2)
    )
    label = f"{face.type.upper()}{' · 4-WAY' if four_way else ''}"
    parts.append(text(CARD_W / 2, 14.5, label, 3, anchor="middle", bold=True, fill="#495057"))
    parts.append(
        centred_name(
            face.name, y=16.5, width=CARD_W - 22, height=11, max_size=4.6, min_size=2.8, max_lines=2
        )
    )
    if face.size:
        parts.append(rect(9, 30, CARD_W - 18, 8, fill="#212529"))
        parts.append(
            text(CARD_W / 2, 35.6, face.size, 4.4, anchor="middle", bold=True, fill="#fff")
        )
    parts.append(_round_table(42, ("ATTACHED", "SCRAP"), face.green, face.red, (GREEN, RED)))
    for edge, colour in zip(EDGES, face.edges, strict=True):
        parts.append(_connector(edge, colour, face.name))
    if face.lt4:
        parts.append(
            rect(
                CARD_W - 14.5, CARD_H - 8.5, 9, 5.5, fill="#fff", stroke="#000", width=0.4, radius=1
            )
        )
        parts.append(text(CARD_W - 10, CARD_H - 4.5, "<4", 3.8, anchor="middle", bold=True))
    parts.append(text(4.5, CARD_H - 4, face.id, 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def _connector(edge: str, colour: str, card: str) -> str:
    """A tab in the middle of an edge, filled with the colour and carrying its letter."""
    if colour == "none":
        return ""
    if colour not in CONNECTOR_COLOURS:
        from cardlab.core.errors import CardDataError

        raise CardDataError(
            f"card {card!r}: field {edge!r}: no art for connector colour {colour!r}"
        )
    fill, letter, ink = CONNECTOR_COLOURS[colour]
    long, short = 14.0, 7.0
    if edge in ("north", "south"):
        x, y = (CARD_W - long) / 2, (1.2 if edge == "north" else CARD_H - short - 1.2)
        w, h = long, short
    else:
        x, y = (1.2 if edge == "west" else CARD_W - short - 1.2), (CARD_H - long) / 2
        w, h = short, long
    return rect(x, y, w, h, fill=fill, stroke="#000", width=0.35, radius=1.5) + text(
        x + w / 2, y + h / 2 + 1.75, letter, 4.8, anchor="middle", bold=True, fill=ink
    )


def _round_table(
    top: float,
    labels: tuple[str, str],
    first: Sequence[int],
    second: Sequence[int],
    colours: tuple[str, str],
) -> str:
    """Two rows of per-round values (R1 R2 R3) in coloured dots."""
    xs = [CARD_W / 2 - 1.5 + 9 * i for i in range(3)]
    out = [
        text(x, top + 2, f"R{i + 1}", 2.6, anchor="middle", bold=True, fill="#495057")
        for i, x in enumerate(xs)
    ]
    for row, (label, values, colour) in enumerate(
        zip(labels, (first, second), colours, strict=True)
    ):
        cy = top + 8 + row * 10
        out.append(text(10.5, cy + 0.8, label, 2.2, bold=True, fill=colour))
        for x, v in zip(xs, values, strict=True):
            label_v = f"{v:+d}" if v else "0"
            size = 3.6 if len(label_v) < 3 else 2.9
            out.append(circle(x, cy, 3.8, fill=colour))
            out.append(
                text(x, cy + size * 0.37, label_v, size, anchor="middle", bold=True, fill="#fff")
            )
    return "".join(out)


def _build(face: BuildFace) -> CardArt:
    parts = banner_face_top("BUILD", face.name, "#003049")
    parts.append(text(6, 25, "REQUIRES (attached parts)", 2.6, bold=True, fill="#495057"))
    reqs = fit_text(
        "\n".join(face.requires),
        width=CARD_W - 14,
        height=26,
        max_size=3.8,
        min_size=2.3,
        card=face.name,
        field="requirements",
    )
    parts.append(text_block(8, 27, reqs))
    parts.append(_round_table(55, ("BONUS", "PENALTY"), face.bonus, face.penalty, (GREEN, RED)))
    parts.append(text(6, CARD_H - 5, face.id, 2.2, fill="#6c757d"))
    return CardArt(title=f"{face.name} ({face.id})", body="".join(parts))


def back_art(back: str) -> CardArt:
    """The back of the Part deck or of the Build deck."""
    colour = "#264653" if back == "Part" else "#003049"
    parts = [card_outline(fill=colour)]
    for i in range(5):
        parts.append(
            rect(10 + i * 9, 10, 4, CARD_H - 20, fill="#2a9d8f", extra=' fill-opacity="0.25"')
        )
    parts.append(
        text(CARD_W / 2, CARD_H / 2 - 3, "SUPER", 7, anchor="middle", bold=True, fill="#fff")
    )
    parts.append(
        text(CARD_W / 2, CARD_H / 2 + 5, "COMPUTER", 7, anchor="middle", bold=True, fill="#fff")
    )
    parts.append(
        text(
            CARD_W / 2,
            CARD_H / 2 + 14,
            back.upper(),
            4.5,
            anchor="middle",
            bold=True,
            fill="#e9c46a",
        )
    )
    return CardArt(title=f"SUPER COMPUTER {back} back", body="".join(parts))


def card_svg(face: Face) -> str:
    return card_art(face).svg()


def faces(cards: Any, options: Mapping[str, Any] | None = None) -> list[Face]:
    """Face records from the loaded card set (`game.cards`): parts sc00.. then builds sb00..,
    in file order, as the engine numbers them."""
    out: list[Face] = []
    for i, p in enumerate(cards.parts):
        size = f"{p.size} {p.unit}" if p.size is not None else ""
        out.append(
            PartFace(
                f"sc{i:02d}",
                p.name,
                "Part",
                p.type,
                type=p.type,
                edges=p.edges(),
                size=size,
                green=tuple(p.green),
                red=tuple(p.red),
                lt4=p.lt4,
            )
        )
    for i, b in enumerate(cards.builds):
        out.append(
            BuildFace(
                f"sb{i:02d}",
                b.name,
                "Build",
                "Build",
                requires=tuple(r.label() for r in b.requires),
                bonus=tuple(b.bonus),
                penalty=tuple(b.penalty),
            )
        )
    return out
