"""Root-parallel ISMCTS: N independent searches from the same root, visits summed.

`ismcts:workers=N` runs N searches in N worker processes that share nothing
(Chaslot, Winands and van den Herik 2008, "root parallelisation"). Each worker
builds a plain `ISMCTSAgent` from the same parameters and a seed of its own,
derived from the decision's seed and the worker's index, and searches the same
root view; the root visit counts are summed (and the means weighted by visits)
and the most visited action is played, ties broken as the plain search breaks
them (the better mean, then the first legal action).

Budgets, stated once:
- `iterations` is the *total* work and is split between the workers (1,000 over
  2 workers: 500 each; the first `iterations % N` workers do one more). Same
  work, about 1/N of the wall time; deterministic for a given seed and N.
- `time_ms` is wall time and each worker gets all of it: N times the iterations
  in the same wall time (not deterministic, as with one worker).

`workers=1` is the plain `ISMCTSAgent` itself (the factory returns it), so the
default changes nothing. The workers are one persistent pool per process (spawn
context, so nothing is inherited), started on the first parallel decision,
reused by every later one, grown when a larger N asks, and terminated at exit
or by `shutdown_pool()`. The web table does not use this pool: it hands the
shards (`plan`) to its own bounded bot pool and combines them (`combine`)."""

from __future__ import annotations

import atexit
import contextlib
import inspect
import io
import multiprocessing
import os
import pickle
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardlab.agents.base import Agent, register_agent
from cardlab.agents.ismcts import ISMCTSAgent, SearchStats
from cardlab.core import Game, GameState
from cardlab.core.errors import CardlabError

MAX_WORKERS = 64
"""A sanity bound on `workers` (a typo of 1000 should not fork 1000 processes)."""


@dataclass(frozen=True)
class Shard:
    """One worker's search: the plain ISMCTS parameters and its seed."""

    params: dict[str, Any]
    seed: int


@dataclass(frozen=True)
class ShardResult:
    """A worker's root statistics: visits and mean value per legal action."""

    visits: dict[int, int]
    values: dict[int, float]
    iterations: int
    cpu_seconds: float


def worker_seed(decision_seed: int, index: int) -> int:
    """Worker `index`'s seed for one decision (sha512 of the text: the same everywhere)."""
    return random.Random(f"cardlab-root-parallel:{decision_seed}:{index}").getrandbits(63)


def plan(decision_seed: int, params: dict[str, Any], workers: int) -> list[Shard]:
    """The shards of one decision: `iterations` split, `time_ms` given to each worker.

    A worker whose share of the iterations would be 0 is left out (iterations=3 over
    4 workers is 3 shards of 1)."""
    total = params.get("iterations")
    if total is None and params.get("time_ms") is None:
        total = ISMCTSAgent(seed=0).iterations  # the plain default budget
    shards = []
    for i in range(workers):
        own = dict(params)
        if total is not None:
            share = total // workers + (1 if i < total % workers else 0)
            if share == 0:
                continue
            own["iterations"] = share
        shards.append(Shard(own, worker_seed(decision_seed, i)))
    return shards


def search_shard(params: dict[str, Any], seed: int, view: GameState | bytes) -> ShardResult:
    """Run one worker's search (in a worker process; top level, so it pickles).

    `view` may come packed (`pack`: its game as a recipe, rebuilt once per worker)."""
    start = time.process_time()
    state: GameState = unpack(view) if isinstance(view, bytes) else view
    agent = ISMCTSAgent(seed=seed, **params)
    agent.step(state)
    stats = agent.last_search
    return ShardResult(
        dict(stats.visits), dict(stats.values), stats.iterations, time.process_time() - start
    )


def combine(
    legal: list[int], results: list[ShardResult], seconds: float
) -> tuple[int, SearchStats]:
    """Sum the root visits (means weighted by visits) and choose as `ISMCTSAgent._choose`."""
    stats = SearchStats(sum(r.iterations for r in results), seconds)
    best_action, best_key = legal[0], (-1, -1.0)
    for action in legal:
        visits = sum(r.visits.get(action, 0) for r in results)
        weighted = sum(r.values.get(action, 0.0) * r.visits.get(action, 0) for r in results)
        mean = weighted / visits if visits else 0.0
        stats.visits[action] = visits
        stats.values[action] = mean
        if (visits, mean) > best_key:
            best_action, best_key = action, (visits, mean)
    return best_action, stats


class ParallelISMCTSAgent(Agent):
    """ISMCTS over `workers` processes; see the module docstring."""

    kind = "ismcts"

    def __init__(self, seed: int = 0, workers: int = 2, **params: Any) -> None:
        super().__init__(seed)
        ISMCTSAgent(seed=0, **params)  # the plain agent's checks and messages
        self.workers = workers
        self.params = params
        self.iterations = params.get("iterations")
        self.time_ms = params.get("time_ms")
        if self.iterations is None and self.time_ms is None:
            self.iterations = ISMCTSAgent(seed=0).iterations
        self.last_search = SearchStats()
        self.worker_cpu_seconds = 0.0
        """CPU the workers spent on the last decision (this process's clock misses it)."""

    def plan(self) -> list[Shard]:
        """The next decision's shards (draws the decision seed from this agent's rng)."""
        return plan(self.rng.getrandbits(63), self.params, self.workers)

    def step(self, state: GameState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = SearchStats(0, 0.0, {legal[0]: 0}, {})
            self.worker_cpu_seconds = 0.0
            return legal[0]
        start = time.perf_counter()
        shards = self.plan()
        pool = worker_pool(len(shards))
        packed = pack(state)
        futures = [pool.submit(search_shard, s.params, s.seed, packed) for s in shards]
        results = [f.result() for f in futures]  # in worker order: deterministic
        return self.finish(legal, results, time.perf_counter() - start)

    def finish(self, legal: list[int], results: list[ShardResult], seconds: float) -> int:
        """Combine the shards' results into the decision (also used by the web's pool)."""
        action, self.last_search = combine(legal, results, seconds)
        self.worker_cpu_seconds = sum(r.cpu_seconds for r in results)
        return action

    def __repr__(self) -> str:
        return f"<ismcts seed={self.seed} workers={self.workers}>"


def make_ismcts(seed: int = 0, workers: Any = 1, **params: Any) -> Agent:
    """The `ismcts` kind: the plain agent for `workers=1`, else the root-parallel one."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise CardlabError(f"ismcts: workers must be a whole number >= 1, not {workers!r}")
    if workers > MAX_WORKERS:
        raise CardlabError(f"ismcts: workers must be at most {MAX_WORKERS}, not {workers}")
    if workers == 1:
        return ISMCTSAgent(seed=seed, **params)
    return ParallelISMCTSAgent(seed=seed, workers=workers, **params)


# The kind's parameters are the plain agent's plus `workers` (agent_parameters reads the
# signature, so `make_agent` refuses a typo and `describe_parameters` lists them all).
_plain = inspect.signature(ISMCTSAgent)
_params = list(_plain.parameters.values())
make_ismcts.__signature__ = _plain.replace(  # type: ignore[attr-defined]
    parameters=[
        *_params,
        inspect.Parameter("workers", inspect.Parameter.KEYWORD_ONLY, default=1),
    ]
)
register_agent("ismcts")(make_ismcts)


# -- sending a view to a worker -----------------------------------------------------------
# States pickle on both builds (tests/test_state_pickling.py). The view travels with its
# game as a recipe (class, players, cards file, variant, options) instead of the Game
# itself: a worker rebuilds each game once and keeps it (loading the card data costs more
# than a short search), and what goes down the pipe per decision stays small.


def _recipe(game: Game) -> tuple[Any, ...]:
    return (type(game), game.num_players, game.cards_path, game.variant, dict(game.options))


def _dumps(obj: object, game: Game) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)

    def persistent_id(value: object) -> Any:
        return ("game",) if value is game else None

    pickler.persistent_id = persistent_id  # type: ignore[method-assign]
    pickler.dump(obj)
    return out.getvalue()


def pack(view: Any) -> bytes:
    """`view` as bytes a spawned worker can `unpack`, its game as a recipe."""
    if not isinstance(view, GameState):
        return pickle.dumps((None, view))
    return pickle.dumps((_recipe(view.game), _dumps(view, view.game)))


def unpack(data: bytes) -> Any:
    """The view `pack` sent, its game rebuilt from the recipe (once per worker)."""
    recipe, body = pickle.loads(data)
    if recipe is None:
        return body
    game = _rebuilt(recipe)

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            return game

    return Unpickler(io.BytesIO(body)).load()


_games: dict[bytes, Game] = {}


def _rebuilt(recipe: tuple[Any, ...]) -> Game:
    """The game of `recipe`, built once per worker."""
    key = pickle.dumps(recipe)
    if key not in _games:
        cls, players, cards, variant, options = recipe
        if len(_games) >= 8:
            _games.pop(next(iter(_games)))
        _games[key] = cls(players, cards=cards, variant=variant, **options)
    return _games[key]


# -- the persistent worker pool ---------------------------------------------------------
_pool: ProcessPoolExecutor | None = None
_pool_size = 0


def exit_with_parent(owner: int | None = None, poll_seconds: float = 1.0) -> None:
    """A worker's initializer: end this process when the process that started it is
    gone. A server killed with SIGKILL cannot shut its pool down, and a spawned worker
    blocked on its call queue would otherwise live on as an orphan (seen after the
    browser tests' kill -9 of a server).

    `owner` is the starting process's pid, passed by the pool (``initargs``): a worker
    whose owner died before this initializer ran has been re-parented already, and
    reading its parent here would watch pid 1 forever (seen: spawn workers of a killed
    test run, orphaned for hours). Such a worker exits at once."""
    import threading

    parent = os.getppid() if owner is None else owner
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_pool(size: int) -> ProcessPoolExecutor:
    """The process's pool of at least `size` spawned workers (started or grown on demand)."""
    global _pool, _pool_size
    if _pool is None or _pool_size < size:
        shutdown_pool()
        _pool = ProcessPoolExecutor(
            max_workers=size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
            initargs=(os.getpid(),),
        )
        _pool_size = size
    return _pool


def pool_pids() -> list[int]:
    """The worker processes' ids (for the no-orphans test)."""
    procs = getattr(_pool, "_processes", None) or {}
    return [p.pid for p in procs.values() if p.pid is not None]


def shutdown_pool() -> None:
    """Stop the workers: shut the executor down, then terminate and join what remains."""
    global _pool, _pool_size
    pool, _pool, _pool_size = _pool, None, 0
    if pool is None:
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            if proc.is_alive():
                proc.terminate()
            proc.join(1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)


atexit.register(shutdown_pool)
