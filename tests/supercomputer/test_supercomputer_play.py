"""Terminal drawing, personas and the lab summary for SUPER COMPUTER."""

import json
import random
import re
from types import SimpleNamespace

import pytest
from sc_helpers import game

from cardlab.agents import make_agent, play_game
from cardlab.games.supercomputer import render


def _midgame(players=3, seed=5, steps=40):
    g = game(players)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        s.apply_action(rng.choice(s.legal_actions()))
    return g, s


def test_render_draws_letters_and_hides_other_hands():
    """The screen is drawn from the seat's observation: the names of cards in hands the
    seat never held, other seats' secret picks and the deck never appear (names are
    unique in the packaged set, so a name would identify the card)."""
    for steps in (13, 40, 61):
        g, s = _midgame(steps=steps)
        names = g.tables.part_names
        for seat in range(3):
            text = render.render_text(s, seat)
            assert "Your hand" in text
            assert ("┌──" in text) == any(s.computers)  # a grid once a part is attached
            secret = set(s.part_deck)
            for q in range(3):
                if q != seat and not (s.hand_knowers[q] >> seat & 1):
                    secret.update(s.hands[q])
                if q != seat and s.pending_picks[q] >= 0 and not (s.hand_knowers[q] >> seat & 1):
                    secret.add(s.pending_picks[q])
            for k in secret:
                assert names[k] not in text, (steps, seat, names[k])


def test_grid_lines_use_colour_letters():
    g, s = _midgame(steps=60)
    obs = s.observation(0)
    computer = next(p["computer"] for p in obs["players"] if p["computer"])
    lines = "\n".join(render.grid_lines(computer))
    assert re.search(r"[KRBGY]", re.sub(r"\[[^\]]*\]", "", lines))


def test_render_final_names_the_tiebreak_level():
    g = game(2)
    result_state = g.new_initial_state(1)
    rng = random.Random(2)
    while not result_state.is_terminal():
        result_state.apply_action(rng.choice(result_state.legal_actions()))
    text = render.render_final(result_state)
    assert "final scores" in text and "Decided by: " in text
    info = result_state.info()
    assert info["end_reason"] == "three_rounds" and info["rounds"] == 3 and info["turns"] == 21
    assert json.dumps(info)


@pytest.mark.parametrize("kind", ["points", "builder"])
def test_persona_beats_random(kind):
    """Each persona should outscore random seats clearly (6 quick 3-player games)."""
    g = game(3)
    mine = others = 0.0
    for i in range(6):
        agents = [make_agent(kind if j == 0 else "random", seed=i * 7 + j) for j in range(3)]
        r = play_game(g, agents, seed=100 + i)
        mine += r.returns[0]
        others += (r.returns[1] + r.returns[2]) / 2
    assert mine > others * 1.3, (mine, others)


@pytest.mark.parametrize("kind", ["points", "builder"])
def test_persona_refuses_other_games(kind):
    fake = SimpleNamespace(game=SimpleNamespace(name="uptime"))
    with pytest.raises(ValueError, match="supercomputer"):
        make_agent(kind).step(fake)
