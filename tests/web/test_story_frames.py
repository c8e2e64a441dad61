"""Frames carry the seat's story and, at the end, the final breakdown, both built
from that audience's own observation (cardlab.story over each game's view)."""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab import story
from cardlab.core.narrative import FinalRow, FinalTable
from cardlab.games import game_info, list_games
from cardlab.web.views import SPECTATOR, player_view, seal


def _seats(name: str) -> int:
    """Three seats, or the nearest count the game plays (HEARTS is four, WAR two)."""
    info = game_info(name)
    return min(max(3, info.min_players), info.max_players)


TABLE = {"seats": []}


def played(name: str, seed: int = 2):
    state = cardlab.load_game(name, players=_seats(name)).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", list_games())
def test_every_frame_carries_the_narrative_of_its_own_observation(name):
    state = cardlab.load_game(name, players=_seats(name)).new_initial_state(5)
    rng = random.Random(5)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in (0, 1, SPECTATOR):
        view = player_view(state, seat, TABLE)
        expected = [line.to_json() for line in story.narrate(name, view["obs"])]
        assert view["narrative"] == expected and expected
        assert all(line["index"] < len(view["obs"]["log"]) for line in expected)
        seal(state, seat, view)  # the leak guard passes it untouched


@pytest.mark.parametrize("name", list_games())
def test_the_final_frame_breakdown_adds_up_when_the_game_offers_one(name):
    state = played(name)
    view = player_view(state, 1, TABLE)
    breakdown = view["final"]["breakdown"]
    if story.final_table(name, view["obs"]) is None:
        assert breakdown is None
        pytest.skip(f"{name} has no view.final_table yet")
    for row in breakdown["rows"]:
        assert sum(row["parts"]) == pytest.approx(row["total"])
    assert sorted(breakdown["winners"]) == sorted(view["final"]["winners"])


def test_a_game_without_a_view_falls_back_to_the_plain_log(monkeypatch):
    monkeypatch.setattr(story, "_view_function", lambda game, fn: None)
    obs = {"log": ["a", {"text": "b"}]}
    assert [(line.index, line.text) for line in story.narrate("any", obs)] == [(0, "a"), (1, "b")]
    assert story.final_table("any", obs) is None


def test_a_failing_view_falls_back_too(monkeypatch):
    def broken(obs):
        raise KeyError("boom")

    monkeypatch.setattr(story, "_view_function", lambda game, fn: broken)
    assert [line.text for line in story.narrate("any", {"log": ["x"]})] == ["x"]
    assert story.final_table("any", {}) is None


def test_final_table_rows_must_add_up():
    with pytest.raises(ValueError):
        FinalTable(("a", "b"), (FinalRow(0, "Seat 0", (1.0, 2.0), 4.0),), (0,), "points")
