"""`cardlab ladder --rungs`: each rung against the one below at the gate's corrected level."""

from __future__ import annotations

from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.ladder import LadderRow, LadderTable
from cardlab.ladder_rungs import LOOKS, rung_z, rungs, rungs_text


def _table(rows: list[tuple[str, int, int]]) -> LadderTable:
    return LadderTable(
        "toy", 4, 0, 100, [LadderRow(a, n, w, w / n, 0.0, 0.0, 0.0) for a, w, n in rows]
    )


def test_the_level_is_the_gates():
    from cardlab.lab import skill

    assert skill.MAX_LOOKS == LOOKS
    for cells in (1, 2, 3):
        assert rung_z(cells) == skill.look_z(cells)


def test_a_rung_is_apart_only_when_the_intervals_do_not_overlap():
    table = _table([("random", 5, 200), ("greedy", 60, 200), ("ismcts", 70, 200)])
    z, found = rungs(table, ["random", "greedy", "ismcts"])
    assert z > 2.5  # corrected: wider than the 95% intervals
    assert [r.apart for r in found] == [True, False]
    text = rungs_text(table, ["random", "greedy", "ismcts"])
    assert "ismcts 35.0%" in text and "NOT apart" in text and "Monotone: no" in text
    assert "Monotone: yes" in rungs_text(table, ["random", "greedy"])


def test_cli_ladder_prints_the_rungs():
    args = ["ladder", "runway", "--players", "2", "--agents", "random,greedy", "--games", "8"]
    result = CliRunner().invoke(app, [*args, "--rungs"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "over random" in result.output
    assert "Monotone:" in result.output
