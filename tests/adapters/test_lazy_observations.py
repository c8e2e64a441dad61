"""The parallel env's observations are encoded on first read (adapters.table.LazyObservation):
their values must be exactly those of the eager `observe`, whenever they are read: in
their step, after later steps (rebuilt from seed and history), after a reset, and through
every dict operation a user or a checker may use."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from gymnasium import spaces

from cardlab.adapters.pettingzoo import parallel_env
from cardlab.adapters.table import LazyObservation, observe

from .conftest import CASES, IDS, make


def _eager(p, seat):
    """What the env returned for `seat` before observations were lazy."""
    t = p.table
    return observe(t.state, seat, t.noop + 1, t._legal(seat))


def _same(a, b):
    assert list(a) == ["observation", "action_mask"] == list(b)
    for k in b:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def _play(p, seed, kept, eager):
    """A whole game, random from the masks; every few steps keep the observations
    unread (to be compared later) with the eager values of their moment."""
    obs, _ = p.reset(seed=seed)
    rng = np.random.default_rng(seed)
    step = 0
    while p.agents:
        if step % 3 == 0:
            kept.append(obs)
            eager.append({a: _eager(p, p._seat_of[a]) for a in obs})
        else:  # read at once, the usual rollout
            for a, o in obs.items():
                _same(o, _eager(p, p._seat_of[a]))
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, *_ = p.step(acts)
        step += 1
    kept.append(obs)  # the terminal observations
    eager.append({a: _eager(p, p._seat_of[a]) for a in obs} if obs else {})


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_lazy_observations_equal_eager_ones_whenever_read(name, players):
    p = parallel_env(**make(name, players))
    kept, eager = [], []
    _play(p, 5, kept, eager)
    _play(p, 6, kept, eager)  # a reset between: the first game's are still its own
    for obs, want in zip(kept, eager, strict=True):
        assert obs.keys() == want.keys()
        for a in obs:
            _same(obs[a], want[a])


def test_lazy_observation_is_a_dict_in_every_way():
    p = parallel_env(**make("runway", 3))
    obs, _ = p.reset(seed=2)
    want = _eager(p, 1)
    space = p.observation_space("player_1")

    def fresh():
        o, _ = p.reset(seed=2)
        assert isinstance(o["player_1"], LazyObservation)
        return o["player_1"]

    assert isinstance(obs["player_1"], dict)
    checks = {
        "keys": lambda o: list(o.keys()) == ["observation", "action_mask"],
        "len": lambda o: len(o) == 2,
        "in": lambda o: "observation" in o,
        "get": lambda o: np.array_equal(o.get("observation"), want["observation"]),
        "items": lambda o: [k for k, _ in o.items()] == ["observation", "action_mask"],
        "values": lambda o: np.array_equal(list(o.values())[0], want["observation"]),
        "dict()": lambda o: np.array_equal(dict(o)["observation"], want["observation"]),
        "**": lambda o: np.array_equal({**o}["observation"], want["observation"]),
        "copy": lambda o: type(o.copy()) is dict and len(o.copy()) == 2,
        "copy.copy": lambda o: np.array_equal(copy.copy(o)["observation"], want["observation"]),
        "deepcopy": lambda o: np.array_equal(copy.deepcopy(o)["observation"], want["observation"]),
        "pickle": lambda o: np.array_equal(
            pickle.loads(pickle.dumps(o))["observation"], want["observation"]
        ),
        "space.contains": lambda o: space.contains(o),
        "flatten": lambda o: spaces.flatten(space, o).shape == (spaces.flatdim(space),),
        "repr": lambda o: repr(o).startswith("{'observation': array("),
        "pop": lambda o: np.array_equal(o.pop("observation"), want["observation"]),
        "|": lambda o: np.array_equal((o | {})["observation"], want["observation"]),
    }
    for what, check in checks.items():
        assert check(fresh()), what
    with pytest.raises(KeyError):
        fresh()["nothing"]
    o = fresh()
    o["observation"] = "mine"  # a user's own value stays
    assert o["observation"] == "mine"


def test_unread_vectors_cost_no_encoding(monkeypatch):
    # The point of it: a rollout that reads only masks encodes nothing.
    import cardlab.adapters.table as table

    calls = []
    real = table.encode_state
    monkeypatch.setattr(table, "encode_state", lambda s, p: calls.append(p) or real(s, p))
    p = parallel_env(**make("uptime", 4))
    obs, _ = p.reset(seed=1)
    rng = np.random.default_rng(1)
    while p.agents:
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, *_ = p.step(acts)
    assert calls == []
    obs["player_2"]["observation"]
    assert calls == [2]
