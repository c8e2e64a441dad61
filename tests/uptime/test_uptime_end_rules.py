"""U13's ends say what they do and end only stuck games (docs/rules/uptime.md,
"How it ends" and "U13 under the recycling levers").

- U13: a round is dry only if the Supply was dry at its start *and* no card was drawn
  from the Supply Deck during it (a trade-in can refill the discard that a Draw then
  reshuffles and draws from).
- Under the recycling levers (hand_limit, trade_in, pass_cards=0) a round is idle only
  if no card left the Build Row and no card came from the Supply Deck before it first ran
  out: three idle rounds in a row end the game. Opening rounds, in which seats draw the
  fresh deck, are never idle."""

from __future__ import annotations

import cardlab
from cardlab.agents import make_agent, play_game
from cardlab.games.uptime.rules import UptimeGame
from cardlab.games.uptime.scenarios import act, arrange
from cardlab.games.uptime.state import DREW_FRESH, IDLE_STALL_ROUNDS, UptimeState


def test_the_two_player_trade_in_game_is_not_ended_while_seats_draw_the_deck() -> None:
    # U13 (recycling levers): the game that used to stall after round 3, 8 cards left
    game = cardlab.load_game("uptime", players=2, trade_in=10)
    rounds: list[tuple[int, int]] = []

    def watch(state, seat, action):  # type: ignore[no-untyped-def]
        rounds.append((state.round, len(state.supply)))

    result = play_game(game, [make_agent("greedy", seed=i) for i in range(2)], 1, watch)
    assert result.info["rounds"] > 3
    # every round up to the deck's end drew from it, so none was idle; it then stalled
    # by U13 as written: the Supply Deck and its discard empty, and no card left the Row
    assert result.info["end_reason"] == "stall" and result.info["supply_left"] == 0
    assert [size for r, size in rounds if r <= 3] and all(size > 0 for r, size in rounds if r <= 3)


def _round_start(s: UptimeState) -> UptimeState:
    """The arranged position as a round's start: Supply dry or not, nothing drawn yet."""
    s.supply_empty_round = s.supply_dry()
    s.supply_drawn = 0
    return s


def _fresh_passing(players: int = 2) -> UptimeGame:
    return cardlab.load_game("uptime", players=players, pass_cards=0)


def test_rounds_in_which_nobody_takes_a_card_are_idle() -> None:
    # U13 (recycling levers): pass_cards=0, the Row frozen, everyone passes: stuck
    game = _fresh_passing()
    s = _round_start(arrange(game, row=["Mainframe"]))
    assert s.supply and not s.supply_ran_dry
    for _ in range(IDLE_STALL_ROUNDS - 1):
        act(s, "Pass", "Pass")
        assert not s.is_terminal()
    act(s, "Pass", "Pass")
    assert s.is_terminal() and s.info()["end_reason"] == "stall"
    assert s.supply  # it ended with cards in the Supply Deck: nobody would take one


def test_a_round_that_draws_from_the_fresh_deck_is_not_idle() -> None:
    # U13 (recycling levers): one Draw from the unspent deck each round keeps it going
    game = _fresh_passing()
    s = _round_start(arrange(game, row=["Mainframe"]))
    for _ in range(IDLE_STALL_ROUNDS + 1):
        act(s, "Draw", "Pass")
        assert not s.is_terminal() and s.idle_rounds == 0
    assert not s.supply_ran_dry


def test_once_the_deck_ran_out_recycled_draws_are_idle() -> None:
    # U13 (recycling levers): hand_limit recycles materials through the discard; after
    # the Supply Deck first ran out, drawing them back is circling, not progress
    game = cardlab.load_game("uptime", players=2, hand_limit=2)
    hands = {0: ["Silicon", "Copper"], 1: ["Polymer", "Copper"]}
    s = _round_start(arrange(game, hands=hands, row=["Mainframe"], supply_deck=["Silicon"]))
    act(s, "Draw")  # the last fresh card: the deck runs out
    assert s.supply_ran_dry and s.supply_drawn & DREW_FRESH
    while s.decision_kind() != "turn" or s.current_player() != 1:
        s.apply_action(s.legal_actions()[0])  # discard down to the limit
    while not s.is_terminal() and s.round < 10:
        legal = s.legal_actions()
        if s.decision_kind() == "turn":
            act(s, "Draw")
        else:
            s.apply_action(legal[0])
    assert s.is_terminal() and s.info()["end_reason"] == "stall"
    # round 1 drew fresh; rounds 2-4 only drew what discards had recycled
    assert s.round == 1 + IDLE_STALL_ROUNDS


def test_u13_a_round_that_draws_from_a_refilled_supply_is_not_dry() -> None:
    # U13: the round begins dry; a trade-in puts materials on the discard; a Draw then
    # reshuffles them and draws: a card came from the Supply Deck, so no stall
    game = cardlab.load_game("uptime", players=2, trade_in=2)
    hands = {0: ["Silicon", "Silicon", "Copper"], 1: ["Polymer", "Polymer"]}
    s = arrange(game, hands=hands, row=["Mainframe"], supply_deck=[])
    s.supply_discard.clear()  # every other material out of the game: dry
    s = _round_start(s)
    assert s.supply_empty_round
    act(s, "Trade")
    while s.current_player() == 0 and s.decision_kind() != "turn":
        s.apply_action(s.legal_actions()[0])  # give two, take one back from the discard
    assert s.supply_discard, "the trade left a material on the discard"
    act(s, "Draw")  # seat 1: reshuffles the discard and draws; the round ends
    assert not s.is_terminal() and s.round == 2  # not a stall round
    # the next round begins dry again and nobody can draw: U13 as written ends it
    act(s, "Pass", "Pass")
    assert s.is_terminal() and s.info()["end_reason"] == "stall" and s.round == 2


def test_the_rule_is_named_by_every_lever_that_turns_it_on() -> None:
    game = cardlab.load_game("uptime", players=3)
    specs = {spec.name: spec for spec in game.option_specs}
    for name in ("hand_limit", "trade_in", "pass_cards"):
        spec = specs[name]
        text = f"{spec.doc} {spec.lever.says if spec.lever else ''}"
        assert "idle" in text and "U13" in text, name
