"""The plain card face every game gets when its package has no `art.py`.

A new game prints and shows in the browser before anyone designs its faces, and the
printed card is playable: the face shows every field the card's record declares, from
the game's validated card data (every record in it with a string `id` is a card).

- its `name` (else its id) at the top, its id small at the foot;
- its first number (`value`, `rank`, ...) large in the centre and in two corners, the
  way playing cards show a rank, and every other number as a labelled row;
- an icon field (named `icon`, `icons`, `symbol(s)`, `suit(s)` or ending in `_icon(s)`)
  as drawn symbols (heart, diamond, club, spade, star, circle, square, triangle,
  cross, moon, sun, drop, bolt; a suit's letter c/d/h/s or its symbol; any other name
  as a labelled chip);
- true/false fields as yes/no rows, lists as their items;
- text (`text`, `effect`, ...) fitted in the space left, never smaller than
  `MIN_TEXT` mm type (legible at 9-up, the cards printed at their real size).

A field the face cannot show (a nested table or list of records), or text that does
not fit, is a `PlainFaceError` naming the game, the card and the field: the game then
needs its own art (docs/print.md, "A plugin's art")."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from cardlab.art.errors import CardTextOverflowError
from cardlab.art.face import Face
from cardlab.art.svg import (
    CARD_H,
    CARD_W,
    CardArt,
    card_outline,
    circle,
    fmt,
    polygon,
    rect,
    text,
    text_block,
)
from cardlab.art.textfit import fit_text, text_width
from cardlab.core.errors import CardDataError

BACK = "Card"

MIN_TEXT = 2.6
"""The smallest type on a plain face, mm (about 7.4 pt: legible on a printed card)."""

ICON_FIELD = re.compile(r"^(icons?|symbols?|suits?)$|_icons?$")
"""Field names whose values are icon names."""

SKIPPED = ("id", "name")
"""Fields the face shows in their own places (the title and the foot)."""

Value = str | int | float | bool | tuple[Any, ...]


class PlainFaceError(CardDataError):
    """A card field the plain face cannot show, or text too long for it."""


@dataclass(frozen=True)
class PlainFace(Face):
    """A face record with the card's other fields, in the order its record declares them."""

    fields: tuple[tuple[str, Value], ...] = ()


class PlainArt:
    """Duck-types a game's art module (TITLE, BACKS, faces, card_art, card_svg, back_art)."""

    BACKS = (BACK,)

    def __init__(self, title: str, game: str = "") -> None:
        self.TITLE = title
        self.game = game or title

    def faces(self, cards: Any, options: Mapping[str, Any] | None = None) -> list[Face]:
        seen: dict[str, Face] = {}
        for record in _records(cards):
            card_id = record.id
            if card_id not in seen:
                name = str(getattr(record, "name", "") or card_id)
                shown = tuple(
                    (key, self._value(card_id, key, value))
                    for key, value in _fields(record)
                    if key not in SKIPPED and value is not None and value != ""
                )
                seen[card_id] = PlainFace(card_id, name, BACK, "card", shown)
        return list(seen.values())

    def _value(self, card: str, key: str, value: Any) -> Value:
        """The field as the face shows it, or a PlainFaceError naming game, card, field."""
        if isinstance(value, str | bool | int | float):
            return value
        if isinstance(value, list | tuple) and all(
            isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
        ):
            return tuple(value)
        raise PlainFaceError(
            f"game {self.game!r}: card {card!r}: field {key!r}: the plain card face cannot "
            f"show a {type(value).__name__} ({_short(value)}); it shows numbers, text, "
            "true/false and lists of numbers, words or icon names. Give the game its own "
            "card art (an art.py, docs/print.md) or flatten the field"
        )

    def card_art(self, face: Face) -> CardArt:
        shown = face.fields if isinstance(face, PlainFace) else ()
        try:
            body = _draw(face, shown)
        except CardTextOverflowError as exc:
            raise PlainFaceError(f"game {self.game!r}: {exc}") from None
        return CardArt(face.name, body)

    def card_svg(self, face: Face) -> str:
        return self.card_art(face).svg()

    def back_art(self, back: str = BACK) -> CardArt:
        body = card_outline(fill="#888") + text(
            CARD_W / 2, CARD_H / 2, self.TITLE, 6, anchor="middle", bold=True, fill="#fff"
        )
        return CardArt(f"{self.TITLE} back", body)


# ---- drawing -----------------------------------------------------------------------
LEFT, RIGHT = 5.0, CARD_W - 5.0
WIDTH = RIGHT - LEFT
ROW = 4.6
"""Height of one labelled row, mm."""


def _draw(face: Face, shown: tuple[tuple[str, Value], ...]) -> str:
    numbers = [(k, v) for k, v in shown if _is_number(v)]
    primary = numbers[0] if numbers else None
    icons = [(k, v) for k, v in shown if ICON_FIELD.search(k) and not _is_number(v)]
    texts = [(k, v) for k, v in shown if isinstance(v, str) and (k, v) not in icons]
    rows = [(k, v) for k, v in shown if (k, v) not in [primary, *icons, *texts]]
    out = [card_outline(), rect(3, 3, CARD_W - 6, CARD_H - 6, stroke="#999", radius=1.5)]
    top = 5.0
    if primary is not None:  # the rank, as playing cards show it: two corners
        corner = _num(primary[1])
        size = 6.0 if len(corner) <= 2 else 4.5
        out.append(text(5.2, 10.2, corner, size, bold=True))
        out.append(
            text(5.2, 10.2, corner, size, bold=True,
                 extra=f' transform="rotate(180 {fmt(CARD_W / 2)} {fmt(CARD_H / 2)})"')
        )  # fmt: skip
        top = 12.0
    name = fit_text(
        face.name, width=WIDTH - 8, height=12, max_size=5.5, min_size=3, card=face.id,
        field="name", bold=True, max_lines=2,
    )  # fmt: skip
    out.append(text_block(CARD_W / 2, top, name, anchor="middle", bold=True))
    y = top + name.height + 1.5
    if primary is not None:
        key, value = primary
        big = _num(value)
        size = min(16.0, 36.0 / max(1, len(big)))
        if not (icons or rows or texts):  # the rank alone: large, in the middle
            size = min(28.0, 50.0 / max(1, len(big)))
            y = (y + CARD_H - 10.0) / 2 - size * 0.5
        out.append(text(CARD_W / 2, y + size * 0.75, big, size, anchor="middle", bold=True))
        y += size * 0.8
        out.append(text(CARD_W / 2, y + 3.0, _words(key), 2.8, anchor="middle", fill="#555"))
        y += 4.8
    for key, value in icons:
        drawn, y = _icon_row(key, value, y)
        out.append(drawn)
    for key, value in rows:
        out.append(text(LEFT + 1, y + 3.4, _words(key), 3.0, fill="#555"))
        out.append(text(RIGHT - 1, y + 3.4, _show(value), 3.2, anchor="end", bold=True))
        y += ROW
    bottom = CARD_H - 10.0
    for i, (key, value) in enumerate(texts):
        left = len(texts) - i
        room = (bottom - y) / left - (3.6 if len(texts) > 1 else 0.0)
        label = len(texts) > 1 or key not in ("text", "effect", "rules", "ability")
        if label:
            out.append(text(LEFT + 1, y + 2.9, _words(key), 2.8, fill="#555"))
            y += 3.6
        fitted = fit_text(
            value, width=WIDTH - 2, height=max(room, 0.0), max_size=4.0, min_size=MIN_TEXT,
            card=face.id, field=f"field {key!r}",
        )  # fmt: skip
        out.append(text_block(LEFT + 1, y, fitted))
        y += fitted.height + 1.0
    if y > bottom + 1e-6:
        raise CardTextOverflowError(
            f"card {face.id!r}: its {len(shown)} fields do not fit on the plain face at "
            f"{MIN_TEXT:g} mm type (they need {y - top:.0f} mm of {bottom - top:.0f}); "
            "fewer fields or an art.py of its own"
        )
    out.append(text(CARD_W / 2, CARD_H - 5.5, face.id, 2.6, anchor="middle", fill="#666"))
    return "".join(out)


def _icon_row(key: str, value: Value, y: float) -> tuple[str, float]:
    """An icon field: its symbols in rows of up to eight, names not in `ICONS` as chips."""
    names = [str(v) for v in (value if isinstance(value, tuple) else (value,))]
    out, x, size = [], LEFT + 1, 5.6
    label = _words(key)
    out.append(text(LEFT + 1, y + 2.9, label, 2.8, fill="#555"))
    y += 3.6
    for name in names:
        draw = ICONS.get(name.strip().lower())
        width = size if draw else text_width(name, 3.0) + 2.4
        if x + width > RIGHT:
            x, y = LEFT + 1, y + size + 1.0
        if draw:
            out.append(draw(x + size / 2, y + size / 2, size / 2))
        else:
            out.append(rect(x, y + 0.4, width, size - 0.8, stroke="#333", radius=1.2))
            out.append(text(x + width / 2, y + size / 2 + 1.05, name, 3.0, anchor="middle"))
        x += width + 1.0
    return "".join(out), y + size + 1.4


def _is_number(value: Value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _num(value: Value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def _show(value: Value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(_num(v) for v in value) or "none"
    return _num(value)


def _words(key: str) -> str:
    return key.replace("_", " ")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ---- icons: simple symbols drawn in a circle of radius r about (x, y) ----------------
def _star(x: float, y: float, r: float, points: int = 5, inner: float = 0.45) -> str:
    pts = []
    for i in range(points * 2):
        radius = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + i * math.pi / points
        pts.append((x + radius * math.cos(a), y + radius * math.sin(a)))
    return polygon(pts, fill="#222")


def _heart(x: float, y: float, r: float) -> str:
    return (
        f'<path d="M{fmt(x)},{fmt(y + r * 0.9)} C{fmt(x - r * 1.4)},{fmt(y - r * 0.1)} '
        f"{fmt(x - r * 0.7)},{fmt(y - r * 1.1)} {fmt(x)},{fmt(y - r * 0.35)} "
        f"C{fmt(x + r * 0.7)},{fmt(y - r * 1.1)} {fmt(x + r * 1.4)},{fmt(y - r * 0.1)} "
        f'{fmt(x)},{fmt(y + r * 0.9)} Z" fill="#c22"/>'
    )


def _club(x: float, y: float, r: float) -> str:
    k = r * 0.42
    return "".join(
        [
            circle(x, y - r * 0.45, k, fill="#222"),
            circle(x - r * 0.5, y + r * 0.1, k, fill="#222"),
            circle(x + r * 0.5, y + r * 0.1, k, fill="#222"),
            polygon([(x, y), (x - r * 0.35, y + r), (x + r * 0.35, y + r)], fill="#222"),
        ]
    )


def _spade(x: float, y: float, r: float) -> str:
    return (
        f'<path d="M{fmt(x)},{fmt(y - r)} C{fmt(x - r * 1.5)},{fmt(y + r * 0.1)} '
        f"{fmt(x - r * 0.6)},{fmt(y + r * 0.9)} {fmt(x)},{fmt(y + r * 0.35)} "
        f"C{fmt(x + r * 0.6)},{fmt(y + r * 0.9)} {fmt(x + r * 1.5)},{fmt(y + r * 0.1)} "
        f'{fmt(x)},{fmt(y - r)} Z" fill="#222"/>'
        + polygon([(x, y + r * 0.2), (x - r * 0.35, y + r), (x + r * 0.35, y + r)], fill="#222")
    )


def _moon(x: float, y: float, r: float) -> str:
    return circle(x, y, r * 0.9, fill="#222") + circle(
        x + r * 0.4, y - r * 0.2, r * 0.75, fill="#fff"
    )


def _sun(x: float, y: float, r: float) -> str:
    return _star(x, y, r, points=12, inner=0.7).replace("#222", "#d80") + circle(
        x, y, r * 0.5, fill="#fb0"
    )


ICONS: dict[str, Callable[[float, float, float], str]] = {
    "heart": _heart,
    "hearts": _heart,
    "diamond": lambda x, y, r: polygon(
        [(x, y - r), (x + r * 0.7, y), (x, y + r), (x - r * 0.7, y)], fill="#c22"
    ),
    "club": _club,
    "spade": _spade,
    "star": _star,
    "circle": lambda x, y, r: circle(x, y, r * 0.85, fill="#222"),
    "square": lambda x, y, r: rect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6, fill="#222"),
    "triangle": lambda x, y, r: polygon(
        [(x, y - r * 0.9), (x + r * 0.9, y + r * 0.75), (x - r * 0.9, y + r * 0.75)], fill="#222"
    ),
    "cross": lambda x, y, r: (
        rect(x - r * 0.25, y - r * 0.85, r * 0.5, r * 1.7, fill="#222")
        + rect(x - r * 0.85, y - r * 0.25, r * 1.7, r * 0.5, fill="#222")
    ),
    "moon": _moon,
    "sun": _sun,
    "drop": lambda x, y, r: (
        f'<path d="M{fmt(x)},{fmt(y - r)} C{fmt(x + r)},{fmt(y)} {fmt(x + r * 0.7)},{fmt(y + r)} '
        f"{fmt(x)},{fmt(y + r)} C{fmt(x - r * 0.7)},{fmt(y + r)} {fmt(x - r)},{fmt(y)} "
        f'{fmt(x)},{fmt(y - r)} Z" fill="#27c"/>'
    ),
    "bolt": lambda x, y, r: polygon(
        [
            (x + r * 0.2, y - r),
            (x - r * 0.6, y + r * 0.15),
            (x, y + r * 0.15),
            (x - r * 0.2, y + r),
            (x + r * 0.6, y - r * 0.15),
            (x, y - r * 0.15),
        ],
        fill="#e90",
    ),  # fmt: skip
}
"""The symbols the plain face draws for an icon field's names (lower case)."""
for _singular in ("diamond", "club", "spade", "star"):
    ICONS[_singular + "s"] = ICONS[_singular]
for _alias, _suit in (("c", "club"), ("d", "diamond"), ("h", "heart"), ("s", "spade"),
                      ("♣", "club"), ("♦", "diamond"), ("♥", "heart"), ("♠", "spade")):  # fmt: skip
    ICONS[_alias] = ICONS[_suit]  # a suit field's letter or symbol (a standard deck)


def _fields(record: Any) -> Iterator[tuple[str, Any]]:
    """A card record's fields in declared order (pydantic, dataclass or plain object)."""
    if hasattr(type(record), "model_fields"):
        for key in type(record).model_fields:
            yield key, getattr(record, key)
    elif is_dataclass(record):
        for f in fields(record):
            yield f.name, getattr(record, f.name)
    elif isinstance(record, Mapping):
        yield from ((str(k), v) for k, v in record.items())
    else:
        yield from ((k, v) for k, v in vars(record).items() if not k.startswith("_"))


def _records(value: Any, depth: int = 0) -> Iterator[Any]:
    """Every object under `value` with a string `id` (pydantic models, dataclasses,
    lists, dicts), in order."""
    if depth > 6 or isinstance(value, str | bytes | int | float | bool) or value is None:
        return
    if isinstance(getattr(value, "id", None), str):
        yield value
        return
    if isinstance(value, Mapping):
        children: Any = value.values()
    elif isinstance(value, list | tuple | set | frozenset):
        children = value
    elif hasattr(type(value), "model_fields"):
        children = [getattr(value, name) for name in type(value).model_fields]
    elif is_dataclass(value):
        children = [getattr(value, f.name) for f in fields(value)]
    else:
        return
    for child in children:
        yield from _records(child, depth + 1)
