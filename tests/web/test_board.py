"""The board: when a decision of yours is asked, the cards it is about are on screen
at 1280x900 and at 390x844: every card a legal move's description names (in your hand,
on the shared table, in your seat, and the cards of yours that can pay for it), the
Deal in play for a RUNWAY pitch, every cell you may place a SUPER COMPUTER part on and
your build cards (browser.py's
DECISION_OUT_OF_VIEW_JS). Moves are made with the button list, which works on any
version of the page, so the same test judges the table before the board (it fails there:
the cards sat below the move buttons, screens down on a phone)."""

from __future__ import annotations

import contextlib
import random

import pytest
from browser import decision_out_of_view, layout_problems, settle_frame
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_browser import GAMES
from test_touch import BOARD, SIZES, open_table

DECISIONS = 14
"""Decisions of the human seat judged per game and size (a few deals or rounds in)."""
LATER = {"supercomputer": 36}
"""Games judged further in: SUPER COMPUTER's computer is largest at a round's end (seven
parts, up to five rows), so its case runs into the second round."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_cards_a_decision_is_about_are_in_view(browser, server, game, size):
    errors: list[str] = []
    ctx, page = open_table(browser, server, game, size, errors)
    rng = random.Random(f"view-{game}-{size}")
    judged, problems, seen, shots = 0, [], set(), set()
    wanted = LATER.get(game, DECISIONS)
    for _ in range(15 * wanted):
        settle_frame(page)
        if page.is_visible("#final") or judged >= wanted:
            break
        page.wait_for_timeout(50)  # the frame's draw has run (the wait saw its buttons)
        with contextlib.suppress(PlaywrightTimeout):  # cards flying to their place have landed
            page.wait_for_function(
                "document.getAnimations().every((a) => a.playState !== 'running')", timeout=3000
            )
        seq = page.evaluate("T.view.seq")
        # judged when it is asked (a second look at the same decision is after the
        # player scrolled to the list, e.g. RUNWAY's two-step trade)
        off = decision_out_of_view(page) if seq not in seen else None
        seen.add(seq)
        if off is not None:
            judged += 1
            if off:
                problems.append((seq, off))
                if len(problems) == 1:
                    page.screenshot(path=str(BOARD / f"{size}-{game}-out-of-view.png"))
            if "pay" not in shots and page.is_visible("#tray .pay-note"):
                shots.add("pay")  # to look at: the bar naming what you can pay with
                page.screenshot(path=str(BOARD / f"{size}-{game}-pay-note.png"))
            if judged in (DECISIONS, wanted - 2):  # to look at: a few rounds in, and late
                page.screenshot(path=str(BOARD / f"{size}-{game}-decision-{judged}.png"))
        buttons = page.locator("#moves .move:not([disabled])")
        n = buttons.count()
        if n:
            try:
                buttons.nth(rng.randrange(n)).click(timeout=3000)
            except Exception:  # the page took a forced move or a new frame came first
                continue
        with contextlib.suppress(PlaywrightTimeout):  # a secret pick waits for the others
            page.wait_for_function(
                f"T.view.seq !== {seq} || !!document.querySelector('#final:not([hidden])')",
                timeout=5000,
            )
    assert judged >= 3, judged
    assert not problems, problems
    assert layout_problems(page) == []
    assert not errors, errors
    ctx.close()


def test_a_game_that_declares_no_board_gets_the_generic_one(browser, server):
    """A plugin without view hooks: every top-level key holding cards is the shared
    centre, scalars are its chips, the rest goes under "More of the table"; a move names
    its cards by the ids of its description (`does`), never by its label's words, and the
    page tells an id by the name the observation gives it."""
    errors: list[str] = []
    ctx, page = open_table(browser, server, GAMES[0], "desktop", errors)
    settle_frame(page)
    got = page.evaluate(
        """() => {
          const obs = { game: 'no_such_game', num_players: 2, current_player: 0,
            river: [{ id: 'n1', name: 'Ace' }, { id: 'n2', name: 'Big Ace' }],
            row: [{ slot: 0, card: { id: 'n3', name: 'Ace' } }, { slot: 1, card: { id: 'n4', name: 'King' } }],
            pot: 3, notes: { a: { b: 1 } } };
          const front = document.createElement('div'), root = document.createElement('div');
          renderPublic(obs, root, front);
          return {
            shared: [...front.querySelectorAll('.panel[data-key]')].map((p) => p.dataset.key),
            chips: front.querySelector('.table-facts') ? front.querySelector('.table-facts').textContent : '',
            more: [...root.querySelectorAll('.panel[data-key]')].map((p) => p.dataset.key),
            ids: moveIds({ label: 'take Big Ace and Ace', does: { kind: 'take', cards: ['n2'], alternatives: ['n1'], targets: ['n3'] } }),
            names: ['n2', 'n1', 'n3', 'zz'].map((id) => cardName(obs, id)),
            plain: moveIds({ label: 'take Big Ace' }),
          };
        }"""
    )
    assert got["shared"] == ["river", "row"], got
    assert "Pot" in got["chips"], got
    assert got["more"] == ["notes"], got
    assert got["ids"] == ["n2", "n1", "n3"], got
    assert got["names"] == ["Big Ace", "Ace", "Ace", "zz"], got
    assert got["plain"] == [], got
    assert not errors, errors
    ctx.close()
