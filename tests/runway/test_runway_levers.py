"""RUNWAY's rule levers: what Cash winning outside FinTech loses
(`cash_penalty`, R7) and the end's points per Sector held (`breadth_bonus`, R11). At
their defaults (1 and 1) the game is the rules as written."""

import random

import pytest

from cardlab import load_game
from cardlab.core.errors import OptionError
from cardlab.core.options import levers
from cardlab.games.runway import scoring
from cardlab.games.runway.actions import CASH, FINTECH, KIND_SHIFT, SOCIAL
from cardlab.games.runway.rules import RunwayGame
from cardlab.games.runway.scenarios import SAMPLE_SCRIPT, play_script, sample_turn_state
from cardlab.testing import check_game


def _random_game(game, seed):
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_levers_are_declared_with_the_rule_as_written_first():
    named = {spec.name: spec for spec in levers(RunwayGame.option_specs)}
    assert set(named) == {"cash_penalty", "breadth_bonus"}
    assert named["cash_penalty"].default == 1 and named["breadth_bonus"].default == 1
    for spec in named.values():
        assert spec.lever.passage and spec.lever.purpose
    with pytest.raises(OptionError, match="cash_penalty"):
        load_game("runway", players=3, cash_penalty=7)
    with pytest.raises(OptionError, match="breadth_bonus"):
        load_game("runway", players=3, breadth_bonus="lots")


def test_levers_at_their_defaults_play_the_same_game():
    plain = load_game("runway", players=3)
    ones = load_game("runway", players=3, cash_penalty=1, breadth_bonus=1)
    for seed in range(3):
        a, b = _random_game(plain, seed), _random_game(ones, seed)
        assert a.history() == b.history() and a.returns() == b.returns()


@pytest.mark.parametrize("penalty", [0, 1, 2, 3])
def test_cash_penalty_lever_sets_what_cash_outside_fintech_loses(penalty):
    """R7 with the lever: Cash winning outside FinTech scores `penalty` less (never below
    0); Cash in FinTech and a match lose nothing."""
    cash7 = (CASH << KIND_SHIFT) | 6  # any Cash card: only the kind is read
    social_card = SOCIAL << KIND_SHIFT
    assert scoring.reward(4, 0, cash7, SOCIAL, False, 0, penalty)[-1] == max(0, 4 - penalty)
    assert scoring.reward(4, 0, cash7, FINTECH, False, 0, penalty)[-1] == 4
    assert scoring.reward(4, 0, social_card, SOCIAL, False, 0, penalty)[-1] == 4


@pytest.mark.parametrize(("penalty", "cam"), [(1, 3), (0, 4), (2, 2)])
def test_sample_turn_with_the_cash_penalty_lever(penalty, cam):
    """R12's sample turn under the lever: Cam's Cash 7 wins Board Seat for 4 - penalty
    (as written 4 - 1 = 3), and the log says what it lost."""
    game = load_game("runway", players=3, cash_penalty=penalty)
    s = sample_turn_state(game)
    play_script(s, SAMPLE_SCRIPT)
    assert s.reputation == [3, 0, cam]
    log = [e["text"] for e in s.observation(1)["log"]]
    lost = f", -{penalty} Cash outside FinTech" if penalty else ""
    assert f"Seat 2 wins Board Seat with Cash 7 for {cam} (score 4{lost})" in log


@pytest.mark.parametrize("per_sector", [0, 2, 3])
def test_breadth_bonus_lever_pays_per_sector_held(per_sector):
    """R11 with the lever: when the 12th Deal closes each seat scores `per_sector` per
    Sector holding one of its Footholds; the final table still adds up and the scores
    stay inside the bounds."""
    game = load_game("runway", players=3, breadth_bonus=per_sector)
    low, high = game.utility_bounds()
    for seed in range(4):
        s = _random_game(game, seed)
        for p in range(3):
            held = sum(1 for count in s.footholds[p] if count)
            assert s.sector_bonus[p] == per_sector * held
            assert low <= s.returns()[p] <= high
        obs = s.observation(0)
        from cardlab.games.runway.view import final_table

        table = final_table(obs)
        for row in table.rows:
            assert sum(row.parts) == row.total


@pytest.mark.parametrize(
    "options",
    [
        {"cash_penalty": 0},
        {"breadth_bonus": 3, "cash_penalty": 2},
        {"breadth_bonus": 2, "shock_effect": "reward_minus_one"},
    ],
)
def test_conformance_with_levers_set(options):
    check_game(load_game("runway", players=3, **options), games=2)
