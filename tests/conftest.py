"""Test setup: the tiny third-party game is made installed the way a plug-in is.

`tests/tinygame/site` holds the package `tinyduel` and its `dist-info` with an entry point in the
group `balance.games`; putting the folder on the path (here and for worker processes) is what
installing it would do.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SITE = Path(__file__).parent / "tinygame" / "site"
if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(SITE), os.environ.get("PYTHONPATH", "")) if p
)
