"""Measure and wrap card text with the same font engine that draws it.

CairoSVG draws text with cairo's font selection, so measuring with cairo
(DejaVu Sans through fontconfig) gives the widths the PDF will have. Text is
never clipped: when it cannot fit at the smallest allowed size, the card is
reported by name (CardTextOverflowError)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cairocffi

from cardlab.art.errors import CardTextOverflowError

FONT_FAMILY = "DejaVu Sans"
SVG_FONT_FAMILY = "DejaVu Sans, Verdana, sans-serif"
LINE_HEIGHT = 1.2
_MEASURE_SIZE = 100.0
_SIZE_STEP = 0.1


@lru_cache(maxsize=2)
def _context(bold: bool) -> cairocffi.Context:
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    ctx = cairocffi.Context(surface)
    options = cairocffi.FontOptions()
    options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
    options.set_hint_style(cairocffi.HINT_STYLE_NONE)
    ctx.set_font_options(options)
    weight = cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL
    ctx.select_font_face(FONT_FAMILY, cairocffi.FONT_SLANT_NORMAL, weight)
    ctx.set_font_size(_MEASURE_SIZE)
    return ctx


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """Advance width of `text` at font size `size` (same unit as `size`)."""
    advance: float = _context(bold).text_extents(text)[4]
    return advance * size / _MEASURE_SIZE


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap; explicit newlines start new lines. A single word wider
    than `width` stays whole on its line (the caller sees it does not fit)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, bold) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


@dataclass(frozen=True)
class FittedText:
    """Text broken into lines at the font size that fits its box."""

    lines: tuple[str, ...]
    size: float

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * LINE_HEIGHT


def fit_text(
    text: str,
    *,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    card: str,
    field: str,
    bold: bool = False,
    max_lines: int | None = None,
) -> FittedText:
    """The largest size in [min_size, max_size] at which `text` fits the box.

    Raises CardTextOverflowError naming `card` and `field` when even
    `min_size` does not fit."""
    size = max_size
    while size >= min_size - 1e-9:
        lines = wrap(text, size, width, bold)
        fits_lines = max_lines is None or len(lines) <= max_lines
        fits_width = all(text_width(line, size, bold) <= width + 1e-6 for line in lines)
        if fits_lines and fits_width and len(lines) * size * LINE_HEIGHT <= height + 1e-6:
            return FittedText(tuple(lines), round(size, 3))
        size -= _SIZE_STEP
    raise CardTextOverflowError(
        f"card {card!r}: {field} does not fit on the card face "
        f"({width:g} x {height:g} mm even at {min_size:g} mm type): {text!r}; shorten it"
    )
