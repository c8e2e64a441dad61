"""Option `last_seat` (R10 designer comparison): the catch-up seat (default) against a
last seat that passes one seat clockwise every Deal, and how it combines with the
2-player option `two_player_last_seat`. See docs/rules/runway.md, "The catch-up seat"."""

import random

import pytest
from runway_kit import act, build

from cardlab import load_game


def dump_deals(state, deals):
    """Every seat passes and skips: the Deal is Dumped and Reputation does not move."""
    seen = [state.last_seat]
    for _ in range(deals):
        for _ in range(state.num_players):
            act(state, "pass")
            act(state, "skip")
        seen.append(state.last_seat)
    return seen


def test_r10_last_seat_default_is_the_catch_up_seat():
    """R10: the option's default is the ruling (fewest Reputation pitches last)."""
    game = load_game("runway", players=3)
    assert game.options["last_seat"] == "catch_up"
    s = build(3, last_seat=0, reputation=[0, 5, 7])
    dump_deals(s, 1)
    assert s.last_seat == 0  # seat 0 still has the fewest


@pytest.mark.parametrize("players", [3, 4])
def test_r10_rotate_passes_the_last_seat_clockwise_whatever_the_reputation(players):
    """Option last_seat=rotate: the last seat moves one seat clockwise every Deal, even
    when the seat that just pitched last has the fewest Reputation."""
    rep = [0, 5, 7, 9][:players]
    s = build(players, options={"last_seat": "rotate"}, last_seat=0, reputation=rep)
    seen = dump_deals(s, players + 1)
    assert seen == [(i % players) for i in range(players + 2)]
    assert s.pitch_order == [(seen[-1] + 1 + i) % players for i in range(players)]


def test_r10_rotate_moves_on_after_won_deals_too():
    """Option last_seat=rotate: won Deals do not seat the fewest Reputation last; the
    seat still passes one clockwise (the same Deals under catch-up seat seat 0)."""
    for option, expected in (("rotate", [2, 0, 1]), ("catch_up", [2, 0, 0])):
        s = build(3, options={"last_seat": option}, last_seat=2, reputation=[0, 5, 7])
        seen = [s.last_seat]
        act(s, "pitch Network 8")  # seat 0 wins Conference Badge: 3, 5, 7
        act(s, "pass")
        act(s, "skip")
        act(s, "pass")
        act(s, "skip")
        seen.append(s.last_seat)
        act(s, "pass")  # seat 1
        act(s, "skip")
        act(s, "pitch Network 5")  # seat 2 wins Board Seat: 3, 5, 11
        act(s, "pass")  # seat 0
        act(s, "skip")
        assert s.reputation == [3, 5, 11], option
        seen.append(s.last_seat)
        assert seen == expected, option


@pytest.mark.parametrize(
    ("last_seat", "two_player", "alternates"),
    [
        ("catch_up", "catch_up", False),
        ("catch_up", "alternate", True),
        ("rotate", "catch_up", True),
        ("rotate", "alternate", True),
    ],
)
def test_r10_two_players_either_option_set_to_the_alternative_alternates(
    last_seat, two_player, alternates
):
    """At 2 players one seat clockwise is the other seat, so `last_seat=rotate` and
    `two_player_last_seat=alternate` mean the same; either one alternates the seat."""
    s = build(
        2,
        options={"last_seat": last_seat, "two_player_last_seat": two_player},
        last_seat=0,
        reputation=[0, 4],
    )
    seen = dump_deals(s, 4)
    assert seen == ([0, 1, 0, 1, 0] if alternates else [0] * 5)


def test_r10_two_player_option_does_not_change_three_players_rotate_does():
    """`two_player_last_seat` changes nothing at 3-4 players; `last_seat` does."""
    seen = {}
    for opts in (
        {},
        {"two_player_last_seat": "alternate"},
        {"last_seat": "rotate"},
        {"last_seat": "rotate", "two_player_last_seat": "alternate"},
    ):
        s = build(3, options=opts, last_seat=0, reputation=[0, 5, 7])
        seen[tuple(sorted(opts.items()))] = dump_deals(s, 3)
    values = list(seen.values())
    assert values[0] == values[1] == [0, 0, 0, 0]
    assert values[2] == values[3] == [0, 1, 2, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r10_rotate_in_whole_games_is_a_clockwise_cycle_and_deterministic(players):
    """Whole random games under last_seat=rotate: the logged last seat steps +1 mod n
    every Deal (12 Deals), and the same seed replays the same game."""
    game = load_game("runway", players=players, last_seat="rotate")
    for seed in range(5):
        runs = []
        for _ in range(2):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            runs.append((s.history(), s.returns()))
            lasts = [e[1] for e in s.log if e[0] == "last"]
            assert len(lasts) == 12
            assert all(b == (a + 1) % players for a, b in zip(lasts, lasts[1:], strict=False))
        assert runs[0] == runs[1]
