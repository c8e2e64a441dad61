"""Play a report and write its files: the layer `cardlab report`, `cardlab gate`,
`cardlab lab-bench` and the web's design page share.

`start_report` validates every setting before a game is played and returns the
report; `save_report` writes report.json, report.html and summary.md from it alone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cardlab.core import CardlabError
from cardlab.lab import summary
from cardlab.lab.backends import default_workers
from cardlab.lab.context import LabContext
from cardlab.lab.paired import arm_cards, baseline_arm
from cardlab.lab.report import build_report, default_agents, default_games
from cardlab.lab.simulate import make_spec
from cardlab.lab.timemodel import TimeModel

LADDER_GAMES = 200
"""Games per ladder cell (neighbouring bots) in the skill section: the gate's standard."""
LADDER_ITERATIONS = 1000
"""ISMCTS iterations in the skill section."""
GATE_BUDGET = "10m"
"""`cardlab gate`'s default time budget (on the machine it runs on)."""


_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?")


def parse_budget(text: str | None) -> float | None:
    """`10m`, `90s`, `1h30m`, `600` (seconds) -> seconds; `none` -> None (no limit)."""
    if text is None or text.strip().lower() in ("none", "off", "unlimited"):
        return None
    match = _DURATION.fullmatch(text.strip().lower())
    parts = match.groups() if match else (None, None, None)
    seconds = sum(float(v) * k for v, k in zip(parts, (3600, 60, 1), strict=True) if v)
    if not seconds:
        raise CardlabError(
            f"--budget {text!r}: give a time like 10m, 90s, 1h30m or 600 (seconds), or none"
        )
    return seconds


def parse_compare(text: str | None) -> tuple[str, list[str]] | None:
    """`stall_end=true,false` -> ("stall_end", ["true", "false"]); `cards=A.toml,B.toml`
    compares card files the same way."""
    if text is None:
        return None
    name, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or len(items) < 2:
        raise CardlabError(f"--compare {text!r} must be name=value1,value2[,...]")
    return name.strip(), items


def write_report(game: str, out: Path, **settings: Any) -> dict[str, Any]:
    """Validate everything, play, and write report.html, report.json, summary.md
    (the arguments are `start_report`'s)."""
    _, report, old = start_report(game, out, **settings)
    save_report(out, report, old)
    return report


def save_report(out: Path, report: dict[str, Any], old: dict[str, Any] | None) -> None:
    from cardlab.lab import html  # matplotlib (0.3 s) is loaded to write a page, not to start

    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=1, default=str))
    (out / "report.html").write_text(html.render(report))
    (out / "summary.md").write_text(summary.render(report, old))


def start_report(
    game: str,
    out: Path,
    players: int | None = None,
    games: int | None = None,
    agents: str | None = None,
    options: dict[str, str] | None = None,
    compare: tuple[str, list[str]] | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    side_games: int | None = None,
    ladder_games: int | None = None,
    ladder_iterations: int = LADDER_ITERATIONS,
    time_model: Path | None = None,
    baseline: Path | None = None,
    progress: bool = True,
    probe_games: int = 200,
    cards: str | None = None,
    ablation_games: int | None = None,
    variant: str | None = None,
    budget_s: float | None = None,
    play_skill: bool = True,
    kingmaking_games: int | None = None,
    sequential: int | None = None,
) -> tuple[Any, dict[str, Any], dict[str, Any] | None]:
    """Validate everything and play: (the LabContext, the report, the baseline report).

    `ladder_games` is per ladder cell (each pair of neighbouring bots). None plays the
    gate's standard (`LADDER_GAMES`) within `budget_s` (seconds for the whole report;
    None: no limit); an explicit number is played exactly, whatever the budget, so a
    budgeted run replays with `--ladder-games N`. The skill section says it cannot
    conclude below the standard. `play_skill=False` leaves it for `add_skill`."""
    old = _load_baseline(baseline)
    if games is not None and games < 1:
        raise CardlabError(f"--games must be at least 1, not {games}")
    if probe_games < 1:
        raise CardlabError(f"--probe-games must be at least 1, not {probe_games}")
    agents = agents or default_agents(game)
    spec = make_spec(game, players, agents, seed, games or 1, options, cards, variant)
    n_games = games if games is not None else default_games(spec.players)
    if compare is not None:  # check the option (or card file) and every value before playing
        for value in compare[1]:
            if compare[0] == "cards":
                make_spec(game, spec.players, agents, seed, 1, options, arm_cards(value), variant)
            else:
                opts = {**(options or {}), compare[0]: value}
                make_spec(game, spec.players, agents, seed, 1, opts, cards, variant)
    if sequential is not None and compare is None:
        raise CardlabError("--sequential plays a --compare until it knows: give --compare too")
    if sequential is not None and sequential < 2:
        raise CardlabError(
            f"--sequential is a budget of paired games per arm, at least 2, not {sequential}"
        )
    ctx = LabContext(
        game=game,
        players=spec.players,
        agents=spec.agents,
        options=dict(options or {}),
        games=n_games,
        seed=seed,
        cards=spec.cards,
        variant=spec.variant,
        workers=workers or default_workers(),
        backend=backend,
        ray_address=ray_address,
        progress=progress,
        time_model=TimeModel.for_game(game, time_model),
        probe_games=probe_games,
        ablation_games=probe_games if ablation_games is None else ablation_games,
        out_dir=out,
        compare_budget=sequential,
    )
    if ladder_games is not None and ladder_games < 0:
        raise CardlabError(f"--ladder-games must be 0 (skip) or more, not {ladder_games}")
    if ladder_iterations < 1:
        raise CardlabError(f"--ladder-iterations must be at least 1, not {ladder_iterations}")
    if kingmaking_games is not None and kingmaking_games < 0:
        raise CardlabError(f"--kingmaking-games must be 0 (skip) or more, not {kingmaking_games}")
    report = build_report(
        ctx,
        compare,
        side_games or min(probe_games, n_games),
        LADDER_GAMES if ladder_games is None else ladder_games,
        ladder_iterations,
        skill_budget_s=budget_s if ladder_games is None else None,
        play_skill=play_skill,
        kingmaking_games=kingmaking_games,
    )
    if old is not None:  # the baseline's rules on this report's seeds: paired figures
        report["baseline_paired"] = baseline_arm(ctx, old)
    return ctx, report, old


def _load_baseline(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        baseline: dict[str, Any] = json.loads(path.read_text())
        return baseline
    except (OSError, json.JSONDecodeError) as exc:
        raise CardlabError(f"--baseline {path}: {exc}") from None
