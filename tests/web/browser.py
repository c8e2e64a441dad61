"""Helpers for the browser tests: a real `cardlab serve` process and Debian's
Chromium driven by Playwright (never `playwright install`)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"


def need_browser() -> None:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SHORT_GAMES: dict[str, dict[str, Any]] = {"hearts": {"deals": 2}}
"""Games the browser tests play shorter than their default: HEARTS over two deals (one
passing left, one right, and the next-deal turn between them) instead of four, which
would double the longest browser cases and show nothing new. A test that sets options
or a variant of its own plays those."""


class Server:
    """`cardlab serve` in its own process, so a test can kill it mid-game."""

    def __init__(self, db: Path, bot_delay: float = 0.0, extra: tuple[str, ...] = ()) -> None:
        self.db, self.bot_delay, self.extra = db, bot_delay, extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [
            sys.executable,
            "-m",
            "cardlab.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            "--bot-delay",
            str(self.bot_delay),
            *self.extra,
        ]
        self.log = open(self.db.with_suffix(".log"), "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            cmd, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ}
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start: " + self.db.with_suffix(".log").read_text())

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            self.log.close()

    def create(self, **spec: Any) -> dict[str, Any]:
        if spec.get("game") in SHORT_GAMES and "options" not in spec and "variant" not in spec:
            spec["options"] = SHORT_GAMES[spec["game"]]
        req = urllib.request.Request(
            self.url + "/api/tables",
            data=json.dumps(spec).encode(),
            # the server refuses side effects without a same-origin Origin header
            headers={"content-type": "application/json", "origin": self.url},
            method="POST",
        )
        return json.loads(urllib.request.urlopen(req).read())

    def seat_url(self, made: dict[str, Any], seat: int) -> str:
        return f"{self.url}/t/{made['table']}#seat={seat}&token={made['tokens'][f'seat{seat}']}"


def click_until_over(page, max_clicks: int = 2000) -> int:
    """Play by clicking only: the first enabled move button each time, until the final table shows."""
    clicks = 0
    while clicks < max_clicks:
        page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=20000)
        if page.is_visible("#final"):
            return clicks
        buttons = page.locator(".move:not([disabled])")
        n = buttons.count()
        if n:
            buttons.nth(clicks % n).click()
            clicks += 1
    raise AssertionError("game did not end")


# Layout problems on the table page, as the browser measures them (empty = none):
# the page never scrolls sideways; card names fit in whole words (in a computer
# grid's narrowest cells a long word may end in an ellipsis); each SUPER COMPUTER grid lies inside its seat
# panel and either shows whole or scrolls (overflow-x auto) with its cells
# already shrunk to the smallest size; move buttons lie inside the viewport.
LAYOUT_PROBLEMS_JS = """() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) out.push(`page is ${document.documentElement.scrollWidth}px wide in a ${W}px viewport`);
  for (const wrap of document.querySelectorAll('#seats .grid-wrap, #mine .grid-wrap')) {
    const seat = wrap.closest('.seat-card').getBoundingClientRect();
    const r = wrap.getBoundingClientRect();
    const name = wrap.closest('.seat-card').querySelector('h3').textContent;
    if (r.left < seat.left - 1 || r.right > seat.right + 1) out.push(`${name}: grid box sticks out of its panel`);
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      if (getComputedStyle(wrap).overflowX !== 'auto') out.push(`${name}: grid clipped, not scrollable`);
      const min = parseFloat(getComputedStyle(wrap.firstChild).getPropertyValue('--grid-min'));
      for (const cell of wrap.firstChild.children) {
        if (cell.getBoundingClientRect().width > min + 1) { out.push(`${name}: grid scrolls before its cells shrank`); break; }
      }
    }
  }
  for (const b of document.querySelectorAll('#moves .move')) {
    const r = b.getBoundingClientRect();
    if (r.left < -1 || r.right > W + 1) out.push(`move "${b.textContent}" outside the viewport`);
  }
  // card names fit their card in whole words (no mid-word break, nothing cut off)
  for (const n of document.querySelectorAll('.card .name')) {
    if (!n.offsetParent) continue;
    const s = getComputedStyle(n);
    if (s.overflowWrap === 'anywhere' || s.wordBreak === 'break-all') out.push(`name "${n.textContent}" may break mid-word`);
    const clipped = n.classList.contains('clip') && n.closest('.grid') && s.textOverflow === 'ellipsis';
    if (n.scrollWidth > n.clientWidth + 1 && !clipped) out.push(`name "${n.textContent}" is wider than its card`);
  }
  return out;
}"""


def layout_problems(page) -> list[str]:
    return list(page.evaluate(LAYOUT_PROBLEMS_JS))


class CspExempt:
    """A browser whose pages let Playwright evaluate test expressions (its
    `evaluate`/`wait_for_function` strings count as eval under the pages' strict CSP).
    The pages' own scripts are checked under the real policy in test_headers.py."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_page(self, **kwargs: Any) -> Any:
        return self._browser.new_page(bypass_csp=True, **kwargs)

    def new_context(self, **kwargs: Any) -> Any:
        return self._browser.new_context(bypass_csp=True, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


# The cards a decision is about that a player cannot see right now (empty = all in view),
# measured the same way on any version of the table page: for each legal move, every
# card its description (`does`) names that the page shows outside the other seats'
# panels and the piles below the board (#public: discards; your own cards there on the old page count) - your hand,
# the shared table, your own seat - must have one copy inside the viewport, uncovered (the
# point at its centre is the card); the cards of yours that can pay for a move, and for
# SUPER COMPUTER your build cards (the card, or the decision bar's line naming it); the
# Deal in play for a RUNWAY pitch; every SUPER COMPUTER cell you may place on. None
# while it is not your decision.
DECISION_OUT_OF_VIEW_JS = r"""() => {
  const v = T.view;
  if (!v || v.terminal || !v.legal || v.legal.length < 2) return null;
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.top < -1 || r.left < -1 || r.bottom > H + 1 || r.right > W + 1) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (el.contains(hit) || hit.contains(el));
  };
  const out = [];
  const pool = [...document.querySelectorAll('.card[data-name]')].filter((e) => e.getClientRects().length
    && !e.closest('.seat-card:not(.me), #log, #zoom, #replay, #final, .grid, #public .panel:not(.key-you)'));
  // the cards each move names, as the engine describes it (`does`): each card it plays
  // or acts on and each card of yours that can pay for it; of interchangeable cards
  // (`alternatives`) one is enough. A card with no element on the board is not judged.
  const seen = (id) => pool.filter((e) => e.dataset.id === id);
  const barNames = (name) => [...document.querySelectorAll('#tray .bar-note')].some((n) => shown(n) && n.textContent.includes(name));
  const named = (id) => `${(seen(id)[0] || {dataset: {}}).dataset.name || id}`;
  for (const m of v.legal) {
    const d = m.does || {};
    for (const id of [...(d.cards || []), ...(d.targets || [])]) {
      const els = seen(id);
      if (els.length && !els.some(shown)) out.push(`${named(id)} (for "${m.label}")`);
    }
    for (const id of d.pays_with || []) {  // or the decision bar's line naming it
      const els = seen(id);
      if (els.length && !els.some(shown) && !barNames(els[0].dataset.name)) out.push(`${named(id)} (to pay for "${m.label}")`);
    }
    const alts = (d.alternatives || []).filter((id) => seen(id).length);
    if (alts.length && !alts.some((id) => seen(id).some(shown))) out.push(`${named(alts[0])} (for "${m.label}")`);
  }
  if (v.obs.game === 'runway' && v.legal.some((m) => (m.does || {}).kind === 'pitch')) {
    const deal = [...document.querySelectorAll('.key-deal_in_play .card')];
    if (!deal.some(shown)) out.push('the Deal in play');
  }
  for (const t of document.querySelectorAll('.grid .target')) if (!shown(t)) out.push(`cell "${t.title}"`);
  for (const z of document.querySelectorAll('.zone-mini')) {
    const label = z.querySelector('.zone-label');
    if (!label || label.textContent !== 'Your builds' || z.closest('.seat-card:not(.me)')) continue;
    for (const c of z.querySelectorAll('.card')) {
      // the card itself, or the decision bar's line naming it (it never leaves the screen)
      if (!shown(c) && !barNames(c.dataset.name)) out.push(`your build ${c.dataset.name}`);
    }
  }
  return [...new Set(out)];
}"""


def decision_out_of_view(page) -> list[str] | None:
    """What the decision now asked is about that is off screen or covered (None: no
    decision of yours with a choice in it)."""
    got = page.evaluate(DECISION_OUT_OF_VIEW_JS)
    return None if got is None else list(got)


def settle_frame(page, timeout: float = 20000) -> None:
    """Wait until the page shows the end or a decision of yours it has drawn."""
    page.wait_for_selector("#final:not([hidden]), .move:not([disabled])", timeout=timeout)


TOUCH_STATE_JS = """() => ({
  seq: T.view.seq, clicked: T.clicked === T.view.seq, legal: T.view.legal.length,
  confirm: document.querySelectorAll('#tray .tray-confirm').length,
  lit: document.querySelectorAll('.card.target-lit').length,
  trayMoves: document.querySelectorAll('#tray .tray-move').length,
  selected: document.querySelectorAll('.card.selected').length,
  touchable: document.querySelectorAll('.card.touchable:not(.selected)').length,
  cells: document.querySelectorAll('.grid .target:not([disabled])').length,
})"""


def touch_one_move(page, rng, tap: bool, shot=None, prefer_board: bool = False) -> str:
    """Make one move of the decision now asked by touching the board as a player would:
    a lit card, then (when the bar offers more) a lit target or one of the bar's moves,
    then Confirm when asked; a marked cell of a computer; the bar's card-less moves (Draw,
    Pass). Returns how the move was made ("card", "cell", "bar"), or "forced" when the
    single legal move was taken by the page. `shot(state)` is called while a card is
    selected or a confirm is asked (for screenshots). With `prefer_board` a lit card or
    cell is always chosen over the bar's moves when one is offered."""

    def press(locator) -> None:
        locator.scroll_into_view_if_needed()
        (locator.tap if tap else locator.click)()

    start = page.evaluate("T.view.seq")
    how = ""
    for _ in range(8):
        s = page.evaluate(TOUCH_STATE_JS)
        if s["seq"] != start or s["clicked"]:
            return how or "bar"
        if shot is not None and (s["selected"] or s["confirm"]):
            shot(s)
        if s["legal"] == 1:  # the page takes a single move after a visible moment
            page.wait_for_function(
                f"T.view.seq !== {start} || T.clicked === T.view.seq", timeout=20000
            )
            return "forced"
        if s["confirm"]:
            press(page.locator("#tray .tray-confirm"))
        elif s["selected"] and s["lit"] and rng.random() < 0.7:
            lit = page.locator(".card.target-lit")
            press(lit.nth(rng.randrange(s["lit"])))
        elif s["selected"] and s["trayMoves"]:
            moves = page.locator("#tray .tray-move")
            press(moves.nth(rng.randrange(s["trayMoves"])))
        elif s["cells"] and (not s["touchable"] or rng.random() < 0.8):
            press(page.locator(".grid .target:not([disabled])").nth(rng.randrange(s["cells"])))
            how = how or "cell"
        elif s["touchable"] and (not s["trayMoves"] or prefer_board or rng.random() < 0.75):
            cards = page.locator(".card.touchable:not(.selected)")
            press(cards.nth(rng.randrange(s["touchable"])))
            how = how or "card"
        elif s["trayMoves"]:
            press(page.locator("#tray .tray-move").nth(rng.randrange(s["trayMoves"])))
            how = how or "bar"
        else:
            raise AssertionError(f"nothing to touch for this decision: {s}")
        page.wait_for_timeout(60)
    raise AssertionError("eight touches did not make a move")


# The browser tests' two fixtures, in one place: a test module imports them by name
# (`from browser import browser, server`), so every file drives the same Chromium set-up.
@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, one per test module (the page CSP exemption kept)."""
    need_browser()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield CspExempt(b)
        b.close()


@pytest.fixture
def server(tmp_path):
    """A fresh `cardlab serve` on its own database, killed after the test."""
    s = Server(tmp_path / "tables.db").start()
    yield s
    s.kill()
