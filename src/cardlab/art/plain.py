"""The plain card face every game gets when its package has no `art.py`.

It draws each card's name (and its id) on a white card and one grey back, so a
new game prints and shows in the browser before anyone designs its faces. The
faces come from the game's validated card data: every record in it with a
string `id` is a card (its `name`, else its id, is printed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from cardlab.art.face import Face
from cardlab.art.svg import CARD_H, CARD_W, CardArt, card_outline, centred_name, rect, text

BACK = "Card"


class PlainArt:
    """Duck-types a game's art module (TITLE, BACKS, faces, card_art, card_svg, back_art)."""

    BACKS = (BACK,)

    def __init__(self, title: str) -> None:
        self.TITLE = title

    def faces(self, cards: Any, options: Mapping[str, Any] | None = None) -> list[Face]:
        seen: dict[str, Face] = {}
        for record in _records(cards):
            card_id = record.id
            if card_id not in seen:
                name = str(getattr(record, "name", "") or card_id)
                seen[card_id] = Face(id=card_id, name=name, back=BACK, category="card")
        return list(seen.values())

    def card_art(self, face: Face) -> CardArt:
        body = "".join(
            [
                card_outline(),
                rect(3, 3, CARD_W - 6, CARD_H - 6, stroke="#999", radius=1.5),
                centred_name(
                    face.name,
                    y=CARD_H / 2 - 6,
                    width=CARD_W - 10,
                    height=14,
                    max_size=6,
                    max_lines=2,
                ),
                text(CARD_W / 2, CARD_H - 6, face.id, 3, anchor="middle", fill="#666"),
            ]
        )
        return CardArt(face.name, body)

    def card_svg(self, face: Face) -> str:
        return self.card_art(face).svg()

    def back_art(self, back: str = BACK) -> CardArt:
        body = card_outline(fill="#888") + text(
            CARD_W / 2, CARD_H / 2, self.TITLE, 6, anchor="middle", bold=True, fill="#fff"
        )
        return CardArt(f"{self.TITLE} back", body)


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
