"""How long a game takes at a real table: a range, never a point.

People spend time per decision, and how long depends on its kind and on how many
options they read. Each game declares its decision kinds in its `GameInfo`
(`cardlab.core.plugin.DecisionKind`): a (quick, slow) range of seconds, a (quick,
slow) range per option beyond two, and whether the kind is simultaneous at a real
table (SUPER COMPUTER's picks: every seat decides at once, so a step costs the
slowest seat's time, not the sum of all seats'). Each round also costs a (quick,
slow) overhead (`round_overhead_seconds`: scoring, refills, passing hands), and a
forced move (one legal option) costs `FORCED` seconds.

A game's estimate is then (quick, slow) minutes: every decision at the quick end
of its range, and every decision at the slow end. Length claims judge that range
against the box (`judge_length`): `fails` only if even the generous end misses,
`holds` only if the whole range fits, otherwise `needs_data` (stopwatch figures
from real play would decide). The ranges are guesses until `cardlab calibrate`
fits them on decisions recorded at the browser table; `source` says which.

Nothing here is keyed by a game's name: everything comes from its `GameInfo`.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.core import CardlabError
from cardlab.core.plugin import GameInfo
from cardlab.core.registry import game_info

Range = tuple[float, float]

FORCED: Range = (1.0, 3.0)
"""A forced move (one legal option): you just do it."""

OTHER: Range = (5.0, 20.0)
"""A decision kind the game does not declare (reported as unpriced: a game bug)."""

BOX_TOLERANCE = 0.25
"""The rulebook's stated minutes, widened by 25% either way, is the accepted band:
a box's "25-30 min" is a loose promise, and 24 minutes keeps it."""

Z95 = 1.959963984540054


@dataclass(frozen=True)
class KindTime:
    seconds: Range
    per_option: Range = (0.0, 0.0)
    simultaneous: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "seconds": list(self.seconds),
            "per_option": list(self.per_option),
            "simultaneous": self.simultaneous,
        }


@dataclass
class TimeModel:
    """Seconds per decision kind as ranges, with the round overhead and where they came from."""

    kinds: dict[str, KindTime] = field(default_factory=dict)
    forced: Range = FORCED
    round_overhead: Range = (0.0, 0.0)
    source: str = "guessed"
    other: Range = OTHER

    @classmethod
    def from_info(cls, info: GameInfo, path: str | Path | None = None) -> TimeModel:
        """The game's declared ranges, overridden by a `--time-model` / calibrate file."""
        model = cls(
            {
                k.name: KindTime(tuple(k.seconds), tuple(k.per_option), k.simultaneous)  # type: ignore[arg-type]
                for k in info.decision_kinds
            },
            round_overhead=tuple(info.round_overhead_seconds),  # type: ignore[arg-type]
        )
        if path is not None:
            model = model.overridden(load_file(path), info)
        return model

    @classmethod
    def for_game(cls, game: str, path: str | Path | None = None) -> TimeModel:

        return cls.from_info(game_info(game), path)

    def overridden(self, data: Mapping[str, Any], info: GameInfo) -> TimeModel:
        """Ranges from a file (see docs/lab.md); every kind must be one the game declares."""
        kinds = dict(self.kinds)
        known = {k.name for k in info.decision_kinds}
        for name, spec in (data.get("kinds") or {}).items():
            if name not in known:
                raise CardlabError(
                    f"time model: {name!r} is not a decision kind of {info.name}; "
                    f"its kinds: {', '.join(sorted(known))}"
                )
            old = kinds[name]
            if isinstance(spec, int | float):
                spec = {"seconds": [spec, spec]}
            if not isinstance(spec, Mapping):
                raise CardlabError(f"time model: kind {name!r} must be an object or seconds")
            kinds[name] = KindTime(
                _range(spec.get("seconds", old.seconds), f"{name}.seconds"),
                _range(spec.get("per_option", old.per_option), f"{name}.per_option"),
                old.simultaneous,
            )
        unknown = set(data) - {"kinds", "forced", "round_overhead", "source", "fitted_on"}
        if unknown:
            raise CardlabError(
                f"time model: unknown keys {sorted(unknown)}; expected kinds, forced, "
                "round_overhead, source"
            )
        return TimeModel(
            kinds,
            _range(data.get("forced", self.forced), "forced"),
            _range(data.get("round_overhead", self.round_overhead), "round_overhead"),
            str(data.get("source", "from file")),
            self.other,
        )

    def game_seconds(self, record: Any) -> Range:
        """(quick, slow) seconds of one recorded game (a `GameRecord`)."""
        quick = slow = 0.0
        players = max(1, record.players)
        extra = getattr(record, "kind_extra_options", {}) or {}
        for kind, count in record.kind_decisions.items():
            forced = record.kind_forced.get(kind, 0)
            kt = self.kinds.get(kind)
            seconds, per_option = (kt.seconds, kt.per_option) if kt else (self.other, (0.0, 0.0))
            # A simultaneous kind: all seats decide at once; a step costs the slowest seat.
            div = players if kt is not None and kt.simultaneous else 1
            free = (count - forced) / div
            options = extra.get(kind, 0) / div
            quick += free * seconds[0] + options * per_option[0] + forced / div * self.forced[0]
            slow += free * seconds[1] + options * per_option[1] + forced / div * self.forced[1]
        rounds = max(0, int(record.rounds or 0))
        return (quick + rounds * self.round_overhead[0], slow + rounds * self.round_overhead[1])

    def minutes(self, record: Any) -> Range:
        q, s = self.game_seconds(record)
        return (q / 60, s / 60)

    def mid_minutes(self, record: Any) -> float:
        """The middle of the range (histograms draw one value per game)."""
        q, s = self.minutes(record)
        return (q + s) / 2

    def unpriced(self, kinds: set[str]) -> list[str]:
        return sorted(k for k in kinds if k not in self.kinds)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kinds": {k: v.as_dict() for k, v in sorted(self.kinds.items())},
            "forced": list(self.forced),
            "round_overhead": list(self.round_overhead),
            "other": list(self.other),
        }


def _range(value: Any, what: str) -> Range:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = [value, value]
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not 0 <= value[0] <= value[1]
    ):
        raise CardlabError(
            f"time model: {what} must be [quick, slow] seconds with 0 <= quick <= slow, "
            f"not {value!r}"
        )
    return (float(value[0]), float(value[1]))


def load_file(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CardlabError(f"time model {path}: {exc}") from None
    if not isinstance(data, dict):
        raise CardlabError(f"time model {path}: expected a JSON object (see docs/lab.md)")
    return data


def box_minutes(info: GameInfo) -> dict[str, Any]:
    """The rulebook's stated minutes by player count (JSON keys) and the accepted band's
    tolerance; {} when the rulebook states none."""
    if not info.box_minutes:
        return {}
    return {
        "by_players": {str(n): list(r) for n, r in sorted(info.box_minutes.items())},
        "tolerance": BOX_TOLERANCE,
    }


def mean_range(
    ranges: Sequence[Range],
) -> dict[str, Any]:
    """Mean quick and slow minutes over games, the 95% interval of each mean (simulation
    noise), and the widest honest range: quick mean's low bound to slow mean's high."""
    quick = [r[0] for r in ranges]
    slow = [r[1] for r in ranges]

    def ci(xs: list[float]) -> tuple[float, float, float]:
        m = statistics.fmean(xs)
        se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
        return m, m - Z95 * se, m + Z95 * se

    qm, qlo, _ = ci(quick)
    sm, _, shi = ci(slow)
    return {
        "games": len(ranges),
        "quick_mean": round(qm, 2),
        "slow_mean": round(sm, 2),
        "range": [round(qlo, 2), round(shi, 2)],
    }


def judge_length(estimate: Sequence[float], band: Sequence[float]) -> bool | None:
    """True when the whole estimated range lies in the band, False when even its
    generous end misses it (the range lies wholly outside), None otherwise."""
    lo, hi = estimate
    a, b = band
    if a <= lo and hi <= b:
        return True
    if hi < a or lo > b:
        return False
    return None


def accepted_band(box: Range) -> Range:
    return (round(box[0] * (1 - BOX_TOLERANCE), 3), round(box[1] * (1 + BOX_TOLERANCE), 3))
