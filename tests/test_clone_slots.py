"""`clone()` copies every slot: for every game and player count, at states all through
random games, the clone's every slot equals the original's and shares no mutable
container with it (`cardlab.testing.clones`); and the check does catch a forgotten
slot and a shared list (a mutated clone)."""

from __future__ import annotations

import random

import pytest

from cardlab.core.columns import CardColumns
from cardlab.core.errors import PlayerCountError
from cardlab.core.trail import Trail, trail
from cardlab.games import all_infos, load_game
from cardlab.testing.clones import check_clone_slots, state_slots
from cardlab.testing.failures import ConformanceError

CASES = [
    (info.name, n) for info in all_infos() for n in range(info.min_players, info.max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_clone_copies_every_slot(game, players):
    try:
        g = load_game(game, players)
    except PlayerCountError:
        pytest.skip(f"{game} does not play at {players}")
    rng = random.Random(f"{game}-{players}")
    compared = 0
    for seed in range(2):
        state = g.new_initial_state(seed)
        steps = 0
        while not state.is_terminal() and steps < 400:
            if steps % 7 == 0:
                compared += check_clone_slots(state)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        compared += check_clone_slots(state)
    assert compared > 0


class _Toy:
    """A state-shaped object whose clone forgets a slot or shares a list."""

    __slots__ = ("cards", "hands", "score")

    def __init__(self, forget: bool = False, share: bool = False) -> None:
        self.cards, self.hands, self.score = [1, 2], [[3], [4]], 0
        self._forget, self._share = forget, share

    def clone(self):  # noqa: ANN201
        c = object.__new__(_Toy)
        c.cards = self.cards if self._share else self.cards[:]
        if not self._forget:
            c.hands = [h[:] for h in self.hands]
        c.score = self.score
        return c


def test_the_check_catches_a_forgotten_slot_and_a_shared_list():
    class Forget(_Toy):
        __slots__ = ("_forget", "_share")

        def clone(self):  # noqa: ANN201
            c = object.__new__(Forget)
            c._forget, c._share = self._forget, self._share
            c.cards, c.score = self.cards[:], self.score
            return c

    class Share(_Toy):
        __slots__ = ("_forget", "_share")

        def clone(self):  # noqa: ANN201
            c = object.__new__(Share)
            c._forget, c._share = self._forget, self._share
            c.cards, c.score = self.cards, self.score
            c.hands = [self.hands[0], self.hands[1][:]]
            return c

    f = Forget.__new__(Forget)
    f.cards, f.hands, f.score, f._forget, f._share = [1], [[2]], 0, True, False
    with pytest.raises(ConformanceError, match="leaves slot 'hands' unset"):
        check_clone_slots(f)  # type: ignore[arg-type]
    s = Share.__new__(Share)
    s.cards, s.hands, s.score, s._forget, s._share = [1], [[2], [3]], 0, False, True
    with pytest.raises(ConformanceError, match="shares the mutable slot"):
        check_clone_slots(s)  # type: ignore[arg-type]
    assert set(state_slots(s)) >= {"cards", "hands", "score"}


def test_the_check_catches_card_columns_copied_instead_of_shared():
    class Columns(CardColumns):
        __slots__ = ("value",)

        def __init__(self, value: tuple[int, ...] = ()) -> None:
            self.value = value

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Columns) and other.value == self.value

    class Rebuilds:
        __slots__ = ("columns", "moves")

        def clone(self):  # noqa: ANN201
            c = object.__new__(Rebuilds)
            c.columns, c.moves = Columns(self.columns.value), self.moves
            return c

    class Shares(Rebuilds):
        __slots__ = ()

        def clone(self):  # noqa: ANN201
            c = object.__new__(Shares)
            c.columns, c.moves = self.columns, self.moves
            return c

        def is_terminal(self) -> bool:
            return True

    bad = Rebuilds.__new__(Rebuilds)
    bad.columns, bad.moves = Columns((1, 2)), trail([3])
    with pytest.raises(ConformanceError, match="copies the card columns in slot 'columns'"):
        check_clone_slots(bad)  # type: ignore[arg-type]
    good = Shares.__new__(Shares)
    good.columns, good.moves = Columns((1, 2)), trail([3])
    assert check_clone_slots(good) == 2  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["uptime", "runway", "supercomputer"])
def test_every_state_keeps_its_record_in_trails_and_its_cards_in_columns(game):
    """The one engine pattern (cardlab.core) the three designs share, as the scaffold
    does (tests/test_newgame.py): moves and log as persistent trails, card columns in
    `columns`. (The shelf's games are plugins of their own shape.)"""
    state = load_game(game, 3).new_initial_state(0)
    assert isinstance(state.columns, CardColumns)
    assert isinstance(state.moves, Trail) and isinstance(state.log, Trail)
    before = state.moves
    state.apply_action(state.legal_actions()[0])
    assert len(state.moves) == len(before) + 1 and state.moves.rest is before
