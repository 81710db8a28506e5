"""The rules' texts in both languages are exactly what they were before they became catalogue
msgids (tests/i18n_snapshot.py says how the snapshot was made and what it covers)."""

from __future__ import annotations

import json

from tests.i18n_snapshot import SNAPSHOT, collect


def test_every_rule_text_is_unchanged_in_both_languages() -> None:
    before = json.loads(SNAPSHOT.read_text())
    now = collect()
    assert now.keys() == before.keys()
    changed = [k for k in before if now[k] != before[k]]
    assert changed == [], "\n".join(f"{k}\n  was {before[k]}\n  now {now[k]}" for k in changed[:5])
