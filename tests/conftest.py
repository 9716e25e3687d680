"""Test setup: the tests' own helpers are importable, and deep documents do not exhaust recursion."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
