"""SUPER COMPUTER's rulebook claims (seed 002), each checked by simulation."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

from cardlab.lab.claims import INVARIANT, claim, untestable, verdict
from cardlab.lab.context import LabContext
from cardlab.lab.metrics import MAX_SEEDS, finished
from cardlab.lab.simulate import Observer

PICKS_PER_GAME = 21  # seven picks a round, three rounds (S3)


class PickObserver(Observer):
    """Per seat: picks made, and (from info at the end) parts attached and scrapped.
    `acquired` also lists the builds a seat met, so build names are left out."""

    def finish(self, result: Any) -> dict[str, Any]:
        info = result.info
        builds = {b.name for b in self.state.game.cards.builds} if self.state else set()
        return {
            "picks": info.get("picks"),
            "attached": [sum(1 for c in a if c not in builds) for a in info.get("acquired", [])],
            "scrapped": info.get("scrapped"),
        }


@claim(
    "supercomputer.must_play",
    "Each player must play a part card each turn even if it doesn't connect. Unconnected parts "
    "are scrap.",
    kind=INVARIANT,
)
def must_play(ctx: LabContext) -> Any:
    bad: list[dict[str, Any]] = []
    games = 0
    for n in range(2, 6):
        run = ctx.run(
            observer=PickObserver, players=n, games=ctx.probe_games // 4, agents=["random"]
        )
        for g in run.records:
            games += 1
            if g["picks"] is None or g["scrapped"] is None:
                return untestable("info() lacks 'picks' or 'scrapped'")
            played = [a + s for a, s in zip(g["attached"], g["scrapped"], strict=True)]
            if set(g["picks"]) != {PICKS_PER_GAME} or played != g["picks"]:
                bad.append(
                    {
                        "seed": g["seed"],
                        "players": n,
                        "picks": g["picks"],
                        "attached_plus_scrapped": played,
                    }
                )
    return verdict(
        not bad,
        games=games,
        rule=f"every seat picks {PICKS_PER_GAME} parts a game and each is attached or scrapped",
        counter_examples=bad[:MAX_SEEDS],
    )


@claim(
    "supercomputer.sample_30_40_50",
    "Sample Completed Computer - Round 1 Score: 30 / Round 2 Score: 40 / Round 3 Score: 50",
    kind=INVARIANT,
    circular="the rulebook's card images are lost; we designed the card values so that a "
    "sample computer scores 30/40/50 (ruling S10). It checks our card file against that "
    "design (a regression check for --cards files), not the rulebook's game",
)
def sample_30_40_50(ctx: LabContext) -> Any:
    try:
        scenarios = importlib.import_module("cardlab.games.supercomputer.scenarios")
    except ImportError:
        scenarios = None
    score = getattr(scenarios, "sample_computer_scores", None)
    if score is None:
        return untestable(
            "the engine provides no sample computer: needs "
            "cardlab.games.supercomputer.scenarios.sample_computer_scores() -> [r1, r2, r3] "
            "(the documented sample computer scored by the engine's own scoring)"
        )
    got = list(score())
    return verdict(got == [30, 40, 50], printed=[30, 40, 50], engine=got)


@claim(
    "supercomputer.tie_break_4way",
    "In the event of a tie, the player who used the fewest 4-way (like hubs and CPUs) will be "
    "the winner.",
)
def tie_break_4way(ctx: LabContext) -> Any:
    levels: Counter[str] = Counter()
    seeds: dict[str, list[int]] = {}
    games = 0
    for n in range(2, 6):
        run = ctx.run(players=n, games=ctx.probe_games if n != ctx.players else ctx.games)
        for r in finished(run.records):
            games += 1
            level = r.tiebreak or "no tie"
            levels[level] += 1
            if len(seeds.setdefault(level, [])) < MAX_SEEDS:
                seeds[level].append(r.seed)
    ties = games - levels["no tie"]
    beyond = ties - levels.get("fewest_4way", 0)
    if ties == 0:
        return untestable("no tie for most points in the probe games", games=games)
    return verdict(
        beyond == 0,
        headline=f"{ties / games:.0%} of games tie for most points; {beyond} of those {ties} "
        "ties are still tied after fewest 4-way parts",
        games=games,
        ties_for_most_points=ties,
        tie_share=round(ties / games, 4),
        decided_by_fewest_4way=levels.get("fewest_4way", 0),
        still_tied_after_4way=beyond,
        levels=dict(levels),
        seeds=seeds,
        rule="holds when every tie for most points is settled by fewest 4-way parts",
    )


@claim(
    "supercomputer.public_race_no_negative",
    "Option 2: ... place (players - 1) builds face up ... Upon a tie the build card is "
    "discarded. No negative points are awarded in this variant.",
    kind=INVARIANT,
)
def public_race_no_negative(ctx: LabContext) -> Any:
    game = ctx.game_class(ctx.players, **{**ctx.options, "builds": "public_race"})
    builds = {b.name for b in game.cards.builds}
    run = ctx.run(options={"builds": "public_race"}, games=ctx.probe_games)
    build_neg: list[dict[str, Any]] = []
    scrap_neg = 0
    for r in finished(run.records):
        for seat, points in enumerate(r.card_points):
            for name, pts in points.items():
                if pts < 0 and name in builds:
                    build_neg.append({"seed": r.seed, "seat": seat, "build": name, "points": pts})
                elif pts < 0:
                    scrap_neg += 1
    return verdict(
        not build_neg,
        games=len(run.records),
        negative_build_points=len(build_neg),
        examples=build_neg[:MAX_SEEDS],
        negative_scrap_entries=scrap_neg,
        reading="ruling S9: no build penalties in the race; scrapped parts still score red",
    )


# --- lab hooks (read by cardlab.lab.simulate and the report) ---

PERSONAS = ("points", "builder")
"""The report's default seats mix these with greedy."""


def resources(state: Any) -> dict[str, float]:
    """Scrap rate so far: scrapped parts per part played (all seats)."""
    info = state.info()
    scrapped = sum(info.get("scrapped") or [0])
    picks = sum(info.get("picks") or [0])
    return {"scrap_rate": round(scrapped / picks, 4) if picks else 0.0}


def action_kind(state: Any, label: str) -> str:
    """keep (a build), pick, place or scrap."""
    kind = state.decision_kind()
    if kind == "place":
        return "scrap" if "scrap" in label.lower() else "place"
    return label.split(" ", 1)[0].lower()


def ablations(data: dict[str, Any]) -> list[Any]:
    """Each part type (all its cards) scores 1 fewer green point every round (not below 0)."""
    from cardlab.core.variants import CardChange
    from cardlab.lab.impact import Ablation

    by_type: dict[str, list[dict[str, Any]]] = {}
    for part in data.get("parts", []):
        by_type.setdefault(part["type"], []).append(part)
    out = []
    for kind, parts in sorted(by_type.items()):
        changes = tuple(
            CardChange(f"parts[{p['name']}].green", [max(0, int(g) - 1) for g in p["green"]])
            for p in parts
        )
        out.append(
            Ablation(
                kind,
                f"every {kind} part scores 1 fewer green point each round",
                frozenset(p["name"] for p in parts),
                changes,
            )
        )
    return out


def picked(state: Any, label: str) -> tuple[str, int] | None:
    """At a draft pick: the part picked and its pick number in the round (1 = first pick)."""
    if state.decision_kind() != "pick" or not label.startswith("pick "):
        return None
    return label[len("pick ") :], int(state.public_observation()["turn"])


# -- the tuner's targets (issue 18) ------------------------------------------------------
TUNE_SEATS = ("builder", "points", "greedy", "random")
"""The seats of the placement study: the personas, greedy and one random seat (rotated),
as in docs/rules/supercomputer.md's measurements."""
CELLS_MIN = 2.5
ONE_CELL_MAX = 0.25
SCRAP_BUILDER = (0.08, 0.20)


def tune_targets(players: int, variant: Any, run_seed: int, games: int) -> list[dict[str, Any]]:
    """Issue 18's placement targets for `cardlab tune` (`lab.tune.evaluate.game_targets`):
    placement is a real decision (mean legal cells >= 2.5, one-cell placements <= 25%)
    and connecting is a risk a careful player manages (the `builder` persona scraps
    8-20% of its parts, a random seat more). Measured by `metrics` on `games` games of
    the variant, seeds from `run_seed`. Each miss is scaled to about 1 when far off.
    The random-placement ablation (>= 3 points a round) is left out: it doubles the
    games and its interval at tuning sizes is wider than any card change moves it."""
    from cardlab.agents import make_agent
    from cardlab.games.supercomputer import metrics

    records = metrics.games(
        TUNE_SEATS, make_agent, games, players=players, seed0=run_seed * 10_007, variant=variant
    )
    cells = metrics.placement_options(records)
    stats = metrics.play_stats(records)
    scrap = stats["builder"]["scrap_rate"]
    random_scrap = stats["random"]["scrap_rate"]
    low, high = SCRAP_BUILDER
    return [
        {
            "id": "supercomputer.placement_cells",
            "text": "placement is a real decision: legal cells per placement",
            "threshold": f">= {CELLS_MIN}",
            "value": round(cells["mean_cells"], 3),
            "miss": max(0.0, CELLS_MIN - cells["mean_cells"]) / CELLS_MIN,
        },
        {
            "id": "supercomputer.one_cell_share",
            "text": "placement is a real decision: share of one-cell placements",
            "threshold": f"<= {ONE_CELL_MAX:.0%}",
            "value": round(cells["one_cell_share"], 3),
            "miss": max(0.0, cells["one_cell_share"] - ONE_CELL_MAX) / (1 - ONE_CELL_MAX),
        },
        {
            "id": "supercomputer.builder_scrap",
            "text": "connecting is a risk a careful player manages: builder scrap rate",
            "threshold": f"{low:.0%}-{high:.0%}",
            "value": round(scrap, 3),
            "miss": max(0.0, low - scrap) / low + max(0.0, scrap - high) / (1 - high),
        },
        {
            "id": "supercomputer.random_scraps_more",
            "text": "a random seat scraps more than the builder",
            "threshold": "random > builder",
            "value": round(random_scrap - scrap, 3),
            "miss": max(0.0, scrap - random_scrap),
        },
    ]
