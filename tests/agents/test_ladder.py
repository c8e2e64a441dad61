"""The ladder: seat rotation, mirrored seeds, Wilson intervals, Bradley-Terry."""

import pytest
from agents_toy import toy
from gamelist import real_games
from typer.testing import CliRunner

from cardlab.agents import parse_agent_list
from cardlab.cli import app
from cardlab.games import list_games
from cardlab.ladder import (
    bradley_terry,
    distinct_agents,
    rotations,
    run_ladder,
    seat_pool,
    wilson_interval,
)


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bradley_terry_orders_and_centres():
    # a beats b 30-10, b beats c 30-10, a beats c 35-5
    ratings = bradley_terry([[0, 30, 35], [10, 0, 30], [5, 10, 0]])
    assert ratings[0] > ratings[1] > ratings[2]
    assert sum(ratings) == pytest.approx(0, abs=1e-6)
    # 3:1 odds between equals-but-for-one-pair is about 190 Elo on the log scale
    pair = bradley_terry([[0, 30], [10, 0]])
    assert pair[0] - pair[1] == pytest.approx(400 * 0.477, rel=0.05)


def test_every_pool_entry_takes_every_seat_once_per_rotation_cycle():
    for agents, players in [(1, 4), (2, 4), (3, 4), (4, 4), (5, 3)]:
        pool = seat_pool(agents, players)
        assert len(pool) == max(agents, players)
        plan = rotations(pool, players)
        for seat in range(players):
            assert sorted(r[seat] for r in plan) == list(range(len(pool)))


def test_repeated_agents_share_one_row():
    specs = parse_agent_list("ismcts:iterations=5,random,random,random")
    distinct, rows = distinct_agents(specs)
    assert [s.label for s in distinct] == ["ismcts:iterations=5", "random"]
    assert rows == [0, 1, 1, 1]


def test_toy_ladder_is_balanced_mirrored_and_reproducible():
    game = toy(4)
    table = run_ladder(game, ["greedy", "random", "random", "random"], games=10, seed=3)
    assert table.games == 12  # rounded up to whole rotations of 4
    rows = {r.agent: r for r in table.rows}
    assert rows["greedy"].seats == 12 and rows["random"].seats == 36
    # every game has a winner and each winner's seat is counted once (a shared win,
    # R4 of the template, counts for each seat that shares it)
    assert all(game_result["winners"] for game_result in table.results)
    assert sum(r.wins for r in table.rows) == sum(len(g["winners"]) for g in table.results) >= 12
    deals = {}
    for game_result in table.results:
        deals.setdefault(game_result["deal"], set()).add(game_result["deal_seed"])
        assert game_result["seat_agents"].count(0) == 1
    assert all(len(seeds) == 1 for seeds in deals.values())  # mirrored: one deal per rotation set
    seats_of_greedy = sorted(r["seat_agents"].index(0) for r in table.results)
    assert seats_of_greedy == sorted(list(range(4)) * 3)
    again = run_ladder(game, ["greedy", "random", "random", "random"], games=10, seed=3)
    assert again.results == table.results
    assert "| greedy |" in table.text() and "95% interval" in table.text()


def test_ladder_rejects_bad_agents_before_playing():
    with pytest.raises(ValueError, match="unknown agent kind 'nobody'"):
        run_ladder(toy(2), ["random", "nobody"], games=2)


GAMES = real_games()


@pytest.mark.skipif(not GAMES, reason="no engine has landed")
def test_cli_ladder_prints_the_table():
    result = CliRunner().invoke(
        app, ["ladder", GAMES[0], "--players", "2", "--agents", "greedy,random", "--games", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "| greedy |" in result.output and "| random |" in result.output


@pytest.mark.skipif(not GAMES, reason="no engine has landed")
def test_cli_bench_agent_prints_iterations_per_second():
    args = ["bench", GAMES[0], "--agent", "ismcts:iterations=20", "--positions", "2", "--runs", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "iterations/s" in result.output and "ms/decision" in result.output


def test_cli_names_bad_agents():
    game = (GAMES or list_games())[0]
    result = CliRunner().invoke(app, ["ladder", game, "--agents", "ismcts:iter=3"])
    assert result.exit_code == 2
    assert "its parameters: iterations" in " ".join(result.output.split())
