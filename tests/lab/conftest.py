"""Lab test fixtures: the toy game registered under the name `labtoy`.

Local worker processes are forked, so they inherit the registration."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> str:
    from labtoy import GAME_INFO

    import cardlab.games as games

    monkeypatch.setitem(games._REGISTERED, "labtoy", GAME_INFO)
    return "labtoy"
