"""Fixtures for the web tests live in web_support (tests import helpers from there
by a name no other test folder uses); importing them here registers the fixtures."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# The browser tests' Chromium and `cardlab serve` fixtures (a module may still define its own).
from browser import browser, server  # noqa: E402, F401
from web_support import *  # noqa: E402, F403
