"""How long a game takes at a real table, estimated from its decisions.

Humans spend time per decision, and how long depends on its kind: a turn's
main choice takes longer than a bid or a forced move. The model is seconds
per decision kind (`decision_kind()`), a figure for forced moves (one legal
action: you just do it) and a fallback for kinds not listed. The defaults are
our guesses for a table of players who know the rules; override them with
`--time-model FILE.json` (same keys) when you have stopwatch figures from a
real playtest. Setup and scoring are not included."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.core import CardlabError

DEFAULT_SECONDS: dict[str, dict[str, float]] = {
    # UPTIME: a main turn weighs draw vs requisition vs bid; an auction answer is quick.
    "uptime": {"turn": 20.0, "choose_material": 5.0, "bid": 8.0, "raise": 8.0},
    # RUNWAY: a pitch is a considered choice; the pass-trade a quick one.
    "runway": {"pitch": 20.0, "trade": 8.0},
    # SUPER COMPUTER: a draft pick reads a hand of up to 7 parts; placing is quick.
    "supercomputer": {"pick": 15.0, "place": 8.0, "choose_build": 20.0},
}


BOX_MINUTES: dict[str, dict[int, tuple[float, float]]] = {
    # "3-4 players · 25-30 min" (uptime.length_25_30); 2p "a ~25-minute game"
    # (uptime.two_player_length).
    "uptime": {2: (25.0, 25.0), 3: (25.0, 30.0), 4: (25.0, 30.0)},
    # "2-4 players · 30 min" (runway.length_30).
    "runway": {2: (30.0, 30.0), 3: (30.0, 30.0), 4: (30.0, 30.0)},
    # SUPER COMPUTER's rulebook states no playing time.
}
"""The playing time each rulebook states, per player count: (low, high) minutes.
The length claims accept a mean within this range widened by 25%
(`claims.common.LENGTH_TOLERANCE`); the report shades it on the minutes histogram."""


BOX_TOLERANCE = 0.25
"""The length claims hold when the estimated mean is within the stated minutes +-25%."""


def box_minutes(game: str) -> dict[str, Any]:
    """The rulebook's stated minutes by player count (JSON keys) and the claims'
    tolerance; {} when the rulebook states none."""
    ranges = BOX_MINUTES.get(game)
    if not ranges:
        return {}
    return {
        "by_players": {str(n): list(r) for n, r in ranges.items()},
        "tolerance": BOX_TOLERANCE,
    }


@dataclass
class TimeModel:
    """Seconds per decision kind; `forced` for single-option moves; `other` fallback."""

    seconds: dict[str, float] = field(default_factory=dict)
    forced: float = 2.0
    other: float = 10.0

    @classmethod
    def for_game(cls, game: str, path: str | Path | None = None) -> TimeModel:
        model = cls(dict(DEFAULT_SECONDS.get(game, {})))
        if path is not None:
            model = model.overridden(_load(path))
        return model

    def overridden(self, data: dict[str, Any]) -> TimeModel:
        seconds = dict(self.seconds)
        forced, other = self.forced, self.other
        for key, value in data.items():
            if not isinstance(value, int | float) or value < 0:
                raise CardlabError(f"time model: {key!r} must be seconds >= 0, not {value!r}")
            if key == "forced":
                forced = float(value)
            elif key == "other":
                other = float(value)
            else:
                seconds[key] = float(value)
        return TimeModel(seconds, forced, other)

    def game_seconds(self, kind_decisions: dict[str, int], kind_forced: dict[str, int]) -> float:
        total = 0.0
        for kind, count in kind_decisions.items():
            forced = kind_forced.get(kind, 0)
            total += (count - forced) * self.seconds.get(kind, self.other) + forced * self.forced
        return total

    def as_dict(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "forced": self.forced, "other": self.other}


def _load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CardlabError(f"time model {path}: {exc}") from None
    if not isinstance(data, dict):
        raise CardlabError(f"time model {path}: expected an object of kind -> seconds")
    return data
