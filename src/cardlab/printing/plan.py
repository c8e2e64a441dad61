"""Which cards go on which page, and which back sheet goes behind each face
sheet.

Faces are packed nine to a sheet, deck by deck, so a game of 54 cards takes
six face sheets. Four page orders:

- `duplex` (the default): the cover and a blank page share the first sheet of
  paper, then every face sheet is followed by its own back sheet (slot for
  slot), so printing the whole file two-sided puts each face page and its backs
  on the two sides of one sheet.
- `faces-only`: the cover, then the face sheets alone.
- `backs-only`: the back sheets alone, in face-sheet order (no cover): print
  them on the reverse of a `faces-only` print, one per face sheet.
- `separate`: the cover, all face sheets, then one back sheet per deck kind
  (plus a mixed one where a face sheet holds cards of two decks): fewer pages
  for a printer fed by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardlab.art.face import Face
from cardlab.core.errors import CardDataError, CardlabError
from cardlab.printing.layout import PER_SHEET

ORDERS = ("duplex", "faces-only", "backs-only", "separate")


class PrintOrderError(CardlabError):
    """A page order the print command does not know."""


@dataclass(frozen=True)
class FaceSheet:
    """One sheet of up to nine faces and the page number of the back to print behind it
    (in `faces-only`, the page of its backs in the `backs-only` file)."""

    index: int
    faces: tuple[Face, ...]
    back_page: int = 0

    @property
    def backs(self) -> tuple[str, ...]:
        return tuple(face.back for face in self.faces)


@dataclass(frozen=True)
class BackSheet:
    """One sheet of backs: `backs[i]` backs face slot i ("" leaves the slot empty)."""

    label: str
    backs: tuple[str, ...]
    face_sheets: tuple[int, ...]


@dataclass(frozen=True)
class PrintPlan:
    """The page order; page 1 is the cover except in `backs-only`."""

    face_sheets: tuple[FaceSheet, ...]
    back_sheets: tuple[BackSheet, ...]
    order: str = "duplex"

    @property
    def interleaved(self) -> bool:
        return self.order == "duplex"

    @property
    def has_cover(self) -> bool:
        return self.order != "backs-only"

    @property
    def printed_faces(self) -> tuple[FaceSheet, ...]:
        return () if self.order == "backs-only" else self.face_sheets

    @property
    def printed_backs(self) -> tuple[BackSheet, ...]:
        return () if self.order == "faces-only" else self.back_sheets

    @property
    def page_count(self) -> int:
        cover = {"duplex": 2, "backs-only": 0}.get(self.order, 1)
        return cover + len(self.printed_faces) + len(self.printed_backs)

    @property
    def blank_pages(self) -> tuple[int, ...]:
        return (2,) if self.interleaved else ()

    def face_page(self, sheet: FaceSheet) -> int:
        return 3 + 2 * sheet.index if self.interleaved else 2 + sheet.index

    def back_page(self, position: int) -> int:
        if self.interleaved:
            return 4 + 2 * position
        if self.order == "backs-only":
            return 1 + position
        return 2 + len(self.face_sheets) + position


def check_order(order: str) -> str:
    if order not in ORDERS:
        raise PrintOrderError(f"unknown page order {order!r}; choose one of: {', '.join(ORDERS)}")
    return order


def plan_pages(
    faces: Sequence[Face],
    back_kinds: Sequence[str],
    order: str = "duplex",
    *,
    interleaved: bool | None = None,
) -> PrintPlan:
    """Pack `faces` deck by deck (in `back_kinds` order) and plan their backs.

    `interleaved` is the old switch: True is `duplex` (now the default), False
    `separate` (the old default)."""
    if interleaved is not None:
        order = "duplex" if interleaved else "separate"
    check_order(order)
    unknown = sorted({f.back for f in faces} - set(back_kinds))
    if unknown:
        raise CardDataError(
            f"cards with no known back: {', '.join(unknown)}; backs: {', '.join(back_kinds)}"
        )
    ordered = [f for kind in back_kinds for f in faces if f.back == kind]
    chunks = [tuple(ordered[i : i + PER_SHEET]) for i in range(0, len(ordered), PER_SHEET)]
    if order != "separate":
        own = tuple(
            BackSheet(
                f"backs for face sheet {i + 1}",
                tuple(f.back for f in chunk) + ("",) * (PER_SHEET - len(chunk)),
                (i,),
            )
            for i, chunk in enumerate(chunks)
        )
        plan = PrintPlan((), own, order)
        sheets = tuple(
            FaceSheet(i, chunk, 1 + i if order == "faces-only" else plan.back_page(i))
            for i, chunk in enumerate(chunks)
        )
        return PrintPlan(sheets, own, order)
    used = [k for k in back_kinds if any(f.back == k for f in faces)]
    kind_sheets = {k: [i for i, c in enumerate(chunks) if {f.back for f in c} == {k}] for k in used}
    backs = [BackSheet(f"{k} backs", (k,) * PER_SHEET, tuple(kind_sheets[k])) for k in used]
    for i, chunk in enumerate(chunks):
        if len({f.back for f in chunk}) > 1:
            slots = tuple(f.back for f in chunk) + ("",) * (PER_SHEET - len(chunk))
            backs.append(BackSheet(f"mixed backs for face sheet {i + 1}", slots, (i,)))
    first_back = 2 + len(chunks)
    back_page_of = {s: first_back + pos for pos, b in enumerate(backs) for s in b.face_sheets}
    sheets = tuple(FaceSheet(i, chunk, back_page_of[i]) for i, chunk in enumerate(chunks))
    return PrintPlan(sheets, tuple(backs), "separate")
