"""The designer compares and deals versions in a real browser: on the design page a card
is edited, saved as a version and compared with the cards as written (bots play both on
the same seeds in the background; the progress bar moves and finishes), the two designs'
claims and experience show side by side, and the report link opens the lab's comparison
naming both arms. In the lobby, the operator's new-table form offers the saved version
as its cards, and the table made from it deals that version's cards under its rules."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import urllib.request

from browser import ARTIFACTS, Server, browser  # noqa: F401  (the fixture by name)

TOKEN = "compare-secret"
GAMES = 20
"""Games an arm: few, so the comparison takes seconds (its verdicts are not the point)."""


def test_edit_save_and_compare_with_the_cards_as_written(browser, tmp_path):  # noqa: F811
    server = Server(tmp_path / "tables.db", extra=("--operator-token", TOKEN)).start()
    errors: list[str] = []
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/design/uptime#operator={TOKEN}")
        page.wait_for_selector('input[aria-label="Tower count"]')
        assert page.is_disabled("#design-compare button")  # nothing saved to compare yet
        page.fill('input[aria-label="Tower count"]', "2")
        page.wait_for_function(
            "document.querySelector('#design-check').textContent.includes('valid game')"
        )
        page.fill('#design-save input[name="name"]', "two Towers")
        page.click("#design-save button")
        page.wait_for_selector("#design-saved.good")
        assert page.text_content(".design-version .design-verdicts") == "not yet compared"
        page.click(".design-version .design-compare-with")
        assert page.input_value('#design-compare select[name="a"]') == "as written"
        assert page.input_value('#design-compare select[name="b"]') == "1"
        page.fill('#design-compare input[name="games"]', str(GAMES))
        started = time.monotonic()
        page.click("#design-compare button")
        page.wait_for_selector("#compare-progress:not([hidden])")
        seen: list[tuple[int, int, str]] = []
        while time.monotonic() - started < 120:
            bar = page.evaluate(
                "(() => { const b = document.querySelector('#compare-progress');"
                " return [Number(b.value), Number(b.max), b.dataset.state || ''] })()"
            )
            seen.append((int(bar[0]), int(bar[1]), bar[2]))
            if len(seen) == 12:
                page.locator("#compare-status").screenshot(
                    path=str(ARTIFACTS / "design-compare-progress.png")
                )
            if bar[2] in ("done", "failed"):
                break
            page.wait_for_timeout(250)
        took = time.monotonic() - started
        assert seen[-1][2] == "done", (seen[-1], page.text_content("#compare-words"))
        done = [v for v, _, _ in seen]
        assert done == sorted(done), done  # games done only go up
        moving = {v for v, top, state in seen if state == "running" and 0 < v < top}
        assert len(moving) >= 2, seen  # seen part-way, more than once
        assert seen[-1][0] == seen[-1][1] > 10 * GAMES  # full at the end: every run counted
        assert "Done:" in page.text_content("#compare-words")
        result = page.locator("#compare-result")
        assert "the cards as written against version 1 (two Towers)" in result.text_content()
        heads = page.locator(".compare-claims tr").first.inner_text()
        assert "the cards as written" in heads and "version 1 (two Towers)" in heads
        claims = page.locator(".compare-claims tr").count() - 1
        assert claims >= 3 and page.locator(".compare-claims td.verdict").count() == 2 * claims
        verdicts = page.locator(".compare-claims td.verdict").all_inner_texts()
        assert all(
            v.split(" ", 1)[1] in ("holds", "fails", "needs data", "untestable") for v in verdicts
        )
        assert page.locator(".compare-experience tr").count() > 3
        assert page.locator("img.compare-plot").count() == 2
        assert page.evaluate(
            "[...document.querySelectorAll('img.compare-plot')].every((i) => i.naturalWidth > 100)"
        )
        assert "Tower" in page.text_content(".compare-primary")  # the change's own effect
        page.locator("#design-compare-panel").screenshot(path=str(ARTIFACTS / "design-compare.png"))
        with ctx.expect_page() as opened:
            page.click("a.compare-report")
        report = opened.value
        report.wait_for_load_state()
        text = report.inner_text("body")
        assert "Card files compared" in text
        assert "as-written.toml" in text and "v1-two-Towers.toml" in text
        assert "Experience against the reference band" in text
        assert report.locator("img").count() >= 2
        # the version's line now carries its verdicts under this comparison (arm B's)
        mine = verdicts[1::2]  # the claims table's cells: arm A, arm B, row by row
        line = page.locator('.design-version[data-version="1"] .design-verdicts')
        page.wait_for_function(
            "!!document.querySelector('.design-version .design-verdicts a.design-verdicts-report')"
        )
        holds = sum(v.endswith("holds") for v in mine)
        fails = sum(v.endswith("fails") for v in mine)
        text = line.text_content()
        assert text.startswith("claims: ") and (f" {holds} hold" in text or not holds), text
        assert f" {fails} fail" in text or not fails, text
        assert f"{GAMES} games an arm" in line.text_content()
        assert "the comparison" in line.locator("a").text_content()
        # the page finds the finished comparison again when it is opened anew
        page.reload()
        page.wait_for_selector("#compare-result .compare-claims")
        assert f"{GAMES} games an arm" in page.text_content(".design-version .design-verdicts")
        assert not errors, errors
        print(f"compare of {GAMES} games an arm: {took:.1f} s in the browser")
        ctx.close()
    finally:
        server.kill()


def _api(server: Server, path: str, body: object | None = None) -> dict:
    headers = {"authorization": f"Bearer {TOKEN}", "origin": server.url}
    if body is not None:
        headers["content-type"] = "application/json"
    req = urllib.request.Request(
        server.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    return json.loads(urllib.request.urlopen(req).read())


def test_the_lobby_form_opens_a_table_of_a_saved_version(browser, tmp_path):  # noqa: F811
    server = Server(tmp_path / "tables.db", extra=("--operator-token", TOKEN)).start()
    errors: list[str] = []
    try:
        rows = _api(server, "/api/design/uptime")["sheet"]["rows"]
        rows = [dict(r, count="2") if r.get("name") == "Tower" else r for r in rows]
        saved = _api(
            server,
            "/api/design/uptime/versions",
            {"rows": rows, "name": "two Towers", "options": {"hand_limit": 6}},
        )
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/#operator={TOKEN}")
        page.click("#game-uptime details.new-table summary")
        cards = page.locator('#game-uptime select[name="design_version"]')
        cards.wait_for()
        offered = cards.locator("option").all_inner_texts()
        assert offered[0] == "as written"
        assert offered[1].startswith(f"version {saved['id']} (two Towers, {saved['created_text']}")
        cards.select_option(str(saved["id"]))
        form = page.locator("#game-uptime form")
        assert form.locator('select[name="opt:hand_limit"]').input_value() == "6"
        lever = form.locator("label", has=page.locator('select[name="opt:hand_limit"]'))
        assert "set by version 1" in lever.text_content()  # the rule it sets, marked
        assert "Deals version 1's cards" in form.text_content()
        form.locator('select[name="players"]').select_option("2")
        form.locator('select[name="seat1"]').select_option("bot:greedy")
        form.locator('button[type="submit"]').click()
        page.wait_for_selector("#game-uptime .links a.sit")
        page.click("#game-uptime .links a.sit")
        page.wait_for_url("**/t/**")
        page.wait_for_selector(".move:not([disabled]), #final:not([hidden])")
        table = page.url.split("/t/", 1)[1].split("#", 1)[0]
        db = sqlite3.connect(tmp_path / "tables.db")
        settings, options = db.execute(
            "SELECT settings, options FROM tables WHERE id=?", (table,)
        ).fetchone()
        version_cards = db.execute(
            "SELECT cards FROM design_versions WHERE id=?", (saved["id"],)
        ).fetchone()[0]
        db.close()
        settings, options = json.loads(settings), json.loads(options)
        assert settings["cards"] == settings["design_version"] == "design version 1 (two Towers)"
        assert settings["cards_sha256"] == hashlib.sha256(version_cards).hexdigest()
        assert options["hand_limit"] == 6
        assert not errors, errors
        ctx.close()
    finally:
        server.kill()
