"""A game the fewest points win, end to end: the `cardlab new-game --lowest-wins`
template (the highest card laid takes its value as penalty points) declares
`score_direction="lowest"`, and everything a person reads and every reward reads it:
the bots avoid points, the lab's per-agent figures, margins, leaders and headline,
the ladder, the final table in the terminal and the browser, the lobby."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardlab.cli import app
from cardlab.core.errors import CardlabError
from cardlab.core.plugin import GameInfo, better_points, lowest_wins
from cardlab.games import register_game, unregister_game
from cardlab.newgame import scaffold, template_game

LOW = template_game("lowtoy", title="Low Toy", score_direction="lowest")
HIGH = template_game("hightoy", title="High Toy")


@pytest.fixture
def games() -> Iterator[tuple[GameInfo, GameInfo]]:
    register_game(LOW)
    register_game(HIGH)
    yield LOW, HIGH
    unregister_game(LOW.name)
    unregister_game(HIGH.name)


def test_the_scaffold_declares_the_direction_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    assert LOW.score_direction == "lowest" and LOW.lowest_wins and LOW.better(7) == -7
    assert HIGH.score_direction == "highest" and HIGH.better(7) == 7
    assert "fewest points win" in LOW.pitch and "fewest" not in HIGH.pitch
    rules = LOW.asset("rulebook")
    assert rules is not None and "the fewest points wins" in rules.read_text("utf-8")
    with pytest.raises(CardlabError, match=r"game 'odd': --score-direction .* not 'down'"):
        scaffold("odd", tmp_path / "odd", score_direction="down")
    assert not (tmp_path / "odd").exists()  # nothing written
    bad = CliRunner().invoke(
        app, ["new-game", "odd", "--out", str(tmp_path / "o2"), "--score-direction", "up"]
    )
    assert bad.exit_code == 2 and "score_direction" in bad.output and "'up'" in bad.output
    made = CliRunner().invoke(
        app, ["new-game", "flat", "--out", str(tmp_path / "f"), "--lowest-wins"]
    )
    assert made.exit_code == 0, made.output
    assert 'SCORE_DIRECTION = "lowest"' in (tmp_path / "f/src/flat/scoring.py").read_text()
    with pytest.raises(ValueError, match=r"game 'x': GameInfo.score_direction must be"):
        dataclasses.replace(HIGH, score_direction="up", name="x")


def _records(n: int = 100) -> list:
    from cardlab.lab.simulate import make_spec, play_one

    spec = make_spec(LOW.name, 3, "greedy,random", 3, n)
    return [play_one(spec, i) for i in range(n)]


def test_the_winner_has_the_fewest_points_and_bots_avoid_points(games) -> None:
    records = _records()
    for r in records:
        assert r.error is None and r.winners
        assert all(r.scores[w] == min(r.scores) for w in r.winners)
    taken = {"greedy": [], "random": []}
    for r in records:
        for seat, who in enumerate(r.agents):
            taken[who].append(r.scores[seat])
    # greedy raises progress_values, which a penalty-point game negates: fewer points
    mean = {who: sum(v) / len(v) for who, v in taken.items()}
    assert mean["greedy"] < mean["random"] - 2


def test_the_lab_reads_the_direction(games) -> None:
    from cardlab.lab import strategy
    from cardlab.lab.findings import play_findings

    records = _records()
    assert lowest_wins(LOW.name) and better_points(LOW.name, [3.0, 1.0]) == [-3.0, -1.0]
    # the points are shown as printed: positive penalty points, never negated
    assert all(s >= 0 for r in records for s in r.scores)
    summary = strategy.agent_summary(records)
    assert summary["score_direction"] == "lowest"
    means = summary["mean_score_by_agent"]
    assert means["greedy"]["mean"] < means["random"]["mean"]
    assert summary["wins_by_agent"]["greedy"]["rate"] > summary["wins_by_agent"]["random"]["rate"]
    # a margin is how many fewer points the winner took, so never negative
    for r in records:
        assert strategy.margin(r, -1.0) >= 0
        if len(r.winners) == 1:
            others = [s for i, s in enumerate(r.scores) if i != r.winners[0]]
            assert strategy.margin(r, -1.0) == min(others) - r.scores[r.winners[0]]
    assert strategy.margins(records)["min"] >= 0
    # the leader after a round is the seat with the fewest points
    lead = strategy.runaway(records)
    assert lead and all(row["rate"] is None or row["rate"] >= 0.5 for row in lead[:1])
    personas = strategy.personas(records)
    assert personas["dominant"] is None and personas["score_direction"] == "lowest"
    gap = personas["skill_gap"]
    assert gap["stronger"] == "greedy" and gap["weaker"] == "random" and gap["gap"] > 0
    report = {
        "title": LOW.title,
        "settings": {"players": 3},
        "main": {
            "ends": {"games": 100, "reasons": {}, "seeds": {}},
            "length": {"rounds": {}},
            "outcome": {},
            "decisions": {"noop_turn_share": 0.0},
        },
        "strategy": {"personas": personas},
    }
    titles = [f["title"] for f in play_findings(report)]
    assert "Skill gap" in titles and "A dominant strategy" not in titles


def test_the_final_table_and_the_ladder_say_fewest_points_win(games) -> None:
    from rich.console import Console

    from cardlab import story
    from cardlab.ladder import run_ladder
    from cardlab.terminal import print_final

    state = _played(LOW, 3, seed=5)
    table = story.final_table(LOW.name, state.public_observation())
    assert table is not None and story.FEWEST_WIN in table.notes
    ranked = story.ranked_rows(table)
    assert ranked[0].seat in table.winners
    rest = [r.total for r in ranked if r.seat not in table.winners]
    assert rest == sorted(rest)  # fewest first after the winners
    high = story.final_table(
        HIGH.name, HIGH.game_class()(2).new_initial_state(0).public_observation()
    )
    assert high is not None and story.FEWEST_WIN not in high.notes
    out = io.StringIO()
    print_final(Console(file=out, width=100), state, 0)
    assert "Fewest points win." in out.getvalue()
    ladder = run_ladder(LOW.name, ["greedy", "random"], players=3, games=60, seed=1)
    assert ladder.score_direction == "lowest" and "fewest points win" in ladder.text()
    rows = {r.agent: r for r in ladder.rows}
    assert rows["greedy"].mean_points < rows["random"].mean_points


def test_the_lobby_and_the_table_frames_carry_the_direction(games) -> None:
    from cardlab.web.catalog import Catalog
    from cardlab.web.views import final_table

    catalog = Catalog({LOW.name: LOW.game_class(), HIGH.name: HIGH.game_class()})
    assert catalog.describe(LOW.name)["score_direction"] == "lowest"
    assert catalog.describe(HIGH.name)["score_direction"] == "highest"
    assert LOW.describe()["score_direction"] == "lowest"
    assert final_table(_played(LOW, 2, seed=0))["score_direction"] == "lowest"
    assert final_table(_played(HIGH, 2, seed=0))["score_direction"] == "highest"


def _played(info: GameInfo, players: int, seed: int):
    """A finished game of random legal moves."""
    rng = random.Random(seed)
    state = info.game_class()(players).new_initial_state(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_default_bot_measure_turns_penalty_points(games, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a plugin that declares "lowest" and writes no progress_values: the core's default
    # negates its points, so greedy and ISMCTS avoid them (higher is better for bots)
    from lowtoy.scenarios import position

    state = position(LOW.game_class()(2), hands=[[0], [1]], points=[5, 0])
    monkeypatch.delattr(type(state), "progress_values")
    assert state.progress_values() == [-5.0, -0.0]
    assert state.heuristic_values()[1] > 0  # the seat with no penalty points leads
    from hightoy.scenarios import position as high_position

    high = high_position(HIGH.game_class()(2), hands=[[0], [1]], points=[5, 0])
    monkeypatch.delattr(type(high), "progress_values")
    assert high.progress_values() == [5.0, 0.0]
