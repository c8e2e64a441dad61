"""A bot is handed exactly what its seat observed (check `bot_view`).

`agent_view` (what `play_game`, the terminal, the lab and the table's bot workers
hand a bot) is the seat's redeal. Branching another seat's choices that the seat
cannot tell apart must leave that whole input unchanged: the pickled bytes a bot
worker receives (`agents.parallel.pack`), the history included. SUPER COMPUTER's
secret picks and build keeps are the case where a kept true history named the
choice; the template game's face-down lays are the same shape, and its resampler
(what a plugin starts from) passes the check too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardlab.agents import agent_view
from cardlab.agents.parallel import pack
from cardlab.core import GameState
from cardlab.core.registry import load_game
from cardlab.newgame import template_game
from cardlab.testing import ConformanceError, check_game
from cardlab.testing.botview import check_bot_view, same_input

INFO = template_game("peeker")
PeekerGame = INFO.game_class()
STATE = type(PeekerGame(2).new_initial_state(0))


def _branches(state: GameState) -> list[GameState]:
    """The state after each of the mover's legal actions."""
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        out.append(child)
    return out


@pytest.mark.parametrize("players", [3, 5])
def test_supercomputer_secret_choices_hand_a_bot_identical_bytes(players: int) -> None:
    game = load_game("supercomputer", players)
    state = game.new_initial_state(players)
    rng = random.Random(players)
    compared = 0
    # the first round's build keeps and two turns of picks: every choice of the mover
    while state.round_index == 0 and state.turn < 2:
        mover = state.current_player()
        if state.decision_kind() in ("choose_build", "pick"):
            children = _branches(state)
            for seat in range(players):
                if seat == mover:
                    continue
                if any(c.observation(seat) != children[0].observation(seat) for c in children):
                    continue  # the turn's last pick reveals every pick
                inputs = {pack(agent_view(c, seat, random.Random(7))) for c in children}
                assert len(inputs) == 1, f"seat {seat}'s bot input names seat {mover}'s choice"
                compared += len(children) - 1
                # the history is the seat's own: the redeal's secret choices, not the truth
                view = agent_view(children[0], seat, random.Random(7))
                assert len(view.history()) == len(children[0].history())
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared >= 20 * (players - 1)


def test_a_supercomputer_view_names_the_redealt_pick_not_the_true_one() -> None:
    game = load_game("supercomputer", 4)
    state = game.new_initial_state(3)
    while state.decision_kind() != "pick" or state.current_player() != 2:
        state.apply_action(state.legal_actions()[0])
    truth = state.history()
    views = [state.resample_from_infostate(3, seed) for seed in range(20)]
    for view in views:
        history = view.history()
        # the round began with the four build keeps, secret but seat 3's own
        first_build = game.actions.first_build
        assert history[:3] == [first_build + view.kept_builds[q][0] for q in range(3)]
        assert history[3] == truth[3]
        # seats 0 and 1 then picked in secret: the view's last two actions are its picks
        assert history[4:] == [view.pending_picks[0], view.pending_picks[1]]
        assert view.clone().history() == history
    # the true choices are not what every view says
    assert any(v.history()[4:] != truth[4:] for v in views)
    assert any(v.history()[:3] != truth[:3] for v in views)


def test_a_view_keeping_the_true_history_fails_bot_view(monkeypatch: pytest.MonkeyPatch) -> None:
    original = STATE.resample_from_infostate

    def true_history(self: Any, player: int, seed: int) -> Any:
        copy = original(self, player, seed)
        copy.actions = self.actions  # the bug: the face-down lays as played
        return copy

    monkeypatch.setattr(STATE, "resample_from_infostate", true_history)
    with pytest.raises(ConformanceError) as caught:
        check_game(PeekerGame(3), games=1, explore_seconds=0)
    err = caught.value
    assert err.check == "bot_view" and "cannot tell seat" in str(err)
    assert "state.actions[" in str(err) and err.replay is not None


def test_a_view_keeping_the_true_generator_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator is part of what a bot is handed: one drawn from the true state's
    (which a branch advanced differently) tells the worlds apart."""
    original = STATE.resample_from_infostate

    def true_rng(self: Any, player: int, seed: int) -> Any:
        copy = original(self, player, seed)
        copy.rng = random.Random(sum(self.actions))  # the bug: depends on the true history
        return copy

    monkeypatch.setattr(STATE, "resample_from_infostate", true_rng)
    with pytest.raises(ConformanceError, match=r"state\.rng") as caught:
        check_game(PeekerGame(3), games=1, explore_seconds=0)
    assert caught.value.check == "bot_view"


def test_the_template_passes_and_counts_its_branches() -> None:
    report = check_game(PeekerGame(4), games=2, explore_seconds=0)
    assert "bot_view" in report.checked
    assert report.redeals.bot_views >= 10 and report.redeals.bot_worlds >= 10


def test_check_bot_view_compares_only_branches_the_seat_cannot_tell_apart() -> None:
    state = PeekerGame(3).new_initial_state(1)
    # seat 0 lays face down: seats 1 and 2 cannot tell its cards apart
    assert check_bot_view(state, random.Random(0), pairs=3) == 3 * 2


class _Slots:
    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b


def test_same_input_names_the_first_differing_field() -> None:
    shared = [1, 2, 3]
    assert same_input(_Slots(shared, {"x": (1, 2)}), _Slots(shared, {"x": (1, 2)})) is None
    assert same_input(_Slots([1], {"x": (1, 2)}), _Slots([1], {"x": (1, 3)})) == (
        "state.b['x'][1]: 2 vs 3"
    )
    assert "1 items vs 2" in str(same_input(_Slots([1], 0), _Slots([1, 2], 0)))
    assert "int vs float" in str(same_input(_Slots(1, 0), _Slots(1.0, 0)))
    assert same_input({1, 2}, {2, 1}) is None  # sets by content
    assert "keys" in str(same_input({"a": 1, "b": 2}, {"b": 2, "a": 1}))  # dicts in order
    assert "state.__state__" in str(same_input(random.Random(1), random.Random(2)))
