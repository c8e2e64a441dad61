"""A seat's story of the game, for the terminal and the browser alike.

Each game's `view` module tells its own story (`narrate`, `final_table`, see
`cardlab.core.narrative`), built from an observation only. This module finds
those functions for a game by name and falls back to something plain while a
game has not written them: the public log line by line, and no breakdown.
Both fallbacks also read only the observation, so they can tell a seat
nothing its view does not carry."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cardlab.core.narrative import FinalTable, NarrativeLine

log = logging.getLogger("cardlab.story")

Observation = dict[str, Any]


def _view_function(game: str, name: str) -> Callable[[Observation], Any] | None:
    try:
        from cardlab.core.registry import game_info

        module = game_info(game).module("view")
    except Exception:  # a toy game, or a game without a view module yet
        return None
    fn = getattr(module, name, None) if module is not None else None
    return fn if callable(fn) else None


def _log_text(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        return str(entry.get("text") or entry.get("message") or entry)
    return str(entry)


def plain_narrative(obs: Observation) -> list[NarrativeLine]:
    """The public log as it stands, one line per entry, ungrouped."""
    return [
        NarrativeLine(index=i, group="", text=_log_text(e))
        for i, e in enumerate(obs.get("log") or [])
    ]


def narrate(game: str, obs: Observation) -> list[NarrativeLine]:
    """The game's narrative of `obs`, or the plain log if the game has none (or it fails)."""
    fn = _view_function(game, "narrate")
    if fn is not None:
        try:
            return list(fn(obs))
        except Exception:
            log.exception("%s: narrate failed; showing the plain log", game)
    return plain_narrative(obs)


def final_table(game: str, obs: Observation) -> FinalTable | None:
    """The game's final breakdown of `obs`, or None if it has none (or it fails)."""
    fn = _view_function(game, "final_table")
    if fn is None:
        return None
    try:
        table = fn(obs)
    except Exception:
        log.exception("%s: final_table failed; showing totals only", game)
        return None
    if not isinstance(table, FinalTable):
        return None
    return with_direction(game, table)


FEWEST_WIN = "Fewest points win."


def with_direction(game: str, table: FinalTable) -> FinalTable:
    """A final table of a game the fewest points win says so (a note every reader
    shows, the terminal and the browser alike), once."""
    from dataclasses import replace

    from cardlab.core.plugin import lowest_wins

    if not lowest_wins(game) or FEWEST_WIN in table.notes:
        return table
    return replace(table, notes=(FEWEST_WIN, *table.notes))


def ranked_rows(table: FinalTable) -> list[Any]:
    """The rows in finishing order: winners first, then by points, fewest first in the
    table of a game the fewest points win (`with_direction`'s note says so)."""
    sign = 1 if FEWEST_WIN in table.notes else -1
    return sorted(table.rows, key=lambda r: (r.seat not in table.winners, sign * r.total))


def since(lines: list[NarrativeLine], seen: int) -> list[NarrativeLine]:
    """The lines for log entries at index `seen` or later (events a seat has not been shown)."""
    return [line for line in lines if line.index >= seen]


def grouped(lines: list[NarrativeLine]) -> list[tuple[str, list[NarrativeLine]]]:
    """Consecutive lines of the same group together, in order ("Deal 3", "Round 2"...)."""
    out: list[tuple[str, list[NarrativeLine]]] = []
    for line in lines:
        if out and out[-1][0] == line.group:
            out[-1][1].append(line)
        else:
            out.append((line.group, [line]))
    return out
