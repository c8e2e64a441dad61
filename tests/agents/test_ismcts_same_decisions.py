"""ISMCTS made faster must decide exactly as before on the same seed.

Two checks, each on a few positions of every game at 2 and 4 players, under two
settings (default-like, and full rollouts with another `c` and no normalising):

- against the record taken from the search before the speed work
  (data/ismcts_decisions.json): same action, same root visit counts, same means;
- against a frozen copy of that search (ismcts_reference.py) run now, on today's
  engines: this one still holds when an engine changes its behaviour, which
  makes the record stale (its positions' fingerprints then say so).

Those two pin uniform rollouts, the search as it was. The default since, MAST rollouts,
is pinned by a record taken on the plain build (data/ismcts_mast_decisions.json): both
builds must decide as it says.
"""

from __future__ import annotations

import json

import pytest
from ismcts_positions import (
    DATA,
    MAST_DATA,
    MAST_SETTINGS,
    POSITIONS,
    SETTINGS,
    cases,
    decide,
    fingerprint,
    positions,
)
from ismcts_reference import ReferenceISMCTS

from cardlab.agents import make_agent
from cardlab.games import load_game

RECORDED = json.loads(DATA.read_text())


def _same(got: dict, want: dict, where: str) -> None:
    assert got["action"] == want["action"], f"{where}: decided differently"
    assert got["visits"] == want["visits"], f"{where}: root visits differ"
    assert got["values"].keys() == want["values"].keys()
    for a, v in want["values"].items():
        assert got["values"][a] == pytest.approx(v, abs=1e-12), f"{where}: mean of {a}"


@pytest.mark.parametrize(("name", "players"), cases(), ids=[f"{g}-{n}p" for g, n in cases()])
def test_decisions_match_the_record_from_before_the_speed_work(name, players):
    game = load_game(name, players=players)
    for i, state in enumerate(positions(game)):
        for key, want in RECORDED.items():
            if not key.startswith(f"{name}-{players}p-pos{i}-"):
                continue
            if state.history() != want["history"] or fingerprint(state) != want["fingerprint"]:
                pytest.fail(
                    f"{key}: the {name} engine now plays this position differently, so the "
                    "record is stale; check test_decisions_match_the_reference_search, then "
                    "re-record (see ismcts_positions.py)"
                )
            agent = make_agent("ismcts", seed=17 + i, **want["settings"])
            _same(decide(agent, state, i), want, key)


def test_the_record_covers_every_case():
    want = {
        f"{g}-{n}p-pos{i}-set{k}"
        for g, n in cases()
        for i in range(POSITIONS)
        for k in range(len(SETTINGS))
    }
    assert set(RECORDED) == want


@pytest.mark.parametrize(("name", "players"), cases(), ids=[f"{g}-{n}p" for g, n in cases()])
def test_decisions_match_the_reference_search(name, players):
    game = load_game(name, players=players)
    for i, state in enumerate(positions(game)):
        for k, settings in enumerate(SETTINGS):
            fast = decide(make_agent("ismcts", seed=17 + i, **settings), state, i)
            slow = decide(ReferenceISMCTS(seed=17 + i, **settings), state, i)
            _same(fast, slow, f"{name}-{players}p-pos{i}-set{k}")


MAST_RECORDED = json.loads(MAST_DATA.read_text())


@pytest.mark.parametrize(("name", "players"), cases(), ids=[f"{g}-{n}p" for g, n in cases()])
def test_mast_decisions_match_the_record_from_the_plain_build(name, players):
    """The default search (MAST rollouts) decides on this build as the plain build did
    when the record was taken: same action, root visits and means."""
    game = load_game(name, players=players)
    for i, state in enumerate(positions(game)):
        for key, want in MAST_RECORDED.items():
            if not key.startswith(f"{name}-{players}p-pos{i}-"):
                continue
            if state.history() != want["history"] or fingerprint(state) != want["fingerprint"]:
                pytest.fail(
                    f"{key}: the {name} engine now plays this position differently, so the "
                    "MAST record is stale; re-record it on the plain build "
                    "(CARDLAB_PURE=1, see ismcts_positions.py)"
                )
            agent = make_agent("ismcts", seed=17 + i, **want["settings"])
            _same(decide(agent, state, i), want, key)


def test_the_mast_record_covers_every_case():
    want = {
        f"{g}-{n}p-pos{i}-set{k}"
        for g, n in cases()
        for i in range(POSITIONS)
        for k in range(len(MAST_SETTINGS))
    }
    assert set(MAST_RECORDED) == want
