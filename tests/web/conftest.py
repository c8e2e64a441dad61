"""Fixtures for the web tests live in web_support (tests import helpers from there
by a name no other test folder uses); importing them here registers the fixtures."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from web_support import *  # noqa: E402, F403
