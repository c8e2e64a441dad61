"""Run a spec's games on local processes or on Ray, with a progress bar.

Games are cut into small batches (a few per task) so both backends balance
load; results are put back in game-index order, so the records never depend
on the backend, the worker count or the finishing order."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardlab.core import CardlabError
from cardlab.lab.simulate import GameRecord, Observer, SimSpec, play_batch, probe_batch

if TYPE_CHECKING:
    from rich.progress import Progress

BACKENDS = ("local", "ray")


@dataclass
class RunResult:
    spec: SimSpec
    records: list[Any]  # GameRecord, or an observer's dicts
    elapsed_s: float
    workers: int
    backend: str


def batches(games: int, workers: int, start: int = 0) -> list[list[int]]:
    """About 8 batches per worker (load balance), at most 50 games each, of the games
    with index `start` up to `games`."""
    size = max(1, min(50, (games - start) // max(1, workers * 8)))
    return [list(range(i, min(games, i + size))) for i in range(start, games, size)]


def run_spec(
    spec: SimSpec,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
    label: str | None = None,
    observer: type[Observer] | None = None,
    first: int = 0,
) -> RunResult:
    """Play every game of `spec` (from index `first`: a sequential comparison's next
    look plays only its new games); records come back sorted by game index.

    With an `observer` (a claim probe), records are its per-game dicts."""
    if backend not in BACKENDS:
        raise CardlabError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if workers < 1:
        raise CardlabError(f"--workers must be at least 1, not {workers}")
    start = time.perf_counter()
    jobs = batches(spec.games, workers, first)
    tasks: list[tuple[Any, ...]] = [
        (spec, job) if observer is None else (spec, job, observer) for job in jobs
    ]
    fn = play_batch if observer is None else probe_batch
    if backend == "ray":
        runner = _run_ray(fn, tasks, workers, ray_address)
    else:
        runner = _run_local(fn, tasks, workers)
    records: list[Any] = []
    todo = spec.games - first
    with _progress(progress, label or f"{spec.game} {spec.players}p", todo) as advance:
        for done in runner:
            records.extend(done)
            advance(len(done))
    records.sort(key=lambda r: r["index"] if isinstance(r, dict) else r.index)
    return RunResult(spec, records, time.perf_counter() - start, workers, backend)


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def _run_local(fn: Callable[..., Any], tasks: list[tuple[Any, ...]], workers: int) -> Iterator[Any]:
    if workers == 1:
        for task in tasks:
            yield fn(*task)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(fn, *task) for task in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()


def _run_ray(
    fn: Callable[..., Any], tasks: list[tuple[Any, ...]], workers: int, address: str | None
) -> Iterator[Any]:
    try:
        import ray
    except ImportError:
        raise CardlabError("--backend ray needs Ray: pip install 'cardlab[ray]'") from None
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(fn)
    return _gather_ray(ray, [remote.remote(*task) for task in tasks])


def _gather_ray(ray, pending) -> Iterator[list[GameRecord]]:  # type: ignore[no-untyped-def]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


class _progress:
    """A rich progress bar on stderr (a no-op when `enabled` is false)."""

    def __init__(self, enabled: bool, label: str, total: int) -> None:
        self.enabled, self.label, self.total = enabled, label, total
        self._bar: Progress | None = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.enabled:
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self._bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._bar.start()
        task = self._bar.add_task(self.label, total=self.total)
        bar = self._bar
        return lambda n: bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
