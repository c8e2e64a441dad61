"""Every discovered game at every player count passes the shipped conformance
check (`cardlab.testing.check_game`), and the check catches what it claims to."""

from __future__ import annotations

import pytest

from cardlab.core import Game
from cardlab.games import game_info, list_games
from cardlab.testing import ConformanceError, check_game

CASES = [
    (name, n)
    for name in list_games()
    for n in range(game_info(name).min_players, game_info(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_every_game_passes_check_game(name: str, players: int) -> None:
    game = game_info(name).game_class()(players)
    report = check_game(game, games=2, seed=players, checks_every=3, explore_seconds=0.5)
    assert report.games_played == 2 and report.decisions > 0 and report.explored_games > 0
    for what in ("labels", "hidden_cards", "illegal_refused", "resample", "replay_and_clone"):
        assert what in report.checked
    # and these: declared decision kinds, redeals that move hidden cards, the crash hunt
    for what in ("decision_kinds", "redeal_varies", "explore"):
        assert what in report.checked, report.skipped.get(what)
    # the shipped games declare their bounds; the narrative is checked once a view offers it
    assert "bounds" in report.checked, report.skipped.get("bounds")


def _first_game() -> Game:
    return game_info(list_games()[0]).game_class()(2)


def test_check_game_catches_duplicate_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _first_game()
    cls = type(game.new_initial_state(0))
    monkeypatch.setattr(cls, "action_to_string", lambda self, action: "same")
    with pytest.raises(ConformanceError, match="actions share labels") as err:
        check_game(game, games=1)
    assert err.value.check == "labels" and err.value.replay is not None


def test_check_game_catches_a_shared_legal_list(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _first_game()
    cls = type(game.new_initial_state(0))
    shared: dict[int, list[int]] = {}
    original = cls.legal_actions

    def cached(self):  # the bug: one list object handed out for a state
        return shared.setdefault(id(self), original(self))

    monkeypatch.setattr(cls, "legal_actions", cached)
    with pytest.raises(ConformanceError, match="changing the list legal_actions"):
        check_game(game, games=1)


def test_check_game_catches_an_accepted_float(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _first_game()
    cls = type(game.new_initial_state(0))
    original = cls.apply_action

    def lax(self, action):  # the bug: a float equal to a legal action is played
        return original(self, int(action) if isinstance(action, float) else action)

    monkeypatch.setattr(cls, "apply_action", lax)
    with pytest.raises(ConformanceError, match=r"illegal action .* \(float\) was accepted"):
        check_game(game, games=1)


def test_check_game_catches_a_leaked_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _first_game()
    cls = type(game.new_initial_state(0))
    original = cls.observation

    def leaky(self, player):
        obs = original(self, player)
        return obs | {"peek": sorted(self.hidden_card_ids(player))}

    monkeypatch.setattr(cls, "observation", leaky)
    with pytest.raises(ConformanceError, match="sees hidden card") as err:
        check_game(game, games=1)
    assert err.value.check == "hidden_cards" and err.value.replay is not None
