"""Table features around the game in the browser: chat, the host's
mute, Undo, Rematch, the your-turn title, keyboard zoom and card animation that
respects reduced motion. Two human seats on two pages of a real `cardlab serve`,
Debian's Chromium via Playwright; screenshots go to artifacts/web/."""

from __future__ import annotations

import contextlib

import pytest
from browser import ARTIFACTS
from playwright.sync_api import TimeoutError as PlaywrightTimeout

TURN = "● Your turn — "


def two_humans(server, game: str = "runway") -> dict:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    return server.create(game=game, players=2, seats=seats, bot_delay=0)


def open_page(browser, url: str, errors: list[str], **ctx):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, **ctx)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{exc} {exc.stack}"))
    page.goto(url)
    page.wait_for_selector("#title:has-text('step')")
    return context, page


def host_url(server, made) -> str:
    return f"{server.url}/t/{made['table']}#role=host&token={made['tokens']['host']}"


def step(page) -> int:
    return int(page.evaluate("T.view.seq"))


def mover(pages):
    """The page whose seat has moves now (waits until one has)."""
    for _ in range(200):
        for p in pages:
            if p.locator(".move:not([disabled])").count():
                return p
        pages[0].wait_for_timeout(50)
    raise AssertionError("no page has a move")


def play_to_the_end(pages, seconds: float = 180) -> None:
    """Each page clicks its first enabled move when it has one, until both show the end
    (a screenshot of each page is kept if the game does not end in time)."""
    import time

    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if all(p.is_visible("#final") for p in pages):
            return
        for p in pages:
            moves = p.locator(".move:not([disabled])")
            if moves.count() and not p.is_visible("#final"):
                try:
                    moves.first.click(timeout=2000)
                except Exception:  # noqa: BLE001, S112 - redrawn under the click: look again
                    continue
        pages[0].wait_for_timeout(30)
    for k, p in enumerate(pages):
        p.screenshot(path=str(ARTIFACTS / f"social-stuck-{k}.png"), full_page=True)
    raise AssertionError("the game did not end")


def test_chat_is_escaped_muted_by_the_host_and_limited(browser, server):
    made = two_humans(server)
    errors: list[str] = []
    ca, a = open_page(browser, server.seat_url(made, 0), errors)
    cb, b = open_page(browser, server.seat_url(made, 1), errors)
    ch, host = open_page(browser, host_url(server, made), errors)
    try:
        evil = '<img src=x onerror="window.pwned=1"><b>bold</b> & "quotes"'
        a.fill("#chat-text", evil)
        assert a.text_content(".chat-count") == f"{len(evil)} / 200"
        a.click(".chat-send")
        line = b.locator(".chat-line").last
        line.wait_for()
        # drawn as text: the markup shows as typed and nothing ran or was parsed
        assert line.locator(".text").text_content() == evil
        assert line.locator(".who").text_content() == "Ada"
        assert b.locator(".chat-list img, .chat-list b").count() == 0
        assert b.evaluate("window.pwned === undefined")
        assert (
            a.locator(".chat-line.mine").count() == 1 and b.locator(".chat-line.mine").count() == 0
        )
        assert a.get_attribute("#chat-text", "maxlength") == "200"
        # the host mutes Bo: Bo's box is disabled and says why; the host's button flips
        host.locator(".chat-host button.mute[data-seat='1']").click()
        b.wait_for_selector("#chat-text:disabled")
        assert "muted you" in b.text_content(".chat-note")
        unmute = host.locator(".chat-host button.mute[data-seat='1']")
        unmute.wait_for(state="attached")
        host.wait_for_function(
            "document.querySelector(\".chat-host button.mute[data-seat='1']\")"
            ".getAttribute('aria-pressed') === 'true'"
        )
        assert unmute.text_content() == "Unmute Bo"
        # a muted seat forced past the disabled box is still refused by the server
        b.evaluate("send({type: 'chat', text: 'sneaky'})")
        b.wait_for_selector("#notice:not([hidden])")
        assert "muted your seat" in b.text_content("#notice")
        host.fill("#chat-text", "Please be kind.")
        host.press("#chat-text", "Enter")
        a.wait_for_selector(".chat-line.from-host")
        assert a.locator(".chat-line.from-host .who").text_content() == "Host"
        host.locator(".chat-host button.mute[data-seat='1']").click()
        b.wait_for_selector("#chat-text:not(:disabled)")
        b.fill("#chat-text", "thanks")
        b.click(".chat-send")
        a.wait_for_selector(".chat-line:has-text('thanks')")
        assert [t for t in a.locator(".chat-line .who").all_text_contents()] == [
            "Ada",
            "Host",
            "Bo",
        ]
        # a reload gets the history once (no line drawn twice)
        a.reload()
        a.wait_for_selector(".chat-line:has-text('thanks')")
        assert a.locator(".chat-line").count() == 3
        a.locator("#social").screenshot(path=str(ARTIFACTS / "social-chat-panel.png"))
        host.locator("#social").screenshot(path=str(ARTIFACTS / "social-chat-host.png"))
        a.screenshot(path=str(ARTIFACTS / "social-chat-page.png"), full_page=True)
        assert errors == []
    finally:
        for c in (ca, cb, ch):
            c.close()


def test_undo_title_and_rematch_on_two_pages(browser, server):
    made = two_humans(server)
    errors: list[str] = []
    ca, a = open_page(browser, server.seat_url(made, 0), errors)
    cb, b = open_page(browser, server.seat_url(made, 1), errors)
    ch, host = open_page(browser, host_url(server, made), errors)
    try:
        first = mover([a, b])
        other = b if first is a else a
        # the title says whose turn it is, on each page
        first.wait_for_function(f"document.title.startsWith({TURN!r})")
        assert not other.title().startswith(TURN)
        assert other.title().endswith("cardlab")
        # a pass reveals nothing: Undo is offered, and takes the move back for both pages
        before = step(first)
        passes = first.locator(".move:not([disabled])", has_text="pass")
        assert passes.count(), first.locator(".move").all_text_contents()
        passes.first.click()
        first.wait_for_selector(".social-bar button.undo")
        assert step(first) == before + 1
        assert other.locator(".social-bar button.undo").count() == 0  # only the mover's
        first.screenshot(path=str(ARTIFACTS / "social-undo.png"))
        first.click(".social-bar button.undo")
        first.wait_for_function(f"T.view.seq === {before}")
        other.wait_for_function(f"T.view.seq === {before}")
        first.wait_for_function(f"document.title.startsWith({TURN!r})")
        assert first.locator(".social-bar button.undo").count() == 0
        # play to the end; then Ada asks for a rematch and both pages move to it
        play_to_the_end([a, b])
        assert not a.title().startswith(TURN) and not b.title().startswith(TURN)
        a.wait_for_selector(".social-bar button.rematch")
        a.screenshot(path=str(ARTIFACTS / "social-rematch-offer.png"))
        old = made["table"]
        a.click(".social-bar button.rematch")
        host.click(".social-bar button.stay", timeout=4000)  # within the 5 s count
        a.wait_for_url(lambda url: f"/t/{old}" not in url and "/t/" in url)
        # Bo's page says who started it and follows by itself after a short count
        b.wait_for_selector(".social-bar:has-text('Ada started a rematch')")
        b.wait_for_url(lambda url: f"/t/{old}" not in url and "/t/" in url, timeout=15000)
        assert a.url.split("#")[0] == b.url.split("#")[0]
        # the host chose to stay: it stayed past the count, and joins by its own click
        assert f"/t/{old}" in host.url
        host.click(".social-bar button.rematch:has-text('Join the rematch')")
        host.wait_for_url(lambda url: f"/t/{old}" not in url and "role=host" in url)
        assert host.url.split("#")[0] == a.url.split("#")[0]
        for page, seat in ((a, 0), (b, 1)):
            page.wait_for_selector(f"#title:has-text('you are seat {seat}')")
            assert page.evaluate("T.view.seq") == 0 and not page.evaluate("T.view.terminal")
            names = page.evaluate("T.view.table.seats.map(s => s.name)")
            assert names == ["Ada", "Bo"]
        assert errors == []
    finally:
        ca.close()
        cb.close()
        ch.close()


def play_some(pages, moves: int) -> None:
    for _ in range(moves):
        p = mover(pages)
        seq = step(p)
        p.locator(".move:not([disabled])").first.click()
        # the table moved on, or this seat's secret pick is held until the others pick
        p.wait_for_function(
            f"T.view.seq > {seq} || !document.querySelector('.move:not([disabled])')"
        )


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_card_animation_respects_reduced_motion(browser, server, motion):
    made = two_humans(server, "supercomputer")
    errors: list[str] = []
    ctx = {"reduced_motion": motion}
    ca, a = open_page(browser, server.seat_url(made, 0), errors, **ctx)
    cb, b = open_page(browser, server.seat_url(made, 1), errors, **ctx)
    try:
        a.evaluate(
            """() => { window.animClasses = 0;
            new MutationObserver(rs => { for (const r of rs) if (r.target.classList &&
              (r.target.classList.contains('cl-enter') || r.target.classList.contains('cl-move')))
              window.animClasses++; }).observe(document.body,
              {attributes: true, attributeFilter: ['class'], subtree: true}); }"""
        )
        play_some([a, b], 8)
        a.wait_for_timeout(300)
        started, classes = a.evaluate("[CardlabSocial.animated, window.animClasses]")
        if motion == "reduce":
            assert started == 0 and classes == 0
        else:
            assert started > 0 and classes > 0  # the same play animates without the setting
        assert errors == []
    finally:
        ca.close()
        cb.close()


def test_cards_zoom_from_the_keyboard(browser, server):
    made = two_humans(server, "uptime")
    errors: list[str] = []
    ca, a = open_page(browser, server.seat_url(made, 0), errors)
    try:
        # a card a tap zooms (not one a tap would choose: those zoom with Z, below)
        card = a.locator(".board .card[tabindex='0']:not(.touchable):visible").first
        card.wait_for()
        card_id = card.get_attribute("data-id")
        card.focus()
        a.keyboard.press("Enter")
        a.wait_for_selector("#zoom:not([hidden])")
        assert a.evaluate("document.activeElement.id") == "zoom"
        assert a.get_attribute("#zoom", "role") == "dialog"
        assert a.locator("#zoom .card[tabindex]").count() == 0  # the copy is no control
        a.screenshot(path=str(ARTIFACTS / "social-keyboard-zoom.png"))
        a.keyboard.press("Escape")
        a.wait_for_selector("#zoom", state="hidden")
        assert a.evaluate("document.activeElement.dataset.id") == card_id
        # Space opens it too; a tap closes it and the focus still comes back
        a.keyboard.press(" ")
        a.wait_for_selector("#zoom:not([hidden])")
        a.mouse.click(5, 5)
        a.wait_for_selector("#zoom", state="hidden")
        assert a.evaluate("document.activeElement.dataset.id") == card_id
        # a card a tap would choose (the mover's lit cards: RUNWAY's pitches name hand
        # cards) still zooms with Z, choosing nothing
        runway = two_humans(server, "runway")
        cr0, r0 = open_page(browser, server.seat_url(runway, 0), errors)
        cr1, r1 = open_page(browser, server.seat_url(runway, 1), errors)
        mine = mover([r0, r1])
        lit = mine.locator(".card.touchable[tabindex='0']:visible").first
        lit.wait_for()
        seq = step(mine)
        lit.focus()
        mine.keyboard.press("z")
        mine.wait_for_selector("#zoom:not([hidden])")
        mine.keyboard.press("Escape")
        mine.wait_for_selector("#zoom", state="hidden")
        assert step(mine) == seq
        assert mine.evaluate("document.activeElement.classList.contains('touchable')")
        cr0.close()
        cr1.close()
        assert errors == []
    finally:
        ca.close()


def test_notifications_are_asked_only_after_a_click_and_sound_is_remembered(browser, server):
    made = two_humans(server)
    errors: list[str] = []
    ca, a = open_page(browser, server.seat_url(made, 0), errors)
    try:
        a.evaluate(
            """() => { window.asked = 0; const real = Notification.requestPermission;
            Notification.requestPermission = () => { window.asked++; return Promise.resolve('denied'); }; }"""
        )
        a.wait_for_timeout(200)
        assert a.evaluate("window.asked") == 0  # nothing asked on opening
        assert not a.is_checked("#alert-sound")  # the beep is off by default
        a.click(".alerts button.notify")
        a.wait_for_function("window.asked === 1")
        a.check("#alert-sound")
        a.reload()
        a.wait_for_selector("#title:has-text('step')")
        assert a.is_checked("#alert-sound")
        assert a.evaluate("localStorage.getItem('cardlab.sound')") == "on"
        assert errors == []
    finally:
        ca.close()


def test_social_script_runs_under_the_pages_policy(browser, server):
    """No CSP bypass: the chat, the bar and the alerts work and nothing is blocked."""
    made = two_humans(server)
    page = browser._browser.new_page()  # the real browser, under the page's policy
    try:
        blocked: list[str] = []
        page.on(
            "console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None
        )
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.seat_url(made, 0))
        page.wait_for_selector("#social .chat-form")
        page.fill("#chat-text", "hello")
        page.click(".chat-send")
        page.wait_for_selector(".chat-line:has-text('hello')")
        page.wait_for_selector("#title:has-text('step')")
        assert blocked == [] and errors == []
    finally:
        page.close()


AXE = ARTIFACTS.parents[1] / "tests" / "web" / "vendor" / "axe.min.js"


def test_the_social_panel_bar_and_focusable_cards_pass_axe(browser, server):
    """axe-core (vendored) on the host's page with chat lines and mute buttons, and on a
    seat's page with its Undo bar up: no serious or critical violation in the panel,
    the bar or the cards made focusable for the keyboard zoom."""
    if not AXE.exists():
        pytest.skip("tests/web/vendor/axe.min.js is not there")
    made = two_humans(server)
    errors: list[str] = []
    ca, a = open_page(browser, server.seat_url(made, 0), errors)
    cb, b = open_page(browser, server.seat_url(made, 1), errors)
    ch, host = open_page(browser, host_url(server, made), errors)
    try:
        a.fill("#chat-text", "hello <there>")
        a.click(".chat-send")
        host.wait_for_selector(".chat-line")
        first = mover([a, b])
        first.locator(".move:not([disabled])", has_text="pass").first.click()
        first.wait_for_selector(".social-bar button.undo")
        found = {}
        for name, page in (("host", host), ("mover", first)):
            page.add_script_tag(path=str(AXE))
            found[name] = page.evaluate(
                """async () => {
                  const r = await axe.run(
                    {include: [['#social'], ['.social-bar'], ['.card[role=button]']]},
                    {resultTypes: ['violations']});
                  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
                    .map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).slice(0, 3)}`);
                }"""
            )
        assert found == {"host": [], "mover": []}
        assert errors == []
    finally:
        for c in (ca, cb, ch):
            c.close()


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes share any area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


UNDO_AND_TRAY_JS = """() => {
  const bar = document.querySelector('.social-bar'), tray = document.getElementById('tray');
  return !!(bar && !bar.hidden && bar.querySelector('button.undo') && tray && !tray.hidden);
}"""


def play_until_undo_and_tray(pages, moves: int = 30):
    """Moves from the list, alternately where asked, until a page shows its Undo and its
    decision tray at once (RUNWAY: a trade followed by the pitch of the same turn); that
    page, or None after `moves` moves."""
    for _ in range(moves):
        p = mover(pages)
        before = step(p)
        p.locator(".move:not([disabled])").first.click()
        with contextlib.suppress(PlaywrightTimeout):  # a two-step choice stays on its frame
            p.wait_for_function(f"T.view.seq !== {before}", timeout=1500)
        for q in pages:
            q.wait_for_timeout(150)  # the bar's lift runs a frame after the redraw
            if q.evaluate(UNDO_AND_TRAY_JS):
                return q
    return None


def test_on_a_phone_the_undo_bar_is_in_view_and_the_chat_fits(browser, server):
    from browser import layout_problems

    made = two_humans(server)
    errors: list[str] = []
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    contexts, pages = [], []
    for seat in (0, 1):
        context = browser.new_context(device_scale_factor=2, **phone)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.seat_url(made, seat))
        page.wait_for_selector("#title:has-text('step')")
        contexts.append(context)
        pages.append(page)
    try:
        first = mover(pages)
        first.locator(".move:not([disabled])", has_text="pass").first.click()
        bar = first.locator(".social-bar")
        bar.locator("button.undo").wait_for()
        box = bar.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
        first.screenshot(path=str(ARTIFACTS / "social-phone-undo.png"))
        # A seat that may still undo while its next decision is asked: the bar stands
        # above the sticky decision tray, neither covering the other.
        both = play_until_undo_and_tray(pages)
        assert both is not None, "no page showed Undo and its decision tray together"
        bar_box = both.locator(".social-bar").bounding_box()
        tray_box = both.locator("#tray").bounding_box()
        both.screenshot(path=str(ARTIFACTS / "social-phone-undo-and-tray.png"))
        assert not overlap(bar_box, tray_box), (bar_box, tray_box)
        assert bar_box["y"] + bar_box["height"] <= 844 and tray_box["y"] + tray_box["height"] <= 844
        first.locator("#social").scroll_into_view_if_needed()
        first.fill("#chat-text", "a long message " * 8)
        first.click(".chat-send")
        first.wait_for_selector(".chat-line")
        social = first.locator("#social").bounding_box()
        assert social["x"] >= 0 and social["x"] + social["width"] <= 390
        first.locator("#social").screenshot(path=str(ARTIFACTS / "social-phone-chat.png"))
        assert layout_problems(first) == []
        assert errors == []
    finally:
        for c in contexts:
            c.close()
