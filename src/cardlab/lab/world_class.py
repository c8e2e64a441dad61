"""The world-class gate's part of a report: each player count's experience profile
judged against the reference bands, and the verdict over all counts.

Above both `experience` (the profile, and the probes that measure it) and `bands` (the
reference ranges cut from the shelf, and judging one profile), so neither imports the
other back: the report, a compared arm and the gate page read a game through here."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from cardlab.lab import bands as reference
from cardlab.lab.experience import (
    CHOICE_GAMES,
    MAIN_COUNT_ONLY,
    SKILL_GAMES,
    SKILL_ITERATIONS,
    experience_profile,
    experience_seats,
    measure,
)


def section(
    ctx: Any,
    runs: Mapping[int, Any],
    choice_games: int = CHOICE_GAMES,
    skill_games: int = SKILL_GAMES,
    skill_iterations: int = SKILL_ITERATIONS,
    bands_path: str | None = None,
) -> dict[str, Any]:
    """report.json's `experience`: the profile at every player count the report played
    (`runs`: players -> RunResult), each judged against the reference bands, and the
    verdict over all counts (world-class only when every count is inside every band)."""
    start = time.perf_counter()
    try:
        bands = reference.load_bands(bands_path)
    except (OSError, ValueError) as exc:
        bands = None
        missing = f"no reference bands: {exc}"
    profiles, judged = [], []
    seats = experience_seats(ctx.game)
    for n, run in sorted(runs.items()):
        wanted = ctx.spec(players=n, agents=list(seats), games=ctx.report_games(n)).agents
        if tuple(run.spec.agents) != tuple(wanted):  # not the bands' seats: a run at them
            run = ctx.run(label=f"{ctx.game} {n}p experience seats", agents=list(seats),
                          players=n, games=ctx.report_games(n))  # fmt: skip
        # the skill probe (ISMCTS seats: most of the section's cost) at the main count
        skill_here = skill_games if n == ctx.players else 0
        profile = measure(ctx, run.records, run.spec, n, choice_games, skill_here,
                          skill_iterations, seats)  # fmt: skip
        if not skill_here:
            for name in ("skill_gap_random", "skill_gap_greedy"):
                profile.metrics[name].note = MAIN_COUNT_ONLY
        profiles.append(profile.to_dict())
        if bands is not None:
            judged.append(reference.judge(profile, bands))
    out: dict[str, Any] = {
        "main_players": ctx.players,
        "profiles": profiles,
        "judged": judged,
        "bands": None if bands is None else bands.to_dict(),
        "elapsed_s": round(time.perf_counter() - start, 2),
    }
    if bands is None:
        out["overall"] = {"verdict": reference.NEEDS_DATA, "words": missing, "outside": [],
                          "fails_on": []}  # fmt: skip
    else:
        out["overall"] = reference.overall(judged)
    return out


def arm_summary(run: Any, time_model: Any = None) -> dict[str, Any]:
    """A compared arm's experience (`report --compare`): its profile from its own games
    (no probes: those are the main section's) and its reading against the reference
    bands, as a comparison row's `experience` ({profile, judged}) the report draws."""
    profile = experience_profile(run.records, time_model=time_model, spec=run.spec)
    try:
        judged: dict[str, Any] | None = reference.judge(profile)
    except (OSError, ValueError):  # no bands file: the profile alone
        judged = None
    return {"profile": profile.to_dict(), "judged": judged}
