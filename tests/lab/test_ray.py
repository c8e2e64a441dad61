"""The Ray backend gives exactly the local backend's records (one local Ray
instance, num_cpus=2, started once for this module and shut down after)."""

from __future__ import annotations

import pytest

from cardlab.lab.backends import run_spec
from cardlab.lab.simulate import make_spec

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def ray_local():  # type: ignore[no-untyped-def]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_equals_local(ray_local) -> None:  # type: ignore[no-untyped-def]
    spec = make_spec("runway", 3, "random,greedy", 11, 16)
    local = run_spec(spec, workers=1, progress=False).records
    on_ray = run_spec(spec, workers=2, backend="ray", progress=False).records
    assert on_ray == local
