"""The shared core: options, card files, the registry and the agent registry."""

from pathlib import Path

import pytest

import cardlab
from cardlab.core import OptionSpec, resolve_options
from cardlab.core.carddata import load_card_file
from cardlab.core.errors import CardDataError, OptionError
from cardlab.core.options import parse_option_pairs

SPECS = (
    OptionSpec("patch_cost", (1, 0), "cost"),
    OptionSpec("stall_end", (True, False), "stall"),
    OptionSpec("router_rule", ("per_computer", "one_router_per_computer"), "router"),
)


def test_defaults_are_first_allowed_value():
    assert resolve_options("g", SPECS, {}) == {
        "patch_cost": 1,
        "stall_end": True,
        "router_rule": "per_computer",
    }


def test_text_values_are_parsed():
    opts = resolve_options("g", SPECS, {"patch_cost": "0", "stall_end": "false"})
    assert opts["patch_cost"] == 0 and opts["stall_end"] is False


def test_unknown_option_names_the_option_and_the_known_ones():
    with pytest.raises(OptionError, match=r"no rule option 'colour'.*patch_cost"):
        resolve_options("g", SPECS, {"colour": 1})


def test_bad_value_names_allowed_values():
    with pytest.raises(OptionError, match=r"'router_rule'.*per_computer, one_router_per_computer"):
        resolve_options("g", SPECS, {"router_rule": "sometimes"})
    with pytest.raises(ValueError):
        resolve_options("g", SPECS, {"patch_cost": 2})


def test_option_pairs():
    assert parse_option_pairs(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="name=value"):
        parse_option_pairs(["novalue"])


def test_card_file_errors_name_file_card_and_field(tmp_path: Path):
    from pydantic import BaseModel

    class Card(BaseModel):
        name: str
        points: int

    class Deck(BaseModel):
        cards: list[Card]

    good = tmp_path / "good.toml"
    good.write_text('[[cards]]\nname = "A"\npoints = 1\n')
    assert load_card_file(good, Deck).cards[0].points == 1
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[cards]]\nname = "A"\npoints = 1\n[[cards]]\nname = "Widget"\npoints = "lots"\n'
    )
    with pytest.raises(CardDataError, match=r"bad\.toml.*'Widget'.*points"):
        load_card_file(bad, Deck)
    broken = tmp_path / "broken.toml"
    broken.write_text("[[cards]\n")
    with pytest.raises(CardDataError, match="broken.toml.*TOML"):
        load_card_file(broken, Deck)
    with pytest.raises(CardDataError, match="missing.toml"):
        load_card_file(tmp_path / "missing.toml", Deck)


def test_unknown_game_and_agent():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        cardlab.load_game("chess")
    with pytest.raises(ValueError, match="unknown agent kind 'oracle'.*random"):
        cardlab.make_agent("oracle")
    with pytest.raises(ValueError, match="bad parameter"):
        cardlab.make_agent("random", depth=3)


def test_card_file_error_inside_a_list_field_still_names_the_card(tmp_path: Path):
    """A bad value inside a list-valued field (e.g. points per round) keeps the card's name."""
    from pydantic import BaseModel

    class Part(BaseModel):
        name: str
        green: list[int]

    class Parts(BaseModel):
        parts: list[Part]

    bad = tmp_path / "parts.toml"
    bad.write_text('[[parts]]\nname = "Core X8"\ngreen = [1, "two", 3]\n')
    with pytest.raises(
        CardDataError, match=r"parts\.toml.*card 'Core X8' \(parts\[0\]\).*'green\.1'"
    ):
        load_card_file(bad, Parts)


def test_heuristic_values_rate_each_seat_against_the_best_other():
    """One progress_values() call gives every seat's progress minus the best rival's."""
    from cardlab.core import GameState

    class Fixed(GameState):  # only what the heuristic needs
        def __init__(self, values):  # type: ignore[no-untyped-def]
            self.values = values

        def progress_values(self):  # type: ignore[no-untyped-def]
            return self.values

    for name in GameState.__abstractmethods__:
        setattr(Fixed, name, None)
    Fixed.__abstractmethods__ = frozenset()
    s = Fixed([3.0, 7.0, 5.0, 7.0])
    assert s.heuristic_values() == [-4.0, 0.0, -2.0, 0.0]
    s = Fixed([1.0, 9.0, 4.0])
    assert s.heuristic_values() == [-8.0, 5.0, -5.0]
    assert s.heuristic_value(1) == 5.0


# -- the shared contract (core.contract) --------------------------------------------


@pytest.mark.parametrize("name", cardlab.list_games())
def test_action_type_policy_is_the_same_for_every_game(name: str):
    import numpy as np

    from cardlab.core import IllegalActionError

    state = cardlab.load_game(name).new_initial_state(seed=3)
    legal = state.legal_actions()[0]
    before = state.history()
    for bad in (float(legal), True, str(legal), None, np.float64(legal)):
        with pytest.raises(IllegalActionError, match="is not an action: actions are ints"):
            state.apply_action(bad)  # type: ignore[arg-type]
        assert state.history() == before
    state.apply_action(np.int64(legal))  # type: ignore[arg-type]
    assert state.history() == [*before, legal]
    assert all(type(a) is int for a in state.history())


@pytest.mark.parametrize("name", cardlab.list_games())
def test_one_illegal_action_message(name: str):
    from cardlab.core import IllegalActionError

    state = cardlab.load_game(name).new_initial_state(seed=3)
    illegal = next(a for a in range(state.game.num_distinct_actions + 1)
                   if a not in state.legal_actions())  # fmt: skip
    seat = state.current_player()
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \(.*\) is not legal for seat "
                       rf"{seat} now \({state.decision_kind()}.*\); legal: \d+="):  # fmt: skip
        state.apply_action(illegal)


def test_break_ties_names_the_level_that_decided():
    from cardlab.core import break_ties

    levels = ("most_computers", "fewest_passes")
    assert break_ties([(5, 0, 0), (3, 9, 9)], levels).winners == [0]
    assert break_ties([(5, 0, 0), (3, 9, 9)], levels).level is None
    tie = break_ties({1: (5, 2, -3), 2: (5, 2, -1), 3: (5, 1, 0)}, levels)
    assert (tie.winners, tie.level) == ([2], "fewest_passes")
    assert break_ties([(5, 1, 0), (5, 1, 0)], levels) == break_ties([(5, 1, 0)] * 2, levels)
    shared = break_ties([(5, 1, 0), (5, 1, 0), (4, 9, 9)], levels)
    assert (shared.winners, shared.level) == ([0, 1], "shared")
    with pytest.raises(ValueError, match="a key of 2 values for points plus 2 levels"):
        break_ties([(5, 1)], levels)


def test_the_engines_shuffle_is_random_shuffle_draw_for_draw() -> None:
    """core.rng.shuffle (every engine's deal and reshuffle) gives random.shuffle's
    order and leaves the generator in the same state, for every length."""
    import random

    from cardlab.core.rng import shuffle

    for seed in range(30):
        for n in (0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 54, 65, 200, 1025):
            a, b = random.Random(seed), random.Random(seed)
            mine, theirs = list(range(n)), list(range(n))
            shuffle(a, mine)
            b.shuffle(theirs)
            assert mine == theirs and a.getstate() == b.getstate()
            assert a.random() == b.random()


def test_a_seeded_generator_is_random_random_of_the_seed() -> None:
    """core.rng.seeded (every search redeal's generator) is `random.Random(seed)`: the
    same state and the same draws, for small, negative, 64-bit and 128-bit seeds."""
    import random

    from cardlab.core.rng import seeded

    for seed in (0, 1, -7, 2**32 - 1, 2**63 + 5, 2**64 - 1, (3 << 64) + 12345, -(2**100)):
        mine, theirs = seeded(seed), random.Random(seed)
        assert type(mine) is random.Random
        assert mine.getstate() == theirs.getstate()
        assert [mine.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
        assert mine.getrandbits(64) == theirs.getrandbits(64)
        assert mine.gauss(0, 1) == theirs.gauss(0, 1)
