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
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

from cardlab.core.registry import game_info
from cardlab.lab import metrics
from cardlab.lab.backends import RunResult, run_spec
from cardlab.lab.metrics import decides_simultaneously, finished, side_metrics
from cardlab.lab.simulate import GameRecord, make_spec
from cardlab.lab.stats import Z95
from cardlab.lab.tune.objectives import TARGETS, game_file_targets
from cardlab.lab.world_class import arm_summary

ALPHA = 0.05
POWER = 0.80
CHANGE = 0.05
"""The change the power line prices without a primary test: 5 points of a win rate."""
SHARE = "percentage points"
"""The unit of a share's paired difference (a win share, a stall share), stored as a
fraction: 0.045 reads "4.5 percentage points"."""
POINTS = "points"
"""The unit of a score's paired difference: the game's own points."""


def holders_figure(card: str) -> str:
    return f"card {card}: holders' win share"


def points_figure(card: str) -> str:
    return f"card {card}: points"


NO_LEAD_CHANGE = "games without a lead change"
"""Per game, 1 when the sole leader on points never changed (`simulate.lead_changes`)."""
ZERO_SEATS = "seats ending at 0 points"
"""Per game, the share of its seats that end with no points (a mean hides them)."""
TARGET_FIGURES = ("stall share", "tie-break share", "first seat's win share", "length: rounds")
"""A rule option's primary figures when no targets file names them: the design targets a
rules change is made to move (stalls, tie-breaks, the first seat's edge, length)."""
FIGURE_OF_TARGET = {
    "stall_share": "stall share",
    "tiebreak_share": "tie-break share",
    "first_seat_edge": "first seat's win share",
    "box_minutes": "length: rounds",
    "zero_seat_share": ZERO_SEATS,
    "no_lead_change_share": NO_LEAD_CHANGE,
}
"""The paired figure that reads each targets-file figure (`lab/tune/targets.toml`)."""


def target_figures(game: str) -> list[str]:
    """A rule option's primary figures: the paired figure of every target the targets
    files declare (the shared file, then the game's own `targets.toml`), in order."""
    try:
        targets = (*TARGETS, *game_file_targets(game_info(game)))
    except Exception:  # an unreadable targets file: the fixed list, the error shown by tune
        return list(TARGET_FIGURES)
    names = [FIGURE_OF_TARGET[t.figure] for t in targets if t.figure in FIGURE_OF_TARGET]
    return list(dict.fromkeys(names)) or list(TARGET_FIGURES)


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
            SHARE,
            lambda r: _win_share(r, r.first_player if r.first_player >= 0 else 0),
        ),
        "stall share": ("ends", SHARE, lambda r: float("stall" in r.end_reason.lower())),
        "tie-break share": (
            "ends",
            SHARE,
            lambda r: float(r.tiebreak not in (None, "", "not needed")),
        ),
        ZERO_SEATS: (
            "seat",
            SHARE,
            lambda r: sum(1 for x in r.scores if x == 0) / len(r.scores) if r.scores else None,
        ),
        NO_LEAD_CHANGE: ("tension", SHARE, lambda r: float(r.lead_changes == 0)),
    }
    personas = sorted({agent for r in (*a.values(), *b.values()) for agent in r.agents})
    for persona in personas:

        def persona_win(r: GameRecord, p: str = persona) -> float | None:
            seats = [s for s, agent in enumerate(r.agents) if agent == p]
            return statistics.fmean(_win_share(r, s) for s in seats) if seats else None

        figures[f"persona {persona}: win share"] = ("persona", SHARE, persona_win)
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
                POINTS,
                persona_points,
            )
    cards = sorted({c for r in (*a.values(), *b.values()) for seat in r.acquired for c in seat})
    for card in cards:

        def holder_win(r: GameRecord, c: str = card) -> float | None:
            seats = [s for s, held in enumerate(r.acquired) if c in held]
            return statistics.fmean(_win_share(r, s) for s in seats) if seats else None

        def card_points(r: GameRecord, c: str = card) -> float:
            return float(sum(seat.get(c, 0.0) for seat in r.card_points))

        figures[holders_figure(card)] = ("card", SHARE, holder_win)
        figures[points_figure(card)] = ("card points", POINTS, card_points)
    return figures


def compare_pair(
    base: Sequence[GameRecord],
    other: Sequence[GameRecord],
    label_a: str,
    label_b: str,
    simultaneous: bool = False,
    primary: Sequence[str] = (),
    primary_what: str = "",
) -> dict[str, Any]:
    """Every figure of arm `other` against arm `base`, paired by game index.

    `primary` names the figures of the changed thing's own effect (a changed card's
    holders' win share and points; an option's target figures), `primary_what` says
    what changed. They are the pre-registered test: Holm-corrected among themselves
    only, shown first whether or not they clear, and the power line prices them. Every
    other figure is exploratory, Holm-corrected among the exploratory ones only.
    `simultaneous`: the game decides at once, so the first seat's figure is named as
    the first-resolved seat's (FIRST_RESOLVED)."""
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
    wanted = [name for name in primary]
    first = [next(r for r in rows if r["figure"] == n) for n in wanted if _has(rows, n)]
    rest = [r for r in rows if r["figure"] not in wanted]
    for family, test in ((first, "primary"), (rest, "exploratory")):
        for row, p in zip(family, holm([r["p"] for r in family]), strict=True):
            row["p"] = round(row["p"], 6)
            row["p_holm"] = round(p, 6)
            row["controlled"] = p < ALPHA
            row["test"] = test
    rest.sort(key=lambda r: (not r["controlled"], -r["effect_size"]))
    top = next((r for r in rest if r["controlled"]), None)
    out: dict[str, Any] = {
        "arms": [label_a, label_b],
        "paired_games": len(common),
        "rows": first + rest,
        "correction": (
            f"Holm (family-wise 5%) among the {len(first)} primary figures, and apart among "
            f"the {len(rest)} exploratory ones"
            if first
            else "Holm (family-wise 5%) over every figure of this pair"
        ),
        "controlled": sum(1 for r in rest if r["controlled"]),
        "tested": len(rest),
        "exploratory_opening": opening(top, label_a, label_b, len(common)),
        "exploratory_line": exploratory_line(rest),
    }
    if first:
        out["primary"] = primary_block(first, primary_what, label_a, label_b, len(common))
        out["power"] = out["primary"]["power"]
        out["opening"] = out["primary"]["sentence"]
    else:
        out["power"] = exploratory_power(rest)
        out["opening"] = out["exploratory_opening"]
    missing = [n for n in wanted if not _has(rows, n)]
    if missing:  # e.g. a changed card no game had a holder of in both arms
        out["primary_unmeasured"] = missing
    return out


def _has(rows: list[dict[str, Any]], name: str) -> bool:
    return any(r["figure"] == name for r in rows)


def games_to_clear(mean: float, sd: float, family: int = 1) -> int | None:
    """Paired games for an effect of `mean` (per-game spread `sd`) to clear the test
    that decides it: 80% power, two-sided 5% split over the `family` figures Holm
    corrects together (its strictest step, alpha / family)."""
    if sd <= 0 or mean == 0:
        return None
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * max(1, family))) + NormalDist().inv_cdf(POWER)
    return math.ceil((z * sd / abs(mean)) ** 2)


def show(row: dict[str, Any], value: float, unit: bool = True, sign: bool = True) -> str:
    """A figure's value in its unit: shares in percentage points, scores in points,
    length in its own count."""
    fmt = "+.1f" if sign else ".1f"
    if row["unit"] == SHARE:
        return f"{value * 100:{fmt}}" + (" percentage points" if unit else "")
    fmt = "+.2f" if sign else ".2f"
    return f"{value:{fmt}}" + (f" {row['unit']}" if unit else "")


def p_text(p: float) -> str:
    return "< 0.000001" if p < 1e-6 else f"{p:.2g}"


def exploratory_line(rows: list[dict[str, Any]]) -> str:
    """The exploratory figures in one line: how many cleared Holm among themselves,
    and the largest standardised effect among those that did."""
    top = next((r for r in rows if r["controlled"]), None)
    head = f"{sum(r['controlled'] for r in rows)} of {len(rows)} cleared Holm among themselves"
    if top is None:
        return head
    lo, hi = top["ci95"]
    return (
        f"{head}; the largest: {top['figure']} {show(top, top['mean'])} (95% "
        f"{show(top, lo, False)} to {show(top, hi, False)}, Holm p {p_text(top['p_holm'])})"
    )


def primary_block(
    rows: list[dict[str, Any]], what: str, a: str, b: str, games: int
) -> dict[str, Any]:
    """The primary test in words: each figure with both arms, the paired difference in
    its unit, its 95% interval and Holm p among the primary figures, whether it clears;
    and the power line for the first figure (a card's holders' win share)."""
    k = len(rows)
    parts = []
    for r in rows:
        lo, hi = r["ci95"]
        verdict = "clears" if r["controlled"] else f"does not clear at {games} paired games"
        parts.append(
            f"{r['figure']} {show(r, r['mean'])} (95% {show(r, lo, False)} to "
            f"{show(r, hi, False)}; Holm p {p_text(r['p_holm'])} among {k}): {verdict}"
        )
        r["reading"] = verdict
    lead = rows[0]
    need = games_to_clear(lead["mean"], lead["sd"], k)
    if need is None:
        text = f"{lead['figure']} did not move: no effect seen to price"
    else:
        text = (
            f"the effect seen on {lead['figure']}, {show(lead, lead['mean'])}, clears this "
            f"test 4 times in 5 at about {need:,} paired games (80% power, two-sided 5% Holm "
            f"among the {k} primary figures, from its paired spread here; {games:,} played)"
        )
    return {
        "what": what,
        "figures": [r["figure"] for r in rows],
        "sentence": f"{b} against {a}, {games} paired games; the change's own effect"
        + (f" ({what})" if what else "")
        + ": "
        + "; ".join(parts),
        "power": {"games": need, "figure": lead["figure"], "text": text, "played": games},
        "clears": all(r["controlled"] for r in rows),
    }


def exploratory_power(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Without a primary test, the figures shown are the Holm-controlled exploratory
    ones: price a 5-point change in a card's holders' win rate at Holm's strictest step
    over them (the median card's paired spread)."""
    holder_sds = [r["sd"] for r in rows if r["group"] == "card" and r["sd"] > 0]
    m = len(rows)
    power = games_to_clear(CHANGE, statistics.median(holder_sds), m) if holder_sds else None
    return {
        "change": CHANGE,
        "games": power,
        "text": (
            f"a {CHANGE * 100:g}-percentage-point change in a card's holders' win rate needs "
            f"about {power:,} paired games to show among these {m} figures (80% power, "
            "two-sided 5% Holm, from the median card's paired spread here)"
            if power
            else "no card's paired spread to price a 5-point change from"
        ),
    }


def _fmt(row: dict[str, Any], value: float, unit: bool = True) -> str:
    return show(row, value, unit)


def opening(row: dict[str, Any] | None, a: str, b: str, games: int) -> str:
    """What changed most among the controlled exploratory figures."""
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
    arms: list[tuple[str, Sequence[GameRecord]]],
    simultaneous: bool = False,
    primary: Sequence[str] = (),
    primary_what: str = "",
) -> list[dict[str, Any]]:
    """Each arm after the first against the first (the baseline arm)."""
    (label_a, base), *rest = arms
    return [
        compare_pair(base, records, label_a, label, simultaneous, primary, primary_what)
        for label, records in rest
    ]


def baseline_arm(ctx: Any, old: dict[str, Any]) -> dict[str, Any]:
    """`--baseline OLD.json`, paired: the baseline report's rules (its options as given,
    variant and card file) played on this report's seeds, seats and games, then every
    figure paired against this report's main run. A baseline whose files changed since
    (sha256) or whose game, player count or seats differ is not paired, and says why."""
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
    simultaneous = decides_simultaneously(ctx.info)
    out = compare_pair(base.records, main.records, "baseline", "this report", simultaneous)
    out["baseline_rules"] = {
        "options": spec.options_dict,
        "cards": spec.cards,
        "variant": spec.variant,
    }
    return out


PACKAGED = ("default", "packaged")
"""`--compare cards=default,B.toml`: an arm named so (with no file of that name) plays
the game's packaged cards."""


def arm_cards(value: str) -> str | None:
    """The card file a compared arm plays: the file, or None (packaged) for `default`."""
    return None if value in PACKAGED and not Path(value).exists() else value


def _card_entries(game: str, cards: str | None) -> dict[str, Any]:
    """name -> entry of every card table of a card file (the packaged one for None); a
    name listed several times (copies) keeps the list of its entries."""
    if cards is None:
        info = game_info(game)
        path = info.asset("cards") if info.cards else None
        if path is None:
            return {}
    else:
        path = Path(cards)
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    out: dict[str, list[Any]] = {}
    for section, rows in data.items():
        if isinstance(rows, list):
            for row in rows:
                if isinstance(row, dict) and isinstance(row.get("name"), str):
                    out.setdefault(f"{section}\0{row['name']}", []).append(row)
    return out


def changed_cards(game: str, a: str | None, b: str | None) -> list[str]:
    """The cards two card files print differently (in both files, another entry): the
    changed thing a card comparison's primary test is about."""
    ea, eb = _card_entries(game, a), _card_entries(game, b)
    return sorted(k.split("\0", 1)[1] for k in set(ea) & set(eb) if ea[k] != eb[k])


def primary_figures(
    option: str, labels: list[str], runs: list[Any], simultaneous: bool
) -> tuple[list[str], str]:
    """(figure names, what changed) of a comparison's primary test: for card files,
    each changed card's holders' win share then its points; for a rule option, the
    targets the targets files declare (`target_figures`)."""
    if option == "cards":
        cards: list[str] = []
        for run in runs[1:]:
            for card in changed_cards(run.spec.game, runs[0].spec.cards, run.spec.cards):
                if card not in cards:
                    cards.append(card)
        if not cards:
            return [], "the card files print the same cards"
        names = [holders_figure(c) for c in cards] + [points_figure(c) for c in cards]
        return names, "changed: " + ", ".join(cards)
    first = FIRST_RESOLVED if simultaneous else "first seat's win share"
    game = runs[0].spec.game
    names = [first if n == "first seat's win share" else n for n in target_figures(game)]
    return names, f"{option}'s target figures (the targets files): " + ", ".join(names)


CS_ALPHA = 0.05


def confidence_sequence(
    mean: float, sd: float, n: int, alpha: float = CS_ALPHA, n_star: int = 200
) -> tuple[float, float]:
    """An always-valid (1 - alpha) confidence sequence for a mean at sample size `n`:
    the asymptotic normal-mixture boundary (Waudby-Smith, Arbour, Sinha, Kennedy and
    Ramdas, "Time-uniform central limit theory", 2021), tuned to be tightest near
    `n_star`. It holds at every look at once, so a study may look after every batch
    and stop when it excludes 0, with its error rate still alpha."""
    if n < 2:
        return (-math.inf, math.inf)
    la = math.log(1 / alpha)
    rho2 = (2 * la + math.log(2 * la + 1)) / max(1, n_star)
    half = sd * math.sqrt(
        2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / alpha)
    )
    return (mean - half, mean + half)


def compare_section(
    ctx: Any, compare: tuple[str, list[str]], side_games: int, model: Any
) -> dict[str, Any]:
    """`--compare`: every arm on the same seeds, read pair by pair (`compare_pair`) with
    the changed thing's own effect as the primary test. With `ctx.compare_budget` it
    plays in looks of `side_games` paired games per arm until the primary figure's
    always-valid 95% confidence sequence (Bonferroni over the primary figures) excludes
    0 in every pair, or the budget is spent, and says which."""
    name, values = compare
    simultaneous = decides_simultaneously(ctx.info)
    budget = ctx.compare_budget

    def arm_spec(value: str, games: int) -> Any:

        if name == "cards":  # `default`: the packaged cards, even under a report's --cards
            cards = arm_cards(value)
            opts = dict(ctx.options)
            return make_spec(
                ctx.game, ctx.players, list(ctx.agents), ctx.seed, games, opts, cards, ctx.variant
            )
        return ctx.spec(options={name: value}, games=games)

    def play(value: str, games: int, prior: Any = None) -> Any:

        spec = arm_spec(value, games)
        if spec not in ctx.used:
            ctx.used.append(spec)
        label = f"{ctx.game} {name}={value}"
        start = len(prior.records) if prior is not None else 0
        run = run_spec(
            spec, ctx.workers, ctx.backend, ctx.ray_address, ctx.progress, label, first=start
        )
        if prior is None:
            return run
        return RunResult(
            spec,
            [*prior.records, *run.records],
            prior.elapsed_s + run.elapsed_s,
            run.workers,
            run.backend,
        )

    first_games = side_games if budget is None else min(side_games, budget)
    runs = [play(v, first_games) for v in values]
    labels = list(values)
    primary, what = primary_figures(name, labels, runs, simultaneous)
    looks: list[dict[str, Any]] = []
    stopped = ""
    while True:
        paired = compare_arms(
            [(label, run.records) for label, run in zip(labels, runs, strict=True)],
            simultaneous,
            primary,
            what,
        )
        if budget is None:
            break
        look = _look(paired, len(runs[0].records), side_games)
        looks.append(look)
        if look["resolved"]:
            stopped = "resolved"
            break
        if len(runs[0].records) >= budget:
            stopped = "budget"
            break
        more = min(budget, len(runs[0].records) + side_games)
        runs = [play(v, more, run) for v, run in zip(values, runs, strict=True)]
    for run in runs:  # the report's runs: counted in its games, cited seeds found in them
        ctx._cache[(run.spec, None)] = run
    edges = metrics.shared_edges([run.records for run in runs], model)
    rows = []
    for label, run in zip(labels, runs, strict=True):
        value = run.spec.cards if name == "cards" else run.spec.options_dict[name]
        row = {
            "value": label if name == "cards" else str(value),
            **side_metrics(run.records, model, edges),
        }
        if name == "cards":
            row["cards"] = run.spec.cards or "packaged"
            row["cards_sha256"] = run.spec.cards_sha256

        row["experience"] = arm_summary(run, model)  # each arm's reading of the bands
        rows.append(row)
    out: dict[str, Any] = {
        "option": name,
        "games": len(runs[0].records),
        "values": rows,
        "paired": paired,
        "primary_figures": primary,
        "primary_what": what,
    }
    if budget is not None:
        out["sequential"] = _sequential(looks, stopped, budget, side_games)
    out["main_run"] = main_run_named(ctx, name, labels, runs)
    return out


def main_run_named(ctx: Any, name: str, labels: list[str], runs: list[Any]) -> str:
    """Which run the report's header, key figures and strategy describe, beside the
    comparison: the main run, with its own games, is one arm's rules or neither's."""
    main = ctx.spec()
    if name == "cards":
        same = [lab for lab, run in zip(labels, runs, strict=True) if run.spec.cards == main.cards]
    else:
        mine = main.options_dict.get(name)
        same = [
            lab
            for lab, run in zip(labels, runs, strict=True)
            if run.spec.options_dict[name] == mine
        ]
    what = f"{name}={','.join(labels)}"
    games = len(runs[0].records)
    if same:
        return (
            f"the header, key figures and strategy describe the main run: {main.games:,} games "
            f"under arm {same[0]}'s rules, a run of its own; the comparison's arms ({what}) "
            f"are {games:,} games each on the same seeds"
        )
    return (
        f"the header, key figures and strategy describe the main run ({main.games:,} games), "
        f"a separate run that is neither arm of the comparison ({what}, {games:,} games each)"
    )


def _look(paired: list[dict[str, Any]], games: int, n_star: int) -> dict[str, Any]:
    """One look of a sequential comparison: each pair's lead primary figure with its
    always-valid interval (alpha split over the primary figures); resolved when every
    pair's excludes 0."""
    pairs = []
    for pair in paired:
        block = pair.get("primary")
        if not block:
            pairs.append({"arms": pair["arms"], "figure": None, "resolved": False})
            continue
        lead = next(r for r in pair["rows"] if r["figure"] == block["figures"][0])
        k = len(block["figures"])
        lo, hi = confidence_sequence(lead["mean"], lead["sd"], lead["games"], CS_ALPHA / k, n_star)
        pairs.append(
            {
                "arms": pair["arms"],
                "figure": lead["figure"],
                "unit": lead["unit"],
                "mean": lead["mean"],
                "cs95": [round(lo, 4), round(hi, 4)],
                "resolved": lo > 0 or hi < 0,
            }
        )
    return {"games": games, "pairs": pairs, "resolved": all(p["resolved"] for p in pairs)}


def _sequential(
    looks: list[dict[str, Any]], stopped: str, budget: int, step: int
) -> dict[str, Any]:
    last = looks[-1]
    bits = []
    for p in last["pairs"]:
        if p["figure"] is None:
            bits.append(f"{p['arms'][1]} against {p['arms'][0]}: no primary figure to decide on")
            continue
        lo, hi = p["cs95"]
        row = {"unit": p["unit"]}
        state = "excludes 0" if p["resolved"] else "still includes 0"
        bits.append(
            f"{p['arms'][1]} against {p['arms'][0]}, {p['figure']} {show(row, p['mean'])} "
            f"(always-valid 95%: {show(row, lo, False)} to {show(row, hi, False)}, {state})"
        )
    head = (
        f"resolved after {last['games']:,} paired games of a budget of {budget:,}"
        if stopped == "resolved"
        else f"budget spent: {last['games']:,} paired games, the primary effect not resolved"
    )
    return {
        "design": (
            "always-valid 95% confidence sequence on each pair's lead primary figure "
            "(asymptotic normal mixture, Waudby-Smith et al. 2021; Bonferroni over the "
            f"primary figures), a look every {step:,} paired games per arm, stopping when "
            "every pair's excludes 0 or at the budget"
        ),
        "budget": budget,
        "step": step,
        "stopped": stopped,
        "looks": looks,
        "sentence": f"Played until it knows: {head}: " + "; ".join(bits),
        "note": (
            "the fixed-sample intervals of the rows are at the games played; after a "
            "sequential stop the always-valid interval is the one that keeps its 95%"
        ),
    }
