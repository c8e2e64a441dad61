"""Lobby content: a pitch per game and the rules docs rendered to HTML.

Rules come from docs/rules/<game>.md in the repository (or a `rules.md`
shipped inside the game package). Markdown is rendered by markdown-it-py with
raw HTML disabled, so a rules doc cannot inject script into the lobby."""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path

from markdown_it import MarkdownIt

PITCHES = {
    "uptime": (
        "Turn raw silicon into servers, wire your servers into a network and win the "
        "contracts that pay for it before the supply chain runs dry. Each turn you draw "
        "materials, requisition a card from the Build Row, open a once-around auction on a "
        "Contract, or pass. Computers score 5, Routers and Cables build a network, and the "
        "first Cloud Milestone (2 Computers and a Contract) ends the game."
    ),
    "runway": (
        "You have exactly one pitch per Deal: spend it well. Four kinds of Capital (Cash, "
        "Network, Tech, Talent) chase Deals in four Sectors; the biggest matching pitch wins, "
        "a later pitch beats an earlier one on a tie, and Cash can pitch anywhere but scores "
        "less. Hype rises as Deals close, Footholds lock Sectors, and whoever trails pitches "
        "last on the next Deal."
    ),
    "supercomputer": (
        "Draft parts and wire them into a super computer over three rounds. Everyone picks "
        "a part in secret, passes the rest, then reveals and attaches it: connectors must "
        "match colour for colour (black is universal) and cards never rotate. Parts that "
        "cannot connect are scrap and cost points; meet your build card's specification "
        "for a bonus."
    ),
}

_DOCS_DIR = Path(__file__).resolve().parents[3] / "docs" / "rules"


@functools.lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_markdown(game: str) -> str | None:
    """The rules doc text, or None while it has not been written."""
    path = _DOCS_DIR / f"{game}.md"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    try:
        res = importlib.resources.files(f"cardlab.games.{game}") / "rules.md"
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (ModuleNotFoundError, TypeError):
        pass
    return None


def rules_html(game: str) -> str:
    text = rules_markdown(game)
    if text is None:
        return "<p>The rules for this game are still being written.</p>"
    return _markdown().render(text)
