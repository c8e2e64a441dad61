"""Shared property checks every game must pass (used by each game's Hypothesis
tests). They only use the public game API, so they hold each engine to the
same contract: cards conserved, legal actions never empty, games end, illegal
actions refused without change, replay, clone independence, resampling that
keeps the observation and hides nothing."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from cardlab import IllegalActionError
from cardlab.core import Game, GameState


def snapshot(state: GameState) -> str:
    """Everything observable about a state, as one string, to detect any change."""
    n = state.game.num_players
    return json.dumps(
        {
            "obs": [state.observation(p) for p in range(n)],
            "zones": state.zones(),
            "history": state.history(),
            "player": state.current_player(),
            "terminal": state.is_terminal(),
            "legal": [] if state.is_terminal() else state.legal_actions(),
        },
        sort_keys=True,
    )


def all_ids(state: GameState) -> list[str]:
    return sorted(i for ids in state.zones().values() for i in ids)


def check_conservation(state: GameState, expected: list[str]) -> None:
    ids = all_ids(state)
    dupes = [i for i, c in Counter(ids).items() if c > 1]
    assert not dupes, f"cards in two places: {dupes}"
    assert ids == expected, f"cards lost or invented: {set(expected) ^ set(ids)}"


def _leaked(text: str, hidden: set[str]) -> str | None:
    """The first of `hidden` that occurs in `text` as a whole token, if any."""
    if not hidden:
        return None
    pattern = r"\b(" + "|".join(re.escape(cid) for cid in sorted(hidden)) + r")\b"
    found = re.search(pattern, text)
    return found.group(1) if found else None


def check_no_leak(state: GameState) -> None:
    """No seat's observation names a card hidden from it, and the public view
    (what a spectator gets) names no card in `public_hidden_card_ids()`."""
    for p in range(state.game.num_players):
        leaked = _leaked(json.dumps(state.observation(p)), state.hidden_card_ids(p))
        assert leaked is None, f"seat {p} sees hidden card {leaked}"
    public = state.public_observation()
    assert public["seat"] is None, "the public view belongs to no seat"
    public_hidden = state.public_hidden_card_ids()
    for p in range(state.game.num_players):
        # the public view may know no more than any one seat does
        assert state.hidden_card_ids(p) <= public_hidden, f"seat {p} hides what is public"
    leaked = _leaked(json.dumps(public), public_hidden)
    assert leaked is None, f"the public view shows hidden card {leaked}"


def check_illegal_refused(state: GameState, rng: random.Random) -> None:
    legal = set(state.legal_actions())
    candidates = [a for a in range(-2, state.game.num_distinct_actions + 2) if a not in legal]
    before = snapshot(state)
    for action in rng.sample(candidates, min(3, len(candidates))):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        assert snapshot(state) == before, f"illegal action {action} changed the state"


def check_resample(state: GameState, seed: int) -> None:
    for p in range(state.game.num_players):
        sample = state.resample_from_infostate(p, seed)
        assert json.dumps(sample.observation(p), sort_keys=True) == json.dumps(
            state.observation(p), sort_keys=True
        ), f"resample changed seat {p}'s observation"
        assert all_ids(sample) == all_ids(state)
        # What p can see stays where it was; only hidden cards move.
        hidden = state.hidden_card_ids(p)
        where = {cid: key for key, ids in state.zones().items() for cid in ids}
        for key, ids in sample.zones().items():
            for cid in ids:
                if cid not in hidden:
                    assert where[cid] == key, f"resample moved visible card {cid}"
        assert sample.current_player() == state.current_player()
        # A redeal depends only on what p knows and the seed, never on where the hidden
        # cards really lie: redealing two different worlds p cannot tell apart, with one
        # seed, gives the same world (so a bot cannot decide on what it cannot see).
        other = state.resample_from_infostate(p, seed ^ 0x5BD1E995)
        assert (
            sample.resample_from_infostate(p, seed + 1).zones()
            == other.resample_from_infostate(p, seed + 1).zones()
        ), f"seat {p}'s redeal depends on the hidden cards' true places"
        if not sample.is_terminal():
            assert sample.legal_actions() == state.legal_actions() or p != state.current_player()


def random_game(
    game: Game, seed: int, action_seed: int, max_decisions: int, checks_every: int = 1
) -> GameState:
    """Play one random game, checking the contract after every `checks_every` actions."""
    rng = random.Random(action_seed)
    state = game.new_initial_state(seed)
    expected = all_ids(state)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert len(set(legal)) == len(legal)
        assert all(0 <= a < game.num_distinct_actions for a in legal)
        for a in legal:
            assert state.action_to_string(a)
        if steps % checks_every == 0:
            check_conservation(state, expected)
            check_no_leak(state)
            check_illegal_refused(state, rng)
            check_resample(state, rng.randrange(1 << 30))
            json.dumps(state.observation(state.current_player()))
        state.apply_action(rng.choice(legal))
        steps += 1
        assert steps <= max_decisions, f"game did not end within {max_decisions} decisions"
    check_conservation(state, expected)
    check_no_leak(state)
    assert state.winners(), "a finished game has winners"
    assert len(state.returns()) == game.num_players
    return state


def check_replay_and_clone(game: Game, seed: int, action_seed: int) -> None:
    """Same seed + same actions = same game; a clone is independent of its source."""
    rng = random.Random(action_seed)
    state = game.new_initial_state(seed)
    mid: GameState | None = None
    mid_snapshot = ""
    step = 0
    while not state.is_terminal():
        if step == 10:
            mid = state.clone()
            mid_snapshot = snapshot(mid)
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    replay = game.new_initial_state(seed)
    for a in state.history():
        replay.apply_action(a)
    assert snapshot(replay) == snapshot(state)
    assert replay.returns() == state.returns() and replay.winners() == state.winners()
    if mid is not None:
        assert snapshot(mid) == mid_snapshot, "playing the original changed its clone"
        # and the clone can go on by itself
        while not mid.is_terminal():
            mid.apply_action(mid.legal_actions()[0])
    again = game.new_initial_state(seed)
    assert snapshot(again) == snapshot(game.new_initial_state(seed))


def check_play_within_bounds(game: Game, random_games: int, greedy_games: int) -> None:
    """Random and greedy games never exceed the game's own max_game_length() and
    utility_bounds() (the bounds the OpenSpiel adapter declares)."""
    from cardlab.agents import make_agent, play_game

    low, high = game.utility_bounds()
    limit = game.max_game_length()
    results: list[tuple[int, list[float]]] = []
    for seed in range(random_games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        results.append((len(state.history()), state.returns()))
    for seed in range(greedy_games):
        agents = [make_agent("greedy", seed=seed * 10 + i) for i in range(game.num_players)]
        result = play_game(game, agents, seed=seed)
        results.append((len(result.history), result.returns))
    for length, returns in results:
        assert length <= limit, (length, limit)
        assert all(low <= r <= high for r in returns), (returns, low, high)
