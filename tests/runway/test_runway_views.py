"""Hidden information, resampling, rendering and personas for RUNWAY."""

import json

import pytest

from cardlab import load_game
from cardlab.agents import make_agent, play_game
from cardlab.games.runway import render
from cardlab.games.runway.actions import CARD_IDS
from cardlab.games.runway.scenarios import SAMPLE_SCRIPT, play_script, sample_turn_state
from cardlab.games.runway.view import capital_name


def test_observation_has_the_shared_keys_and_no_secrets():
    s = load_game("runway", players=4).new_initial_state(12345)
    o = s.observation(2)
    for key in (
        "game",
        "seat",
        "num_players",
        "current_player",
        "decision",
        "phase",
        "scores",
        "log",
        "hype",
        "deal_in_play",
        "next_deal",
        "bench",
        "footholds",
        "reputation",
    ):
        assert key in o
    text = json.dumps(o)
    assert "12345" not in text and "rng" not in text
    for q in (0, 1, 3):
        for cid in s.zones()[f"private:{q}:hand"]:
            assert cid not in text
    for cid in s.zones()["hidden:deal_deck"] + s.zones()["hidden:draw_pile"]:
        assert cid not in text


def test_resample_keeps_known_bench_cards_and_the_seats_view():
    """A card seen taken from the Bench stays in its hand; hidden cards are redealt."""
    s = sample_turn_state()
    play_script(s, SAMPLE_SCRIPT[:3])  # Cam took Cash 7 from the Bench
    cash7 = 6
    moved = 0
    for seed in range(20):
        r = s.resample_from_infostate(1, seed)
        assert cash7 in r.hands[2]
        assert json.dumps(r.observation(1)) == json.dumps(s.observation(1))
        moved += r.hands[0] != s.hands[0]
    assert moved > 10


def test_resample_respects_reshuffle_generations():
    """After a reshuffle, pile cards come from the (public) reshuffled discard only."""
    game = load_game("runway", players=4)
    import random

    rng = random.Random(3)
    s = game.new_initial_state(3)
    while not s.is_terminal() and s.reshuffles == 0:
        s.apply_action(rng.choice(s.legal_actions()))
    if s.is_terminal():
        pytest.skip("no reshuffle in this game")

    def fresh(state):  # the pile plus hidden cards drawn from it since the reshuffle
        drawn = [
            x
            for q, h in enumerate(state.hands)
            if q != 0
            for x in h
            if not state.publicly_known[x] and state.drawn_in_generation[x] == state.reshuffles
        ]
        return sorted(state.draw_pile + drawn)

    for seed in range(10):
        r = s.resample_from_infostate(0, seed)
        assert fresh(r) == fresh(s)


def test_render_shows_deals_bench_hype_footholds_and_kinds_by_colour_mark_name():
    s = sample_turn_state()
    play_script(s)
    text = render.render_text(s, 1)
    for needle in ("Deal in play", "Next Deal", "Bench", "Hype", "Footholds", "Rep"):
        assert needle in text
    assert "[green]━$ Cash 2━[/] (solid)" in text  # colour AND mark AND name
    assert "Seed Round" in text and "Payment Rails" in text
    for cid in s.hidden_card_ids(1):
        n = CARD_IDS.index(cid)
        if n < 32 and n not in s.hands[1]:  # another seat's hidden card is never named
            assert (
                f"{capital_name(s.cards, n)}━" not in text
                and f"{capital_name(s.cards, n)}┈" not in text
            )


def test_render_final_adds_up_and_names_the_deciding_line():
    """R11: the final screen shows the parts of each score and the line that decided."""
    game = load_game("runway", players=2)
    s = game.new_initial_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    text = render.render_final(s)
    assert "final scores" in text and "Sector bonus" in text
    level = s.info()["tiebreak"]
    expected = {
        None: "with the most Reputation",
        "most_sectors_locked": "on most Sectors locked",
        "most_deals_won": "on most Deals won",
        "shared": "share the win",
    }[level]
    assert expected in text


@pytest.mark.parametrize("kind", ["generalist", "specialist"])
def test_personas_play_legally_and_refuse_other_games(kind):
    game = load_game("runway", players=3)
    result = play_game(
        game,
        [make_agent(kind, seed=1), make_agent("random", seed=2), make_agent(kind, seed=3)],
        seed=4,
    )
    assert result.winners
    assert make_agent(kind).__doc__ or type(make_agent(kind)).__doc__

    class Other:
        name = "uptime"

    class FakeState:
        game = Other()

    with pytest.raises(ValueError, match="RUNWAY only"):
        make_agent(kind).step(FakeState())


@pytest.mark.parametrize("kind", ["generalist", "specialist"])
def test_personas_beat_random(kind):
    """Each persona wins clearly more than its fair share against random seats (3p, 60 games)."""
    game = load_game("runway", players=3)
    share = 0.0
    games = 60
    for i in range(games):
        seat = i % 3
        agents = [make_agent(kind if p == seat else "random", seed=i * 10 + p) for p in range(3)]
        r = play_game(game, agents, seed=500 + i)
        share += (seat in r.winners) / len(r.winners)
    assert share / games > 0.5  # fair share is 1/3


def test_render_shows_each_pitch_with_its_role():
    """The table lists the pitches so far with their role; the role was once written in
    square brackets and swallowed as rich markup."""
    s = sample_turn_state()
    play_script(s, SAMPLE_SCRIPT[:1])  # Bo pitches Network 3 on Conference Badge (Social)
    text = render.render_text(s, 2)
    assert "Seat 1 pitched [blue]╍◎ Network 3╍[/] (dashed) (match)" in text
