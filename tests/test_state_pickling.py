"""States pickle and deep-copy on both builds.

Why: a state sent to a `multiprocessing` or Ray worker, saved with a lab run, or copied
by a library that uses `copy.deepcopy` (OpenSpiel's serialisation tests, RL wrappers)
must come back as the same game. The plain build always could; the compiled build's
per-game card columns (`cardlab.core.columns.CardColumns`) refused, since mypyc's `__new__`
calls `__init__` with no arguments. Each check plays a game part way, copies it, then
plays the original and the copy on with the same choices and compares every step.

The in-process tests run on whichever build this process loaded; `make test` runs this
file again with CARDLAB_PURE=1, and the subprocess test below runs both builds from one
session, so neither build's pickling goes unchecked.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable

import pytest

from cardlab.core import GameState
from cardlab.core.registry import load_game

GAMES = ("uptime", "runway", "supercomputer")


def _view(state: GameState) -> tuple[object, ...]:
    """What must agree between a state and its copy: the whole public record and every
    seat's own view, the returns, and who moves with which options."""
    seats = range(state.game.num_players)
    over = state.is_terminal()
    return (
        state.history(),
        over,
        state.returns(),
        None if over else (state.current_player(), state.legal_actions()),
        [repr(state.observation(p)) for p in seats],
    )


def _play_on_alike(a: GameState, b: GameState, seed: int) -> int:
    """Play `a` and `b` to the end with the same random choices; return the steps."""
    rng = random.Random(seed)
    steps = 0
    while not a.is_terminal():
        assert _view(a) == _view(b)
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    assert b.is_terminal()
    assert _view(a) == _view(b)
    assert a.winners() == b.winners()
    return steps


def _mid_game(name: str, players: int, seed: int) -> GameState:
    game = load_game(name, players=players)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    reference = game.new_initial_state(seed)
    length = 0
    while not reference.is_terminal():
        reference.apply_action(rng.choice(reference.legal_actions()))
        length += 1
    rng = random.Random(seed)
    for _ in range(length // 2):
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


COPIERS: dict[str, Callable[[GameState], GameState]] = {
    "pickle": lambda s: pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL)),
    "pickle-protocol-2": lambda s: pickle.loads(pickle.dumps(s, 2)),
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("name", GAMES)
def test_copied_mid_game_state_plays_on_identically(name: str, how: str) -> None:
    for players in (2, 4):
        for seed in (3, 11):
            state = _mid_game(name, players, seed)
            before = _view(state)
            copied = COPIERS[how](state)
            assert type(copied) is type(state)
            assert copied is not state
            assert _view(state) == before  # copying changed nothing
            assert _play_on_alike(state, copied, seed + 100) > 0


@pytest.mark.parametrize("name", GAMES)
def test_copy_is_independent_and_its_clones_too(name: str) -> None:
    # The copy shares no mutable data with the original: playing the copy on alone
    # leaves the original where it was, and a clone of the copy follows the original.
    state = _mid_game(name, 3, 5)
    before = _view(state)
    copied = pickle.loads(pickle.dumps(state))
    rng = random.Random(9)
    while not copied.is_terminal():
        copied.apply_action(rng.choice(copied.legal_actions()))
    assert _view(state) == before
    again = pickle.loads(pickle.dumps(state)).clone()
    assert _play_on_alike(state, again, 21) > 0


CHILD = """
import copy, pickle, random
from cardlab.core.build import build_info
from cardlab.core.registry import load_game
print(build_info().text())
for name in ("uptime", "runway", "supercomputer"):
    s = load_game(name, players=3).new_initial_state(7)
    rng = random.Random(7)
    for _ in range(6):
        s.apply_action(rng.choice(s.legal_actions()))
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        r1, r2 = random.Random(1), random.Random(1)
        a, b = s.clone(), t
        while not a.is_terminal():
            a.apply_action(r1.choice(a.legal_actions()))
            b.apply_action(r2.choice(b.legal_actions()))
        assert a.history() == b.history() and a.returns() == b.returns(), name
    print(name, "ok")
"""


@pytest.mark.parametrize("pure", [False, True], ids=["default-build", "CARDLAB_PURE=1"])
def test_both_builds_pickle(pure: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CARDLAB_PURE"}
    if pure:
        env["CARDLAB_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    if pure:
        assert lines[0] == "pure Python (CARDLAB_PURE=1 is set)"
    elif lines[0].startswith("pure Python"):
        pytest.skip(f"no compiled build here: {lines[0]}")
    else:
        assert lines[0].startswith("compiled (mypyc "), lines[0]
    assert lines[1:] == [f"{name} ok" for name in GAMES]
