"""Suite-wide setup.  pytest puts tests/ on sys.path (pyproject's `pythonpath`), so the helpers
here (fake engines, the deck builder) import by name; the loky worker processes that some tests
start get the same folder through PYTHONPATH."""

import os
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_TESTS, os.environ.get("PYTHONPATH")) if p)
