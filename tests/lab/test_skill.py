"""Skill cells: the sentence follows from the intervals, and a cell below the gate's
standard (200 games, ISMCTS at 1,000 iterations) says it cannot conclude."""

from __future__ import annotations

from cardlab.lab.context import LabContext
from cardlab.lab.skill import MIN_CELL_GAMES, MIN_ITERATIONS, reading, sentence, skill


def _row(rate: float, lo: float, hi: float) -> dict:  # type: ignore[type-arg]
    return {"win_rate": rate, "wilson95": [lo, hi]}


def test_reading_follows_the_intervals() -> None:
    assert reading(_row(0.2, 0.15, 0.25), _row(0.4, 0.35, 0.45)) == "stronger_clearly_ahead"
    assert reading(_row(0.4, 0.35, 0.45), _row(0.2, 0.15, 0.25)) == "weaker_clearly_ahead"
    assert reading(_row(0.3, 0.2, 0.4), _row(0.35, 0.25, 0.45)) == "cannot_tell_apart"
    text = sentence("greedy", "ismcts", "weaker_clearly_ahead", 200, True)
    assert text.startswith("greedy wins more often than ismcts")
    assert "cannot conclude" in sentence("greedy", "ismcts", "stronger_clearly_ahead", 10, False)


def test_a_small_ladder_says_it_cannot_conclude(toy: str) -> None:
    ctx = LabContext(toy, 2, ("random",), {}, 10, workers=1, progress=False)
    out = skill(ctx, games=4, iterations=20)
    assert out["concludes"] is False
    assert out["standard"] == {"games_per_cell": MIN_CELL_GAMES, "iterations": MIN_ITERATIONS}
    assert [(c["weaker"], c["stronger"]) for c in out["cells"]] == [
        ("random", "greedy"),
        ("greedy", "ismcts:iterations=20"),
    ]
    for c in out["cells"]:
        assert c["reading"] == "cannot_conclude" and "cannot conclude" in c["sentence"]
        assert sum(r["seats"] for r in c["rows"]) == 2 * c["games"]
