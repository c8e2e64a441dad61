"""The terminal tells the story from the seat's view."""

from __future__ import annotations

import io

from gamelist import asks_nothing, real_games
from rich.console import Console

import cardlab
import cardlab.terminal as terminal
from cardlab import story
from cardlab.agents import make_agent
from cardlab.core.narrative import FinalRow, FinalTable, NarrativeLine


def test_action_kinds_are_the_legal_ones_in_order():
    labels = ["Draw (take 2)", "Requisition Case", "Requisition RAM", "Pass (take 1)"]
    assert terminal.action_kinds(labels) == ["Draw", "Requisition", "Pass"]
    assert terminal.one_of(["Draw", "Requisition", "Pass"]) == "Draw, Requisition or Pass"
    assert terminal.one_of(["Pass"]) == "Pass"


def test_story_lines_are_grouped_by_deal_and_only_new_ones_are_shown():
    lines = [
        NarrativeLine(0, "Deal 1", "Seat 0 pitches Cash 3"),
        NarrativeLine(1, "Deal 1", "Seat 0 wins Seed Round for 3"),
        NarrativeLine(2, "Deal 2", "Deal flipped: Lab Grant"),
    ]
    assert [g for g, _ in story.grouped(lines)] == ["Deal 1", "Deal 2"]
    assert [line.index for line in story.since(lines, 1)] == [1, 2]
    out = io.StringIO()
    terminal.print_story(Console(file=out, width=80, color_system=None), lines, "Since")
    text = out.getvalue()
    assert text.index("Deal 1") < text.index("pitches Cash 3") < text.index("Deal 2")


def _play(game_name, monkeypatch, seed=4):
    info = cardlab.games.game_info(game_name)
    game = cardlab.load_game(game_name, players=min(max(3, info.min_players), info.max_players))
    out = io.StringIO()
    asked: list[int] = []
    real = terminal.prompt

    def counting(state, screen, console, read, clear):
        asked.append(len(state.legal_actions()))
        return real(state, screen, console, read, clear)

    monkeypatch.setattr(terminal, "prompt", counting)
    kinds = ("greedy", "random")
    bots = [
        None if s == 1 else make_agent(kinds[s % 2], seed=s + 1) for s in range(game.num_players)
    ]
    state = terminal.play_terminal(
        game,
        [1],
        bots,
        seed=seed,
        console=Console(file=out, width=140, color_system=None),
        read=lambda _: "2",
        clear=False,
    )
    return state, out.getvalue(), asked


def test_one_option_decisions_are_never_asked(monkeypatch):
    # every game the terminal can show (a game registered without a render module cannot)
    # (a game whose every move is forced, WAR, never asks: asks_nothing)
    for name in [
        g
        for g in real_games()
        if cardlab.games.game_info(g).module("render") and not asks_nothing(g)
    ]:
        state, text, asked = _play(name, monkeypatch)
        assert state.is_terminal() and asked
        assert min(asked) >= 2, f"{name}: a one-option decision was prompted"
        assert "You may " in text


def test_placements_are_shown_on_the_grid_and_named_by_position(monkeypatch):
    state, text, _ = _play("supercomputer", monkeypatch)
    assert "Where it can go" in text
    assert "<1>" in text and "<2>" in text
    # a candidate names its position and a neighbouring part
    assert any(
        " at (" in line
        and ("(left of" in line or "(right of" in line or "(above" in line or "(below" in line)
        for line in text.splitlines()
    )


def test_the_final_table_adds_up_and_says_what_decided(monkeypatch):
    final = FinalTable(
        columns=("Deals", "Rides"),
        rows=(FinalRow(0, "Seat 0", (5.0, 1.0), 6.0), FinalRow(1, "Seat 1", (4.0, 2.0), 6.0)),
        winners=(1,),
        decided_by="Tied on 6; most Sectors locked",
    )
    monkeypatch.setattr(story, "final_table", lambda game, obs: final)
    out = io.StringIO()
    game = cardlab.load_game("runway", players=2)
    state = game.new_initial_state(1)
    terminal.print_final(Console(file=out, width=100, color_system=None), state, 0)
    text = out.getvalue()
    assert "Winner: Seat 1" in text and "Decided by: Tied on 6" in text
    row = next(line for line in text.splitlines() if "Seat 1" in line and "winner" in line)
    assert [c for c in row.split() if c.isdigit()][-3:] == ["4", "2", "6"]


def test_words_narrow_a_long_list_and_a_single_match_is_taken():
    labels = ["trade Tech 1 for Bench Cash 2", "trade Tech 5 for Bench Cash 2", "skip the trade"]
    answers = iter(["tech", "zzz", "99", "skip"])
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    assert terminal.ask_choice(labels, lambda _: next(answers), console) == 2
    text = out.getvalue()
    assert " 1. trade Tech 1" in text and " 2. trade Tech 5" in text  # narrowed, numbers kept
    assert "No choice mentions 'zzz'" in text and "from 1 to 3" in text


def _nine_part_final() -> FinalTable:
    columns = tuple(f"R{r} {part}" for r in (1, 2, 3) for part in ("parts", "scrap", "build"))
    rows = tuple(
        FinalRow(
            seat, f"Seat {seat}", tuple(float(seat + i) for i in range(9)), float(9 * seat + 36)
        )
        for seat in range(3)
    )
    return FinalTable(columns, rows, winners=(2,), decided_by="points")


def test_final_table_turns_on_its_side_when_the_terminal_is_narrow():
    """At 80 columns SUPER COMPUTER's nine score parts would be cut to "pa…": the table
    then has one column per seat, and every heading reads in full; a wide terminal keeps
    one column per part."""
    final = _nine_part_final()
    for width, by_seat in ((80, True), (200, False)):
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None)
        console.print(terminal.fitting_final_table(console, final, you=0))
        text = out.getvalue()
        assert "…" not in text
        assert all(column in text for column in final.columns)
        assert "Seat 2 ★ winner" in text and "Seat 0 (you)" in text
        header = next(line for line in text.splitlines() if "Seat 2 ★ winner" in line)
        # by seat: the seats share the heading line; by part: each seat has its own row
        assert ("Seat 1" in header) is by_seat
