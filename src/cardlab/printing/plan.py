"""Which cards go on which page, and which back sheet goes behind each face
sheet.

Faces are packed nine to a sheet, deck by deck, so a game of 54 cards takes
six face sheets. The PDF then holds one back sheet per deck kind; a face sheet
whose cards wear different backs (UPTIME's 26 Supply cards end mid-sheet) also
gets its own mixed back sheet, laid out slot for slot, so that every card can
be printed duplex with its correct back.

The interleaved order is for printers that print a whole PDF two-sided: the
cover and a blank page share the first sheet of paper, then every face sheet
is followed by its own back sheet, so each face page and its backs land on
the two sides of one sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardlab.art.face import Face
from cardlab.core.errors import CardDataError
from cardlab.printing.layout import PER_SHEET


@dataclass(frozen=True)
class FaceSheet:
    """One sheet of up to nine faces and the page number of the back to print behind it."""

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
    """The page order (page 1 is the cover): face sheets then back sheets, or,
    `interleaved`, a blank page 2 and then each face sheet followed by its backs."""

    face_sheets: tuple[FaceSheet, ...]
    back_sheets: tuple[BackSheet, ...]
    interleaved: bool = False

    @property
    def page_count(self) -> int:
        return (2 if self.interleaved else 1) + len(self.face_sheets) + len(self.back_sheets)

    @property
    def blank_pages(self) -> tuple[int, ...]:
        return (2,) if self.interleaved else ()

    def face_page(self, sheet: FaceSheet) -> int:
        return 3 + 2 * sheet.index if self.interleaved else 2 + sheet.index

    def back_page(self, position: int) -> int:
        if self.interleaved:
            return 4 + 2 * position
        return 2 + len(self.face_sheets) + position


def plan_pages(
    faces: Sequence[Face], back_kinds: Sequence[str], interleaved: bool = False
) -> PrintPlan:
    """Pack `faces` deck by deck (in `back_kinds` order) and plan their backs."""
    unknown = sorted({f.back for f in faces} - set(back_kinds))
    if unknown:
        raise CardDataError(
            f"cards with no known back: {', '.join(unknown)}; backs: {', '.join(back_kinds)}"
        )
    ordered = [f for kind in back_kinds for f in faces if f.back == kind]
    chunks = [tuple(ordered[i : i + PER_SHEET]) for i in range(0, len(ordered), PER_SHEET)]
    if interleaved:
        own = tuple(
            BackSheet(
                f"backs for face sheet {i + 1}",
                tuple(f.back for f in chunk) + ("",) * (PER_SHEET - len(chunk)),
                (i,),
            )
            for i, chunk in enumerate(chunks)
        )
        sheets = tuple(FaceSheet(i, chunk, 4 + 2 * i) for i, chunk in enumerate(chunks))
        return PrintPlan(sheets, own, interleaved=True)
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
    return PrintPlan(sheets, tuple(backs))
