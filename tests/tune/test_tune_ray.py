"""The tuner on Ray plays the same trials as locally, for a fixed seed and batch
size (one local Ray instance, num_cpus=2)."""

from __future__ import annotations

import pytest

from cardlab.lab.tune import TuneSpec, run_tune

ray = pytest.importorskip("ray")


def test_ray_trials_equal_local_trials() -> None:
    spec = TuneSpec("runway", 3, trials=6, games=3, seed=2, workers=2, batch=2)
    local = run_tune(spec)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_tune(TuneSpec(**{**spec.__dict__, "backend": "ray"}))
    finally:
        ray.shutdown()
    assert [(t.values, t.metrics) for t in on_ray.trials] == [
        (t.values, t.metrics) for t in local.trials
    ]
