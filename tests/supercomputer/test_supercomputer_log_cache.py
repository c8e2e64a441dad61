"""The public log is narrated once per event (view.LogNarration, shared by clones) and
says exactly what the whole-history narration said before: the same entries, byte for
byte, for every seat and the public view, at every step of random games (2-5 players,
every build mode and passing, cases, voluntary scrap, both card sets), through clones,
resamples and pickles; and an observation costs only the events since the last one.

`_whole_log_entries` is the narration as it was (rebuilt from the whole history on every
observation), kept here as the reference."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest

import cardlab
from cardlab.core.trail import trail
from cardlab.games.supercomputer import view
from cardlab.games.supercomputer.actions import cell_xy


def _whole_log_entries(s: Any) -> list[dict[str, Any]]:
    """The reference: the log narrated from the whole history (the previous code)."""
    t, g = s.tables, s.game
    out: list[dict[str, Any]] = []
    rnd, turn = 0, 0
    totals = [0] * s.num_players
    for event in s.log:
        kind = event[0]
        entry: dict[str, Any] = {"kind": kind}
        if kind == "round":
            _, rnd, race = event
            turn = 0
            entry["passing"] = "left" if g.pass_direction[rnd] == 1 else "right"
            entry["builds"] = g.options["builds"]
            entry["race"] = [t.build_names[b] for b in race]
        elif kind == "keep":
            _, entry["seat"] = event
        elif kind == "reveal":
            _, direction, revealed = event
            turn += 1
            entry["passing"] = "left" if direction == 1 else "right"
            entry["picks"] = [{"seat": q, "part": t.part_names[k]} for q, k in enumerate(revealed)]
        elif kind == "place":
            _, q, k, cell = event
            x, y = cell_xy(cell)
            entry.update(seat=q, part=t.part_names[k], type=t.part_types[k], x=x, y=y)
        elif kind == "scrap":
            _, q, k, reason = event
            entry.update(seat=q, part=t.part_names[k], reason=reason, points=t.red[k][rnd])
        elif kind == "race_win":
            _, q, b = event
            entry.update(seat=q, build=t.build_names[b], points=t.bonus[b][rnd])
        elif kind == "race_tie":
            _, b, seats = event
            entry.update(build=t.build_names[b], seats=list(seats))
        elif kind == "score":
            _, q, _, green, red, bonus, builds, attached, scrapped = event
            total = green + red + bonus
            totals[q] += total
            entry.update(
                seat=q,
                attached=[{"part": n, "points": p} for n, p in attached],
                scrapped=[{"part": n, "points": p} for n, p in scrapped],
                builds=[
                    {
                        "build": n,
                        "requires": list(t.requirement_labels[t.build_index[n]]),
                        "met": m,
                        "points": p,
                    }
                    for n, p, m in builds
                ],
                parts_points=green,
                scrap_points=red,
                build_points=bonus,
                round_points=total,
                game_points=totals[q],
            )
        else:  # "end"
            _, winners, level = event
            entry.update(winners=list(winners), decided_by=level, scores=totals[:])
        entry["round"] = rnd + 1
        entry["pick"] = turn
        entry["text"] = view.sentence(entry)
        out.append(entry)
    return out


SETUPS = [
    {},
    {"builds": "keep_both", "passing": "alternate"},
    {"builds": "public_race", "passing": "right"},
    {"builds": "public_race", "voluntary_scrap": True, "case_width": 3, "case_height": 4},
    {"voluntary_scrap": True, "scrap_of_green": 100, "case_width": 4},
    {"variant": "first_set", "builds": "public_race", "passing": "alternate"},
]


def _game(players: int, setup: dict[str, Any]) -> Any:
    return cardlab.load_game("supercomputer", players=players, **setup)


def _text(log: list[dict[str, Any]]) -> str:
    return json.dumps(log, sort_keys=True)


def _check(s: Any) -> None:
    """Every seat's log and the public one say what the whole narration says, byte for byte."""
    public = s.public_observation()["log"]
    assert _text(public) == _text(_whole_log_entries(s))
    for p in range(s.num_players):
        assert s.observation(p)["log"] == public


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_log_is_the_whole_narration_at_every_step(players):
    rng = random.Random(players)
    for g, setup in enumerate(SETUPS):
        game = _game(players, setup)
        s = game.new_initial_state(1000 * players + g)
        while True:
            _check(s)
            if s.is_terminal():
                break
            roll = rng.random()
            if roll < 0.05:  # a branch played on and observed leaves this game's log alone
                branch = s.clone()
                for _ in range(rng.randrange(1, 12)):
                    if branch.is_terminal():
                        break
                    branch.apply_action(rng.choice(branch.legal_actions()))
                    _check(branch)
            elif roll < 0.08:  # go on in a redealt world: the same public log
                before = _text(s.public_observation()["log"])
                s = s.resample_from_infostate(rng.randrange(players), rng.randrange(2**31))
                assert _text(s.public_observation()["log"]) == before
            elif roll < 0.10:
                s = pickle.loads(pickle.dumps(s))
            elif roll < 0.12:
                s = copy.deepcopy(s)
            elif roll < 0.15:
                s = s.clone()
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_log_of_games_observed_only_now_and_then(players):
    # long gaps between observations: many events narrated at once, from any point
    rng = random.Random(players + 10)
    for g in range(12):
        game = _game(players, SETUPS[g % len(SETUPS)])
        s = game.new_initial_state(g)
        while not s.is_terminal():
            if rng.random() < 0.03:
                _check(s)
            s.apply_action(rng.choice(s.legal_actions()))
        _check(s)


def test_each_event_is_narrated_once(monkeypatch):
    # the cost the cache removes: an observation at every step of a game narrated the
    # whole history each time (quadratic in the game's length)
    calls = []
    real = view.sentence
    monkeypatch.setattr(view, "sentence", lambda e: calls.append(1) or real(e))
    s = _game(5, {}).new_initial_state(3)
    rng = random.Random(3)
    while not s.is_terminal():
        for p in range(s.num_players):
            s.observation(p)
        s.public_observation()
        s.clone().observation(0)  # a clone shares what was narrated
        s.apply_action(rng.choice(s.legal_actions()))
    s.observation(0)
    assert len(calls) == len(s.log)


def test_a_caller_may_change_its_log():
    s = _game(4, {"builds": "public_race"}).new_initial_state(5)
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    want = _text(_whole_log_entries(s))
    log = s.observation(0)["log"]
    for e in log:  # change every entry, its lists and the dicts in them
        for value in e.values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, dict):
                        item.clear()
                value.append("changed")
        e["text"] = "changed"
    log.clear()
    assert _text(s.observation(1)["log"]) == want
    assert _text(s.public_observation()["log"]) == want


def test_a_pickle_leaves_the_narration_behind():
    s = _game(5, {}).new_initial_state(8)
    rng = random.Random(8)
    for _ in range(120):
        s.apply_action(rng.choice(s.legal_actions()))
    bare = len(pickle.dumps(s))
    s.observation(0)
    assert len(pickle.dumps(s)) < bare + 200  # the cache does not travel (its entries would)
    again = pickle.loads(pickle.dumps(s))
    assert len(again.log_memo.mark) == 0
    assert _text(again.observation(2)["log"]) == _text(_whole_log_entries(s))


def test_a_log_built_anew_is_narrated_anew():
    # the narration covers the log's own events: a log replaced by other events (a
    # hand-made scenario) is not read from the old narration
    game = _game(3, {})
    a, b = game.new_initial_state(1), game.new_initial_state(2)
    rng = random.Random(1)
    for _ in range(40):
        a.apply_action(rng.choice(a.legal_actions()))
        b.apply_action(rng.choice(b.legal_actions()))
    a.observation(0)
    a.log = trail(tuple(list(e)) for e in b.log)  # b's events, other objects than a's
    assert _text(a.observation(0)["log"]) == _text(_whole_log_entries(a))
