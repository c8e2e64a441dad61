"""The designer's loop in a real browser, without a command line: the lobby links the
design page; a card is edited there (a bad value is marked in its cell), the design is
saved as a version, printed, and played at a table to the end, where the player answers
the survey; the lobby then shows the operator what the player said."""

from __future__ import annotations

from pathlib import Path

from browser import Server, browser, click_until_over  # noqa: F401  (fixtures by name)

TOKEN = "designer-secret"


def test_edit_save_print_play_and_hear_back(browser, tmp_path):  # noqa: F811
    server = Server(tmp_path / "tables.db", extra=("--operator-token", TOKEN)).start()
    errors: list[str] = []
    try:
        ctx = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/#operator={TOKEN}")
        page.click("#game-uptime .design-link")
        page.wait_for_selector('input[aria-label="Tower count"]')
        page.fill('input[aria-label="Copper count"]', "99")
        page.wait_for_selector('input[aria-label="Copper count"].bad')
        assert "outside the allowed range" in page.text_content("#design-check")
        page.fill('input[aria-label="Copper count"]', "6")
        page.fill('input[aria-label="Tower count"]', "2")
        page.wait_for_function(
            "document.querySelector('#design-check').textContent.includes('valid game')"
        )
        page.fill('#design-save input[name="name"]', "two Towers")
        page.click("#design-save button")
        page.wait_for_selector("#design-saved.good")
        assert "computer Tower: count 1 -> 2" in page.text_content("#design-versions")
        with page.expect_download() as got:
            page.click(".design-version .design-print")
        pdf = got.value.path()
        assert pdf is not None and Path(pdf).read_bytes()[:4] == b"%PDF"
        page.click(".design-version .design-play")
        page.wait_for_url("**/t/**")
        click_until_over(page)
        page.wait_for_selector("#survey .survey-form")
        page.check('#survey input[name="fun"][value="4"]')
        page.fill('#survey input[name="confusing"]', "when the Row refills")
        page.click("#survey .survey-send")
        page.wait_for_selector("#survey .survey-thanks")
        page.goto(f"{server.url}/")
        page.click("#game-uptime details.feedback summary")
        page.wait_for_selector("#game-uptime .feedback-play")
        said = page.text_content("#game-uptime .feedback-body")
        assert "1 answer" in said and "when the Row refills" in said
        assert not errors, errors
        ctx.close()
    finally:
        server.kill()
