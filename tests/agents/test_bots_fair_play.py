"""Every bot in every game: only legal actions, no peeking, same seeds same game.

States come from random play (Hypothesis picks the deal, the walk and the
seeds). ISMCTS runs with few iterations here: its strength is measured by the
ladder, not by these tests."""

from __future__ import annotations

import json
import random

import pytest
from agents_toy import INFO
from gamelist import game_setups, make_game
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cardlab.agents import agent_view, kinds_for_game, make_agent, play_game
from cardlab.core import GameState

SETUPS = game_setups()
FAST_PARAMS = {"ismcts": {"iterations": 25}}


def kinds(game_name: str) -> list[str]:
    return kinds_for_game(INFO.name if game_name == "toy" else game_name)


def bot(kind: str, seed: int):  # noqa: ANN201
    return make_agent(kind, seed=seed, **FAST_PARAMS.get(kind, {}))


def walk(game_name: str, players: int, deal: int, steps: int, walk_seed: int) -> GameState:
    """The state after up to `steps` random decisions (stops before the end)."""
    state = make_game(game_name, players).new_initial_state(deal)
    rng = random.Random(walk_seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal))
        if state.is_terminal():
            return make_game(game_name, players).new_initial_state(deal)
    return state


position = st.tuples(
    st.integers(0, 10_000), st.integers(0, 120), st.integers(0, 10_000), st.integers(0, 10_000)
)
fast = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure reports at once
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("game_name, players", SETUPS)
@fast
@given(position)
def test_bots_choose_only_legal_actions(game_name, players, pos):
    deal, steps, walk_seed, agent_seed = pos
    state = walk(game_name, players, deal, steps, walk_seed)
    seat = state.current_player()
    legal = state.legal_actions()
    view = agent_view(state, seat, random.Random(agent_seed))
    for kind in kinds(game_name):
        action = bot(kind, agent_seed).step(view.clone())
        assert action in legal, f"{kind} chose illegal {action} ({state.decision_kind()})"


@pytest.mark.parametrize("game_name, players", SETUPS)
@fast
@given(position, st.integers(0, 2**40), st.integers(0, 2**40))
def test_bots_cannot_peek(game_name, players, pos, deal_a, deal_b):
    """Two states that differ only in what the seat cannot see get the same choice."""
    deal, steps, walk_seed, agent_seed = pos
    state = walk(game_name, players, deal, steps, walk_seed)
    seat = state.current_player()
    world_a = state.resample_from_infostate(seat, deal_a)
    world_b = state.resample_from_infostate(seat, deal_b)
    seen = [json.dumps(w.observation(seat), sort_keys=True) for w in (world_a, world_b)]
    assert seen[0] == seen[1]
    peeked = [
        kind
        for kind in kinds(game_name)
        if bot(kind, agent_seed).step(world_a) != bot(kind, agent_seed).step(world_b)
    ]
    assert not peeked, f"{peeked} decided on what seat {seat} cannot see"


@pytest.mark.parametrize("game_name, players", SETUPS)
def test_same_seeds_same_game_with_any_bots(game_name, players):
    game = make_game(game_name, players)
    pool = kinds(game_name)
    lineup = [pool[(i * 2 + 1) % len(pool)] for i in range(players)]

    def one_game():  # noqa: ANN202
        agents = [bot(kind, 40 + seat) for seat, kind in enumerate(lineup)]
        return play_game(game, agents, seed=11)

    first, second = one_game(), one_game()
    assert first.history == second.history and first.history
    assert first.returns == second.returns and first.winners == second.winners


def test_agents_never_touch_the_true_state():
    """play_game's state only changes by the chosen actions: replaying them matches."""
    game = make_game("toy", 3)
    agents = [bot(k, 3) for k in ("ismcts", "greedy", "random")]
    result = play_game(game, agents, seed=5)
    replay = game.new_initial_state(5)
    for action in result.history:
        replay.apply_action(action)
    assert replay.returns() == result.returns and replay.winners() == result.winners


@pytest.mark.parametrize("game_name, players", SETUPS)
@fast
@given(position, st.integers(0, 2**40), st.integers(0, 2**40), st.integers(0, 2**40))
def test_resample_depends_only_on_what_the_seat_knows(game_name, players, pos, a, b, seed):
    """Engine contract the can't-peek property rests on: a resample is a function of
    the seat's infostate and the seed, not of where the hidden cards really are.
    (Fix in an engine: sort each pool of unseen cards before shuffling it.)"""
    deal, steps, walk_seed, _ = pos
    state = walk(game_name, players, deal, steps, walk_seed)
    for seat in range(players):
        world_a = state.resample_from_infostate(seat, a)
        world_b = state.resample_from_infostate(seat, b)
        again_a = world_a.resample_from_infostate(seat, seed)
        again_b = world_b.resample_from_infostate(seat, seed)
        assert again_a.zones() == again_b.zones(), (
            f"seat {seat}: resample_from_infostate(seat, seed) depends on the hidden cards' "
            "true places, so a bot's choice can too"
        )


def test_one_agent_object_per_seat():
    agent = bot("random", 1)
    with pytest.raises(ValueError, match="one agent object per seat"):
        play_game(make_game("toy", 2), [agent, agent], seed=1)
