"""Strategy diagnostics: win rate and point sources per persona and
seat with the dominant one flagged, margins, runaway leader, comebacks, kingmaking by
replaying a move differently, SUPER COMPUTER's scrap by part."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.lab import strategy
from cardlab.lab.simulate import GameRecord, make_spec, play_one


def _rec(i: int, scores: list[float], winners: list[int], rounds: list[list[float]],
         agents: tuple[str, ...] = ("a", "b")) -> GameRecord:  # fmt: skip
    return GameRecord(
        game="t", players=len(scores), options="{}", agents=list(agents), index=i, seed=100 + i,
        scores=scores, winners=winners, round_scores=[*rounds, scores],
        point_sources=[{"x": s - 1, "y": 1.0} for s in scores],
    )  # fmt: skip


def test_point_sources_and_round_scores_are_recorded(toy: str) -> None:
    spec = make_spec(toy, 3, "greedy,random", 0, 3)
    for i in range(3):
        r = play_one(spec, i)
        assert r.error is None
        # the final table's parts add up to each seat's score
        assert [sum(p.values()) for p in r.point_sources] == r.scores
        assert r.round_scores[-1] == r.scores and len(r.round_scores) == r.rounds


def test_a_dominant_persona_is_flagged_only_above_every_other_interval() -> None:
    wins = [_rec(i, [5.0, 1.0], [0], []) for i in range(60)]
    out = strategy.personas(wins)
    assert out["dominant"] == "a" and "a dominates" in out["sentence"]
    assert out["rows"][0]["points_by_source"] == {"x": 4.0, "y": 1.0}
    even = [_rec(i, [1.0, 1.0], [i % 2], []) for i in range(60)]
    assert strategy.personas(even)["dominant"] is None


def test_margins_runaway_and_comebacks() -> None:
    games = [
        # seat 0 leads after round 1 and wins by 3
        _rec(0, [6.0, 3.0], [0], [[2.0, 1.0]]),
        # seat 1 is last after round 1 and wins: a comeback of 4 points
        _rec(1, [3.0, 5.0], [1], [[4.0, 0.0]]),
        # a tie after round 1: no sole leader
        _rec(2, [4.0, 4.0], [0], [[1.0, 1.0]]),
    ]
    m = strategy.margins(games)
    assert m["max"] == 3.0 and m["tied_share"] == round(1 / 3, 4)
    (row,) = strategy.runaway(games)
    assert (row["round"], row["n"], row["rate"]) == (1, 2, 0.5)
    # seat 1 was last after round 1 (2 behind) but seat 2 trailed by more after round 2
    # (4 behind): seat 1's win is not a comeback
    games.append(_rec(3, [1.0, 5.0, 2.0], [1], [[2.0, 0.0, 1.0], [5.0, 3.0, 1.0]], ("a", "b", "c")))
    cb = strategy.comebacks(games)
    assert (
        cb["comebacks"] == 1
        and cb["games"] == 4
        and cb["seeds"] == [101]
        and cb["deficit_overcome"]["max"] == 4
    )


def test_out_of_contention_rule() -> None:
    # seat 1 trails by 5 at decision 0; the most any seat gains afterwards is 3: out.
    trace = [(1, 2, [5.0, 0.0]), (0, 2, [5.0, 0.0]), (1, 1, [6.0, 0.0])]
    assert strategy.out_of_contention(trace, [8.0, 1.0]) == [0]
    # a seat that gains 6 afterwards could have caught up: no one is out
    assert strategy.out_of_contention(trace, [8.0, 6.0]) == []


def test_kingmaking_replays_the_recorded_games_exactly(toy: str) -> None:
    spec = make_spec(toy, 3, "greedy,random", 0, 8)
    records = [play_one(spec, i) for i in range(8)]
    km = strategy.kingmaking(spec, records, games=8)
    assert km["games_sampled"] == 8 and km["not_reproduced"] == 0
    assert km["moves_tried"] <= 2 * km["games_with_out_of_contention_move"]
    assert 0 <= km["moves_changing_winner"] <= km["moves_tried"]
    for ex in km["examples"]:
        assert ex["winner_was"] != ex["winner_now"]


def test_supercomputer_scrap_by_part_from_its_tallies_hook() -> None:
    spec = make_spec("supercomputer", 3, "random", 0, 1)
    r = play_one(spec, 0)
    picked = sum(v for k, v in r.tallies.items() if k.startswith("picked:"))
    assert picked == 21 * 3  # S3: seven picks a round, three rounds, every seat
    rows = strategy.scrap_by_part([r])
    assert sum(row["scrapped"] for row in rows) == sum(
        v for k, v in r.tallies.items() if k.startswith("scrapped:")
    )
    assert rows == sorted(rows, key=lambda row: (-row["scrap_share"], row["part"]))


def test_the_report_has_a_strategy_section(toy: str, tmp_path: Path) -> None:
    from cardlab.lab.html import render
    from cardlab.lab.reporting import start_report
    from cardlab.lab.summary import render as summary

    _, report, _ = start_report(
        toy, tmp_path, games=20, side_games=6, ladder_games=0, probe_games=4,
        ablation_games=0, workers=1, progress=False,
    )  # fmt: skip
    st = report["strategy"]
    assert st["games"] == 20 and {r["who"] for r in st["personas"]["rows"]} <= set(
        report["settings"]["agents"]
    )
    assert st["kingmaking"]["games_sampled"] == strategy.KINGMAKING_GAMES
    html = render(report)
    assert 'id="strategy"' in html and "Margin of victory" in html and "Kingmaking" in html
    widest = st["margins"]["widest_seeds"][0]
    assert f"--seed {widest}" in html  # the widest win's replay command (cardlab replay)
    assert "## Strategy" in summary(report)
    # a dominant persona is one of the page's findings, linked to the section
    from cardlab.lab.findings import play_findings

    wins = [_rec(i, [5.0, 1.0], [0], []) for i in range(60)]
    report["strategy"]["personas"] = strategy.personas(wins)
    (found,) = [f for f in play_findings(report) if f["title"] == "A dominant strategy"]
    assert found["anchor"] == "strategy" and "a dominates" in found["text"]


@pytest.mark.parametrize("game", ["uptime", "runway", "supercomputer"])
def test_round_count_hook_reads_what_info_says(game: str) -> None:
    # the tracker's cheap round count must agree with info()["rounds"] at every decision
    import random

    from cardlab.games import load_game
    from cardlab.lab.simulate import lab_hooks

    hook = lab_hooks(game).round_count
    state = load_game(game, players=3).new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        assert hook(state) == int(state.info().get("rounds", 0) or 0)
        state.apply_action(rng.choice(state.legal_actions()))
    assert hook(state) == int(state.info()["rounds"])


def test_kingmaking_games_option(toy: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardlab.cli import app
    from cardlab.lab.reporting import start_report

    result = CliRunner().invoke(app, ["report", toy, "--kingmaking-games", "-1", "--quiet"])
    assert result.exit_code != 0 and "--kingmaking-games must be 0 (skip) or more" in result.output
    _, report, _ = start_report(
        toy, tmp_path, games=6, side_games=2, ladder_games=0, probe_games=2,
        ablation_games=0, workers=1, progress=False, kingmaking_games=0,
    )  # fmt: skip
    assert report["strategy"]["kingmaking"] == {
        "skipped": "kingmaking replays turned off (--kingmaking-games 0)"
    }
