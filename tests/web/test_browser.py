"""Humans at the browser table (headless Debian Chromium via Playwright)."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from importlib.metadata import entry_points

import pytest
from browser import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    Server,
    click_until_over,
    layout_problems,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardlab.games import ENTRY_POINT_GROUP, game_info
from cardlab.web.catalog import installed_games

SHELF_IN_BROWSER = ("hearts",)
"""The reference shelf's one game in the browser tests: HEARTS, four seats and fewest
points win. The other shelf games pass the same engine contract, their table frames are
tested without a browser (test_play's hidden frames), and a browser case per game and
size would more than double the suite's time."""

GAMES = [
    g
    for g in installed_games()
    if g in {e.name for e in entry_points(group=ENTRY_POINT_GROUP)}
    and (not game_info(g).package.startswith("cardlab_shelf") or g in SHELF_IN_BROWSER)
]
"""The installed games whose engine loads, found through the `cardlab.games` entry
points as the server process finds them (a game registered in this process only, like
the adapters' toy, is unknown to the server): the designs and `SHELF_IN_BROWSER`."""


def players_for(game: str, wanted: int) -> int:
    """`wanted` seats, or the nearest count the game's info allows."""
    cls = installed_games()[game]
    return min(max(wanted, cls.min_players), cls.max_players)


def human_and_bots(players: int, name: str | None = None) -> list[dict]:
    """Seat 0 a human (named `name`), the others greedy and random bots in turn."""
    human = {"kind": "human", "name": name} if name else {"kind": "human"}
    bots = [{"kind": "bot", "agent": ("greedy", "random")[i % 2]} for i in range(players - 1)]
    return [human, *bots]


def two_player_game() -> str:
    """The first installed game that seats two (the tables of two humans)."""
    games = installed_games()
    return next(g for g in GAMES if games[g].min_players <= 2 <= games[g].max_players)


def settled(page) -> None:
    """Let every card image load before a screenshot, so it shows what a player sees.

    Card images load lazily (offscreen ones only when scrolled to), so they are switched
    to eager first; the wait is bounded because a screenshot is an artifact, not a check."""
    page.evaluate(
        "document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')"
    )
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=10_000)


def test_lobby_lists_the_games_and_creates_a_table_by_clicking(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url)
    page.wait_for_selector(".game")
    for name in GAMES:
        assert page.is_visible(f"#game-{name} .pitch")
    first = page.locator(".game").first
    first.locator("details.rules summary").click()
    page.wait_for_function("document.querySelector('.rules-body').textContent.length > 40")
    # The Rules pane is written for players; the designer's document is one click away.
    body = first.locator(".rules-body")
    assert "How to play" in body.text_content()
    assert body.locator("details.designer-rules summary").count() == 1
    # Options in words, the ruling only as a hint; no option code shown as a label.
    labels = first.locator("label.option").all_text_contents()
    assert labels and not any("_" in t.split(":")[0] for t in labels), labels
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
    first.locator("details.new-table > summary").click()  # set up by hand (Play is the default)
    first.locator("input[name=name0]").fill("Ada")
    first.locator("button[type=submit]").click()
    page.wait_for_selector("a.sit")
    page.click("a.sit")
    page.wait_for_selector("#title:has-text('you are seat 0')")
    page.wait_for_selector(".seat-card h3:has-text('Ada')")
    page.screenshot(path=str(ARTIFACTS / "lobby-new-table.png"), full_page=True)
    assert page.locator("#public .card, #upfront .card").count() > 0
    page.close()


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def open_seat(browser, server, game: str, size: str, name: str | None = None, errors=None):
    """A table of one human (seat 0, named `name`) and bots for 3 players (or the
    nearest count the game allows), opened at seat 0 in a new `size` context; page
    errors go to `errors`. Returns (context, page)."""
    players = players_for(game, 3)
    made = server.create(
        game=game, players=players, bot_delay=0, seats=human_and_bots(players, name)
    )
    phone = size == "phone"
    ctx = browser.new_context(
        viewport=SIZES[size],
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
    )
    page = ctx.new_page()
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.seat_url(made, 0))
    return ctx, page


def has_final_table(game: str) -> bool:
    from cardlab.games import game_info

    view = game_info(game).module("view")
    return view is not None and callable(getattr(view, "final_table", None))


def final_rows(page) -> list[dict]:
    """The final breakdown as the page shows it: per row the seat, parts and total."""
    return page.eval_on_selector_all(
        "table.scores tr[data-seat]",
        """rows => rows.map(r => ({
            seat: Number(r.dataset.seat),
            winner: r.classList.contains('winner'),
            parts: Array.from(r.querySelectorAll('td.part')).map(td => Number(td.textContent)),
            total: Number(r.querySelector('td.total').textContent),
        }))""",
    )


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.parametrize("game", GAMES)
def test_a_human_plays_a_whole_game_against_bots_by_clicking(browser, server, game, size):
    """Through the page only (clicks on the button list, the fallback, never the API), a
    whole game against two bots; the final table's parts add up to each seat's total and
    the page says who won. Screenshots of a decision and of the end go to artifacts/web/.
    At phone width whole games are played by touch (test_touch.py) and the list is
    clicked by test_the_table_is_usable_on_a_phone."""
    if not has_final_table(game):
        pytest.skip(f"{game} has no view.final_table yet (the breakdown cannot be checked)")
    players = players_for(game, 3)
    phone = size == "phone"
    errors: list[str] = []
    ctx, page = open_seat(browser, server, game, size, "Ada", errors)
    page.wait_for_selector(".move:not([disabled])")
    first_clicks = 0
    for _ in range(3):  # a few moves in, so the log has a story
        if page.is_visible("#final"):
            break
        page.locator(".move:not([disabled])").first.click()
        first_clicks += 1
        page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=20000)
    settled(page)
    page.screenshot(path=str(ARTIFACTS / f"{size}-{game}-play.png"), full_page=not phone)
    assert layout_problems(page) == []
    assert page.locator("#log li").count() > 0
    clicks = first_clicks + click_until_over(page)
    assert clicks > 0
    settled(page)
    page.locator("#final").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{size}-{game}-final.png"), full_page=not phone)
    page.screenshot(path=str(ARTIFACTS / f"{size}-{game}-final-full.png"), full_page=True)
    assert layout_problems(page) == []
    rows = final_rows(page)
    assert len(rows) == players and sorted(r["seat"] for r in rows) == list(range(players))
    columns = page.eval_on_selector_all("table.scores th", "ths => ths.map(t => t.textContent)")
    for row in rows:
        assert len(row["parts"]) == len(columns) - 4, (columns, row)  # Place, Seat, Total, note
        assert sum(row["parts"]) == pytest.approx(row["total"]), row
    frame = page.evaluate("T.view.final")
    assert {r["seat"]: r["total"] for r in rows} == {
        r["seat"]: r["total"] for r in frame["breakdown"]["rows"]
    }
    winners = [r["seat"] for r in rows if r["winner"]]
    assert winners and winners == sorted(frame["breakdown"]["winners"])
    # the winner line names each winner once, by name: "You win!", "greedy bot wins!"
    line = page.text_content(".winner-line")
    names = [s["name"] for s in page.evaluate("T.view.table.seats")]
    assert "win" in line and "(" not in line and "Seat" not in line, line
    for seat in winners:
        name = "You" if seat == 0 else names[seat]
        assert line.lower().count(name.lower()) == 1, line
    assert "Game over" in page.text_content("#await")
    assert page.text_content(".final .decided").startswith("Decided by")
    seed = page.evaluate("T.view.table.seed")  # shown once the game is over
    shown = page.text_content(".final .seed")
    assert seed and seed in shown and f"cardlab play {game} --players {players}" in shown
    # the log is told once, in sentences: its structured form is no panel of raw fields
    headings = page.eval_on_selector_all(".panel h3", "els => els.map(e => e.textContent)")
    assert not {"Events", "events"} & set(headings), headings
    assert not errors, errors
    page.click("text=Replay the game step by step")
    page.wait_for_selector(".replay-step:has-text('step 0 of')")
    page.click("text=Next ›")
    page.wait_for_selector(".replay-step:has-text('step 1 of')")
    ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_table_is_usable_on_a_phone(browser, server, game):
    """At 390x844: no sideways page scroll, moves inside the screen and clickable,
    cards at a readable size, SUPER COMPUTER grids shown whole or scrollable."""
    ctx, page = open_seat(browser, server, game, "phone")
    clicks = 0
    for _ in range(60):  # far enough into the game for grids, tableaux and deals
        if clicks == 14:
            break
        page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=20000)
        if page.is_visible("#final"):
            break
        assert layout_problems(page) == [], f"after {clicks} moves"
        buttons = page.locator(".move:not([disabled])")
        n = buttons.count()
        if not n:  # a new frame (a bot's move, a forced move) redrew the list meanwhile
            continue
        with contextlib.suppress(PlaywrightTimeout):
            buttons.nth(clicks % n).tap(timeout=3000)
            clicks += 1
    page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=20000)
    assert layout_problems(page) == []
    widths = page.eval_on_selector_all(
        ".card",
        "els => els.filter(e => !e.closest('.grid')).map(e => e.getBoundingClientRect().width)",
    )
    assert widths and min(widths) >= 60, widths
    name_px = page.eval_on_selector_all(
        ".card .name",
        "els => els.map(e => [parseFloat(getComputedStyle(e).fontSize), e.textContent,"
        " e.closest('.card').getBoundingClientRect().width, !!e.closest('.grid')])",
    )
    # Names read at 11px or more; in a computer grid's cells at 9px or more (a long
    # word is set smaller rather than broken; a tap enlarges the card).
    small = [n for n in name_px if n[0] < (9 if n[3] else 11)]
    assert not small, small
    page.screenshot(path=str(ARTIFACTS / f"phone-{game}.png"), full_page=True)
    # A tap on a card shows it large (its values readable); another tap closes it. A card
    # that is a move's (lit, `.touchable`) is chosen by its first tap and zoomed by its
    # second, so a plain card is tapped where there is one.
    plain = page.locator(
        "#hand .card:not(.touchable), #upfront .card:not(.touchable), #public .card:not(.touchable)"
    )
    if plain.count():
        plain.first.tap()
    else:
        lit = page.locator("#hand .card, #upfront .card, #public .card").first
        lit.tap()
        lit.tap()
    page.wait_for_selector("#zoom:not([hidden]) .card.zoomed")
    zoomed = page.eval_on_selector("#zoom .card.zoomed", "e => e.getBoundingClientRect().width")
    assert zoomed >= 250, zoomed
    page.screenshot(path=str(ARTIFACTS / f"phone-{game}-zoom.png"))
    page.locator("#zoom").tap()
    page.wait_for_selector("#zoom", state="hidden")
    if game == "supercomputer":
        # A computer 12 parts wide (drawn by the page's own renderGrid from set-aside
        # cards it was sent) scrolls inside its seat panel instead of being clipped.
        wide = page.evaluate(
            """() => {
              const cards = T.view.obs.set_aside;
              const cells = Array.from({ length: 12 }, (_, x) => ({ x, y: 0, card: cards[x % cards.length] }));
              const wrap = document.querySelector('#seats .grid-wrap, #mine .grid-wrap') || document.createElement('div');
              wrap.className = 'grid-wrap';
              wrap.replaceChildren(renderGrid(cells));
              document.querySelector('#seats .seat-card, #mine .seat-card').append(wrap);
              fitNames();
              return { scroll: wrap.scrollWidth, client: wrap.clientWidth };
            }"""
        )
        assert wide["scroll"] > wide["client"], wide
        assert layout_problems(page) == []
        # The name fitter keeps its floor whatever size a name starts at: in a grid cell
        # squeezed to 40px, a long one-word name stops at 9px and ends in an ellipsis.
        squeezed = page.evaluate(
            """() => {
              const card = T.view.obs.set_aside[0];
              const grid = renderGrid([{ x: 0, y: 0, card }]);
              grid.style.gridTemplateColumns = '40px';
              grid.querySelector('.card .name').textContent = 'Motherboardmotherboard';
              document.body.append(grid);
              fitNames(grid);
              const name = grid.querySelector('.card .name');
              const out = [parseFloat(getComputedStyle(name).fontSize), name.classList.contains('clip')];
              grid.remove();
              return out;
            }"""
        )
        assert squeezed == [9, True], squeezed
    ctx.close()


def card_names(game: str) -> list[str]:
    """Every distinct card name of the game's packaged cards (`cards.deck_names`)."""
    import importlib

    from cardlab.games import game_info, load_game

    module = importlib.import_module(f"{game_info(game).package}.cards")
    return sorted(set(module.deck_names(load_game(game).cards)))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_card_name_fits_its_card_in_whole_words(browser, server, game, size):
    """The deals of the other tests are random (a table's seed is secret), so they meet
    only some names: here every name of the game is set on a hand card and on a small
    card at this width, and must fit whole at 11px or more (9px is the grid's floor)."""
    ctx, page = open_seat(browser, server, game, size)
    # a hand card, or (a hand may be empty at a seat's first turn) any card in a row
    page.wait_for_selector(".card-row .card[data-id]")
    fitted = page.evaluate(
        """(names) => {
          const model = document.querySelector('#hand .card[data-id]')
            || document.querySelector('.card-row .card[data-id]');
          const out = [];
          for (const small of [false, true]) {
            for (const text of names) {
              const card = model.cloneNode(true);
              card.classList.toggle('small', small);
              const name = card.querySelector('.name');
              name.textContent = text;
              model.parentNode.append(card);
              fitNames(card.parentNode);
              out.push([text, small, parseFloat(getComputedStyle(name).fontSize),
                        name.scrollWidth <= name.clientWidth + 1]);
              card.remove();
            }
          }
          return out;
        }""",
        card_names(game),
    )
    bad = [f for f in fitted if not f[3] or f[2] < 11]
    assert not bad, bad
    ctx.close()


def hand_ids(page) -> set[str]:
    return set(
        page.eval_on_selector_all("#hand .card[data-id]", "els => els.map(e => e.dataset.id)")
    )


def test_two_humans_each_see_only_their_own_hand_and_survive_a_restart(browser, tmp_path):
    game = two_player_game()
    server = Server(tmp_path / "restart.db").start()
    made = server.create(
        game=game, players=2, bot_delay=0, seats=[{"kind": "human"}, {"kind": "human"}]
    )
    ctx = [browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(2)]
    pages = [c.new_page() for c in ctx]
    for seat, page in enumerate(pages):
        page.goto(server.seat_url(made, seat))
    for page in pages:
        page.wait_for_selector("#hand .card")
    hands = [hand_ids(p) for p in pages]
    assert hands[0] and hands[1] and not hands[0] & hands[1]
    for seat, page in enumerate(pages):
        html = page.content()
        for cid in hands[1 - seat]:
            assert not re.search(rf"\b{cid}\b", html), (
                f"seat {seat} page holds the other hand's {cid}"
            )

    def play(n: int) -> None:
        for _ in range(n):
            for page in pages:
                if page.locator(".move:not([disabled])").count():
                    page.locator(".move:not([disabled])").first.click()
                    page.wait_for_timeout(50)
                    break
            else:
                pages[0].wait_for_timeout(50)

    play(6)
    step_before = pages[0].text_content("#title")
    server.kill()
    for page in pages:
        page.wait_for_selector("#conn:has-text('reconnecting')")
    server.start()  # same port, same database
    for page in pages:
        page.wait_for_selector("#conn:has-text('connected')", timeout=15000)
    assert pages[0].text_content("#title") == step_before
    for _ in range(400):
        if pages[0].is_visible("#final") and pages[1].is_visible("#final"):
            break
        play(1)
    assert pages[0].is_visible("#final") and pages[1].is_visible("#final")
    server.kill()
    for c in ctx:
        c.close()


def test_links_without_a_token_or_with_a_wrong_one_say_what_to_do(browser, server):
    made = server.create(
        game=two_player_game(),
        players=2,
        bot_delay=0,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server.url}/t/{made['table']}")
    page.wait_for_selector(".await.refused")
    assert "invitation link" in page.text_content("#await")
    assert page.locator("#await a[href='/']").count() == 1
    page.close()
    page = browser.new_page(viewport=DESKTOP)  # a fragment change alone does not reload
    page.goto(f"{server.url}/t/{made['table']}#seat=0&token=not-the-key")
    page.wait_for_selector("#conn:has-text('refused')", timeout=10000)
    page.wait_for_selector(".await.refused")
    text = page.text_content("#await")
    assert "fresh invitation link" in text, text
    # The older query-string form of a link is refused: by the server
    # (400, the token would land in its log) and, should the page load anyway (a cache,
    # a proxy), by the page, which sends nothing and drops the query from the address.
    page.close()
    page = browser.new_page(viewport=DESKTOP)
    old = f"{server.url}/t/{made['table']}?seat=0&token={made['tokens']['seat0']}"
    answer = page.goto(old)
    assert answer is not None and answer.status == 400
    assert "after '#'" in page.text_content("body")
    html = urllib.request.urlopen(f"{server.url}/t/{made['table']}").read()
    page.route(old, lambda route: route.fulfill(status=200, body=html, content_type="text/html"))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(old)
    page.wait_for_selector(".await.refused")
    assert "no longer accepted" in page.text_content("#await")
    assert "token" not in page.url and sockets == []
    page.close()


def test_a_timer_move_and_an_offline_click_are_told(browser, tmp_path):
    game = two_player_game()
    server = Server(tmp_path / "polish.db").start()
    made = server.create(
        game=game,
        players=2,
        bot_delay=0,
        turn_seconds=3,
        seats=[{"kind": "human"}, {"kind": "human"}],
    )
    pages = [browser.new_page(viewport=DESKTOP) for _ in range(2)]
    for seat, page in enumerate(pages):
        page.goto(server.seat_url(made, seat))
    for page in pages:
        page.wait_for_selector("#title:has-text('you are seat')")

    def poll(check, seconds: float = 30.0):
        for _ in range(int(seconds * 10)):
            for page in pages:
                if check(page):
                    return page
            pages[0].wait_for_timeout(100)
        raise AssertionError("timed out")

    # Nobody clicks: each clock runs out and the page says a move was made for its seat.
    poll(lambda p: "Time ran out" in (p.text_content("#notice") or ""))
    # Offline: a click is kept and sent once the table is back.
    mover = poll(lambda p: p.locator(".move:not([disabled])").count() > 0)
    server.kill()
    mover.wait_for_selector("#conn:has-text('reconnecting')")
    # A move may take steps (RUNWAY's trade: "Give Cash 5", then "Take ..."); a
    # step only opens the next choice, so click until a whole move was chosen.
    for _ in range(4):
        mover.locator(".move:not([disabled])").first.click()
        if mover.evaluate("T.pending !== null"):
            break
    mover.wait_for_selector("#notice:has-text('offline')")
    server.start()
    mover.wait_for_selector("#notice:has-text('Back online')", timeout=20000)
    server.kill()
    for page in pages:
        page.close()


STRICT_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws://{host}; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'; object-src 'none'"
)


@pytest.mark.parametrize("game", GAMES)
def test_the_pages_work_under_a_csp_without_inline_script_or_style(browser, server, game):
    """All script and style come from static files: under a strict policy (as the
    server sends, or stricter) the lobby and a table draw, play and show no violation."""
    made = server.create(
        game=game,
        players=(players := players_for(game, 2)),
        bot_delay=0,
        seats=human_and_bots(players),
    )
    # The policy is added to the page responses by the browser (page.route); a page
    # fulfilled that way counts as public, so Chromium's local-network checks would
    # block its socket to 127.0.0.1: a browser without those checks is used here.
    strict_browser = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"],
    )
    ctx = strict_browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )

    def strict(route):
        # A request the page dropped by navigating on (the lobby's, once the table is
        # opened) has its fetched response disposed before it is fulfilled: nothing is
        # left to draw, so it is let go; every page the test reads is waited for below.
        try:
            response = route.fetch()
            policy = STRICT_CSP.format(host=f"127.0.0.1:{server.port}")
            headers = {**response.headers, "content-security-policy": policy}
            route.fulfill(response=response, headers=headers)
        except PlaywrightError as e:
            if "disposed" not in str(e) and "closed" not in str(e):
                raise

    page.route(lambda url: "/t/" in url or url.rstrip("/").endswith(str(server.port)), strict)
    page.goto(server.url)
    page.wait_for_selector(".game")
    page.locator(".game details.rules summary").first.click()
    page.wait_for_selector(".rules-body:has-text('How to play')")  # (no eval under this CSP)
    page.goto(server.seat_url(made, 0))
    for _ in range(6):
        page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=20000)
        if page.is_visible("#final"):
            break
        page.locator(".move:not([disabled])").first.click()
    page.locator("#rules summary").click()
    page.wait_for_selector("#rules .rules-body:has-text('How to play')")
    assert not violations, violations
    ctx.close()
    strict_browser.close()


def test_the_lobby_offers_a_packaged_variant_by_name(browser, server):
    """UPTIME ships its lab variant; choosing it in the lobby makes a table that
    plays it (its title says so) without the lobby sending any file path."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url)
    page.wait_for_selector("#game-uptime select[name=variant]", state="attached")
    panel = page.locator("#game-uptime")
    panel.locator("details.new-table > summary").click()
    panel.locator("details.rule-options > summary").click()
    sweep = panel.locator("select[name='opt:row_sweep']")
    panel.locator("select[name=variant]").select_option("")
    assert sweep.input_value() == "false"  # the rulebook's setting, without a variant
    panel.locator("select[name=variant]").select_option("lab")
    assert "Row" in panel.locator("label.variant small").first.text_content()
    # The form shows what the table will play: the variant's setting, marked as such.
    assert sweep.input_value() == "true"
    assert (
        "set by the variant"
        in panel.locator("label:has(select[name='opt:row_sweep'])").text_content()
    )
    panel.locator("select[name=variant]").select_option("")
    assert sweep.input_value() == "false"
    panel.locator("select[name=variant]").select_option("lab")
    with page.expect_request("**/api/tables") as req:
        panel.locator("button[type=submit]").click()
    body = req.value.post_data_json
    assert body["variant"] == "lab" and "/" not in json.dumps(body)
    assert "row_sweep" not in body["options"]  # the variant's own setting is not overridden
    page.wait_for_selector("#game-uptime a.sit")
    panel.locator("a.sit").click()
    page.wait_for_selector("#title:has-text('UPTIME, recommended rules')")
    page.close()


# A forced move's note lives FORCED_MS (800 ms) before the page takes the move, so a
# loaded machine can miss it between "it is there" and "read it". The page records each
# note's text the moment it is added.
RECORD_FORCED_NOTES_JS = """() => {
  window.forcedNotes = [];
  new MutationObserver((changes) => {
    for (const change of changes)
      for (const node of change.addedNodes)
        if (node.classList && node.classList.contains("forced-note"))
          window.forcedNotes.push(node.textContent);
  }).observe(document.body, {childList: true, subtree: true});
}"""


def seat_card_text(page, seat: int) -> str:
    return page.locator(".seat-card", has_text=f"Seat {seat} ·").first.text_content()


def test_an_early_pick_reads_as_chosen_after_a_reconnect_and_single_moves_are_taken(
    browser, server
):
    """SUPER COMPUTER, two humans: seat 1 picks before seat 0 (its pick is held by
    the table). After a reload both pages show seat 1 as having picked, never "still
    picking" (the banner once said "You chose..." while the panel said still
    picking). Then the first placement, a single legal move, is taken for each player
    after a visible moment, shown in words (no grid coordinates)."""
    made = server.create(
        game="supercomputer",
        players=3,
        bot_delay=0,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
    )
    pages = [browser.new_page(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    for seat, page in enumerate(pages):
        page.goto(server.seat_url(made, seat))
    for page in pages:  # the builds: each keeps one (simultaneous, two options)
        page.locator("#moves .move:not([disabled])").first.click()
    pick = "#moves .move:not([disabled]):has-text('pick')"
    pages[1].wait_for_selector(pick)
    pages[1].locator(pick).first.click()
    pages[1].wait_for_selector("#await:has-text('You chose')")
    for page in pages:  # a reconnect: the page is built from a fresh frame
        page.reload()
        page.wait_for_selector(".seat-card:has-text('Seat 1 ·')")
    pages[1].wait_for_selector("#await:has-text('You chose')")
    pages[0].wait_for_selector(pick)
    for page in pages:
        card = seat_card_text(page, 1)
        assert "has picked" in card and "still picking" not in card, card
        assert "still picking" in seat_card_text(page, 0)  # seat 0 has not picked yet
    settled(pages[1])
    pages[1].screenshot(path=str(ARTIFACTS / "early-pick-after-reload.png"))
    # seat 0 picks: the picks are revealed; each first placement is the only move
    seq = pages[0].evaluate("T.view.seq")
    for page in pages:  # the note shows for a moment only: record it when it appears
        page.evaluate(RECORD_FORCED_NOTES_JS)
    pages[0].locator(pick).first.click()
    for page in pages:
        page.wait_for_function("window.forcedNotes.length > 0", timeout=20000)
        note = page.evaluate("window.forcedNotes[0]")
        assert note.startswith("Only one move"), note
        assert "as your first part" in note and "(0,0)" not in note, note
    for page in pages:  # taken without a click: the table moves past both placements
        page.wait_for_function(f"T.view.seq >= {seq} + 5", timeout=20000)
    log = pages[0].text_content("#log")  # the log tells positions in words too
    assert "as its first part" in log and "(0,0)" not in log, log
    for page in pages:
        page.close()


def test_the_play_button_starts_the_recommended_rules_with_mixed_bots(browser, tmp_path):
    """A game's card: players, box length, a Play button. A variant marked
    `recommended = true` comes first, its finding is shown beside the rules as
    written, and Play opens seat 0 of a table that plays it against bots of mixed
    strength (a searching bot, greedy, a persona)."""
    variant = tmp_path / "tryout.toml"
    variant.write_text(
        'game = "runway"\ntitle = "RUNWAY, tryout rules"\nrecommended = true\n'
        'finding = "As written, the generalist wins 27% against a fair 33%."\n'
        'about = "As written, with no Cash penalty."\n[options]\ncash_penalty = 0\n'
    )
    server = Server(tmp_path / "play.db", extra=("--variant", str(variant))).start()
    try:
        shots = {}
        for size, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", PHONE)):
            page = browser.new_page(viewport=viewport)
            page.goto(server.url)
            panel = page.locator("#game-runway")
            panel.locator("button.play").wait_for()
            assert "about 30 min" in panel.locator(".counts").text_content()
            assert "generalist wins 27%" in panel.locator("p.finding").text_content()
            note = panel.locator(".play-note").text_content()
            assert "greedy" in note and "iterations" in note and "tryout rules" in note, note
            shots[size] = ARTIFACTS / f"lobby-{size}.png"
            page.screenshot(path=str(shots[size]))
            if size == "phone":
                page.close()
                continue
            first = panel.locator("select[name=variant] option").first
            assert first.get_attribute("value") == "tryout", "the recommended rules come first"
            with page.expect_request("**/api/tables") as req:
                panel.locator("button.play").click()
            body = req.value.post_data_json
            assert body["variant"] == "tryout" and body["seats"][0] == {"kind": "human"}
            agents = [s["agent"] for s in body["seats"][1:]]
            assert "greedy" in agents and "ismcts" in agents, agents
            page.wait_for_selector("#title:has-text('RUNWAY, tryout rules')")
            page.wait_for_selector("#title:has-text('you are seat 0')")
            settled(page)
            page.screenshot(path=str(ARTIFACTS / "play-desktop-table.png"))
            page.close()
    finally:
        server.kill()


def test_invite_links_are_short_and_copied_whole(browser, server):
    """A table with a second human: its invite shows as a short form (table and seat)
    and Copy puts the whole link, token in the fragment, on the clipboard."""
    ctx = browser.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(server.url)
    panel = page.locator(".game").first
    panel.locator("details.new-table > summary").click()
    panel.locator("select[name=seat1]").select_option("human")
    panel.locator("button[type=submit]").click()
    row = panel.locator(".links li", has_text="Seat 1")
    row.wait_for()
    assert "token" not in row.text_content() and "seat 1" in row.text_content()
    row.locator("button.copy").click()
    row.locator(".copy-status:has-text('Copied')").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert re.fullmatch(rf"{re.escape(server.url)}/t/[\w-]+#seat=1&token=\S+", copied), copied
    panel.locator(".links").screenshot(path=str(ARTIFACTS / "invite-links-phone.png"))
    ctx.close()
