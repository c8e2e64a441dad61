"""The time model: ranges from each game's GameInfo, simultaneous kinds at the slowest
seat, verdicts that need the whole range, and every priced kind a real decision kind."""

from __future__ import annotations

import json
import random

import pytest

from cardlab.core import CardlabError
from cardlab.games import all_infos, game_info, load_game
from cardlab.lab.simulate import GameRecord
from cardlab.lab.timemodel import TimeModel, judge_length

INFOS = all_infos()
"""Every discovered game, including any registered in-process (the adapters' toy):
each one's GameInfo must price exactly the kinds its engine asks."""


def _kinds_in_play(name: str, players: int, games: int = 6) -> set[str]:
    game = load_game(name, players=players)
    seen: set[str] = set()
    for seed in range(games):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seen.add(state.decision_kind())
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.name)
def test_every_time_model_key_is_a_real_decision_kind(info) -> None:  # type: ignore[no-untyped-def]
    """UPTIME's old keys bid/raise matched no decision kind and auctions
    fell back silently. Every kind the model prices must occur in play, and every kind
    that occurs in play must be priced."""
    model = TimeModel.from_info(info)
    seen: set[str] = set()
    for n in range(info.min_players, info.max_players + 1):
        seen |= _kinds_in_play(info.name, n)
    if info.name == "uptime":  # auctions need a Computer: play the seed's designer option too
        seen |= _kinds_in_play("uptime", 4, 20)
    assert set(model.kinds) <= seen | _rare_kinds(info.name), set(model.kinds) - seen
    assert seen <= set(model.kinds), seen - set(model.kinds)
    for k in model.kinds.values():
        assert 0 < k.seconds[0] <= k.seconds[1]


def _rare_kinds(name: str) -> set[str]:
    """Kinds random play at these seeds may not reach (checked by name against the engine)."""
    if name == "uptime":
        from cardlab.games.uptime.actions import DECISION_NAMES

        return set(DECISION_NAMES) - {"over"}
    return set()


def _record(players: int, kinds: dict[str, int], forced: dict[str, int], rounds: int) -> GameRecord:
    return GameRecord(
        game="x",
        players=players,
        options="{}",
        agents=[],
        index=0,
        seed=0,
        rounds=rounds,
        kind_decisions=kinds,
        kind_forced=forced,
    )


def test_simultaneous_kinds_cost_the_slowest_seat_not_the_sum() -> None:
    model = TimeModel.for_game("supercomputer")
    pick = model.kinds["pick"]
    assert pick.simultaneous
    two = model.game_seconds(_record(2, {"pick": 42}, {}, 0))
    five = model.game_seconds(_record(5, {"pick": 105}, {}, 0))
    # 21 picks per seat: 21 steps at any player count
    assert two == pytest.approx(five)
    assert two[0] == pytest.approx(21 * pick.seconds[0])


def test_round_overhead_and_forced_moves_are_priced() -> None:
    model = TimeModel.for_game("runway")
    q, s = model.game_seconds(_record(3, {"pitch": 36}, {"pitch": 6}, 12))
    pitch = model.kinds["pitch"].seconds
    assert q == pytest.approx(30 * pitch[0] + 6 * model.forced[0] + 12 * model.round_overhead[0])
    assert s == pytest.approx(30 * pitch[1] + 6 * model.forced[1] + 12 * model.round_overhead[1])


def test_length_verdict_needs_the_whole_range() -> None:
    band = (22.5, 37.5)
    assert judge_length((24, 30), band) is True
    assert judge_length((5, 12), band) is False  # even the slow end misses
    assert judge_length((40, 60), band) is False  # even the quick end is too long
    assert judge_length((15, 30), band) is None  # straddles: needs data


def test_a_time_model_file_is_checked_against_the_games_kinds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kinds": {"bid": {"seconds": [5, 9]}}}))
    with pytest.raises(CardlabError, match="'bid' is not a decision kind of uptime"):
        TimeModel.for_game("uptime", bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"source": "fitted on 40 decisions", "kinds": {"turn": 12}}))
    model = TimeModel.for_game("uptime", good)
    assert model.kinds["turn"].seconds == (12.0, 12.0) and model.source == "fitted on 40 decisions"
    assert (
        model.kinds["opening_bid"] == TimeModel.from_info(game_info("uptime")).kinds["opening_bid"]
    )
