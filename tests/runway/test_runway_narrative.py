"""The story of a RUNWAY game (view.narrate) and its final table (view.final_table),
both built from an observation only.

Pinned here: every kind of public event reads as a sentence (no raw lists, ids or
Python values); a Deal with a Shock under the default never shows "Hype +N"; groups
run "Deal 1 of 12" .. "Deal 12 of 12" then "End of the game", never "Deal 13 of 12";
the final table's parts (Deals, Rides, Locks, Sector bonus) add up to every score and
its `decided_by` line follows R11; the story is public, so every seat and a
spectator read the same lines and none names a hidden card."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from runway_kit import act, build, last_deal

from cardlab import load_game
from cardlab.games.runway.render import deal_text
from cardlab.games.runway.view import EVENT_FIELDS, capital_name, final_table, narrate

OPTION_SETS = [
    {},
    {"two_player_last_seat": "catch_up"},
    {"last_seat": "rotate"},
    {"shock_effect": "reward_minus_one"},
    {"shock_effect": "none"},
]
RAW = re.compile(r"[\[\]{}]|\bNone\b|\bTrue\b|\bFalse\b|\brw\d\d\b|_")


def random_finished(players, seed, options=None):
    state = load_game("runway", players=players, **(options or {})).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def assert_readable(line):
    assert line.text and line.text[0].isupper(), line
    assert not RAW.search(line.text), f"raw value in {line.text!r}"


def scenario_events():
    """States whose logs hold the rare events random play seldom reaches: trades with
    an empty hand, no Foothold left, and the three tie-break endings."""
    out = []
    s = build(hands=[[], ["Cash 2"], ["Cash 3"]], last_seat=2, pile_top=["Talent 6"])
    act(s, "pass")
    act(s, "take Bench Cash 7")
    out.append(s)
    t = build(hands=[[], ["Cash 2"], ["Cash 3"]], last_seat=2, pile_top=["Talent 6"])
    act(t, "pass")
    act(t, "draw a blind card")
    out.append(t)
    u = build(last_seat=2, footholds=[[2, 1, 3, 2], [0] * 4, [0] * 4], footholds_left=[0, 8, 8])
    act(u, "pitch Network 8")
    out.append(u)
    for reputation, footholds in (
        ([4, 5, 0], [[1, 0, 1, 0], [0, 2, 0, 0], [0] * 4]),  # most Sectors locked
        ([5, 5, 0], [[0] * 4, [0] * 4, [0] * 4]),  # shared
    ):
        out.append(_finishlast_deal(reputation, footholds))
    v = last_deal([0, 3, 0], [[0] * 4, [1, 0, 0, 0], [0] * 4])
    act(v, "pitch Network 8")  # most Deals won
    for _ in range(2):
        act(v, "pass")
        act(v, "skip")
    out.append(v)
    return out


def _finishlast_deal(reputation, footholds):
    s = last_deal(reputation, footholds)
    for _ in range(3):
        act(s, "pass")
        act(s, "skip")
    return s


def test_every_event_kind_narrates_as_a_readable_sentence():
    """Every kind of log event (and every reason a seat pitches last) appears in
    random games or the scenarios, and each line reads as a sentence."""
    kinds, reasons, levels = set(), set(), set()
    states = [
        random_finished(players, seed, options)
        for players in (2, 3, 4)
        for options in OPTION_SETS
        for seed in range(4)
    ] + scenario_events()
    for state in states:
        obs = state.public_observation()
        lines = narrate(obs)
        assert len(lines) == len(obs["log"])
        for line, entry in zip(lines, obs["log"], strict=True):
            assert_readable(line)
            kinds.add(entry["kind"])
            if entry["kind"] == "last":
                reasons.add(entry["reason"])
            if entry["kind"] == "end":
                levels.add(entry["tiebreak"])
    assert kinds == set(EVENT_FIELDS)
    assert reasons == {"youngest", "fewest", "fewest_tied", "alternate", "rotate"}
    assert {"most_sectors_locked", "most_deals_won", "shared"} <= levels


def test_a_won_deal_says_who_won_for_how_much_with_every_part():
    """R7: the win line names the winner, the card and the reward with its parts: the
    Hype bonus, Cash outside FinTech, a Shock under reward_minus_one."""
    s = build(
        deals=("Chip Fab",),
        last_seat=2,
        hype=6,
        shocks_under={"Chip Fab": 1},
        options={"shock_effect": "reward_minus_one"},
    )
    act(s, "pitch Cash 1")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    texts = [line.text for line in narrate(s.observation(1))]
    assert (
        "Seat 0 wins Chip Fab with Cash 1 for 4 (score 5, +1 Hype bonus, -1 Cash outside "
        "FinTech, -1 Shock)" in texts
    )
    assert "Seat 0 places a Foothold in DeepTech" in texts
    assert "Hype +3 for Chip Fab: 6 -> 9" in texts


def test_a_deal_with_a_shock_never_shows_hype_plus():
    """R9 (default hype_down): a Deal with a Shock tucked under it reads "Hype -3 if
    won", on the table and in the story, and its close says Hype drops."""
    s = build(deals=("Chip Fab",), shocks_under={"Chip Fab": 1}, last_seat=2, hype=6)
    obs = s.observation(0)
    shown = deal_text(obs["deal_in_play"])
    assert "Hype -3" in shown and "Hype +" not in shown
    start = [line.text for line in narrate(obs)]
    assert start[0] == (
        "Deal in play: Chip Fab (DeepTech, scores 5; 1 Shock tucked under it: Hype -3 if won)"
    )
    act(s, "pitch Tech 1")
    for _ in range(2):
        act(s, "pass")
        act(s, "skip")
    closing = [line.text for line in narrate(s.observation(0)) if "Chip Fab" in line.text]
    assert not any("Hype +" in text for text in closing), closing
    assert any(
        t.startswith("Shock under Chip Fab: Hype drops by 3 instead of rising, 6 -> 3")
        for t in closing
    )


def test_dumps_rides_locks_trades_and_the_catch_up_seat_are_told():
    """R4, R5, R6, R7, R10 in the story: a Ride paid, a lock for +2, a Bench swap as a
    public fact (both cards), a blind draw naming only the card given up, a Dump, and
    the catch-up seat for the next Deal with its reason."""
    s = build(
        deals=("Chip Fab", "Storefront"),
        last_seat=2,
        pile_top=["Talent 6"],
        footholds=[[0] * 4, [0] * 4, [0, 0, 1, 0]],
    )
    act(s, "pitch Network 8")  # seat 0 rides
    act(s, "pass")
    act(s, "trade Tech 2 for Bench Cash 7")
    act(s, "pitch Tech 3")  # seat 2 wins and locks DeepTech
    # Storefront: seat 1 (fewest Reputation, 0) pitches last; everyone passes: Dumped
    act(s, "pass")  # seat 2
    act(s, "discard Cash 3 and draw blind")
    act(s, "pass")  # seat 0
    act(s, "skip")
    act(s, "pass")  # seat 1
    act(s, "skip")
    lines = narrate(s.observation(1))
    texts = [line.text for line in lines]
    assert "Seat 0 pitches Network 8 (a Ride: +1 if the Deal is won)" in texts
    assert "Seat 1 trades Tech 2 for Cash 7 from the Bench" in texts
    assert "Seat 0 is paid 1 for a Network Ride on Chip Fab" in texts
    assert "Seat 2 places a second Foothold in DeepTech and locks it: +2" in texts
    assert "Seat 1 pitches last on this Deal: the catch-up seat, fewest Reputation (0)" in texts
    assert "Seat 2 discards Cash 3 face-up and draws a blind card" in texts
    assert any(t.startswith("Storefront is Dumped: nobody pitched a match or Cash") for t in texts)
    assert not any("Talent 6" in t for t in texts)  # drawn from the pile: never named
    by_text = {line.text: line for line in lines}
    assert by_text["Seat 0 is paid 1 for a Network Ride on Chip Fab"].group == "Deal 1 of 12"
    assert by_text["Seat 2 discards Cash 3 face-up and draws a blind card"].group == "Deal 2 of 12"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_groups_run_deal_1_to_12_then_the_end_and_the_last_line_is_the_result(players):
    state = random_finished(players, seed=players)
    lines = narrate(state.public_observation())
    groups = list(dict.fromkeys(line.group for line in lines))
    assert groups == [f"Deal {k} of 12" for k in range(1, 13)] + ["End of the game"]
    assert [line.index for line in lines] == list(range(len(lines)))
    last = lines[-1].text
    assert last.startswith("Game over after the 12th Deal: ") and "[" not in last
    bonus = [line for line in lines if line.group == "End of the game"][:-1]
    assert [line.seat for line in bonus] == list(range(players))
    assert all(re.fullmatch(r"Seat \d's Sector bonus: \+\d \(.*\)", b.text) for b in bonus)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_table_parts_add_up_and_decided_by_follows_r11(players):
    """R11: Deals + Rides + Locks + Sector bonus = Reputation for every
    seat (FinalTable refuses parts that do not add up), winners as the engine says, and
    the line that decided."""
    for seed in range(10):
        for options in OPTION_SETS:
            state = random_finished(players, seed, options)
            table = final_table(state.public_observation())
            assert table.columns == ("Deals", "Rides", "Locks", "Sector bonus")
            assert [r.total for r in table.rows] == state.returns()
            assert list(table.winners) == state.winners()
            info = state.info()
            for row in table.rows:
                p = row.seat
                assert row.parts[1:] == (
                    info["ride_points"][p],
                    info["lock_points"][p],
                    info["sector_bonus"][p],
                )
            assert table.decided_by.endswith(".")
            level = info["tiebreak"]
            if level is None:
                assert "with the most Reputation" in table.decided_by
            elif level == "shared":
                assert "share the win" in table.decided_by
            else:
                assert (
                    level.replace("_", " ").replace("sectors", "Sectors").replace("deals", "Deals")
                    in table.decided_by
                )


def test_decided_by_names_each_tiebreak_level():
    """R11: most Sectors locked, then most Deals won, then shared."""
    locked = _finishlast_deal([4, 5, 0], [[1, 0, 1, 0], [0, 2, 0, 0], [0] * 4])
    table = final_table(locked.public_observation())
    assert table.columns[0] == "Before" and table.rows[0].parts == (4, 0, 0, 0, 2)
    assert table.decided_by == (
        "Seat 0 and Seat 1 tie on 6 Reputation; Seat 1 wins on most Sectors locked (0, 1)."
    )
    shared = _finishlast_deal([5, 5, 0], [[0] * 4, [0] * 4, [0] * 4])
    assert final_table(shared.public_observation()).decided_by == (
        "Seat 0 and Seat 1 tie on 5 Reputation, Sectors locked (0) and Deals won (0): "
        "Seat 0 and Seat 1 share the win."
    )


def test_final_table_before_the_end_says_the_game_is_not_over():
    s = build()
    table = final_table(s.observation(0))
    assert table.decided_by == "The game is not over." and table.winners == ()


@pytest.mark.parametrize("players", [2, 4])
def test_the_story_is_public_and_names_no_hidden_card(players):
    """Every seat and a spectator read the same story (it is built from the public log
    only); no line names a hidden card id, and a blind draw's card is never named."""
    game = load_game("runway", players=players)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            label = state.action_to_string(action)
            before = set(state.hands[seat])
            seen = len(state.log)
            state.apply_action(action)
            public = narrate(state.public_observation())
            for p in range(players):
                assert narrate(state.observation(p)) == public
            text = json.dumps([line.to_json() for line in public])
            assert not set(re.findall(r"\brw\d\d\b", text)) & state.public_hidden_card_ids()
            if label.startswith("discard "):  # a blind draw: the new card stays unnamed
                for got in set(state.hands[seat]) - before:
                    name = capital_name(state.cards, got)
                    assert not any(name in line.text for line in public[seen:]), name


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31 - 1),
    options=st.sampled_from(OPTION_SETS),
)
def test_story_and_final_table_properties(players, seed, options):
    """Property: in any finished random game the story reads as sentences, its groups
    run Deal 1..12 of 12 in order then the end, every seat reads the public story, and
    the final table adds up to the returns with the engine's winners."""
    state = random_finished(players, seed, options)
    public = narrate(state.public_observation())
    for line in public:
        assert_readable(line)
    numbers = [int(m[1]) for line in public if (m := re.match(r"Deal (\d+) of 12$", line.group))]
    assert numbers == sorted(numbers) and set(numbers) == set(range(1, 13))
    assert public[-1].group == "End of the game"
    for p in range(players):
        assert narrate(state.observation(p)) == public
    table = final_table(state.observation(0))
    assert [row.total for row in table.rows] == state.returns()
    assert list(table.winners) == state.winners()
