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
