"""Print-and-play PDFs made once per test session (printing takes about a second)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from printcheck import ARTIFACTS

from cardlab.printing import print_game


@pytest.fixture(scope="session")
def printed(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`printed(game, paper)` -> path of that game's PDF (made once, copied to artifacts)."""
    cache: dict[tuple[str, str], Path] = {}
    base = tmp_path_factory.mktemp("print")

    def make(game: str, paper: str = "a4") -> Path:
        if (game, paper) not in cache:
            pdf = print_game(game, paper=paper, out=base / f"{game}-{paper}.pdf")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(pdf, ARTIFACTS / pdf.name)
            cache[game, paper] = pdf
        return cache[game, paper]

    return make
