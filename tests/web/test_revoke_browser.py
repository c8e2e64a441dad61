"""What people see when the host replaces a seat's link (headless Chromium): the host's
page shows the new link, the revoked player's page keeps saying that the host replaced
it (not a bare "refused"), and every other page says the seat's link was reissued by
the host."""

from __future__ import annotations

from browser import ARTIFACTS, browser, server  # noqa: F401 - the fixtures, by name
from test_browser import DESKTOP, two_player_game


def test_a_revoked_player_is_told_and_every_page_sees_the_reissued_seat(browser, server):  # noqa: F811
    made = server.create(
        game=two_player_game(), players=2, bot_delay=0, seats=[{"kind": "human"}] * 2
    )
    pages = [browser.new_page(viewport=DESKTOP) for _ in range(3)]
    first, second, host = pages
    first.goto(server.seat_url(made, 0))
    second.goto(server.seat_url(made, 1))
    host.goto(f"{server.url}/t/{made['table']}#role=host&token={made['tokens']['host']}")
    for page in pages:
        page.wait_for_selector("#conn:has-text('connected')", timeout=15000)
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#controls button:has-text('New link for seat 1')")
    host.wait_for_selector("#new-link input", timeout=10000)
    link = host.input_value("#new-link input")
    assert "#seat=1&token=" in link and made["tokens"]["seat1"] not in link
    second.wait_for_selector(".await.refused", timeout=10000)
    second.wait_for_timeout(300)  # the close that follows the frame must not erase it
    told = second.text_content("#await")
    assert "host replaced this seat's link" in told, told
    first.wait_for_selector("#reissued:not([hidden])", timeout=10000)
    assert "reissued by the host" in first.text_content("#reissued")
    first.screenshot(path=str(ARTIFACTS / "revoke-reissued.png"))
    second.screenshot(path=str(ARTIFACTS / "revoke-told.png"))
    for page in pages:
        page.close()
