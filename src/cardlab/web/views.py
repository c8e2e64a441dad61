"""The one gate between a true game state and a socket.

`player_view` builds what one audience (a seat, or a spectator) may see, from
the engine's own views: `observation(seat)` for a seat, `public_observation()`
for a spectator (nothing is filtered here after the fact). `seal` turns any
outgoing payload into the frame text and, as a last line of defence, checks it
against the card ids hidden from that audience in the true state at send time
(`hidden_card_ids(seat)`, or `public_hidden_card_ids()` for a spectator). Every
frame the server sends (first sync, updates, the log, errors, replays, and what
bots are handed) goes through here."""

from __future__ import annotations

import functools
import json
import logging
import re
from typing import Any

from cardlab import story
from cardlab.core import GameState
from cardlab.core.plugin import lowest_wins

log = logging.getLogger("cardlab.web")

SPECTATOR = None
"""The audience of a spectator socket: the public view only."""

_WORD = re.compile(r"[A-Za-z0-9_]+")


class LeakGuard:
    """Counts frames the guard had to redact; tests assert it stays at zero."""

    redactions = 0


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """Card ids `seat` (or a spectator) may not see now, by the engine's own account."""
    return state.public_hidden_card_ids() if seat is SPECTATOR else state.hidden_card_ids(seat)


def observation_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The engine's view for this audience: a seat's observation or the public view."""
    return state.public_observation() if seat is SPECTATOR else state.observation(seat)


def ids_in_text(text: str, ids: set[str] | frozenset[str]) -> set[str]:
    """Which of `ids` occur in `text` as whole tokens (ids are fixed-width words).

    For word-shaped ids this is exactly `set(_WORD.findall(text)) & ids`, found
    faster: only the words that start with one of the ids' two-letter prefixes
    are collected (a frame is mostly words no card id starts like)."""
    if not ids:
        return set()
    if all(_WORD.fullmatch(i) for i in ids):
        found = set()
        for m in _prefix_scanner(frozenset(i[:2] for i in ids)).finditer(text):
            start = m.start()
            # A match inside a longer word is not a word of its own: that word
            # starts earlier, where it was (or was not) matched on its own.
            if start == 0 or not _is_word_char(text[start - 1]):
                found.add(m.group(0))
        return found & ids
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}


def _is_word_char(ch: str) -> bool:
    return ch == "_" or (ch.isascii() and ch.isalnum())


@functools.lru_cache(maxsize=64)
def _prefix_scanner(prefixes: frozenset[str]) -> re.Pattern[str]:
    """A literal-led pattern (fast to search): a prefix, then the rest of its word."""
    alternatives = "|".join(re.escape(p) for p in sorted(prefixes, key=lambda p: (-len(p), p)))
    return re.compile(rf"(?:{alternatives})[A-Za-z0-9_]*")


def redact(value: Any, ids: set[str]) -> Any:
    """A copy of `value` with every card in `ids` turned face down."""
    if isinstance(value, dict):
        if value.get("id") in ids:
            return {"id": None, "hidden": True, "name": "face-down card"}
        return {k: redact(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, ids) for v in value]
    if isinstance(value, str) and ids_in_text(value, ids):
        return _WORD.sub(lambda m: "(hidden)" if m.group(0) in ids else m.group(0), value)
    return value


def legal_moves(state: GameState, actions: list[int] | None = None) -> list[dict[str, Any]]:
    """The moves a seat is offered: each action with its label for people and the
    engine's description of what it does (`does`: kind, card ids, cells, slot,
    amount) for the page's touch play, which never reads a label."""
    return [
        {
            "action": a,
            "label": state.action_to_string(a),
            "does": state.describe_action(a).to_json(),
        }
        for a in (state.legal_actions() if actions is None else actions)
    ]


def final_table(state: GameState) -> dict[str, Any]:
    """Final points, winners and the lab's summary facts (end reason, tie-break)."""
    info = state.info() if state.is_terminal() else {}
    return {
        "returns": state.returns(),
        "winners": state.winners(),
        "info": json.loads(json.dumps(info, default=str)),
        "score_direction": "lowest" if lowest_wins(state.game.name) else "highest",
    }


def player_view(
    state: GameState,
    seat: int | None,
    table: dict[str, Any],
    legal: list[dict[str, Any]] | None = None,
    chosen: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything `seat` (or a spectator, seat None) may see of the table now.

    A live table passes `legal` (what the seat may send now: its engine turn, or
    an early choice in a simultaneous decision; nothing for a bot seat) and
    `chosen` (the seat's own held choice); without them, the engine's legal moves
    when it is the seat's turn."""
    current = state.current_player()
    terminal = state.is_terminal()
    obs = observation_for(state, seat)
    view: dict[str, Any] = {
        "type": "state",
        "seq": len(state.history()),
        "you": seat,
        "table": table,
        "obs": obs,
        # The game's readable story, from this audience's observation only.
        "narrative": [line.to_json() for line in story.narrate(obs.get("game", ""), obs)],
        "current_player": None if terminal else current,
        "terminal": terminal,
        "legal": legal
        if legal is not None
        else (
            legal_moves(state)
            if (not terminal and seat is not SPECTATOR and current == seat)
            else []
        ),
    }
    if seat is not SPECTATOR and not terminal:
        view["chosen"] = chosen
    if terminal:
        view["final"] = final_table(state)
        breakdown = story.final_table(obs.get("game", ""), obs)
        view["final"]["breakdown"] = breakdown.to_json() if breakdown is not None else None
    return view


def seal(state: GameState, seat: int | None, payload: dict[str, Any]) -> str:
    """The frame text for `seat`; redacts (and logs) any card id hidden from it."""
    text = json.dumps(payload, separators=(",", ":"))
    leaked = ids_in_text(text, hidden_from(state, seat))
    if leaked:
        LeakGuard.redactions += 1
        log.error("redacted %d hidden card id(s) from a frame for seat %s", len(leaked), seat)
        text = json.dumps(redact(payload, leaked), separators=(",", ":"))
    return text
