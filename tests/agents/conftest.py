"""Make the toy game (toygame.py) and the clear-cut positions importable from these tests."""

import sys
from pathlib import Path

for path in (Path(__file__).parent, Path(__file__).parent.parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
