"""The tuning toy, registered in-process (`cardlab.games.register_game`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture
def tunetoy() -> Iterator[str]:
    from tunetoy import GAME_INFO

    import cardlab.games as games

    games.register_game(GAME_INFO)
    yield "tunetoy"
    games.unregister_game("tunetoy")


@pytest.fixture
def tunenoise() -> Iterator[str]:
    from tunetoy import NOISE_INFO

    import cardlab.games as games

    games.register_game(NOISE_INFO)
    yield "tunenoise"
    games.unregister_game("tunenoise")


@pytest.fixture
def tunecalm() -> Iterator[str]:
    from tunetoy import CALM_INFO

    import cardlab.games as games

    games.register_game(CALM_INFO)
    yield "tunecalm"
    games.unregister_game("tunecalm")
