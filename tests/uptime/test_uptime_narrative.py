"""The story of an UPTIME game: every public event of the log has a
readable line, grouped by round, and the final table adds up and names the tie-break line that
decided (U17). Both are built from an observation only."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab.games.uptime import scoring, view
from cardlab.games.uptime.scenarios import act, arrange

SAMPLE_EVENTS = {
    "setup": {"seat": 2, "row": ["CPU", "Blade", "Cable", "Campus Helpdesk"]},
    "round": {"round": 3},
    "action": {"seat": 1, "action": "draw"},
    "got": {"seat": 1, "count": 1, "why": "draw", "wanted": 2},
    "twist": {"seat": 0, "card": "Power Surge"},
    "shortage_pending": {},
    "take": {"seat": 0, "material": "Copper", "source": "discard", "why": "Workstation"},
    "gone": {"seat": 0, "material": "Copper"},
    "nothing": {"seat": 0, "why": "Power Surge"},
    "claim": {
        "seat": 3,
        "card": "Motherboard",
        "card_kind": "component",
        "paid": ["Copper", "Polymer"],
        "slot": 2,
    },
    "reserve": {"seat": 1, "card": "Mainframe", "slot": 4},
    "unreserve": {"seat": 1, "card": "Mainframe"},
    "open": {"seat": 2, "card": "Campus Helpdesk", "bid": 1, "slot": 1},
    "raise": {"seat": 3, "bid": 2},
    "decline": {"seat": 0},
    "cannot_raise": {"seat": 1},
    "win": {"seat": 3, "card": "Campus Helpdesk", "price": 2, "paid": ["Silicon", "Silicon"]},
    "tower": {"seat": 0},
    "return": {"seat": 0, "card": "RAM"},
    "no_return": {"seat": 0},
    "sweep": {"seat": 0, "cards": ["Router", "Mainframe"]},
    "discard": {"seat": 1, "card": "Silicon", "limit": 6},  # lever hand_limit
    "trade_give": {"seat": 2, "card": "Copper"},  # lever trade_in
    "conveyor": {"card": "Router"},  # lever row_conveyor
    "reshuffle": {"count": 1},
    "refill": {"cards": ["Case"]},
    "skip_refill": {},
    "discard_top": {"card": "PSU"},
    "trigger": {"seat": 2, "reason": "milestone"},
    "stall": {},
    "cap": {"round": 100},
    "end": {"reason": "milestone"},
    "final": {
        "points": [
            {"computers": 5, "network": 0, "network_uncapped": 0, "contracts": 0, "leftovers": 0,
             "total": 5},
            {"computers": 0, "network": 0, "network_uncapped": 0, "contracts": 5, "leftovers": 0,
             "total": 5},
        ],
        "winner": 0,
        "tiebreak": "most_computers",
        "players": [
            {"computers": 1, "contracts": 0, "draw_pass_actions": 2},
            {"computers": 0, "contracts": 1, "draw_pass_actions": 2},
        ],
        "first_player": 1,
    },
}  # fmt: skip

BAD_GRAMMAR = re.compile(r"\b1 (cards|materials|points|Computers|Contracts)\b|\bpts\b|None|\{|_")


def _readable(text: str) -> None:
    assert text and text[0].isupper() and text.endswith("."), text
    assert not BAD_GRAMMAR.search(text), text


def test_every_event_kind_has_a_readable_line():
    """A readable line for every kind of public event (and no kind is forgotten)."""
    assert set(SAMPLE_EVENTS) == set(view.EVENT_KINDS)
    for kind, fields in SAMPLE_EVENTS.items():
        _readable(view.event_text({"kind": kind, **fields}))
    claim = view.event_text({"kind": "claim", **SAMPLE_EVENTS["claim"]})
    assert claim == "Seat 3 requisitions Motherboard from slot 2, paying Copper, Polymer."
    win = view.event_text({"kind": "win", **SAMPLE_EVENTS["win"]})
    assert (
        win == "Seat 3 wins the Contract Campus Helpdesk for 2 materials, paying Silicon, Silicon."
    )
    final = view.event_text({"kind": "final", **SAMPLE_EVENTS["final"]})
    assert "Seat 0 5 points (5 from Computers)" in final
    assert "Seats 0 and 1 tied on 5 points; Seat 0 has more Computers (1 against 0)" in final


def test_points_never_read_as_a_count_of_cards():
    """'5 pts (Computers 5, ...)' once read as five Computers; now the source follows."""
    pts = {"computers": 5, "network": 2, "network_uncapped": 2, "contracts": 0, "leftovers": 1,
           "total": 8}  # fmt: skip
    assert view.points_phrase(pts) == (
        "8 points (5 from Computers, 2 from Networks, 1 from leftover materials)"
    )
    assert view.points_phrase(dict.fromkeys(pts, 0) | {"total": 1}) == "1 point"


def _busy_game(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        busy = [a for a in legal if a > 1]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.85 else legal))
    return state


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31 - 1),
    sweep=st.booleans(),
    reshuffle=st.booleans(),
)
def test_narrative_covers_the_log_and_the_final_table_adds_up(players, seed, sweep, reshuffle):
    game = cardlab.load_game("uptime", players=players, row_sweep=sweep, supply_reshuffle=reshuffle)
    state = _busy_game(game, seed)
    for obs in (state.observation(seed % players), state.public_observation()):
        events, log = obs["events"], obs["log"]
        assert len(events) == len(log)
        assert {e["kind"] for e in events} <= set(view.EVENT_KINDS)
        lines = view.narrate(obs)
        # every event but the round markers (they name the group) has its own line
        assert [x.index for x in lines] == [i for i, e in enumerate(events) if e["kind"] != "round"]
        for line in lines:
            _readable(line.text)
            assert line.text == log[line.index]
            assert re.fullmatch(r"Setup|Round \d+|End", line.group), line.group
        assert lines[-1].text.startswith("Final scores:") and lines[-1].group == "End"
        table = view.final_table(obs)  # FinalTable itself refuses parts that do not add up
        assert [r.total for r in table.rows] == [float(x) for x in scoring.points(state)]
        for row in table.rows:
            assert sum(row.parts) == row.total
        assert list(table.winners) == state.winners()
        winner, level = scoring.rank(state)
        if level is None:
            assert table.decided_by == f"Seat {winner} wins on points"
        else:
            assert "tied on" in table.decided_by and f"Seat {winner} " in table.decided_by
        json.dumps([x.to_json() for x in lines] + [table.to_json()])


def _tied_game(**extra):
    """Seats 0 and 1 both on 5 points: a Computer against a Contract (U17)."""
    s = arrange(
        cardlab.load_game("uptime", players=3, supply_reshuffle=False),
        tableaus={0: ["Blade"], 1: ["Retail Checkout"]},
        supply_deck=[],
        **extra,
    )
    act(s, "Pass", "Pass", "Pass")  # a round with a dry Supply and no claim ends the game (U13)
    assert s.is_terminal()
    return s


def test_final_table_names_the_tie_break_that_decided():
    """U17: tied on points, the seat with more Computers wins; the table says so."""
    s = _tied_game()
    table = view.final_table(s.public_observation())
    assert table.columns == ("Computers", "Networks", "Contracts", "Leftovers")
    assert [r.parts for r in table.rows[:2]] == [(5.0, 0.0, 0.0, 0.0), (0.0, 0.0, 5.0, 0.0)]
    assert table.winners == (0,)
    assert (
        table.decided_by
        == "Seats 0 and 1 tied on 5 points; Seat 0 has more Computers (1 against 0)"
    )


def test_final_table_before_the_end_has_no_winner():
    s = cardlab.load_game("uptime", players=3).new_initial_state(1)
    table = view.final_table(s.observation(0))
    assert table.winners == () and "not over" in table.decided_by


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_narrative_reads_only_the_observation(seat):
    """narrate/final_table take the observation (the seat's or the public one), never the state,
    and the observation carries names, never a hidden card id."""
    s = _tied_game()
    obs = s.public_observation() if seat is None else s.observation(seat)
    text = json.dumps([x.to_json() for x in view.narrate(obs)])
    hidden = s.public_hidden_card_ids() if seat is None else s.hidden_card_ids(seat)
    assert not any(cid in text for cid in hidden)
    assert not re.search(r"\bup\d\d\b", json.dumps(obs["events"]))  # names, never card ids


def test_log_tells_reserves_auctions_reshuffles_and_reserve_clearing():
    """The public log names every event of a busy sequence, in order, as a person reads it."""
    g = cardlab.load_game("uptime", players=3)
    s = arrange(
        g,
        hands={0: ["Patch", "Silicon"], 1: ["Copper", "Copper"], 2: ["Polymer"]},
        tableaus={1: ["Tower"]},
        row=["CPU", "Hospital Records"],
        supply_deck=[],
    )
    act(s, "Reserve CPU")  # seat 0
    act(s, "Bid on Contract Hospital Records", "Open the bidding at 1")  # seat 1
    act(s, "Pay Copper")  # seat 1's payment: 1 of 2 materials (a public decision)
    act(s, "Draw")  # seat 2 (the others could not raise above 1)
    lines = [x.text for x in view.narrate(s.observation(2))]
    expected = [
        "Seat 0 reserves CPU (slot 1) with a Patch.",
        "Seat 1 opens an auction on the Contract Hospital Records (slot 2) at 1 material.",
        "Seat 2 cannot raise and passes.",
        "Seat 0 cannot raise and passes.",
        "Seat 1 wins the Contract Hospital Records for 1 material, paying Copper.",
        "Seat 2 chooses Draw.",
        "Seat 2 draws 2 cards.",
        "Seat 0's Patch on CPU is discarded (reservation over).",
    ]
    shown = [x for x in lines if x in expected]
    assert shown == expected, lines
    refill = [x for x in lines if x.startswith("The Build Row is refilled with ")]
    reshuffle = [x for x in lines if x.startswith("The Supply discard (")]
    assert len(refill) == 1 and len(reshuffle) == 1
    assert lines.index(reshuffle[0]) == lines.index("Seat 2 draws 2 cards.") - 1
