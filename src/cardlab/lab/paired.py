"""Paired A/B: two arms on the same games, read game by game.

`--compare` plays every arm (a rule option's values, card files) on the same run seed, so
game i of each arm has the same deal seed and the same seating (`simulate.seating` depends
only on the index). A difference is then measured per game (arm B's figure minus arm A's
in game i) and its 95% interval is the paired one: the deal's luck cancels, so a change of
a few points shows at a few hundred games where two unpaired reports need thousands.

Figures, each per game then paired over games:
- length (decisions, rounds); first seat's win share; stall share (an end reason naming a
  stall); tie-break share (a tie-break decided);
- per persona (each agent label): its seats' mean win share in the game, and its seats'
  mean points from each source of the game's final table (`GameRecord.point_sources`);
- per card: its holders' win share (the games where both arms had a holder) and the points
  it brought its holders (0 where nobody held it).

Many figures are tested at once, so the p-values are Holm-adjusted (family-wise 5%): a
figure is `controlled` when its adjusted p is below 0.05. The summary opens with the
controlled figure of largest standardised effect (mean paired difference / its sd), and a
power line says how many paired games a 5-point change in a card's holders' win rate needs
(80% power, 5% two-sided, from the observed paired spread)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import Any

from cardlab.lab.metrics import finished
from cardlab.lab.simulate import GameRecord
from cardlab.lab.stats import Z95

ALPHA = 0.05
POWER = 0.80
CHANGE = 0.05
"""The change the power line prices: 5 points of a win rate."""


def _win_share(r: GameRecord, seat: int) -> float:
    return 1 / len(r.winners) if seat in r.winners else 0.0


def paired_diff(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Mean of b - a over paired games, its 95% interval, sd and two-sided p."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n == 0:
        return {"games": 0, "mean": 0.0, "ci95": [0.0, 0.0], "sd": 0.0, "p": 1.0}
    mean = statistics.fmean(d)
    sd = statistics.stdev(d) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = 2 * (1 - NormalDist().cdf(abs(mean) / se))
    return {
        "games": n,
        "mean": round(mean, 4),
        "ci95": [round(mean - Z95 * se, 4), round(mean + Z95 * se, 4)],
        "sd": round(sd, 4),
        "p": p,
    }


def holm(ps: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given (family-wise error control)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def games_for_change(sd: float, change: float = CHANGE) -> int | None:
    """Paired games for `change` at 80% power, 5% two-sided, with paired spread `sd`."""
    if sd <= 0:
        return None
    z = NormalDist().inv_cdf(1 - ALPHA / 2) + NormalDist().inv_cdf(POWER)
    return math.ceil((z * sd / change) ** 2)


def _by_index(records: Sequence[GameRecord]) -> dict[int, GameRecord]:
    return {r.index: r for r in finished(records)}


Figure = Callable[[GameRecord], float | None]


FIRST_RESOLVED = "first-resolved seat's win share (decisions are simultaneous)"
"""The first seat's figure in a game of simultaneous decisions: nobody moves first at the
table, so the figure is named for what it is, the seat the engine resolves first."""


def _game_figures(
    a: dict[int, GameRecord], b: dict[int, GameRecord], simultaneous: bool = False
) -> dict[str, tuple[str, str, Figure]]:
    """name -> (group, unit, per-game figure; None leaves the game out of that pair)."""
    figures: dict[str, tuple[str, str, Figure]] = {
        "length: decisions": ("length", "decisions", lambda r: float(r.decisions)),
        "length: rounds": ("length", "rounds", lambda r: float(r.rounds)),
        FIRST_RESOLVED if simultaneous else "first seat's win share": (
            "seat",
            "points",
            lambda r: _win_share(r, r.first_player if r.first_player >= 0 else 0),
        ),
        "stall share": ("ends", "points", lambda r: float("stall" in r.end_reason.lower())),
        "tie-break share": (
            "ends",
            "points",
            lambda r: float(r.tiebreak not in (None, "", "not needed")),
        ),
    }
    personas = sorted({agent for r in (*a.values(), *b.values()) for agent in r.agents})
    for persona in personas:

        def persona_win(r: GameRecord, p: str = persona) -> float | None:
            seats = [s for s, agent in enumerate(r.agents) if agent == p]
            return statistics.fmean(_win_share(r, s) for s in seats) if seats else None

        figures[f"persona {persona}: win share"] = ("persona", "points", persona_win)
    sources = sorted(
        {k for r in (*a.values(), *b.values()) for seat in r.point_sources for k in seat}
    )
    for persona in personas:
        for source in sources:

            def persona_points(r: GameRecord, p: str = persona, k: str = source) -> float | None:
                seats = [s for s, agent in enumerate(r.agents) if agent == p]
                if not seats or len(r.point_sources) != r.players:
                    return None
                return statistics.fmean(r.point_sources[s].get(k, 0.0) for s in seats)

            figures[f"persona {persona}: {source} points"] = (
                "persona points",
                "score points",
                persona_points,
            )
    cards = sorted({c for r in (*a.values(), *b.values()) for seat in r.acquired for c in seat})
    for card in cards:

        def holder_win(r: GameRecord, c: str = card) -> float | None:
            seats = [s for s, held in enumerate(r.acquired) if c in held]
            return statistics.fmean(_win_share(r, s) for s in seats) if seats else None

        def card_points(r: GameRecord, c: str = card) -> float:
            return float(sum(seat.get(c, 0.0) for seat in r.card_points))

        figures[f"card {card}: holders' win share"] = ("card", "points", holder_win)
        figures[f"card {card}: points"] = ("card points", "card points", card_points)
    return figures


def compare_pair(
    base: Sequence[GameRecord],
    other: Sequence[GameRecord],
    label_a: str,
    label_b: str,
    simultaneous: bool = False,
) -> dict[str, Any]:
    """Every figure of arm `other` against arm `base`, paired by game index, with Holm
    control and the summary's opening line. `simultaneous`: the game decides at once, so
    the first seat's figure is named as the first-resolved seat's (FIRST_RESOLVED)."""
    a, b = _by_index(base), _by_index(other)
    common = sorted(set(a) & set(b))
    rows = []
    for name, (group, unit, fig) in _game_figures(a, b, simultaneous).items():
        xs, ys = [], []
        for i in common:
            x, y = fig(a[i]), fig(b[i])
            if x is not None and y is not None:
                xs.append(x)
                ys.append(y)
        if len(xs) < 2:
            continue
        stat = paired_diff(xs, ys)
        rows.append(
            {
                "figure": name,
                "group": group,
                "unit": unit,
                label_a: round(statistics.fmean(xs), 4),
                label_b: round(statistics.fmean(ys), 4),
                **stat,
                "effect_size": round(abs(stat["mean"]) / stat["sd"], 4) if stat["sd"] else 0.0,
            }
        )
    adjusted = holm([r["p"] for r in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["p"] = round(row["p"], 6)
        row["p_holm"] = round(p, 6)
        row["controlled"] = p < ALPHA
    rows.sort(key=lambda r: (not r["controlled"], -r["effect_size"]))
    holder_sds = [r["sd"] for r in rows if r["group"] == "card" and r["sd"] > 0]
    power = games_for_change(statistics.median(holder_sds)) if holder_sds else None
    top = next((r for r in rows if r["controlled"]), None)
    return {
        "arms": [label_a, label_b],
        "paired_games": len(common),
        "rows": rows,
        "correction": "Holm (family-wise 5%) over every figure of this pair",
        "controlled": sum(1 for r in rows if r["controlled"]),
        "tested": len(rows),
        "power": {
            "change": CHANGE,
            "games": power,
            "text": (
                f"a {CHANGE * 100:g}-point change in a card's holders' win rate needs about "
                f"{power:,} paired games (80% power, 5% two-sided, from the median card's "
                "paired spread here)"
                if power
                else "no card's paired spread to price a 5-point change from"
            ),
        },
        "opening": opening(top, label_a, label_b, len(common)),
    }


def _fmt(row: dict[str, Any], value: float, unit: bool = True) -> str:
    if row["unit"] == "points":
        return f"{value * 100:+.1f}" + (" points" if unit else "")
    return f"{value:+.2f}" + (f" {row['unit']}" if unit else "")


def opening(row: dict[str, Any] | None, a: str, b: str, games: int) -> str:
    """The summary's first line: what changed most, among the controlled figures."""
    if row is None:
        return (
            f"{b} against {a}, {games} paired games: no figure changed beyond chance "
            "(Holm-controlled 5%)"
        )
    lo, hi = row["ci95"]
    return (
        f"{b} against {a}, {games} paired games: what changed most is {row['figure']}, "
        f"{_fmt(row, row['mean'])} (95% {_fmt(row, lo, False)} to {_fmt(row, hi, False)}, Holm p "
        f"{row['p_holm']:.2g})"
    )


def compare_arms(
    arms: list[tuple[str, Sequence[GameRecord]]], simultaneous: bool = False
) -> list[dict[str, Any]]:
    """Each arm after the first against the first (the baseline arm)."""
    (label_a, base), *rest = arms
    return [compare_pair(base, records, label_a, label, simultaneous) for label, records in rest]


def baseline_arm(ctx: Any, old: dict[str, Any]) -> dict[str, Any]:
    """`--baseline OLD.json`, paired: the baseline report's rules (its options as given,
    variant and card file) played on this report's seeds, seats and games, then every
    figure paired against this report's main run. A baseline whose files changed since
    (sha256) or whose game, player count or seats differ is not paired, and says why."""
    from cardlab.lab.backends import run_spec
    from cardlab.lab.simulate import make_spec

    s = old.get("settings", {})
    if old.get("game") != ctx.game or s.get("players") != ctx.players:
        return {"skipped": "the baseline is another game or player count: not paired"}
    if list(s.get("agents", [])) != list(ctx.agents):
        return {"skipped": "the baseline seats other agents: not paired"}
    options = s["options_given"] if "options_given" in s else s.get("options") or {}
    spec = make_spec(
        ctx.game,
        ctx.players,
        list(ctx.agents),
        ctx.seed,
        ctx.games,
        options,
        s.get("cards"),
        s.get("variant"),
    )
    for kind in ("cards", "variant"):
        if s.get(kind) and s.get(f"{kind}_sha256") != getattr(spec, f"{kind}_sha256"):
            return {"skipped": f"the baseline's {kind} file {s[kind]} changed since: not paired"}
    base = run_spec(spec, ctx.workers, ctx.backend, ctx.ray_address, ctx.progress, "baseline")
    main = ctx.run()
    from cardlab.lab.report import decides_simultaneously

    simultaneous = decides_simultaneously(ctx.info)
    out = compare_pair(base.records, main.records, "baseline", "this report", simultaneous)
    out["baseline_rules"] = {
        "options": spec.options_dict,
        "cards": spec.cards,
        "variant": spec.variant,
    }
    return out
