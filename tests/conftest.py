from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

# Tests never depend on the machine's locale, time zone or colour settings.
os.environ["LC_ALL"] = "C.UTF-8"
os.environ["TZ"] = "UTC"
os.environ["NO_COLOR"] = "1"
os.environ.pop("COUNCIL_DEBUG", None)
