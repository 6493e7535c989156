"""Shared set-up of the engine tests.

The directory is put on ``sys.path`` so the tests can import the plain
reference reading of the rules (``reference_rules``) whatever pytest's import
mode is.
"""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
