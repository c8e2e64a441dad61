"""The cover page: what is in the PDF, how many cards of each kind, which back
sheet goes behind which face sheet, and how to print (with a 100 mm bar to
check the print scale)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardlab.art.face import Face
from cardlab.art.svg import line, rect, text
from cardlab.printing.paper import Paper
from cardlab.printing.plan import PrintPlan
from cardlab.printing.sheets import page_svg

INSTRUCTIONS = (
    "Print at 100% (actual size), never 'fit to page': the bar below must measure 100 mm.",
    "Duplex: print the face sheets, then print the back sheet named for each face sheet",
    "on its reverse, flipping on the LONG edge. Backs are mirrored to line up that way.",
    "Cut along the crop marks: each mark continues a cut line through the whole block.",
)


def contents_lines(title: str, faces: Sequence[Face], back_kinds: Sequence[str]) -> list[str]:
    """The cover's card counts: total, per deck kind, and per category within it."""
    lines = [f"{len(faces)} cards"]
    for kind in back_kinds:
        deck = [f for f in faces if f.back == kind]
        if not deck:
            continue
        counts = Counter(f.category for f in deck)
        detail = ", ".join(f"{n} {cat}" for cat, n in counts.items())
        lines.append(f"{kind} deck: {len(deck)} cards ({detail})")
    return lines


def page_lines(plan: PrintPlan) -> list[str]:
    """The page guide: each face sheet with its card count and the back to print behind it."""
    lines = ["page 1: this cover"]
    for sheet in plan.face_sheets:
        lines.append(
            f"page {plan.face_page(sheet)}: face sheet {sheet.index + 1} "
            f"({len(sheet.faces)} cards) - print page {sheet.back_page} on its back"
        )
    for pos, back in enumerate(plan.back_sheets):
        lines.append(f"page {plan.back_page(pos)}: {back.label}")
    return lines


def cover_page(
    paper: Paper, title: str, faces: Sequence[Face], back_kinds: Sequence[str], plan: PrintPlan
) -> str:
    x = 20.0
    parts = [
        text(x, 32, title, 14, bold=True),
        text(x, 41, f"Print-and-play cards · poker size 63 x 88 mm · {paper.name}", 4.2),
        text(x, 54, "Contents", 5, bold=True),
    ]
    y = 61.0
    for entry in contents_lines(title, faces, back_kinds):
        parts.append(text(x, y, entry, 3.4))
        y += 5.2
    y += 4
    parts.append(text(x, y, "Pages", 5, bold=True))
    y += 7
    for entry in page_lines(plan):
        parts.append(text(x, y, entry, 3.4))
        y += 5.2
    y += 4
    parts.append(text(x, y, "How to print", 5, bold=True))
    y += 7
    for entry in INSTRUCTIONS:
        parts.append(text(x, y, entry, 3.2))
        y += 5
    y += 6
    parts.append(rect(x, y, 100, 4, fill="#000"))
    for mm in range(0, 101, 10):
        parts.append(line(x + mm, y + 4, x + mm, y + 6, width=0.25))
    parts.append(text(x, y + 10, "scale check: this bar is 100 mm long", 3))
    parts.append(
        text(
            paper.width / 2, paper.height - 12, f"page 1 of {plan.page_count}", 2.8, anchor="middle"
        )
    )
    return page_svg(paper, "".join(parts))
