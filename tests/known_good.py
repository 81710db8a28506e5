"""The worked evenings under tests/data/, loaded once: one file, one truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
EVENINGS = ("seed_schafkopf", "skat_36_three_table", "skat_48_four_table")


def evening(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data
