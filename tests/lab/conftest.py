"""Lab test fixtures: the toy game (the `cardlab new-game` template, lab_toy.py)
registered in-process under its name.

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
    from lab_toy import INFO

    import cardlab.games as games

    monkeypatch.setitem(games._REGISTERED, INFO.name, INFO)
    return INFO.name
