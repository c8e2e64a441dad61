"""The reference bands: for each experience metric, the range the games people love
read, measured on the reference shelf with the same bots, and the verdict of a
profile against them.

A band is derived from the loved games' values by the metric's *kind*:

- `low` (less is better: shut-outs, dead turns, forced moves): from 0 to the worst
  loved value plus a margin;
- `high` (more is better: meaningful choices, lead changes, comebacks, skill gaps):
  from the weakest loved value less a margin, up;
- `range` (drama and length: when the winner is clear, margin, spread, turns,
  minutes): the loved games' span widened by a factor at each end;
- `symmetric` (first-seat advantage): within the largest loved advantage plus a
  margin, either way.

The control games (War: pure luck) are measured beside them and never shape a band;
the calibration test checks that the control falls outside on agency and skill.
`bands.toml` (shipped with cardlab) is written by `cardlab shelf calibrate` and says
how it was measured. A profile is judged by the one rule (`verdicts.place`): a metric
is inside its band only when its whole 95% interval is, outside only when the whole
interval is; a design is world-class only when every metric is inside."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cardlab.lab.experience import BY_NAME, GROUPS, MAIN_COUNT_ONLY, METRICS, ExperienceProfile
from cardlab.lab.verdicts import INSIDE, OUTSIDE, STRADDLES, place

KINDS: dict[str, tuple[str, float, float]] = {
    # metric: (kind, relative margin, absolute margin)
    "shutout_share": ("low", 0.25, 0.05),
    "dead_turn_share": ("low", 0.25, 0.05),
    "forced_share": ("low", 0.25, 0.05),
    "meaningful_share": ("high", 0.25, 0.0),
    "lead_change_share": ("high", 0.25, 0.0),
    "comeback_share": ("high", 0.25, 0.0),
    "decided_at": ("range", 0.25, 0.0),
    "margin": ("range", 0.25, 0.0),
    "spread": ("range", 0.25, 0.0),
    "skill_gap_random": ("high", 0.25, 0.05),
    "skill_gap_greedy": ("high", 0.25, 0.05),
    "first_seat_advantage": ("symmetric", 0.0, 0.03),
    "turns_per_player": ("range", 0.5, 0.0),
    "minutes": ("range", 0.5, 0.0),
}
"""How each metric's band is cut from the loved games' values. Ranges of fractions are
clipped to [0, 1]."""

FLOORS = {"meaningful_share": 0.02, "skill_gap_random": 0.02, "skill_gap_greedy": 0.02}
"""The least a `high` band may start at: a game whose choices never differ, or whose
strong bot does no better than its weak one in the same seat on the same deals, has no
agency or skill to speak of, however weakly some loved game reads."""

FRACTIONS = {"shutout_share", "dead_turn_share", "forced_share", "meaningful_share",
             "lead_change_share", "comeback_share", "decided_at", "margin", "spread"}  # fmt: skip

BANDS_FILE = "bands.toml"


@dataclass
class Band:
    metric: str
    kind: str
    low: float | None
    high: float | None
    loved: dict[str, float] = field(default_factory=dict)
    controls: dict[str, float] = field(default_factory=dict)
    loved_ci: dict[str, list[float]] = field(default_factory=dict)
    """Each loved value's 95% interval as measured: a loved game passes its band by the
    one rule when its interval is not wholly outside it."""
    controls_ci: dict[str, list[float]] = field(default_factory=dict)

    @property
    def target(self) -> tuple[float | None, float | None]:
        return (self.low, self.high)

    def describe(self) -> str:
        if self.low is None and self.high is None:
            return "any"
        if self.low is None:
            return f"at most {_num(self.metric, self.high)}"
        if self.high is None:
            return f"at least {_num(self.metric, self.low)}"
        return f"{_num(self.metric, self.low)} to {_num(self.metric, self.high)}"


@dataclass
class Bands:
    bands: dict[str, Band]
    about: dict[str, Any] = field(default_factory=dict)
    source: str = ""

    def __getitem__(self, name: str) -> Band:
        return self.bands[name]

    def to_dict(self) -> dict[str, Any]:
        return {
            "about": self.about,
            "source": self.source,
            "bands": {
                k: {
                    "kind": b.kind,
                    "low": b.low,
                    "high": b.high,
                    "band": b.describe(),
                    "loved": b.loved,
                    "controls": b.controls,
                    "loved_ci": b.loved_ci,
                    "controls_ci": b.controls_ci,
                }
                for k, b in self.bands.items()
            },
        }


def _num(metric: str, value: float | None) -> str:
    if value is None:
        return "-"
    unit = BY_NAME[metric].unit
    if unit == "share":
        return f"{value:.0%}" if abs(value) >= 0.01 or value == 0 else f"{value:.1%}"
    if unit == "fraction":
        return f"{value:.2f}"
    return f"{value:.3g}"


def derive(metric: str, loved: Sequence[float]) -> tuple[float | None, float | None]:
    """A metric's band from the loved games' values (see the module docstring)."""
    kind, rel, absolute = KINDS[metric]
    if not loved:
        return (None, None)
    lo, hi = min(loved), max(loved)
    if kind == "low":
        return (None, round(hi + max(absolute, rel * abs(hi)), 4))
    if kind == "high":
        return (round(max(FLOORS.get(metric, -1.0), lo - max(absolute, rel * abs(lo))), 4), None)
    if kind == "symmetric":
        edge = round(max(abs(v) for v in loved) + absolute, 4)
        return (-edge, edge)
    if metric in ("turns_per_player", "minutes"):
        low, high = lo / (1 + rel), hi * (1 + rel)
    else:
        low, high = lo * (1 - rel), hi * (1 + rel)
    if metric in FRACTIONS:
        low, high = max(0.0, low), min(1.0, high)
    return (round(low, 4), round(high, 4))


def bands_from_profiles(
    loved: Mapping[str, Sequence[ExperienceProfile]],
    controls: Mapping[str, Sequence[ExperienceProfile]] | None = None,
    about: Mapping[str, Any] | None = None,
) -> Bands:
    """Bands from the loved games' profiles (every player count measured), with the
    controls' values beside them."""

    def read(
        group: Mapping[str, Sequence[ExperienceProfile]], name: str
    ) -> tuple[dict[str, float], dict[str, list[float]]]:
        values: dict[str, float] = {}
        intervals: dict[str, list[float]] = {}
        for game, profiles in group.items():
            for p in profiles:
                metric = p.metrics.get(name)
                if metric is not None and metric.value is not None:
                    values[f"{game} {p.players}p"] = metric.value
                    if metric.interval:
                        intervals[f"{game} {p.players}p"] = list(metric.interval)
        return values, intervals

    out: dict[str, Band] = {}
    for m in METRICS:
        values, values_ci = read(loved, m.name)
        ctrl, ctrl_ci = read(controls or {}, m.name)
        low, high = derive(m.name, list(values.values()))
        out[m.name] = Band(m.name, KINDS[m.name][0], low, high, values, ctrl, values_ci, ctrl_ci)
    return Bands(out, dict(about or {}))


def load_bands(path: str | Path | None = None) -> Bands:
    """The bands file (default: the one shipped with cardlab)."""
    if path is None:
        ref = resources.files("cardlab.lab").joinpath(BANDS_FILE)
        text, source = ref.read_text(encoding="utf-8"), f"cardlab/lab/{BANDS_FILE}"
    else:
        text, source = Path(path).read_text(encoding="utf-8"), str(path)
    data = tomllib.loads(text)
    bands = {}
    for name, b in dict(data.get("bands", {})).items():
        if name not in BY_NAME:
            continue  # a metric this cardlab does not know (a newer file)
        bands[name] = Band(
            name,
            str(b.get("kind", KINDS.get(name, ("range",))[0])),
            None if "low" not in b else float(b["low"]),
            None if "high" not in b else float(b["high"]),
            {str(k): float(v) for k, v in dict(b.get("loved", {})).items()},
            {str(k): float(v) for k, v in dict(b.get("controls", {})).items()},
            {str(k): [float(x) for x in v] for k, v in dict(b.get("loved_ci", {})).items()},
            {str(k): [float(x) for x in v] for k, v in dict(b.get("controls_ci", {})).items()},
        )
    return Bands(bands, dict(data.get("about", {})), source)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{text}"'


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else _toml_value(key)


def dump_bands(bands: Bands) -> str:
    """The bands as TOML (written by hand: cardlab reads TOML with the standard library)."""
    lines = [
        "# The experience bands of the world-class gate, measured on the reference shelf.",
        '# Written by `cardlab shelf calibrate`; see docs/lab.md ("The world-class gate").',
        "",
        "[about]",
    ]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in bands.about.items()]
    for name, b in bands.bands.items():
        lines += ["", f"[bands.{name}]", f'kind = "{b.kind}"']
        if b.low is not None:
            lines.append(f"low = {_toml_value(float(b.low))}")
        if b.high is not None:
            lines.append(f"high = {_toml_value(float(b.high))}")
        lines.append(
            "loved = {" + ", ".join(f"{_toml_value(k)} = {v!r}" for k, v in b.loved.items()) + "}"
        )
        lines.append(
            "controls = {"
            + ", ".join(f"{_toml_value(k)} = {v!r}" for k, v in b.controls.items())
            + "}"
        )
        for key, cis in (("loved_ci", b.loved_ci), ("controls_ci", b.controls_ci)):
            lines.append(
                f"{key} = {{"
                + ", ".join(f"{_toml_value(k)} = {_toml_value(v)}" for k, v in cis.items())
                + "}"
            )
    return "\n".join(lines) + "\n"


# --- the verdict ----------------------------------------------------------------

UNJUDGED = ("no band", "main count only")
"""Readings left out of a player count's verdict: a metric the bands file does not
know, and the skill gap at a count where the report did not play its probe."""
WORLD_CLASS, NOT_WORLD_CLASS, NEEDS_DATA = "world_class", "outside", "needs_data"
WORDS = {
    WORLD_CLASS: "world-class: inside the band on every metric",
    NOT_WORLD_CLASS: "not world-class",
    NEEDS_DATA: "no verdict yet",
}


def judge(profile: ExperienceProfile, bands: Bands | None = None) -> dict[str, Any]:
    """One player count's profile against the bands: each metric's reading (inside,
    outside, straddles, not measured), with its evidence and example game, and the
    verdict: world-class only when every metric is inside."""
    bands = bands or load_bands()
    rows = []
    for m in METRICS:
        metric = profile.metrics.get(m.name)
        band = bands.bands.get(m.name)
        row: dict[str, Any] = {
            "metric": m.name, "title": m.title, "group": m.group, "stat": m.stat,
            "value": None if metric is None else metric.value,
            "interval": None if metric is None else metric.interval,
            "band": None if band is None else band.describe(),
            "target": None if band is None else list(band.target),
            "example": None if metric is None else metric.example,
        }  # fmt: skip
        if band is None:
            row["reading"] = "no band"
        elif metric is not None and metric.value is None and metric.note == MAIN_COUNT_ONLY:
            row["reading"] = "main count only"  # judged where the probe was played
        elif metric is None or metric.value is None or metric.interval is None:
            row["reading"] = "not measured"
            row["why"] = "" if metric is None else metric.note
        else:
            lo, hi = metric.interval
            row["reading"] = place((min(lo, hi), max(lo, hi)), band.target)
        row["evidence"] = _evidence(row)
        rows.append(row)
    readings = [r["reading"] for r in rows if r["reading"] not in UNJUDGED]
    if OUTSIDE in readings:
        verdict = NOT_WORLD_CLASS
    elif readings and all(r == INSIDE for r in readings):
        verdict = WORLD_CLASS
    else:
        verdict = NEEDS_DATA
    outside = [r for r in rows if r["reading"] == OUTSIDE]
    failing = sorted({r["group"] for r in outside}, key=GROUPS.index)
    return {
        "players": profile.players,
        "games": profile.games,
        "verdict": verdict,
        "words": WORDS[verdict],
        "outside": [r["metric"] for r in outside],
        "fails_on": failing,
        "unsettled": [r["metric"] for r in rows if r["reading"] in (STRADDLES, "not measured")],
        "metrics": rows,
    }


def _evidence(row: dict[str, Any]) -> str:
    name = row["metric"]
    if row["value"] is None:
        return f"not measured{': ' + row['why'] if row.get('why') else ''}"
    lo, hi = row["interval"] or (row["value"], row["value"])
    where = {INSIDE: "inside", OUTSIDE: "outside", STRADDLES: "straddles"}.get(
        row["reading"], row["reading"]
    )
    return (
        f"{_num(name, row['value'])} [{_num(name, lo)}, {_num(name, hi)}] against the band "
        f"{row['band']}: {where}"
    )


def overall(judged: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every player count's verdict folded: world-class only when every count is."""
    verdicts = [j["verdict"] for j in judged]
    if not verdicts:
        verdict = NEEDS_DATA
    elif NOT_WORLD_CLASS in verdicts:
        verdict = NOT_WORLD_CLASS
    elif all(v == WORLD_CLASS for v in verdicts):
        verdict = WORLD_CLASS
    else:
        verdict = NEEDS_DATA
    outside = sorted({f"{m} ({j['players']}p)" for j in judged for m in j["outside"]})
    groups = sorted({g for j in judged for g in j["fails_on"]}, key=GROUPS.index)
    return {"verdict": verdict, "words": WORDS[verdict], "outside": outside, "fails_on": groups}


def is_band_ready(bands: Bands) -> bool:
    """A bands file with at least one measured band."""
    return any(b.low is not None or b.high is not None for b in bands.bands.values())
