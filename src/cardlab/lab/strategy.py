"""Strategy diagnostics: who wins, with what points, how games are won and lost.

Every report carries these, read from the main run's records:

- per persona (agent label) and per seat: win rate with a Wilson interval, mean score
  and mean points by source (the columns of the game's final table). A persona is
  flagged *dominant* when its interval lies above every other persona's and above the
  fair share: the report then says which strategy the rules reward.
- margin of victory: the winner's score minus the runner-up's (0 for a shared or a
  tie-broken win), its distribution and histogram.
- runaway leader: P(win | sole leader after round k) for each round k before the last,
  with Wilson intervals (the round count is the game's `info()["rounds"]`).
- comebacks: games won by the seat that trailed by the largest margin seen at any round
  boundary before the end.
- kingmaking (`kingmaking`, played): a seat *out of contention* -- behind the leader by
  more than any seat gained from that decision to the end of the game -- whose move,
  replaced by another legal move (the same bots on, the same seeds), changes the winner.
- scrap by part, for a game whose lab hook `tallies` counts `picked:`/`scrapped:` parts
  (SUPER COMPUTER).
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from cardlab.agents import agent_view
from cardlab.agents.spec import parse_agent_spec
from cardlab.core.plugin import lowest_wins
from cardlab.lab.metrics import MAX_SEEDS, finished, histogram, nice_edges
from cardlab.lab.simulate import DECISION_CAP, GameRecord, SimSpec, make_agents, spec_game
from cardlab.lab.stats import Z95, describe, wilson
from cardlab.ladder import mean_interval

MAX_ROUNDS_SHOWN = 15
"""Runaway-leader rows: the first this many rounds (a longer game's later rounds are
seldom reached by enough games to read)."""

KINGMAKING_GAMES = 20
"""Games of the main run replayed for kingmaking (each costs one game per move tried)."""

MOVES_PER_GAME = 2
"""Out-of-contention moves tried per game: its first and its last."""


def _sign(records: Sequence[GameRecord]) -> float:
    """-1 for a game the fewest points win (`GameInfo.score_direction`), else 1: the
    figures that compare seats (leaders, margins, deficits) read `sign * points`, so
    they mean the same for penalty points, while every figure shown stays in the
    points as printed."""
    return -1.0 if records and lowest_wins(records[0].game) else 1.0


def _share(r: GameRecord, seat: int) -> float:
    return 1 / len(r.winners) if seat in r.winners else 0.0


def _rate(wins: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {
        "n": n,
        "wins": round(wins, 3),
        "rate": round(wins / n, 4) if n else None,
        "wilson95": [round(lo, 4), round(hi, 4)],
    }


def _group(records: Sequence[GameRecord], key: Any) -> list[dict[str, Any]]:
    """Win rate, mean score and mean points by source of the seat-games `key(r, seat)`
    groups (a persona, a seat)."""
    wins: dict[Any, float] = defaultdict(float)
    seats: dict[Any, int] = defaultdict(int)
    scores: dict[Any, list[float]] = defaultdict(list)
    sources: dict[Any, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in records:
        for seat in range(r.players):
            k = key(r, seat)
            seats[k] += 1
            wins[k] += _share(r, seat)
            scores[k].append(r.scores[seat])
            if seat < len(r.point_sources):
                for name, v in r.point_sources[seat].items():
                    sources[k][name] += v
    rows = []
    for k in sorted(seats, key=str):
        n = seats[k]
        _, ci = mean_interval(scores[k], Z95)
        rows.append(
            {
                "who": k,
                **_rate(wins[k], n),
                "mean_score": round(statistics.fmean(scores[k]), 3),
                "mean_score_ci95": list(ci),
                "points_by_source": {s: round(v / n, 3) for s, v in sources[k].items()},
            }
        )
    return rows


SEARCH_BUDGET = ("iterations", "time_ms", "rollout", "rollout_depth", "workers")
"""The ISMCTS parameters that set how hard it searches (its budget); the rest (`c`,
`eval_scale`, ...) are a style at the same strength."""


def strength_tier(label: str) -> str:
    """Which agents a report may compare as strategies: random play; one-ply heuristics
    (greedy and every game's personas: no search, a strategy each); and ISMCTS at one
    search budget. Two agents of one tier differ in what they go for, so one clearly
    ahead is a strategy the rules reward; across tiers it is a skill gap."""
    try:
        spec = parse_agent_spec(label)
    except Exception:  # a label that is not a spec (a test's name): a tier of its own
        return label
    if spec.kind == "random":
        return "random"
    if spec.kind == "ismcts":
        budget = ",".join(f"{k}={spec.params[k]}" for k in SEARCH_BUDGET if k in spec.params)
        return f"ismcts:{budget}" if budget else "ismcts"
    return "heuristic"


def personas(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per agent label; the dominant one (if any) is named, and a clear gap between
    agents of different strength (greedy over random, deeper search over shallower) is
    reported as the skill gap it is, not as a dominant strategy."""
    done = finished(records)
    if not done:
        return {"rows": [], "dominant": None, "skill_gap": None}
    rows = _group(done, lambda r, seat: r.agents[seat])
    fair = 1 / done[0].players
    for row in rows:
        row["tier"] = strength_tier(str(row["who"]))
    dominant = None
    for row in rows:
        peers = [o for o in rows if o is not row and o["tier"] == row["tier"]]
        lo = row["wilson95"][0]
        if peers and lo > fair and all(lo > o["wilson95"][1] for o in peers):
            dominant = row["who"]
            row["dominant"] = True
    out: dict[str, Any] = {
        "rows": rows,
        "fair_share": round(fair, 4),
        "dominant": None,
        "skill_gap": skill_gap(rows),
        "score_direction": "lowest" if _sign(done) < 0 else "highest",
    }
    if dominant is not None:
        row = next(r for r in rows if r["who"] == dominant)
        if _sign(done) < 0:  # penalty points: what it avoids, not what it gathers
            where = f"; it takes {row['mean_score']:.1f} points a game (fewest points win)"
        else:
            top = max(row["points_by_source"].items(), key=lambda kv: kv[1], default=None)
            where = f"; most of its points from {top[0]} ({top[1]:.1f} a game)" if top else ""
        same = ", ".join(str(r["who"]) for r in rows if r["tier"] == row["tier"] and r is not row)
        out["dominant"] = dominant
        out["sentence"] = (
            f"{dominant} dominates: it wins {row['rate']:.0%} (95% "
            f"{row['wilson95'][0]:.0%}-{row['wilson95'][1]:.0%}) of its {row['n']} seats, "
            f"above the interval of every strategy of its strength ({same}) and the fair "
            f"{fair:.0%}{where}"
        )
    return out


def skill_gap(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The widest clear gap between agents of different strength tiers: the best agent
    whose interval lies above a weaker-tier agent's, with the difference of win rates."""
    best: dict[str, Any] | None = None
    for a in rows:
        for b in rows:
            if a["tier"] == b["tier"] or a["wilson95"][0] <= b["wilson95"][1]:
                continue
            gap = a["rate"] - b["rate"]
            if best is None or gap > best["gap"]:
                best = {"stronger": a["who"], "weaker": b["who"], "gap": round(gap, 4)}
    if best is None:
        return None
    a = next(r for r in rows if r["who"] == best["stronger"])
    b = next(r for r in rows if r["who"] == best["weaker"])
    best["sentence"] = (
        f"{a['who']} beats {b['who']}: it wins {a['rate']:.0%} (95% "
        f"{a['wilson95'][0]:.0%}-{a['wilson95'][1]:.0%}) of its {a['n']} seats against "
        f"{b['rate']:.0%} ({b['wilson95'][0]:.0%}-{b['wilson95'][1]:.0%}) for {b['who']}, "
        f"a skill gap of {100 * best['gap']:+.0f} points of win rate between bots of "
        "different strength (not a dominant strategy: the rules are not what it shows)"
    )
    return best


def by_agent(records: Sequence[GameRecord]) -> dict[str, dict[str, Any]]:
    """Per agent label, over the finished games: seats taken, wins (a shared win split),
    win rate with its 95% Wilson interval, mean score with its 95% interval (normal,
    over seat-games). The figures `simulate` prints and `--json` carries
    (`wins_by_agent`, `mean_score_by_agent`), the rows of the report's persona table."""
    rows = _group(finished(records), lambda r, seat: r.agents[seat])
    return {
        str(row["who"]): {
            "seats": row["n"],
            "wins": row["wins"],
            "rate": row["rate"],
            "wilson95": row["wilson95"],
            "mean_score": row["mean_score"],
            "mean_score_ci95": row["mean_score_ci95"],
        }
        for row in rows
    }


def seats(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per seat index (a seat is not a turn position: the seed picks who starts)."""
    done = finished(records)
    rows = _group(done, lambda r, seat: seat + 1)
    for row in rows:
        row["who"] = f"seat {row['who']}"
    return rows


def margin(r: GameRecord, sign: float = 1.0) -> float:
    """Winner's score minus the best other score (0 when the top scores tie); for a
    game the fewest points win (`sign` -1) the runner-up's points minus the winner's."""
    top = sorted((sign * s for s in r.scores), reverse=True)
    return top[0] - top[1] if len(top) > 1 else 0.0


def margins(records: Sequence[GameRecord]) -> dict[str, Any]:
    done = finished(records)
    sign = _sign(done)
    values = [margin(r, sign) for r in done]
    edges = nice_edges(values, integer=all(v == int(v) for v in values), bins=16)
    close = sorted(done, key=lambda r: margin(r, sign))
    return {
        **describe(values),
        "histogram": {"edges": edges, "counts": histogram(values, edges)},
        "tied_share": round(sum(v == 0 for v in values) / len(values), 4) if values else 0.0,
        "widest_seeds": [r.seed for r in close[::-1][:MAX_SEEDS]],
    }


def _sole_leader(scores: Sequence[float]) -> int | None:
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None


def runaway(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """P(win | sole leader after round k), for each round k before the game's last."""
    done = [r for r in finished(records) if len(r.round_scores) > 1]
    sign = _sign(done)
    wins: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    for r in done:
        for k, scores in enumerate(r.round_scores[:-1][:MAX_ROUNDS_SHOWN], start=1):
            leader = _sole_leader([sign * s for s in scores])
            if leader is not None:
                games[k] += 1
                wins[k] += _share(r, leader)
    fair = 1 / done[0].players if done else 0.0
    return [
        {
            "round": k,
            "games_with_a_leader": games[k],
            **_rate(wins[k], games[k]),
            "fair_share": round(fair, 4),
        }  # fmt: skip
        for k in sorted(games)
    ]


def comebacks(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Games won by the seat that trailed by the largest margin: over every round boundary
    before the end and every seat, the largest deficit to the leader; a comeback when a
    seat with that deficit (more than 0) won. One seat a game is the worst-off, so being
    briefly last (after RUNWAY's first Deal every seat but one is) does not count."""
    done = [r for r in finished(records) if len(r.round_scores) > 1]
    sign = _sign(done)
    seeds: list[int] = []
    overcome: list[float] = []
    for r in done:
        worst, seats = 0.0, set()
        for printed in r.round_scores[:-1]:
            scores = [sign * s for s in printed]
            for seat, v in enumerate(scores):
                gap = max(scores) - v
                if gap > worst:
                    worst, seats = gap, {seat}
                elif gap == worst and gap > 0:
                    seats.add(seat)
        if worst > 0 and seats & set(r.winners):
            overcome.append(worst)
            seeds.append(r.seed)
    won = len(overcome)
    lo, hi = wilson(won, len(done))
    return {
        "games": len(done),
        "comebacks": won,
        "share": round(won / len(done), 4) if done else None,
        "wilson95": [round(lo, 4), round(hi, 4)],
        "deficit_overcome": describe(overcome),
        "seeds": seeds[:MAX_SEEDS],
        "rule": (
            "the winner is the seat that trailed the leader by the largest margin seen at "
            "any round boundary before the end"
        ),
    }


def scrap_by_part(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per part: picks, scraps and scrap share (from the `tallies` lab hook)."""
    picked: dict[str, float] = defaultdict(float)
    scrapped: dict[str, float] = defaultdict(float)
    for r in finished(records):
        for key, n in r.tallies.items():
            kind, _, name = key.partition(":")
            if kind == "picked":
                picked[name] += n
            elif kind == "scrapped":
                scrapped[name] += n
    rows = []
    for name, n in picked.items():
        lo, hi = wilson(scrapped[name], int(n))
        rows.append(
            {
                "part": name,
                "picked": int(n),
                "scrapped": int(scrapped[name]),
                "scrap_share": round(scrapped[name] / n, 4) if n else 0.0,
                "wilson95": [round(lo, 4), round(hi, 4)],
            }
        )
    return sorted(rows, key=lambda row: (-row["scrap_share"], row["part"]))


# ---- kingmaking: replay a move differently ------------------------------------------
def _play(
    spec: SimSpec,
    index: int,
    seed: int,
    deviate_at: int | None = None,
    pick: random.Random | None = None,
) -> tuple[Any, list[tuple[int, int, list[float]]]]:
    """Play game `index` as `play_game` does (same deal, bots, bot seeds and view
    redeals); at decision `deviate_at` the bot still decides (its generator stays in
    step) and another legal move, drawn by `pick`, is played instead. Returns the
    final state and, per decision, (seat, legal count, scores before it)."""
    game = spec_game(spec)
    sign = -1.0 if lowest_wins(spec.game) else 1.0  # the trace is better-is-higher
    agents = make_agents(spec, seed, index)
    state = game.new_initial_state(seed)
    view_rng = random.Random(f"views-{seed}")
    trace: list[tuple[int, int, list[float]]] = []
    while not state.is_terminal() and len(trace) < DECISION_CAP:
        seat = state.current_player()
        legal = state.legal_actions()
        action = (
            legal[0] if len(legal) == 1 else agents[seat].step(agent_view(state, seat, view_rng))
        )
        trace.append((seat, len(legal), [sign * float(x) for x in state.scores()]))
        if deviate_at == len(trace) - 1 and pick is not None:
            action = pick.choice([a for a in legal if a != action])
        state.apply_action(action)
    return state, trace


def out_of_contention(trace: list[tuple[int, int, list[float]]], final: list[float]) -> list[int]:
    """Decisions (with a choice) of a seat out of contention: behind the leader by more
    than any seat gained from that decision to the end of this game."""
    out = []
    for t, (seat, legal, scores) in enumerate(trace):
        if legal < 2:
            continue
        most_gained = max(f - s for f, s in zip(final, scores, strict=True))
        if max(scores) - scores[seat] > most_gained:
            out.append(t)
    return out


def kingmaking(
    spec: SimSpec, records: Sequence[GameRecord], games: int = KINGMAKING_GAMES
) -> dict[str, Any]:
    """Replay up to `games` finished games; in each, the first and the last move of a seat
    out of contention is played differently and the game continued with the same bots."""
    sample = [r for r in finished(records)][:games]
    tried = changed = 0
    games_with = games_changed = mismatched = 0
    examples: list[dict[str, Any]] = []
    for r in sample:
        state, trace = _play(spec, r.index, r.seed)
        if [float(x) for x in state.returns()] != list(r.scores):
            mismatched += 1  # the run is not reproduced: no reading from it
            continue
        moves = out_of_contention(trace, [_sign(sample) * x for x in r.scores])
        if not moves:
            continue
        games_with += 1
        chosen = sorted({moves[0], moves[-1]})[:MOVES_PER_GAME]
        hit = False
        for t in chosen:
            alt, _ = _play(spec, r.index, r.seed, t, random.Random(f"kingmaking-{r.seed}-{t}"))
            tried += 1
            if sorted(alt.winners()) != sorted(r.winners):
                changed += 1
                hit = True
                if len(examples) < MAX_SEEDS:
                    examples.append(
                        {
                            "seed": r.seed,
                            "decision": t + 1,
                            "seat": trace[t][0] + 1,
                            "winner_was": [w + 1 for w in r.winners],
                            "winner_now": [w + 1 for w in alt.winners()],
                        }
                    )
        games_changed += hit
    lo, hi = wilson(changed, tried)
    glo, ghi = wilson(games_changed, games_with)
    return {
        "games_sampled": len(sample),
        "not_reproduced": mismatched,
        "games_with_out_of_contention_move": games_with,
        "moves_tried": tried,
        "moves_changing_winner": changed,
        "move_share": round(changed / tried, 4) if tried else None,
        "move_share_wilson95": [round(lo, 4), round(hi, 4)],
        "games_changed": games_changed,
        "game_share": round(games_changed / games_with, 4) if games_with else None,
        "game_share_wilson95": [round(glo, 4), round(ghi, 4)],
        "examples": examples,
        "rule": (
            "a seat is out of contention at a decision when it trails the leader by more "
            "than any seat gained from that decision to the end of the game; in each "
            "sampled game its first and last such move (with a choice) is replaced by "
            "another legal move drawn at random, and the game goes on with the same bots "
            "on the same seeds"
        ),
    }


def diagnostics(
    spec: SimSpec,
    records: Sequence[GameRecord],
    simultaneous: bool = False,
    kingmaking_games: int = KINGMAKING_GAMES,
) -> dict[str, Any]:
    """The report's strategy section (kingmaking played on `kingmaking_games` games)."""
    out: dict[str, Any] = {
        "games": len(finished(records)),
        "players": spec.players,
        "score_direction": "lowest" if lowest_wins(spec.game) else "highest",
        "personas": personas(records),
        "seats": seats(records),
        "margins": margins(records),
        "runaway": runaway(records),
        "comebacks": comebacks(records),
        "scrap_by_part": scrap_by_part(records),
    }
    if simultaneous:
        out["seat_note"] = (
            "Decisions are simultaneous in this game: a seat number is the engine's "
            "resolution order, not a turn order players feel at the table"
        )
    out["kingmaking"] = (
        kingmaking(spec, records, kingmaking_games)
        if kingmaking_games > 0
        else {"skipped": "kingmaking replays turned off (--kingmaking-games 0)"}
    )
    return out


def agent_summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """`simulate --json`'s per-agent figures: `wins_by_agent` (seats, wins, rate and its
    95% Wilson interval) and `mean_score_by_agent` (mean and its 95% interval), by agent
    label, with the game's `score_direction` so a reader knows which end wins."""
    rows = by_agent(records)
    return {
        "score_direction": "lowest" if _sign(records) < 0 else "highest",
        "wins_by_agent": {
            a: {k: r[k] for k in ("seats", "wins", "rate", "wilson95")} for a, r in rows.items()
        },
        "mean_score_by_agent": {
            a: {"mean": r["mean_score"], "ci95": r["mean_score_ci95"]} for a, r in rows.items()
        },
    }


def agent_lines(summary: dict[str, Any]) -> list[str]:
    """One line per agent for `simulate`'s text output: wins and mean points with 95%
    intervals (the seats rotate, so this, not the seat table, is each bot's result)."""
    wins, means = summary.get("wins_by_agent", {}), summary.get("mean_score_by_agent", {})
    lowest = summary.get("score_direction") == "lowest"
    lines = [f"by agent ({'fewest' if lowest else 'most'} points win):"] if wins else []
    for agent, w in wins.items():
        m = means[agent]
        lo, hi = w["wilson95"]
        rate = w["rate"] or 0.0
        lines.append(
            f"  {agent}: wins {rate:.1%} (95% {lo:.1%}-{hi:.1%}) of {w['seats']} seats, "
            f"mean points {m['mean']:.4g} (95% {m['ci95'][0]:.4g} to {m['ci95'][1]:.4g})"
        )
    return lines
