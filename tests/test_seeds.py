"""Seeds nobody can predict: `core.rng.fresh_seed` and `derived_seed`,
engines dealt from full 64-bit seeds, and the terminal's bots seeded through the hash.

Run on both builds: `make test` runs it on the default (mypyc-compiled, from
build/mypyc/<key>) engines and again with CARDLAB_PURE=1 (`make test-pure`); a seed at or above
2**63 does not fit a C long, so a build that narrowed it would deal seed 2**64-1 as
seed -1 (which `random.Random` deals as seed 1)."""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab.agents import parse_agent_list
from cardlab.core.rng import SEED_BITS, derived_seed, fresh_seed
from cardlab.games import game_info
from cardlab.terminal import bot_seed, make_bots

GAMES = cardlab.list_games()


def three_or_nearest(name: str) -> int:
    """Three seats, or the nearest count the game plays (HEARTS is four, WAR two)."""
    info = game_info(name)
    return min(max(3, info.min_players), info.max_players)


TOP = 2**64 - 1


def played(game, seed: int) -> tuple[str, list[int]]:
    """The deal (every zone) and the history of a game played to the end by a fixed
    random player: the same seed gives the same, a different deal a different one."""
    state = game.new_initial_state(seed)
    deal = repr(sorted(state.zones().items()))
    moves = random.Random(0)
    while not state.is_terminal():
        state.apply_action(moves.choice(state.legal_actions()))
    return deal, state.history()


@pytest.mark.parametrize("name", GAMES)
def test_every_engine_deals_and_plays_a_64_bit_seed(name):
    game = cardlab.load_game(name, players=three_or_nearest(name))
    top = played(game, TOP)
    assert top == played(game, TOP), "seed 2**64-1 does not replay"
    # Narrowed to 64-bit signed, 2**64-1 would be -1 (dealt as 1); to 63 bits, 2**63-1.
    deals = {played(game, s)[0] for s in (TOP, 1, 2**63 - 1, 2**63)}
    assert len(deals) == 4, "seeds at the top of the 64-bit range collide with small ones"
    state = game.new_initial_state(TOP)
    redealt = state.resample_from_infostate(0, TOP)
    assert redealt.observation(0) == state.observation(0)


def test_fresh_seeds_are_64_bits_and_differ_every_time():
    seeds = [fresh_seed() for _ in range(200)]
    assert len(set(seeds)) == len(seeds)
    assert all(type(s) is int and 0 <= s < 2**SEED_BITS for s in seeds)
    assert SEED_BITS == 64 and max(seeds) >= 2**60  # all below 2**60: p = 16**-200


def test_derived_seeds_are_fixed_per_seed_and_purpose_and_unrelated_across_them():
    assert derived_seed(7, "bot:1") == derived_seed(7, "bot:1")
    assert 0 <= derived_seed(TOP, "x") < 2**64
    values = {derived_seed(s, p) for s in range(50) for p in ("bot:0", "bot:1", "views")}
    assert len(values) == 150
    # (compiled, mypyc refuses the str itself: "int object expected; got str")
    with pytest.raises(TypeError, match="int"):
        derived_seed("7", "bot:1")  # type: ignore[arg-type]


def test_a_terminal_bot_is_not_seeded_seed_times_10_plus_seat():
    """The old `seed * 10 + i`: one bot's generator, or the seed, gave away every other."""
    specs = parse_agent_list("greedy,ismcts:iterations=5,random")
    seed = 634912
    bots = make_bots(4, 0, specs, seed)
    assert bots[0] is None and [b.kind for b in bots[1:]] == ["greedy", "ismcts", "random"]
    for seat, bot in enumerate(bots):
        if bot is None:
            continue
        assert bot.seed == bot_seed(seed, seat) == derived_seed(seed, f"terminal-bot:{seat}")
        assert bot.seed != seed * 10 + seat
        assert bot.rng.random() == random.Random(bot.seed).random()
    # The same seed makes the same bots: the replay command reproduces them.
    assert [b and b.seed for b in make_bots(4, 0, specs, seed)] == [b and b.seed for b in bots]


def test_games_one_seed_apart_give_unrelated_bot_seeds():
    """Neighbouring seeds: no constant step, and about half the 64 bits differ (a hash)."""
    distances, steps = [], set()
    for seed in range(1000, 1040):
        for seat in range(1, 4):
            a, b = bot_seed(seed, seat), bot_seed(seed + 1, seat)
            distances.append(bin(a ^ b).count("1"))
            steps.add(b - a)
        assert len({bot_seed(seed, s) for s in range(5)}) == 5
    assert len(steps) == len(distances)
    assert 28 <= sum(distances) / len(distances) <= 36  # 32 expected, sd 0.37 over 120
    assert min(distances) >= 10
