"""`cardlab print GAME`: card data in, print-and-play PDF out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardlab.art import CardArt, CardTextOverflowError, game_art
from cardlab.core.registry import load_game
from cardlab.printing.cover import blank_page, cover_page
from cardlab.printing.layout import SheetLayout
from cardlab.printing.paper import paper_named
from cardlab.printing.pdf import write_pdf
from cardlab.printing.plan import plan_pages
from cardlab.printing.rules_sheet import has_changes, rules_sheet_page
from cardlab.printing.sheets import back_sheet, face_sheet


def print_game(
    game_name: str,
    cards: str | Path | None = None,
    paper: str = "a4",
    out: str | Path | None = None,
    options: Mapping[str, Any] | None = None,
    interleaved: bool | None = None,
    variant: str | Path | None = None,
    order: str = "duplex",
    gap: float = 0.0,
    bleed: float = 0.0,
    source: str = "",
) -> Path:
    """Write GAME's cards as a PDF of 9-up sheets and return its path.

    `cards` is a card data file (the packaged one when None), loaded by the
    game's own loader so bad data fails with the engine's CardDataError.
    `out` defaults to `<game>-cards-<paper>.pdf` in the current directory. `options`
    are rule options (validated like everywhere else); faces print what they change.
    `order` (plan.ORDERS) is `duplex` by default: each face sheet's backs right
    after it, for printing the whole file two-sided; `faces-only` and `backs-only`
    split the two sides into two files; `interleaved=True` is the old name of
    `duplex`, `False` of `separate`. `gap` and `bleed` (mm) space the cards and
    extend each card's ground colour past its cut lines (layout.SheetLayout). `variant` (a variant file or the name of one
    the game ships) prints the variant's cards and options. When the variant or the
    options change a rule or a card, a one-page rules sheet of those changes in
    rulebook language is the last page (after the backs, so the duplex pairing of
    face and back pages is unchanged; never in `backs-only`). `source` names on the cover
    what the cards came from (the design page's version)."""
    sheet_paper = paper_named(paper)
    game = load_game(game_name, cards=cards, variant=variant, **(options or {}))
    art = game_art(game_name)
    faces = art.faces(game.cards, game.options)
    arts = draw_all(art, faces)
    layout = SheetLayout(sheet_paper, gap=gap, bleed=bleed)
    plan = plan_pages(faces, art.BACKS, order, interleaved=interleaved)
    art_of = {f.id: a for f, a in zip(faces, arts, strict=True)}
    backs = {kind: art.back_art(kind) for kind in art.BACKS}
    with_rules = has_changes(game) and plan.has_cover
    total = plan.page_count + (1 if with_rules else 0)
    extra = [f"page {total}: the rules sheet (the rule and card changes)"] if with_rules else []
    if source:  # what the cards came from (a design version), named on the cover
        extra = [f"cards: {source}", *extra]
    pages = {}
    if plan.has_cover:
        pages[1] = cover_page(sheet_paper, art.TITLE, faces, art.BACKS, plan, extra, total)
    for blank in plan.blank_pages:
        pages[blank] = blank_page(sheet_paper, blank, total)
    where = "page {} of the backs-only file" if plan.order == "faces-only" else "page {}"
    for sheet in plan.printed_faces:
        header = (
            f"{art.TITLE} · face sheet {sheet.index + 1} of {len(plan.face_sheets)}"
            f" · back: {where.format(sheet.back_page)}"
        )
        page = plan.face_page(sheet)
        pages[page] = face_sheet(layout, [art_of[f.id] for f in sheet.faces], header, page, total)
    for pos, back in enumerate(plan.printed_backs):
        if plan.order == "backs-only":
            header = f"{art.TITLE} · {back.label} of {len(plan.face_sheets)}"
        else:
            behind = ", ".join(str(plan.face_page(plan.face_sheets[i])) for i in back.face_sheets)
            header = f"{art.TITLE} · {back.label} · behind page {behind or '-'}"
        slots = [backs[k] if k else None for k in back.backs]
        pages[plan.back_page(pos)] = back_sheet(layout, slots, header, plan.back_page(pos), total)
    if with_rules:
        pages[total] = rules_sheet_page(sheet_paper, art.TITLE, game, total, total)
    assert sorted(pages) == list(range(1, total + 1)), "the plan left a page out"
    target = Path(out) if out is not None else Path(f"{game_name}-cards-{paper.lower()}.pdf")
    ordered = [pages[n] for n in sorted(pages)]
    return write_pdf(ordered, target, f"{art.TITLE} print-and-play cards")


def draw_all(art: object, faces: list) -> list[CardArt]:  # type: ignore[type-arg]
    """Every face drawn; all cards whose text overflows are reported together."""
    arts, problems = [], []
    for face in faces:
        try:
            arts.append(art.card_art(face))  # type: ignore[attr-defined]
        except CardTextOverflowError as exc:
            problems.append(str(exc))
    if problems:
        raise CardTextOverflowError("; ".join(problems))
    return arts
