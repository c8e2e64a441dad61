"""The terminal screen fits the terminal: every line of a whole game,
at 80 and at 60 columns, is no wider than the terminal and never splits a card's name
across two lines; SUPER COMPUTER prints the key to its connector letters (once, and on
`?`) and draws each part as a box; RUNWAY's trade is grouped by Bench card and pile with
each option's number unchanged."""

from __future__ import annotations

import importlib
import io
import random

import pytest
from rich.console import Console

import cardlab
import cardlab.terminal as terminal
from cardlab.agents import make_agent
from cardlab.games import game_info

GAMES = ("uptime", "runway", "supercomputer")


def card_names(game_name: str) -> set[str]:
    """Every card name of the game, from its own card data (cards.deck_names)."""
    cards = importlib.import_module(f"{game_info(game_name).package}.cards")
    return {n for n in cards.deck_names(cardlab.load_game(game_name).cards) if " " in n}


def play(game_name: str, width: int, monkeypatch: pytest.MonkeyPatch, answers=None):  # type: ignore[no-untyped-def]
    """One whole game at `width` columns, the human in seat 1 choosing at random
    (or from `answers` first); returns the screen's lines."""
    monkeypatch.setenv("COLUMNS", str(width))
    info = game_info(game_name)
    players = min(max(3, info.min_players), info.max_players)
    game = cardlab.load_game(game_name, players=players)
    out = io.StringIO()
    pick = random.Random(7)
    queue = list(answers or [])
    shown: list[int] = []
    real = terminal.prompt

    def counting(state, screen, console, read, clear):  # type: ignore[no-untyped-def]
        shown.append(len(state.legal_actions()))
        return real(state, screen, console, read, clear)

    monkeypatch.setattr(terminal, "prompt", counting)

    def read(_: str) -> str:
        return queue.pop(0) if queue else str(pick.randint(1, shown[-1]))

    bots = [make_agent("random", seed=s) if s != 1 else None for s in range(players)]
    terminal.play_terminal(
        game,
        [1],
        bots,
        seed=5,
        console=Console(file=out, width=width, color_system=None),
        read=read,
        clear=False,
    )
    return out.getvalue().splitlines()


def split_names(lines: list[str], names: set[str]) -> list[str]:
    """Card names broken across two consecutive lines."""
    broken = []
    for a, b in zip(lines, lines[1:], strict=False):
        head, tail = a.rstrip(), b.lstrip()
        if not head or not tail:
            continue
        joined = f"{head} {tail}"
        for name in names:
            at = joined.find(name)
            while at != -1:
                if at < len(head) < at + len(name):
                    broken.append(f"{name!r}: {a!r} / {b!r}")
                at = joined.find(name, at + 1)
    return broken


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_game_fits_the_terminal_and_keeps_every_card_name_whole(
    game_name: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = play(game_name, width, monkeypatch)
    assert len(lines) > 50, "a whole game was shown"
    too_wide = [line for line in lines if len(line) > width]
    assert not too_wide, too_wide[:5]
    assert not split_names(lines, card_names(game_name))[:5]


def test_supercomputer_prints_its_key_once_and_on_question_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = play("supercomputer", 80, monkeypatch, answers=["?", "1"])
    keys = [i for i, line in enumerate(lines) if line.startswith("Key: a box is a part")]
    assert len(keys) == 2, "once at the first prompt, once more for '?'"
    text = "\n".join(lines)
    assert "K black" in text and "P purple" in text and "bare edge" in text
    assert "┌───" in text and "└───" in text, "parts are drawn as boxes"


def test_supercomputer_boxes_show_type_size_and_connectors() -> None:
    from cardlab.games.supercomputer.render import grid_lines

    part = {
        "type": "GPU",
        "size": "24 GB",
        "name": "24 GB GPU",
        "four_way": False,
        "edges": {"N": "black", "E": "red", "S": "none", "W": "blue"},
    }
    lines = grid_lines([{"x": 0, "y": 0, "card": part}], width=80)
    plain = [Console(width=80, color_system=None).render_str(line).plain for line in lines]
    assert plain[1:] == ["     ┌───K───┐", "   0 B  GPU  R", "     │ 24 GB │", "     └───────┘"]
    rows = grid_lines([{"x": x, "y": 0, "card": part} for x in range(6)], width=60)
    assert len(rows) == 6 and "row 0, column 5: 24 GB GPU" in rows[-1], "too wide: rows of cells"


def test_runway_trade_is_grouped_by_bench_card_and_pile_with_its_numbers() -> None:
    from cardlab.games.runway.render import choice_groups

    labels = [
        f"trade {give} for Bench {take}"
        for give in ("Cash 1", "Tech 2", "Tech 6")
        for take in ("Network 3", "Talent 1", "Cash 4")
    ]
    labels += [f"discard {give} and draw blind" for give in ("Cash 1", "Tech 2", "Tech 6")]
    labels.append("skip the trade")
    groups = choice_groups(labels)
    assert groups is not None
    assert [h for h, _ in groups] == [
        "Take Network 3 from the Bench",
        "Take Talent 1 from the Bench",
        "Take Cash 4 from the Bench",
        "Draw blind from the pile (your card goes face-up to the discard)",
        "Or",
    ]
    numbered = sorted(i for _, items in groups for i, _ in items)
    assert numbered == list(range(len(labels))), "every option once, by its own number"
    assert groups[0][1] == [(0, "give Cash 1"), (3, "give Tech 2"), (6, "give Tech 6")]
    assert groups[-1][1] == [(12, "skip the trade")]
    assert choice_groups(["pitch Cash 3", "pass"]) is None


def runway_trade_state():  # type: ignore[no-untyped-def]
    """A RUNWAY position where seat 1 trades with more than eight options."""
    game = cardlab.load_game("runway", players=3)
    rng = random.Random(1)
    for seed in range(50):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == 1 and state.decision_kind() == "trade" and len(legal) > 8:
                return state
            state.apply_action(rng.choice(legal))
    raise AssertionError("no RUNWAY trade with more than eight options in 50 deals")


def test_runway_trade_on_screen_is_grouped_and_typed_numbers_pick_the_same_move() -> None:
    import re

    state = runway_trade_state()
    legal = state.legal_actions()
    out = io.StringIO()
    screen = terminal.SeatScreen("runway", 1)
    console = Console(file=out, width=80, color_system=None)
    typed: list[str] = []

    def read(_: str) -> str:
        lines = out.getvalue().splitlines()
        start = max(i for i, line in enumerate(lines) if "your decision" in line)
        heading = next(line for line in lines[start:] if "from the Bench:" in line)
        choice = lines[lines.index(heading) + 1]
        m = re.search(r"(\d+)\. give (.+?)(?:  |$)", choice)
        assert m, choice
        take = heading.strip().removeprefix("Take ").removesuffix(" from the Bench:")
        typed.append(f"trade {m[2]} for Bench {take}")
        return m[1]

    action = terminal.prompt(state, screen, console, read, clear=False)
    assert action in legal and state.action_to_string(action) == typed[0]
    text = out.getvalue()
    assert "Draw blind from the pile" in text
    assert not re.search(r"^\s*\d+\. trade ", text, re.M), "no flat list of trades"


def test_fit_line_breaks_at_card_boundaries_and_indents_under_the_head() -> None:
    line = "Your hand: Cash 7 (solid)  Network 3 (dashed)  Talent 1 (double)  Tech 4 (dotted)"
    assert terminal.fit_line(line, 40) == [
        "Your hand: Cash 7 (solid)",
        "           Network 3 (dashed)",
        "           Talent 1 (double)",
        "           Tech 4 (dotted)",
    ]
    assert terminal.fit_line("short", 40) == ["short"]
