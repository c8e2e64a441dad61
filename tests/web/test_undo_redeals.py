"""Undo never becomes a peek: over random games of every game at every player count
(and each game's recommended rules), a move the table would offer to undo shows its
mover the same thing on every redeal of what the mover cannot see, and the verdict
itself (undoable or why not) is the same in every such redeal, so asking tells the
mover nothing about the hidden cards.

The verdict is computed exactly as the table computes it (`undo.forecast` on seeds
fixed by the table, the seat and the step, then `undo.verdict` on the position after
the move); the redeals that check it are drawn with other seeds.

CARDLAB_UNDO_EXAMPLES raises the examples per configuration and draws new ones each run
(default: the same 2 each run; each plays a random game to a random point and checks the
next `WINDOW` moves)."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.rng import derived_seed
from cardlab.core.variants import load_variant
from cardlab.games import game_class, game_info, list_games, load_game, packaged_variants
from cardlab.web.undo import REDEALS, forecast, seen_by, verdict

EXAMPLES = int(os.environ.get("CARDLAB_UNDO_EXAMPLES", "2"))
WINDOW = 8
"""Moves checked in each example, from a random point of a random game."""
CHECKS = 1
"""Redeals (other seeds than the verdict's) each checked move is tried on."""
TABLE_SEED = 20261203

CHECKED: Counter[str] = Counter()
UNDOABLE: Counter[str] = Counter()


def recommended(name: str) -> str | None:
    """The name of the game's recommended packaged variant, if it ships one."""
    for stem, path in packaged_variants(name).items():
        if load_variant(path, game_info(name)).recommended:
            return stem
    return None


def configurations() -> list[tuple[str, int, str | None]]:
    out: list[tuple[str, int, str | None]] = []
    for name in list_games():
        cls = game_class(name)
        counts = range(cls.min_players, cls.max_players + 1)
        out += [(name, p, None) for p in counts]
        variant = recommended(name)
        if variant is not None:
            out += [(name, p, variant) for p in counts]
    return out


CONFIGS = configurations()


def offered(state, mover: int, action: int, players: int) -> tuple[bool, str | None]:
    """Whether the table would offer to undo `action` (and why not), as `Table` judges it."""
    step = len(state.history())
    seeds = [derived_seed(TABLE_SEED, f"web:undo{i}:{mover}:{step}") for i in range(REDEALS)]
    fc = forecast(state, mover, action, players, seeds)
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return False, "the game is over"
    reason = verdict(fc, after, mover)
    return reason is None, reason


def test_every_game_and_a_recommended_ruleset_are_covered():
    names = {c[0] for c in CONFIGS}
    assert {"uptime", "runway", "supercomputer"} <= names
    assert ("uptime", 3, recommended("uptime")) in CONFIGS and recommended("uptime")


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2] or 'plain'}")
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    derandomize=os.environ.get("CARDLAB_UNDO_EXAMPLES") is None,  # the same games each run
)
@given(seed=st.integers(0, 2**32 - 1), walk=st.integers(0, 2**32 - 1), skip=st.integers(0, 10_000))
def test_an_undoable_move_shows_the_same_on_every_redeal(config, seed, walk, skip):
    name, players, variant = config
    game = load_game(name, players, variant=variant)
    rng = random.Random(walk)
    trail = game.new_initial_state(seed)
    while not trail.is_terminal():  # a whole random game, then a window of it checked
        trail.apply_action(rng.choice(trail.legal_actions()))
    moves = trail.history()
    state = game.new_initial_state(seed)
    for action in moves[: skip % len(moves)]:
        state.apply_action(action)
    key = f"{name}-{players}-{variant or 'plain'}"
    for _ in range(WINDOW):
        if state.is_terminal():
            return
        action = moves[len(state.history())]
        check_move(state, action, players, walk, key)
        state.apply_action(action)


def check_move(state, action: int, players: int, walk: int, key: str) -> bool:
    """The property at one move of the seat to move (`state` is not changed), against
    `CHECKS` redeals of what the mover cannot see: where the move shows the mover the
    same as in the true state, the verdict (offered, and why not) is the same, so
    asking tells nothing; where it shows something else, the move is offered in
    neither (undo would be a peek). Returns whether the move is offered."""
    mover = state.current_player()
    undoable, reason = offered(state, mover, action, players)
    step = len(state.history())
    after = state.clone()
    after.apply_action(action)
    shown = seen_by(after, mover)
    for k in range(CHECKS):
        world = state.resample_from_infostate(mover, derived_seed(walk, f"check{k}:{step}"))
        verdict_there = offered(world, mover, action, players)
        world.apply_action(action)
        if seen_by(world, mover) == shown:
            assert verdict_there == (undoable, reason), (key, step, "the verdict differs")
        else:
            assert not undoable and not verdict_there[0], (key, step, "undo would be a peek")
    CHECKED[key] += 1
    UNDOABLE[key] += undoable
    return undoable


def test_uptime_free_materials_never_become_an_undoable_peek():
    """UPTIME's free material (Workstation, Power Surge: U5) comes from the Supply
    discard, else the Supply Deck: whether the named kind is in the discard is public,
    what the deck gives is not. Every free-material choice of random games (rules as
    written and recommended, 2-4 players) is checked; some of them are refused because
    their result depends on the deck, and none is offered while it does."""
    pytest.importorskip("cardlab.games.uptime")
    found = refused = 0
    for variant in (None, recommended("uptime")):
        for players in (2, 3, 4):
            game = load_game("uptime", players, variant=variant)
            for seed in range(3):
                rng = random.Random(seed)
                state = game.new_initial_state(seed)
                while not state.is_terminal():
                    action = rng.choice(state.legal_actions())
                    if "free" in state.action_to_string(action).lower():
                        found += 1
                        key = f"uptime-{players}-{variant or 'plain'}-free"
                        refused += not check_move(state, action, players, seed, key)
                    state.apply_action(action)
    assert found >= 20 and refused, (found, refused)


def teardown_module() -> None:
    """With -s: how many moves were checked and how many were undoable, per configuration."""
    for key in sorted(CHECKED):
        print(f"undo redeals {key}: {CHECKED[key]} moves checked, {UNDOABLE[key]} undoable")
    print(f"undo redeals total: {sum(CHECKED.values())} checked, {sum(UNDOABLE.values())} undoable")
