"""What every audience of a table is told about it besides the game: its settings,
its seats, who has chosen, and, once it is over, how to deal the same game again.
Apart from the table because it only reads it, and every frame carries it: what
it may say (no token, the seed only after the end) is checked here alone."""

from __future__ import annotations

import json
import shlex
from typing import Any, Protocol

from cardlab.core import Game, GameState
from cardlab.web.store import TableRecord


class InfoTable(Protocol):
    """What a table's public facts are read from."""

    @property
    def id(self) -> str: ...
    @property
    def record(self) -> TableRecord: ...
    @property
    def game(self) -> Game: ...
    @property
    def state(self) -> GameState: ...
    @property
    def seats(self) -> list[dict[str, Any]]: ...
    @property
    def connected(self) -> dict[int, int]: ...
    @property
    def held(self) -> dict[int, int]: ...


def public_info(table: InfoTable, turn_left: float | None) -> dict[str, Any]:
    """Table facts every audience may see: no tokens, and the seed only once the
    game is over (it deals every hidden card), with the command that deals the
    same game again."""
    record = table.record
    reissued = sorted(int(s) for s in record.settings.get("reissued", []))
    variant = getattr(table.game, "variant", None)
    info = {
        "id": table.id,
        "game": record.game,
        "title": getattr(table.game, "title", record.game),
        "variant": variant.title if variant is not None else None,
        "players": record.players,
        "options": record.options,
        "turn_seconds": record.settings.get("turn_seconds", 0),
        "turn_left": turn_left,
        # Which seats have made their secret choice early (held): public at a real
        # table (you see who has laid a card face down), what they chose is not.
        "chosen_seats": sorted(table.held),
        # Chat seats the host muted; whether a rematch of this table was made.
        "muted": sorted(record.settings.get("muted", [])),
        "rematch": bool(record.settings.get("rematch")),
        # Seats whose link the host replaced: whoever plays one now may be the host,
        # and every audience is shown so (docs/web.md, what a host can see).
        "reissued": reissued,
        "seats": [
            {
                "seat": i,
                "name": s.get("name") or f"Seat {i}",
                "kind": s["kind"],
                "agent": s.get("agent"),
                "connected": table.connected.get(i, 0) > 0,
                "reissued": i in reissued,
            }
            for i, s in enumerate(table.seats)
        ],
    }
    if table.state.is_terminal():
        info["seed"] = str(record.seed)  # a string: 64 bits overflow a JS number
        info["replay"] = replay_command(record)
    return info


def replay_command(record: TableRecord) -> str:
    """`cardlab play` with this table's game, players, options, variant and seed: it
    deals the same cards in the same order (the moves are in the table's replay)."""
    args = ["cardlab", "play", record.game, "--players", str(record.players)]
    args += ["--seed", str(record.seed)]
    for key, value in sorted(record.options.items()):
        shown = value if isinstance(value, str) else json.dumps(value)  # true, 3, 0.5
        args += ["-o", f"{key}={shown}"]
    variant = record.settings.get("variant")
    if variant:
        args += ["--variant", str(variant)]
    command = shlex.join(args)
    version = record.settings.get("design_version")
    if version:  # a design page's version: its name, never a server path
        command += f"  (add --cards with the card file of {version}, from the design page)"
    elif record.settings.get("cards"):  # never a server path in a frame
        command += "  (add --cards with this server's card file)"
    return command
