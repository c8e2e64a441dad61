"""Write page SVGs as one PDF: CairoSVG renders each page (vector, with a real
text layer), pypdf joins them."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import cairosvg
from pypdf import PdfWriter


def write_pdf(pages: Sequence[str], out: Path, title: str) -> Path:
    """Render `pages` (SVG documents) in order into the PDF file `out`."""
    writer = PdfWriter()
    for svg in pages:
        pdf = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
        writer.append(io.BytesIO(pdf))
    writer.add_metadata({"/Title": title, "/Creator": "cardlab print"})
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh:
        writer.write(fh)
    return out
