"""The rules sheet of a variant: one page, printed after the cards, saying in
rulebook language what the variant (or the `-o` rule options) changes.

A table that plays a variant needs the changed rules on paper, not a TOML
file. For each rule lever changed: the rulebook passage it changes and the
changed rule (the lever's `says` sentence with the value, else its doc and
the value beside the rule as written); for each other option: what it reads;
for each card change: the card, the new value and its why. Everything not on
the sheet is as written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.art.svg import line, text
from cardlab.art.textfit import wrap
from cardlab.core.errors import CardlabError
from cardlab.core.options import OptionValue
from cardlab.core.variants import get_value, packaged_card_data
from cardlab.printing.paper import Paper
from cardlab.printing.sheets import page_svg

LEFT = 20.0
MIN_SIZE = 2.4
"""Smallest body text (mm) before the sheet is refused as too long for one page."""


@dataclass(frozen=True)
class Entry:
    """One change on the sheet: a heading (what changes) and its lines of text."""

    heading: str
    lines: tuple[str, ...]


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_changes(game: Any) -> list[Entry]:
    """The changes of `game` (its variant and options) from the rules as written.

    A variant's `[players.N.options]` are listed after the changes for every
    count, one entry per count and option ("At 3 players: ..."), so one sheet
    serves a box played at any count; the main entries show what holds at every
    count (an `-o` option given for this game still wins there)."""
    variant = game.variant
    whys: dict[str, str] = dict(getattr(variant, "options_why", {}) or {})
    per_count: dict[int, dict[str, Any]] = dict(getattr(variant, "per_players", {}) or {})
    here = per_count.get(game.num_players, {})
    entries: list[Entry] = []
    # rule changes (levers) first, then our rulings' options, then the cards
    specs = sorted(game.option_specs, key=lambda spec: spec.lever is None)
    for spec in specs:
        value: OptionValue = game.options[spec.name]
        if spec.name in here and value == here[spec.name]:
            value = variant.options.get(spec.name, spec.default)
        if value == spec.default and type(value) is type(spec.default):
            continue
        entries.append(_option_entry(spec, value, whys.get(spec.name, "")))
    by_name = {spec.name: spec for spec in game.option_specs}
    for count in sorted(per_count):
        count_whys = getattr(variant, "per_players_why", {}).get(count, {})
        for name, value in per_count[count].items():
            entry = _option_entry(by_name[name], value, count_whys.get(name, ""))
            entries.append(Entry(f"At {count} players: {entry.heading}", entry.lines))
    if variant is not None:
        written = _packaged(game)
        for change in variant.changes:
            before = _as_written(written, change.path)
            was = "" if before is None else f" (as written: {_word(before)})"
            lines = [f"Card change: {change.path} is {_word(change.value)}{was}."]
            if change.why:
                lines.append(f"Why: {change.why}")
            entries.append(Entry(f"Card: {change.path} = {_word(change.value)}", tuple(lines)))
    return entries


def _option_entry(spec: Any, value: OptionValue, why: str) -> Entry:
    """One option's entry: a lever in rulebook words (its passage and `says`), else its doc."""
    if spec.lever is not None:
        said = spec.lever.says.format(value=_word(value)) if spec.lever.says else ""
        lines = [f"Changes: {spec.lever.passage}."]
        lines.append(
            said
            or f"{spec.doc[:1].upper()}{spec.doc[1:]}: {_word(value)} "
            f"(as written: {_word(spec.default)})."
        )
        title = f"Rule change: {spec.name} = {_word(value)}"
    else:
        lines = [
            f"{spec.doc[:1].upper()}{spec.doc[1:]}: {_word(value)} "
            f"(default: {_word(spec.default)})."
        ]
        title = f"Rule option: {spec.name} = {_word(value)}"
    if why:
        lines.append(f"Why: {why}")
    return Entry(title, tuple(lines))


def _packaged(game: Any) -> list[dict[str, Any]]:
    try:
        from cardlab.core.registry import game_info

        return packaged_card_data(game_info(game.name).package_dir())
    except Exception:  # a game registered without a package folder: no "as written" figures
        return []


def _as_written(docs: Sequence[dict[str, Any]], path: str) -> Any:
    for doc in docs:
        try:
            return get_value(doc, path)
        except Exception:
            continue
    return None


def has_changes(game: Any) -> bool:
    return bool(rule_changes(game))


def rules_sheet_page(paper: Paper, title: str, game: Any, page: int, pages: int) -> str:
    """The one-page rules sheet; body text shrinks to fit, down to `MIN_SIZE`."""
    entries = rule_changes(game)
    variant = game.variant
    name = variant.title if variant is not None else f"{title} with rule options"
    intro = [
        "Play by the rulebook with these changes; every rule not listed here is as written.",
    ]
    if variant is not None and variant.about:
        intro.append(variant.about)
    width = paper.width - 2 * LEFT
    bottom = paper.height - 20
    fitted = _fit(entries, intro, name, width, bottom, paper)
    if fitted is None:
        # The rules come first: a sheet too long with the lab's reasons drops them
        # (they stay in the variant file and the rules document) before refusing.
        bare = [
            Entry(e.heading, tuple(t for t in e.lines if not t.startswith("Why: ")))
            for e in entries
        ]
        where = f"{variant.name}.toml" if variant is not None else "the variant file"
        note = f"Why each change was made (the lab's measurements) is written in {where}."
        fitted = _fit(bare, [*intro, note], name, width, bottom, paper)
    if fitted is None:
        raise CardlabError(
            f"the rules sheet of {name!r} does not fit one page ({len(entries)} changes); "
            "print fewer changes or shorter whys"
        )
    parts = fitted
    footer = f"page {page} of {pages} · rules sheet"
    parts.append(text(paper.width / 2, paper.height - 12, footer, 2.8, anchor="middle"))
    return page_svg(paper, "".join(parts))


def _fit(
    entries: Sequence[Entry],
    intro: Sequence[str],
    name: str,
    width: float,
    bottom: float,
    paper: Paper,
) -> list[str] | None:
    """The sheet's parts at the largest body size that fits, None below `MIN_SIZE`."""
    size = 3.4
    while size >= MIN_SIZE:
        parts, y = _layout(entries, intro, name, size, width, paper)
        if y <= bottom:
            return parts
        size = round(size - 0.2, 2)
    return None


def _layout(
    entries: Sequence[Entry],
    intro: Sequence[str],
    name: str,
    size: float,
    width: float,
    paper: Paper,
) -> tuple[list[str], float]:
    x = LEFT
    parts = []
    y = 30.0
    for piece in wrap(f"Rules sheet: {name}", 8, width, bold=True):
        parts.append(text(x, y, piece, 8, bold=True))
        y += 10
    y += 2
    step = size * 1.45
    for said in intro:
        for piece in wrap(said, size, width):
            parts.append(text(x, y, piece, size))
            y += step
    y += step / 2
    for entry in entries:
        parts.append(line(x, y - size, x + width, y - size, width=0.2))
        y += step / 2
        for piece in wrap(entry.heading, size * 1.1, width, bold=True):
            parts.append(text(x, y, piece, size * 1.1, bold=True))
            y += step * 1.1
        for body in entry.lines:
            for piece in wrap(body, size, width - 4):
                parts.append(text(x + 4, y, piece, size))
                y += step
        y += step / 2
    return parts, y
