"""Make the toy game (agents_toy.py) and the clear-cut positions importable from these tests."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
