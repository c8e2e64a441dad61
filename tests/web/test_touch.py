"""Every game played to the end at 1280x900 and 390x844 by
touching cards only (a lit card, its target, Confirm; a marked cell; the decision bar's
Draw/Pass), one human seat against quick bots, with screenshots under artifacts/board/."""

from __future__ import annotations

import random

import pytest
from browser import (
    TOUCH_STATE_JS,
    layout_problems,
    settle_frame,
    touch_one_move,
)
from test_browser import GAMES, players_for

BOARD = __import__("browser").ARTIFACTS.parent / "board"
BOARD.mkdir(parents=True, exist_ok=True)
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def open_table(browser, server, game: str, size: str, errors: list[str]):
    """Seat 0 a human, the others quick bots (greedy, random), at the smallest count."""
    players = players_for(game, 2)
    bots = [{"kind": "bot", "agent": ("greedy", "random")[i % 2]} for i in range(players - 1)]
    made = server.create(
        game=game, players=players, bot_delay=0, seats=[{"kind": "human", "name": "Ada"}, *bots]
    )
    phone = size == "phone"
    ctx = browser.new_context(
        viewport=SIZES[size], device_scale_factor=1, is_mobile=phone, has_touch=phone
    )
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.seat_url(made, 0))
    return ctx, page


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_played_by_touching_cards(browser, server, game, size):
    errors: list[str] = []
    ctx, page = open_table(browser, server, game, size, errors)
    rng = random.Random(f"{game}-{size}")
    ways: dict[str, int] = {}
    shots = 0
    offered = 0
    for step in range(1500):
        settle_frame(page)
        if page.is_visible("#final"):
            break
        if step in (2, 9):
            page.screenshot(path=str(BOARD / f"{size}-{game}-touch-{step}.png"))

        def shot(state, step=step):
            nonlocal shots
            kind = "confirm" if state["confirm"] else "selected"
            if shots < 4 and not (BOARD / f"{size}-{game}-{kind}-{step}.png").exists():
                page.screenshot(path=str(BOARD / f"{size}-{game}-{kind}-{step}.png"))
                shots += 1

        offered += bool(page.evaluate(TOUCH_STATE_JS)["touchable"])
        on_board = ways.get("card", 0) + ways.get("cell", 0)
        how = touch_one_move(page, rng, tap=size == "phone", shot=shot, prefer_board=not on_board)
        ways[how] = ways.get(how, 0) + 1
        if step < 6:
            assert layout_problems(page) == [], f"after {step} moves"
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("#final:not([hidden])")
    page.screenshot(path=str(BOARD / f"{size}-{game}-touch-final.png"))
    # every move was made on the board: cards, cells or the decision bar, never the list;
    # a card or cell was touched whenever one was ever offered (a short game may offer none)
    assert sum(ways.values()) > 3, ways
    assert ways.get("card", 0) + ways.get("cell", 0) > 0 or not offered, (ways, offered)
    assert "win" in page.text_content(".winner-line")
    assert page.locator(".card.touchable").count() == 0  # nothing lit once it is over
    assert page.is_hidden("#tray")
    assert not errors, errors
    ctx.close()


def test_supercomputer_marks_where_each_hand_card_fits(browser, server):  # noqa: F811
    """The cells the page marks for a part (S4 read from the cards it holds) are the cells
    the engine offers when that part is placed; while picking, pointing at a hand card
    marks its cells on your computer and each hand card says how many spots it fits."""
    errors: list[str] = []
    ctx, page = open_table(browser, server, "supercomputer", "desktop", errors)
    rng = random.Random(7)
    compared = hovered = 0
    for _ in range(400):
        settle_frame(page)
        if page.is_visible("#final") or (compared >= 3 and hovered >= 2):
            break
        got = page.evaluate(
            """() => {
              const v = T.view, me = v.obs.players[v.you], hooks = GameViews.hooks.supercomputer;
              const cell = /at \\((-?\\d+),\\s*(-?\\d+)\\)/;
              const offered = v.legal.map((m) => cell.exec(m.label)).filter(Boolean).map((m) => `${m[1]},${m[2]}`);
              const marked = me.placing ? hooks.hints(me.placing, v).map((c) => `${c.x},${c.y}`) : [];
              return { offered: offered.sort(), marked: marked.sort(), placing: !!me.placing,
                       pick: v.legal.some((m) => m.label.startsWith('pick ')), parts: me.computer.length };
            }"""
        )
        if got["placing"] and got["offered"]:
            assert got["marked"] == got["offered"], got
            compared += 1
        elif got["pick"] and got["parts"] and hovered < 2:
            cards = page.locator("#hand .card.touchable")
            k = rng.randrange(cards.count())
            name = cards.nth(k).get_attribute("data-name")
            cards.nth(k).hover()
            want = page.evaluate(
                """(name) => {
                  const card = T.view.obs.you.hand.find((c) => c.name === name);
                  return GameViews.hooks.supercomputer.hints(card, T.view).length;
                }""",
                name,
            )
            assert page.locator("#mine .grid .hint").count() == want, name
            badges = page.locator("#hand .badge").all_text_contents()
            assert len(badges) == page.locator("#hand .card").count(), badges
            assert all("fits" in b for b in badges), badges
            if want:
                page.screenshot(path=str(BOARD / "desktop-supercomputer-hints.png"))
            hovered += 1
        touch_one_move(page, rng, tap=False)
    assert compared >= 3 and hovered >= 2, (compared, hovered)
    assert not errors, errors
    ctx.close()
