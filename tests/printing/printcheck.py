"""Helpers for the print tests: read a PDF's text layer with positions
(pdftotext -bbox-layout) and render pages to PNG (pdftoppm), both from
Debian's poppler-utils."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from cardlab.games import list_games
from cardlab.printing.paper import PT_PER_MM

GAMES = tuple(list_games())
"""Every discovered game (the entry-point group, plus any registered in-process)."""


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "print"
XHTML = "{http://www.w3.org/1999/xhtml}"


def require_poppler() -> None:
    missing = [t for t in ("pdftotext", "pdftoppm") if shutil.which(t) is None]
    if missing:
        raise RuntimeError(f"{', '.join(missing)} missing: apt-get install -y poppler-utils")


@dataclass(frozen=True)
class TextLine:
    """One line of the text layer, in millimetres from the page's top left."""

    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


def text_lines(pdf: Path) -> list[TextLine]:
    """Every text line of every page with its box in mm."""
    require_poppler()
    xml = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    root = ET.fromstring(xml)
    out = []
    for number, page in enumerate(root.iter(f"{XHTML}page"), start=1):
        for line in page.iter(f"{XHTML}line"):
            words = [w.text or "" for w in line.iter(f"{XHTML}word")]
            box = [float(line.get(k, "0")) / PT_PER_MM for k in ("xMin", "yMin", "xMax", "yMax")]
            out.append(TextLine(number, " ".join(words), *box))
    return out


def render_page(
    pdf: Path,
    page: int,
    dpi: int,
    stem: str,
    grey: bool = False,
    area: tuple[float, float, float, float] | None = None,
) -> Image.Image:
    """Render one page (or only `area` = x, y, w, h in mm) with pdftoppm into
    artifacts/print/<stem>.png and return it."""
    require_poppler()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    extra = ["-gray"] if grey else []
    if area is not None:
        x, y, w, h = (px(v, dpi) for v in area)
        extra += ["-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h)]
    args = ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile"]
    subprocess.run([*args, *extra, str(pdf), str(ARTIFACTS / stem)], check=True)
    img = Image.open(ARTIFACTS / f"{stem}.png")
    return img.convert("L") if grey else img


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)
