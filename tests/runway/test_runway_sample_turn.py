"""R12: the rulebook's sample turn plays out exactly as printed."""

import json

from cardlab.games.runway.scenarios import SAMPLE_SCRIPT, play_script, sample_turn_state


def test_r12_sample_turn_plays_out_as_printed():
    """R12 / sample turn: Bo pitches Network 3; Cam passes and trades toward a Cash 7;
    Ana pitches Network 7 and wins Conference Badge for 3 with a Social Foothold;
    Board Seat comes forward and Cam's Cash 7 wins it for 4 - 1 = 3."""
    s = sample_turn_state()
    ana, bo, cam = 0, 1, 2
    cards = s.cards
    assert s.observation(ana)["deal_in_play"]["name"] == "Conference Badge"
    assert s.observation(ana)["next_deal"]["name"] == "Board Seat"
    assert s.pitch_order == [bo, cam, ana]
    play_script(s, SAMPLE_SCRIPT[:4])
    badge = cards.deal_index("Conference Badge")
    assert s.deal_rewards[badge] == 3 and s.reputation == [3, 0, 0]
    assert s.footholds[ana][1] == 1  # Social
    assert s.observation(cam)["deal_in_play"]["name"] == "Board Seat"
    assert s.pitch_order[-1] == cam  # fewest Reputation (tied with Bo), furthest clockwise from Ana
    play_script(s, SAMPLE_SCRIPT[4:])
    board = cards.deal_index("Board Seat")
    assert s.deal_rewards[board] == 4 - 1 == 3
    assert s.reputation == [3, 0, 3] and s.footholds[cam][1] == 1
    log = [e["text"] for e in s.observation(bo)["log"]]
    assert "Seat 0 wins Conference Badge with Network 7 for 3 (score 3)" in log
    assert "Seat 2 wins Board Seat with Cash 7 for 3 (score 4, -1 Cash outside FinTech)" in log
    assert "Seat 0 places a Foothold in Social" in log
    assert s.info()["acquired"] == [["Conference Badge"], [], ["Board Seat"]]


def test_sample_turn_state_is_a_proper_state():
    """The builder places all 54 cards once and keeps hands hidden."""
    s = sample_turn_state()
    ids = [i for z in s.zones().values() for i in z]
    assert len(ids) == len(set(ids)) == 54
    text = json.dumps(s.observation(1))
    for cid in s.hidden_card_ids(1):
        assert f'"{cid}"' not in text
