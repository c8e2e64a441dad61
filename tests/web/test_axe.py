"""An axe-core accessibility pass (axe-core 4.14.1, vendored under
tests/web/vendor/, MPL-2.0) on the lobby and on a table of every game at 1280x900 and
390x844, during a decision of the human seat and with a card chosen by touch: no
serious or critical violation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from browser import settle_frame, touch_one_move
from test_browser import GAMES
from test_touch import SIZES, open_table

AXE = Path(__file__).with_name("vendor") / "axe.min.js"


def serious(page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        }"""
    )
    return list(found)


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_has_no_serious_accessibility_violation(browser, server, size):  # noqa: F811
    ctx = browser.new_context(viewport=SIZES[size])
    page = ctx.new_page()
    page.goto(server.url)
    page.wait_for_selector(".game")
    assert serious(page) == []
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_table_has_no_serious_accessibility_violation(browser, server, game, size):  # noqa: F811
    errors: list[str] = []
    ctx, page = open_table(browser, server, game, size, errors)
    settle_frame(page)
    page.wait_for_timeout(300)
    assert serious(page) == [], "during a decision"
    lit = page.locator(".card.touchable")
    if lit.count():  # a card chosen: the decision bar offers its moves or a confirm
        lit.first.click()
        page.wait_for_timeout(200)
        assert serious(page) == [], "with a card chosen"
    rng = random.Random(game)
    for _ in range(12):  # later in the game: computers, tableaux, a longer log
        settle_frame(page)
        if page.is_visible("#final"):
            break
        touch_one_move(page, rng, tap=size == "phone")
    settle_frame(page)
    page.wait_for_timeout(300)
    assert serious(page) == [], "a dozen moves in"
    assert not errors, errors
    ctx.close()
