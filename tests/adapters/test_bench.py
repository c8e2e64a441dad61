"""`cardlab bench --adapter`: the adapters' random play measured beside the engine's.
Speed is not asserted here (DEVELOPERS.md: performance is measured by the bench,
never by timed tests); what is checked is that each loop plays whole games through
its adapter and the figures are what they say (ratio = adapter / engine)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardlab.adapters.bench import ADAPTERS, FLOORS, LOOPS, _engine_loop, _floor_loop, bench_adapter
from cardlab.cli import app
from cardlab.games import load_game

pytest.importorskip("pyspiel")


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("observe", [False, True])
def test_each_loop_plays_whole_games_through_its_adapter(adapter, observe):
    import random

    game = load_game("runway", players=3)
    loop = LOOPS[adapter](game, observe)
    decisions = loop(random.Random(0), 5)
    # the engine played from the same seed takes a game's worth of decisions
    assert 20 < decisions <= game.max_game_length()


@pytest.mark.parametrize("name", ["runway", "supercomputer"])
@pytest.mark.parametrize("every_agent", [False, True])
def test_the_floor_loop_plays_the_engine_game_it_bounds(name, every_agent):
    """The ceiling is the engine's own game with the caller's masks and sampling added:
    the same decisions, from the same seed and generator, as the engine loop."""
    import random

    game = load_game(name, players=3)
    floor = _floor_loop(game, every_agent)(random.Random(4), 9)
    assert floor == _engine_loop(game)(random.Random(4), 9)


def test_bench_adapter_reports_the_ratio_to_the_engine():
    result = bench_adapter(load_game("runway", players=2), "pettingzoo", seconds=0.05, runs=1)
    assert result.engine_decisions_per_s > 0 and result.adapter_decisions_per_s > 0
    assert result.ratio == pytest.approx(
        result.adapter_decisions_per_s / result.engine_decisions_per_s
    )
    assert result.tensors_per_s > 0 and "x the engine's" in result.text()
    assert set(FLOORS) == {"pettingzoo", "parallel"}
    assert result.floor_decisions_per_s is not None and result.floor_ratio is not None
    assert result.floor_ratio == pytest.approx(
        result.floor_decisions_per_s / result.engine_decisions_per_s
    )
    assert "(the ceiling)" in result.text()


def test_cli_bench_adapter_json_and_a_bad_adapter():
    runner = CliRunner()
    out = runner.invoke(
        app,
        ["bench", "runway", "--players", "2", "--adapter", "openspiel", "--seconds", "0.05"]
        + ["--runs", "1", "--json"],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["adapter"] == "openspiel" and data["ratio"] > 0
    bad = runner.invoke(app, ["bench", "runway", "--adapter", "gym"])
    assert bad.exit_code == 2 and "pettingzoo, parallel, openspiel" in bad.output
