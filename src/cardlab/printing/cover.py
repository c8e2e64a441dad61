"""The cover page: what is in the PDF, how many cards of each kind, which back
sheet goes behind which face sheet, and how to print (with a 100 mm bar to
check the print scale)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardlab.art.face import Face
from cardlab.art.svg import line, rect, text
from cardlab.art.textfit import wrap
from cardlab.printing.paper import Paper
from cardlab.printing.plan import PrintPlan
from cardlab.printing.sheets import page_svg

SEPARATE_INSTRUCTIONS = (
    "Print at 100% (actual size), never 'fit to page': the bar below must measure 100 mm.",
    "Duplex: print the face sheets, then print the back sheet named for each face sheet "
    "on its reverse, flipping on the LONG edge. Backs are mirrored to line up that way.",
    "Cut along the crop marks: each mark continues a cut line through the whole block.",
)
FACES_ONLY_INSTRUCTIONS = (
    "Print at 100% (actual size), never 'fit to page': the bar below must measure 100 mm.",
    "This file holds the faces only. Print the backs file (cardlab print GAME --backs-only) "
    "on the reverse of the face sheets, in order, flipping on the LONG edge.",
    "Cut along the crop marks: each mark continues a cut line through the whole block.",
)
INTERLEAVED_INSTRUCTIONS = (
    "Print at 100% (actual size), never 'fit to page': the bar below must measure 100 mm.",
    "Duplex: print the whole file two-sided, flipping on the LONG edge. Each face sheet is "
    "followed by its backs, so they land on the two sides of one sheet (page 2 is blank).",
    "Cut along the crop marks: each mark continues a cut line through the whole block.",
)
INSTRUCTIONS = {
    "duplex": INTERLEAVED_INSTRUCTIONS,
    "faces-only": FACES_ONLY_INSTRUCTIONS,
    "separate": SEPARATE_INSTRUCTIONS,
}
LEFT = 20.0
"""Cover text starts this far from the left edge (mm) and keeps as far from the right."""


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
    lines += [f"page {p}: blank (the back of the cover)" for p in plan.blank_pages]
    if plan.order == "faces-only":
        for sheet in plan.face_sheets:
            lines.append(
                f"page {plan.face_page(sheet)}: face sheet {sheet.index + 1} "
                f"({len(sheet.faces)} cards); its backs: page {sheet.back_page} of --backs-only"
            )
        return lines
    if plan.interleaved:
        for sheet in plan.face_sheets:
            lines.append(
                f"page {plan.face_page(sheet)}: face sheet {sheet.index + 1} "
                f"({len(sheet.faces)} cards); page {sheet.back_page}: its backs"
            )
        return lines
    for sheet in plan.face_sheets:
        lines.append(
            f"page {plan.face_page(sheet)}: face sheet {sheet.index + 1} "
            f"({len(sheet.faces)} cards) - print page {sheet.back_page} on its back"
        )
    for pos, back in enumerate(plan.back_sheets):
        lines.append(f"page {plan.back_page(pos)}: {back.label}")
    return lines


def cover_page(
    paper: Paper,
    title: str,
    faces: Sequence[Face],
    back_kinds: Sequence[str],
    plan: PrintPlan,
    extra_pages: Sequence[str] = (),
    page_count: int | None = None,
) -> str:
    """The cover; every line is wrapped to stay inside the page's side margins.
    `extra_pages` are page-guide lines for pages after the plan's (the rules sheet)."""
    x = LEFT
    width = paper.width - 2 * LEFT
    parts = [text(x, 32, title, 14, bold=True)]
    y = 41.0

    def lines(entries: Sequence[str], size: float, step: float) -> None:
        nonlocal y
        for entry in entries:
            for piece in wrap(entry, size, width):
                parts.append(text(x, y, piece, size))
                y += step

    def heading(label: str) -> None:
        nonlocal y
        parts.append(text(x, y, label, 5, bold=True))
        y += 7

    lines([f"Print-and-play cards · poker size 63 x 88 mm · {paper.name}"], 4.2, 13)
    heading("Contents")
    lines(contents_lines(title, faces, back_kinds), 3.4, 5.2)
    y += 4
    heading("Pages")
    lines([*page_lines(plan), *extra_pages], 3.4, 5.2)
    y += 4
    heading("How to print")
    lines(INSTRUCTIONS[plan.order], 3.2, 5)
    y += 6
    parts.append(rect(x, y, 100, 4, fill="#000"))
    for mm in range(0, 101, 10):
        parts.append(line(x + mm, y + 4, x + mm, y + 6, width=0.25))
    parts.append(text(x, y + 10, "scale check: this bar is 100 mm long", 3))
    parts.append(
        text(
            paper.width / 2,
            paper.height - 12,
            f"page 1 of {page_count or plan.page_count}",
            2.8,
            anchor="middle",
        )
    )
    return page_svg(paper, "".join(parts))


def blank_page(paper: Paper, page: int, pages: int) -> str:
    """The back of the cover in the interleaved order: only its page number."""
    footer = f"page {page} of {pages} (blank: the back of the cover)"
    return page_svg(paper, text(paper.width / 2, paper.height - 12, footer, 2.8, anchor="middle"))
