"""Lobby content: a pitch per game and the rules rendered to HTML.

The Rules pane shows the game's player-facing rules (its declared `howto`,
``howto.md`` in its package: setup, a turn, scoring, each table option), with
the designer's rules document (its declared `rulebook`, ``rules.md`` in its
package) folded underneath. Both come from the game's own package through
`GameInfo.asset`, so a plugin's rules show exactly as ours do. Markdown is rendered by markdown-it-py with
raw HTML disabled, so a rules doc cannot inject script into the lobby."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from markdown_it import MarkdownIt

from cardlab.core.registry import game_info, list_games


class _Pitches(Mapping[str, str]):
    """Each game's pitch, as the game itself declares it (`GameInfo.pitch`).

    A mapping so the server can ask `PITCHES.get(name, "")`; no game is listed
    here: the registry is asked each time."""

    def __getitem__(self, name: str) -> str:
        try:
            return game_info(name).pitch
        except Exception:
            raise KeyError(name) from None

    def __iter__(self) -> Iterator[str]:

        return iter(list_games())

    def __len__(self) -> int:

        return len(list_games())


PITCHES: Mapping[str, str] = _Pitches()


@functools.lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("th_open", _aligned_cell)
    md.add_render_rule("td_open", _aligned_cell)
    return md


def _aligned_cell(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    """A table cell's alignment as a class (``align-right``), not markdown-it's inline
    ``style=``: the pages' CSP allows no inline style, so the browser would refuse it
    (and report every aligned cell of a rules document)."""
    token = tokens[idx]
    style = token.attrGet("style")
    if isinstance(style, str) and style.startswith("text-align:"):
        del token.attrs["style"]
        token.attrSet("class", "align-" + style.partition(":")[2].strip())
    rendered: str = self.renderToken(tokens, idx, options, env)
    return rendered


def _asset_text(game: str, which: str) -> str | None:
    try:
        path = game_info(game).asset(which)
    except Exception:
        return None
    return path.read_text(encoding="utf-8") if path is not None else None


def rules_markdown(game: str) -> str | None:
    """The game's rules document (`GameInfo.rulebook`), or None when it has none."""
    return _asset_text(game, "rulebook")


def howto_markdown(game: str) -> str | None:
    """The player-facing rules (`GameInfo.howto`), or None."""
    return _asset_text(game, "howto")


_OPTION_LINE = re.compile(r"^- \*\*(?P<label>[^*]+)\*\*(?: \([^)]*\))?: (?P<text>.+)$")


OPTION_SECTIONS = ("## Table options", "## Optional rule changes")
"""The `howto.md` sections whose lists explain options: the table options, then the
rule changes the lab tries (levers), appended by each game's authors."""


def option_words(game: str) -> dict[str, str]:
    """Each table option as the game's player rules explain it, by option name.

    Read from the "Table options" and "Optional rule changes" lists of `howto.md`
    ("- **Patch cost**: what a Patch costs..."); a label is matched to the option whose
    name it spells ("Patch cost" is `patch_cost`). Options the page does not explain
    are left out."""
    text = howto_markdown(game)
    if text is None:
        return {}
    out: dict[str, str] = {}
    for heading in OPTION_SECTIONS:
        if heading in text:
            out.update(_listed_options(text.split(heading, 1)[1]))
    return out


def _listed_options(section: str) -> dict[str, str]:
    """The "- **Label**: text" items of one section (continuation lines indented)."""
    out: dict[str, str] = {}
    current: str | None = None
    for raw in section.splitlines():
        if raw.startswith("## "):
            break
        m = _OPTION_LINE.match(raw.strip())
        if m:
            current = m.group("label").strip().lower().replace(" ", "_")
            out[current] = m.group("text").strip()
        elif current and raw.startswith("  ") and raw.strip():
            out[current] += " " + raw.strip()
        else:
            current = None
    return out


def rules_html(game: str) -> str:
    """The Rules pane: the game's rules written for players, with the designer's
    rules document (every ruling beside its rulebook passage) one click away."""
    howto, designer = howto_markdown(game), rules_markdown(game)
    md = _markdown()
    parts = []
    if howto is not None:
        parts.append(f'<div class="howto">{md.render(howto)}</div>')
    if designer is not None:
        doc: str = md.render(designer)
        if howto is None:
            return doc
        parts.append(
            '<details class="designer-rules"><summary>The designer\'s rules document '
            "(every ruling beside the rulebook passage it reads)</summary>"
            f"{doc}</details>"
        )
    if not parts:
        return "<p>The rules for this game are still being written.</p>"
    return "".join(parts)
