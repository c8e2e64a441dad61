"""Gymnasium's own env checker on every game and player count, and what it
does not check: bots really play the other seats, seeds reach the engine."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardlab.adapters.gymnasium import END_ACTION, CardlabEnv
from cardlab.agents import kinds_for_game, make_agent
from cardlab.games import load_game

from .conftest import CASES, IDS, TOY_INFO, make


def _env_id(name):
    env_id = f"cardlab/{name}-v0"
    if env_id not in gymnasium.registry:  # the toy, registered in-process like the others
        gymnasium.register(env_id, entry_point=CardlabEnv)
    return env_id


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_gymnasium_check_env(name, players):
    # through gymnasium.make, so the checker can also re-make it per render mode
    kwargs = {**make(name, players), "opponents": "random", "render_mode": "ansi", "max_steps": 30}
    env = gymnasium.make(_env_id(name), **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)


def _opponents(game_name, kind, n):
    """`n` opponents of one kind; ISMCTS given as objects with a small search."""
    if kind == "ismcts":
        return [make_agent("ismcts", seed=i, iterations=8) for i in range(n)]
    return kind


KIND_CASES = [
    (name, kind)
    for name in sorted({g for g, _ in CASES})
    for kind in kinds_for_game(TOY_INFO.name if name == "toy" else name)
]


@pytest.mark.parametrize(("name", "kind"), KIND_CASES, ids=[f"{g}-{k}" for g, k in KIND_CASES])
def test_env_checker_is_on_and_passes_with_every_opponent_kind(name, kind):
    # gymnasium.make wraps the env in its PassiveEnvChecker (the registration no
    # longer disables it), and check_env passes whoever plays the other seats
    players = 3
    kwargs = {**make(name, players), "render_mode": "ansi", "max_steps": 20}
    kwargs["opponents"] = _opponents(name, kind, players - 1)
    env = gymnasium.make(_env_id(name), **kwargs)
    assert not env.spec.disable_env_checker
    wrappers, inner = [], env
    while hasattr(inner, "env"):
        wrappers.append(type(inner).__name__)
        inner = inner.env
    assert "PassiveEnvChecker" in wrappers
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=1)
        check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_episode_against_bots_sums_rewards_to_points(name, players):
    seat = players - 1
    env = CardlabEnv(**make(name, players), seat=seat, opponents="greedy")
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    total, done, mine = 0.0, False, []
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == env.state.legal_actions()
        assert env.state.current_player() == seat
        mine.append(int(rng.choice(legal)))
        obs, reward, done, truncated, info = env.step(mine[-1])
        total += reward
        assert not truncated
    assert total == pytest.approx(info["returns"][seat])
    assert info["winners"] == env.state.winners()
    assert len(env.state.history()) > len(mine), "the bots played their seats"
    # same seed, same actions: the same game, bots included
    again = CardlabEnv(**make(name, players), seat=seat, opponents="greedy")
    again.reset(seed=11)
    for action in mine:
        again.step(action)
    assert again.state.history() == env.state.history()


def _play(env, seed, choose):
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, done, truncated, _ = env.step(choose(obs))
        assert not truncated
    return env.state.history()


@pytest.mark.parametrize(
    ("name", "players"),
    [c for c in CASES if c[1] == 3],
    ids=[f"{g}-3p" for g, n in CASES if n == 3],
)
def test_agent_objects_are_reseeded_on_reset(name, players):
    # opponents given as objects play as the same kinds given by name would, and
    # the same seed replays the same episode even though the objects have played since
    by_name = CardlabEnv(**make(name, players), opponents=["greedy", "greedy"])
    objects = [make_agent("greedy", seed=123), make_agent("ismcts", seed=9, iterations=15)]
    by_object = CardlabEnv(**make(name, players), opponents=objects)
    by_kind = CardlabEnv(
        **make(name, players),
        opponents=[make_agent("greedy", seed=1), make_agent("greedy", seed=2)],
    )
    first = lambda obs: int(np.flatnonzero(obs["action_mask"])[0])  # noqa: E731
    assert _play(by_kind, 4, first) == _play(by_name, 4, first)
    once = _play(by_object, 4, first)
    _play(by_object, 5, first)
    assert _play(by_object, 4, first) == once


def test_reseed_makes_an_agent_play_as_one_made_afresh():
    state = load_game("runway", players=3).new_initial_state(2)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    old = make_agent("ismcts", seed=1, iterations=40, rollout="greedy")
    old.step(state.clone())  # it has used its generators since
    old.reseed(77)
    fresh = make_agent("ismcts", seed=77, iterations=40, rollout="greedy")
    assert old.step(state.clone()) == fresh.step(state.clone())
    assert old.last_search.visits == fresh.last_search.visits


def test_the_same_agent_object_twice_is_refused():
    bot = make_agent("random")
    with pytest.raises(ValueError, match="one agent object per seat"):
        CardlabEnv("runway", players=3, opponents=[bot, bot])


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_terminal_mask_offers_one_ignored_action(name, players):
    env = CardlabEnv(**make(name, players), opponents="random")
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        assert obs["action_mask"].any()
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert np.flatnonzero(obs["action_mask"]).tolist() == [END_ACTION]
    assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
    history = env.state.history()
    obs2, reward, terminated, truncated, info = env.step(END_ACTION)
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert env.state.history() == history and "illegal_action" not in info
    assert np.array_equal(obs2["observation"], obs["observation"])


@pytest.mark.parametrize("name", sorted({g for g, _ in CASES if g != "toy"}))
def test_make_vec_autoreset_never_gives_an_all_zero_mask(name):
    # Gymnasium's vector env steps a finished sub-env once more (with whatever
    # action the policy chose from the terminal mask) before resetting it
    envs = gymnasium.make_vec(
        f"cardlab/{name}-v0", num_envs=2, vectorization_mode="sync", players=4, opponents="random"
    )
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(200):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all(), "a sub-env offered no action"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, terminated, _, infos = envs.step(actions)
        ends += int(terminated.sum())
        assert not infos.get("illegal_action", np.zeros(2, bool)).any()
    envs.close()
    assert ends > 0, "no episode ended: the terminal mask was not exercised"


def test_action_masks_is_what_maskable_ppo_reads():
    env = gymnasium.make("cardlab/runway-v0", players=2, opponents="random")
    obs, _ = env.reset(seed=3)
    masks = env.unwrapped.action_masks()
    assert masks.dtype == bool and masks.shape == (env.action_space.n,)
    assert np.flatnonzero(masks).tolist() == env.unwrapped.state.legal_actions()
    # sb3-contrib finds it through the wrappers, as get_wrapper_attr does
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), masks)
    sb3 = pytest.importorskip("sb3_contrib.common.maskable.utils")
    assert sb3.is_masking_supported(env)


def test_make_vec_plays_many_tables_at_once():
    # gymnasium.make_vec(vectorization_mode="sync"): one batched observation for
    # many tables, each its own deal (reset(seed=s) seeds table i with s + i), each
    # with the env checker on
    tables = 8
    envs = gymnasium.make_vec(
        "cardlab/runway-v0", num_envs=tables, vectorization_mode="sync", players=3
    )
    obs, _ = envs.reset(seed=10)
    size = envs.single_observation_space["observation"].shape[0]
    assert obs["observation"].shape == (tables, size)
    assert obs["action_mask"].shape == (tables, envs.single_action_space.n)
    deals = [e.unwrapped.state.observation(0)["hand"] for e in envs.envs]
    assert len({str(d) for d in deals}) == tables, "every table its own deal"
    expected = CardlabEnv("runway", players=3)
    first, _ = expected.reset(seed=13)
    assert np.array_equal(obs["observation"][3], first["observation"])  # table 3: seed 13
    rng = np.random.default_rng(1)
    for _ in range(60):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, infos = envs.step(acts)
        assert rewards.shape == (tables,) and obs["observation"].dtype == np.float32
    envs.close()
