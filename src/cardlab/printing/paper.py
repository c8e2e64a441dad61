"""Paper sizes the print command accepts, in millimetres (exact by definition:
A4 is 210 x 297 mm, US Letter 8.5 x 11 in = 215.9 x 279.4 mm)."""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core.errors import CardlabError

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH


class PaperError(CardlabError):
    """A paper size the print command does not know."""


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float


PAPERS = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("Letter", 8.5 * MM_PER_INCH, 11 * MM_PER_INCH),
}


def paper_named(name: str) -> Paper:
    """The paper called `name` (case-insensitive): a4 or letter."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise PaperError(f"unknown paper {name!r}; choose one of: {', '.join(PAPERS)}") from None
