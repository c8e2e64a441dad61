"""The strength ladder: agents play each other in every seat, win rates and ratings.

Seat order matters in most games, and deals are luck, so a fair comparison
plays every agent in every seat equally often on the same deals:

- The pool is the agent list filled cyclically to at least the seat count
  (`a,b,c` at 4 seats is the pool a,b,c,a: a sits twice in every game). List an
  agent several times to give it several places: `ismcts,random,random,random`
  is one ISMCTS against three random bots; each distinct agent is one row.
- For each deal, the pool is rotated through the seats once per pool entry, so
  each pool entry takes each seat equally often ("seat rotation"), every
  rotation on the same deal seed, with each pool entry's agent seeded the same
  across the rotations ("mirrored seeds").
- Win rate = games won / seats taken; the fair share is 1/players.
  95% intervals are Wilson score intervals.
- The rating is Bradley-Terry fitted on "the winner beat each other seat",
  shown on the Elo scale (400 * log10 of strength, mean 0).
- Mean points per agent with a 95% normal interval, the points as printed; the table
  says which end wins (`GameInfo.score_direction`: penalty points for "lowest"). A
  shared win counts as a win for each winner here; `simulate` and the report split it.

`run_ladder` returns a `LadderTable` so the playtest lab can reuse it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cardlab.agents import AgentSpec, parse_agent_spec, play_game
from cardlab.agents.spec import check_agent_specs
from cardlab.core import CardlabError, Game
from cardlab.core.plugin import lowest_wins
from cardlab.core.registry import load_game


@dataclass
class LadderRow:
    agent: str
    seats: int
    wins: int
    win_rate: float
    low: float
    high: float
    rating: float
    mean_points: float = 0.0
    """Mean final points over its seats, as printed (penalty points for a game the
    fewest points win: `score_direction` in the table says which)."""
    mean_points_ci95: tuple[float, float] = (0.0, 0.0)


@dataclass
class LadderTable:
    game: str
    players: int
    seed: int
    games: int
    rows: list[LadderRow]
    results: list[dict[str, Any]] = field(default_factory=list)
    score_direction: str = "highest"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """A plain table (Markdown-compatible) for terminals and docs."""
        fewest = self.score_direction == "lowest"
        lines = [
            f"{self.game}, {self.players} players, {self.games} games, seed {self.seed} "
            f"(fair share {1 / self.players:.0%}; {'fewest' if fewest else 'most'} points win)",
            "",
            "| agent | seats | wins | win rate | 95% interval | mean points | 95% interval "
            "| rating |",
            "|---|---:|---:|---:|---|---:|---|---:|",
        ]
        for row in sorted(self.rows, key=lambda r: -r.rating):
            lo, hi = row.mean_points_ci95
            lines.append(
                f"| {row.agent} | {row.seats} | {row.wins} | {row.win_rate:.1%} | "
                f"{row.low:.1%}-{row.high:.1%} | {row.mean_points:.4g} | {lo:.4g} to {hi:.4g} "
                f"| {row.rating:+.0f} |"
            )
        return "\n".join(lines)


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate: honest even near 0% and 100%."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(beats: list[list[int]], rounds: int = 500) -> list[float]:
    """Elo-scale strengths from `beats[i][j]` = times i beat j (Hunter's MM algorithm).

    Half a win each way is added to every pair that met, so an agent that never
    won still gets a finite rating."""
    k = len(beats)
    met = [[beats[i][j] + beats[j][i] for j in range(k)] for i in range(k)]
    wins = [sum(beats[i][j] + (0.5 if met[i][j] else 0) for j in range(k)) for i in range(k)]
    games = [[met[i][j] + (1 if met[i][j] else 0) for j in range(k)] for i in range(k)]
    strength = [1.0] * k
    for _ in range(rounds):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(wins[i] / denom if denom else strength[i])
        mean_log = sum(math.log(s) for s in new) / k
        strength = [s / math.exp(mean_log) for s in new]
    return [400 * math.log10(s) for s in strength]


def seat_pool(num_agents: int, players: int) -> list[int]:
    """Agent index per pool entry: the agents cycled to at least `players` entries."""
    return [i % num_agents for i in range(max(num_agents, players))]


def rotations(pool: list[int], players: int) -> list[list[int]]:
    """Per rotation, the pool entry sitting in each seat; each entry takes each seat once."""
    size = len(pool)
    return [[(r + seat) % size for seat in range(players)] for r in range(size)]


def distinct_agents(specs: Sequence[AgentSpec]) -> tuple[list[AgentSpec], list[int]]:
    """The distinct specs (one table row each) and, per given spec, its row index.

    Listing a spec twice gives it two places in the pool but one row:
    `ismcts,random,random,random` is one ISMCTS against three random bots."""
    rows: list[AgentSpec] = []
    index: list[int] = []
    for spec in specs:
        if spec not in rows:
            rows.append(spec)
        index.append(rows.index(spec))
    return rows, index


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The first `deals` deal seeds of a ladder run with `seed` (a prefix of any longer run)."""
    deal_rng = random.Random(f"ladder-deals-{seed}")
    return [deal_rng.getrandbits(32) for _ in range(deals)]


def play_rotation(
    g: Game, specs: Sequence[AgentSpec], seed: int, deal: int, deal_seed: int, rotation: int
) -> dict[str, Any]:
    """One game: the deal `deal_seed` with the pool turned `rotation` places.

    It depends only on its arguments, so the games of a ladder can be played in any order
    or process and a run of D deals is the first D deals of any longer run."""
    distinct, row_of = distinct_agents(specs)
    n = g.num_players
    pool = [row_of[i] for i in seat_pool(len(specs), n)]
    entries = rotations(pool, n)[rotation]
    agent_of_seat = [pool[e] for e in entries]
    bots = [
        distinct[a].make(seed=random.Random(f"{seed}-{deal}-{e}").getrandbits(32))
        for a, e in zip(agent_of_seat, entries, strict=True)
    ]
    result = play_game(g, bots, seed=deal_seed)
    return {
        "deal": deal,
        "deal_seed": deal_seed,
        "rotation": rotation,
        "seat_agents": agent_of_seat,
        "winners": result.winners,
        "returns": result.returns,
    }


def play_deal(
    g: Game,
    specs: Sequence[AgentSpec],
    seed: int,
    deal: int,
    deal_seed: int,
    on_game: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """One deal played in every seat rotation: a balanced block of games."""
    out = []
    for rotation in range(block_size(len(specs), g.num_players)):
        out.append(play_rotation(g, specs, seed, deal, deal_seed, rotation))
        if on_game is not None:
            on_game()
    return out


def block_size(num_agents: int, players: int) -> int:
    """Games per deal (one per seat rotation): a ladder's `games` round up to a multiple."""
    return len(seat_pool(num_agents, players))


def tabulate(
    name: str, players: int, seed: int, labels: Sequence[str], results: list[dict[str, Any]]
) -> LadderTable:
    """Win rates, Wilson intervals and Bradley-Terry ratings from played games' results."""
    k = len(labels)
    seats, wins = [0] * k, [0] * k
    points: list[list[float]] = [[] for _ in range(k)]
    beats = [[0] * k for _ in range(k)]
    for result in results:
        agent_of_seat = result["seat_agents"]
        for seat, a in enumerate(agent_of_seat):
            seats[a] += 1
            if "returns" in result:
                points[a].append(float(result["returns"][seat]))
            if seat in result["winners"]:
                wins[a] += 1
                for other, b in enumerate(agent_of_seat):
                    if other not in result["winners"] and b != a:
                        beats[a][b] += 1
    ratings = bradley_terry(beats)
    rows = []
    for i, label in enumerate(labels):
        low, high = wilson_interval(wins[i], seats[i])
        rate = wins[i] / seats[i] if seats[i] else 0.0
        mean, ci = mean_interval(points[i])
        rows.append(LadderRow(label, seats[i], wins[i], rate, low, high, ratings[i], mean, ci))
    direction = "lowest" if lowest_wins(name) else "highest"
    return LadderTable(name, players, seed, len(results), rows, results, direction)


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, tuple[float, float]]:
    """A mean and its 95% normal interval (the report's and `simulate`'s per-agent
    mean points use the same)."""
    if not values:
        return 0.0, (0.0, 0.0)
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return round(mean, 3), (round(mean, 3), round(mean, 3))
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return round(mean, 3), (round(mean - half, 3), round(mean + half, 3))


def run_ladder(
    game: str | Game,
    agents: Sequence[str | AgentSpec],
    players: int | None = None,
    games: int = 100,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LadderTable:
    """Play about `games` games (rounded up to whole rotations) and tabulate the agents.

    `game` is a name (loaded with `players` and `options`) or a Game object;
    `agents` are specs like `"ismcts:iterations=300"`; `progress(done, total)`
    is called after every game."""
    specs = [a if isinstance(a, AgentSpec) else parse_agent_spec(a) for a in agents]
    if not specs:
        raise CardlabError("run_ladder needs at least one agent")
    check_agent_specs(specs)
    distinct, _ = distinct_agents(specs)
    g = game if isinstance(game, Game) else load_game(game, players=players, **(options or {}))
    n = g.num_players
    size = block_size(len(specs), n)
    deals = max(1, math.ceil(games / size))
    results: list[dict[str, Any]] = []
    played = [0]

    def tick() -> None:
        played[0] += 1
        if progress is not None:
            progress(played[0], deals * size)

    for deal, deal_seed in enumerate(deal_seeds(seed, deals)):
        results += play_deal(g, specs, seed, deal, deal_seed, tick)
    return tabulate(g.name, n, seed, [spec.label for spec in distinct], results)
