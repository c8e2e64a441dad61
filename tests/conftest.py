"""The `slow` marker, from measured times: tests/durations.json lists each test that took
a second or more in a full run (scripts/slow_tests.py writes it from `make test`'s
JUnit report), and every test that drives a real browser is slow. `make test-fast`
(`pytest -m "not slow"`) is the inner loop; `make test` runs everything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = json.loads(DURATIONS.read_text()) if DURATIONS.is_file() else {}
    for item in items:
        if item.nodeid in slow or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
